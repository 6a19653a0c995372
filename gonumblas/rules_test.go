package gonumblas_test

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/gonumblas"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/views"
)

// lapis's rules about the library (internal/blasgo) hold behind gonum's
// interface as they do in package cblas, whose tests check the same
// rules on views.

// TestIamaxNaN: i?amax is the first index whose |Re| + |Im| exceeds every
// earlier one, counted from element 0, as gonum (and reference BLAS)
// define it, whatever the library does with NaN.
func TestIamaxNaN(t *testing.T) {
	tm.ForTypes(t, testIamaxNaN[float32], testIamaxNaN[float64], testIamaxNaN[complex64], testIamaxNaN[complex128])
}

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
			want := iamaxOf(gonum.Implementation{}, vals, 1)
			for _, inc := range []int{1, 2} {
				if got := iamaxOf(gonumblas.Implementation{}, vals, inc); got != want {
					t.Errorf("n=%d NaN at %v incX %d: i?amax = %d; want %d (gonum)", n, nanAt, inc, got, want)
				}
			}
		}
	}
}

type iamaxer interface {
	Isamax(int, []float32, int) int
	Idamax(int, []float64, int) int
	Icamax(int, []complex64, int) int
	Izamax(int, []complex128, int) int
}

// iamaxOf calls impl's i?amax on vals stored with increment inc.
func iamaxOf[T views.Scalar](impl iamaxer, vals []T, inc int) int {
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

// TestDotStrided: complex dots with non-unit increments are computed in
// Go (OpenBLAS 0.3.21 reads past the vector there) and agree with gonum's
// for every increment sign.
func TestDotStrided(t *testing.T) {
	var g gonumblas.Implementation
	var ref gonum.Implementation
	rng := rand.New(rand.NewPCG(17, 5))
	for _, n := range []int{2, 9, 300} {
		for _, inc := range [][2]int{{1, 2}, {2, 1}, {-1, 1}, {3, -2}, {-3, -1}} {
			lx, ly := (n-1)*abs(inc[0])+1, (n-1)*abs(inc[1])+1
			x, y := make([]complex128, lx), make([]complex128, ly)
			for i := range x {
				x[i] = complex(rng.NormFloat64(), rng.NormFloat64())
			}
			for i := range y {
				y[i] = complex(rng.NormFloat64(), rng.NormFloat64())
			}
			name := fmt.Sprintf("n=%d inc=%v", n, inc)
			if got, want := g.Zdotu(n, x, inc[0], y, inc[1]), ref.Zdotu(n, x, inc[0], y, inc[1]); !close1(got, want, n) {
				t.Errorf("%s Zdotu = %v, want %v", name, got, want)
			}
			if got, want := g.Zdotc(n, x, inc[0], y, inc[1]), ref.Zdotc(n, x, inc[0], y, inc[1]); !close1(got, want, n) {
				t.Errorf("%s Zdotc = %v, want %v", name, got, want)
			}
		}
	}
}

// close1 is got == want to within n roundings (as cblas's tests hold
// level-1 results).
func close1[T views.Scalar](got, want T, n int) bool {
	return tm.Abs(got-want) <= float64(n+2)*8*scalar.Eps[T]()*(1+tm.Abs(want))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestScalNaNAlpha: an alpha with a NaN part makes every element NaN on
// every kernel set: OpenBLAS 0.3.21's sscal (all sets) and zscal
// (Prescott to Sandybridge) store zeros there (docs/defects.md).
func TestScalNaNAlpha(t *testing.T) {
	testScalNaNAlpha[float32](t)
	testScalNaNAlpha[float64](t)
	testScalNaNAlpha[complex64](t)
	testScalNaNAlpha[complex128](t)
}

func testScalNaNAlpha[T views.Scalar](t *testing.T) {
	nan := tm.FromParts[T](math.NaN(), 0)
	alphas := []T{nan}
	if views.IsComplex[T]() {
		alphas = append(alphas, tm.FromParts[T](0, math.NaN()), tm.FromParts[T](1, math.NaN()))
	}
	for _, alpha := range alphas {
		x := make([]T, 300)
		for i := range x {
			x[i] = tm.FromParts[T](float64(i%5), float64(i%3))
		}
		scal(alpha, x)
		for i := range x {
			if tm.Abs(x[i]) == tm.Abs(x[i]) {
				t.Fatalf("%s alpha %v, element %d (%v): ?scal gives %v; want NaN", tm.TypeName[T](), alpha, i, tm.FromParts[T](float64(i%5), float64(i%3)), x[i])
			}
		}
	}
}

// scal is Implementation's ?scal for T.
func scal(alpha any, x any) {
	var g gonumblas.Implementation
	switch a := alpha.(type) {
	case float32:
		g.Sscal(len(x.([]float32)), a, x.([]float32), 1)
	case float64:
		g.Dscal(len(x.([]float64)), a, x.([]float64), 1)
	case complex64:
		g.Cscal(len(x.([]complex64)), a, x.([]complex64), 1)
	case complex128:
		g.Zscal(len(x.([]complex128)), a, x.([]complex128), 1)
	}
}

// TestAxpyAliased: ?axpy with x and y one slice agrees with gonum's pure
// Go (OpenBLAS's complex kernels store y's real part before they read
// x's).
func TestAxpyAliased(t *testing.T) {
	for _, inc := range []int{1, 2, -1} {
		n := 5
		y := make([]complex128, 1+(n-1)*max(inc, -inc))
		for i := range y {
			y[i] = complex(float64(i+1), float64(2*i-3))
		}
		want := slices.Clone(y)
		alpha := complex(0.5, -1.25)
		gonum.Implementation{}.Zaxpy(n, alpha, want, inc, want, inc)
		gonumblas.Implementation{}.Zaxpy(n, alpha, y, inc, y, inc)
		for i := range y {
			if cmplx.Abs(y[i]-want[i]) > 1e-15*cmplx.Abs(want[i]) {
				t.Fatalf("inc %d: Zaxpy(a, y, y)[%d] = %v, gonum %v", inc, i, y[i], want[i])
			}
		}
	}
}

// TestScasum checks Scasum of every other element (increment 2) for
// every length up to 40 (the tail cases blasgo.CasumDefect names), as the
// linked library runs it and with the Go sum lapis takes where the
// library is known to be wrong.
func TestScasum(t *testing.T) {
	t.Logf("blasgo.CasumDefect: %q", blasgo.CasumDefect())
	for _, defect := range []string{blasgo.CasumDefect(), "forced"} {
		saved := blasgo.CasumDefect
		blasgo.CasumDefect = func() string { return defect }
		testScasum(t, defect)
		blasgo.CasumDefect = saved
	}
}

func testScasum(t *testing.T, defect string) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 40; n++ {
		wide := make([]complex64, 2*n)
		want := 0.0
		for i := range n {
			x := complex(float32(rng.NormFloat64()), float32(rng.NormFloat64()))
			wide[2*i], wide[2*i+1] = x, complex(float32(1e6), 0)
			want += math.Abs(float64(real(x))) + math.Abs(float64(imag(x)))
		}
		if got := float64((gonumblas.Implementation{}).Scasum(n, wide, 2)); math.Abs(got-want) > 1e-5*(1+want) {
			t.Errorf("%s (defect %q): Scasum of %d elements, increment 2 = %v; want %v", lapis.Info().Library, defect, n, got, want)
		}
	}
}
