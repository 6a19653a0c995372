package batch

import (
	"runtime"
	"sync"

	"github.com/lapis-go/lapis/cblas"
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

// SetWorkers sets how many workers run the chunks of a batch (at least 1)
// and returns the previous setting. Workers, once started, live for the
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
	}
	return nWorkers
}

// run calls f(0), ..., f(chunks-1) on the workers (at most Workers() at
// once) and waits for all of them. One chunk runs on the caller's
// goroutine: handing it to a worker would cost a thread wake-up (tens of
// microseconds) and add no parallelism.
func run(chunks int, f func(chunk int)) {
	if chunks == 1 {
		f(0)
		return
	}
	workersMu.Lock()
	for want := min(chunks, workersLocked()); started < want; started++ {
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

func worker() {
	runtime.LockOSThread() // for life: this thread is one of the bounded set
	for j := range jobs {
		j.f(j.chunk)
		j.wg.Done()
	}
}

// While chunks run in parallel, OpenBLAS must not start threads of its own
// inside each call: the first parallel batch sets it to one thread, the
// last one to finish restores the setting.
var (
	threadsMu    sync.Mutex
	threadsUsers int
	threadsSaved int
)

func singleThreaded() (restore func()) {
	threadsMu.Lock()
	if threadsUsers == 0 {
		threadsSaved = cblas.Threads()
		_ = cblas.SetThreads(1) // ErrUnsupported for another BLAS: nothing to do
	}
	threadsUsers++
	threadsMu.Unlock()
	return func() {
		threadsMu.Lock()
		threadsUsers--
		if threadsUsers == 0 {
			_ = cblas.SetThreads(threadsSaved)
		}
		threadsMu.Unlock()
	}
}
