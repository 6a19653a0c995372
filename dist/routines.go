package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"fmt"
	"maps"
	"slices"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
)

// call runs a ScaLAPACK routine on the MPI thread: f on the ranks of a's
// grid (the others skip it: ScaLAPACK has nothing for them to do), then
// the largest info over every rank, so that all return the same error.
func call(g *Grid, f func() C.lapis_int) int {
	info, _ := callNaN(g, f, nil)
	return info
}

// callNaN is call that also asks nan (when not nil) on the grid's ranks
// after f, whether a result holds a NaN, and agrees on that in the same
// MPI_Allreduce as info.
func callNaN(g *Grid, f func() C.lapis_int, nan func() bool) (int, bool) {
	var v [2]C.int
	do(func() {
		if g.In() {
			v[0] = C.int(f())
			if nan != nil && nan() {
				v[1] = 1
			}
		}
		C.lapis_mpi_allreduce_max_ints(&v[0], 2)
		policy.Lapack.Add(1)
	})
	return int(v[0]), v[1] != 0
}

func one() *C.lapis_int { return &ones[0] }

var allScope = [4]C.char{'A', 'l', 'l', 0}
var spaceTop = [2]C.char{' ', 0}

var ones = [1]C.lapis_int{1}

func ci(x int) C.lapis_int { return C.lapis_int(x) }

// sameGrid checks that every operand is distributed over a's grid.
func sameGrid[T Scalar](op string, a *Matrix[T], others map[string]*Matrix[T]) error {
	if a == nil {
		return layout.Errorf(layout.ErrShape, op, "a", "nil matrix")
	}
	if err := live(op); err != nil {
		return err
	}
	if err := a.checkLive(op, "a"); err != nil {
		return err
	}
	if a.g.exited {
		return layout.Errorf(ErrState, op, "a", "its grid was exited")
	}
	for _, name := range slices.Sorted(maps.Keys(others)) { // the same error on every rank
		b := others[name]
		if b == nil {
			return layout.Errorf(layout.ErrShape, op, name, "nil matrix")
		}
		if err := b.checkLive(op, name); err != nil {
			return err
		}
		if b.g != a.g {
			return layout.Errorf(layout.ErrShape, op, name, "is on another grid than a (Redistribute it onto a's grid first)")
		}
	}
	return nil
}

func squareBlocks[T Scalar](op, name string, a *Matrix[T]) error {
	if a.mb != a.nb {
		return layout.Errorf(layout.ErrShape, op, name, "%d x %d blocks: %s needs square blocks (Redistribute to mb = nb)", a.mb, a.nb, op)
	}
	return nil
}

func uploChar(u lapack.Uplo) (C.char, error) {
	switch u {
	case lapack.Upper:
		return 'U', nil
	case lapack.Lower:
		return 'L', nil
	}
	return 0, layout.Errorf(lapis.ErrInvalid, "dist", "uplo", "value %d is not Upper or Lower", int(u))
}

func ptr[T Scalar](a *Matrix[T]) unsafe.Pointer { return first(a.local) }

// opDims returns the rows and columns of op(a).
func opDims[T Scalar](t lapack.Op, a *Matrix[T]) (int, int) {
	if t == lapack.NoTrans {
		return a.m, a.n
	}
	return a.n, a.m
}

