package lapack

import (
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Rank deficiency is an error for the solves that assume full rank:
// column 1 = 2 x column 0 gives nil from LAPACK's gels, which notices
// only an exactly zero diagonal of R.
func testRankDeficient[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 2))
	for _, sz := range [][2]int{{5, 3}, {40, 20}, {3, 5}, {2, 2}} {
		m, n := sz[0], sz[1]
		for _, kind := range []tm.Kind{tm.ColPacked, tm.RowPacked, tm.General} {
			name := fmt.Sprintf("%dx%d %v", m, n, kind)
			a := tm.New[T](rng, m, n, kind)
			if m >= n {
				for i := range m { // column 1 = 2 x column 0
					a.V.Set(2*a.V.At(i, 0), i, 1)
				}
			} else {
				for j := range n { // row 1 = 2 x row 0
					a.V.Set(2*a.V.At(0, j), 1, j)
				}
			}
			full := tm.New[T](rng, m, n, kind)
			b := tm.New[T](rng, max(m, n), 2, tm.ColPacked)
			bm, _ := b.V.Slice(0, 0, m, 1)

			// Gels: the error, with Rcond; full rank is still fine.
			for _, c := range []struct {
				what string
				a    tm.Operand[T]
				want error
			}{{"deficient", a, ErrRankDeficient}, {"full", full, nil}} {
				ac, bc := c.a.V.ToColMajor(), b.V.ToColMajor()
				err := Gels(ac.View(), bc.View())
				var le *Error
				if c.want == nil && err != nil || c.want != nil && (!errors.Is(err, c.want) || !errors.Is(err, ErrSingular) || !errors.As(err, &le) || !(le.Rcond < 1e-5)) {
					t.Errorf("%s %s: Gels: %v, want %v", name, c.what, err, c.want)
				}
				ac2, bc2 := c.a.V.ToColMajor(), b.V.ToColMajor()
				// Without the check only LAPACK's exact-zero test remains.
				if err := Gels(ac2.View(), bc2.View(), lapis.NoConditionCheck()); err != nil && (c.want == nil || !errors.As(err, &le) || le.Info == 0) {
					t.Errorf("%s %s: Gels(NoConditionCheck): %v", name, c.what, err)
				}
			}

			// LeastSquares: the minimum-norm x comes back with the error and
			// the rank it found; NoConditionCheck accepts it.
			x, err := LeastSquares(a.V, bm)
			var le *Error
			if !errors.Is(err, ErrRankDeficient) || !errors.As(err, &le) || le.Rank != min(m, n)-1 || x == nil {
				t.Fatalf("%s: LeastSquares: x %v, %v; want the rank-%d error with x", name, x, err, min(m, n)-1)
			}
			x2, err := LeastSquares(a.V, bm, lapis.NoConditionCheck())
			if err != nil {
				t.Fatalf("%s: LeastSquares(NoConditionCheck): %v", name, err)
			}
			tm.Close(t, name+" same x", tm.Of(x2.View()), tm.Of(x.View()), 0)
			am, xm, bmm := tm.Of(a.V), tm.Of(x.View()), tm.Of(bm)
			if g, lim := am.H().Mul(am.Mul(xm).Sub(bmm)).Norm(), 100*tol[T](max(m, n))*am.Norm()*(am.Norm()*xm.Norm()+bmm.Norm()); !(g <= lim) {
				t.Errorf("%s: normal equations |A^H (A x - b)| = %.3g > %.3g", name, g, lim)
			}
			if _, err := LeastSquares(full.V, bm); err != nil {
				t.Errorf("%s: LeastSquares on a full-rank a: %v", name, err)
			}
		}
	}
}

func TestRankDeficient(t *testing.T) {
	tm.ForTypes(t, testRankDeficient[float32], testRankDeficient[float64], testRankDeficient[complex64], testRankDeficient[complex128])
}

var _ = views.Copy[float64]

