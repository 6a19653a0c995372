package lapis

import (
	"errors"
	"fmt"

	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/layout"
)

// ErrCopyRefused is matched (errors.Is) by the error a call returns in
// strict mode when an operand would need a copy (a view BLAS or LAPACK
// cannot address as pointer, leading dimension and transpose flag; see
// docs/copies.md). Every package returns this one value.
var ErrCopyRefused = policy.ErrCopyRefused

// ErrUnsupported is matched by the error of a call the linked library
// cannot serve: no routine for the element type, no thread control.
var ErrUnsupported = errors.New("not supported by the linked library")

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
// (docs/threads.md). The setting is process-wide, like OpenBLAS's own;
// with a fixed n > 1, batch splits a batch over at most GOMAXPROCS/n
// workers. A negative n is an error matching layout.ErrShape; with a
// library that has no thread control (not OpenBLAS) the error matches
// ErrUnsupported.
func SetThreads(n int) error {
	if n < 0 {
		return layout.Errorf(layout.ErrShape, "lapis.SetThreads", "n", "%d threads; want at least 1, or AutoThreads", n)
	}
	if !threads.Controlled() {
		return layout.Errorf(ErrUnsupported, "lapis.SetThreads", "n", "the linked BLAS is not OpenBLAS; set its threads its own way")
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

// SetWorkers sets how many goroutines (each on its own OS thread) run the
// chunks of a batch in package batch, at least 1, and returns the
// previous setting. The default is GOMAXPROCS, or 1 with a serial
// OpenBLAS build, which is not safe to call from several threads at once.
// Workers, once started, live for the rest of the process; lowering the
// setting leaves them idle.
func SetWorkers(n int) (prev int) { return threads.SetWorkers(n) }

// Workers returns how many workers run the chunks of a batch.
func Workers() int { return threads.Workers() }
