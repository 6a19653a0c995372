package lapack

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/cond"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/views"
)

// The estimate checkCondition makes above cond.Max (cond.InvNormEst on plain
// triangular solves) is checked against three references: the exact
// reciprocal condition number of the stored matrix (its inverse computed
// in float64 or complex128, where that is accurate), LAPACK's ?gecon on
// the same factors (the same iteration on scaled solves: the check must
// decide as it did), and the decision ErrIllConditioned stands for.

// randUnitary returns an n x n orthogonal (real) or unitary matrix: the
// product of n Householder reflectors with random normal vectors.
func randUnitary(rng *rand.Rand, n int, real bool) tm.M {
	q := tm.Eye(n)
	for range n {
		v := tm.Rand(rng, n, 1, real)
		vv := v.H().Mul(v).D[0]
		w := v.H().Mul(q) // 1 x n
		for j := range n {
			for i := range n {
				q.Set(i, j, q.At(i, j)-2*v.D[i]*w.D[j]/vv)
			}
		}
	}
	return q
}

// withSingularValues returns U diag(s) V^H, s geometric from 1 down to
// 1/kappa: 2-norm condition number kappa.
func withSingularValues(rng *rand.Rand, n int, kappa float64, real bool) tm.M {
	u, v := randUnitary(rng, n, real), randUnitary(rng, n, real)
	for j := range n {
		s := math.Pow(kappa, -float64(j)/float64(n-1))
		for i := range n {
			u.Set(i, j, u.At(i, j)*complex(s, 0))
		}
	}
	return u.Mul(v.H())
}

// condFacts are the estimates of one matrix's reciprocal condition
// number in the one norm.
type condFacts struct {
	est, gecon float64 // checkCondition's estimate, LAPACK's gecon
	exact      float64 // of the stored matrix, in 64-bit arithmetic; NaN when not accurate
	lapackCall int64   // LAPACK calls the estimate made (1: it fell back to gecon)
}

// condOf returns a's facts, ok false when its LU factorisation meets an
// exactly zero pivot (singular: no estimate to check).
func condOf[T Scalar](t *testing.T, a views.View[T]) (f condFacts, ok bool) {
	t.Helper()
	n := a.Layout().Dim(0)
	anorm := must(Lange(OneNorm, a))
	lu := a.ToColMajor()
	defer lu.Release()
	if err := Getrf(lu.View(), make([]int32, n)); err != nil {
		if !errors.Is(err, ErrSingular) {
			t.Fatalf("getrf: %v", err)
		}
		return f, false
	}
	var err error
	calls := lapis.ReadStats().Lapack
	if f.est, err = cond.Estimate(false, lu.View(), anorm, func(lu views.View[T]) (float64, error) {
		return gecon("test", OneNorm, lu, anorm, nil)
	}); err != nil {
		t.Fatal(err)
	}
	f.lapackCall = lapis.ReadStats().Lapack - calls
	f.gecon = must(Gecon(OneNorm, lu.View(), anorm))
	f.exact = exactRcond(a)
	return f, true
}

// exactRcond is 1 / (||a||_1 ||a^-1||_1) of the stored matrix a, the
// inverse computed in float64 or complex128 (exact for float32's values),
// or NaN when that inverse is not accurate (rcond below 1e-10).
func exactRcond[T Scalar](a views.View[T]) float64 {
	m := tm.Of(a)
	var r float64
	if tm.IsComplex[T]() {
		r = exactRcond64(tm.From[complex128](m, tm.ColPacked).V)
	} else {
		r = exactRcond64(tm.From[float64](m, tm.ColPacked).V)
	}
	if !(r >= 1e-10) {
		return math.NaN()
	}
	return r
}

func exactRcond64[T float64 | complex128](a views.View[T]) float64 {
	inv, err := Inv(a, lapis.NoConditionCheck())
	if err != nil {
		return 0
	}
	defer inv.Release()
	return 1 / (must(Lange(OneNorm, a)) * must(Lange(OneNorm, inv.View())))
}

