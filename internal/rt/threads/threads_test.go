package threads

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
	savedLib, savedInitial, savedBusy, savedFixed, savedHigh := lib, initial, busyFn, fixed.Load(), lastHigh.Load()
	lib = Library{Variant: Pthreads, Set: func(n int) { f.count.Store(int64(n)) }, Get: func() int { return int(f.count.Load()) }}
	initial = max
	busyFn = func(bool) int { return busy }
	fixed.Store(0)
	t.Cleanup(func() {
		lib, initial, busyFn = savedLib, savedInitial, savedBusy
		fixed.Store(savedFixed)
		lastHigh.Store(savedHigh)
	})
	return f
}

func TestDecisions(t *testing.T) {
	big, small := threshold[Lapack]*2, threshold[Lapack]/2
	for _, c := range []struct {
		name      string
		max, busy int
		kind      Kind
		work      float64
		want      int
		looks     bool // whether the decision looked at the load
	}{
		{"small alone", 2, 0, Lapack, small, 1, false},
		{"large alone idle", 2, 0, Lapack, big, 2, true},
		{"large alone one busy", 2, 1, Lapack, big, 1, true},
		{"large alone two busy", 2, 2, Lapack, big, 1, true},
		{"LAPACK of more work than level3Loaded, one busy", 2, 1, Lapack, level3Loaded * 8, 1, true},
		{"single section", 2, 0, Single, big, 1, false},
		{"library of one", 1, 0, Lapack, big, 1, false},
		{"level 3 below", 2, 0, Level3, threshold[Level3] - 1, 1, false},
		{"level 3 above", 2, 0, Level3, threshold[Level3], 2, true},
		{"level 3 below level3Loaded, one busy", 2, 1, Level3, level3Loaded - 1, 1, true},
		{"level 3 at level3Loaded, quiet", 2, 0, Level3, level3Loaded, 2, false},
		{"level 3 at level3Loaded, one busy", 2, 1, Level3, level3Loaded, 2, false},
		{"level 3 at level3Loaded, two busy", 2, 2, Level3, level3Loaded, 2, false},
		{"level 3 at level3Loaded, library of one", 1, 2, Level3, level3Loaded, 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := withFake(t, c.max, c.busy)
			looked := false
			busyFn = func(bool) int { looked = true; return c.busy }
			d0, r0 := Looks()
			s := Begin(c.kind, c.work)
			if got := f.count.Load(); s.Threads() != c.want || got != int64(c.want) || s.raised != (c.want > 1) {
				t.Errorf("section %d threads (raised %v), library at %d; want %d", s.Threads(), s.raised, got, c.want)
			}
			if looked != c.looks {
				t.Errorf("looked at the load: %v; want %v", looked, c.looks)
			}
			s.End()
			if got := f.count.Load(); got != 1 {
				t.Errorf("after End the library is at %d threads; want 1", got)
			}
			if n, raised := InFlight(); n != 0 || raised {
				t.Errorf("after End: %d sections, raised %v", n, raised)
			}
			// Looks counts the calls the policy decided, and those it
			// raised.
			decided := c.kind != Single && c.max > 1 && c.work >= threshold[c.kind]
			if d, r := Looks(); (d-d0 == 1) != decided || r-r0 != int64(min(1, c.want-1)) {
				t.Errorf("Looks went from %d, %d to %d, %d", d0, r0, d, r)
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

// TestConcurrentSections: goroutines start sections of every kind at
// random; whenever a section given one thread is in flight, the library
// is on one thread (checked as each one begins and before it ends), and at
// most one section is raised at a time. Run with -race. The proof rests on
// sequentially consistent atomics (a store, then a load, in each of two
// goroutines); qemu-user's arm64 on an x86 host does not keep that order
// (it translates STLR then LDAR to a store and a load the host may
// reorder), so docker-test.sh's arm64 variant skips this test.
func TestConcurrentSections(t *testing.T) {
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

// TestParseLoadavg: /proc/loadavg's running count (parseLoadavg) and its
// one-minute average in thousandths (parseLoad1).
func TestParseLoadavg(t *testing.T) {
	for in, want := range map[string][2]int64{
		"0.00 0.01 0.05 2/345 6789\n":  {0, 2},
		"1.5 1.2 1.0 17/900 1":         {1500, 17},
		"0.52 0.00 0.00 1/1 1":         {520, 1},
		"12.34 9.99 9.99 1234/99999 5": {12340, 1234},
		"3 1 1 1/1 1":                  {3000, 1},
		"0.1239 1 1 1/1 1":             {123, 1},
	} {
		load, ok1 := parseLoad1([]byte(in))
		n, ok := parseLoadavg([]byte(in))
		if !ok1 || !ok || load != want[0] || int64(n) != want[1] {
			t.Errorf("%q: load %d (%v), running %d (%v); want %d, %d", in, load, ok1, n, ok, want[0], want[1])
		}
	}
	for _, in := range []string{"", "0.00 0.01 0.05", "0.00 0.01 0.05 x/3", "0.00 0.01 0.05 /3", "0.00 0.01 0.05 2", "0.00 0.01 0.05 2 345"} {
		if n, ok := parseLoadavg([]byte(in)); ok {
			t.Errorf("%q parsed as %d running", in, n)
		}
	}
	for _, in := range []string{"", "0.52", " 0.52 1", "x 1", ".x 1", "1.2.3 1", "-1 1", "1234567890 1"} {
		if n, ok := parseLoad1([]byte(in)); ok {
			t.Errorf("%q parsed as load %d", in, n)
		}
	}
}

// TestMachineRunning reads the real /proc/loadavg: the running count
// includes the thread reading it.
func TestMachineRunning(t *testing.T) {
	if !machineWide {
		t.Skip("the process may not use every CPU: the machine's count is not used")
	}
	for range 3 {
		n, ok := machineRunning()
		if !ok || n < 1 {
			t.Fatalf("machineRunning() = %d, %v; want at least 1 (this thread), true", n, ok)
		}
	}
}

// TestBusyOf: what one reading says for each state of the process and
// the machine (2 cores).
func TestBusyOf(t *testing.T) {
	for _, c := range []struct {
		name         string
		r            reading
		spin, online int
		want         int
		avg          int
		avgOK        bool
	}{
		{"quiet", reading{running: 1, machine: 1, machineOK: true}, 0, 2, 0, 0, false},
		{"one busy goroutine", reading{running: 2, machine: 2, machineOK: true}, 0, 2, 1, 0, false},
		{"one busy goroutine, preempted", reading{running: 1, runnable: 1, machine: 2, machineOK: true}, 0, 2, 1, 0, false},
		{"two busy goroutines", reading{running: 2, runnable: 1, machine: 3, machineOK: true}, 0, 2, 2, 0, false},
		{"another process", reading{running: 1, machine: 2, machineOK: true}, 0, 2, 1, 0, false},
		{"two other processes", reading{running: 1, machine: 3, machineOK: true}, 0, 2, 2, 0, false},
		{"a goroutine blocked in cgo", reading{running: 1, notInGo: 1, machine: 1, machineOK: true}, 0, 2, 0, 0, false},
		{"a goroutine running in cgo", reading{running: 1, notInGo: 1, machine: 2, machineOK: true}, 0, 2, 1, 0, false},
		{"cgo, machine unknown", reading{running: 1, notInGo: 1}, 0, 0, 1, 0, false},
		{"busy goroutine, machine unknown", reading{running: 2}, 0, 0, 1, 0, false},
		{"OpenBLAS spinning after a call", reading{running: 1, machine: 2, machineOK: true}, 1, 2, 0, 0, false},
		{"spinning and another process", reading{running: 1, machine: 3, machineOK: true}, 1, 2, 1, 0, false},
		{"machine count below the process's", reading{running: 3, machine: 1, machineOK: true}, 0, 2, 2, 0, false},
		{"CPU quota: 2 of 8 CPUs, 4 others", reading{running: 1, machine: 5, machineOK: true}, 0, 8, 1, 0, false},
		{"CPU quota: 2 of 8 CPUs, 1 other", reading{running: 1, machine: 2, machineOK: true}, 0, 8, 0, 0, false},
		{"another process now, idle on average", reading{running: 1, machine: 2, machineOK: true}, 0, 2, 0, 0, true},
		{"another process now and on average", reading{running: 1, machine: 2, machineOK: true}, 0, 2, 1, 1, true},
		{"two other processes now, one on average", reading{running: 1, machine: 3, machineOK: true}, 0, 2, 1, 1, true},
		{"none now, one on average (it stopped)", reading{running: 1, machine: 1, machineOK: true}, 0, 2, 0, 1, true},
		{"busy goroutine, others idle on average", reading{running: 2, machine: 3, machineOK: true}, 0, 2, 1, 0, true},
	} {
		if got := busyOf(c.r, context{spin: c.spin, cores: 2, online: c.online, avg: c.avg, avgOK: c.avgOK}); got != c.want {
			t.Errorf("%s: busyOf(%+v, spin %d) = %d; want %d", c.name, c.r, c.spin, got, c.want)
		}
	}
}

// withReadings makes Busy read the given readings in turn (the last one
// again when they run out), with other processes' average unknown, and
// returns how many it took.
func withReadings(t *testing.T, rs ...reading) *int {
	t.Helper()
	taken := new(int)
	withReadFn(t, func(int) reading {
		r := rs[min(*taken, len(rs)-1)]
		*taken++
		return r
	})
	return taken
}

// withReadFn makes Busy's readings come from read, given how many times
// Busy has yielded its CPU so far (counted, not done), with other
// processes' average unknown, and returns the count of yields.
func withReadFn(t *testing.T, read func(yields int) reading) *int {
	t.Helper()
	saved, savedAvg, savedYield, savedHigh, savedPause := readFn, avgFn, yieldFn, lastHigh.Load(), noYieldUntil.Load()
	avgFn = func() (int, bool) { return 0, false }
	yields := new(int)
	yieldFn = func() { *yields++ }
	readFn = func() reading { return read(*yields) }
	lastHigh.Store(0)
	noYieldUntil.Store(0)
	t.Cleanup(func() {
		readFn, avgFn, yieldFn = saved, savedAvg, savedYield
		lastHigh.Store(savedHigh)
		noYieldUntil.Store(savedPause)
	})
	return yields
}

// TestYieldPause: a look whose yields changed nothing (a goroutine that
// stays busy) keeps the looks after it from yielding for yieldPause; a
// look whose yields cleared a reading (the Go scheduler's M) does not.
func TestYieldPause(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 || runtime.NumCPU() < 2 {
		t.Skip("needs two cores and GOMAXPROCS >= 2")
	}
	quiet := reading{running: 1, machine: 1, machineOK: true}
	two := reading{running: 2, machine: 2, machineOK: true} // a busy goroutine, or an M queued behind the caller
	busyG := func(int) reading { return two }
	queuedM := func(y int) reading {
		if y == 0 {
			return two
		}
		return quiet
	}
	// An M cleared by a yield: the next look yields too.
	yields := withReadFn(t, queuedM)
	look(true)
	*yields = 0
	if got := look(true); got != 0 || *yields != 1 {
		t.Errorf("after a useful yield: look(true) = %d after %d yields; want 0 after 1", got, *yields)
	}
	// A busy goroutine: the first look yields, the next do not, and the
	// count is the same.
	yields = withReadFn(t, busyG)
	if got := look(true); got != 1 || *yields != reads-1 {
		t.Fatalf("busy goroutine, first look: %d after %d yields; want 1 after %d", got, *yields, reads-1)
	}
	for range 3 {
		if got := look(true); got != 1 || *yields != reads-1 {
			t.Errorf("busy goroutine, later look: %d after %d yields in all; want 1 after %d", got, *yields, reads-1)
		}
	}
	// Once yieldPause has passed, looks yield again; an M then found is
	// cleared as before.
	noYieldUntil.Store(int64(time.Since(start) - time.Nanosecond))
	*yields = 0
	readFn = func() reading { return queuedM(*yields) }
	if got := look(true); got != 0 || *yields != 1 {
		t.Errorf("after the pause: look(true) = %d after %d yields; want 0 after 1", got, *yields)
	}
}

// TestBusyYields: Busy gives up its CPU before each reading after the
// first that found other work, and only then. What it is for: after a
// cgo call long enough for sysmon to mark the caller for preemption, the
// caller is preempted at its next function call, and the M that ran it
// can hold the other P (/sched/goroutines/running counts it) while it
// waits, runnable, on the caller's CPU; once the caller yields it runs,
// finds no work and lets the P go. A goroutine that keeps a core busy is
// there at every reading, however often the caller yields.
func TestBusyYields(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 || runtime.NumCPU() < 2 {
		t.Skip("needs two cores and GOMAXPROCS >= 2")
	}
	quiet := reading{running: 1, machine: 1, machineOK: true}
	queuedM := reading{running: 2, machine: 2, machineOK: true} // an M holding a P, runnable behind the caller
	busyG := reading{running: 2, machine: 2, machineOK: true}
	for _, c := range []struct {
		name        string
		read        func(yields int) reading
		want, yield int
	}{
		{"quiet: no yield", func(int) reading { return quiet }, 0, 0},
		{"an M queued behind the caller until it yields", func(y int) reading {
			if y == 0 {
				return queuedM
			}
			return quiet
		}, 0, 1},
		{"an M that needs two yields", func(y int) reading {
			if y < 2 {
				return queuedM
			}
			return quiet
		}, 0, 2},
		{"an M that outlasts the yields", func(y int) reading {
			if y < reads {
				return queuedM
			}
			return quiet
		}, 1, reads - 1},
		{"a busy goroutine", func(int) reading { return busyG }, 1, reads - 1},
		{"two busy goroutines", func(int) reading { return reading{running: 2, runnable: 1, machine: 3, machineOK: true} }, 2, reads - 1},
	} {
		yields := withReadFn(t, c.read)
		if got := look(true); got != c.want || *yields != c.yield {
			t.Errorf("%s: look(true) = %d after %d yields; want %d after %d", c.name, got, *yields, c.want, c.yield)
		}
		yields = withReadFn(t, c.read)
		// Without yields the readings never change: a queued M counts.
		want := c.want
		if c.yield > 0 {
			want = max(1, c.want)
		}
		if got := Busy(); got != want || *yields != 0 {
			t.Errorf("%s: Busy() = %d after %d yields; want %d after none", c.name, got, *yields, want)
		}
	}
	// Only the readings of goroutines yield: another process's thread,
	// queued on the caller's CPU, would take it for up to a time slice.
	yields := withReadFn(t, func(int) reading { return reading{running: 1, machine: 2, machineOK: true} })
	if got := look(true); got != 1 || *yields != 0 {
		t.Errorf("another process: look(true) = %d after %d yields; want 1 after 0", got, *yields)
	}
	// A large call yields, a small one does not.
	for _, c := range []struct {
		work float64
		want int
	}{{yieldWork, 2}, {yieldWork - 1, 1}} {
		f := withFake(t, 2, 0)
		busyFn = look
		withReadFn(t, func(y int) reading {
			if y == 0 {
				return queuedM
			}
			return quiet
		})
		s := Begin(Level3, c.work)
		if s.Threads() != c.want || f.count.Load() != int64(c.want) {
			t.Errorf("work %g after a preemption: %d threads, library at %d; want %d", c.work, s.Threads(), f.count.Load(), c.want)
		}
		s.End()
	}
}

// TestBusyReadings: a quiet first reading ends the look; a busy one is
// read again and the least count kept, so a thread that runs for an
// instant does not count, while a busy goroutine or process, in every
// reading, does.
func TestBusyReadings(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 || runtime.NumCPU() < 2 {
		t.Skip("needs two cores and GOMAXPROCS >= 2")
	}
	quiet := reading{running: 1, machine: 1, machineOK: true}
	spinningM := reading{running: 2, machine: 2, machineOK: true}
	kernelThread := reading{running: 1, machine: 2, machineOK: true}
	busyG := reading{running: 2, machine: 2, machineOK: true}
	otherProc := reading{running: 1, machine: 2, machineOK: true}
	for _, c := range []struct {
		name        string
		rs          []reading
		want, taken int
	}{
		{"quiet", []reading{quiet}, 0, 1},
		{"an M spinning for an instant", []reading{spinningM, quiet}, 0, 2},
		{"a kernel thread for an instant", []reading{kernelThread, kernelThread, quiet}, 0, 3},
		{"a busy goroutine", []reading{busyG}, 1, reads},
		{"another process", []reading{otherProc}, 1, reads},
		{"two busy goroutines, one preempted at the second look", []reading{{running: 3, machine: 3, machineOK: true}, {running: 2, runnable: 1, machine: 3, machineOK: true}}, 2, reads},
	} {
		taken := withReadings(t, c.rs...)
		if got := Busy(); got != c.want || *taken != c.taken {
			t.Errorf("%s: Busy() = %d after %d readings; want %d after %d", c.name, got, *taken, c.want, c.taken)
		}
	}
}

// TestSpinning: OpenBLAS's threads are not counted as other work for
// spinWindow after a call ran on them, raised in auto mode or in a fixed
// mode just left.
func TestSpinning(t *testing.T) {
	f := withFake(t, 2, 0)
	busyFn = look
	withReadings(t, reading{running: 1, machine: 2, machineOK: true}) // the caller and one more thread
	if got := Busy(); got != 1 {
		t.Fatalf("no call yet: Busy() = %d; want 1 (the other thread is someone else's)", got)
	}
	s := Begin(Level3, threshold[Level3])
	if f.count.Load() != 1 {
		t.Fatalf("a thread of another process: library at %d; want 1", f.count.Load())
	}
	s.End()
	ranOn(2)
	if got := Busy(); got != 0 {
		t.Errorf("just after a call on two threads: Busy() = %d; want 0 (its helper spins)", got)
	}
	lastHigh.Store(int64(time.Since(start) - spinWindow))
	if got := Busy(); got != 1 {
		t.Errorf("spinWindow after the call: Busy() = %d; want 1", got)
	}
	SetFixed(2)
	SetFixed(0)
	if got := spinning(); got != 1 {
		t.Errorf("just after leaving fixed 2: spinning() = %d; want 1", got)
	}
	s = Begin(Level3, threshold[Level3])
	if !s.raised || f.count.Load() != 2 {
		t.Errorf("large call just after fixed 2 ended: raised %v, library at %d; want true, 2", s.raised, f.count.Load())
	}
	s.End()
}

// TestDecisionsFromReadings: Begin's choice from what Busy reads, for the
// states the policy is for (2 cores, a library of 2 threads, a large
// call).
func TestDecisionsFromReadings(t *testing.T) {
	big := threshold[Level3] * 8
	for _, c := range []struct {
		name  string
		rs    []reading
		want  int
		avg   int
		avgOK bool
	}{
		{"another process for an instant, idle on average", []reading{{running: 1, machine: 2, machineOK: true}}, 2, 0, true},
		{"another process loading a core, now and on average", []reading{{running: 1, machine: 2, machineOK: true}}, 1, 1, true},
		{"one busy goroutine, others idle on average", []reading{{running: 2, machine: 2, machineOK: true}}, 1, 0, true},
		{"quiet process, quiet machine", []reading{{running: 1, machine: 1, machineOK: true}}, 2, 0, false},
		{"quiet, one instant of a spinning M", []reading{{running: 2, machine: 2, machineOK: true}, {running: 1, machine: 1, machineOK: true}}, 2, 0, false},
		{"one busy goroutine", []reading{{running: 2, machine: 2, machineOK: true}}, 1, 0, false},
		{"two busy goroutines", []reading{{running: 2, runnable: 1, machine: 3, machineOK: true}}, 1, 0, false},
		{"another process loading a core", []reading{{running: 1, machine: 2, machineOK: true}}, 1, 0, false},
		{"other processes loading both cores", []reading{{running: 1, machine: 3, machineOK: true}}, 1, 0, false},
		{"a goroutine blocked in a system call", []reading{{running: 1, notInGo: 1, machine: 1, machineOK: true}}, 2, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := withFake(t, 2, 0)
			busyFn = look
			withReadings(t, c.rs...)
			avgFn = func() (int, bool) { return c.avg, c.avgOK }
			looks, idles := Looks()
			s := Begin(Level3, big)
			if s.Threads() != c.want || f.count.Load() != int64(c.want) {
				t.Errorf("%d threads, library at %d; want %d", s.Threads(), f.count.Load(), c.want)
			}
			s.End()
			l, i := Looks()
			if l != looks+1 || (i-idles == 1) != (c.want > 1) {
				t.Errorf("Looks went from %d, %d to %d, %d", looks, idles, l, i)
			}
		})
	}
}

func TestBusyRuns(t *testing.T) {
	if b := Busy(); b < 0 {
		t.Errorf("Busy() = %d", b)
	}
}

func TestOthersOver(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name string
		a, b cpuTimes
		want int64
	}{
		{"idle machine", cpuTimes{0, 100, 0}, cpuTimes{100 * ms, 120, 0}, 0},
		{"this process on one core", cpuTimes{0, 100, 0}, cpuTimes{100 * ms, 110, 100 * ms}, 0},
		{"this process on both", cpuTimes{0, 100, 5 * ms}, cpuTimes{100 * ms, 100, 205 * ms}, 0},
		{"another process on one core", cpuTimes{0, 100, 0}, cpuTimes{100 * ms, 110, 0}, 1000},
		{"another on one core, this on the other", cpuTimes{0, 100, 0}, cpuTimes{200 * ms, 100, 200 * ms}, 1000},
		{"another at 30%", cpuTimes{time.Second, 100, 0}, cpuTimes{2 * time.Second, 270, 0}, 300},
		{"rounding below this process's time", cpuTimes{0, 100, 0}, cpuTimes{100 * ms, 111, 100 * ms}, 0},
		{"no time passed", cpuTimes{ms, 100, 0}, cpuTimes{ms, 100, 0}, -1},
	} {
		if got := othersOver(c.a, c.b, 2); got != c.want {
			t.Errorf("%s: othersOver = %d; want %d", c.name, got, c.want)
		}
	}
}

func TestParseStat(t *testing.T) {
	for in, want := range map[string]int64{
		"cpu  48708 177405 42161 44921 317 0 228 1501 0 0\ncpu0 24402 89146 20465 22720 171 0 43 662 0 0\n": 44921 + 317,
		"cpu  1 2 3 4 5\n":      9,
		"cpu 1 2 3 4 5 6 7 8\n": 9,
	} {
		if got, ok := parseStat([]byte(in)); !ok || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "cpu", "cpu  1 2 3 4\n", "cpu0 1 2 3 4 5 6\n", "cpu  1 2 3 x 5 6\n", "cpu  1 2 3 4x 5 6\n", "cpu  1 2 3 -4 5 6\n", "cpu  1 2 3 4 5", "cpu  1 2 3 99999999999999999999 5 6\n"} {
		if n, ok := parseStat([]byte(in)); ok {
			t.Errorf("%q parsed as %d", in, n)
		}
	}
}

// TestReadCPUTimes reads the real /proc/stat and the process's CPU time.
func TestReadCPUTimes(t *testing.T) {
	c, ok := readCPUTimes(time.Second)
	if !ok {
		t.Fatal("readCPUTimes failed")
	}
	if c.wall != time.Second || c.idle < 0 || c.own <= 0 {
		t.Errorf("readCPUTimes = %+v; want wall 1s, idle >= 0, own > 0", c)
	}
}

// TestOthersAverage: the first look sets the window's start, a look within
// statWindow changes nothing, and a look after it averages the window.
func TestOthersAverage(t *testing.T) {
	idle, calls := int64(1000), 0
	withWindow(t, func(now time.Duration) (cpuTimes, bool) {
		calls++
		return cpuTimes{wall: now, idle: idle}, true
	})
	if n, ok := othersAverage(); ok || calls != 1 {
		t.Fatalf("first look: %d, %v after %d samples; want unknown after 1", n, ok, calls)
	}
	if _, ok := othersAverage(); ok || calls != 1 {
		t.Fatalf("look within statWindow: known %v after %d samples; want unknown after 1", ok, calls)
	}
	// Each window: its start moved 300 ms back, with the CPUs idle for the
	// given 1/100 s of their 600 ms.
	for i, w := range []struct {
		idle int64
		want int
	}{
		{30, 1}, // another process kept one core busy
		{60, 0}, // idle
	} {
		statMu.Lock()
		lastCPU.wall -= 300 * time.Millisecond
		statMu.Unlock()
		idle += w.idle
		if n, ok := othersAverage(); !ok || n != w.want || calls != 2+i {
			t.Errorf("window %d (idle %d/100 s): %d, %v after %d samples; want %d, true after %d", i, w.idle, n, ok, calls, w.want, 2+i)
		}
	}
	machineWide = false
	if _, ok := othersAverage(); ok {
		t.Error("a process that may not use every CPU: the average is known")
	}
}

// BenchmarkBusy is the cost of one look at the load (what a call above the
// thresholds pays): one reading on a quiet process and machine, three on a
// busy one.
func BenchmarkBusy(b *testing.B) {
	for b.Loop() {
		Busy()
	}
}

// withOpenMP turns withFake's library into an OpenMP one: Raise sets the
// count for its section, Lower leaves it (clib.RaiseThreads), and raised
// counts how many sections are raised now.
func withOpenMP(f *fake) (raised *atomic.Int64) {
	raised = new(atomic.Int64)
	lib.Variant = OpenMP
	lib.Raise = func(n int) { raised.Add(1); f.count.Store(int64(n)) }
	lib.Lower = func() { raised.Add(-1) }
	return raised
}

// TestOpenMPSections: with an OpenMP library only a large call alone is
// raised, on its own OS thread; a call starting meanwhile runs on one
// thread without touching the count (clib's gate gives its thread one),
// and fixed mode counts no sections.
func TestOpenMPSections(t *testing.T) {
	f := withFake(t, 2, 0)
	raised := withOpenMP(f)
	big := threshold[Lapack] * 2
	s := Begin(Lapack, big)
	if s.Threads() != 2 || f.count.Load() != 2 || !s.locked || raised.Load() != 1 {
		t.Fatalf("large call alone: %d threads, library at %d, locked %v, %d raised; want 2, 2, true, 1", s.Threads(), f.count.Load(), s.locked, raised.Load())
	}
	done := make(chan Section)
	go func() { // another goroutine, another OS thread
		o := Begin(Lapack, big)
		done <- o
		<-done
		o.End()
		done <- o
	}()
	o := <-done
	if o.Threads() != 1 || f.count.Load() != 2 || o.locked || raised.Load() != 1 {
		t.Errorf("large call while another runs: %d threads, library at %d, locked %v, %d raised; want 1, 2 (untouched), false, 1", o.Threads(), f.count.Load(), o.locked, raised.Load())
	}
	done <- o
	<-done
	s.End()
	if n, _ := InFlight(); n != 0 || raised.Load() != 0 {
		t.Errorf("after both ended: %d sections in flight, %d raised", n, raised.Load())
	}
	small := Begin(Level3, 1)
	if small.Threads() != 1 || raised.Load() != 0 {
		t.Errorf("small call: %d threads, %d raised; want 1, 0", small.Threads(), raised.Load())
	}
	small.End()
	SetFixed(3)
	fx := Begin(Level3, 1)
	if n, _ := InFlight(); fx.Threads() != 3 || f.count.Load() != 3 || n != 0 || fx.locked {
		t.Errorf("fixed 3: %d threads, library at %d, %d counted, locked %v; want 3, 3, 0, false", fx.Threads(), f.count.Load(), n, fx.locked)
	}
	fx.End()
	SetFixed(0)
	if f.count.Load() != 1 {
		t.Errorf("back to auto: library at %d; want 1", f.count.Load())
	}
}

// TestLookAllocatesNothing: the look at the load (every large call) and a
// window's sample allocate nothing.
func TestLookAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are checked without -race")
	}
	Busy()
	if n := testing.AllocsPerRun(100, func() { Busy() }); n != 0 {
		t.Errorf("Busy: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { readCPUTimes(0) }); n != 0 {
		t.Errorf("readCPUTimes: %v allocations", n)
	}
}

// TestLevel3Loaded: a level-3 call of at least level3Loaded work takes
// the threads beside busy goroutines only alone (TestDecisions has the
// sizes and loads): beside any other section in flight it runs on one
// thread, a section starting while it runs lowers the count, and with
// OpenMP it is raised on its own OS thread.
func TestLevel3Loaded(t *testing.T) {
	f := withFake(t, 2, 2)
	small := Begin(Level3, 1)
	s := Begin(Level3, level3Loaded*8)
	if s.Threads() != 1 || f.count.Load() != 1 {
		t.Errorf("beside another section: %d threads, library at %d; want 1, 1", s.Threads(), f.count.Load())
	}
	s.End()
	small.End()
	s = Begin(Level3, level3Loaded*8)
	if s.Threads() != 2 || f.count.Load() != 2 {
		t.Fatalf("alone: %d threads, library at %d; want 2, 2", s.Threads(), f.count.Load())
	}
	small = Begin(Level3, 1)
	if f.count.Load() != 1 {
		t.Errorf("a section started beside it: library at %d; want 1", f.count.Load())
	}
	small.End()
	s.End()
	// With OpenMP the same: alone, two threads on its OS thread.
	raised := withOpenMP(f)
	s = Begin(Level3, level3Loaded)
	if s.Threads() != 2 || f.count.Load() != 2 || raised.Load() != 1 {
		t.Errorf("OpenMP, alone beside two busy goroutines: %d threads, library at %d, %d raised; want 2, 2, 1", s.Threads(), f.count.Load(), raised.Load())
	}
	s.End()
}
