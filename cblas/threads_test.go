package cblas

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/views"
)

// TestLargeGemmBesideBusyGoroutines: under the default policy a gemm of
// at least threads' level3Loaded work (768^3; 1024^3 here) made while two
// other goroutines keep the cores busy is given two OpenBLAS threads
// (Looks counts it raised), its product agrees with one thread's within
// rounding, and afterwards OpenBLAS is back on one thread with no
// section in flight.
func TestLargeGemmBesideBusyGoroutines(t *testing.T) {
	if lapis.Info().Variant != "pthreads" || runtime.GOMAXPROCS(0) < 2 {
		t.Skipf("needs a pthreads OpenBLAS and GOMAXPROCS >= 2 (variant %s)", lapis.Info().Variant)
	}
	const n = 1024
	r := rand.New(rand.NewPCG(16, 3))
	a, b := make([]float64, n*n), make([]float64, n*n)
	for i := range a {
		a[i], b[i] = r.Float64()-0.5, r.Float64()-0.5
	}
	view := func(s []float64) views.View[float64] {
		m, err := views.FromColMajor(s, n, n)
		if err != nil {
			t.Fatal(err)
		}
		return m.View()
	}
	av, bv := view(a), view(b)
	product := func() []float64 {
		c := make([]float64, n*n)
		if err := Gemm(1, av, bv, 0, view(c)); err != nil {
			t.Error(err)
		}
		return c
	}
	defer lapis.SetThreads(lapis.AutoThreads)
	if err := lapis.SetThreads(1); err != nil {
		t.Skip(err)
	}
	want := product()
	lapis.SetThreads(lapis.AutoThreads)

	var done atomic.Bool
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 1.0
			for !done.Load() {
				for range 1000 {
					x = x*1.0000001 + 1e-9
				}
			}
			runtime.KeepAlive(x)
		}()
	}
	decided, raised := threads.Looks()
	got := product()
	done.Store(true)
	wg.Wait()
	if d, r := threads.Looks(); d != decided+1 || r != raised+1 {
		t.Errorf("Looks went from %d decided, %d raised to %d, %d; want one more of each", decided, raised, d, r)
	}
	for i := range got {
		if d := math.Abs(got[i] - want[i]); d > 1e-12*n {
			t.Fatalf("two threads' product differs from one thread's by %g at %d", d, i)
		}
	}
	if k, up := threads.InFlight(); clib.Threads() != 1 || k != 0 || up {
		t.Errorf("afterwards: OpenBLAS at %d threads, %d sections in flight, raised %v; want 1, 0, false", clib.Threads(), k, up)
	}
}
