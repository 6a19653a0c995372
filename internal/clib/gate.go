package clib

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <pthread.h>

// The gate (see Gate). The lock prefers writers, so that FixThreads
// waits only for the calls in flight, not for every call to come; no
// thread takes the read side twice (a call enters once, and a raised
// thread's calls do not enter), so the preference cannot deadlock.
static pthread_rwlock_t lapis_gate;
static __thread int lapis_gate_owner; // this OS thread runs raised (nesting depth)
static int lapis_gate_want = 1;       // every other call's count
static void (*lapis_gate_set)(int);   // openblas_set_num_threads
static int (*lapis_gate_omp_get)(void);
static void (*lapis_gate_omp_set)(int);

static int lapis_gate_init(void) {
	lapis_gate_set = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
	lapis_gate_omp_get = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_max_threads");
	lapis_gate_omp_set = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
	if (!lapis_gate_set || !lapis_gate_omp_get || !lapis_gate_omp_set) return 0;
	pthread_rwlockattr_t attr;
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	int err = pthread_rwlock_init(&lapis_gate, &attr);
	pthread_rwlockattr_destroy(&attr);
	return err == 0;
}

// lapis_gate_enter takes the read side for a call from this OS thread
// and gives the thread the OpenMP count every call has; 0 when the thread
// runs raised (it holds the read side already).
static int lapis_gate_enter(void) {
	if (lapis_gate_owner) return 0;
	pthread_rwlock_rdlock(&lapis_gate);
	if (lapis_gate_omp_get() != lapis_gate_want) lapis_gate_omp_set(lapis_gate_want);
	return 1;
}

static void lapis_gate_leave(void) { pthread_rwlock_unlock(&lapis_gate); }

// Raised sections may nest (a raised thread's call that raises again):
// the outermost one holds the read side.
static void lapis_gate_raise(int n) {
	if (lapis_gate_owner++ == 0) pthread_rwlock_rdlock(&lapis_gate);
	lapis_gate_set(n);
}

static void lapis_gate_lower(void) {
	if (--lapis_gate_owner > 0) return;
	lapis_gate_omp_set(lapis_gate_want);
	pthread_rwlock_unlock(&lapis_gate);
}

static void lapis_gate_fix(int n) {
	pthread_rwlock_wrlock(&lapis_gate);
	lapis_gate_want = n;
	lapis_gate_set(n);
	pthread_rwlock_unlock(&lapis_gate);
}
*/
import "C"

import (
	"runtime"
	"sync/atomic"
)

// Gate keeps the thread counts of OpenBLAS's OpenMP build consistent, so
// that the library never changes its count while a call runs on more
// threads (OpenMathLib/OpenBLAS#5825 has a reproducer). That build keeps
// a process-wide count beside each OS thread's OpenMP count; a call from
// a thread whose OpenMP count is one runs on one thread, and any other
// call first makes its thread's count the process-wide one when they
// differ. Changing the process-wide count frees the buffers of the
// threads a smaller count does not use: buffers a call on more threads
// may be using. Another call then takes the same memory, and both compute
// garbage (lapis check: dgemm off by 0.6, about one call in 3,000 with
// four goroutines, when lapis lowered the count beside a raised call).
//
// With the gate on, every call into the library (every function of this
// package that calls BLAS or LAPACK) first sets its OS thread's OpenMP
// count to the one every call has (one in auto mode, so that it never
// touches the process-wide count, or the fixed count), and holds the
// gate's read side while it runs. Only two things change the process-wide
// count:
//   - RaiseThreads, for the one call the policy lets run on n threads
//     (the only call of the process then that may): it sets n, the
//     process-wide count and its own thread's, and its calls skip the
//     gate; LowerThreads puts its thread's count back. The process-wide
//     count stays n, which no other call reads, so OpenBLAS keeps its
//     buffers for the next raised call.
//   - FixThreads, for a fixed count: it waits for the calls in flight to
//     end (the write side), then sets the count that every call has.
//
// The gate is off (entering costs one atomic load) unless GateOn turned
// it on; the thread policy (internal/rt/threads) does so for the OpenMP
// build.
var gate atomic.Bool

// GateOn turns the gate on; false when the library lacks what it needs
// (openblas_set_num_threads and the OpenMP runtime's count functions).
// Call it before any call into the library is in flight.
func GateOn() bool {
	if C.lapis_gate_init() == 0 {
		return false
	}
	gate.Store(true)
	return true
}

// Enter holds the gate's read side for one call into the library, on the
// calling goroutine's OS thread; Leave(Enter()) around the call. Every
// function of this package that calls BLAS or LAPACK does so, and so
// does C outside it that calls them (dist's ScaLAPACK routines). Both
// are inlined: with the gate off a call pays one atomic load.
func Enter() bool { return gate.Load() && enterGate() }

// Leave ends Enter.
func Leave(held bool) {
	if held {
		leaveGate()
	}
}

func enterGate() bool {
	runtime.LockOSThread()
	if C.lapis_gate_enter() == 0 {
		runtime.UnlockOSThread()
		return false
	}
	return true
}

func leaveGate() {
	C.lapis_gate_leave()
	runtime.UnlockOSThread()
}

// RaiseThreads gives the calls of the calling goroutine, which must be
// locked to its OS thread until LowerThreads, n threads. The caller
// makes sure that no other call runs raised meanwhile.
func RaiseThreads(n int) { C.lapis_gate_raise(C.int(n)) }

// LowerThreads ends RaiseThreads, on the same OS thread.
func LowerThreads() { C.lapis_gate_lower() }

// FixThreads sets the count every call runs with, once the calls in
// flight have ended.
func FixThreads(n int) { C.lapis_gate_fix(C.int(n)) }
