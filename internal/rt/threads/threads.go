// Package threads is lapis's one thread policy: how many OpenBLAS threads
// a call of cblas, lapack or batch (or any later package calling OpenBLAS)
// may use. It is internal so that every package decides the same way;
// users reach it through cblas (SetThreads, Threads, Info).
//
// In auto mode (the default) OpenBLAS runs on one thread, and a call runs
// on more only when no other lapis call or batch is in flight as it
// starts, and either
//
//   - it is a level-3 call of at least level3Loaded work (768^3): it
//     takes every thread (Max) whatever else runs, without looking; or
//   - its work is above the size where more threads paid off on idle
//     cores (Lapack, Level3: measured) and the process and the machine
//     have idle cores.
//
// Idle is judged as the call starts from what runs besides the caller:
//
//   - goroutines of this process running or runnable (runtime/metrics);
//   - threads running on the machine besides those (/proc/loadavg's
//     fourth field: other processes, and this process's threads that run
//     in cgo or system calls; a goroutine blocked in a system call needs
//     no core and is not counted), but no more than other processes kept
//     busy on average over the last window of at least 100 ms (the
//     machine's busy CPU time from /proc/stat less this process's, from
//     getrusage), or until the first window ends, the machine's
//     one-minute load average as the process started (startWindow): a
//     thread that runs for an instant, a kernel thread or a short
//     command, does not keep a large call off a core;
//   - not OpenBLAS's own threads, which spin for a while after a call gave
//     them work (spinWindow).
//
// Large level-3 calls take the threads under load because they lose
// nothing by it and gain: OpenBLAS's threads spin while they wait for
// each other, so a call whose threads meet often (LAPACK's panels, a
// small gemm) collapses when another thread holds a core, but a gemm of
// level3Loaded work or more shares long independent blocks and meets
// rarely, and as two of the runnable threads the OS's fair scheduler
// gives it a larger share of the CPUs than one thread gets (on 2 cores,
// two threads' time over one's in seven paired runs: gemm 768 and 1024
// beside one or two busy goroutines 0.61-1.08, at most 1.02 in 25 of 28;
// gemm 1024 beside two busy processes at nice 0, 0.59; below, gemm 512
// and 640 0.49-2.54, losing in most runs). That share is taken from the rest of the
// machine: while the call runs the program's other goroutines (and other
// processes) get less CPU, and for up to about 0.1 s after it OpenBLAS's
// second thread spins before it sleeps and takes a share of a core
// again. A program that would rather
// keep its goroutines' throughput than a product's latency fixes one
// thread (SetThreads(1)). Other processes count as goroutines do here:
// two threads were faster beside them too, and the policy cannot tell a
// niced build, which takes little from a call's threads, from a process
// of the same priority.
//
// One count often includes a thread that holds a core for an instant
// only, so a count that finds other work is read again, up to three
// times, and the least kept: a busy goroutine or process is in every
// reading. The thread that matters most is the Go scheduler's own: a cgo
// call that lasts more than about 10 ms leaves the caller marked for
// preemption by sysmon; at its next function call the caller is
// preempted, another M is woken to run it, and the M that ran it can keep
// its P, counted as running in runtime/metrics, for 0.1-5 ms while it
// waits for the CPU the caller now runs on. So a call of at least
// yieldWork, whose reading counts another goroutine on a P, gives up its
// CPU (sched_yield) before reading again, which lets that M run, find no
// work and let the P go (measured with a probe alternating looks with
// and without the yield over 200 quiet potrf 1024 calls, beside other
// processes' niced builds: three readings counted one goroutine too many
// in 42 of 101 looks without it and 11 of 102 with it). The look costs
// about 1.5 us on a quiet process (one reading) and 5 us on a busy one,
// plus the yields (nothing when no thread waits for the caller's CPU, up
// to tens of us when one does, and up to a time slice when a busy
// goroutine's thread does: so yields that changed nothing stop the
// yielding for a second, yieldPause) and about 10 us once per window for
// /proc/stat; only calls above the thresholds look.
//
// A call given more threads raises OpenBLAS's process-wide
// count for its duration only; any lapis call that starts meanwhile puts
// it back to one first, so that calls never overlap with more than one
// OpenBLAS thread each (OpenBLAS's threads spin while they wait for each
// other, and with a busy core that costs 10-100x).
//
// With a fixed count (SetThreads(n)) every call runs with n threads and
// nothing is decided per call.
//
// With OpenBLAS's OpenMP build a call runs on one thread when its OS
// thread's OpenMP count is one; otherwise it first makes that count the
// process-wide one, and changing the process-wide count frees the
// buffers of threads that a call on more threads may be using
// (OpenMathLib/OpenBLAS#5825: another call takes the same memory and
// both compute garbage). So no call may change it while another runs on
// more threads, and lapis keeps the counts consistent through clib's
// gate (clib.Gate): every call into the library first gives its OS
// thread the count every call has (one in auto mode, the fixed count
// otherwise), so it never changes the process-wide count; the one call
// the policy lets run on more threads (a call alone, as with pthreads)
// locks its goroutine to its OS thread and raises that thread's count
// and the process-wide one, and at its end puts back its thread's
// count only. The process-wide count stays raised, which no other call
// reads, and OpenBLAS keeps the threads' buffers for the next raised
// call. SetThreads(n) waits for the calls in flight before it changes the
// count.
//
// With a library that has a count for the calling thread only (Intel
// MKL's mkl_set_num_threads_local: PerThread) lapis never changes a
// process-wide count. A call locks its goroutine to its OS thread, sets
// that thread's count for the call (one, or more under the same rule as
// above), and at its end puts back the thread's own setting as it was
// (none, usually: then MKL's process-wide count applies again) and
// unlocks. A goroutine moves between OS threads whenever it is not
// locked, so a per-thread setting means something only while its
// goroutine is locked: lapis holds the lock for the call and leaves
// nothing set behind, and code that sets its own thread's count must
// lock its goroutine (runtime.LockOSThread) around that setting and its
// calls. Other goroutines' calls, lapis's or direct, see no change.
package threads

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Variant is how the linked library runs threads.
type Variant int

