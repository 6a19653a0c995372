package lapack

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The finite-input rule of the helpers (Solve, Inv, Det, LogDet,
// Cholesky, CholeskySolve, LU, QR, LeastSquares, SVD, EigSym, Eig): they
// need finite numbers, and do not scan their input up front (that would
// cost O(n^2) on every call). When LAPACK fails, or a result comes out
// with a NaN, they scan what they read (O(n^2), on that path only): a NaN
// or an infinity there gives an error matching lapis.ErrNotFinite that
// names the operand and its first such element, in place of LAPACK's
// (which may mislead: "did not converge", "rejected an argument"); a NaN
// result from finite input gives one naming the result.

// input is an operand a helper reads: all of it, or one triangle
// ('L' or 'U') of a square matrix. left marks an operand the computation
// has overwritten (batch's in-place routines, through internal/rt/link):
// the scan reads what it left, and the error says so instead of naming an
// element of the input, which is gone.
type input[T Scalar] struct {
	name string
	v    views.View[T]
	tri  byte
	left bool
}

// finite applies the rule: err is what the computation returned, suspect
// whether its result holds a NaN.
func finite[T Scalar](op string, err error, suspect bool, ins ...input[T]) error {
	var le *layout.Error
	if err == nil && !suspect || errors.As(err, &le) {
		return err // no doubt, or an argument error from before the computation
	}
	for _, in := range ins {
		if e := firstNonFinite(op, in); e != nil {
			return e
		}
	}
	if err == nil {
		return notFinite(op, "result", "NaN from finite input (an overflow inside LAPACK)")
	}
	return err
}

// notFinite is the rule's error: an *Error, so that batch reports it per
// matrix as it reports LAPACK's, matching lapis.ErrNotFinite.
func notFinite(op, name, detail string) error {
	return &Error{Routine: strings.TrimPrefix(op, "lapack."), Index: -1, Rank: -1, Arg: name, kind: lapis.ErrNotFinite, detail: name + ": " + detail}
}

// firstNonFinite returns the error for in's first NaN or infinity
// (column-major order), nil when it has none.
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
				if in.left {
					return notFinite(op, in.name, fmt.Sprintf("%s is %v as the computation left it (it works in place: the input held a NaN or an infinity, or the computation overflowed)", where, x))
				}
				return notFinite(op, in.name, fmt.Sprintf("%s is %v; the computation needs finite numbers", where, x))
			}
		}
	}
	return nil
}

func tensorNaN[T Scalar](t *views.Tensor[T]) bool { return t != nil && scalar.HasNaN(t.Data()) }

// readTriangle is the input of a helper that reads uplo's triangle of a.
func readTriangle[T Scalar](name string, a views.View[T], uplo Uplo) input[T] {
	if uplo == Upper {
		return input[T]{name, a, 'U', false}
	}
	return input[T]{name, a, 'L', false}
}

// drop releases t and returns nil when err is the rule's error.
func drop[T Scalar](t *views.Tensor[T], err error) *views.Tensor[T] {
	if t != nil && errors.Is(err, lapis.ErrNotFinite) {
		t.Release()
		return nil
	}
	return t
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
	x, err := rawSolve(a, b, opts...)
	err = finite("lapack.Solve", err, tensorNaN(x), input[T]{"a", a, 0, false}, input[T]{"b", b, 0, false})
	return drop(x, err), err
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
	inv, err := rawInv(a, opts...)
	err = finite("lapack.Inv", err, tensorNaN(inv), input[T]{"a", a, 0, false})
	return drop(inv, err), err
}

// LogDet returns the determinant of the n x n view a as sign *
// exp(logAbs): sign is +1 or -1 for real types and has modulus 1 for
// complex ones. A singular a gives sign 0 and logAbs -Inf (no error).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func LogDet[T Scalar](a views.View[T], opts ...lapis.Option) (logAbs float64, sign T, err error) {
	logAbs, sign, err = rawLogDet(a, opts...)
	if err = finite("lapack.LogDet", err, logAbs != logAbs || sign != sign, input[T]{"a", a, 0, false}); err != nil {
		return 0, 0, err
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
	l, err := rawCholesky(a, opts...)
	err = finite("lapack.Cholesky", err, tensorNaN(l), readTriangle("a", a, triangleOf(opts)))
	return drop(l, err), err
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
	x, err := rawCholeskySolve(l, b, opts...)
	err = finite("lapack.CholeskySolve", err, tensorNaN(x), readTriangle("l", l, Lower), input[T]{"b", b, 0, false})
	return drop(x, err), err
}