// checkFacts checks one matrix's estimate: never below the exact value
// by more than rounding and at most 10x above it (a lower bound on
// ||A^-1|| within a factor 10); never above gecon's, whose iteration it
// repeats (it keeps the largest estimate where ?lacn2 keeps the last);
// at most 10x below gecon's (the iterations may part when rounding picks
// another index); no gecon call unless a solve overflowed.
func checkFacts(t *testing.T, what string, f condFacts, eps float64) {
	t.Helper()
	if !math.IsNaN(f.exact) {
		if slack := 1e3 * eps / f.exact; f.est < f.exact*(1-slack) || f.est > 10*f.exact {
			t.Errorf("%s: estimate %.4g, exact %.4g: want within [1, 10] x exact", what, f.est, f.exact)
		}
	}
	if f.est > f.gecon*(1+1e-3) || f.est < f.gecon/10 {
		t.Errorf("%s: estimate %.4g, gecon %.4g: want within [0.1, 1] x gecon", what, f.est, f.gecon)
	}
	if f.lapackCall != 0 {
		t.Errorf("%s: %d LAPACK calls: the estimate fell back to gecon", what, f.lapackCall)
	}
}

// decides checks that Solve and Inv report ErrIllConditioned exactly when
// the reciprocal condition number is below eps/2 (machine epsilon, as
// LAPACK counts it), allowing the estimate's factor 10 above the truth:
// exact below eps/20 must be reported, exact above eps/2 must not, and
// where the exact value is out of reach the decision must be gecon's
// unless gecon's value lies within that factor of the threshold.
func decides[T Scalar](t *testing.T, what string, a views.View[T], f condFacts) {
	t.Helper()
	thr := scalar.Eps[T]() / 2
	var want, sure bool
	switch {
	case !math.IsNaN(f.exact):
		want, sure = f.exact < thr, f.exact < thr/10 || f.exact >= thr
	default:
		want, sure = f.gecon < thr, f.gecon < thr/10 || f.gecon >= thr*10
	}
	if !sure {
		return
	}
	b := must(views.FromColMajor(make([]T, a.Layout().Dim(0)), a.Layout().Dim(0)))
	for _, op := range []string{"Solve", "Inv"} {
		var err error
		var x interface{ Release() }
		if op == "Solve" {
			x, err = Solve(a, b.View())
		} else {
			x, err = Inv(a)
		}
		var le *Error
		if errors.Is(err, ErrSingular) && errors.As(err, &le) && le.Info > 0 {
			if !want {
				t.Errorf("%s: %s: %v on a matrix with rcond %.3g", what, op, err, f.exact)
			}
			continue // an exactly zero pivot: singular, no result
		}
		got := errors.Is(err, ErrIllConditioned)
		if got != want || (err != nil && !got) || (got && x == nil) {
			t.Errorf("%s: %s: %v (result %v); rcond exact %.3g, gecon %.3g, estimate %.3g, threshold %.3g", what, op, err, x != nil, f.exact, f.gecon, f.est, thr)
		}
		if got && !(le.Rcond < thr) {
			t.Errorf("%s: %s: Rcond %g not below %g", what, op, le.Rcond, thr)
		}
	}
}

// singular checks that Solve reports a matrix with an exact zero pivot
// as singular.
func singular[T Scalar](t *testing.T, what string, a views.View[T]) {
	t.Helper()
	n := a.Layout().Dim(0)
	var le *Error
	if _, err := Solve(a, must(views.FromColMajor(make([]T, n), n)).View()); !errors.As(err, &le) || le.Info <= 0 || !errors.Is(err, ErrSingular) {
		t.Errorf("%s: Solve: %v, want ErrSingular with the pivot", what, err)
	}
}

func fromM[T Scalar](m tm.M) views.View[T] { return tm.From[T](m, tm.ColPacked).V }

func testCondEstimate[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 50))
	eps := scalar.Eps[T]()
	real := !tm.IsComplex[T]()
	for _, n := range []int{17, 40, 100} {
		for _, kappa := range []float64{1, 1e2, 1e5, 1e8, 1e12, 1e16, 1e20} {
			a := fromM[T](withSingularValues(rng, n, kappa, real))
			what := fmt.Sprintf("n=%d kappa=%g", n, kappa)
			f, ok := condOf(t, a)
			if !ok {
				singular(t, what, a)
				continue
			}
			checkFacts(t, what, f, eps)
			decides(t, what, a, f)
		}
	}
}

