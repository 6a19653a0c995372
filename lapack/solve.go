package lapack

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Linear systems: LU (general), Cholesky (positive definite), symmetric
// indefinite and triangular. All work in place on the caller's views as
// LAPACK documents; pivots are LAPACK's, 1-based (see Perm).

// Getrf computes the LU factorisation with partial pivoting of the m x n
// view a, in place: a = P L U, L unit lower triangular (below the
// diagonal), U upper triangular (on and above it). ipiv (at least min(m,
// n) long) receives LAPACK's 1-based row interchanges: row i was swapped
// with row ipiv[i]-1, in order. A zero pivot gives an error matching
// ErrSingular with its index; the factorisation is complete even then.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Getrf[T Scalar](a views.View[T], ipiv []int32, opts ...lapis.Option) error {
	const op = "lapack.Getrf"
	oa, err := prepare(op, "a", a, read|write, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	k := min(oa.rows, oa.cols)
	if err := pivotLen(op, len(ipiv), k); err != nil {
		oa.release()
		return err
	}
	p := pivotsFor(ipiv, k, false)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(oa.rows, oa.cols, min(oa.rows, oa.cols)))
	info := clib.Getrf[T](oa.rows, oa.cols, oa.ptr, oa.ld, p.ptr())
	th.End()
	p.done(true)
	oa.finish()
	return infoErr[T](op, "xgetrf", info)
}

// Getrs solves op(A) x = b in place in b (n x nrhs), from Getrf's factors
// lu of the n x n matrix A and its pivots; trans is NoTrans, Trans or
// ConjTrans. It is LAPACK's own argument because the operator is not a view
// of lu's elements.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Getrs[T Scalar](trans Op, lu views.View[T], ipiv []int32, b views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Getrs"
	if err := checkOp(op, trans); err != nil {
		return err
	}
	cfg := lapis.Configure(opts...)
	oa, err := prepare(op, "lu", lu, read, cfg)
	if err != nil {
		return err
	}
	ob, err := prepare(op, "b", b, read|write|rhs, cfg)
	if err != nil {
		oa.release()
		return err
	}
	n, err := square(op, "lu", &oa)
	if err == nil {
		err = rowsMatch(op, "b", &ob, n, "lu's order")
	}
	if err == nil {
		err = pivotLen(op, len(ipiv), n)
	}
	if err == nil {
		err = checkPivots(op, ipiv[:n], n)
	}
	if err == nil {
		err = noOverlap(op, []string{"lu", "b"}, &oa, &ob)
	}
	if err != nil {
		releaseAll(&oa, &ob)
		return err
	}
	p := pivotsFor(ipiv, n, true)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, ob.cols))
	info := clib.Getrs[T](byte(trans), n, ob.cols, oa.ptr, oa.ld, p.ptr(), ob.ptr, ob.ld)
	th.End()
	p.done(false)
	finishAll(&oa, &ob)
	return infoErr[T](op, "xgetrs", info)
}

// Gesv solves a x = b for the n x n view a and the n x nrhs view b, in
// place: b receives x, a its LU factors and ipiv (at least n long) the
// pivots, as Getrf. A singular a gives an error matching ErrSingular; b
// is then unchanged.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Gesv[T Scalar](a, b views.View[T], ipiv []int32, opts ...lapis.Option) error {
	const op = "lapack.Gesv"
	cfg := lapis.Configure(opts...)
	oa, ob, n, err := systemOperands(op, "a", a, b, read|write, cfg)
	if err != nil {
		return err
	}
	if err := pivotLen(op, len(ipiv), n); err != nil {
		releaseAll(&oa, &ob)
		return err
	}
	p := pivotsFor(ipiv, n, false)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n+ob.cols))
	info := clib.Gesv[T](n, ob.cols, oa.ptr, oa.ld, p.ptr(), ob.ptr, ob.ld)
	th.End()
	p.done(true)
	finishAll(&oa, &ob)
	return infoErr[T](op, "xgesv", info)
}