// The variants (openblas_get_parallel()).
const (
	NotOpenBLAS Variant = iota // a BLAS without OpenBLAS's thread control
	Serial                     // OpenBLAS built without threads
	Pthreads                   // OpenBLAS's own thread pool: one process-wide count
	OpenMP                     // OpenBLAS on OpenMP: a count per calling OS thread
	PerThread                  // a count for the calling OS thread only, nothing process-wide (MKL)
)

func (v Variant) String() string {
	switch v {
	case Serial:
		return "serial"
	case Pthreads:
		return "pthreads"
	case OpenMP:
		return "OpenMP"
	case PerThread:
		return "per-thread"
	}
	return "not OpenBLAS"
}

// Kind says which size threshold applies to a call's work.
type Kind int

const (
	// Level3 is a BLAS level-3 call; work is m*n*k.
	Level3 Kind = iota
	// Lapack is a LAPACK routine; work is about n^3 (m*n*min(m,n)).
	Lapack
	// Single is a section that must run on one OpenBLAS thread (batch's
	// split chunks); it never raises the count.
	Single
)

// Thresholds: the work from which a call may use more than one thread on an
// idle machine (BenchmarkThreads, BenchmarkThreadsPaired: below them two
// threads gained nothing or lost). Level3 was 192^3, measured on an Intel
// host; on a 2-core Zen 5 host two threads took 0.67-0.80x of one thread's
// time for a quiet gemm 160 and 0.70-0.96 at 192. At 128 they took
// 0.84-0.89x, but the look (5-15 us beside busy goroutines) cost auto
// 1.13-1.17x of one thread's time beside busy goroutines while on a quiet
// process other processes' flickering load let only half the calls take two
// threads (auto 1.09x of two threads' time): not worth it.
var threshold = [...]float64{
	Level3: 160 * 160 * 160,
	Lapack: 512 * 512 * 512,
	Single: 0,
}

// level3Loaded is the work from which a level-3 call alone takes Max()
// threads without looking at the load: beside busy goroutines (or other
// processes) two OpenBLAS threads in a gemm this large were at least as
// fast as one (BenchmarkThreadsPaired), because gemm's threads work on
// long independent blocks and rarely wait for each other, and two
// threads get a larger share of the CPUs from the OS's fair scheduler.
// Below it two threads beside a busy core lost or were as likely to lose
// as to gain (gemm 512 and 640: 0.49-2.54x one thread's time), see the
// package documentation. Measured with gemm; it applies to every Level3
// call (symm, syrk, trmm, trsm, ...), which were not measured.
const level3Loaded = 768 * 768 * 768

