package threads

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// fake is a pthreads library whose process-wide count the tests read.
type fake struct{ count atomic.Int64 }

// withFake installs a fake pthreads library of up to max threads and a
// load estimate returning busy, and restores the real ones afterwards.
func withFake(t *testing.T, max, busy int) *fake {
	t.Helper()
	if runtime.GOMAXPROCS(0) < 2 || runtime.NumCPU() < 2 {
		t.Skip("needs two cores and GOMAXPROCS >= 2")
	}
	f := &fake{}
	f.count.Store(1)
	savedLib, savedInitial, savedBusy, savedFixed := lib, initial, busyFn, fixed.Load()
	lib = Library{Variant: Pthreads, Set: func(n int) { f.count.Store(int64(n)) }, Get: func() int { return int(f.count.Load()) }}
	initial = max
	busyFn = func() int { return busy }
	fixed.Store(0)
	t.Cleanup(func() { lib, initial, busyFn = savedLib, savedInitial, savedBusy; fixed.Store(savedFixed) })
	return f
}

func TestDecisions(t *testing.T) {
	big, small := threshold[Lapack]*2, threshold[Lapack]/2
	for _, c := range []struct {
		name       string
		max, busy  int
		kind       Kind
		work       float64
		want       int
		wantRaised bool
	}{
		{"small alone", 2, 0, Lapack, small, 1, false},
		{"large alone idle", 2, 0, Lapack, big, 2, true},
		{"large alone one busy", 2, 1, Lapack, big, 1, false},
		{"large alone two busy", 2, 2, Lapack, big, 1, false},
		{"single section", 2, 0, Single, big, 1, false},
		{"library of one", 1, 0, Lapack, big, 1, false},
		{"level 3 below", 2, 0, Level3, threshold[Level3] - 1, 1, false},
		{"level 3 above", 2, 0, Level3, threshold[Level3], 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := withFake(t, c.max, c.busy)
			s := Begin(c.kind, c.work)
			if got := f.count.Load(); s.Threads() != c.want || got != int64(c.want) || s.raised != c.wantRaised {
				t.Errorf("section %d threads (raised %v), library at %d; want %d (raised %v)", s.Threads(), s.raised, got, c.want, c.wantRaised)
			}
			s.End()
			if got := f.count.Load(); got != 1 {
				t.Errorf("after End the library is at %d threads; want 1", got)
			}
			if n, raised := InFlight(); n != 0 || raised {
				t.Errorf("after End: %d sections, raised %v", n, raised)
			}
		})
	}
}

// TestLowered: a section that starts while a raised one runs puts the
// library back to one thread before it returns, and a large section that
// starts while another runs is not raised.
func TestLowered(t *testing.T) {
	f := withFake(t, 2, 0)
	big := Begin(Lapack, threshold[Lapack]*2)
	if f.count.Load() != 2 {
		t.Fatalf("large section alone: library at %d", f.count.Load())
	}
	small := Begin(Level3, 1)
	if f.count.Load() != 1 {
		t.Errorf("small section during a raised one: library at %d; want 1", f.count.Load())
	}
	other := Begin(Lapack, threshold[Lapack]*2)
	if other.Threads() != 1 || f.count.Load() != 1 {
		t.Errorf("second large section: %d threads, library at %d; want 1, 1", other.Threads(), f.count.Load())
	}
	other.End()
	small.End()
	big.End()
	if n, raised := InFlight(); f.count.Load() != 1 || n != 0 || raised {
		t.Errorf("after all: library %d, %d sections, raised %v", f.count.Load(), n, raised)
	}
}

// TestFixed: a fixed count is the library's for every call, and nothing
// is decided per call.
func TestFixed(t *testing.T) {
	f := withFake(t, 2, 0)
	SetFixed(3)
	for _, w := range []float64{1, threshold[Lapack] * 2} {
		s := Begin(Lapack, w)
		if f.count.Load() != 3 {
			t.Errorf("fixed 3, work %g: library at %d", w, f.count.Load())
		}
		s.End()
	}
	if Max() != 3 || Fixed() != 3 {
		t.Errorf("Max %d, Fixed %d; want 3, 3", Max(), Fixed())
	}
	SetFixed(0)
	if f.count.Load() != 1 || Fixed() != 0 {
		t.Errorf("back to auto: library at %d, fixed %d; want 1, 0", f.count.Load(), Fixed())
	}
}

// TestConcurrent: goroutines start sections of every kind at random;
// whenever a section given one thread is in flight, the library is on one
// thread (checked as each one begins and before it ends), and at most one
// section is raised at a time. Run with -race.
func TestConcurrent(t *testing.T) {
	f := withFake(t, 2, 0)
	var raised atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for range 2000 {
				kind := Kind(r.IntN(3))
				work := threshold[Lapack] * 2 * r.Float64() * 2
				s := Begin(kind, work)
				if s.raised {
					if raised.Add(1) != 1 {
						t.Error("two sections raised at once")
					}
				} else if got := f.count.Load(); got != 1 {
					t.Errorf("section on one thread began with the library at %d", got)
				}
				if !s.raised {
					if got := f.count.Load(); got != 1 {
						t.Errorf("section on one thread ends with the library at %d", got)
					}
				} else {
					raised.Add(-1)
				}
				s.End()
			}
		}()
	}
	wg.Wait()
	if n, r := InFlight(); f.count.Load() != 1 || n != 0 || r {
		t.Errorf("after all: library %d, %d sections, raised %v", f.count.Load(), n, r)
	}
}

func TestParseLoadavg(t *testing.T) {
	for in, want := range map[string]int{"0.00 0.01 0.05 2/345 6789\n": 2, "1.5 1.2 1.0 17/900 1": 17} {
		if n, ok := parseLoadavg([]byte(in)); !ok || n != want {
			t.Errorf("%q: %d, %v; want %d", in, n, ok, want)
		}
	}
	for _, in := range []string{"", "0.00 0.01 0.05", "0.00 0.01 0.05 x/3"} {
		if _, ok := parseLoadavg([]byte(in)); ok {
			t.Errorf("%q parsed", in)
		}
	}
}

func TestBusyRuns(t *testing.T) {
	if b := Busy(); b < 0 {
		t.Errorf("Busy() = %d", b)
	}
}
