package batch

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// TestNotFinite: a matrix with a NaN or an infinity in what the call
// reads gives its own error in the *Error, matching lapis.ErrNotFinite,
// naming the operand, the batch index and the element, and every other
// matrix's result is what the call gives without it. Before, Cholesky,
// Potrf and the solves returned a nil error and NaN results (OpenBLAS's
// potrf does not see a NaN), Solve "ill-conditioned ... rcond about NaN",
// Syevd and Gesdd NaN values or LAPACK's "did not converge". The element
// named is the input's on the tiny kernels (they flag the matrix and
// write nothing), in the To and allocating forms (the input is kept) and
// for Potrs's f; in place on the per-matrix path the input is gone and
// the error names what the routine left, and says so.
func TestNotFinite(t *testing.T) {
	const count, bad = 40, 17
	shape := []int{count}
	type result struct {
		out views.View[float64]
		err error
	}
	type tc struct {
		name    string
		n       int
		arg     string // the operand named, which gets the NaN (a or f; b: at (2, 0))
		inPlace bool   // in place on the per-matrix path: what the routine left
		call    func(a, b views.View[float64], opts []lapis.Option) result
	}
	tensor := func(x *views.Tensor[float64], err error) result {
		if x == nil {
			return result{err: err}
		}
		return result{x.View(), err}
	}
	cases := []tc{}
	for _, n := range []int{3, 10} { // the tiny kernels, and not
		cases = append(cases,
			tc{"Cholesky", n, "a", false, func(a, _ views.View[float64], o []lapis.Option) result { return tensor(Cholesky(Lower, a, o...)) }},
			tc{"CholeskyTo upper", n, "a", false, func(a, _ views.View[float64], o []lapis.Option) result {
				dst := zerosLike(a)
				return result{dst, CholeskyTo(Upper, dst, a, o...)}
			}},
			tc{"Potrf", n, "a", true, func(a, _ views.View[float64], o []lapis.Option) result { return result{a, Potrf(Lower, a, o...)} }},
			tc{"Solve", n, "a", false, func(a, b views.View[float64], o []lapis.Option) result { return tensor(Solve(a, b, o...)) }},
			tc{"SolveTo", n, "a", false, func(a, b views.View[float64], o []lapis.Option) result {
				x := zerosLike(b)
				return result{x, SolveTo(x, a, b, o...)}
			}},
			tc{"Gesv", n, "a", true, func(a, b views.View[float64], o []lapis.Option) result { return result{b, Gesv(a, b, o...)} }},
			tc{"Gesv nocheck NaN", n, "a", true, func(a, b views.View[float64], o []lapis.Option) result {
				return result{b, Gesv(a, b, append(o, lapis.NoConditionCheck())...)}
			}},
			tc{"Inv", n, "a", false, func(a, _ views.View[float64], o []lapis.Option) result { return tensor(Inv(a, o...)) }},
			tc{"InvTo in place", n, "a", true, func(a, _ views.View[float64], o []lapis.Option) result { return result{a, InvTo(a, a, o...)} }},
			tc{"CholeskySolve f", n, "f", false, func(a, b views.View[float64], o []lapis.Option) result {
				return tensor(CholeskySolve(Lower, a, b, o...))
			}},
			tc{"Potrs f", n, "f", false, func(a, b views.View[float64], o []lapis.Option) result { return result{b, Potrs(Lower, a, b, o...)} }},
			tc{"Potrs b", n, "b", true, func(a, b views.View[float64], o []lapis.Option) result { return result{b, Potrs(Lower, a, b, o...)} }},
			tc{"CholeskySolveTo b", n, "b", false, func(a, b views.View[float64], o []lapis.Option) result {
				x := zerosLike(b)
				return result{x, CholeskySolveTo(Lower, x, a, b, o...)}
			}},
			tc{"SolveTo b", n, "b", false, func(a, b views.View[float64], o []lapis.Option) result {
				x := zerosLike(b)
				return result{x, SolveTo(x, a, b, o...)}
			}},
			tc{"Gesv b", n, "b", true, func(a, b views.View[float64], o []lapis.Option) result { return result{b, Gesv(a, b, o...)} }},
		)
	}
	for _, n := range []int{4, 10} { // no tiny kernels
		cases = append(cases,
			tc{"Getrf", n, "a", true, func(a, _ views.View[float64], o []lapis.Option) result {
				return result{a, Getrf(a, make([]int32, n*count), o...)}
			}},
			tc{"Geqrf", n, "a", true, func(a, _ views.View[float64], o []lapis.Option) result {
				return result{a, Geqrf(a, make([]float64, n*count), o...)}
			}},
			tc{"Gels", n, "a", true, func(a, b views.View[float64], o []lapis.Option) result { return result{b, Gels(a, b, o...)} }},
			tc{"LeastSquares", n, "a", false, func(a, b views.View[float64], o []lapis.Option) result { return tensor(LeastSquares(a, b, o...)) }},
			tc{"Gesdd", n, "a", true, func(a, _ views.View[float64], o []lapis.Option) result {
				s := make([]float64, n*count)
				u, vt := zerosLike(a), zerosLike(a)
				err := Gesdd(a, s, u, vt, o...)
				sv, _ := views.FromColMajor(s, n, 1, count)
				return result{sv.View(), err}
			}},
			tc{"Syevd", n, "a", true, func(a, _ views.View[float64], o []lapis.Option) result {
				w := make([]float64, n*count)
				err := Syevd(Lower, a, w, o...)
				wv, _ := views.FromColMajor(w, n, 1, count)
				return result{wv.View(), err}
			}},
		)
	}
	for _, c := range cases {
		for _, force := range []bool{false, true} { // ForceC: the per-matrix path at every order
			for _, x := range []float64{math.NaN(), math.Inf(1)} {
				if x > 0 && strings.HasSuffix(c.name, "nocheck NaN") {
					// Without the conditioning check an infinity the
					// factorisation absorbs (x/Inf = 0) leaves a finite
					// solution: no error, as from lapack.Solve.
					continue
				}
				name := fmt.Sprintf("%s/n=%d/forceC=%v/%v", c.name, c.n, force, x)
				var opts []lapis.Option
				if force {
					opts = []lapis.Option{lapis.ForceC()}
				}
				tiny := c.n <= 8 && !force && !strings.Contains("Getrf Geqrf Gels Gesdd LeastSquares Syevd", c.name)
				a, b := spdStackF64(c.n, count), onesF64(c.n, count)
				clean := c.call(cloneView(a), cloneView(b), opts)
				if clean.err != nil {
					t.Fatalf("%s: without the %v: %v", name, x, clean.err)
				}
				i, j := 2, 1 // in the lower triangle the calls read
				switch {
				case c.name == "CholeskyTo upper":
					i, j = 1, 2
				case c.arg == "b":
					i, j = 2, 0
				}
				if c.arg == "b" {
					matrixAt(b, shape, bad).Set(x, i, j)
				} else {
					matrixAt(a, shape, bad).Set(x, i, j)
				}
				got := c.call(a, b, opts)
				var be *Error
				if !errors.As(got.err, &be) || len(be.Failed) != 1 || be.Failed[bad] == nil || !errors.Is(got.err, lapis.ErrNotFinite) {
					t.Errorf("%s: %v, want matrix %d alone reported not finite", name, got.err, bad)
					continue
				}
				le := be.Failed[bad]
				msg := le.Error()
				// In place, the input's element is named where the tiny
				// kernels flagged the matrix (a NaN; an infinity they may
				// absorb, and the conditioning check then fails on it).
				left := c.inPlace && !(tiny && math.IsNaN(x))
				leftMsg := strings.Contains(msg, "as the computation left it") || strings.Contains(msg, "before the computation")
				if c.inPlace && tiny && !math.IsNaN(x) {
					left = leftMsg // either
				}
				if le.Arg != c.arg || left != leftMsg ||
					!left && !strings.Contains(msg, fmt.Sprintf("%s: element (%d, %d)", c.arg, i, j)) {
					t.Errorf("%s: %q, want operand %s, element (%d, %d) of the input (left %v)", name, msg, c.arg, i, j, left)
				}
				if !strings.Contains(got.err.Error(), fmt.Sprintf("[%d]: ", bad)) {
					t.Errorf("%s: %q does not name batch index %d", name, got.err, bad)
				}
				for _, i := range []int{0, bad - 1, bad + 1, count - 1} { // the others: as without the NaN
					if !sameMatrix(matrixAt(got.out, shape, i), matrixAt(clean.out, shape, i)) {
						t.Errorf("%s: matrix %d differs from the batch without the %v", name, i, x)
					}
				}
			}
		}
	}
}

