package cblas

import (
	"runtime"
	"testing"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/views"
)

// TestOpenMPPerThread checks, against the real library, what the policy
// relies on with OpenBLAS's OpenMP build (scripts/docker-test.sh
// openblas-openmp runs it; with other builds there is nothing to check):
// a section sets its own OS thread's count and leaves other threads'
// counts alone; a call from a thread at one thread runs on one although
// another thread set more, and makes one the process-wide count; a call
// from a thread at two while the process-wide count is one runs on one
// (the process-wide count is shared: other calls lower, never raise).
func TestOpenMPPerThread(t *testing.T) {
	if threads.Lib() != threads.OpenMP {
		t.Skipf("the library is %s, not OpenBLAS's OpenMP build: no per-thread count to check", threads.Lib())
	}
	if clib.OMPMaxThreads() < 0 {
		t.Fatal("OpenMP build without omp_get_max_threads")
	}
	const n = 256 // large enough that OpenBLAS threads a gemm when allowed
	gemm := func() {
		a, _ := views.Zeros[float64](n, n)
		b, _ := views.Zeros[float64](n, n)
		c, _ := views.Zeros[float64](n, n)
		if err := Gemm(1, a.View(), b.View(), 0, c.View()); err != nil {
			t.Error(err)
		}
	}
	step := make(chan int)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := threads.Begin(threads.Level3, 1) // a small call: one thread, here
	if s.Threads() != 1 || clib.OMPMaxThreads() != 1 {
		t.Fatalf("small section: %d threads, this thread's OpenMP count %d; want 1, 1", s.Threads(), clib.OMPMaxThreads())
	}
	go func() { // another OS thread sets two, as a raised call would
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		clib.SetThreads(2)
		step <- clib.OMPMaxThreads()
		<-step // the first thread's call ran
		before := clib.OMPMaxThreads()
		gemm()
		step <- before
		step <- clib.Threads()
	}()
	if other := <-step; other != 2 || clib.OMPMaxThreads() != 1 || clib.Threads() != 2 {
		t.Fatalf("after another thread set 2: its count %d, this thread's %d, process-wide %d; want 2, 1, 2", other, clib.OMPMaxThreads(), clib.Threads())
	}
	gemm() // on this thread, at one
	if clib.Threads() != 1 || clib.OMPMaxThreads() != 1 {
		t.Errorf("after a call from the thread at one: process-wide %d, this thread's %d; want 1, 1 (its call ran on one)", clib.Threads(), clib.OMPMaxThreads())
	}
	step <- 0
	if before, after := <-step, <-step; before != 2 || after != 1 {
		t.Errorf("the thread at two, calling while the process-wide count is one: its count %d, process-wide after %d; want 2, 1 (lowered, not raised)", before, after)
	}
	s.End()
	// Leave the library as the policy keeps it at rest.
	clib.SetThreads(1)
}
