package cblas

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/views"
)

// TestMKLPerThread checks, against the real library and without timing,
// the policy's use of MKL's per-thread count (scripts/docker-test.sh mkl
// runs it; with other libraries there is nothing to check): a section
// sets its own OS thread's count (mkl_set_num_threads_local) and nothing
// else; another goroutine, before, during and after it and in its own
// lapis calls, sees the count it had; at the end the thread's own setting
// is back, whether the code around it had set one or not; MKL's
// process-wide count never changes.
func TestMKLPerThread(t *testing.T) {
	if threads.Lib() != threads.PerThread {
		t.Skipf("the library is %s, not MKL: no per-thread count to check", threads.Lib())
	}
	if want := os.Getenv("MKL_THREADING_LAYER"); want != "" {
		layer := "libmkl_" + strings.ToLower(want) + "_thread.so"
		if strings.EqualFold(want, "SEQUENTIAL") {
			layer = "libmkl_sequential.so"
		}
		if cfg := lapis.Info().Config; !strings.Contains(cfg, layer) {
			t.Errorf("MKL_THREADING_LAYER=%s but MKL loaded %q", want, cfg)
		}
	}
	// other runs f on a goroutine locked to another OS thread.
	other := func(f func() int) int {
		ch := make(chan int)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			ch <- f()
		}()
		return <-ch
	}
	gemm := func() {
		a, _ := views.Zeros[float64](64, 64)
		c, _ := views.Zeros[float64](64, 64)
		if err := Gemm(1, a.View(), a.View(), 0, c.View()); err != nil {
			t.Error(err)
		}
	}
	global := other(clib.MKLMaxThreads)
	fixed := 1 // a count a section sets that differs from the global one
	if global == 1 {
		if threads.Limit() < 2 {
			t.Skipf("MKL's count is 1 and lapis allows no more: nothing to tell apart")
		}
		fixed = 2
	}
	own := max(global, fixed) + 1 // the setting of the code around the call

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer lapis.SetThreads(lapis.AutoThreads)
	for _, mode := range []string{"fixed", "auto"} {
		for _, preset := range []int{0, own} {
			n := 1 // auto: a small call runs on one thread
			if mode == "fixed" {
				n = fixed
				if err := lapis.SetThreads(fixed); err != nil {
					t.Fatal(err)
				}
			} else if err := lapis.SetThreads(lapis.AutoThreads); err != nil {
				t.Fatal(err)
			}
			clib.MKLSetLocal(preset)
			before := clib.MKLMaxThreads()
			s := threads.Begin(threads.Level3, 1)
			in := clib.MKLMaxThreads()
			seen := other(func() int {
				x := clib.MKLMaxThreads()
				gemm() // another goroutine's lapis call
				if y := clib.MKLMaxThreads(); y != x {
					t.Errorf("%s, preset %d: another goroutine's own lapis call changed its count %d -> %d", mode, preset, x, y)
				}
				return x
			})
			s.End()
			after := clib.MKLMaxThreads()
			if in != n || s.Threads() != n {
				t.Errorf("%s, preset %d: in the section this thread's count is %d (section says %d); want %d", mode, preset, in, s.Threads(), n)
			}
			if seen != global {
				t.Errorf("%s, preset %d: another goroutine saw %d during the section; want %d (the global count)", mode, preset, seen, global)
			}
			if after != before || clib.MKLSetLocal(0) != preset {
				t.Errorf("%s, preset %d: after the section this thread's count is %d (was %d); want its own setting back", mode, preset, after, before)
			}
			gemm() // a lapis call from this goroutine leaves no setting behind
			if got := clib.MKLSetLocal(0); got != 0 {
				t.Errorf("%s: a lapis call left this thread's setting at %d", mode, got)
			}
		}
	}
	if g := other(clib.MKLMaxThreads); g != global {
		t.Errorf("MKL's process-wide count went from %d to %d", global, g)
	}
}
