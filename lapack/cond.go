package lapack

import (
	"math"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/cond"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
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
	return gecon("lapack.Gecon", norm, lu, anorm, opts)
}

// gecon is Gecon named op (the conditioning check's fallback, after
// cond.Estimate's cheaper estimate).
func gecon[T Scalar](op string, norm Norm, lu views.View[T], anorm float64, opts []lapis.Option) (rcond float64, err error) {
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
	rcond, _, _, err := cond.LU(norm == InfNorm, lu.View(), anorm, func(lu views.View[T]) (float64, error) {
		return gecon(op, norm, lu, anorm, opts)
	})
	if err != nil {
		return 0, err
	}
	if !(rcond > 0) {
		return math.Inf(1), nil // underflow: singular to working precision
	}
	return 1 / rcond, nil
}

// checkCondition returns an error matching ErrIllConditioned (and
// ErrSingular), carrying Error.Rcond, when the reciprocal condition number
// of the n x n matrix A is below machine epsilon; nil otherwise. lu holds
// A's LU factors as Getrf leaves them (the pivots are not needed: a row
// permutation changes neither norm), anorm is A's norm (OneNorm or
// InfNorm, taken before the factorisation). It is the check Solve makes
// (lapack and batch; Inv, which has the inverse, uses checkInverse). For
// n <= 16 the reciprocal condition number is computed exactly in Go from
// U^-1 L^-1 (internal/rt/cond); above, ||A^-1|| is estimated by the
// iteration of LAPACK's ?lacn2, as Gecon runs it, on plain triangular
// solves (cblas_?trsv; gecon's scaled ?latrs cost 1.4-2.9x as much per solve), falling
// back to Gecon when a solve over- or underflows. op names the caller in
// the error, and Routine what computed rcond: routineExact up to order
// cond.Max, ?gecon (whose estimate it is) above. lu is not modified.
func checkCondition[T Scalar](op string, norm Norm, lu views.View[T], anorm float64, opts ...lapis.Option) error {
	n, err := condOperand("lapack.CheckCondition", "lu", norm, lu)
	if err != nil || n == 0 || anorm == 0 {
		return err // an empty or zero matrix: the factorisation reported it
	}
	rcond, routine, how, err := cond.LU(norm == InfNorm, lu, anorm, func(lu views.View[T]) (float64, error) {
		return gecon("lapack.CheckCondition", norm, lu, anorm, opts)
	})
	if err != nil {
		return errop.Rename(err, op) // gecon's, as the caller's
	}
	return illConditionedBy[T](op, routine, how, rcond)
}

// checkInverse is checkCondition for a matrix A whose inverse is already
// known: the reciprocal condition number is exactly 1 / (anorm ||inv||)
// in that norm (OneNorm or InfNorm), with anorm A's norm taken before it
// was inverted. It returns an error matching ErrIllConditioned (and
// ErrSingular) carrying Rcond when that is below machine epsilon. op
// names the caller in the error.
func checkInverse[T Scalar](op string, norm Norm, inv views.View[T], anorm float64, opts ...lapis.Option) error {
	n, err := condOperand("lapack.CheckInverse", "inv", norm, inv)
	if err != nil || n == 0 || anorm == 0 {
		return err
	}
	rcond, how, err := cond.Inverse(norm == InfNorm, inv, anorm, func() (float64, error) { return Lange(norm, inv, opts...) })
	if err != nil {
		return errop.Rename(err, op)
	}
	return illConditionedBy[T](op, routineExact, how, rcond)
}

// condOperand checks checkCondition's and checkInverse's arguments (norm
// OneNorm or InfNorm, v square) and returns v's order.
func condOperand[T Scalar](op, name string, norm Norm, v views.View[T]) (n int, err error) {
	if err := checkNorm(op, norm, true); err != nil {
		return 0, err
	}
	if v.Rank() != 2 || v.Layout().Dim(0) != v.Layout().Dim(1) {
		return 0, layout.Errorf(layout.ErrShape, op, name, "shape %v, want a square matrix", v.Shape())
	}
	return v.Layout().Dim(0), nil
}

// routineExact is Error.Routine of an ErrIllConditioned error whose
// reciprocal condition number lapis computed exactly rather than
// estimated (Solve up to order cond.Max, in Go from the LU factors; Inv
// from the inverse): no LAPACK routine ran for it.
const routineExact = cond.RoutineExact

// illConditioned returns the ErrIllConditioned error of the function op
// for rcond = 1 / (||A|| ||A^-1||) computed exactly from the inverse
// (Inv), or nil when rcond is not below machine epsilon (NaN counts as
// below: the factors or the inverse hold NaN).
func illConditioned[T Scalar](op string, rcond float64) error {
	return illConditionedBy[T](op, routineExact, cond.HowInverse, rcond)
}

// illConditionedBy is illConditioned for an rcond that routine computed
// as how says.
func illConditionedBy[T Scalar](op, routine, how string, rcond float64) error {
	if !cond.Ill[T](rcond) {
		return nil
	}
	return &Error{Op: op, Routine: routine, Index: -1, Rank: -1, Rcond: rcond, Err: ErrIllConditioned, Detail: cond.Detail(how, rcond)}
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
// (cond.MatrixNorm) up to order 64, where a cgo call costs more, and for the
// complex types at every order (zlange's scaled cond.Moduli cost 8x as much);
// real matrices above 64 go to ?lange, as fast as Go there
// (BenchmarkCondEstimate).
func workNorm[T Scalar](norm Norm, m views.View[T], opts []lapis.Option) float64 {
	if l, n := m.Layout(), m.Layout().Dim(0); (scalar.Index[T]() >= 2 || n <= 64) && l.Offset() == 0 && (n <= 1 || l.Stride(0) == 1 && l.Stride(1) == n) {
		return cond.MatrixNorm(m.Data(), n, norm == InfNorm)
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