// Library is the thread control of the linked library (linked).
type Library struct {
	Variant Variant
	Set     func(n int) // the calling thread's (OpenMP) or the process's count
	// SetLocal sets the calling OS thread's count only (n >= 1; 0 clears
	// it: the process-wide count applies) and returns the setting it
	// replaced (0: none); PerThread libraries have it instead of Set.
	SetLocal func(n int) int
	Get      func() int // the count a call from this thread would use
	Max      int        // the most threads the library was built for (0: unknown)
	// Raise and Lower (OpenMP) give the calls of one section, locked to
	// its OS thread, n threads (clib.RaiseThreads). With them, Set waits
	// for the calls in flight and makes n every call's count
	// (clib.FixThreads).
	Raise func(n int)
	Lower func()
}

// settable reports whether lapis can set the library's count.
func (l Library) settable() bool { return l.Set != nil || l.SetLocal != nil }

var (
	lib     Library
	initial int          // the library's count at start: OPENBLAS_NUM_THREADS, or the cores
	fixed   atomic.Int64 // 0: auto; n: every call on n threads
)

// install installs the library's thread control. In auto mode an OpenBLAS
// library with threads is put on one thread. Only the first call counts.
func install(l Library) {
	regOnce.Do(func() {
		lib = l
		initial = 1
		if l.Get != nil {
			initial = max(1, l.Get())
		}
		if (lib.Variant == Pthreads || lib.Variant == OpenMP) && lib.Set != nil {
			lib.Set(1)
		}
	})
}

var regOnce sync.Once

// Initial is the library's thread count when the process started (what
// OPENBLAS_NUM_THREADS or OMP_NUM_THREADS said, else the cores): the
// most auto mode gives a call.
func Initial() int { return initial }

// Lib returns the library's variant.
func Lib() Variant { return lib.Variant }

// SetFixed fixes every call's count at n (n >= 1) or returns to auto mode
// (n = 0). It returns the previous setting (0: auto).
func SetFixed(n int) int {
	mu.Lock()
	defer mu.Unlock()
	prev := int(fixed.Swap(int64(n)))
	if prev > 1 {
		ranOn(prev) // its calls' threads may still spin
	}
	if lib.Set != nil { // a PerThread library's count is set call by call
		switch {
		case n > 0:
			lib.Set(n)
		case lib.Variant == Pthreads || lib.Variant == OpenMP:
			lib.Set(1)
			promoted.Store(false)
		default:
			lib.Set(initial)
		}
	}
	return prev
}

// Fixed returns the fixed count, 0 in auto mode.
func Fixed() int { return int(fixed.Load()) }

// Max is the most threads a call may use now: the fixed count, or in auto
// mode the library's initial count capped by GOMAXPROCS.
func Max() int {
	if f := fixed.Load(); f > 0 {
		return int(f)
	}
	if !lib.settable() || lib.Variant == Serial {
		return 1
	}
	return min(initial, runtime.GOMAXPROCS(0))
}

var (
	mu       sync.Mutex   // serialises raising and lowering the count
	active   atomic.Int64 // auto-mode sections in flight (pthreads)
	promoted atomic.Bool  // the count is above one for a section in flight
	lastHigh atomic.Int64 // when the last section with more threads ended (ns since start)
	lastN    atomic.Int64 // and how many threads it had
	start    = time.Now()
)

// Section is one call into the library under the policy. Its zero value
// is a section that changed nothing.
type Section struct {
	n       int32 // threads given (0: not counted)
	prev    int32 // the OS thread's own setting to put back (PerThread)
	raised  bool  // this section raised the process-wide count
	locked  bool  // locked to its OS thread (raised on OpenMP, PerThread)
	counted bool  // counted in active (auto mode)
	local   bool  // set the OS thread's own count (PerThread)
	gated   bool  // holds the library's gate (raised on OpenMP)
}

// Threads returns the threads the section was given (1 when the policy
// did not decide, e.g. fixed mode, where Fixed says).
func (s Section) Threads() int { return max(1, int(s.n)) }

