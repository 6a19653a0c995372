package lapack

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/scalar"
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
// batch applies it per matrix through internal/rt/link.

// input is an operand a routine reads: all of it, or one triangle ('L'
// or 'U') of a square matrix.
type input[T Scalar] struct {
	name string
	v    views.View[T]
	tri  byte
}

// checkFinite is the rule: it scans the operands ins, each once
// (scalar.MatrixFinite, along its contiguous axis, stopping at the
// first column or row that holds a NaN or an infinity; nothing is
// copied or allocated), and returns the error for the first non-finite
// element of the first operand that holds one, nil when all are
// finite. Call it after the arguments are checked and before the first
// LAPACK call. A view that is not of rank 1 or 2 is not scanned (its
// rank is an argument error).
func checkFinite[T Scalar](op string, ins ...input[T]) error {
	for i := range ins {
		if !ins[i].finite() {
			return firstNonFinite(op, ins[i])
		}
	}
	return nil
}

// finite reports whether in holds no NaN or infinity where it is read.
func (in *input[T]) finite() bool {
	data, l, _ := in.v.Ref() // nothing copied: a View and its Layout are large values
	shape, strides := l.Axes()
	switch len(shape) {
	case 1:
		return scalar.MatrixFinite(data, l.Origin(), strides[0], 0, shape[0], 1, 0)
	case 2:
		return scalar.MatrixFinite(data, l.Origin(), strides[0], strides[1], shape[0], shape[1], in.tri)
	}
	return true
}

// notFinite is the rule's error: an *Error, so that batch reports it per
// matrix as it reports LAPACK's, matching lapis.ErrNotFinite.
func notFinite(op, name, detail string) error {
	routine, _ := strings.CutPrefix(op, "lapack.") // a batch call's: none (batch.Error says which call)
	if routine == op {
		routine = ""
	}
	return &Error{Op: op, Routine: routine, Index: -1, Rank: -1, Arg: name, kind: lapis.ErrNotFinite, detail: name + ": " + detail}
}

// resultNotFinite is the error of a helper whose result came out with a
// NaN from finite input: an overflow inside LAPACK.
func resultNotFinite(op string) error {
	return notFinite(op, "result", "NaN from finite input (an overflow inside LAPACK)")
}

// firstNonFinite returns the error for in's first NaN or infinity
// (column-major order), nil when it has none. It runs once the scan has
// found one, and reads element by element.
func firstNonFinite[T Scalar](op string, in input[T]) error {
	v := in.v
	if v.Rank() == 1 {
		v, _ = v.Reshape(v.Len(), 1)
	}
	if v.Rank() != 2 || v.Len() == 0 {
		return nil
	}
	rows, cols := v.Layout().Dim(0), v.Layout().Dim(1)
	for j := range cols {
		i0, i1 := 0, rows
		switch in.tri {
		case 'L':
			i0 = j
		case 'U':
			i1 = min(j+1, rows)
		}
		for i := i0; i < i1; i++ {
			if x := v.At(i, j); !scalar.IsFinite(x) {
				where := fmt.Sprintf("element (%d, %d)", i, j)
				if in.v.Rank() == 1 {
					where = fmt.Sprintf("element %d", i)
				}
				return notFinite(op, in.name, fmt.Sprintf("%s is %v; the computation needs finite numbers", where, x))
			}
		}
	}
	return nil
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
		return input[T]{name, a, 'U'}
	}
	return input[T]{name, a, 'L'}
}
