package lapack

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Expm: against exp of the eigen-decomposition (Hermitian matrices),
// scipy.linalg.expm, closed forms, every layout, the BLAS and LAPACK calls
// it makes, and its errors.

func TestExpm(t *testing.T) {
	tm.ForTypes(t, testExpm[float32], testExpm[float64], testExpm[complex64], testExpm[complex128])
}

// expmNorms hit every degree of both precisions (double: 3, 5, 7, 9, 13
// up to 5.37; single: 3, 5, 7 up to 3.93) and need 0 to 5 squarings.
var expmNorms = []float64{0.01, 0.2, 0.9, 2, 5, 30, 100}

// expmTol is the relative (Frobenius) error allowed for exp(a): the
// truncation error of the Pade approximant is below eps, and rounding in
// the products and the squarings grows with n and with ||a||_1 (Higham
// 2005, section 3).
func expmTol[T Scalar](n int, norm float64) float64 {
	return 50 * float64(max(n, 1)) * scalar.Eps[T]() * max(1, norm)
}

// withNorm returns m scaled to one norm nrm.
func withNorm(m tm.M, nrm float64) tm.M {
	s := nrm / norm1(m)
	out := tm.Zeros(m.R, m.C)
	for i, x := range m.D {
		out.D[i] = x * complex(s, 0)
	}
	return out
}

// expOfHermitian is V exp(L) V^H for the Hermitian h, from EigSym in
// complex128 whatever the type under test.
func expOfHermitian(t *testing.T, h tm.M) tm.M {
	t.Helper()
	w, v, err := EigSym(tm.From[complex128](h, tm.ColPacked).V)
	if err != nil {
		t.Fatal(err)
	}
	vm := tm.Of(v.View())
	scaled := tm.Zeros(h.R, h.C)
	for j := range h.C {
		e := complex(math.Exp(w[j]), 0)
		for i := range h.R {
			scaled.Set(i, j, vm.At(i, j)*e)
		}
	}
	return scaled.Mul(vm.H())
}

// randHermitian returns a random n x n Hermitian (real symmetric for real
// types) matrix of one norm nrm, rounded to T.
func randHermitian[T Scalar](rng *rand.Rand, n int, nrm float64) tm.M {
	b := tm.Rand(rng, n, n, !tm.IsComplex[T]())
	h := withNorm(b.Add(b.H()), nrm)
	for i := range n { // exactly Hermitian: a real diagonal
		h.Set(i, i, complex(real(h.At(i, i)), 0))
	}
	return tm.Of(tm.From[T](h, tm.ColPacked).V) // rounded to T
}

func testExpm[T Scalar](t *testing.T) {
	rng := newRand(t)
	t.Run("eigen", func(t *testing.T) {
		for _, n := range []int{1, 2, 5, 20, 64} {
			for _, nrm := range expmNorms {
				h := randHermitian[T](rng, n, nrm)
				k := tm.Kind(n % int(tm.NumKinds)) // a layout of every class across the sizes
				a := tm.From[T](h, k)
				r, err := Expm(a.V)
				if err != nil {
					t.Fatalf("n=%d norm %g: %v", n, nrm, err)
				}
				untouched(t, fmt.Sprintf("Expm n=%d %v", n, k), a, h)
				tm.Close(t, fmt.Sprintf("exp n=%d norm %g %v", n, nrm, k), tm.Of(r.View()), expOfHermitian(t, h), expmTol[T](n, nrm))
				r.Release()
			}
		}
	})
	t.Run("scipy", func(t *testing.T) { expmAgainstScipy[T](t, rng) })
	t.Run("closed", func(t *testing.T) { expmClosedForms[T](t) })
	t.Run("layouts", func(t *testing.T) { expmLayouts[T](t, rng) })
	t.Run("calls", func(t *testing.T) { expmCalls[T](t, rng) })
	t.Run("errors", func(t *testing.T) { expmErrors[T](t) })
}

