package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
)

// The finite-input rule of dist, for routines that work in place. Unlike
// lapack's helpers and its iterative routines, which scan before calling
// (see lapack's "NaN and Inf"), dist scans up front only in Syevd; the
// direct solvers look afterwards, as lapack's direct routines leave NaN
// input to the routine (ScaLAPACK's reference build has not been seen to
// crash on it, and a collective scan before every call costs a round of
// messages). The routines that
// return a solution or values (Gesv, Potrs, Gels: b; Syevd: w; Gesvd: s)
// look for a NaN in it on each rank after the call (O(n nrhs / p) or
// O(n), beside O(n^3 / p) of work), Potrf on its factor's diagonal
// (O(n)), and that flag travels with info in
// the allreduce that agrees on it. When ScaLAPACK failed or a result
// holds a NaN, and only then, every rank scans its local pieces of the
// operands the routine read (one triangle for Potrf, Potrs and Syevd) for
// the first NaN or infinity in global column-major order, and one more
// MPI_Allreduce gives every rank the same first one: an *Error matching
// lapis.ErrNotFinite naming the operand and that element, in place of
// ScaLAPACK's (which may mislead: not positive definite, no convergence).
// The routines overwrite their operands, so the element named is the
// first one left non-finite after the call: the input's NaN or infinity,
// or where ScaLAPACK spread it (with pivoting, rows move). A NaN result
// with every operand finite afterwards (and info 0) is an error naming
// the result.

// operand is what a routine read: a matrix, all of it (tri 0) or one
// triangle ('L' or 'U') of the global matrix.
type operand[T Scalar] struct {
	name string
	a    *Matrix[T]
	tri  byte
}

// noneFound is a rank's key when its pieces hold no NaN or infinity.
const noneFound = math.MaxInt64

// firstLocal returns the key (4 (j m + i) + kind: 0 NaN, 1 +Inf, 2 -Inf,
// 3 a complex with an infinite part) of the first non-finite element of
// this rank's piece of o, in global column-major order; noneFound when
// there is none. Local columns and rows run in the global order, so the
// first found is the smallest.
func (o operand[T]) firstLocal() int64 {
	a := o.a
	for lj := 0; lj < a.nloc; lj++ {
		j := l2g(lj, a.nb, a.g.col, a.g.q)
		for li := 0; li < a.mloc; li++ {
			i := l2g(li, a.mb, a.g.row, a.g.p)
			if (o.tri == 'L' && i < j) || (o.tri == 'U' && i > j) {
				continue
			}
			if x := a.local.At(li, lj); !scalar.IsFinite(x) {
				return 4*(int64(j)*int64(a.m)+int64(i)) + int64(kindOf(x))
			}
		}
	}
	return noneFound
}

func kindOf[T Scalar](x T) int {
	c := scalar.Complex128(x)
	switch {
	case cmplx.IsNaN(c):
		return 0
	case imag(c) == 0 && math.IsInf(real(c), 1):
		return 1
	case imag(c) == 0:
		return 2
	}
	return 3
}

// nonFinite applies the rule after routine returned the agreed info and
// NaN flag: nil when neither says anything went wrong or when the
// operands hold no NaN or infinity (the caller then reports info; a NaN
// result counts only when info is 0), else the rule's error, the same on
// every rank. Every rank of the job calls
// it with the same info and nan.
func nonFinite[T Scalar](op, routine string, info int, nan bool, ins ...operand[T]) error {
	if info == 0 && !nan {
		return nil
	}
	if err := scan(op, routine, info, false, ins); err != nil {
		return err
	}
	if nan && info == 0 {
		return &Error{Op: op, Routine: routine, Index: -1, Arg: "result", kind: lapis.ErrNotFinite,
			detail: "result: NaN with every operand finite after the call (an overflow inside ScaLAPACK)"}
	}
	return nil
}

// finiteInput is the scan before routine runs, for the routines that can
// hang on a NaN (pdsyevd: ranks that take different branches on it wait
// for each other; seen on a 2 x 2 grid): O(n^2 / p) a rank and one
// MPI_Allreduce on every call.
func finiteInput[T Scalar](op, routine string, ins ...operand[T]) error {
	return scan(op, routine, 0, true, ins)
}

// scan finds the first NaN or infinity of ins over every rank (one
// MPI_Allreduce) and returns the rule's error for it, nil when there is
// none; before says whether the routine has run yet.
func scan[T Scalar](op, routine string, info int, before bool, ins []operand[T]) error {
	found := make([]C.longlong, len(ins))
	do(func() {
		for k, in := range ins {
			found[k] = noneFound
			if in.a.g.In() {
				found[k] = C.longlong(in.firstLocal())
			}
		}
		C.lapis_mpi_allreduce_min_long(&found[0], C.int(len(found)))
	})
	for k, in := range ins {
		if found[k] == noneFound {
			continue
		}
		key := int64(found[k])
		pos, what := key/4, [...]string{"NaN", "+Inf", "-Inf", "a complex number with an infinite part"}[key%4]
		i, j := int(pos%int64(in.a.m)), int(pos/int64(in.a.m))
		when := fmt.Sprintf(" after the call; the computation needs finite numbers (%s is overwritten in place: this is the first NaN or infinity left in it, its input's or where the routine spread it)", in.name)
		if before {
			when = "; the computation needs finite numbers (checked before the call)"
		}
		return &Error{Op: op, Routine: routine, Info: info, Index: -1, Arg: in.name, kind: lapis.ErrNotFinite,
			detail: fmt.Sprintf("%s: element (%d, %d) (global, 0-based) is %s%s", in.name, i, j, what, when)}
	}
	return nil
}

// hasNaN reports whether the local piece of a holds a NaN (either part of
// a complex one). It runs on the grid's ranks.
func hasNaN[T Scalar](a *Matrix[T]) bool {
	if a.mloc == 0 || a.nloc == 0 {
		return false
	}
	return scalar.MatrixHasNaN(a.local.Data(), a.local.Layout().Offset(), 1, int(a.desc[8]), a.mloc, a.nloc)
}

// diagNaN reports whether the diagonal elements of a this rank holds
// include a NaN. It runs on the grid's ranks.
func diagNaN[T Scalar](a *Matrix[T]) bool {
	for j := 0; j < min(a.m, a.n); j++ {
		if li, lj, mine := a.ToLocal(j, j); mine {
			if x := a.local.At(li, lj); x != x {
				return true
			}
		}
	}
	return false
}
