package cblas

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/views"
)

// TestOpenMPGate checks clib's gate against OpenBLAS's OpenMP build
// (scripts/docker-test.sh openblas-openmp runs it; other builds have no
// per-thread count): a call from a thread whose OpenMP count is two runs
// with the count every call has (one, in auto mode) and leaves the
// process-wide count alone; a raised thread's calls keep its count; and
// products computed on four goroutines while one of them runs raised are
// right (OpenMathLib/OpenBLAS#5825: a changed count freed the buffers of
// a threaded call, about one product in 3,000 wrong).
func TestOpenMPGate(t *testing.T) {
	if threads.Lib() != threads.OpenMP {
		t.Skipf("the library is %s, not OpenBLAS's OpenMP build", threads.Lib())
	}
	if threads.Fixed() != 0 {
		t.Skip("a fixed thread count is set")
	}
	const n = 256 // large enough that OpenBLAS threads a gemm when allowed
	r := rand.New(rand.NewPCG(5, 6))
	a, b := randMatrix(r, n), randMatrix(r, n)
	want, _ := views.Zeros[float64](n, n)
	if err := Gemm(1, a, b, 0, want.View()); err != nil {
		t.Fatal(err)
	}
	gemm := func() bool {
		c, _ := views.Zeros[float64](n, n)
		if err := Gemm(1, a, b, 0, c.View()); err != nil {
			t.Error(err)
			return false
		}
		for i, x := range c.Data() {
			if math.Abs(x-want.Data()[i]) > 1e-12*n {
				return false // a wrong product is off by O(1)
			}
		}
		return true
	}

	runtime.LockOSThread()
	clib.SetThreads(2) // this thread's count and the process-wide one, behind the gate
	gemm()
	if omp, proc := clib.OMPMaxThreads(), clib.Threads(); omp != 1 || proc != 2 {
		t.Errorf("a call from a thread at two: its count %d, process-wide %d after; want 1 (the gate's), 2 (untouched)", omp, proc)
	}
	runtime.UnlockOSThread()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	wrong, calls := 0, 0
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ok := gemm()
				mu.Lock()
				calls++
				if !ok {
					wrong++
				}
				mu.Unlock()
			}
		}()
	}
	runtime.LockOSThread()
	deadline := time.Now().Add(time.Second)
	raisedCalls := 0
	for time.Now().Before(deadline) || raisedCalls == 0 {
		clib.RaiseThreads(2)
		ok := gemm()
		omp := clib.OMPMaxThreads()
		clib.LowerThreads()
		if omp != 2 {
			t.Fatalf("raised thread: its count %d during its call; want 2", omp)
		}
		if !ok {
			wrong++
		}
		raisedCalls++
	}
	if omp := clib.OMPMaxThreads(); omp != 1 {
		t.Errorf("after LowerThreads: the thread's count %d; want 1", omp)
	}
	runtime.UnlockOSThread()
	close(stop)
	wg.Wait()
	if wrong > 0 {
		t.Errorf("%d of %d products wrong (%d on the raised thread's side)", wrong, calls+raisedCalls, raisedCalls)
	}
	t.Logf("%d products beside %d raised ones, all right", calls, raisedCalls)
}

func randMatrix(r *rand.Rand, n int) views.View[float64] {
	m, _ := views.Zeros[float64](n, n)
	for i := range m.Data() {
		m.Data()[i] = r.NormFloat64()
	}
	return m.View()
}