// Begin starts a call of the given kind and work under the policy; the
// caller calls End when the library has returned. It allocates nothing.
func Begin(kind Kind, work float64) Section {
	if !lib.settable() {
		return Section{}
	}
	switch lib.Variant {
	case PerThread:
		runtime.LockOSThread()
		s := Section{locked: true, local: true}
		if n := int(fixed.Load()); n > 0 {
			s.n = int32(n)
		} else {
			// Only a call alone may have more than one thread: two calls
			// on two OpenMP teams each would share the cores, and
			// OpenMP's threads spin while they wait for each other.
			s.n, s.counted = 1, true
			if active.Add(1) == 1 && kind != Single && work >= threshold[kind] {
				s.n = int32(decide(kind, Max(), work))
			}
		}
		s.prev = int32(lib.SetLocal(int(s.n)))
		return s
	case Pthreads:
		if fixed.Load() > 0 {
			return Section{}
		}
		return beginShared(kind, work)
	case OpenMP:
		if n := int(fixed.Load()); n > 0 {
			return Section{n: int32(n)} // each call sets its thread's count (clib.FixThreads)
		}
		// Only a call alone may have more than one thread (see the
		// package documentation and clib.Gate).
		if active.Add(1) == 1 && kind != Single && work >= threshold[kind] {
			if n := decide(kind, Max(), work); n > 1 {
				runtime.LockOSThread()
				lib.Raise(n)
				return Section{n: int32(n), locked: true, counted: true, gated: true}
			}
		}
		return Section{n: 1, counted: true}
	}
	return Section{}
}

func beginShared(kind Kind, work float64) Section {
	self := active.Add(1)
	if promoted.Load() {
		lower()
	}
	if self != 1 || kind == Single || work < threshold[kind] {
		return Section{n: 1, counted: true}
	}
	m := Max()
	if m < 2 {
		return Section{n: 1, counted: true}
	}
	n := decide(kind, m, work)
	if n < 2 {
		return Section{n: 1, counted: true}
	}
	mu.Lock()
	promoted.Store(true)
	if active.Load() != 1 || fixed.Load() > 0 { // another call started: stay on one
		promoted.Store(false)
		mu.Unlock()
		return Section{n: 1, counted: true}
	}
	lib.Set(n)
	mu.Unlock()
	return Section{n: int32(n), raised: true, counted: true}
}

// lower puts the process-wide count back to one for a section that starts
// while another runs with more.
func lower() {
	mu.Lock()
	if promoted.Load() {
		lib.Set(1)
		promoted.Store(false)
	}
	mu.Unlock()
}

// End ends the section.
func (s Section) End() {
	switch {
	case s.gated:
		lib.Lower()
	case s.local:
		lib.SetLocal(int(s.prev))
	case s.raised:
		mu.Lock()
		if promoted.Load() {
			lib.Set(1)
			promoted.Store(false)
		}
		mu.Unlock()
	}
	if s.n > 1 && (s.gated || s.local || s.raised) {
		ranOn(int(s.n))
	}
	if s.counted {
		active.Add(-1)
	}
	if s.locked {
		runtime.UnlockOSThread()
	}
}

// ranOn notes that a call on n threads has just ended: for spinWindow
// its n-1 helper threads may spin, and Busy does not count them.
func ranOn(n int) {
	lastN.Store(int64(n))
	lastHigh.Store(int64(time.Since(start)))
}

// spinning is how many of OpenBLAS's threads may be spinning now.
func spinning() int {
	last := lastHigh.Load()
	if last == 0 || time.Since(start)-time.Duration(last) >= spinWindow {
		return 0
	}
	return int(lastN.Load()) - 1
}

// Counts for tests: sections in flight and whether one runs raised.
func InFlight() (sections int, raised bool) { return int(active.Load()), promoted.Load() }

// decide returns how many of m threads a call alone above its threshold
// gets: all m for a level-3 call of at least level3Loaded work, whatever
// runs besides it; otherwise as many as the cores can take now, the cores
// the process may use (GOMAXPROCS, the CPUs it may run on) less those
// busy with other goroutines or, on the machine, other threads.
func decide(kind Kind, m int, work float64) int {
	n := m
	if kind != Level3 || work < level3Loaded {
		cores := min(runtime.GOMAXPROCS(0), runtime.NumCPU())
		n = max(1, min(m, cores-busyFn(work >= yieldWork)))
	}
	looked.Add(1)
	if n > 1 {
		found.Add(1)
	}
	return n
}

var looked, found atomic.Int64

// Looks returns how many calls so far the policy decided (auto mode,
// above the thresholds, alone: most of them looked at the load) and how
// many of them it gave more than one thread: benchmarks report the
// share.
func Looks() (decided, raised int64) { return looked.Load(), found.Load() }

