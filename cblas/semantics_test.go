package cblas

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/strided"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// One rule per routine on every path (pure Go, C, any stride sign),
// whatever the library does with NaN and Inf; gonumblas's rules_test.go
// holds the gonum adapter to the same rules.

var allPaths = []struct {
	name string
	opt  lapis.Option
}{{"auto", lapis.Option{}}, {"C", lapis.ForceC()}, {"Go", lapis.ForcePureGo()}}

// vectorOf returns a view of vals (logical order) with the given stride,
// stored in a fresh slice.
func vectorOf[T views.Scalar](vals []T, stride int) views.View[T] {
	n := len(vals)
	a := stride
	if a < 0 {
		a = -a
	}
	data := make([]T, (n-1)*a+1)
	off := 0
	if stride < 0 {
		off = (n - 1) * a
	}
	v := must2(views.FromSlice(data, must(layout.New([]int{n}, []int{stride}, off))))
	for i, x := range vals {
		v.Set(x, i)
	}
	return v
}

// Iamax: the first index whose measure exceeds every earlier one, counted
// from element 0, as gonum (and reference BLAS) define it; checked against
// gonum itself for every stride, path and length on both sides of the
// pure-Go threshold.
func testIamaxNaN[T views.Scalar](t *testing.T) {
	nan := tm.NaN[T]()
	rng := rand.New(rand.NewPCG(17, 3))
	for _, n := range []int{3, 7, 300} {
		for _, nanAt := range [][]int{{1}, {0}, {n - 1}, {1, n - 2}, {}} {
			vals := make([]T, n)
			for i := range vals {
				vals[i] = tm.FromParts[T](rng.Float64(), rng.Float64())
			}
			vals[n/2] = tm.FromParts[T](4, 0) // the largest finite
			for _, i := range nanAt {
				vals[i] = nan
			}
			want := gonumIamax(vals)
			for _, s := range strides {
				x := vectorOf(vals, s)
				for _, p := range allPaths {
					got, err := Iamax(x, p.opt)
					if err != nil || got != want {
						t.Errorf("n=%d NaN at %v stride %d %s: Iamax = %d, %v; want %d (gonum)", n, nanAt, s, p.name, got, err, want)
					}
				}
			}
		}
	}
	// A NaN that is not first: [0 NaN 2] forwards, and reversed [2 NaN 0].
	if got, _ := Iamax(vectorOf([]T{0, nan, 2}, 1)); got != 2 {
		t.Errorf("[0 NaN 2]: %d, want 2", got)
	}
	if got, _ := Iamax(vectorOf([]T{0, nan, 2}, -1)); got != 2 {
		t.Errorf("[0 NaN 2] through a reversed view: %d, want 2", got)
	}
}

func TestIamaxNaN(t *testing.T) {
	tm.ForTypes(t, testIamaxNaN[float32], testIamaxNaN[float64], testIamaxNaN[complex64], testIamaxNaN[complex128])
}

// gonumIamax is gonum's own answer for vals at unit stride.
func gonumIamax[T views.Scalar](vals []T) int {
	var impl gonum.Implementation
	return gonumIamaxOf(impl, vals, 1)
}

type iamaxer interface {
	Isamax(int, []float32, int) int
	Idamax(int, []float64, int) int
	Icamax(int, []complex64, int) int
	Izamax(int, []complex128, int) int
}

// gonumIamaxOf calls impl's i?amax on vals stored with increment inc.
func gonumIamaxOf[T views.Scalar](impl iamaxer, vals []T, inc int) int {
	n := len(vals)
	x := make([]T, (n-1)*inc+1)
	for i, v := range vals {
		x[i*inc] = v
	}
	switch x := any(x).(type) {
	case []float32:
		return impl.Isamax(n, x, inc)
	case []float64:
		return impl.Idamax(n, x, inc)
	case []complex64:
		return impl.Icamax(n, x, inc)
	case []complex128:
		return impl.Izamax(n, x, inc)
	}
	panic("unreachable")
}

// Axpy with alpha = 0 returns at once on every path, as BLAS: an Inf in x
// does not turn y into NaN.
func testAxpyZeroAlpha[T views.Scalar](t *testing.T) {
	inf := tm.FromParts[T](math.Inf(1), math.Inf(1))
	for _, n := range []int{4, 200} {
		for _, s := range strides {
			for _, p := range allPaths {
				xs, ys := make([]T, n), make([]T, n)
				for i := range ys {
					ys[i] = 1
				}
				xs[0] = inf
				x, y := vectorOf(xs, s), vectorOf(ys, 1)
				for _, xv := range []views.View[T]{x, x.Conj()} {
					if err := Axpy(0, xv, y, p.opt); err != nil {
						t.Fatal(err)
					}
					for i := 0; i < n; i++ {
						if y.At(i) != 1 {
							t.Fatalf("n=%d stride %d %s conj=%v: y[%d] = %v after Axpy(0, x with Inf), want 1", n, s, p.name, xv.IsConj(), i, y.At(i))
						}
					}
				}
			}
		}
	}
}

func TestAxpyZeroAlpha(t *testing.T) {
	tm.ForTypes(t, testAxpyZeroAlpha[float32], testAxpyZeroAlpha[float64], testAxpyZeroAlpha[complex64], testAxpyZeroAlpha[complex128])
}