// Getri replaces Getrf's factors of the n x n matrix A in lu by A^-1.
// A zero pivot gives an error matching ErrSingular and leaves lu as
// LAPACK documents (unchanged).
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Getri[T Scalar](lu views.View[T], ipiv []int32, opts ...lapis.Option) error {
	const op = "lapack.Getri"
	oa, err := prepare(op, "lu", lu, read|write, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	n, err := square(op, "lu", &oa)
	if err == nil {
		err = pivotLen(op, len(ipiv), n)
	}
	if err == nil {
		err = checkPivots(op, ipiv[:n], n)
	}
	if err != nil {
		oa.release()
		return err
	}
	p := pivotsFor(ipiv, n, true)
	ws := wspace.Remember(wspace.Key{Fam: "xgetri", Type: scalar.Index[T](), Dims: [4]int{n}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, _, _ unsafe.Pointer) { clib.Getri[T](n, oa.ptr, oa.ld, p.ptr(), work, -1) })
	})
	ws.Work = max(1, n, ws.Work)
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n))
	info := clib.Getri[T](n, oa.ptr, oa.ld, p.ptr(), w.workPtr(), ws.Work)
	th.End()
	w.put()
	p.done(false)
	oa.finish()
	return infoErr[T](op, "xgetri", info)
}

// systemOperands reads the n x n matrix a (argument name an) and the
// n x nrhs right-hand side b of a linear system (b is read and written; a
// with mode).
func systemOperands[T Scalar](op, an string, a, b views.View[T], mode int, cfg lapis.Config) (oa, ob arg[T], n int, err error) {
	if oa, err = prepare(op, an, a, mode, cfg); err != nil {
		return oa, ob, 0, err
	}
	if ob, err = prepare(op, "b", b, read|write|rhs, cfg); err != nil {
		oa.release()
		return oa, ob, 0, err
	}
	n, err = square(op, an, &oa)
	if err == nil {
		err = rowsMatch(op, "b", &ob, n, an+"'s order")
	}
	if err == nil {
		err = noOverlap(op, []string{an, "b"}, &oa, &ob)
	}
	if err != nil {
		releaseAll(&oa, &ob)
	}
	return oa, ob, n, err
}

// pivotLen checks the pivot slice: at least n long, and n must fit int32
// (pivots are []int32 whatever the LAPACK integer).
func pivotLen(op string, have, n int) error {
	if n > 1<<31-1 {
		return layout.Errorf(layout.ErrOverflow, op, "ipiv", "order %d does not fit an int32 pivot", n)
	}
	return sliceLen(op, "ipiv", have, n)
}

// Potrf computes the Cholesky factorisation of the n x n positive definite
// (Hermitian) view a in place, reading and writing only its uplo triangle:
// a = L L^H with L in the lower triangle (cblas.Lower), or a = U^H U with
// U in the upper one. An error matching ErrNotPositiveDefinite gives the
// failing leading minor; a is then partly overwritten, as LAPACK documents.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Potrf[T Scalar](uplo Uplo, a views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Potrf"
	oa, n, err := squareOperand(op, "a", uplo, a, read|write|hermitian, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n))
	info := clib.Potrf[T](uploChar(uplo, &oa), n, oa.ptr, oa.ld)
	th.End()
	oa.finish()
	return infoErr[T](op, "xpotrf", info)
}

