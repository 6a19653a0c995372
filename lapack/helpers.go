package lapack

import (
	"errors"
	"fmt"
	"math"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/cint"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The helpers users reach for first. They never modify their arguments:
// each works on one compact copy of its input (its working copy, not
// counted in lapis.Stats.Copies: the call would need it whatever the
// layout) and returns new tensors, compact column-major, whose buffers
// come from the pool (Release them to reuse). Where a LAPACK routine takes
// a transpose argument (Solve, Det), the working copy of a row-major input
// is a plain copy of its storage, solved with "T": no transposing copy.

// storageCopy returns a compact copy of the square matrix a's storage and
// how LAPACK must read it to mean a: "N" for a column-major view (or any
// view that is not row-major), "T" for a row-major one (the copy is a^T),
// "C" for a conjugated row-major one (the copy is a^H).
func storageCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], Op, int, error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, NoTrans, 0, err
	}
	if a.Rank() != 2 {
		return nil, NoTrans, 0, rankErr(op, "a", a, "2")
	}
	n := a.Layout().Dim(0)
	if a.Layout().Dim(1) != n {
		return nil, NoTrans, 0, layout.Errorf(layout.ErrShape, op, "a", "shape %v, want a square matrix", a.Shape())
	}
	if err := copyFits[T](op, "a", n, n); err != nil {
		return nil, NoTrans, 0, err
	}
	if m, ok := a.Layout().Matrix(); ok && m.Trans {
		s := a.T()
		trans := Trans
		if a.IsConj() {
			s, trans = s.Conj(), ConjTrans
		}
		return s.ToColMajor(), trans, n, nil
	}
	return a.ToColMajor(), NoTrans, n, nil
}

// squareCopy is workCopy for a square a: it checks the shape first and
// returns the copy and the order.
func squareCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], int, error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, 0, err
	}
	if a.Rank() == 2 && a.Layout().Dim(0) != a.Layout().Dim(1) {
		return nil, 0, layout.Errorf(layout.ErrShape, op, "a", "shape %v, want a square matrix", a.Shape())
	}
	t, err := workCopy(op, a)
	if err != nil {
		return nil, 0, err
	}
	return t, a.Layout().Dim(0), nil
}

// workCopy returns a compact column-major copy of the rank-2 view a.
func workCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, err
	}
	if a.Rank() != 2 {
		return nil, rankErr(op, "a", a, "2")
	}
	rows, cols := a.Layout().Dim(0), a.Layout().Dim(1)
	if err := copyFits[T](op, "a", rows, cols+1); err != nil {
		return nil, err
	}
	t := spareZeros[T](rows, cols)
	_ = views.Copy(t.View(), a) // same shape, fresh memory
	return t, nil
}

// spareZeros returns a zero rows x cols column-major tensor whose slice
// has one column of capacity after it: room for the over-read of
// OpenBLAS's complex LAPACK (hasSpare), so that the helpers' own buffers
// go to LAPACK in place, with no copy their design does not need.
func spareZeros[T Scalar](rows, cols int) *views.Tensor[T] {
	buf := pool.Make[T](rows*cols, rows*(cols+1))
	t, _ := views.FromColMajor(buf, rows, cols) // the length is the product
	return t
}

// copyFits checks, before a working copy of a rows x cols matrix is made,
// that its extents fit the LAPACK integer and its buffer can be allocated.
func copyFits[T Scalar](op, name string, rows, cols int) error {
	if err := cint.LAPACK(op, name, rows, cols); err != nil {
		return err
	}
	return pool.Check[T](op, name, rows, cols)
}

