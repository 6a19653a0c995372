package batch

import (
	"runtime"
	"sync"
	"time"

	"github.com/lapis-go/lapis/internal/rt/threads"
)

// The workers. When a batch is split, its chunks that call OpenBLAS run on
// a bounded set of goroutines, each locked to its own OS thread for life,
// so that the OS threads this package adds to those calling OpenBLAS are
// bounded by the number of workers ever started (OpenBLAS keeps per-thread
// buffers and can run out of them when many threads call it; docs/batch.md,
// "Workers and threads"). A batch that runs as one chunk runs on the
// caller's goroutine. The tiny kernels' chunks run on the tiny workers
// (share, tinyWorker).

type job struct {
	f     func(chunk int)
	chunk int
	wg    *sync.WaitGroup
}

var (
	workersMu sync.Mutex // guards started and tinyStarted
	started   int
	jobs      = make(chan job)
)

// parallelWorkers is how many workers may run at once: lapis.Workers(), or
// with OpenBLAS's thread count fixed at n > 1 (lapis.SetThreads) at most
// GOMAXPROCS/n, so that the batch's calls, each on n threads, do not
// oversubscribe the cores.
func parallelWorkers() int {
	w := threads.Workers()
	if f := threads.Fixed(); f > 1 {
		w = min(w, max(1, runtime.GOMAXPROCS(0)/f))
	}
	return w
}

// run calls f(0), ..., f(chunks-1) on the workers (at most lapis.Workers() at
// once) and waits for all of them. One chunk runs on the caller's
// goroutine: handing it to a worker would cost a thread wake-up (tens of
// microseconds) and add no parallelism. A split batch's caller waits
// rather than taking a chunk itself: a worker readied by a goroutine that
// keeps running sits in that P's next slot, which another P steals only
// after a back-off (measured here: the second chunk started 90-270 us
// after the hand-off, against 15-30 us when the caller blocks).
func run(chunks int, f func(chunk int)) {
	if chunks <= 1 {
		if chunks == 1 {
			f(0)
		}
		return
	}
	workersMu.Lock()
	for want := min(chunks, threads.Workers()); started < want; started++ {
		go worker()
	}
	workersMu.Unlock()
	var wg sync.WaitGroup
	wg.Add(chunks)
	for c := range chunks {
		jobs <- job{f: f, chunk: c, wg: &wg}
	}
	wg.Wait()
}

// share runs f on up to workers tiny workers at once, for f that takes
// its work from a shared counter and returns when none is left, and
// returns when the work is done: when an f has returned and none is
// running. A worker that wakes after the others have taken all the work
// does not run f and is not waited for. The caller waits rather than
// running f itself (see run). f must not call C (see tinyWorker).
func share(workers int, f func()) {
	if workers <= 1 {
		f()
		return
	}
	workersMu.Lock()
	for want := min(workers, threads.Workers()); tinyStarted < want; tinyStarted++ {
		go tinyWorker()
	}
	workersMu.Unlock()
	s := &shared{f: f, done: make(chan struct{})}
	for range workers {
		tinyJobs <- s
	}
	<-s.done
}

// shared is one call of share: the workers that entered it and are
// running f, and done, closed when the first f returns with none running.
type shared struct {
	f      func()
	mu     sync.Mutex
	active int
	closed bool
	done   chan struct{}
}

// enter runs s.f unless the work is over.
func (s *shared) enter() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.active++
	s.mu.Unlock()
	s.f() // returns when no work is left
	s.mu.Lock()
	if s.active--; s.active == 0 && !s.closed {
		s.closed = true
		close(s.done)
	}
	s.mu.Unlock()
}

// The tiny workers run the chunks of the tiny kernels (share), which call
// no C: they are plain goroutines, not locked to OS threads, at most
// lapis.Workers() of them ever started. A locked worker costs a second thread
// wake-up each time it is handed work (the P that picks it up passes
// itself to the worker's own thread), tens of microseconds each on this
// 2-vCPU VM. After its work a tiny worker waits tinySpin for more,
// yielding its P at every turn (runtime.Gosched), before it parks: a
// parked worker whose CPU has gone idle starts 0.1-0.3 ms after the
// hand-off, one still spinning within microseconds (as OpenMP runtimes
// keep their threads spinning: GOMP_SPINCOUNT, KMP_BLOCKTIME).
// Measured (BenchmarkBatchTinyBusy in bench): with another goroutine busy
// the spin does not make a batch slower than on one worker.
var (
	tinyStarted int
	tinyJobs    = make(chan *shared, 64)
)

const tinySpin = 200 * time.Microsecond

func tinyWorker() {
	for {
		nextTiny().enter()
	}
}

func nextTiny() *shared {
	start := time.Now()
	for time.Since(start) < tinySpin {
		select {
		case s := <-tinyJobs:
			return s
		default:
			runtime.Gosched()
		}
	}
	return <-tinyJobs
}

func worker() {
	runtime.LockOSThread() // for life: this thread is one of the bounded set
	for j := range jobs {
		j.f(j.chunk)
		j.wg.Done()
	}
}

// While chunks run in parallel, OpenBLAS must not start threads of its own
// inside each call. singleThreaded holds a Single section of lapis's
// thread policy (internal/rt/threads) for the batch: in the default policy
// OpenBLAS is then on one thread for every call the batch makes, and no
// other lapis call raises it meanwhile; a count fixed with
// lapis.SetThreads is left alone (run then splits a batch over fewer
// workers: chunksFor). Nothing process-wide is changed behind the
// user's back.
func singleThreaded() (end func()) {
	return threads.Begin(threads.Single, 0).End
}
