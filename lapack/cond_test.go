package lapack

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Cond: numpy.linalg.cond's values, singular matrices, the one and
// infinity norm figures against ||a|| ||a^-1|| from Inv, every layout,
// and the errors.

func TestCond(t *testing.T) {
	tm.ForTypes(t, testCond[float32], testCond[float64], testCond[complex64], testCond[complex128])
}

var condNorms = []Norm{TwoNorm, Frobenius, OneNorm, InfNorm}

// condNum returns Cond of m (a T matrix of layout k) or fails t.
func condNum[T Scalar](t *testing.T, norm Norm, m tm.M, k tm.Kind) float64 {
	t.Helper()
	a := tm.From[T](m, k)
	in := tm.Of(a.V) // m rounded to T
	var c float64
	var err error
	n := copies(func() { c, err = Cond(norm, a.V, lapis.Strict(true)) }) // one working copy, not counted
	if err != nil || n != 0 {
		t.Fatalf("Cond(%c) of %dx%d %v: %v, %d copies", norm, m.R, m.C, k, err, n)
	}
	untouched(t, fmt.Sprintf("Cond(%c) %v", norm, k), a, in)
	return c
}

func closeRel(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

func fromRows(rows [][]complex128) tm.M {
	m := tm.Zeros(len(rows), len(rows[0]))
	for i, r := range rows {
		for j, x := range r {
			m.Set(i, j, x)
		}
	}
	return m
}

func hilbert(n int) tm.M {
	m := tm.Zeros(n, n)
	for i := range n {
		for j := range n {
			m.Set(i, j, complex(1/float64(i+j+1), 0))
		}
	}
	return m
}

func testCond[T Scalar](t *testing.T) {
	eps := scalar.Eps[T]()
	single := eps > 0x1p-52
	rng := newRand(t)

	// numpy.linalg.cond(a, p) for p = None (2), 'fro', 1, inf.
	type condCase struct {
		what   string
		a      tm.M
		want   [4]float64 // TwoNorm, Frobenius, OneNorm, InfNorm
		single bool       // meaningful in single precision
	}
	numpy := []condCase{
		{"[[1 2] [3 4]]", fromRows([][]complex128{{1, 2}, {3, 4}}), [4]float64{14.933034373659265, 15, 21, 21}, true},
		{"diag(1, 2, 10)", fromRows([][]complex128{{1, 0, 0}, {0, 2, 0}, {0, 0, 10}}), [4]float64{10, 11.502173707608488, 10, 10}, true},
		{"diag(-1e-3, 1e3)", fromRows([][]complex128{{-1e-3, 0}, {0, 1e3}}), [4]float64{1e6, 1e6 + 1e-6, 1e6, 1e6}, true},
		{"hilbert(4)", hilbert(4), [4]float64{15513.738738929662, 15613.793559642412, 28374.99999999746, 28374.99999999746}, true},
		{"hilbert(8)", hilbert(8), [4]float64{15257575563.722723, 15493618757.610018, 33872792583.600975, 33872792586.995754}, false},
	}
	if tm.IsComplex[T]() {
		numpy = append(numpy,
			condCase{"[[1 i] [i 1]]", fromRows([][]complex128{{1, 1i}, {1i, 1}}), [4]float64{1, 2, 2, 2}, true}, // sqrt(2) times a unitary matrix
			condCase{"diag(i, -10)", fromRows([][]complex128{{1i, 0}, {0, -10}}), [4]float64{10, math.Sqrt(101 * 1.01), 10, 10}, true})
	}
	for _, c := range numpy {
		if single && !c.single {
			continue // cond(hilbert(8)) = 1.5e10 is beyond 1/eps of float32
		}
		// The hilbert matrices are rounded to T: allow for that
		// perturbation (relative eps, times the condition number).
		tol := 20 * eps * max(1, math.Sqrt(c.want[0]))
		if strings.HasPrefix(c.what, "hilbert") {
			tol = 20 * eps * c.want[0]
		}
		for i, nm := range condNorms {
			for _, k := range []tm.Kind{tm.ColPacked, tm.RowStrided, tm.Reversed} {
				if got := condNum[T](t, nm, c.a, k); !closeRel(got, c.want[i], tol) {
					t.Errorf("Cond(%c, %s) %v = %.17g, want numpy's %.17g", nm, c.what, k, got, c.want[i])
				}
			}
		}
	}

	// Rectangular: the two norm only, sigma_max / sigma_min of either
	// orientation.
	rect := fromRows([][]complex128{{3, 0}, {0, -0.5}, {0, 0}})
	for _, v := range []tm.M{rect, rect.H()} {
		if got := condNum[T](t, TwoNorm, v, tm.ColStrided); !closeRel(got, 6, 4*eps) {
			t.Errorf("Cond(2) of %dx%d = %g, want 6", v.R, v.C, got)
		}
	}

	// Singular: +Inf (no error) where the zero is exact in the
	// factorisation; merely rounded singularity gives about 1/eps.
	for _, c := range []struct {
		what string
		a    tm.M
	}{
		{"zero 3x3", tm.Zeros(3, 3)},
		{"zero column", fromRows([][]complex128{{1, 0}, {2, 0}})},
		{"zero row", fromRows([][]complex128{{1, 2, 3}, {0, 0, 0}, {4, 5, 6}})},
		{"repeated row", fromRows([][]complex128{{1, 2}, {1, 2}})},
	} {
		for _, nm := range condNorms {
			if got := condNum[T](t, nm, c.a, tm.ColPacked); !math.IsInf(got, 1) && !(got > 0.01/eps) {
				t.Errorf("Cond(%c) of a singular %s = %g, want +Inf", nm, c.what, got)
			}
		}
		if got := condNum[T](t, OneNorm, c.a, tm.RowPacked); !math.IsInf(got, 1) {
			t.Errorf("Cond(1) of a singular %s = %g, want +Inf (a zero pivot)", c.what, got)
		}
	}
	if got := condNum[T](t, TwoNorm, tm.Zeros(4, 2), tm.ColPacked); !math.IsInf(got, 1) {
		t.Errorf("Cond(2) of a zero 4x2 = %g, want +Inf", got)
	}
	for _, nm := range condNorms {
		if got := condNum[T](t, nm, tm.Zeros(0, 0), tm.ColPacked); got != 1 {
			t.Errorf("Cond(%c) of 0x0 = %g, want 1", nm, got)
		}
	}

	// The one and infinity norm figures against ||a|| ||a^-1|| with the
	// inverse from Inv: exact to rounding up to order 16, and an estimate
	// within 3x (a lower bound) above. The two norm and Frobenius against
	// SVD's singular values.
	for _, n := range []int{1, 3, 16, 17, 40, 100} {
		for _, graded := range []bool{false, true} {
			m := tm.Rand(rng, n, n, !tm.IsComplex[T]())
			if graded { // entries scaled over 1e-3 ... 1e3 (1e-1 ... 1e1 for single precision)
				decades := 3.0
				if single {
					decades = 1
				}
				for j := range n {
					for i := range n {
						s := math.Pow(10, decades*float64(i-j)/float64(max(1, n-1)))
						m.Set(i, j, m.At(i, j)*complex(s, 0))
					}
				}
			}
			m = tm.Of(tm.From[T](m, tm.ColPacked).V) // rounded to T
			what := fmt.Sprintf("n=%d graded=%v", n, graded)
			inv, err := Inv(tm.From[T](m, tm.ColPacked).V, lapis.NoConditionCheck())
			if err != nil {
				t.Fatal(what, err)
			}
			im := tm.Of(inv.View())
			inv.Release()
			exact1, exactI := norm1(m)*norm1(im), norm1(m.T())*norm1(im.T())
			for _, k := range []tm.Kind{tm.ColPacked, tm.RowPacked, tm.General} {
				for nm, exact := range map[Norm]float64{OneNorm: exact1, InfNorm: exactI} {
					got := condNum[T](t, nm, m, k)
					lo, hi := exact/3, exact*(1+float64(n)*eps*exact)
					if n <= 16 {
						lo = exact * (1 - float64(n)*eps*exact)
					}
					if !(got >= lo && got <= hi) {
						t.Errorf("Cond(%c) %s %v = %.6g, exact %.6g (want within [%.6g, %.6g])", nm, what, k, got, exact, lo, hi)
					}
				}
			}
			s, _, _, err := SVD(tm.From[T](m, tm.ColPacked).V)
			if err != nil {
				t.Fatal(err)
			}
			big, small := 0.0, 0.0
			for _, x := range s {
				big, small = big+x*x, small+1/(x*x)
			}
			for nm, want := range map[Norm]float64{TwoNorm: s[0] / s[n-1], Frobenius: math.Sqrt(big * small)} {
				// Small singular values are accurate to eps s[0]: relative
				// to the condition number.
				if got := condNum[T](t, nm, m, tm.Reversed); !closeRel(got, want, 10*float64(n)*eps*s[0]/s[n-1]) {
					t.Errorf("Cond(%c) %s = %.17g, want %.17g from SVD", nm, what, got, want)
				}
			}
		}
	}

	// Transposed and conjugated views: cond_1(a^T) = cond_inf(a), and
	// conjugation changes nothing.
	m := tm.Of(tm.New[T](rng, 6, 6, tm.ColPacked).V)
	a := tm.From[T](m, tm.ColStrided)
	for _, c := range []struct {
		what     string
		v        views.View[T]
		nm, same Norm
	}{
		{"a^T", a.V.T(), OneNorm, InfNorm},
		{"a^H", a.V.H(), InfNorm, OneNorm},
		{"conj(a)", a.V.Conj(), OneNorm, OneNorm},
		{"conj(a)", a.V.Conj(), TwoNorm, TwoNorm},
		{"a^T", a.V.T(), Frobenius, Frobenius},
	} {
		got, err := Cond(c.nm, c.v)
		if err != nil {
			t.Fatal(err)
		}
		want := condNum[T](t, c.same, m, tm.ColPacked)
		if !closeRel(got, want, 100*eps*want) {
			t.Errorf("Cond(%c, %s) = %.17g, want Cond(%c, a) = %.17g", c.nm, c.what, got, c.same, want)
		}
	}

	condErrors[T](t)
}

func condErrors[T Scalar](t *testing.T) {
	isArg := func(err error, sentinel error, arg string) bool {
		var le *layout.Error
		return errors.As(err, &le) && le.Arg == arg && le.Op == "lapack.Cond" && errors.Is(err, sentinel)
	}
	sq := must(views.Zeros[T](2, 2)).View()
	for _, nm := range []Norm{MaxAbs, 0, 'x'} {
		if _, err := Cond(nm, sq); !isArg(err, lapis.ErrInvalid, "norm") {
			t.Errorf("Cond(%q): %v", byte(nm), err)
		}
	}
	for _, nm := range condNorms {
		shapes := map[string]views.View[T]{
			"rank 1": must(views.Zeros[T](3)).View(),
			"rank 3": must(views.Zeros[T](2, 2, 2)).View(),
		}
		if nm != TwoNorm {
			shapes["2x3"] = must(views.Zeros[T](2, 3)).View()
		}
		for what, v := range shapes {
			if c, err := Cond(nm, v); c != 0 || !isArg(err, layout.ErrShape, "a") {
				t.Errorf("Cond(%c) of %s: %g, %v", nm, what, c, err)
			}
		}
		if c, err := Cond(nm, views.View[T]{}); c != 0 || !isArg(err, layout.ErrBounds, "a") { // no view of anything (views.View.IsZero)
			t.Errorf("Cond(%c) of the zero View: %g, %v", nm, c, err)
		}
		rel := must(views.Zeros[T](2, 2))
		rv := rel.View()
		rel.Release()
		if _, err := Cond(nm, rv); !errors.Is(err, lapis.ErrReleased) {
			t.Errorf("Cond(%c) of a released view: %v", nm, err)
		}
		// NaN and Inf: refused before LAPACK runs, naming the element.
		for _, bad := range []T{tm.NaN[T](), tm.FromParts[T](math.Inf(-1), 0)} {
			a := tm.From[T](tm.Eye(3), tm.RowPacked)
			a.V.Set(bad, 1, 2)
			before := lapis.ReadStats()
			c, err := Cond(nm, a.V)
			after := lapis.ReadStats()
			if c != 0 || !errors.Is(err, lapis.ErrNotFinite) || !strings.Contains(err.Error(), "element (1, 2)") {
				t.Errorf("Cond(%c) with %v at (1, 2): %g, %v", nm, bad, c, err)
			}
			if after.Lapack != before.Lapack {
				t.Errorf("Cond(%c) with %v: LAPACK ran", nm, bad)
			}
		}
	}
}
