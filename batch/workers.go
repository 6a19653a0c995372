package batch

import (
	"runtime"
	"sync"

	"github.com/lapis-go/lapis/internal/threads"
)

// The workers. When a batch is split, its chunks run on a bounded set of
// goroutines, each locked to its own OS thread for life, so that the OS
// threads this package adds to those calling OpenBLAS are bounded by the
// number of workers ever started (OpenBLAS keeps per-thread buffers and
// can run out of them when many threads call it; ../shared/ANCHORS.md).
// A batch that runs as one chunk runs on the caller's goroutine.

type job struct {
	f     func(chunk int)
	chunk int
	wg    *sync.WaitGroup
}

var (
	workersMu sync.Mutex
	nWorkers  = 0 // 0: GOMAXPROCS at first use
	started   int
	jobs      = make(chan job)
)

// SetWorkers sets how many workers run the chunks of a batch (at least 1;
// the default is GOMAXPROCS, or 1 with a serial OpenBLAS build, which is
// not safe to call from several threads at once) and returns the
// previous setting. Workers, once started, live for the
// rest of the process; lowering the setting leaves them idle.
func SetWorkers(n int) int {
	workersMu.Lock()
	defer workersMu.Unlock()
	prev := workersLocked()
	nWorkers = max(1, n)
	return prev
}

// Workers returns how many workers run the chunks of a batch.
func Workers() int {
	workersMu.Lock()
	defer workersMu.Unlock()
	return workersLocked()
}

func workersLocked() int {
	if nWorkers == 0 {
		nWorkers = runtime.GOMAXPROCS(0)
		if threads.Lib() == threads.Serial {
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

// parallelWorkers is how many workers may run at once: Workers(), or
// with OpenBLAS's thread count fixed at n > 1 (cblas.SetThreads) at most
// GOMAXPROCS/n, so that the batch's calls, each on n threads, do not
// oversubscribe the cores.
func parallelWorkers() int {
	w := Workers()
	if f := threads.Fixed(); f > 1 {
		w = min(w, max(1, runtime.GOMAXPROCS(0)/f))
	}
	return w
}

// run calls f(0), ..., f(chunks-1) and waits for all of them: chunk 0
// on the caller's goroutine, the others on the workers (chunksFor makes
// at most Workers() chunks). Handing a chunk to a worker costs a thread
// wake-up (tens of microseconds): a batch that is one chunk runs on the
// caller's goroutine alone, and a split one keeps the caller busy with
// its first chunk instead of waiting for two wake-ups.
func run(chunks int, f func(chunk int)) {
	if chunks <= 1 {
		if chunks == 1 {
			f(0)
		}
		return
	}
	workersMu.Lock()
	for want := min(chunks-1, workersLocked()); started < want; started++ {
		go worker()
	}
	workersMu.Unlock()
	var wg sync.WaitGroup
	wg.Add(chunks - 1)
	for c := 1; c < chunks; c++ {
		jobs <- job{f: f, chunk: c, wg: &wg}
	}
	f(0)
	wg.Wait()
}

// share runs f on the caller's goroutine and on up to workers-1 workers
// at once, for f that takes its work from a shared counter and returns
// when none is left. It returns when every f that started has returned:
// a worker that wakes after the caller has taken all the work (a parked
// thread on an idle CPU can take 0.1-0.3 ms to wake here) does not run
// f and is not waited for, so a split batch never costs much more than
// an unsplit one.
func share(workers int, f func()) {
	if workers <= 1 {
		f()
		return
	}
	workersMu.Lock()
	for want := min(workers-1, workersLocked()); started < want; started++ {
		go worker()
	}
	workersMu.Unlock()
	var (
		mu     sync.Mutex
		closed bool
		wg     sync.WaitGroup
	)
	enter := func(int) {
		mu.Lock()
		if closed {
			mu.Unlock()
			return
		}
		wg.Add(1)
		mu.Unlock()
		f()
		wg.Done()
	}
	for range workers - 1 {
		jobs <- job{f: enter}
	}
	f()
	mu.Lock()
	closed = true
	mu.Unlock()
	wg.Wait()
}

func worker() {
	runtime.LockOSThread() // for life: this thread is one of the bounded set
	for j := range jobs {
		j.f(j.chunk)
		if j.wg != nil {
			j.wg.Done()
		}
	}
}

// While chunks run in parallel, OpenBLAS must not start threads of its own
// inside each call. singleThreaded holds a Single section of lapis's
// thread policy (internal/threads) for the batch: in the default policy
// OpenBLAS is then on one thread for every call the batch makes, and no
// other lapis call raises it meanwhile; a count fixed with
// cblas.SetThreads is left alone (run then splits a batch over fewer
// workers: chunksFor). Nothing process-wide is changed behind the
// user's back.
func singleThreaded() (end func()) {
	return threads.Begin(threads.Single, 0).End
}