// expmAgainstScipy compares Expm with scipy.linalg.expm (in double
// precision) on random general matrices of every norm in expmNorms.
func expmAgainstScipy[T Scalar](t *testing.T, rng *rand.Rand) {
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import scipy.linalg").Run(); err != nil {
		t.Skipf("scipy.linalg.expm not available (%s -c 'import scipy.linalg': %v); scripts/setup.sh installs python3-scipy", py, err)
	}
	type mat struct {
		N      int       `json:"n"`
		Re, Im []float64 // column-major
	}
	var in []mat
	var ms []tm.M
	for _, n := range []int{1, 3, 10, 40} {
		for _, nrm := range expmNorms {
			m := tm.Of(tm.From[T](withNorm(tm.Rand(rng, n, n, !tm.IsComplex[T]()), nrm), tm.ColPacked).V)
			x := mat{N: n}
			for _, v := range m.D {
				x.Re, x.Im = append(x.Re, real(v)), append(x.Im, imag(v))
			}
			in, ms = append(in, x), append(ms, m)
		}
	}
	js, _ := json.Marshal(in)
	cmd := exec.Command(py, "-c", `
import json, sys
import numpy as np
from scipy.linalg import expm
out = []
for m in json.load(sys.stdin):
    n = m["n"]
    a = (np.array(m["Re"]) + 1j * np.array(m["Im"])).reshape((n, n), order="F")
    if not np.any(a.imag):
        a = a.real
    e = np.asarray(expm(a), dtype=complex).reshape(-1, order="F")
    out.append({"n": n, "Re": e.real.tolist(), "Im": e.imag.tolist()})
json.dump(out, sys.stdout)
`)
	cmd.Stdin = strings.NewReader(string(js))
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("scipy: %v", err)
	}
	var want []mat
	if err := json.Unmarshal(res, &want); err != nil || len(want) != len(ms) {
		t.Fatalf("scipy's answer: %v (%d matrices for %d)", err, len(want), len(ms))
	}
	for i, m := range ms {
		w := tm.Zeros(m.R, m.C)
		for j := range w.D {
			w.D[j] = complex(want[i].Re[j], want[i].Im[j])
		}
		r, err := Expm(tm.From[T](m, tm.ColPacked).V)
		if overflows[T](w) { // exp(a) exceeds T: Expm must say so
			if r != nil || !errors.Is(err, lapis.ErrNotFinite) {
				t.Fatalf("n=%d norm %.3g: exp(a) overflows %s, got %v", m.R, norm1(m), tm.TypeName[T](), err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("n=%d norm %.3g: %v", m.R, norm1(m), err)
		}
		tm.Close(t, fmt.Sprintf("n=%d norm %.3g against scipy", m.R, norm1(m)), tm.Of(r.View()), w, expmTol[T](m.R, norm1(m)))
		r.Release()
	}
}

// overflows reports whether an element of m lies beyond T's largest value.
func overflows[T Scalar](m tm.M) bool {
	big := math.MaxFloat64
	if scalar.Eps[T]() > 0x1p-52 {
		big = math.MaxFloat32
	}
	for _, x := range m.D {
		if math.Abs(real(x)) > big || math.Abs(imag(x)) > big {
			return true
		}
	}
	return false
}

// expmClosedForms checks matrices whose exponential is known exactly.
func expmClosedForms[T Scalar](t *testing.T) {
	run := func(what string, a tm.M, want tm.M, tol float64) {
		t.Helper()
		r, err := Expm(tm.From[T](a, tm.ColPacked).V)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		tm.Close(t, what, tm.Of(r.View()), want, tol)
		r.Release()
	}
	// exp(0) = I, exactly: r_m(0) = b_0 I / b_0 I.
	for _, n := range []int{1, 4, 33} {
		run(fmt.Sprintf("exp(0) n=%d", n), tm.Zeros(n, n), tm.Eye(n), 0)
	}
	// A nilpotent N (N^4 = 0): exp(N) = I + N + N^2/2 + N^3/6, with
	// ||N||_1 = 14 and scaled to 100 (scaling and squaring both).
	for _, s := range []float64{1, 100.0 / 14} {
		n := tm.Zeros(4, 4)
		for j, col := range [][]float64{{}, {1}, {2, 4}, {3, 5, 6}} {
			for i, x := range col {
				n.Set(i, j, complex(x*s, 0))
			}
		}
		n2 := n.Mul(n)
		want := tm.Eye(4).Add(n).Add(withNorm(n2, norm1(n2)/2)).Add(withNorm(n2.Mul(n), norm1(n2.Mul(n))/6))
		run(fmt.Sprintf("nilpotent norm %g", norm1(n)), n, want, expmTol[T](4, norm1(n)))
	}
	// The rotation generator [[0, -th], [th, 0]]: exp is the rotation by
	// th (norm th; 100 needs 5 squarings in double precision).
	for _, th := range []float64{1e-3, 0.5, 1, 3, 30, 100} {
		g := tm.Zeros(2, 2)
		g.Set(0, 1, complex(-th, 0))
		g.Set(1, 0, complex(th, 0))
		rot := tm.Zeros(2, 2)
		c, s := math.Cos(th), math.Sin(th)
		rot.Set(0, 0, complex(c, 0))
		rot.Set(0, 1, complex(-s, 0))
		rot.Set(1, 0, complex(s, 0))
		rot.Set(1, 1, complex(c, 0))
		run(fmt.Sprintf("rotation by %g", th), g, rot, expmTol[T](2, th))
	}
	// A Jordan block [[l, x], [0, l]]: exp = e^l [[1, x], [0, 1]].
	for _, c := range []struct{ l, x float64 }{{1, 100}, {-3, 50}, {2, 0.1}} {
		a, want := tm.Zeros(2, 2), tm.Zeros(2, 2)
		el := math.Exp(c.l)
		a.Set(0, 0, complex(c.l, 0))
		a.Set(1, 1, complex(c.l, 0))
		a.Set(0, 1, complex(c.x, 0))
		want.Set(0, 0, complex(el, 0))
		want.Set(1, 1, complex(el, 0))
		want.Set(0, 1, complex(el*c.x, 0))
		run(fmt.Sprintf("Jordan block %g, %g", c.l, c.x), a, want, expmTol[T](2, norm1(a)))
	}
	// Diagonal, with entries far apart: each e^d_i, the small ones to the
	// accuracy of the backward error bound (relative to ||a||_1 = 20, not to
	// |d_i|: the Pade numerator of a negative argument cancels).
	d := []float64{-20, -1, 0, 0.5, 7}
	a, want := tm.Zeros(5, 5), tm.Zeros(5, 5)
	for i, x := range d {
		a.Set(i, i, complex(x, 0))
		want.Set(i, i, complex(math.Exp(x), 0))
	}
	r, err := Expm(tm.From[T](a, tm.ColPacked).V)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range d {
		if got := real(scalar.Complex128(r.At(i, i))); math.Abs(got-math.Exp(x)) > expmTol[T](1, 20)*math.Exp(x) {
			t.Errorf("exp(diag)[%d] = %g, want %g", i, got, math.Exp(x))
		}
	}
	r.Release()
	if tm.IsComplex[T]() { // exp(i th I) = (cos th + i sin th) I
		for _, th := range []float64{0.3, 40} {
			a := tm.Eye(3)
			for i := range a.D {
				a.D[i] *= complex(0, th)
			}
			want := tm.Eye(3)
			for i := range want.D {
				want.D[i] *= cmplx.Exp(complex(0, th))
			}
			run(fmt.Sprintf("exp(i %g I)", th), a, want, expmTol[T](3, th))
		}
	}
}

// expmLayouts: every layout class gives the same bits as the column-major
// copy (Expm works on one compact copy), with no copy counted; transposed
// and conjugated views give the transpose and the conjugate.
func expmLayouts[T Scalar](t *testing.T, rng *rand.Rand) {
	n := 7
	m := tm.Of(tm.From[T](withNorm(tm.Rand(rng, n, n, !tm.IsComplex[T]()), 3), tm.ColPacked).V)
	r0, err := Expm(tm.From[T](m, tm.ColPacked).V)
	if err != nil {
		t.Fatal(err)
	}
	e := tm.Of(r0.View())
	for k := range tm.NumKinds {
		a := tm.From[T](m, k)
		var r *views.Tensor[T]
		c := copies(func() { r, err = Expm(a.V, lapis.Strict(true)) })
		if err != nil || c != 0 {
			t.Fatalf("%v: %v, %d copies", k, err, c)
		}
		untouched(t, fmt.Sprintf("Expm %v", k), a, m)
		if !slices.Equal(r.Data(), r0.Data()) {
			t.Errorf("%v: not the column-major result", k)
		}
		r.Release()
		rt, err := Expm(a.V.T()) // exp(a^T) = exp(a)^T
		if err != nil {
			t.Fatal(err)
		}
		tm.Close(t, fmt.Sprintf("exp(a^T) %v", k), tm.Of(rt.View()), e.T(), expmTol[T](n, 3))
		rt.Release()
		rh, err := Expm(a.V.H()) // exp(a^H) = exp(a)^H
		if err != nil {
			t.Fatal(err)
		}
		tm.Close(t, fmt.Sprintf("exp(a^H) %v", k), tm.Of(rh.View()), e.H(), expmTol[T](n, 3))
		rh.Release()
	}
	// A strided window: every other row and column of a larger matrix.
	big := tm.New[T](rng, 2*n, 2*n, tm.ColStrided)
	win, err := big.V.Slice(0, 1, 2*n, 2)
	if err == nil {
		win, err = win.Slice(1, 0, 2*n, 2)
	}
	if err != nil {
		t.Fatal(err)
	}
	wm := tm.Of(win)
	rw, err := Expm(win)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Expm(tm.From[T](wm, tm.ColPacked).V)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rw.Data(), want.Data()) {
		t.Error("strided window: not the column-major result")
	}
	rw.Release()
	want.Release()
	r0.Release()
}

