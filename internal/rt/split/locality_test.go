package split

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/lapis-go/lapis/internal/test/spin"
)

// BenchmarkLocality: two goroutines that keep spinning copy a 5 MB
// buffer (10000 float64 matrices of order 8), cut into 160 units of 32 KB
// handed out by a Split as batch hands out its tiny lane groups, with
// three rules for a worker's home: home=cpu (New's: the region of the CPU
// it runs on, each CPU so copies the same bytes every call), home=arrival
// (the order the workers arrive: a unit lands on either CPU, as batch's
// pieces did before package split) and home=swap (the CPU's region one
// call, the other's the next: every line crosses between the cores each
// call). workers=1 is one goroutine copying it all, the time to halve.
//
//	go test -run '^$' -bench Locality -count 5 ./internal/split
func BenchmarkLocality(b *testing.B) {
	const size = 10000 * 64
	src, dst := make([]float64, size), make([]float64, size)
	for i := range src {
		src[i] = float64(i)
	}
	for _, c := range []struct {
		home    string
		workers int
	}{{"cpu", 1}, {"cpu", 2}, {"arrival", 2}, {"swap", 2}} {
		b.Run(fmt.Sprintf("home=%s/workers=%d", c.home, c.workers), func(b *testing.B) {
			if _, ok := CPU(); !ok && c.home != "arrival" {
				b.Skip("CPU unknown here")
			}
			const units = 160
			team := spin.New(c.workers)
			defer team.Stop()
			b.SetBytes(2 * 8 * size)
			var call atomic.Int64
			for b.Loop() {
				s := New(units, c.workers, 1)
				k := int(call.Add(1))
				team.Run(func(int) {
					w := s.Worker()
					switch c.home {
					case "arrival":
						w.home = s.arrival()
					case "swap":
						w.home = (w.home + k) % c.workers
					}
					w.from = w.home
					for ulo, uhi, ok := w.Next(); ok; ulo, uhi, ok = w.Next() {
						lo, hi := size*ulo/units, size*uhi/units
						for o := lo; o < hi; o += 1 << 15 { // below 1 MB: ordinary stores
							copy(dst[o:min(hi, o+1<<15)], src[o:])
						}
					}
				})
			}
		})
	}
}