// A rank-1 b is a right-hand side of one column in every low-level solver,
// for any stride; the result equals the n x 1 one.
func TestVectorRHS(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 3))
	const n = 5
	spd := func() tm.Operand[float64] {
		x := tm.Rand(rng, n, n, true)
		p := x.Mul(x.H())
		for i := range n {
			p.Set(i, i, p.At(i, i)+n)
		}
		return tm.From[float64](p, tm.ColPacked)
	}
	for _, stride := range []int{1, -2} {
		for name, solve := range map[string]func(a views.View[float64], b views.View[float64]) error{
			"Gesv":  func(a, b views.View[float64]) error { return Gesv(a, b, make([]int32, n)) },
			"Posv":  func(a, b views.View[float64]) error { return Posv(Lower, a, b) },
			"Gels":  func(a, b views.View[float64]) error { return Gels(a, b) },
			"Trtrs": func(a, b views.View[float64]) error { return Trtrs(Lower, NonUnit, a, b) },
			"Sysv":  func(a, b views.View[float64]) error { return Sysv(Lower, a, b, make([]int32, n)) },
			"Gelsd": func(a, b views.View[float64]) error { _, err := Gelsd(a, b, make([]float64, n), -1); return err },
		} {
			a := spd()
			bv := newStrided(rng, n, stride)
			bm := bv.ToColMajor()
			a1, a2 := a.V.ToColMajor(), a.V.ToColMajor()
			bmv, _ := bm.View().Reshape(n, 1)
			if err := solve(a1.View(), bv); err != nil {
				t.Fatalf("%s with a rank-1 b (stride %d): %v", name, stride, err)
			}
			if err := solve(a2.View(), bmv); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if bv.At(i) != bm.At(i) {
					t.Fatalf("%s stride %d: x[%d] = %v with a vector b, %v with n x 1", name, stride, i, bv.At(i), bm.At(i))
				}
			}
		}
	}
}

// newStrided returns a random vector view of n elements with the stride.
func newStrided(rng *rand.Rand, n, stride int) views.View[float64] {
	a := stride
	if a < 0 {
		a = -a
	}
	d := make([]float64, (n-1)*a+1)
	for i := range d {
		d[i] = rng.NormFloat64()
	}
	v, _ := views.FromSlice(d, must(layout.New([]int{n}, []int{stride}, max(0, -stride*(n-1)))))
	return v
}

// Empty and 1 x 1 conjugated views are addressable as they are: no copy, so
// strict mode accepts them, as it does a 2 x 2 a.H().
func TestConjTinyInPlace(t *testing.T) {
	empty := must(views.Zeros[complex128](0, 0))
	b0 := must(views.Zeros[complex128](0, 1))
	c0 := cblasCopies()
	if err := Gesv(empty.View().Conj(), b0.View(), nil, lapis.Strict(true)); err != nil {
		t.Errorf("Gesv on a 0 x 0 conjugated view: %v", err)
	}
	one := must(views.FromColMajor([]complex128{4}, 1, 1))
	h := one.View().H()
	if err := Potrf(Lower, h, lapis.Strict(true)); err != nil || one.At(0, 0) != 2 {
		t.Errorf("Potrf on a 1 x 1 H(): %v, factor %v; want 2", err, one.At(0, 0))
	}
	// (Gels's complex operands need room after them: see hasSpare.)
	x := must(views.FromColMajor(append(make([]complex128, 0, 8), 1+1i, 2-1i), 2, 1))
	a1 := must(views.FromColMajor(append(make([]complex128, 0, 4), 2+1i), 1, 1))
	if err := Gels(a1.View().Conj(), must(x.View().Slice(0, 0, 1, 1)), lapis.Strict(true)); err != nil {
		t.Errorf("Gels on a 1 x 1 conjugated view: %v", err)
	} else if got, want := x.At(0, 0), (1+1i)/(2-1i); cmplxAbs(got-want) > 1e-15 {
		t.Errorf("Gels 1 x 1 conj: x = %v, want %v", got, want)
	}
	if c := cblasCopies() - c0; c != 0 {
		t.Errorf("%d copies", c)
	}
}

func cblasCopies() int64 { return lapis.ReadStats().Copies }

func cmplxAbs(c complex128) float64 { return cmplx.Abs(c) }