// busyFn is look, replaced in tests.
var busyFn = look

// yieldWork is the work from which a call's look may yield the caller's
// CPU between readings (see look): calls that take milliseconds on one
// thread, which a yield of up to tens of microseconds cannot slow
// noticeably. (The M a preemption leaves behind follows cgo calls of more
// than about 10 ms, so mostly calls of this size and larger in a loop.)
const yieldWork = 512 * 512 * 512

// A reading is one look at what else runs as a call starts.
type reading struct {
	// The Go scheduler's counts (runtime/metrics), the caller included
	// in running: goroutines on a P (running Go code, or an M spinning
	// for work), runnable, and in cgo or system calls.
	running, runnable, notInGo int
	// machine is the number of threads running or runnable on the
	// machine (/proc/loadavg), the caller's included; machineOK says it
	// was read.
	machine   int
	machineOK bool
}

// reads is how many readings Busy takes at most: a reading that finds
// other work is taken again (in a large call's look, after the caller
// yields its CPU if the reading counted another goroutine), and the
// least count kept, because one instantaneous count often includes a
// thread that holds a core for an instant only (an M of the Go scheduler
// waiting for the caller's CPU after sysmon preempted the caller, a
// kernel thread), and on two cores one such thread is enough to keep a
// call on one thread.
const reads = 3

// readFn takes one reading, avgFn reads othersAverage and yieldFn gives
// up the caller's CPU between readings (yieldCPU); replaced in tests.
var (
	readFn, avgFn = read, othersAverage
	yieldFn       = yieldCPU
)

// Busy estimates how many cores other work occupies as the calling
// goroutine asks: other goroutines on a P or runnable (runtime/metrics),
// and threads running on the machine besides them (/proc/loadavg's running
// count, which sees other processes and this process's threads in cgo and
// system calls that really run, but not OpenBLAS's threads within
// spinWindow of a call that gave them work), the latter no more than other
// processes kept busy on average over the last window (othersAverage). A
// reading that finds other work is taken again, up to reads times, and
// the least kept. A first reading of zero ends the look: a quiet process
// pays one reading, about 1.5 us. Busy never yields the caller's CPU; a
// large call's look does (look).
func Busy() int { return look(false) }

// look is Busy for a call. With yield it gives the caller's CPU to any
// thread waiting for it (sched_yield) before a reading that follows one
// counting another goroutine on a P: after a cgo call of more than about
// 10 ms, sysmon has marked the caller for preemption, it is preempted at
// its next function call, and the M that ran it may keep its P (counted
// as running) while it waits, runnable, for the CPU the caller now runs
// on, for 0.1-5 ms; yielding lets it run, find no work and let the P go.
// The yield is kept from other looks because it costs up to tens of
// microseconds when another process's thread waits for the caller's CPU
// (BenchmarkBusy beside two cores of niced compiles: 5 us without yields,
// 85 us yielding before every reading after the first).
//
// A look whose yields changed nothing (every reading counted as much) has
// met goroutines that are really busy, beside which each yield can cost
// the caller a time slice (Linux's EEVDF scheduler moves a yielding
// thread's deadline back by one): looks do not yield for yieldPause
// after it, and then try again.
func look(yield bool) int {
	yield = yield && time.Since(start) >= time.Duration(noYieldUntil.Load())
	l := context{spin: spinning(), cores: min(runtime.GOMAXPROCS(0), runtime.NumCPU()), online: onlineCPUs}
	l.avg, l.avgOK = avgFn()
	r := readFn()
	b := busyOf(r, l)
	first, yielded := b, false
	for i := 1; i < reads && b > 0; i++ {
		if yield && r.running > 1 {
			yieldFn()
			yielded = true
		}
		r = readFn()
		b = min(b, busyOf(r, l))
	}
	if yielded && b >= first {
		noYieldUntil.Store(int64(time.Since(start) + yieldPause))
	}
	return b
}

// yieldPause is how long looks do not yield after yields that changed
// nothing: beside a goroutine that stays busy, one look in a second pays
// the yields instead of every large call (BenchmarkThreadsPaired beside
// one busy goroutine: potrf 640 on one thread 6.1-6.9 ms yielding at
// every call against 2.9-3.3 ms on a fixed thread).
const yieldPause = time.Second