// Gemm computes c = alpha*op(a)*op(b) + beta*c (pdgemm / pzgemm; op is
// lapack.NoTrans, Trans or, for complex128, ConjTrans), overwriting c; a
// and b are not modified. Any block sizes: the PBLAS align them.
// Collective. Errors (before anything runs, on every rank when any
// rank's arguments are bad) match ErrState, layout.ErrShape or
// lapis.ErrInvalid (a bad op, or ranks passing different arguments). A
// NaN propagates as in BLAS (no error).
func Gemm[T Scalar](ta, tb lapack.Op, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) error {
	const op = "dist.Gemm"
	err := func() error {
		if err := sameGrid(op, a, map[string]*Matrix[T]{"b": b, "c": c}); err != nil {
			return err
		}
		for _, t := range []lapack.Op{ta, tb} {
			if t != lapack.NoTrans && t != lapack.Trans && t != lapack.ConjTrans {
				return layout.Errorf(lapis.ErrInvalid, op, "ta, tb", "value %q is not NoTrans, Trans or ConjTrans", byte(t))
			}
		}
		am, ak := opDims(ta, a)
		bk, bn := opDims(tb, b)
		if am != c.m || bn != c.n || ak != bk {
			return layout.Errorf(layout.ErrShape, op, "a, b, c", "op(a) %d x %d times op(b) %d x %d does not give c's %d x %d", am, ak, bk, bn, c.m, c.n)
		}
		return nil
	}()
	if err := agree(op, err, append(keys(a, b, c), int(ta), int(tb))); err != nil {
		return err
	}
	if c.m == 0 || c.n == 0 {
		return nil
	}
	_, ak := opDims(ta, a)
	pa, pb, pc := ptr(a), ptr(b), ptr(c)
	da, db, dc := a.desc, b.desc, c.desc
	cta, ctb := C.char(ta), C.char(tb)
	call(a.g, func() C.lapis_int {
		m, n, k := ci(c.m), ci(c.n), ci(ak)
		if isComplex[T]() {
			al, be := complex128(any(alpha).(complex128)), complex128(any(beta).(complex128))
			C.pzgemm_(&cta, &ctb, &m, &n, &k, (*C.lapis_z)(unsafe.Pointer(&al)), (*C.lapis_z)(pa), one(), one(), &da[0],
				(*C.lapis_z)(pb), one(), one(), &db[0], (*C.lapis_z)(unsafe.Pointer(&be)), (*C.lapis_z)(pc), one(), one(), &dc[0], 1, 1)
			return 0
		}
		al, be := C.double(any(alpha).(float64)), C.double(any(beta).(float64))
		C.pdgemm_(&cta, &ctb, &m, &n, &k, &al, (*C.double)(pa), one(), one(), &da[0],
			(*C.double)(pb), one(), one(), &db[0], &be, (*C.double)(pc), one(), one(), &dc[0], 1, 1)
		return 0
	})
	return nil
}

// Gesv solves a x = b in place (pdgesv / pzgesv): a (n x n, square
// blocks) is overwritten by its LU factors, b (n x nrhs, row blocks of
// a's size) by x, and the returned pivots are this rank's local ones
// (ScaLAPACK's IPIV: global row indices, 1-based, for the local rows of
// a). A singular a is an *Error matching lapack.ErrSingular, with the
// global index of the zero pivot, on every rank; a NaN or an infinity in
// a or b one matching lapis.ErrNotFinite (see the package
// documentation). Other errors (before anything runs, on every rank when
// any rank's arguments are bad) match ErrState, layout.ErrShape or
// lapis.ErrInvalid.
func Gesv[T Scalar](a, b *Matrix[T]) ([]int32, error) {
	const op = "dist.Gesv"
	err := sameGrid(op, a, map[string]*Matrix[T]{"b": b})
	if err == nil {
		err = squareSystem(op, a, b)
	}
	if err := agree(op, err, keys(a, b)); err != nil {
		return nil, err
	}
	ipiv := make([]int32, a.mloc+a.mb)
	if a.n == 0 || b.n == 0 {
		return ipiv, nil
	}
	pa, pb := ptr(a), ptr(b)
	da, db := a.desc, b.desc
	pi := unsafe.Pointer(&ipiv[0])
	routine := routineName[T]("pdgesv", "pzgesv")
	info, nan := callNaN(a.g, func() C.lapis_int {
		var info C.lapis_int
		n, nrhs := ci(a.n), ci(b.n)
		if isComplex[T]() {
			C.pzgesv_(&n, &nrhs, (*C.lapis_z)(pa), one(), one(), &da[0], (*C.lapis_int)(pi), (*C.lapis_z)(pb), one(), one(), &db[0], &info)
		} else {
			C.pdgesv_(&n, &nrhs, (*C.double)(pa), one(), one(), &da[0], (*C.lapis_int)(pi), (*C.double)(pb), one(), one(), &db[0], &info)
		}
		// ScaLAPACK 2.2.1 reports no zero pivot for n = 1 (its pivot
		// search over a one-element column does not see the zero; a
		// zero last pivot of a larger matrix is reported): the owner of
		// the one element checks it, and the info agreed on says so.
		if info == 0 && a.n == 1 && a.local.Len() == 1 && a.local.At(0, 0) == 0 {
			info = 1
		}
		return info
	}, func() bool { return hasNaN(b) })
	// A singular a is reported as such (b counts when info is 0: for
	// n = 1, where lapis finds the zero pivot, pdgesv divided b by it).
	ins := []operand[T]{{"a", a, 0}, {"b", b, 0}}
	if info != 0 {
		ins = ins[:1]
	}
	if err := nonFinite(op, routine, info, nan, ins...); err != nil {
		return ipiv, err
	}
	return ipiv, infoErr(op, routine, info, lapack.ErrSingular)
}

