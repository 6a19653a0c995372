package batch

import (
	"fmt"
	"math"
	"testing"

	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// batch.Gemm keeps cblas.Gemm's rule on every one of its paths (the
// Go-assembly kernel, the tiny C kernels, BLAS per matrix, folding): alpha
// = 0 or k = 0 give c = beta*c without reading a or b, and beta = 0 does
// not read c.
func testGemmScaleOnly[T Scalar](t *testing.T) {
	nan, inf := tm.NaN[T](), tm.FromParts[T](math.Inf(1), 0)
	fill := func(x T, shape ...int) views.View[T] {
		l, err := layout.ColMajor(shape...)
		if err != nil {
			t.Fatal(err)
		}
		d := make([]T, l.Len())
		for i := range d {
			d[i] = x
		}
		v, _ := views.FromSlice(d, l)
		return v
	}
	for _, sz := range [][4]int{{3, 3, 0, 50}, {4, 4, 3, 50}, {2, 5, 0, 1}, {70, 60, 0, 3}, {20, 20, 20, 3}} {
		m, n, k, count := sz[0], sz[1], sz[2], sz[3]
		for _, cs := range []struct{ alpha, beta, cFill, want T }{
			{0, 1, 2, 2}, {0, 0, nan, 0}, {inf, 3, 2, 6}, {nan, 0, nan, 0},
		} {
			if cs.alpha != 0 && k != 0 {
				continue
			}
			for _, aShape := range [][]int{{m, k, count}, {m, k}} { // a batch, or one matrix (folded)
				c := fill(cs.cFill, m, n, count)
				if err := Gemm(cs.alpha, fill(nan, aShape...), fill(nan, k, n, count), cs.beta, c); err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%dx%dx%d x%d a %v alpha=%v beta=%v", m, n, k, count, aShape, cs.alpha, cs.beta)
				for i, x := range c.Data() {
					if x != cs.want {
						t.Fatalf("%s: c element %d = %v, want %v", name, i, x, cs.want)
					}
				}
			}
		}
	}
}

func TestGemmScaleOnly(t *testing.T) {
	tm.ForTypes(t, testGemmScaleOnly[float32], testGemmScaleOnly[float64], testGemmScaleOnly[complex64], testGemmScaleOnly[complex128])
}
