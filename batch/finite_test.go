package batch

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// TestNotFinite: a matrix with a NaN or an infinity in what the call
// reads gives its own error in the *Error, matching lapis.ErrNotFinite,
// naming the operand, the batch index and the input's element (the scan
// runs before the matrix is computed, in place too), and is left as it
// was in place; every other matrix's result is what the call gives
// without it.
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
		inPlace bool   // a and b are the operands written
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
			for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				for _, inner := range []bool{false, true} {
					name := fmt.Sprintf("%s/n=%d/forceC=%v/inner=%v/%v", c.name, c.n, force, inner, x)
					var opts []lapis.Option
					if force {
						opts = []lapis.Option{lapis.ForceC()}
					}
					a, b := spdStackF64(c.n, count), onesF64(c.n, count)
					clone := cloneView
					if inner {
						a, b = interleaved(a), interleaved(b)
						// The batch without the NaN in the same layout: a
						// compact copy puts each matrix at another
						// alignment, where some OpenBLAS kernel sets
						// (Sandybridge's) round the same inverse
						// differently.
						clone = interleaved
					}
					clean := c.call(clone(a), clone(b), opts)
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
					a0, b0 := cloneView(matrixAt(a, shape, bad)), cloneView(matrixAt(b, shape, bad))
					got := c.call(a, b, opts)
					var be *Error
					if !errors.As(got.err, &be) || len(be.Failed) != 1 || be.Failed[bad] == nil || !errors.Is(got.err, lapis.ErrNotFinite) {
						t.Errorf("%s: %v, want matrix %d alone reported not finite", name, got.err, bad)
						continue
					}
					le := be.Failed[bad]
					if msg := le.Error(); le.Arg != c.arg || !strings.Contains(msg, fmt.Sprintf("%s: element (%d, %d)", c.arg, i, j)) {
						t.Errorf("%s: %q, want operand %s, element (%d, %d) of the input", name, msg, c.arg, i, j)
					}
					if c.inPlace && (!sameMatrix(matrixAt(a, shape, bad), a0) || !sameMatrix(matrixAt(b, shape, bad), b0)) {
						t.Errorf("%s: matrix %d was written", name, bad)
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
}

// TestNotFiniteTypes: for the four types, on the tiny kernels (real n
// = 3), per matrix (n = 10, and lapis.ForceC()), for every call: a NaN,
// +Inf or -Inf (for complex types also in the imaginary part) where a
// matrix is read is that matrix's error alone, naming the input's
// element; a batch of nothing but such matrices makes no LAPACK call
// (lapis.ReadStats' Lapack count does not move) and leaves every
// operand as it was; and a NaN in the triangle a call does not read
// changes nothing.
func TestNotFiniteTypes(t *testing.T) {
	tm.ForTypes(t, testNotFiniteTypes[float32], testNotFiniteTypes[float64], testNotFiniteTypes[complex64], testNotFiniteTypes[complex128])
}

// finiteBatchCall is a call of TestNotFiniteTypes on a ([n, n, count],
// Hermitian positive definite) and b ([n, 1, count]); tri is the
// triangle of a it reads, arg the name a goes by.
type finiteBatchCall[T Scalar] struct {
	name, arg string
	tri       byte
	usesB     bool
	run       func(a, b views.View[T], opts []lapis.Option) error
}

func finiteBatchCalls[T Scalar](n, count int) []finiteBatchCall[T] {
	tensor := func(x *views.Tensor[T], err error) error { return err }
	zeros := func(v views.View[T]) views.View[T] {
		z, _ := views.Zeros[T](v.Shape()...)
		return z.View()
	}
	reals := func(k int) ([]float32, []float64) {
		if single[T]() {
			return make([]float32, k), nil
		}
		return nil, make([]float64, k)
	}
	return []finiteBatchCall[T]{
		{"Solve", "a", 0, true, func(a, b views.View[T], o []lapis.Option) error { return tensor(Solve(a, b, o...)) }},
		{"SolveTo", "a", 0, true, func(a, b views.View[T], o []lapis.Option) error { return SolveTo(zeros(b), a, b, o...) }},
		{"Gesv", "a", 0, true, func(a, b views.View[T], o []lapis.Option) error { return Gesv(a, b, o...) }},
		{"Inv", "a", 0, false, func(a, _ views.View[T], o []lapis.Option) error { return tensor(Inv(a, o...)) }},
		{"InvTo in place", "a", 0, false, func(a, _ views.View[T], o []lapis.Option) error { return InvTo(a, a, o...) }},
		{"Cholesky", "a", 'L', false, func(a, _ views.View[T], o []lapis.Option) error { return tensor(Cholesky(Lower, a, o...)) }},
		{"CholeskyTo upper", "a", 'U', false, func(a, _ views.View[T], o []lapis.Option) error { return CholeskyTo(Upper, zeros(a), a, o...) }},
		{"Potrf", "a", 'L', false, func(a, _ views.View[T], o []lapis.Option) error { return Potrf(Lower, a, o...) }},
		{"Potrf upper", "a", 'U', false, func(a, _ views.View[T], o []lapis.Option) error { return Potrf(Upper, a, o...) }},
		{"CholeskySolve", "f", 'L', true, func(a, b views.View[T], o []lapis.Option) error { return tensor(CholeskySolve(Lower, a, b, o...)) }},
		{"CholeskySolveTo upper", "f", 'U', true, func(a, b views.View[T], o []lapis.Option) error {
			return CholeskySolveTo(Upper, zeros(b), a, b, o...)
		}},
		{"Potrs", "f", 'L', true, func(a, b views.View[T], o []lapis.Option) error { return Potrs(Lower, a, b, o...) }},
		{"LeastSquares", "a", 0, true, func(a, b views.View[T], o []lapis.Option) error { return tensor(LeastSquares(a, b, o...)) }},
		{"Gels", "a", 0, true, func(a, b views.View[T], o []lapis.Option) error { return Gels(a, b, o...) }},
		{"Getrf", "a", 0, false, func(a, _ views.View[T], o []lapis.Option) error { return Getrf(a, make([]int32, n*count), o...) }},
		{"Geqrf", "a", 0, false, func(a, _ views.View[T], o []lapis.Option) error { return Geqrf(a, make([]T, n*count), o...) }},
		{"Gesdd", "a", 0, false, func(a, _ views.View[T], o []lapis.Option) error {
			s32, s64 := reals(n * count)
			if s32 != nil {
				return Gesdd(a, s32, zeros(a), zeros(a), o...)
			}
			return Gesdd(a, s64, zeros(a), zeros(a), o...)
		}},
		{"Syevd", "a", 'L', false, func(a, _ views.View[T], o []lapis.Option) error {
			w32, w64 := reals(n * count)
			if w32 != nil {
				return Syevd(Lower, a, w32, o...)
			}
			return Syevd(Lower, a, w64, o...)
		}},
		{"Det", "a", 0, false, func(a, _ views.View[T], o []lapis.Option) error { _, err := Det(a, o...); return err }},
		{"LogDet", "a", 0, false, func(a, _ views.View[T], o []lapis.Option) error { _, _, err := LogDet(a, o...); return err }},
	}
}

// single reports whether T is of single precision.
func single[T Scalar]() bool { n := tm.TypeName[T](); return n == "float32" || n == "complex64" }

func testNotFiniteTypes[T Scalar](t *testing.T) {
	stack := func(n, count int) (a, b views.View[T]) {
		ta, _ := views.Zeros[T](n, n, count)
		tb, _ := views.Zeros[T](n, 1, count)
		for k := range count {
			for j := range n {
				for i := range n {
					v := tm.FromParts[T](float64(n+k), 0)
					switch {
					case i > j:
						v = tm.FromParts[T](1/float64(1+i+j), 0.25)
					case i < j:
						v = tm.FromParts[T](1/float64(1+i+j), -0.25)
					}
					ta.Set(v, i, j, k)
				}
				tb.Set(tm.FromParts[T](float64(j+1), 0), j, 0, k)
			}
		}
		return ta.View(), tb.View()
	}
	bads := []T{tm.FromParts[T](math.NaN(), 0), tm.FromParts[T](math.Inf(1), 0), tm.FromParts[T](math.Inf(-1), 0)}
	if views.IsComplex[T]() {
		bads = append(bads, tm.FromParts[T](1, math.NaN()), tm.FromParts[T](0, math.Inf(1)))
	}
	for _, n := range []int{3, 10} {
		for _, force := range []bool{false, true} {
			var opts []lapis.Option
			if force {
				opts = append(opts, lapis.ForceC())
			}
			for _, c := range finiteBatchCalls[T](n, 5) {
				label := fmt.Sprintf("%s/n=%d/forceC=%v", c.name, n, force)
				// Read: (2, 1) in the lower triangle, (1, 2) in the upper;
				// b at (1, 0).
				i, j := 2, 1
				if c.tri == 'U' {
					i, j = 1, 2
				}
				for k, bad := range bads {
					arg, bi, bj := c.arg, i, j
					if c.usesB && k%2 == 1 {
						arg, bi, bj = "b", 1, 0
					}
					set := func(a, b views.View[T], k int) {
						if arg == "b" {
							b.Set(bad, bi, bj, k)
						} else {
							a.Set(bad, bi, bj, k)
						}
					}
					// One matrix of five.
					a, b := stack(n, 5)
					set(a, b, 2)
					err := c.run(a, b, opts)
					var be *Error
					if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[2] == nil || !errors.Is(err, lapis.ErrNotFinite) ||
						be.Failed[2].Arg != arg || !strings.Contains(be.Failed[2].Error(), fmt.Sprintf("%s: element (%d, %d)", arg, bi, bj)) {
						t.Errorf("%s: %v at %s (%d, %d) of matrix 2: %v", label, bad, arg, bi, bj, err)
					}
					// Every matrix: no LAPACK call, nothing written.
					a, b = stack(n, 3)
					for k := range 3 {
						set(a, b, k)
					}
					a0, b0 := slices.Clone(a.Data()), slices.Clone(b.Data())
					before := lapis.ReadStats().Lapack
					err = c.run(a, b, opts)
					if calls := lapis.ReadStats().Lapack - before; calls != 0 || !errors.As(err, &be) || len(be.Failed) != 3 {
						t.Errorf("%s: %v in every matrix: %d LAPACK calls, %v", label, bad, calls, err)
					}
					if !slices.EqualFunc(a.Data(), a0, sameValue[T]) || !slices.EqualFunc(b.Data(), b0, sameValue[T]) {
						t.Errorf("%s: %v in every matrix: an operand was written", label, bad)
					}
				}
				// The triangle not read.
				if c.tri != 0 {
					a, b := stack(n, 5)
					ui, uj := j, i
					a.Set(bads[0], ui, uj, 2)
					if err := c.run(a, b, opts); err != nil {
						t.Errorf("%s: NaN at (%d, %d), not read: %v", label, ui, uj, err)
					}
				}
			}
		}
	}
}

// sameValue reports whether x and y are equal or both NaN.
func sameValue[T Scalar](x, y T) bool { return x == y || x != x && y != y }

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
			for _, inner := range []bool{false, true} {
				a := spdStackF64(n, count)
				if inner {
					a = interleaved(a)
				}
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
}

// TestNotFiniteOverflow: finite input whose result overflows to NaN is
// not blamed on the input: the error names the result, as lapack's
// helpers do, on the per-matrix path and the strided solve's.
func TestNotFiniteOverflow(t *testing.T) {
	const count = 4
	for _, opts := range [][]lapis.Option{{lapis.ForceC()}, nil} {
		a := spdStackF64(3, count)
		b := onesF64(3, count)
		// Back substitution: x1 = (1 - h x2 + h x3) / h with x2 = x3 = +Inf.
		h := 1e-300
		m := matrixAt(a, []int{count}, 2)
		for i, v := range []float64{h, 0, 0, h, h, 0, -h, 0, h} {
			m.Set(v, i%3, i/3)
		}
		matrixAt(b, []int{count}, 2).Set(math.MaxFloat64, 1, 0)
		matrixAt(b, []int{count}, 2).Set(math.MaxFloat64, 2, 0)
		_, err := Solve(a, b, append(opts, lapis.NoConditionCheck())...)
		var be *Error
		if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[2] == nil || be.Failed[2].Arg != "result" || !errors.Is(err, lapis.ErrNotFinite) {
			t.Errorf("Solve %v overflowing to NaN from finite input: %v, want matrix 2's result named", opts, err)
		}
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

// interleaved returns a copy of the batch v ([rows, cols, count]) with
// the batch axis innermost (stride 1), its lines of count elements
// three apart more than count, so that no run of its matrices is one
// block of memory.
func interleaved(v views.View[float64]) views.View[float64] {
	sh := v.Shape()
	rows, cols, count := sh[0], sh[1], sh[2]
	t, _ := views.FromColMajor(make([]float64, (count+3)*rows*cols), count+3, rows, cols)
	w, _ := t.View().Slice(0, 0, count, 1)
	w, _ = w.Permute(1, 2, 0)
	if err := views.Copy(w, v); err != nil {
		panic(err)
	}
	return w
}

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