// squareMatrix checks that a is square, in square blocks.
func squareMatrix[T Scalar](op string, a *Matrix[T]) error {
	if a.m != a.n {
		return layout.Errorf(layout.ErrShape, op, "a", "%d x %d is not square", a.m, a.n)
	}
	return squareBlocks(op, "a", a)
}

// triangleArgs checks the operands of a routine reading triangle uplo of
// the square a (in square blocks) and returns uplo for ScaLAPACK.
func triangleArgs[T Scalar](op string, uplo lapack.Uplo, a *Matrix[T], others map[string]*Matrix[T]) (C.char, error) {
	if err := sameGrid(op, a, others); err != nil {
		return 0, err
	}
	u, err := uploChar(uplo)
	if err != nil {
		return 0, err
	}
	return u, squareMatrix(op, a)
}

// squareSystem checks a (n x n, square blocks) against b (n x nrhs whose
// row blocks are a's).
func squareSystem[T Scalar](op string, a, b *Matrix[T]) error {
	if err := squareMatrix(op, a); err != nil {
		return err
	}
	if b.m != a.n {
		return layout.Errorf(layout.ErrShape, op, "b", "%d rows; a is %d x %d", b.m, a.m, a.n)
	}
	if b.mb != a.nb {
		return layout.Errorf(layout.ErrShape, op, "b", "row blocks of %d; ScaLAPACK needs a's block size %d", b.mb, a.nb)
	}
	return nil
}

// Potrf computes the Cholesky factor of the symmetric (Hermitian)
// positive definite a in place (pdpotrf / pzpotrf; square blocks): only
// the triangle uplo of the global matrix is read and it is overwritten by
// the factor (Lower: L with a = L L^H; Upper: U with a = U^H U); the other
// triangle is left as it was. uplo is lapack.Lower or lapack.Upper, the
// values lapack.Potrf and lapack.Triangle take. An a that is not positive
// definite is an *Error
// matching lapack.ErrNotPositiveDefinite on every rank (Index: the order
// minus one of the failing minor); a NaN or an infinity in the triangle
// read one matching lapis.ErrNotFinite. Other errors (before anything
// runs, on every rank) match ErrState, layout.ErrShape or
// lapis.ErrInvalid.
func Potrf[T Scalar](uplo lapack.Uplo, a *Matrix[T]) error {
	const op = "dist.Potrf"
	u, err := triangleArgs(op, uplo, a, nil)
	if err := agree(op, err, append(keys(a), int(uplo))); err != nil {
		return err
	}
	if a.n == 0 {
		return nil
	}
	pa, da := ptr(a), a.desc
	routine := routineName[T]("pdpotrf", "pzpotrf")
	info, nan := callNaN(a.g, func() C.lapis_int {
		var info C.lapis_int
		n := ci(a.n)
		if isComplex[T]() {
			C.pzpotrf_(&u, &n, (*C.lapis_z)(pa), one(), one(), &da[0], &info, 1)
		} else {
			C.pdpotrf_(&u, &n, (*C.double)(pa), one(), one(), &da[0], &info, 1)
		}
		return info
	}, func() bool { return diagNaN(a) })
	// pdpotf2 stops at a diagonal element <= 0, not at a NaN: a NaN or an
	// infinity in the triangle read reaches a later diagonal element of
	// the factor as a NaN (or stops it there, info > 0), so the diagonal
	// (O(n / P) a rank) is what needs looking at on success.
	if err := nonFinite(op, routine, info, nan, operand[T]{"a", a, byte(u)}); err != nil {
		return err
	}
	return infoErr(op, routine, info, lapack.ErrNotPositiveDefinite)
}

