package lapack

import (
	"math"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Norms and condition numbers.

// Norm is a matrix norm.
type Norm byte

const (
	MaxAbs    Norm = 'M' // max |a_ij| (not a consistent matrix norm)
	OneNorm   Norm = '1' // maximum column sum of |a_ij|
	InfNorm   Norm = 'I' // maximum row sum of |a_ij|
	Frobenius Norm = 'F' // square root of the sum of |a_ij|^2
	TwoNorm   Norm = '2' // largest singular value (Cond only: Lange and Gecon do not take it)
)

func checkNorm(op string, norm Norm, condition bool) error {
	switch norm {
	case OneNorm, InfNorm:
		return nil
	case MaxAbs, Frobenius:
		if !condition {
			return nil
		}
	}
	what := "MaxAbs, OneNorm, InfNorm or Frobenius"
	if condition {
		what = "OneNorm or InfNorm"
	}
	return layout.Errorf(lapis.ErrInvalid, op, "norm", "value %q is not %s", byte(norm), what)
}

// transposed returns the norm of a^T that equals norm of a.
func (n Norm) transposed() Norm {
	switch n {
	case OneNorm:
		return InfNorm
	case InfNorm:
		return OneNorm
	}
	return n
}

// Lange returns a norm of the m x n view a. Any view works without a copy
// except a General one: a row-major view is measured through its storage
// (the one and infinity norms swap), and conjugation changes no norm.
func Lange[T Scalar](norm Norm, a views.View[T], opts ...lapis.Option) (float64, error) {
	const op = "lapack.Lange"
	if err := checkNorm(op, norm, false); err != nil {
		return 0, err
	}
	if a.IsConj() {
		a = a.Conj()
	}
	oa, err := prepare(op, "a", a, read|transposable, lapis.Configure(opts...))
	if err != nil {
		return 0, err
	}
	if oa.trans != 'N' {
		norm = norm.transposed()
	}
	var ws wspace.Sizes
	if norm == InfNorm {
		ws.RWork = oa.rows
	}
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	r := clib.Lange[T](byte(norm), oa.rows, oa.cols, oa.ptr, oa.ld, w.rworkPtr())
	w.put()
	oa.release()
	return r, nil
}

// Gecon estimates the reciprocal condition number, in the one or infinity
// norm, of the n x n matrix A whose Getrf factors are in lu, given anorm,
// that norm of A (Lange before factoring). 0 means singular to working
// precision. An anorm of +Inf gives 0 and NaN gives NaN, without error,
// whatever the LAPACK version (see nonFiniteNorm).
func Gecon[T Scalar](norm Norm, lu views.View[T], anorm float64, opts ...lapis.Option) (rcond float64, err error) {
	return gecon("lapack.Gecon", norm, lu, anorm, false, opts)
}

// gecon is Gecon named op; with fast it first tries the estimate on plain
// triangular solves (invNormEst), and calls ?gecon only when that over-
// or underflowed (checkCondition).
func gecon[T Scalar](op string, norm Norm, lu views.View[T], anorm float64, fast bool, opts []lapis.Option) (rcond float64, err error) {
	if err := checkNorm(op, norm, true); err != nil {
		return 0, err
	}
	if anorm < 0 {
		return 0, layout.Errorf(lapis.ErrInvalid, op, "anorm", "%g is negative; want the norm of the matrix", anorm)
	}
	if r, ok := nonFiniteNorm(lu, anorm); ok {
		return r, nil
	}
	oa, err := prepare(op, "lu", lu, read, lapis.Configure(opts...))
	if err != nil {
		return 0, err
	}
	defer oa.release()
	n, err := square(op, "lu", &oa)
	if err != nil {
		return 0, err
	}
	if fast && n > 0 {
		if est, ok := invNormEst[T](norm, n, oa.ptr, oa.ld); ok {
			return (1 / est) / anorm, nil
		}
	}
	w := getWorkspace[T](wspace.Sizes{Work: 4 * n, RWork: 2 * n, IWork: n})
	policy.Lapack.Add(1)
	info := clib.Gecon[T](byte(norm), n, oa.ptr, oa.ld, anorm, &rcond, w.workPtr(), w.iworkPtr(), w.rworkPtr())
	w.put()
	return rcond, infoErr[T](op, "xgecon", info)
}

// Pocon estimates the reciprocal condition number in the one norm of the
// n x n positive definite A whose Potrf factor is in the uplo triangle of
// f, given anorm, the one norm of A. An anorm of +Inf gives 0 and NaN
// gives NaN, without error, as for Gecon. A factor Potrf did not complete
// is refused as Potrs refuses it.
func Pocon[T Scalar](uplo Uplo, f views.View[T], anorm float64, opts ...lapis.Option) (rcond float64, err error) {
	const op = "lapack.Pocon"
	if anorm < 0 {
		return 0, layout.Errorf(lapis.ErrInvalid, op, "anorm", "%g is negative; want the norm of the matrix", anorm)
	}
	if r, ok := nonFiniteNorm(f, anorm); ok {
		return r, nil
	}
	of, n, err := squareOperand(op, "f", uplo, f, read|hermitian, lapis.Configure(opts...))
	if err == nil {
		if err = checkFactor[T](op, "xpocon", f, n); err != nil {
			of.release()
		}
	}
	if err != nil {
		return 0, err
	}
	w := getWorkspace[T](wspace.Sizes{Work: 3 * n, RWork: n, IWork: n})
	policy.Lapack.Add(1)
	info := clib.Pocon[T](uploChar(uplo, &of), n, of.ptr, of.ld, anorm, &rcond, w.workPtr(), w.iworkPtr(), w.rworkPtr())
	w.put()
	of.release()
	return rcond, infoErr[T](op, "xpocon", info)
}

// nonFiniteNorm answers the condition estimators for an anorm of +Inf (0)
// or NaN (NaN) of a non-empty square matrix a, ok true, without copying a
// or calling LAPACK: LAPACK up to 3.11 returns those values, 3.12 returns
// the same rcond but reports anorm as an invalid argument (info = -5), so
// that lapis failed on OpenBLAS 0.3.29 (Debian 13) where it passed on
// 0.3.21. Anything else (n = 0: rcond 1; shape errors) takes the usual
// path.
func nonFiniteNorm[T Scalar](a views.View[T], anorm float64) (float64, bool) {
	switch {
	case a.Rank() != 2 || a.Layout().Dim(0) != a.Layout().Dim(1) || a.Layout().Dim(0) == 0:
		return 0, false
	case math.IsNaN(anorm):
		return anorm, true
	case math.IsInf(anorm, 1):
		return 0, true
	}
	return 0, false
}