// asMatrix returns b as a matrix: a rank-1 view is one column.
func asMatrix[T Scalar](op string, b views.View[T]) (views.View[T], error) {
	if err := b.CheckLive(op, "b"); err != nil {
		return b, err
	}
	switch b.Rank() {
	case 1:
		return b.Reshape(b.Layout().Dim(0), 1) // a rank-1 view always reshapes
	case 2:
		return b, nil
	}
	return b, rankErr(op, "b", b, "1 or 2")
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
	if err := checkFinite(op, input[T]{"a", a, 0}, input[T]{"b", b, 0}); err != nil {
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

// condCheck is the conditioning check of Solve and Inv: the matrix's norm
// taken before the factorisation (O(n^2)), then, for Solve, an estimate of
// ||A^-1|| from the LU factors (checkCondition: O(n^2), against the
// factorisation's O(n^3)) and, for Inv, the norm of the computed inverse
// (checkInverse). Off with NoConditionCheck.
type condCheck[T Scalar] struct {
	op    string
	norm  Norm // of the factored matrix: one norm of a, as stored
	anorm float64
	off   bool
	opts  []lapis.Option
}

// newCondCheck prepares the check for m, the matrix about to be factored,
// which is a (trans NoTrans) or its storage a^T or a^H: the one norm of a
// is the infinity norm of its transpose, so rcond is a's one-norm figure
// either way.
func newCondCheck[T Scalar](op string, m views.View[T], trans Op, opts []lapis.Option) condCheck[T] {
	c := condCheck[T]{op: op, norm: OneNorm, off: !lapis.Configure(opts...).ConditionCheck, opts: opts}
	if trans != NoTrans {
		c.norm = InfNorm
	}
	if c.off {
		return c
	}
	c.anorm = workNorm(c.norm, m, opts)
	return c
}

// workNorm is the norm of m, square and compact column-major (the
// working copy of Solve or Inv, or Inv's result). It is taken in Go
// (matrixNorm) up to order 64, where a cgo call costs more, and for the
// complex types at every order (zlange's scaled moduli cost 8x as much);
// real matrices above 64 go to ?lange, as fast as Go there
// (BenchmarkCondEstimate).
func workNorm[T Scalar](norm Norm, m views.View[T], opts []lapis.Option) float64 {
	if l, n := m.Layout(), m.Layout().Dim(0); (scalar.Index[T]() >= 2 || n <= 64) && l.Offset() == 0 && (n <= 1 || l.Stride(0) == 1 && l.Stride(1) == n) {
		return matrixNorm(m.Data(), n, norm == InfNorm)
	}
	r, _ := Lange(norm, m, opts...)
	return r
}

// check runs checkCondition on the LU factors lu (nil when the check is
// off).
func (c condCheck[T]) check(lu views.View[T]) error {
	if c.off {
		return nil
	}
	return checkCondition(c.op, c.norm, lu, c.anorm, c.opts...)
}

// checkInverse is checkInverse on the computed inverse inv: ||inv|| is
// exact and costs one pass over it, where an estimate from the factors
// would cost several triangular solves.
func (c condCheck[T]) checkInverse(inv views.View[T]) error {
	if c.off || c.anorm == 0 || inv.Layout().Dim(0) == 0 {
		return nil // a zero or empty matrix: the factorisation reported it
	}
	return illConditioned[T](c.op, 1/(c.anorm*workNorm(c.norm, inv, c.opts)))
}

// ownPivot returns the error Getrf gives for a itself when err is the
// singular error of its transpose's factorisation (Solve factors a
// row-major a's storage): the zero pivots of a and a^T lie in different
// places, and Error.Index must not depend on a's layout. It runs only on
// that failure.
func ownPivot[T Scalar](err error, a views.View[T], ipiv []int32, opts []lapis.Option) error {
	var le *Error
	if !errors.As(err, &le) || le.kind != ErrSingular {
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
	if err := checkFinite(op, input[T]{"a", a, 0}); err != nil {
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
	return sign * fromFloat[T](math.Exp(logAbs)), nil
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
	if err := checkFinite(op, input[T]{"a", a, 0}); err != nil {
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
		sign *= v / fromFloat[T](av)
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
	if err := checkFinite(op, readTriangle("l", l, Lower), input[T]{"b", b, 0}); err != nil {
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
	if err := checkFinite(op, input[T]{"a", a, 0}); err != nil {
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

// QR returns the reduced QR factorisation a = q r of the m x n view a:
// q m x k with orthonormal columns, r k x n upper triangular, k = min(m, n).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func QR[T Scalar](a views.View[T], opts ...lapis.Option) (q, r *views.Tensor[T], err error) {
	const op = "lapack.QR"
	f, err := workCopy(op, a)
	if err != nil {
		return nil, nil, err
	}
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	k := min(m, n)
	if err := checkFinite(op, input[T]{"a", a, 0}); err != nil {
		f.Release()
		return nil, nil, err
	}
	tau := pool.Get[T](k)
	defer pool.Put(tau)
	if err := Geqrf(f.View(), tau.Data, opts...); err != nil {
		f.Release()
		return nil, nil, errop.Rename(err, op)
	}
	r = spareZeros[T](k, n)
	rd, fd := r.Data(), f.Data()
	for j := range n {
		copy(rd[j*k:j*k+min(j+1, k)], fd[j*m:j*m+min(j+1, k)])
	}
	q = f
	if k < n { // q is the first k columns: a prefix of the compact copy
		q = spareZeros[T](m, k)
		copy(q.Data(), fd[:m*k])
		f.Release()
	}
	if err := Orgqr(q.View(), tau.Data, opts...); err != nil {
		q.Release()
		r.Release()
		return nil, nil, errop.Rename(err, op)
	}
	if scalar.HasNaN(q.Data()) || scalar.HasNaN(r.Data()) {
		q.Release()
		r.Release()
		return nil, nil, resultNotFinite(op)
	}
	return q, r, nil
}

// LeastSquares returns the minimum-norm x minimising |a x - b| for the
// m x n view a and the m-vector or m x nrhs view b (x is n or n x nrhs),
// by the SVD (Gelsd): singular values at most max(m, n) eps times the
// largest count as zero. It asks for full rank: when a's numerical rank
// is below min(m, n) it returns the minimum-norm x together with an error
// matching ErrRankDeficient whose Rank and Rcond (smallest over largest
// singular value) say what it found. With NoConditionCheck that is not
// an error (x alone is returned). a and b are not modified.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func LeastSquares[T Scalar](a, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "lapack.LeastSquares"
	bm, err := asMatrix(op, b)
	if err != nil {
		return nil, err
	}
	f, err := workCopy(op, a)
	if err != nil {
		return nil, err
	}
	defer f.Release()
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	if bm.Layout().Dim(0) != m {
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d", bm.Layout().Dim(0), m)
	}
	nrhs := bm.Layout().Dim(1)
	if err := copyFits[T](op, "b", max(m, n), nrhs+1); err != nil { // with spareZeros's spare column
		return nil, err
	}
	xb := spareZeros[T](max(m, n), nrhs)
	defer xb.Release()
	top, _ := xb.View().Slice(0, 0, m, 1) // cannot fail: m <= max(m, n)
	_ = views.Copy(top, bm)               // same shape, fresh memory
	limit := float64(max(m, n)) * scalar.Eps[T]()
	k := min(m, n)
	rank, rcond, err := gelsdAny(f.View(), xb.View(), k, limit, opts) // Gelsd scans a and b
	if err != nil {
		return nil, helperErr(op, err, input[T]{"a", a, 0}, input[T]{"b", b, 0})
	}
	shape := []int{n}
	if b.Rank() == 2 {
		shape = append(shape, nrhs)
	}
	x, _ := views.Zeros[T](shape...)
	xv, _ := xb.View().Slice(0, 0, n, 1)
	xm, _ := asMatrix(op, x.View())
	_ = views.Copy(xm, xv)
	if rank < k && lapis.Configure(opts...).ConditionCheck {
		return x, &Error{Op: op, Routine: families["xgelsd"].routines[scalar.Index[T]()], Index: -1, Rank: rank, Rcond: rcond, kind: ErrRankDeficient,
			detail: fmt.Sprintf("rank %d of %d (smallest over largest singular value %.3g, at most max(m, n) eps = %.3g); x is the minimum-norm solution (the option lapis.NoConditionCheck() accepts it)", rank, k, rcond, limit)}
	}
	if scalar.HasNaN(x.Data()) {
		x.Release()
		return nil, resultNotFinite(op)
	}
	return x, nil
}

// gelsdAny calls Gelsd with singular values of T's real type and returns
// the rank and the ratio of the smallest to the largest singular value.
func gelsdAny[T Scalar](a, b views.View[T], k int, rcond float64, opts []lapis.Option) (rank int, ratio float64, err error) {
	ratioOf := func(s0, sk float64) float64 {
		if k == 0 || s0 == 0 {
			return 0
		}
		return sk / s0
	}
	if scalar.Index[T]()%2 == 0 {
		s := pool.Get[float32](k)
		rank, err = Gelsd(a, b, s.Data, rcond, opts...)
		if k > 0 {
			ratio = ratioOf(float64(s.Data[0]), float64(s.Data[k-1]))
		}
		pool.Put(s)
	} else {
		s := pool.Get[float64](k)
		rank, err = Gelsd(a, b, s.Data, rcond, opts...)
		if k > 0 {
			ratio = ratioOf(s.Data[0], s.Data[k-1])
		}
		pool.Put(s)
	}
	return rank, ratio, err
}

// SVD returns the reduced singular value decomposition a = u diag(s) vt of
// the m x n view a: s the k = min(m, n) singular values, largest first
// (as float64 whatever T), u m x k and vt k x n with orthonormal columns
// and rows. It uses gesdd, or gesvd with the QRIteration option.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func SVD[T Scalar](a views.View[T], opts ...lapis.Option) (s []float64, u, vt *views.Tensor[T], err error) {
	const op = "lapack.SVD"
	f, err := workCopy(op, a)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Release()
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	k := min(m, n)
	u = spareZeros[T](m, k)
	vt = spareZeros[T](k, n)
	qr := lapis.Configure(opts...).QRIteration
	s, err = withReals[T](k, func(s32 []float32, s64 []float64) error {
		if qr {
			if s32 != nil {
				return Gesvd(JobSome, JobSome, f.View(), s32, u.View(), vt.View(), opts...)
			}
			return Gesvd(JobSome, JobSome, f.View(), s64, u.View(), vt.View(), opts...)
		}
		if s32 != nil {
			return Gesdd(JobSome, f.View(), s32, u.View(), vt.View(), opts...)
		}
		return Gesdd(JobSome, f.View(), s64, u.View(), vt.View(), opts...)
	}) // Gesdd and Gesvd scan a
	if err != nil {
		u.Release()
		vt.Release()
		return nil, nil, nil, helperErr(op, err, input[T]{"a", a, 0})
	}
	return s, u, vt, nil
}

// EigSym returns the eigenvalues w (ascending, as float64 whatever T) and
// orthonormal eigenvectors v (as columns: a v = v diag(w)) of the n x n
// symmetric, for complex types Hermitian, view a, of which only the lower
// triangle is read (lapis.UpperTriangle(): only the upper one). It uses
// LAPACK's divide-and-conquer syevd/heevd.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func EigSym[T Scalar](a views.View[T], opts ...lapis.Option) (w []float64, v *views.Tensor[T], err error) {
	const op = "lapack.EigSym"
	v, err = workCopy(op, a)
	if err != nil {
		return nil, nil, err
	}
	uplo := triangleOf(opts)
	w, err = withReals[T](a.Layout().Dim(0), func(w32 []float32, w64 []float64) error {
		if w32 != nil {
			return Syevd(JobVectors, uplo, v.View(), w32, opts...)
		}
		return Syevd(JobVectors, uplo, v.View(), w64, opts...)
	}) // Syevd scans a's triangle
	if err != nil {
		v.Release()
		return nil, nil, helperErr(op, err, readTriangle("a", a, uplo))
	}
	return w, v, nil
}

// withReals calls f with a slice of n reals of T's precision (the other
// is nil) and returns them as float64.
func withReals[T Scalar](n int, f func(r32 []float32, r64 []float64) error) ([]float64, error) {
	out := make([]float64, n)
	if scalar.Index[T]()%2 == 1 {
		return out, f(nil, out)
	}
	r := pool.Get[float32](n)
	defer pool.Put(r)
	if r.Data == nil {
		r.Data = []float32{} // non-nil: f tells the two apart
	}
	if err := f(r.Data, nil); err != nil {
		return nil, err
	}
	for i, x := range r.Data {
		out[i] = float64(x)
	}
	return out, nil
}

// Eig returns the eigenvalues w and right eigenvectors v (as columns,
// a v = v diag(w), each of unit length) of the n x n view a, as complex128
// whatever T (a real matrix has complex eigenpairs in general).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func Eig[T Scalar](a views.View[T], opts ...lapis.Option) (w []complex128, v *views.Tensor[complex128], err error) {
	const op = "lapack.Eig"
	f, n, err := squareCopy(op, a)
	if err != nil {
		return nil, nil, err
	}
	defer f.Release()
	vr := spareZeros[T](n, n)
	defer vr.Release()
	w = make([]complex128, n)
	if scalar.Index[T]()%2 == 0 {
		w64 := make([]complex64, n)
		err = Geev(JobNone, JobVectors, f.View(), w64, views.View[T]{}, vr.View(), opts...)
		for i, x := range w64 {
			w[i] = complex128(x)
		}
	} else {
		err = Geev(JobNone, JobVectors, f.View(), w, views.View[T]{}, vr.View(), opts...)
	} // Geev scans a
	if err != nil {
		return nil, nil, helperErr(op, err, input[T]{"a", a, 0})
	}
	v, _ = views.Zeros[complex128](n, n)
	vd, rd := v.Data(), vr.Data()
	for j := 0; j < n; j++ {
		if scalar.Index[T]() < 2 && imag(w[j]) != 0 && j+1 < n {
			// A conjugate pair in two real columns (Geev).
			for i := range n {
				re, im := toFloat(rd[j*n+i]), toFloat(rd[(j+1)*n+i])
				vd[j*n+i] = complex(re, im)
				vd[(j+1)*n+i] = complex(re, -im)
			}
			j++
			continue
		}
		for i := range n {
			vd[j*n+i] = scalar.Complex128(rd[j*n+i])
		}
	}
	return w, v, nil
}

func errorsIsSingular(err error) bool { return errors.Is(err, ErrSingular) }

// fromFloat converts a real to T.
func fromFloat[T Scalar](f float64) T {
	var t T
	switch p := any(&t).(type) {
	case *float32:
		*p = float32(f)
	case *float64:
		*p = f
	case *complex64:
		*p = complex(float32(f), 0)
	case *complex128:
		*p = complex(f, 0)
	}
	return t
}

// toFloat returns the real part of x as float64.
func toFloat[T Scalar](x T) float64 { return real(scalar.Complex128(x)) }