// Potrs solves a x = b in place in b (n x nrhs) from Potrf's factor of a,
// held in the uplo triangle of the n x n view f. A factor whose diagonal
// is not real, positive and finite is not one Potrf completed (a failed
// Potrf leaves its non-positive pivot there): Potrs then returns an error
// matching ErrNotPositiveDefinite, as Potrf did, and leaves b alone, so a
// failure travels with the data to every later solve.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Potrs[T Scalar](uplo Uplo, f, b views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Potrs"
	if err := checkUplo(op, uplo); err != nil {
		return err
	}
	of, ob, n, err := systemOperands(op, "f", f, b, read|hermitianSolve, lapis.Configure(opts...))
	if err == nil {
		if err = checkFactor[T](op, "xpotrs", f, n); err != nil {
			of.release()
			ob.release()
		}
	}
	if err != nil {
		return err
	}
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, ob.cols))
	info := clib.Potrs[T](uploChar(uplo, &of), n, ob.cols, of.ptr, of.ld, ob.ptr, ob.ld)
	th.End()
	finishAll(&of, &ob)
	return infoErr[T](op, "xpotrs", info)
}

// Posv solves a x = b for the n x n positive definite (Hermitian) view a,
// of which only the uplo triangle is read, in place: b receives x and a's
// triangle the Cholesky factor, as Potrf.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Posv[T Scalar](uplo Uplo, a, b views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Posv"
	if err := checkUplo(op, uplo); err != nil {
		return err
	}
	oa, ob, n, err := systemOperands(op, "a", a, b, read|write|hermitianSolve, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n+ob.cols))
	info := clib.Posv[T](uploChar(uplo, &oa), n, ob.cols, oa.ptr, oa.ld, ob.ptr, ob.ld)
	th.End()
	finishAll(&oa, &ob)
	return infoErr[T](op, "xposv", info)
}

// Potri replaces Potrf's factor in the uplo triangle of the n x n view f
// by that triangle of a^-1. A factor Potrf did not complete is refused as
// Potrs refuses it.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Potri[T Scalar](uplo Uplo, f views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Potri"
	of, n, err := squareOperand(op, "f", uplo, f, read|write|hermitian|overRead, lapis.Configure(opts...))
	if err == nil {
		if err = checkFactor[T](op, "xpotri", f, n); err != nil {
			of.release()
		}
	}
	if err != nil {
		return err
	}
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n))
	info := clib.Potri[T](uploChar(uplo, &of), n, of.ptr, of.ld)
	th.End()
	of.finish()
	return infoErr[T](op, "xpotri", info)
}

// Sysv solves a x = b for the n x n symmetric view a (its uplo triangle
// is read) by Bunch-Kaufman's diagonal pivoting, in place: b receives x,
// a the block factorisation and ipiv LAPACK's pivots. For complex types a
// is complex symmetric (a = a^T); Hesv takes Hermitian matrices.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Sysv[T Scalar](uplo Uplo, a, b views.View[T], ipiv []int32, opts ...lapis.Option) error {
	return sysv("lapack.Sysv", "xsysv", clib.Sysv[T], uplo, a, b, ipiv, opts)
}

// Hesv is Sysv for a Hermitian a (a = a^H); for real types it is Sysv.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Hesv[T Scalar](uplo Uplo, a, b views.View[T], ipiv []int32, opts ...lapis.Option) error {
	return sysv("lapack.Hesv", "xhesv", clib.Hesv[T], uplo, a, b, ipiv, opts)
}

type sysvFunc func(uplo byte, n, nrhs int, a unsafe.Pointer, lda int, ipiv, b unsafe.Pointer, ldb int, work unsafe.Pointer, lwork int) int

func sysv[T Scalar](op, fam string, f sysvFunc, uplo Uplo, a, b views.View[T], ipiv []int32, opts []lapis.Option) error {
	if err := checkUplo(op, uplo); err != nil {
		return err
	}
	oa, ob, n, err := systemOperands(op, "a", a, b, read|write, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	if err := pivotLen(op, len(ipiv), n); err != nil {
		releaseAll(&oa, &ob)
		return err
	}
	ul := uploChar(uplo, &oa)
	p := pivotsFor(ipiv, n, false)
	ws := wspace.Remember(wspace.Key{Fam: fam, Type: scalar.Index[T](), Dims: [4]int{n, ob.cols}, Opts: [3]byte{ul}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, _, _ unsafe.Pointer) { f(ul, n, ob.cols, oa.ptr, oa.ld, p.ptr(), ob.ptr, ob.ld, work, -1) })
	})
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n+ob.cols))
	info := f(ul, n, ob.cols, oa.ptr, oa.ld, p.ptr(), ob.ptr, ob.ld, w.workPtr(), max(1, ws.Work))
	th.End()
	w.put()
	p.done(true)
	finishAll(&oa, &ob)
	return infoErr[T](op, fam, info)
}