// LU returns the LU factorisation with partial pivoting of the m x n view
// a: a[perm[i], :] = (l u)[i, :], l m x k unit lower triangular, u k x n
// upper triangular (k = min(m, n)). A singular a is not an error here
// (u has a zero on its diagonal; Solve and Inv report it).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func LU[T Scalar](a views.View[T], opts ...lapis.Option) (perm []int, l, u *views.Tensor[T], err error) {
	perm, l, u, err = rawLU(a, opts...)
	if err = finite("lapack.LU", err, tensorNaN(l) || tensorNaN(u), input[T]{"a", a, 0, false}); errors.Is(err, lapis.ErrNotFinite) {
		return nil, drop(l, err), drop(u, err), err
	}
	return perm, l, u, err
}

// QR returns the reduced QR factorisation a = q r of the m x n view a:
// q m x k with orthonormal columns, r k x n upper triangular, k = min(m, n).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func QR[T Scalar](a views.View[T], opts ...lapis.Option) (q, r *views.Tensor[T], err error) {
	q, r, err = rawQR(a, opts...)
	err = finite("lapack.QR", err, tensorNaN(q) || tensorNaN(r), input[T]{"a", a, 0, false})
	return drop(q, err), drop(r, err), err
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
	x, err := rawLeastSquares(a, b, opts...)
	err = finite("lapack.LeastSquares", err, tensorNaN(x), input[T]{"a", a, 0, false}, input[T]{"b", b, 0, false})
	return drop(x, err), err
}

// SVD returns the reduced singular value decomposition a = u diag(s) vt of
// the m x n view a: s the k = min(m, n) singular values, largest first
// (as float64 whatever T), u m x k and vt k x n with orthonormal columns
// and rows. It uses gesdd, or gesvd with the QRIteration option.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func SVD[T Scalar](a views.View[T], opts ...lapis.Option) (s []float64, u, vt *views.Tensor[T], err error) {
	s, u, vt, err = rawSVD(a, opts...)
	if err = finite("lapack.SVD", err, scalar.HasNaN(s), input[T]{"a", a, 0, false}); errors.Is(err, lapis.ErrNotFinite) {
		return nil, drop(u, err), drop(vt, err), err
	}
	return s, u, vt, err
}

// EigSym returns the eigenvalues w (ascending, as float64 whatever T) and
// orthonormal eigenvectors v (as columns: a v = v diag(w)) of the n x n
// symmetric, for complex types Hermitian, view a, of which only the lower
// triangle is read (lapis.UpperTriangle(): only the upper one). It uses
// LAPACK's divide-and-conquer syevd/heevd.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func EigSym[T Scalar](a views.View[T], opts ...lapis.Option) (w []float64, v *views.Tensor[T], err error) {
	w, v, err = rawEigSym(a, opts...)
	if err = finite("lapack.EigSym", err, scalar.HasNaN(w), readTriangle("a", a, triangleOf(opts))); errors.Is(err, lapis.ErrNotFinite) {
		return nil, drop(v, err), err
	}
	return w, v, err
}

// Eig returns the eigenvalues w and right eigenvectors v (as columns,
// a v = v diag(w), each of unit length) of the n x n view a, as complex128
// whatever T (a real matrix has complex eigenpairs in general).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func Eig[T Scalar](a views.View[T], opts ...lapis.Option) (w []complex128, v *views.Tensor[complex128], err error) {
	w, v, err = rawEig(a, opts...)
	if err = finite("lapack.Eig", err, scalar.HasNaN(w), input[T]{"a", a, 0, false}); errors.Is(err, lapis.ErrNotFinite) {
		if v != nil {
			v.Release()
		}
		return nil, nil, err
	}
	return w, v, err
}
