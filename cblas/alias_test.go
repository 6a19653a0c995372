package cblas

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestExactAliasing: Axpy(a, y, y) is y = (1+a) y element by element on
// every path, stride and conjugation; Swap(x, x) changes nothing; partial
// overlap and Rot(x, x), which has no element-by-element meaning, stay
// refused.
func TestExactAliasing(t *testing.T) {
	tm.ForTypes(t, testExactAliasing[float32], testExactAliasing[float64], testExactAliasing[complex64], testExactAliasing[complex128])
}

func testExactAliasing[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alpha := tm.Random[T](rng)
	for _, n := range []int{1, 7, 300} {
		for _, inc := range []int{1, -2, 3} {
			for _, path := range []struct {
				name string
				opt  lapis.Option
			}{{"C", lapis.ForceC()}, {"Go", lapis.ForcePureGo()}} {
				for _, cj := range []bool{false, true} {
					y := newVector[T](rng, n, inc)
					want := make([]T, n)
					for i := range n {
						v := y.V.At(i)
						x := v
						if cj {
							x = scalar.Conj(v)
						}
						want[i] = v + alpha*x
					}
					x := y.V
					if cj {
						x = x.Conj()
					}
					if err := Axpy(alpha, x, y.V, path.opt); err != nil {
						t.Fatalf("n=%d inc=%d %s conj=%v: Axpy(a, y, y): %v", n, inc, path.name, cj, err)
					}
					for i := range n {
						if d := tm.Abs(y.V.At(i) - want[i]); d > 4*tm.Abs(want[i])*scalar.Eps[T]() {
							t.Fatalf("n=%d inc=%d %s conj=%v: y[%d] = %v, want %v", n, inc, path.name, cj, i, y.V.At(i), want[i])
						}
					}
				}
				x := newVector[T](rng, n, inc)
				before := make([]T, n)
				for i := range n {
					before[i] = x.V.At(i)
				}
				if err := Swap(x.V, x.V, path.opt); err != nil {
					t.Fatalf("Swap(x, x): %v", err)
				}
				for i := range n {
					if x.V.At(i) != before[i] {
						t.Fatalf("Swap(x, x) changed x[%d]", i)
					}
				}
			}
		}
	}
	// Partial overlap: y one element along x.
	buf := make([]T, 9)
	l, _ := layout.ColMajor(8)
	x, _ := views.FromSlice(buf, l)
	y, _ := views.FromSlice(buf[1:], l)
	if err := Axpy(alpha, x, y); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Axpy with y one element along x: %v, want ErrOverlap", err)
	}
	if err := Swap(x, y); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Swap with y one element along x: %v, want ErrOverlap", err)
	}
	if err := Rot(x, x, 0.6, 0.8); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Rot(x, x): %v, want ErrOverlap", err)
	}
	if tm.IsComplex[T]() {
		if err := Swap(x, x.Conj()); !errors.Is(err, layout.ErrOverlap) {
			t.Errorf("Swap(x, conj(x)): %v, want ErrOverlap", err)
		}
	}
}
