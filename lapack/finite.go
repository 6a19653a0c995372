package lapack

import (
	"errors"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/views"
)

// The finite-input rule ("NaN and Inf" in the package documentation):
// LAPACK does not define what its routines do with a NaN or an infinity
// (reference LAPACK returns garbage or iterates on; on MKL, dgebal and
// dgelsd reject the argument, and Eig's dgeev then crashed the process),
// so the helpers and the in-place routines that iterate scan what the
// routine will read before calling it (checkFinite: O(n^2) against its
// O(n^3)) and return an error matching lapis.ErrNotFinite that names the
// operand and its first NaN or infinity, with nothing written. Package
// batch applies it per matrix (internal/finite is the scan both use).

// input is an operand a routine reads (finite.Input).
type input[T Scalar] = finite.Input[T]

// checkFinite is the rule: it scans the operands ins, each once
// (finite.First: nothing is copied or allocated), and returns the error
// for the first non-finite element of the first operand that holds one,
// nil when all are finite. Call it after the arguments are checked and
// before the first LAPACK call.
func checkFinite[T Scalar](op string, ins ...input[T]) error {
	if name, detail, bad := finite.First(ins...); bad {
		return notFinite(op, name, detail)
	}
	return nil
}

// notFinite is the rule's error: an *Error, so that batch reports it per
// matrix as it reports LAPACK's, matching lapis.ErrNotFinite.
func notFinite(op, name, detail string) error {
	routine, _ := strings.CutPrefix(op, "lapack.") // a batch call's: none (batch.Error says which call)
	if routine == op {
		routine = ""
	}
	return &Error{Op: op, Routine: routine, Index: -1, Rank: -1, Arg: name, Err: lapis.ErrNotFinite, Detail: name + ": " + detail}
}

// resultNotFinite is the error of a helper whose result came out with a
// NaN from finite input: an overflow inside LAPACK.
func resultNotFinite(op string) error {
	return notFinite(op, "result", finite.Overflow)
}

// helperErr is the error of the helper op whose in-place routine
// returned err, having run on the helper's working copy of ins: for the
// routine's finite-input error (it scans what it reads), the helper's own
// error for ins (the same operand and element, named as the caller
// passed it), found by scanning ins on this failure path only; any other
// error renamed to op.
func helperErr[T Scalar](op string, err error, ins ...input[T]) error {
	if errors.Is(err, lapis.ErrNotFinite) {
		if e := checkFinite(op, ins...); e != nil {
			return e
		}
	}
	return errop.Rename(err, op)
}

// readTriangle is the input of a routine that reads uplo's triangle of a.
func readTriangle[T Scalar](name string, a views.View[T], uplo Uplo) input[T] {
	if uplo == Upper {
		return input[T]{Name: name, V: a, Tri: 'U'}
	}
	return input[T]{Name: name, V: a, Tri: 'L'}
}