// expmCalls proves the O(n^3) work runs in BLAS and LAPACK: the products
// of the chosen degree and the squarings are cblas calls (OpenBLAS, or
// cblas's Go path for tiny ones), the solve one LAPACK call.
func expmCalls[T Scalar](t *testing.T, rng *rand.Rand) {
	single := scalar.Eps[T]() > 0x1p-52
	for _, c := range []struct {
		norm               float64
		products32, prod64 int // products for single and double precision
	}{
		{0.01, 2, 2},       // m = 3 in both: a^2, u = a (b3 a^2 + b1 I)
		{0.9, 3, 4},        // single m = 5: a^2, a^4, u; double m = 7: and a^6
		{2, 4, 5},          // single m = 7; double m = 9: a^2 ... a^8, u
		{30, 4 + 3, 6 + 3}, // single m = 7, double m = 13 (6 products), both 3 squarings
	} {
		a := tm.From[T](withNorm(tm.Rand(rng, 32, 32, !tm.IsComplex[T]()), c.norm), tm.ColPacked)
		before := lapis.ReadStats()
		r, err := Expm(a.V)
		after := lapis.ReadStats()
		if err != nil {
			t.Fatal(err)
		}
		r.Release()
		want := c.prod64
		if single {
			want = c.products32
		}
		if got := (after.Calls + after.Small) - (before.Calls + before.Small); got != int64(want) {
			t.Errorf("norm %g: %d BLAS calls, want %d products", c.norm, got, want)
		}
		if got := after.Lapack - before.Lapack; got != 1 {
			t.Errorf("norm %g: %d LAPACK calls, want 1 (gesv)", c.norm, got)
		}
		if after.Copies != before.Copies {
			t.Errorf("norm %g: %d copies", c.norm, after.Copies-before.Copies)
		}
	}
}

