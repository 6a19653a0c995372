package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/bench/family"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkBatchTinyBusy times batch.Inv and batch.Det on 10000 float64
// matrices of order 8 (compact) while another goroutine of the process
// runs a pure-Go loop: with two workers a batch must not be slower than
// with one, however the workers wait for work.
func BenchmarkBatchTinyBusy(b *testing.B) {
	const n, count = 8, 10000
	rng := rand.New(rand.NewPCG(n, 14))
	spd := spdStack(rng, n, count)
	a := make([]float64, len(spd))
	av := must(views.FromColMajor(a, n, n, count)).View()
	a0v := must(views.FromColMajor(spd, n, n, count)).View()
	for _, op := range []string{"det", "inv"} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("op=%s/n=%d/count=%d/workers=%d", op, n, count, w), func(b *testing.B) {
				prev, _ := lapis.SetWorkers(w)
				defer lapis.SetWorkers(prev)
				stop := family.StartBusy(1)
				for b.Loop() {
					var err error
					switch op {
					case "det":
						_, err = batch.Det(a0v)
					case "inv":
						copy(a, spd)
						err = batch.InvTo(av, av)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				loops := stop()
				b.ReportMetric(float64(loops)/b.Elapsed().Seconds()/1e6, "busy-Mloops/s")
			})
		}
	}
}