// TestNotFiniteComplex: the rule for the complex types (the per-matrix
// path), a NaN in the imaginary part.
func TestNotFiniteComplex(t *testing.T) {
	const n, count, bad = 4, 6, 3
	d := make([]complex128, n*n*count)
	for k := range count {
		for i := range n {
			d[i+i*n+k*n*n] = complex(float64(n+k), 0)
		}
	}
	d[2+1*n+bad*n*n] = complex(0, math.NaN())
	a, _ := views.FromColMajor(d, n, n, count)
	_, err := Cholesky(Lower, a.View())
	var be *Error
	if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[bad] == nil || !errors.Is(err, lapis.ErrNotFinite) ||
		!strings.Contains(err.Error(), "a: element (2, 1)") {
		t.Errorf("complex Cholesky with a NaN: %v, want matrix %d's a (2, 1) not finite", err, bad)
	}
	err = Syevd(Lower, a.View(), make([]float64, n*count))
	if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[bad] == nil || !errors.Is(err, lapis.ErrNotFinite) {
		t.Errorf("complex Syevd with a NaN: %v, want matrix %d not finite", err, bad)
	}
}

// TestNotFiniteQRSkipped: a NaN above the diagonal of an upper
// triangular matrix stays where it is in Geqrf's R (every reflection is
// skipped, tau = 0) and is still reported.
func TestNotFiniteQRSkipped(t *testing.T) {
	const n, count, bad = 4, 3, 1
	a := make([]float64, n*n*count)
	for k := range count {
		for i := range n {
			a[i+i*n+k*n*n] = 1
		}
	}
	a[0+2*n+bad*n*n] = math.NaN()
	v, _ := views.FromColMajor(a, n, n, count)
	err := Geqrf(v.View(), make([]float64, n*count))
	var be *Error
	if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[bad] == nil || !errors.Is(err, lapis.ErrNotFinite) {
		t.Errorf("Geqrf with a NaN above the diagonal: %v, want matrix %d not finite", err, bad)
	}
}