// Trtrs solves op(a) x = b in place in b (n x nrhs) for the n x n
// triangular view a, of which the uplo triangle is read (with an implicit
// unit diagonal for cblas.Unit). Transposes are the view's: a.T() or a.H()
// go to LAPACK in place as "T" or "C" with the triangle swapped, whatever
// the storage. A zero on the diagonal gives an error matching ErrSingular;
// b is then unchanged.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Trtrs[T Scalar](uplo Uplo, diag Diag, a, b views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Trtrs"
	if err := checkUplo(op, uplo); err != nil {
		return err
	}
	if diag != cblas.NonUnit && diag != cblas.Unit {
		return layout.Errorf(lapis.ErrInvalid, op, "diag", "value %d is neither cblas.NonUnit nor cblas.Unit", diag)
	}
	oa, ob, n, err := systemOperands(op, "a", a, b, read|transposable, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, ob.cols))
	info := clib.Trtrs[T](uploChar(uplo, &oa), oa.trans, diagChar(diag), n, ob.cols, oa.ptr, oa.ld, ob.ptr, ob.ld)
	th.End()
	finishAll(&oa, &ob)
	return infoErr[T](op, "xtrtrs", info)
}

// squareOperand reads the n x n view a (argument name an) for a routine on
// its uplo triangle.
func squareOperand[T Scalar](op, an string, uplo Uplo, a views.View[T], mode int, cfg lapis.Config) (oa arg[T], n int, err error) {
	if err := checkUplo(op, uplo); err != nil {
		return oa, 0, err
	}
	if oa, err = prepare(op, an, a, mode, cfg); err != nil {
		return oa, 0, err
	}
	if n, err = square(op, an, &oa); err != nil {
		oa.release()
	}
	return oa, n, err
}

// checkPivots checks that every pivot names a row of an n x n matrix
// (LAPACK trusts them: a stray one would make it write out of bounds).
func checkPivots(op string, ipiv []int32, n int) error {
	for i, p := range ipiv {
		if p < 1 || int(p) > n {
			return layout.Errorf(layout.ErrBounds, op, "ipiv", "ipiv[%d] = %d is not a 1-based row of %d (pass Getrf's pivots)", i, p, n)
		}
	}
	return nil
}

// checkFactor refuses a Cholesky factor f (n x n) that Potrf did not
// complete: every factor it completes has a real, positive, finite
// diagonal, and when it fails at minor j it leaves the non-positive (or
// NaN) pivot in diagonal element j-1 (reference LAPACK's xpotf2/xpotrf2
// and OpenBLAS's potf2 alike). O(n), against the O(n^2) of the solve.
// The error names op and family fam's routine.
func checkFactor[T Scalar](op, fam string, f views.View[T], n int) error {
	for i := 0; i < n; i++ {
		d := scalar.Complex128(f.At(i, i))
		if !(real(d) > 0) || math.IsInf(real(d), 0) || imag(d) != 0 {
			fm := families[fam]
			return &Error{Op: op, Routine: fm.routines[scalar.Index[T]()], Info: i + 1, Index: i, Rank: -1, Err: ErrNotPositiveDefinite,
				Detail: fmt.Sprintf("diagonal element %d of the factor is %v, not positive: its Cholesky factorisation failed at the leading minor of order %d", i, f.At(i, i), i+1)}
		}
	}
	return nil
}

