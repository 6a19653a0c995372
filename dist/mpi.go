package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/layout"
)

// Thread levels of MPI_Init_thread, in MPI's order.
const (
	ThreadSingle     = int(C.MPI_THREAD_SINGLE)
	ThreadFunneled   = int(C.MPI_THREAD_FUNNELED)
	ThreadSerialized = int(C.MPI_THREAD_SERIALIZED)
	ThreadMultiple   = int(C.MPI_THREAD_MULTIPLE)
)

// The MPI thread. Go moves goroutines between OS threads at will, and MPI
// (below MPI_THREAD_MULTIPLE) and the BLACS (whose grids are global C
// state, never thread-safe) must be called from one thread at a time,
// FUNNELED from the thread that initialised MPI. So Init starts one
// goroutine locked to its OS thread (runtime.LockOSThread), initialises
// MPI on it with MPI_THREAD_FUNNELED, and every MPI, BLACS and ScaLAPACK
// call of the package runs there, one after another: any goroutine may
// call dist, and calls from several goroutines are serialised (they are
// collective over the ranks, so a program should make them in the same
// order on every rank anyway). A call costs one hand-over to that thread
// (a few microseconds), nothing next to a distributed factorisation.
var (
	mu      sync.Mutex // guards the fields below and orders Init/Finalize
	calls   chan func()
	state   int // stateNew, stateLive, stateDone
	world   worldInfo
	started int // the thread level MPI granted
)

const (
	stateNew = iota
	stateLive
	stateDone
)

type worldInfo struct {
	rank, size int
	sysCtxt    C.int // BLACS system context (MPI_COMM_WORLD)
	allCtxt    C.int // a 1 x size grid over every rank: pdgemr2d's context
	roots      map[int]C.int
	grids      map[C.int]bool // live BLACS grids, exited by Finalize
	wsCache    map[wsKey]wsSize
	nextGrid   int
}

// ErrState is matched by the errors of calls made before Init, after
// Finalize, or of a second Init.
var ErrState = errors.New("MPI is not running")

// ErrMPI is matched by errors MPI or the BLACS report (a call that
// returned an error code, a thread level below FUNNELED).
var ErrMPI = errors.New("MPI error")

// Init initialises MPI (MPI_Init_thread, MPI_THREAD_FUNNELED requested, on
// the package's own locked OS thread: see ThreadLevel) and the BLACS. Call
// it once per process, on every rank, before anything else of dist; under
// mpirun every rank runs the same program. It returns an error matching
// ErrState when called twice or after Finalize, and ErrMPI when MPI fails
// or grants less than MPI_THREAD_FUNNELED.
//
// Signals: Go installs its handlers (with SA_ONSTACK) before main runs.
// Open MPI's opal layer would install its own for SIGABRT, SIGBUS, SIGFPE
// and SIGSEGV (MCA parameter opal_signal, default "6,7,8,11"), printing a
// C backtrace and aborting, which would turn Go's recoverable nil-pointer
// panics into aborts; but it does not replace a handler that is already
// installed, so Go's stay. Init checks that no signal handler changed
// (SignalReport) and the tests show a nil dereference after Init still
// panics with a Go stack trace. OMPI_MCA_opal_signal="" (or mpirun
// --mca opal_signal "") asks Open MPI not to try at all.
func Init() error {
	mu.Lock()
	defer mu.Unlock()
	if state != stateNew {
		return layout.Errorf(ErrState, "dist.Init", "", "Init was already called (MPI can be initialised once per process)")
	}
	before := readSignals()
	calls = make(chan func())
	type result struct {
		provided int
		err      error
	}
	res := make(chan result)
	go func() {
		runtime.LockOSThread() // for good: MPI's main thread is this one
		var prov C.int
		if rc := C.lapis_mpi_init(C.MPI_THREAD_FUNNELED, &prov); rc != C.MPI_SUCCESS {
			res <- result{err: layout.Errorf(ErrMPI, "dist.Init", "", "MPI_Init_thread returned %d", int(rc))}
			return
		}
		res <- result{provided: int(prov)}
		for f := range calls {
			f()
		}
	}()
	r := <-res
	if r.err != nil {
		return r.err
	}
	started = r.provided
	state = stateLive
	if started < ThreadFunneled {
		err := layout.Errorf(ErrMPI, "dist.Init", "", "MPI granted thread level %d, below MPI_THREAD_FUNNELED (%d)", started, ThreadFunneled)
		do(func() { C.lapis_mpi_finalize() })
		close(calls)
		state = stateDone
		return err
	}
	do(func() {
		var rank, size C.int
		C.lapis_mpi_rank(&rank)
		C.lapis_mpi_size(&size)
		world = worldInfo{rank: int(rank), size: int(size), roots: map[int]C.int{}, grids: map[C.int]bool{}, wsCache: map[wsKey]wsSize{}}
		var me, np C.int
		C.Cblacs_pinfo(&me, &np) // MPI is up: the BLACS adopt it
		C.Cblacs_get(-1, 0, &world.sysCtxt)
		world.allCtxt = world.sysCtxt
		C.Cblacs_gridinit(&world.allCtxt, rowOrder(), 1, size)
	})
	signalsAtInit = diffSignals(before, readSignals())
	return nil
}

