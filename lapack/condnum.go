package lapack

import (
	"math"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/cond"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Cond returns the condition number ||a|| ||a^-1|| of the view a in
// norm, as numpy.linalg.cond does:
//
//   - TwoNorm: sigma_max / sigma_min from the singular values (Gesdd,
//     no vectors), exact to rounding; a may be m x n (numpy's default p).
//   - Frobenius: sqrt(sum sigma_i^2) sqrt(sum sigma_i^-2), exact to
//     rounding, from the same singular values; a must be square.
//   - OneNorm, InfNorm: from the LU factorisation (Getrf), with ||a^-1||
//     as Solve's conditioning check takes it: exactly up to order 16,
//     above by the estimate of LAPACK's ?gecon (Hager's method with
//     Higham's refinements; see "Conditioning" in the package
//     documentation). The estimate is a lower bound, almost always the
//     exact figure (see there for what is tested); a must be square.
//
// A singular a (a zero singular value, a zero pivot, or a reciprocal
// condition number that underflows) gives +Inf, not an error. An empty
// matrix has condition 1, as ?gecon reports. a is not modified: Cond works
// on one compact copy of it, which costs O(mn) next to the O(mn min(m, n))
// factorisation.
//
// Errors: a norm other than those four matches lapis.ErrInvalid and names
// "norm"; a view that is not a matrix, or not square where the norm asks
// for one, is a *layout.Error matching layout.ErrShape that names "a", the
// zero View one matching layout.ErrBounds; a view of a released tensor
// matches lapis.ErrReleased. A NaN or an
// infinity in a is found before LAPACK runs and gives an error matching
// lapis.ErrNotFinite that names a's first such element. LAPACK's own
// failures (ErrNoConvergence from the SVD) come back as *Error.
func Cond[T Scalar](norm Norm, a views.View[T], opts ...lapis.Option) (float64, error) {
	const op = "lapack.Cond"
	var c float64
	var err error
	switch norm {
	case TwoNorm, Frobenius:
		c, err = condSVD(op, norm, a, opts)
	case OneNorm, InfNorm:
		c, err = condLU(op, norm, a, opts)
	default:
		return 0, layout.Errorf(lapis.ErrInvalid, op, "norm", "value %q is not TwoNorm, Frobenius, OneNorm or InfNorm", byte(norm))
	}
	return c, errop.Rename(err, op)
}

// condSVD is Cond in the two norm or the Frobenius norm, from the
// singular values of a compact copy of a.
func condSVD[T Scalar](op string, norm Norm, a views.View[T], opts []lapis.Option) (float64, error) {
	f, err := workCopy(op, a)
	if err != nil {
		return 0, err
	}
	defer f.Release()
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	if norm == Frobenius && m != n {
		return 0, layout.Errorf(layout.ErrShape, op, "a", "shape %v, want a square matrix (only TwoNorm takes a rectangular one)", a.Shape())
	}
	k := min(m, n)
	if k == 0 {
		return 1, nil
	}
	// Gesdd scans what it reads (the copy) before LAPACK runs; helperErr
	// names the element of the caller's a.
	s, err := withReals[T](k, func(s32 []float32, s64 []float64) error {
		if s32 != nil {
			return Gesdd(JobNone, f.View(), s32, views.View[T]{}, views.View[T]{}, opts...)
		}
		return Gesdd(JobNone, f.View(), s64, views.View[T]{}, views.View[T]{}, opts...)
	})
	if err != nil {
		return 0, helperErr(op, err, finite.All("a", a))
	}
	if s[k-1] == 0 {
		return math.Inf(1), nil // singular, the zero matrix included
	}
	if norm == TwoNorm {
		return s[0] / s[k-1], nil
	}
	// Scaled sums of squares: s[0] and s[k-1] bound the terms, so that
	// neither sum over- or underflows before the product is formed.
	var big, small float64
	for _, x := range s {
		big += (x / s[0]) * (x / s[0])
		small += (s[k-1] / x) * (s[k-1] / x)
	}
	return (s[0] / s[k-1]) * math.Sqrt(big*small), nil
}

// condLU is Cond in the one or infinity norm: the norm of a compact copy
// of a, its LU factors, and ||a^-1|| from them as checkCondition takes
// it (exact in Go up to cond.Max, gecon's estimate above). A row-major a
// is factored through its storage (storageCopy), whose one norm is a's
// infinity norm and the other way round.
func condLU[T Scalar](op string, norm Norm, a views.View[T], opts []lapis.Option) (float64, error) {
	lu, trans, n, err := storageCopy(op, a)
	if err != nil {
		return 0, err
	}
	defer lu.Release()
	if err := checkFinite(op, finite.All("a", a)); err != nil {
		return 0, err
	}
	if n == 0 {
		return 1, nil
	}
	if trans != NoTrans {
		norm = norm.transposed()
	}
	anorm := workNorm(norm, lu.View(), opts)
	ipiv := pool.Get[int32](n)
	defer pool.Put(ipiv)
	if err := Getrf(lu.View(), ipiv.Data, opts...); errorsIsSingular(err) {
		return math.Inf(1), nil
	} else if err != nil {
		return 0, err
	}
	if _, err := condOperand(op, "lu", norm, lu.View()); err != nil {
		return 0, err
	}
	rcond, _, _, err := cond.LU(norm == InfNorm, lu.View(), anorm, func() (float64, error) {
		return gecon(op, norm, lu.View(), anorm, true, opts)
	})
	if err != nil {
		return 0, err
	}
	if !(rcond > 0) {
		return math.Inf(1), nil // underflow: singular to working precision
	}
	return 1 / rcond, nil
}