// Solve returns x with a x = b for the n x n view a and the n-vector or
// n x nrhs view b (x has b's shape), by LU with partial pivoting. A
// singular a gives an error matching ErrSingular whose Index is the first
// zero pivot of a's own factorisation P a = L U, whatever a's layout (a
// row-major a is solved through its storage, and refactored as a when
// that fails). An ill-conditioned a (estimated reciprocal condition number
// below machine epsilon, checked after the factorisation) returns x
// together with an error matching ErrIllConditioned (and ErrSingular)
// that carries Rcond, unless lapis.NoConditionCheck() is passed.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func Solve[T Scalar](a, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "lapack.Solve"
	bm, err := asMatrix(op, b)
	if err != nil {
		return nil, err
	}
	lu, trans, n, err := storageCopy(op, a)
	if err != nil {
		return nil, err
	}
	defer lu.Release()
	if bm.Layout().Dim(0) != n {
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's order %d", bm.Layout().Dim(0), n)
	}
	if err := copyFits[T](op, "b", n, bm.Layout().Dim(1)); err != nil {
		return nil, err
	}
	if err := checkFinite(op, finite.All("a", a), finite.All("b", b)); err != nil {
		return nil, err
	}
	ipiv := pool.Get[int32](n)
	defer pool.Put(ipiv)
	cond := newCondCheck(op, lu.View(), trans, opts)
	if err := Getrf(lu.View(), ipiv.Data, opts...); err != nil {
		if trans != NoTrans {
			err = ownPivot(err, a, ipiv.Data, opts)
		}
		return nil, errop.Rename(err, op)
	}
	condErr := cond.check(lu.View())
	x := b.ToColMajor()
	xm, _ := asMatrix(op, x.View())
	if err := Getrs(trans, lu.View(), ipiv.Data, xm, opts...); err != nil {
		x.Release()
		return nil, errop.Rename(err, op)
	}
	if condErr == nil && scalar.HasNaN(x.Data()) {
		x.Release()
		return nil, resultNotFinite(op)
	}
	return x, condErr
}

// ownPivot returns the error Getrf gives for a itself when err is the
// singular error of its transpose's factorisation (Solve factors a
// row-major a's storage): the zero pivots of a and a^T lie in different
// places, and Error.Index must not depend on a's layout. It runs only on
// that failure.
func ownPivot[T Scalar](err error, a views.View[T], ipiv []int32, opts []lapis.Option) error {
	var le *Error
	if !errors.As(err, &le) || le.Err != ErrSingular {
		return err
	}
	c := a.ToColMajor()
	defer c.Release()
	if own := Getrf(c.View(), ipiv, opts...); own != nil {
		return own
	}
	return err // not singular in working precision after all: keep what LAPACK said
}

// Inv returns a^-1 for the n x n view a. A singular a gives an error
// matching ErrSingular; an ill-conditioned one (reciprocal condition
// number 1 / (||a||_1 ||a^-1||_1), from the computed inverse, below
// machine epsilon) returns the computed inverse
// together with an error matching ErrIllConditioned (and ErrSingular)
// that carries Rcond, unless lapis.NoConditionCheck() is passed.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func Inv[T Scalar](a views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "lapack.Inv"
	inv, n, err := squareCopy(op, a)
	if err != nil {
		return nil, err
	}
	if err := checkFinite(op, finite.All("a", a)); err != nil {
		inv.Release()
		return nil, err
	}
	ipiv := pool.Get[int32](n)
	defer pool.Put(ipiv)
	cond := newCondCheck(op, inv.View(), NoTrans, opts)
	err = Getrf(inv.View(), ipiv.Data, opts...)
	if err == nil {
		err = Getri(inv.View(), ipiv.Data, opts...)
	}
	if err != nil {
		inv.Release()
		return nil, errop.Rename(err, op)
	}
	condErr := cond.checkInverse(inv.View())
	if condErr == nil && scalar.HasNaN(inv.Data()) {
		inv.Release()
		return nil, resultNotFinite(op)
	}
	return inv, condErr
}

