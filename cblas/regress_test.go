package cblas

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Operand edge cases: broadcast and conjugated vectors, empty matrices,
// copies counted, operands named, NaN scalars.

// A conjugated broadcast x is copied with its conjugation applied; Dot
// must not conjugate it again, and must release the copy.
func TestDotConjBroadcast(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 20))
	for _, n := range []int{5, 200} {
		elem, _ := views.FromSlice([]complex128{1 + 2i}, must(layout.ColMajor(1)))
		bc := must2(elem.BroadcastTo(n)).Conj()
		y := newVector[complex128](rng, n, 1)
		var want complex128
		for i := 0; i < n; i++ {
			want += (1 - 2i) * y.V.At(i)
		}
		for _, opt := range []lapis.Option{{}, lapis.ForceC(), lapis.ForcePureGo()} {
			got, err := Dot(bc, y.V, opt)
			if err != nil || !close1(got, want, n) {
				t.Errorf("n=%d: Dot(conj broadcast) = %v, %v; want %v", n, got, err, want)
			}
		}
	}
}

// gemv with no columns still scales y by beta (BLAS returns early).
func TestGemvNoColumns(t *testing.T) {
	a := must2(views.FromSlice([]float64{}, must(layout.ColMajor(3, 0))))
	x := must2(views.FromSlice([]float64{}, must(layout.ColMajor(0))))
	y := must2(views.FromSlice([]float64{1, 1, 1}, must(layout.ColMajor(3))))
	if err := Gemv(1, a, x, 2, y); err != nil || y.At(0) != 2 || y.At(2) != 2 {
		t.Errorf("beta=2: y = %v, %v", y.Data(), err)
	}
	if err := Gemv(1, a, x, 0, y); err != nil || y.At(1) != 0 {
		t.Errorf("beta=0: y = %v, %v", y.Data(), err)
	}
}

// Her reads x only: one copy when x needs one, not two.
func TestHerCopiesOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	a := tm.New[complex128](rng, 4, 4, tm.ColPacked)
	x := newVector[complex128](rng, 4, 1)
	before := lapis.ReadStats()
	if err := Her(Upper, 1, x.V.Conj(), a.V); err != nil {
		t.Fatal(err)
	}
	if c := lapis.ReadStats().Copies - before.Copies; c != 1 {
		t.Errorf("Her with a conjugated x: %d copies, want 1", c)
	}
}

// With a row-major c, a refused operand is still named as the caller knows
// it.
func TestGemmNamesOperand(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 22))
	a := tm.New[float64](rng, 3, 5, tm.ColPacked)
	b := tm.New[float64](rng, 5, 4, tm.General)
	c := tm.New[float64](rng, 3, 4, tm.RowPacked)
	err := Gemm(1, a.V, b.V, 0, c.V, lapis.Strict(true))
	if !errors.Is(err, lapis.ErrCopyRefused) || !strings.Contains(err.Error(), "cblas.Gemm: b:") {
		t.Errorf("error = %v, want one naming b", err)
	}
}

// An alpha with a NaN part makes every element NaN, on every path and
// kernel set (gonumblas's rules_test.go checks its ?scal too): OpenBLAS 0.3.21's sscal (all sets) and zscal (Prescott to
// Sandybridge) store zeros there (docs/defects.md).
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
		for _, opt := range []lapis.Option{{}, lapis.ForceC(), lapis.ForcePureGo()} {
			x := make([]T, 300)
			for i := range x {
				x[i] = tm.FromParts[T](float64(i%5), float64(i%3))
			}
			v := must2(views.FromSlice(x, must(layout.ColMajor(len(x)))))
			if err := Scal(alpha, v, opt); err != nil {
				t.Fatal(err)
			}
			for i := range x {
				if tm.Abs(x[i]) == tm.Abs(x[i]) {
					t.Fatalf("%s alpha %v, element %d (%v): Scal gives %v; want NaN", tm.TypeName[T](), alpha, i, tm.FromParts[T](float64(i%5), float64(i%3)), x[i])
				}
			}
		}
	}
}