func TestCondEstimate(t *testing.T) {
	tm.ForTypes(t, testCondEstimate[float32], testCondEstimate[float64], testCondEstimate[complex64], testCondEstimate[complex128])
}

// Matrices that defeat naive estimators or sit on the edge.
func testCondEstimateHard[T Scalar](t *testing.T) {
	eps := scalar.Eps[T]()
	n := 40
	cases := map[string]tm.M{}
	// Kahan's matrix: upper triangular, diag(1, s, s^2, ...) times
	// (I - c * strictly upper ones), c^2 + s^2 = 1: no small pivot shows
	// its ill-conditioning (about 1e10 at n = 40, theta = 1.2).
	for _, theta := range []float64{1.2, 0.6} {
		k := tm.Zeros(n, n)
		c, s := math.Cos(theta), math.Sin(theta)
		for i := range n {
			d := math.Pow(s, float64(i))
			k.Set(i, i, complex(d, 0))
			for j := i + 1; j < n; j++ {
				k.Set(i, j, complex(-c*d, 0))
			}
		}
		cases[fmt.Sprintf("kahan theta=%g", theta)] = k
	}
	// Hilbert: condition about 1e28 at n = 20.
	h := tm.Zeros(20, 20)
	for i := range 20 {
		for j := range 20 {
			h.Set(i, j, complex(1/float64(i+j+1), 0))
		}
	}
	cases["hilbert 20"] = h
	// [[1 2 3][4 5 6][7 8 9]] (singular to working precision) in a block
	// diagonal of order 20.
	blk := tm.Eye(20)
	for i := range 3 {
		for j := range 3 {
			blk.Set(i, j, complex(float64(3*i+j+1), 0))
		}
	}
	cases["[[1 2 3][4 5 6][7 8 9]] + I17"] = blk
	// Rank n-1: the last column the sum of the others, plus a 1e-17
	// relative perturbation (invisible in float64).
	rng := rand.New(rand.NewPCG(12, 51))
	r := tm.Rand(rng, n, n, true)
	for i := range n {
		s := complex(0, 0)
		for j := range n - 1 {
			s += r.At(i, j)
		}
		r.Set(i, n-1, s*(1+1e-17))
	}
	cases["rank n-1 + 1e-17"] = r
	// Exactly singular: two equal rows.
	e := tm.Rand(rng, n, n, true)
	for j := range n {
		e.Set(5, j, e.At(9, j))
	}
	cases["two equal rows"] = e
	for what, m := range cases {
		a := fromM[T](m)
		f, ok := condOf(t, a)
		if !ok {
			singular(t, what, a)
			continue
		}
		if f.lapackCall == 0 { // no overflow: the estimate stands
			checkFacts(t, what, f, eps)
		}
		decides(t, what, a, f)
		if what == "hilbert 20" || what[0] == '[' || what == "two equal rows" || what == "rank n-1 + 1e-17" {
			nn := a.Layout().Dim(0)
			if _, err := Solve(a, must(views.FromColMajor(make([]T, nn), nn)).View()); !errors.Is(err, ErrSingular) {
				t.Errorf("%s: Solve: %v, want ErrIllConditioned (or ErrSingular)", what, err)
			}
		}
	}
}

func TestCondEstimateHard(t *testing.T) {
	tm.ForTypes(t, testCondEstimateHard[float32], testCondEstimateHard[float64], testCondEstimateHard[complex64], testCondEstimateHard[complex128])
}