// Det returns the determinant of the n x n view a (1 for n = 0). It is
// computed from the LU factorisation; see LogDet for large matrices, whose
// determinant over- or underflows.
func Det[T Scalar](a views.View[T], opts ...lapis.Option) (T, error) {
	logAbs, sign, err := LogDet(a, opts...)
	if err != nil {
		return 0, errop.Rename(err, "lapack.Det")
	}
	return sign * scalar.FromFloat[T](math.Exp(logAbs)), nil
}

// LogDet returns the determinant of the n x n view a as sign *
// exp(logAbs): sign is +1 or -1 for real types and has modulus 1 for
// complex ones. A singular a gives sign 0 and logAbs -Inf (no error).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func LogDet[T Scalar](a views.View[T], opts ...lapis.Option) (logAbs float64, sign T, err error) {
	const op = "lapack.LogDet"
	lu, trans, n, err := storageCopy(op, a)
	if err != nil {
		return 0, 0, err
	}
	defer lu.Release()
	if err := checkFinite(op, finite.All("a", a)); err != nil {
		return 0, 0, err
	}
	ipiv := pool.Get[int32](n)
	defer pool.Put(ipiv)
	err = Getrf(lu.View(), ipiv.Data, opts...)
	if errorsIsSingular(err) {
		return math.Inf(-1), 0, nil
	}
	if err != nil {
		return 0, 0, errop.Rename(err, op)
	}
	sign = 1
	d := lu.Data()
	for i := range n {
		v := d[i*n+i]
		if int(ipiv.Data[i]) != i+1 {
			sign = -sign
		}
		av := scalar.Abs(v)
		logAbs += math.Log(av)
		sign *= v / scalar.FromFloat[T](av)
	}
	if trans == ConjTrans { // det(a) = det(s^H) = conj(det(s))
		sign = scalar.Conj(sign)
	}
	if logAbs != logAbs || sign != sign {
		return 0, 0, resultNotFinite(op)
	}
	return logAbs, sign, nil
}

// Cholesky returns the lower triangular L with L L^H = a for the n x n
// positive definite (Hermitian) view a, of which only the lower triangle
// is read (lapis.UpperTriangle(): only the upper one; FromSymDense's views hold
// gonum's stored triangle in their lower one). An error matching
// ErrNotPositiveDefinite names the failing minor.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func Cholesky[T Scalar](a views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "lapack.Cholesky"
	l, err := workCopy(op, a)
	if err != nil {
		return nil, err
	}
	uplo := triangleOf(opts)
	if err := checkFinite(op, readTriangle("a", a, uplo)); err != nil {
		l.Release()
		return nil, err
	}
	if err := Potrf(uplo, l.View(), opts...); err != nil {
		l.Release()
		return nil, errop.Rename(err, op)
	}
	n := a.Layout().Dim(0)
	d := l.Data()
	if uplo == Upper { // U^H U = a: L = U^H, into the lower triangle
		for j := 0; j < n; j++ {
			for i := j + 1; i < n; i++ {
				d[i+j*n] = scalar.Conj(d[j+i*n])
			}
		}
	}
	for j := 1; j < n; j++ {
		clear(d[j*n : j*n+j]) // above the diagonal
	}
	for j := range n { // a NaN anywhere in row i of L reaches l_ii
		if x := d[j*n+j]; x != x {
			l.Release()
			return nil, resultNotFinite(op)
		}
	}
	return l, nil
}