// noYieldUntil is when looks may yield again (ns since start).
var noYieldUntil atomic.Int64

// context is what Busy knows besides a reading: spin of OpenBLAS's
// threads may be spinning after a call, the process may use cores CPUs
// and the machine has online (0: unknown), and other processes kept avg
// cores busy over the last window (when avgOK).
type context struct {
	spin, cores, online, avg int
	avgOK                    bool
}

// busyOf is the cores one reading finds occupied by other work.
func busyOf(r reading, l context) int {
	inGo := max(0, r.running-1) + r.runnable // less the caller
	if !r.machineOK {
		// Without the machine's count, a goroutine in cgo or a system
		// call may be running: count it.
		return inGo + r.notInGo
	}
	// r.machine counts the caller, the goroutines of inGo that are on a
	// CPU, OpenBLAS's spinning threads, and everything else that runs:
	// other processes, and goroutines in cgo or system calls that run
	// (not those blocked there, which need no core).
	others := max(0, r.machine-1-inGo-l.spin)
	// A thread of another process running now counts only as far as
	// other processes kept cores busy over the last window: one that
	// runs for an instant (a kernel thread, a short command) does not
	// keep a large call off a core it will not use.
	if l.avgOK {
		others = min(others, l.avg)
	}
	// On a machine with more CPUs than this process may use (a CPU quota:
	// GOMAXPROCS below the CPUs), other threads take a share of them.
	if l.online > l.cores {
		others = (others*l.cores + l.online/2) / l.online
	}
	return inGo + others
}

var (
	schedMu sync.Mutex
	samples = [...]metrics.Sample{
		{Name: "/sched/goroutines/running:goroutines"},
		{Name: "/sched/goroutines/runnable:goroutines"},
		{Name: "/sched/goroutines/not-in-go:goroutines"},
	}
	haveSched = func() bool {
		all := metrics.All()
		for _, s := range samples {
			found := false
			for _, d := range all {
				found = found || d.Name == s.Name
			}
			if !found {
				return false
			}
		}
		return true
	}()
)

// read takes one reading.
func read() reading {
	var r reading
	if haveSched {
		schedMu.Lock()
		metrics.Read(samples[:])
		r.running, r.runnable, r.notInGo = sampleInt(samples[0]), sampleInt(samples[1]), sampleInt(samples[2])
		schedMu.Unlock()
	} else {
		r.running = 1
	}
	r.machine, r.machineOK = machineRunning()
	return r
}

// spinWindow is how long OpenBLAS's threads may spin after a call before
// they sleep (0.3.21: 2^28 cycles by default, about 0.1 s).
const spinWindow = 250 * time.Millisecond

func sampleInt(s metrics.Sample) int {
	if s.Value.Kind() == metrics.KindUint64 {
		return int(s.Value.Uint64())
	}
	return 0
}

// Limit is the most threads SetFixed may be given: the library's
// MAX_THREADS as registered (Library.Max), else the number of CPUs.
func Limit() int {
	if lib.Max > 0 {
		return lib.Max
	}
	return runtime.NumCPU()
}

// Controlled reports whether the registered library has thread control
// (OpenBLAS's openblas_set_num_threads, MKL's mkl_set_num_threads_local).
func Controlled() bool { return lib.settable() && lib.Get != nil }

var (
	workersMu sync.Mutex
	nWorkers  int // 0: GOMAXPROCS (1 on a serial library) at first use
)

// SetWorkers sets package batch's worker count (n >= 1; 0: the default)
// and returns the previous one.
func SetWorkers(n int) int {
	workersMu.Lock()
	defer workersMu.Unlock()
	prev := workersLocked()
	nWorkers = n // 0: workersLocked decides again
	return prev
}

// Workers returns package batch's worker count.
func Workers() int {
	workersMu.Lock()
	defer workersMu.Unlock()
	return workersLocked()
}

func workersLocked() int {
	if nWorkers == 0 {
		nWorkers = runtime.GOMAXPROCS(0)
		if lib.Variant == Serial {
			// A serial OpenBLAS build (Debian's libopenblas0-serial
			// 0.3.21, built without USE_LOCKING) is not safe to call from
			// several threads at once (OpenMathLib/OpenBLAS#2126: wrong
			// heevd eigenvectors, found by the Docker matrix): batch does
			// not start that concurrency itself. SetWorkers overrides it.
			nWorkers = 1
		}
	}
	return nWorkers
}