// TestNotFiniteUnread: a NaN in the triangle a call does not read
// changes nothing (Cholesky, Potrf, Syevd with Lower).
func TestNotFiniteUnread(t *testing.T) {
	const count = 8
	for _, n := range []int{3, 10} {
		for _, force := range []bool{false, true} {
			var opts []lapis.Option
			if force {
				opts = []lapis.Option{lapis.ForceC()}
			}
			a := spdStackF64(n, count)
			want, err := Cholesky(Lower, a, opts...)
			if err != nil {
				t.Fatal(err)
			}
			matrixAt(a, []int{count}, 5).Set(math.NaN(), 0, 2)
			got, err := Cholesky(Lower, a, opts...)
			if err != nil || !sameMatrix(got.View(), want.View()) {
				t.Errorf("n=%d forceC=%v: Cholesky with a NaN above the diagonal: %v", n, force, err)
			}
			if err := Potrf(Lower, cloneView(a), opts...); err != nil {
				t.Errorf("n=%d forceC=%v: Potrf with a NaN above the diagonal: %v", n, force, err)
			}
			if err := Syevd(Lower, cloneView(a), make([]float64, n*count), opts...); err != nil {
				t.Errorf("n=%d forceC=%v: Syevd with a NaN above the diagonal: %v", n, force, err)
			}
		}
	}
}

// TestNotFiniteOverflow: finite input whose result overflows is not
// blamed on the input: the error names the result (To forms) as
// lapack's helpers do.
func TestNotFiniteOverflow(t *testing.T) {
	const count = 4
	a := spdStackF64(3, count)
	b := onesF64(3, count)
	for i := range 3 {
		matrixAt(b, []int{count}, 2).Set(math.MaxFloat64, i, 0)
	}
	matrixAt(a, []int{count}, 2).Set(1e-300, 0, 0) // x far beyond MaxFloat64
	for i := range 3 {
		for j := range 3 {
			if i != j {
				matrixAt(a, []int{count}, 2).Set(0, i, j)
			}
		}
	}
	_, err := Solve(a, b, lapis.NoConditionCheck(), lapis.ForceC())
	var be *Error
	if !errors.As(err, &be) || be.Failed[2] == nil || be.Failed[2].Arg != "result" || !errors.Is(err, lapis.ErrNotFinite) {
		t.Errorf("Solve overflowing from finite input: %v, want matrix 2's result named", err)
	}
}

// spdStackF64 returns count symmetric positive definite n x n matrices
// [n, n, count], compact (a[i, j] = 1/(1+i+j) off the diagonal, n+t on
// it).
func spdStackF64(n, count int) views.View[float64] {
	d := make([]float64, n*n*count)
	for t := range count {
		for j := range n {
			for i := range n {
				v := 1 / float64(1+i+j)
				if i == j {
					v = float64(n + t%5)
				}
				d[i+j*n+t*n*n] = v
			}
		}
	}
	a, _ := views.FromColMajor(d, n, n, count)
	return a.View()
}

func onesF64(n, count int) views.View[float64] {
	b, _ := views.Full(1.0, n, 1, count)
	return b.View()
}

func zerosLike(v views.View[float64]) views.View[float64] {
	z, _ := views.Zeros[float64](v.Shape()...)
	return z.View()
}

func cloneView(v views.View[float64]) views.View[float64] { return v.ToColMajor().View() }

// sameMatrix reports whether a and b (of one shape) hold the same bits.
func sameMatrix(a, b views.View[float64]) bool {
	x, y := a.ToColMajor().Data(), b.ToColMajor().Data()
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return false
		}
	}
	return len(x) == len(y)
}

var _ = lapack.ErrSingular