// CholeskySolve returns x with l l^H x = b for the lower triangular l that
// Cholesky returns (only its lower triangle is read) and the n-vector or
// n x nrhs view b (x has b's shape): the two triangular solves of Potrs on
// a copy of b. l and b are not modified. A zero on l's diagonal (not a
// factor Cholesky returns) is an error matching ErrNotPositiveDefinite, as
// Potrs reports it.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func CholeskySolve[T Scalar](l, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "lapack.CholeskySolve"
	bm, err := asMatrix(op, b)
	if err != nil {
		return nil, err
	}
	if err := l.CheckLive(op, "l"); err != nil {
		return nil, err
	}
	if l.Rank() != 2 {
		return nil, rankErr(op, "l", l, "2")
	}
	n, cols := l.Layout().Dim(0), l.Layout().Dim(1)
	if n != cols {
		return nil, layout.Errorf(layout.ErrShape, op, "l", "shape %v, want a square matrix", l.Shape())
	}
	if bm.Layout().Dim(0) != n {
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d rows, want l's order %d", bm.Layout().Dim(0), n)
	}
	if err := copyFits[T](op, "b", n, bm.Layout().Dim(1)); err != nil {
		return nil, err
	}
	if err := checkFinite(op, readTriangle("l", l, Lower), finite.All("b", b)); err != nil {
		return nil, err
	}
	x := b.ToColMajor()
	xm, _ := asMatrix(op, x.View())
	if err := Potrs(Lower, l, xm, opts...); err != nil {
		x.Release()
		return nil, errop.Rename(err, op)
	}
	if scalar.HasNaN(x.Data()) {
		x.Release()
		return nil, resultNotFinite(op)
	}
	return x, nil
}

// LU returns the LU factorisation with partial pivoting of the m x n view
// a: a[perm[i], :] = (l u)[i, :], l m x k unit lower triangular, u k x n
// upper triangular (k = min(m, n)). A singular a is not an error here
// (u has a zero on its diagonal; Solve and Inv report it).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func LU[T Scalar](a views.View[T], opts ...lapis.Option) (perm []int, l, u *views.Tensor[T], err error) {
	const op = "lapack.LU"
	f, err := workCopy(op, a)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Release()
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	k := min(m, n)
	if err := checkFinite(op, finite.All("a", a)); err != nil {
		return nil, nil, nil, err
	}
	ipiv := make([]int32, k)
	if err := Getrf(f.View(), ipiv, opts...); err != nil && !errorsIsSingular(err) {
		return nil, nil, nil, errop.Rename(err, op)
	}
	perm, _ = Perm(ipiv, m) // Getrf's pivots are rows of a
	l = spareZeros[T](m, k)
	u = spareZeros[T](k, n)
	ld, ud, fd := l.Data(), u.Data(), f.Data()
	for j := range k {
		ld[j*m+j] = 1
		copy(ld[j*m+j+1:(j+1)*m], fd[j*m+j+1:(j+1)*m])
	}
	for j := range n {
		copy(ud[j*k:j*k+min(j+1, k)], fd[j*m:j*m+min(j+1, k)])
	}
	if scalar.HasNaN(ld) || scalar.HasNaN(ud) {
		l.Release()
		u.Release()
		return nil, nil, nil, resultNotFinite(op)
	}
	return perm, l, u, nil
}

// Perm turns LAPACK's 1-based row interchanges ipiv (row i was swapped
// with row ipiv[i]-1, for i = 0, 1, ... in order) on m rows into the
// permutation they make: the factored matrix's row i is the original's
// row perm[i], i.e. a[perm[i], :] = (l u)[i, :]. Pivots that are not rows
// (or more of them than rows) are an error matching layout.ErrBounds.
func Perm(ipiv []int32, m int) ([]int, error) {
	const op = "lapack.Perm"
	if m < 0 || len(ipiv) > m {
		return nil, layout.Errorf(layout.ErrBounds, op, "ipiv", "%d pivots for %d rows", len(ipiv), m)
	}
	if err := checkPivots(op, ipiv, m); err != nil {
		return nil, err
	}
	perm := make([]int, m)
	for i := range perm {
		perm[i] = i
	}
	for i, p := range ipiv {
		j := int(p) - 1
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm, nil
}
