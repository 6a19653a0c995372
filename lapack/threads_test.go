package lapack

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/views"
)

// TestThreadPolicy runs LAPACK and BLAS calls from several goroutines at
// once under the default thread policy: calls below the size thresholds
// run on one OpenBLAS thread whatever else runs, so their results are bit
// for bit those of the same call made alone; large products (which the
// policy may give more threads) agree within rounding; and when all is
// done no section is in flight and OpenBLAS is back on one thread. Run
// with -race.
func TestThreadPolicy(t *testing.T) {
	if info := lapis.Info(); info.Library == "OpenBLAS" && info.Parallel == 0 {
		// As batch's TestStress: seen in scripts/docker-test.sh's
		// openblas-serial variant (Debian 12's libopenblas0-serial).
		t.Skipf("OpenBLAS %s built without threads (parallel mode 0) is not safe to call from several threads at once (OpenMathLib/OpenBLAS#2126, #2136): what this test compares is what that build gets wrong", info.Version)
	}
	if err := lapis.SetThreads(lapis.AutoThreads); err != nil {
		t.Skip(err)
	}
	const small, large = 96, 256
	r := rand.New(rand.NewPCG(16, 1))
	randm := func(n int) []float64 {
		s := make([]float64, n*n)
		for i := range s {
			s[i] = r.Float64() - 0.5
		}
		return s
	}
	a0, b0 := randm(small), randm(small)[:small]
	ga, gb := randm(large), randm(large)
	solve := func() []float64 {
		a, b := slices.Clone(a0), slices.Clone(b0)
		av := must(views.FromColMajor(a, small, small)).View()
		bv := must(views.FromColMajor(b, small, 1)).View()
		if err := Gesv(av, bv, make([]int32, small)); err != nil {
			t.Error(err)
		}
		return b
	}
	product := func() []float64 {
		c := make([]float64, large*large)
		err := cblas.Gemm(1, must(views.FromColMajor(ga, large, large)).View(), must(views.FromColMajor(gb, large, large)).View(),
			0, must(views.FromColMajor(c, large, large)).View())
		if err != nil {
			t.Error(err)
		}
		return c
	}
	wantSolve, wantProduct := solve(), product()
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 8 {
				if g%3 == 0 {
					got := product()
					for i := range got {
						if d := math.Abs(got[i] - wantProduct[i]); d > 1e-12*large {
							t.Errorf("large product differs by %g at %d", d, i)
							return
						}
					}
					continue
				}
				if got := solve(); !slices.Equal(got, wantSolve) {
					t.Errorf("a small solve beside other calls differs from the same solve made alone")
					return
				}
			}
		}()
	}
	wg.Wait()
	if n, raised := threads.InFlight(); n != 0 || raised {
		t.Errorf("after the calls: %d sections in flight, raised %v", n, raised)
	}
	if info := lapis.Info(); info.Variant == "pthreads" {
		if got := threads.Lib(); got != threads.Pthreads {
			t.Errorf("variant %v", got)
		}
	}
}