// Matrices scaled down to the edge of the range. Well-conditioned
// (kappa 100) at 2^-1000 (float64; 2^-120 float32): no solve overflows,
// the estimate stands and nothing is reported (?sgecon answers 0 there:
// its scaled solves give up where the result nears overflow). With kappa
// 1e10 (1e4) ||A^-1|| itself overflows: the estimate falls back to gecon
// (one LAPACK call) and reports what gecon does (rcond 0, or NaN from
// the real routines of OpenBLAS 0.3.21: ill-conditioned). NaN and Inf
// entries are reported (Rcond NaN or 0).
func testCondEstimateEdges[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 52))
	n := 30
	scale, big := 0x1p-1000, 1e10
	if scalar.Eps[T]() > 1e-10 {
		scale, big = 0x1p-120, 1e4
	}
	b := must(views.FromColMajor(make([]T, n), n))
	for _, kappa := range []float64{100, big} {
		m := withSingularValues(rng, n, kappa, !tm.IsComplex[T]())
		for i := range m.D {
			m.D[i] *= complex(scale, 0)
		}
		a := fromM[T](m)
		what := fmt.Sprintf("kappa %g scaled by %g", kappa, scale)
		f, ok := condOf(t, a)
		if !ok {
			t.Fatalf("%s: singular", what)
		}
		if kappa == big {
			same := f.est == f.gecon || math.IsNaN(f.est) && math.IsNaN(f.gecon)
			if f.lapackCall != 1 || !same {
				t.Errorf("%s: %d LAPACK calls, rcond %g, gecon %g; want the fallback to gecon", what, f.lapackCall, f.est, f.gecon)
			}
			if _, err := Solve(a, b.View()); !errors.Is(err, ErrIllConditioned) {
				t.Errorf("%s: Solve: %v, want ErrIllConditioned as gecon says", what, err)
			}
			continue
		}
		if f.lapackCall != 0 || !(f.est >= f.exact*(1-1e-3) && f.est <= 10*f.exact) {
			t.Errorf("%s: %d LAPACK calls, rcond %g, exact %g; want the estimate", what, f.lapackCall, f.est, f.exact)
		}
		if _, err := Solve(a, b.View()); err != nil {
			t.Errorf("%s: Solve: %v", what, err)
		}
		if _, err := Inv(a); err != nil {
			t.Errorf("%s: Inv: %v", what, err)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		m := withSingularValues(rng, n, 10, true)
		m.Set(3, 7, complex(bad, 0))
		a := fromM[T](m)
		for _, op := range []string{"Solve", "Inv"} {
			var err error
			if op == "Solve" {
				_, err = Solve(a, b.View())
			} else {
				_, err = Inv(a)
			}
			// The finite-input rule (errors.go): the check's NaN rcond
			// leads to the scan, which names the element.
			if !errors.Is(err, lapis.ErrNotFinite) || !strings.Contains(err.Error(), "(3, 7)") {
				t.Errorf("%g entry: %s: %v, want lapis.ErrNotFinite naming element (3, 7)", bad, op, err)
			}
		}
	}
}

func TestCondEstimateEdges(t *testing.T) {
	tm.ForTypes(t, testCondEstimateEdges[float32], testCondEstimateEdges[float64], testCondEstimateEdges[complex64], testCondEstimateEdges[complex128])
}

// The check reads only: Solve's and Inv's results are the same bits with
// and without it, row- and column-major.
func testCondCheckBitwise[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 53))
	for _, n := range []int{4, 17, 100} {
		for _, kind := range []tm.Kind{tm.ColPacked, tm.RowPacked} {
			for _, kappa := range []float64{10, 1e20} {
				a := tm.From[T](withSingularValues(rng, n, kappa, !tm.IsComplex[T]()), kind).V
				b := tm.New[T](rng, n, 2, tm.ColPacked).V
				x1, err1 := Solve(a, b)
				x2, err2 := Solve(a, b, lapis.NoConditionCheck())
				i1, _ := Inv(a)
				i2, _ := Inv(a, lapis.NoConditionCheck())
				what := fmt.Sprintf("n=%d %v kappa=%g", n, kind, kappa)
				var le *Error
				if errors.As(err2, &le) && le.Info > 0 && err1 != nil && err1.Error() == err2.Error() {
					continue // an exact zero pivot: both fail alike
				}
				if err2 != nil || (err1 != nil && !errors.Is(err1, ErrIllConditioned)) {
					t.Fatalf("%s: %v / %v", what, err1, err2)
				}
				if !sameBits(x1.Data(), x2.Data()) || !sameBits(i1.Data(), i2.Data()) {
					t.Errorf("%s: results differ with and without the check", what)
				}
			}
		}
	}
}

func sameBits[T Scalar](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := scalar.Complex128(a[i]), scalar.Complex128(b[i])
		if math.Float64bits(real(x)) != math.Float64bits(real(y)) || math.Float64bits(imag(x)) != math.Float64bits(imag(y)) {
			return false
		}
	}
	return true
}