// Potrs solves a x = b with a's Cholesky factor from Potrf (same uplo),
// overwriting b (pdpotrs / pzpotrs); a is not modified. A factor Potrf
// did not complete (a diagonal element that is not a positive real) is
// refused, as lapack.Potrs refuses it, with an *Error matching
// lapack.ErrNotPositiveDefinite whose Index is where it failed, on every
// rank, b unchanged (it cost one small collective); a NaN or an infinity
// in the factor's triangle or in b one matching lapis.ErrNotFinite.
// Other errors (before anything runs, on every rank) match ErrState,
// layout.ErrShape or lapis.ErrInvalid.
func Potrs[T Scalar](uplo lapack.Uplo, a, b *Matrix[T]) error {
	const op = "dist.Potrs"
	u, err := triangleArgs(op, uplo, a, map[string]*Matrix[T]{"b": b})
	if err == nil {
		err = squareSystem(op, a, b)
	}
	if err := agree(op, err, append(keys(a, b), int(uplo))); err != nil {
		return err
	}
	if a.n == 0 || b.n == 0 {
		return nil
	}
	pa, pb := ptr(a), ptr(b)
	da, db := a.desc, b.desc
	routine := routineName[T]("pdpotrs", "pzpotrs")
	info, nan := callNaN(a.g, func() C.lapis_int {
		// A factor Potrf did not complete is refused, as lapack.Potrs
		// refuses it: its diagonal holds a non-positive element there.
		// pdpotrs has no info > 0, so a positive info says this, and the
		// call's agreement on info tells every rank.
		if bad := badFactorDiagonal(a); bad > 0 {
			return ci(bad)
		}
		var info C.lapis_int
		n, nrhs := ci(a.n), ci(b.n)
		if isComplex[T]() {
			C.pzpotrs_(&u, &n, &nrhs, (*C.lapis_z)(pa), one(), one(), &da[0], (*C.lapis_z)(pb), one(), one(), &db[0], &info, 1)
		} else {
			C.pdpotrs_(&u, &n, &nrhs, (*C.double)(pa), one(), one(), &da[0], (*C.double)(pb), one(), one(), &db[0], &info, 1)
		}
		return info
	}, func() bool { return hasNaN(b) })
	if err := nonFinite(op, routine, info, nan, operand[T]{"a", a, byte(u)}, operand[T]{"b", b, 0}); err != nil {
		return err
	}
	if bad := int(info); bad > 0 {
		return &Error{Op: op, Routine: routine, Info: bad, Index: bad - 1, kind: lapack.ErrNotPositiveDefinite,
			detail: fmt.Sprintf("diagonal element (%d, %d) of the factor is not positive: its Cholesky factorisation failed at the leading minor of order %d; b is unchanged", bad-1, bad-1, bad)}
	}
	return infoErr(op, routine, info, nil)
}