// Solve and Inv report a matrix singular to working precision: [[1 2 3][4 5
// 6][7 8 9]] factors without a zero pivot in floating point, so LAPACK
// alone returns garbage with info 0.
func testIllConditioned[T Scalar](t *testing.T) {
	rows := [][]T{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	a := must(views.FromRows(rows))
	rowMajor := a.View().T() // a^T viewed row-major: solved through its storage
	b := must(views.FromColMajor([]T{1, 2, 3}, 3))
	// In some precisions LU meets an exactly zero pivot (ErrSingular, no
	// result); otherwise the check must say what LAPACK does not.
	exact := func(err error) bool {
		var le *Error
		return errors.As(err, &le) && le.Info > 0 && errors.Is(err, ErrSingular)
	}
	for name, av := range map[string]views.View[T]{"column-major": a.View(), "row-major": rowMajor} {
		x, err := Solve(av, b.View())
		var le *Error
		if !exact(err) && (!errors.Is(err, ErrIllConditioned) || !errors.Is(err, ErrSingular) || !errors.As(err, &le) || x == nil || !(le.Rcond < 1e-6)) {
			t.Errorf("%s: Solve: x %v, %v; want x with ErrIllConditioned", name, x != nil, err)
		}
		inv, err := Inv(av)
		if !exact(err) && (!errors.Is(err, ErrIllConditioned) || inv == nil) {
			t.Errorf("%s: Inv: %v; want the inverse with ErrIllConditioned", name, err)
		}
		if _, err := Solve(av, b.View(), lapis.NoConditionCheck()); err != nil && !exact(err) {
			t.Errorf("%s: Solve(NoConditionCheck): %v", name, err)
		}
		if _, err := Inv(av, lapis.NoConditionCheck()); err != nil && !exact(err) {
			t.Errorf("%s: Inv(NoConditionCheck): %v", name, err)
		}
	}
	// Singular to working precision with no zero pivot: [[1 1] [1 1+eps]]
	// (rcond about eps/4).
	e := scalar.FromFloat[T](scalar.Eps[T]())
	near := must(views.FromRows([][]T{{1, 1}, {1, 1 + e}}))
	b2 := must(views.FromColMajor([]T{1, 2}, 2))
	if x, err := Solve(near.View(), b2.View()); !errors.Is(err, ErrIllConditioned) || x == nil {
		t.Errorf("[[1 1] [1 1+eps]]: Solve: %v, want x with ErrIllConditioned", err)
	}
	if inv, err := Inv(near.View()); !errors.Is(err, ErrIllConditioned) || inv == nil {
		t.Errorf("[[1 1] [1 1+eps]]: Inv: %v, want the inverse with ErrIllConditioned", err)
	}
	good := must(views.FromRows([][]T{{4, 1, 0}, {1, 4, 1}, {0, 1, 4}}))
	if _, err := Solve(good.View(), b.View()); err != nil {
		t.Errorf("well-conditioned Solve: %v", err)
	}
	if _, err := Inv(good.View()); err != nil {
		t.Errorf("well-conditioned Inv: %v", err)
	}
}

func TestIllConditioned(t *testing.T) {
	tm.ForTypes(t, testIllConditioned[float32], testIllConditioned[float64], testIllConditioned[complex64], testIllConditioned[complex128])
}

// checkCondition's exact small path agrees with the exact value, and
// LAPACK's estimate (the path above condSmall) is within its usual factor.
func TestCheckConditionPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 9))
	for _, n := range []int{1, 3, 16, 17, 40} {
		a := tm.New[float64](rng, n, n, tm.ColPacked)
		for _, norm := range []Norm{OneNorm, InfNorm} {
			anorm := must(Lange(norm, a.V))
			lu := a.V.ToColMajor()
			if err := Getrf(lu.View(), make([]int32, n)); err != nil {
				t.Fatal(err)
			}
			inv := must(Inv(a.V))
			exact := 1 / (anorm * must(Lange(norm, inv.View())))
			est, err := Gecon(norm, lu.View(), anorm)
			if err != nil || est < exact/10 || est > exact*10 {
				t.Errorf("n=%d norm %c: gecon %g, exact %g", n, norm, est, exact)
			}

			if err := checkCondition("test", norm, lu.View(), anorm); err != nil {
				t.Errorf("n=%d: random matrix reported: %v", n, err)
			}
		}
	}
}