// Finalize exits every BLACS grid, leaves the BLACS without letting them
// finalise MPI (Cblacs_exit(1)), then finalises MPI itself and stops the
// MPI thread. Call it once on every rank when done with dist (the
// descriptors and grids then stop working). Errors match ErrState when MPI
// is not running.
func Finalize() error {
	mu.Lock()
	defer mu.Unlock()
	if state != stateLive {
		return layout.Errorf(ErrState, "dist.Finalize", "", "MPI is not running (Init was not called, or Finalize was)")
	}
	var rc C.int
	do(func() {
		for ctxt := range world.grids {
			C.Cblacs_gridexit(ctxt)
		}
		for _, ctxt := range world.roots {
			if ctxt >= 0 {
				C.Cblacs_gridexit(ctxt)
			}
		}
		C.Cblacs_gridexit(world.allCtxt)
		C.Cblacs_exit(1) // 1: MPI stays up; it is ours to finalise
		rc = C.lapis_mpi_finalize()
	})
	close(calls)
	state = stateDone
	if rc != C.MPI_SUCCESS {
		return layout.Errorf(ErrMPI, "dist.Finalize", "", "MPI_Finalize returned %d", int(rc))
	}
	return nil
}

// do runs f on the MPI thread and waits for it. The caller has checked
// that MPI is running (live).
func do(f func()) {
	done := make(chan struct{})
	calls <- func() {
		held := clib.Enter() // ScaLAPACK calls BLAS (clib.Gate)
		f()
		clib.Leave(held)
		close(done)
	}
	<-done
}

// live returns an error matching ErrState unless MPI is running.
func live(op string) error {
	mu.Lock()
	s := state
	mu.Unlock()
	if s != stateLive {
		return layout.Errorf(ErrState, op, "", "MPI is not running (call dist.Init first, on every rank)")
	}
	return nil
}

// ThreadLevel returns the thread level MPI granted at Init (ThreadFunneled
// with Open MPI 4.1, which grants what is asked up to ThreadMultiple), or
// -1 before Init. lapis asks for FUNNELED because it makes every MPI call
// from the one OS thread that initialised MPI; MPI_THREAD_MULTIPLE would
// buy nothing (the BLACS are not thread-safe, so calls are serialised
// anyway) and costs Open MPI locks on every message.
func ThreadLevel() int {
	mu.Lock()
	defer mu.Unlock()
	if state == stateNew {
		return -1
	}
	return started
}

// Rank returns this process's rank in MPI_COMM_WORLD (0 before Init).
func Rank() int { return world.rank }

// Size returns the number of ranks in MPI_COMM_WORLD (0 before Init).
func Size() int { return world.size }

// Barrier waits until every rank has reached it (MPI_Barrier on
// MPI_COMM_WORLD). Errors match ErrState or ErrMPI.
func Barrier() error {
	if err := live("dist.Barrier"); err != nil {
		return err
	}
	var rc C.int
	do(func() { rc = C.lapis_mpi_barrier() })
	if rc != C.MPI_SUCCESS {
		return layout.Errorf(ErrMPI, "dist.Barrier", "", "MPI_Barrier returned %d", int(rc))
	}
	return nil
}

// Abort ends every rank of the job with the exit code (MPI_Abort): the way
// out when one rank meets an error the others cannot know about and would
// otherwise wait for in a collective call. It does not return while MPI is
// running; otherwise it returns an error matching ErrState.
func Abort(code int) error {
	if err := live("dist.Abort"); err != nil {
		return err
	}
	do(func() { C.lapis_mpi_abort(C.int(code)) })
	return nil
}

// Wtime is MPI_Wtime: seconds since some time in the past, for timing
// across ranks (0 when MPI is not running).
func Wtime() float64 {
	if live("dist.Wtime") != nil {
		return 0
	}
	var t float64
	do(func() { t = float64(C.lapis_mpi_wtime()) })
	return t
}

// Version returns MPI's library version string (MPI_Get_library_version).
func Version() string {
	if live("dist.Version") != nil {
		return ""
	}
	var s string
	do(func() { s = C.GoString(C.lapis_mpi_version()) })
	return s
}

// AllMaxInt returns the largest of x over every rank (MPI_Allreduce with
// MPI_MAX): how a program agrees on a status, say 1 on any rank that
// failed. Errors match ErrState or ErrMPI.
func AllMaxInt(x int) (int, error) {
	if err := live("dist.AllMaxInt"); err != nil {
		return 0, err
	}
	// As a 64-bit integer: no x is refused on one rank alone (the others
	// would wait in the allreduce).
	v := C.longlong(x)
	var rc C.int
	do(func() { rc = C.lapis_mpi_allreduce_max_long(&v, 1) })
	if rc != C.MPI_SUCCESS {
		return 0, layout.Errorf(ErrMPI, "dist.AllMaxInt", "", "MPI_Allreduce returned %d", int(rc))
	}
	return int(v), nil
}

func rowOrder() *C.char { return &rowOrderBytes[0] }

// rowOrderBytes is "Row" for Cblacs_gridinit, in C memory's stead: a Go
// global array holds no Go pointers, so passing it is allowed.
var rowOrderBytes = [4]C.char{'R', 'o', 'w', 0}

func (w worldInfo) String() string { return fmt.Sprintf("rank %d of %d", w.rank, w.size) }