// Complex dots with non-unit strides are computed in Go (OpenBLAS 0.3.21
// reads past the vector there); the values agree with a plain loop for
// every stride pair, conjugation and path.
func testDotStrided[T views.Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	for _, n := range []int{1, 2, 9, 300} {
		for _, sx := range strides {
			for _, sy := range strides {
				xs, ys := make([]T, n), make([]T, n)
				for i := range xs {
					xs[i], ys[i] = tm.Random[T](rng), tm.Random[T](rng)
				}
				x, y := vectorOf(xs, sx), vectorOf(ys, sy)
				for c := 0; c < 4; c++ {
					xv, yv := x, y
					var want T
					for i := 0; i < n; i++ {
						a, b := xs[i], ys[i]
						if c&1 != 0 {
							xv, a = x.Conj(), scalar.Conj(a)
						}
						if c&2 != 0 {
							yv, b = y.Conj(), scalar.Conj(b)
						}
						want += a * b
					}
					for _, p := range allPaths {
						got, err := Dot(xv, yv, p.opt)
						if err != nil || !close1(got, want, n) {
							t.Errorf("n=%d sx=%d sy=%d conj=%d %s: Dot = %v, %v; want %v", n, sx, sy, c, p.name, got, err, want)
						}
					}
				}
			}
		}
	}
}

func TestDotStrided(t *testing.T) {
	tm.ForTypes(t, testDotStrided[float32], testDotStrided[float64], testDotStrided[complex64], testDotStrided[complex128])
}

// Gemm and gemmStrided: alpha = 0 or k = 0 give c = beta*c without
// reading a or b, and beta = 0 does not read c, on every path and for
// every type (the tiny C kernels and the pure-Go loop included).
func testGemmScaleOnly[T views.Scalar](t *testing.T) {
	nan, inf := tm.NaN[T](), tm.FromParts[T](math.Inf(1), 0)
	for _, sz := range [][3]int{{3, 2, 4}, {4, 4, 0}, {40, 30, 20}, {3, 3, 0}, {100, 90, 0}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, cs := range []struct {
			alpha, beta T
			cFill       T
			want        func(c T) T
		}{
			{0, 1, 2, func(c T) T { return c }},
			{0, 2, 2, func(c T) T { return 2 * c }},
			{0, 0, nan, func(T) T { return 0 }},
			{inf, 3, 2, func(c T) T { return 3 * c }}, // only when k = 0
			{nan, 0, nan, func(T) T { return 0 }},     // only when k = 0
		} {
			if cs.alpha != 0 && k != 0 {
				continue
			}
			name := fmt.Sprintf("%dx%dx%d alpha=%v beta=%v", m, n, k, cs.alpha, cs.beta)
			fill := func(r, c int, x T) views.View[T] {
				d := make([]T, r*c*2)
				for i := range d {
					d[i] = x
				}
				return must2(views.FromSlice(d, must(layout.ColMajor(r, c, 2))))
			}
			check := func(how string, c views.View[T]) {
				t.Helper()
				for idx := 0; idx < c.Len(); idx++ {
					i, j, q := idx%m, idx/m%n, idx/(m*n)
					if got, want := c.At(i, j, q), cs.want(cs.cFill); got != want && !(tm.IsNaN(got) && tm.IsNaN(want)) {
						t.Fatalf("%s %s: c[%d,%d,%d] = %v, want %v", how, name, i, j, q, got, want)
					}
				}
			}
			for _, p := range allPaths {
				a, b, c := fill(m, k, nan), fill(k, n, nan), fill(m, n, cs.cFill)
				for q := 0; q < 2; q++ {
					if err := Gemm(cs.alpha, must2(a.Index(2, q)), must2(b.Index(2, q)), cs.beta, must2(c.Index(2, q)), p.opt); err != nil {
						t.Fatal(err)
					}
				}
				check("Gemm "+p.name, c)
			}
			a, b, c := fill(m, k, nan), fill(k, n, nan), fill(m, n, cs.cFill)
			if err := strided.Gemm("cblas.GemmStrided", cs.alpha, a, b, cs.beta, c); err != nil {
				t.Fatal(err)
			}
			check("gemmStrided", c)
		}
	}
}

func TestGemmScaleOnly(t *testing.T) {
	tm.ForTypes(t, testGemmScaleOnly[float32], testGemmScaleOnly[float64], testGemmScaleOnly[complex64], testGemmScaleOnly[complex128])
}

// The zero View reaches no BLAS routine: an error that says it is the
// zero View (views.View's doc), never a crash.
func TestZeroViewArgs(t *testing.T) {
	var z views.View[complex128]
	x := vectorOf([]complex128{1, 2}, 1)
	for name, err := range map[string]error{
		"Dot":         err2(Dot(z, x)),
		"Dot y":       err2(Dot(x, z)),
		"Axpy":        Axpy(1, x, z),
		"Nrm2":        err2(Nrm2(z)),
		"Iamax":       err2(Iamax(z)),
		"Gemm":        Gemm(1, z, z, 0, z),
		"gemmStrided": strided.Gemm("cblas.GemmStrided", 1, z, z, 0, z),
		"Gemv":        Gemv(1, z, x, 0, x),
	} {
		if !errors.Is(err, layout.ErrBounds) || !strings.Contains(err.Error(), "the zero View has no data") {
			t.Errorf("%s(zero View): %v, want the zero View's layout.ErrBounds error", name, err)
		}
	}
}
