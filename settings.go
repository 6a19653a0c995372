package lapis

import (
	"errors"
	"fmt"

	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/layout"
)

// ErrCopyRefused is matched (errors.Is) by the error a call returns in
// strict mode when an operand would need a copy (a view BLAS or LAPACK
// cannot address as pointer, leading dimension and transpose flag; see
// docs/copies.md). Every package returns this one value.
var ErrCopyRefused = policy.ErrCopyRefused

// ErrReleased is matched by the error of a call given a view of a tensor
// that was released (views.Tensor.Release) after the view was made, or
// made from a released tensor: its buffer may belong to another tensor
// now. Every entry point of views, cblas, lapack, batch, fortran, dist
// and npy checks each view it is given, before reading or writing
// anything, and names the argument (views.View.CheckLive). Views of
// memory lapis did not take from its pool are never flagged.
var ErrReleased = pool.ErrReleased

// ErrTooLarge is matched by the error of a call whose result, copy or
// workspace would take more memory than this process can have: the
// machine's RAM and swap, its ulimit -v or its cgroup's memory limit, at
// most 128 TiB. Every allocation whose size comes from the caller's
// shapes is decided against that bound before anything is allocated, so
// an 8 TiB outer product or the copy of a broadcast of huge logical size
// is this error naming the operand, its shape and the bytes, not Go's
// fatal "out of memory" (docs/errors.md#allocation). A size that does not
// even fit an int is layout.ErrOverflow.
var ErrTooLarge = pool.ErrTooLarge

// ErrUnsupported is matched by the error of a call the linked library
// cannot serve: no routine for the element type, no thread control.
var ErrUnsupported = errors.New("not supported by the linked library")

// ErrInvalid is matched by the error of a call given an argument whose
// value it does not take: an enum constant out of range, a count outside
// its bounds (SetThreads, SetWorkers), a NaN where a number is needed.
// Shapes that do not fit match layout.ErrShape instead.
var ErrInvalid = errors.New("invalid argument")

// ErrNotFinite is matched by the error of a computation whose input holds
// a NaN or an infinity where it needs finite numbers (the helpers of
// package lapack and batch's per-matrix operations); the error names the
// operand and its first such element.
var ErrNotFinite = errors.New("not a finite number")

// ErrLibrary is matched by the error every call returns when the linked
// BLAS/LAPACK library cannot be used as compiled (its integer width
// differs from the header's: see Info).
var ErrLibrary = errors.New("unusable BLAS library")

// Stats counts C calls and operand copies since the process started,
// across every lapis package. Take the difference of two readings to see
// what a piece of code did (calls from other goroutines count too).
type Stats struct {
	Calls  int64 // calls into the C library's BLAS
	Lapack int64 // calls into the C library's LAPACK
	Copies int64 // operands copied because BLAS or LAPACK could not address them
	Small  int64 // BLAS calls served by the pure-Go path for small problems
}

// ReadStats returns the current counts.
func ReadStats() Stats {
	return Stats{Calls: policy.Calls.Load(), Lapack: policy.Lapack.Load(), Copies: policy.Copies.Load(), Small: policy.Small.Load()}
}

// AutoThreads, passed to SetThreads, returns to the default thread
// policy.
const AutoThreads = 0

// SetThreads fixes the number of threads OpenBLAS uses for every call of
// every lapis package at n (n >= 1), or returns to the default policy (n
// = AutoThreads): one thread unless a call is large, the only one in
// flight and finds idle cores, or is a level-3 call of at least 768^3
// (docs/threads.md). The setting is process-wide, like OpenBLAS's own
// (with MKL lapis sets the count of each call's OS thread for that call
// only, mkl_set_num_threads_local, and never MKL's process-wide count);
// with a fixed n > 1, batch splits a batch over at most GOMAXPROCS/n
// workers. n must be AutoThreads or between 1 and the most threads the
// library was built for (OpenBLAS's MAX_THREADS, in Info().Config; the
// number of CPUs when it does not say): otherwise the error matches
// ErrInvalid and the setting is unchanged. With a library that has no
// thread control (neither OpenBLAS nor MKL) the error matches
// ErrUnsupported.
func SetThreads(n int) error {
	if n < 0 || n > threads.Limit() {
		return layout.Errorf(ErrInvalid, "lapis.SetThreads", "n", "%d threads; want 1 to %d (the library's MAX_THREADS), or AutoThreads", n, threads.Limit())
	}
	if !threads.Controlled() {
		return layout.Errorf(ErrUnsupported, "lapis.SetThreads", "n", "the linked BLAS is neither OpenBLAS nor MKL; set its threads its own way")
	}
	threads.SetFixed(n)
	return nil
}

// Threads returns the most threads OpenBLAS may use for one call: the
// count SetThreads fixed, or under the default policy the library's own
// count at start (OPENBLAS_NUM_THREADS, or the cores) capped by
// GOMAXPROCS. It is 1 when the library is not OpenBLAS or is serial.
func Threads() int { return threads.Max() }

// ThreadPolicy returns the policy in force, as Info reports it: "fixed n"
// or "auto up to n".
func ThreadPolicy() string {
	if f := threads.Fixed(); f > 0 {
		return fmt.Sprintf("fixed %d", f)
	}
	return fmt.Sprintf("auto up to %d", threads.Max())
}

// AutoWorkers, passed to SetWorkers, returns to the default worker count.
const AutoWorkers = 0

// SetWorkers sets how many goroutines (each on its own OS thread) run the
// chunks of a batch in package batch, and returns the previous setting.
// n is at least 1, or AutoWorkers for the default: GOMAXPROCS, or 1 with
// a serial OpenBLAS build, which is not safe to call from several threads
// at once. A negative n is an error matching ErrInvalid and changes
// nothing. Workers, once started, live for the rest of the process;
// lowering the setting leaves them idle.
func SetWorkers(n int) (prev int, err error) {
	if n < 0 {
		return Workers(), layout.Errorf(ErrInvalid, "lapis.SetWorkers", "n", "%d workers; want at least 1, or AutoWorkers", n)
	}
	return threads.SetWorkers(n), nil
}

// Workers returns how many workers run the chunks of a batch.
func Workers() int { return threads.Workers() }