func expmErrors[T Scalar](t *testing.T) {
	shape := func(what string, v views.View[T], sentinel error) {
		t.Helper()
		r, err := Expm(v)
		var le *layout.Error
		if r != nil || !errors.As(err, &le) || le.Arg != "a" || le.Op != "lapack.Expm" || !errors.Is(err, sentinel) {
			t.Errorf("%s: %v, %v; want an error matching %v naming lapack.Expm and a", what, r, err, sentinel)
		}
	}
	shape("2x3", must(views.Zeros[T](2, 3)).View(), layout.ErrShape)
	shape("rank 3", must(views.Zeros[T](2, 2, 2)).View(), layout.ErrShape)
	shape("rank 1", must(views.Zeros[T](4)).View(), layout.ErrShape)
	shape("zero View", views.View[T]{}, layout.ErrBounds) // no view of anything (views.View.IsZero)

	rel := must(views.Zeros[T](2, 2))
	rv := rel.View()
	rel.Release()
	if _, err := Expm(rv); !errors.Is(err, lapis.ErrReleased) {
		t.Errorf("released view: %v", err)
	}

	for _, bad := range []T{tm.NaN[T](), tm.FromParts[T](math.Inf(1), 0), tm.FromParts[T](0, math.Inf(-1))} {
		if !tm.IsComplex[T]() && scalar.IsFinite(bad) {
			continue // an imaginary infinity of a real type is 0
		}
		a := tm.From[T](tm.Eye(3), tm.RowStrided)
		a.V.Set(bad, 2, 1)
		before := lapis.ReadStats()
		r, err := Expm(a.V)
		after := lapis.ReadStats()
		if r != nil || !errors.Is(err, lapis.ErrNotFinite) || !strings.Contains(err.Error(), "element (2, 1)") || !strings.Contains(err.Error(), "Expm") {
			t.Errorf("%v at (2, 1): %v, %v", bad, r, err)
		}
		if after.Calls+after.Small+after.Lapack != before.Calls+before.Small+before.Lapack {
			t.Errorf("%v: BLAS or LAPACK ran on non-finite input", bad)
		}
	}

	// Overflow: exp(1000) exceeds every T.
	big := tm.Zeros(2, 2)
	big.Set(0, 0, 1000)
	big.Set(1, 0, 1)
	if r, err := Expm(tm.From[T](big, tm.ColPacked).V); r != nil || !errors.Is(err, lapis.ErrNotFinite) || !strings.Contains(err.Error(), "result") {
		t.Errorf("exp of norm 1001: %v, %v; want an error naming the result", r, err)
	}
	// exp(-1000) underflows to 0: finite, no error.
	big.Set(0, 0, -1000)
	r, err := Expm(tm.From[T](big, tm.ColPacked).V)
	if err != nil || tm.Abs(r.At(0, 0)) != 0 || tm.Abs(r.At(1, 1)-1) > expmTol[T](2, 1001) {
		t.Errorf("exp of [[-1000, 0], [1, 0]]: %v, %v", r, err)
	}
	if r != nil {
		r.Release()
	}
	// 0 x 0: an empty result.
	if r, err := Expm(must(views.Zeros[T](0, 0)).View()); err != nil || r.Len() != 0 || !slices.Equal(r.Shape(), []int{0, 0}) {
		t.Errorf("0x0: %v, %v", r, err)
	}
}