func TestCondCheckBitwise(t *testing.T) {
	tm.ForTypes(t, testCondCheckBitwise[float32], testCondCheckBitwise[float64], testCondCheckBitwise[complex64], testCondCheckBitwise[complex128])
}

// The norm the check takes in Go equals ?lange's, also where complex
// cond.Moduli over- or underflow when squared; NaN propagates.
func testMatrixNorm[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 54))
	scales := []float64{1, 1e-300, 1e300, 0x1p-1070}
	tol := 1e-13
	if scalar.Eps[T]() > 1e-10 {
		scales, tol = []float64{1, 1e-30, 1e30}, 1e-5
	}
	for _, n := range []int{1, 37} {
		for _, sc := range scales {
			m := tm.Rand(rng, n, n, !tm.IsComplex[T]())
			for i := range m.D {
				m.D[i] *= complex(sc, 0)
			}
			a := tm.From[T](m, tm.ColPacked).V
			for _, norm := range []Norm{OneNorm, InfNorm} {
				got, want := cond.MatrixNorm(a.Data(), n, norm == InfNorm), must(Lange(norm, a))
				if !(math.Abs(got-want) <= tol*want) || want == 0 {
					t.Errorf("n=%d scale %g norm %c: %g, lange %g", n, sc, norm, got, want)
				}
			}
		}
	}
	m := tm.Rand(rng, 5, 5, true)
	m.Set(2, 3, complex(math.NaN(), 0))
	a := tm.From[T](m, tm.ColPacked).V
	for _, inf := range []bool{false, true} {
		if r := cond.MatrixNorm(a.Data(), 5, inf); !math.IsNaN(r) {
			t.Errorf("NaN entry: norm %g, want NaN", r)
		}
	}
}

func TestMatrixNorm(t *testing.T) {
	tm.ForTypes(t, testMatrixNorm[float32], testMatrixNorm[float64], testMatrixNorm[complex64], testMatrixNorm[complex128])
}

// A matrix built against Hager's iteration: A = I - s u v^T with u and v
// orthogonal to each other and to e = (1, ..., 1) and v_0 = 0, so A^-1 =
// I + s u v^T maps e/n (the start), the sign vector e and e_0 (the next
// probe) to themselves: in exact arithmetic the first products see
// ||A^-1||_1 = 1 where it is about 2 s n, and only ?lacn2's final
// alternating vector (x_1 - x_3 = 2/(n-1) != 0 along v) finds the large
// part. The estimate must be gecon's, at most 1000x above the exact rcond
// (it is within 3% in every type: rounding in the factors helps the
// iteration here) and far below the naive 1/||A||_1 (rcond as if
// ||A^-1|| were 1).
func testCondEstimateAdversarial[T Scalar](t *testing.T) {
	const n, s = 20, 1e3
	m := tm.Eye(n)
	for i := range n {
		u := complex(float64(1-2*(i%2)), 0) // (-1)^i
		for j, vj := range map[int]float64{1: 1, 3: -1} {
			m.Set(i, j, m.At(i, j)-complex(s*vj, 0)*u)
		}
	}
	a := fromM[T](m)
	f, ok := condOf(t, a)
	if !ok {
		t.Fatal("singular")
	}
	if !(f.est >= f.gecon*(1-1e-6) && f.est <= f.gecon*(1+1e-6)) || !(f.est <= 1000*f.exact) || !(f.est >= f.exact/2) {
		t.Errorf("estimate %g, gecon %g, exact %g: want gecon's, within [0.5, 1000] x exact", f.est, f.gecon, f.exact)
	}
	anorm := must(Lange(OneNorm, a))
	if naive := 1 / anorm; !(f.est < naive/100) {
		t.Errorf("estimate %g: the naive bound 1/||A|| = %g was not improved on", f.est, naive)
	}
}

func TestCondEstimateAdversarial(t *testing.T) {
	tm.ForTypes(t, testCondEstimateAdversarial[float32], testCondEstimateAdversarial[float64], testCondEstimateAdversarial[complex64], testCondEstimateAdversarial[complex128])
}
