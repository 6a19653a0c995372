package batch

import (
	"fmt"
	"testing"

	"github.com/lapis-go/lapis/internal/test/stale"
	"github.com/lapis-go/lapis/views"
)

// TestReleasedViews: every entry point refuses a view of a released
// tensor in each of its view arguments (lapis.ErrReleased naming it,
// nothing written, on the tiny kernels' order and LAPACK's), and takes
// views of live tensors and of slices as it takes any other view.
func TestReleasedViews(t *testing.T) {
	for _, n := range []int{4, 20} {
		const count = 3
		m, r := []int{n, n, count}, []int{n, 2, count}
		k := n * count
		type V = []views.View[float64]
		rel := func(x *views.Tensor[float64], err error) error {
			if x != nil {
				x.Release()
			}
			return err
		}
		calls := []stale.Call[float64]{
			stale.Of("Solve", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return rel(Solve(a[0], a[1])) }),
			stale.Of("Inv", []string{"a"}, [][]int{m}, func(a V) error { return rel(Inv(a[0])) }),
			stale.Of("Cholesky", []string{"a"}, [][]int{m}, func(a V) error { return rel(Cholesky(Upper, a[0])) }),
			stale.Of("CholeskySolve", []string{"f", "b"}, [][]int{m, r}, func(a V) error { return rel(CholeskySolve(Lower, a[0], a[1])) }),
			stale.Of("LeastSquares", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return rel(LeastSquares(a[0], a[1])) }),
			stale.Of("Gemm", []string{"a", "b", "c"}, [][]int{m, m, m}, func(a V) error { return Gemm(2, a[0], a[1], 1, a[2]) }),
			stale.Of("Mul", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return rel(Mul(a[0], a[1])) }),
			stale.Of("Gesv", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return Gesv(a[0], a[1]) }),
			stale.Of("Getrf", []string{"a"}, [][]int{m}, func(a V) error { return Getrf(a[0], make([]int32, k)) }),
			stale.Of("Potrf", []string{"a"}, [][]int{m}, func(a V) error { return Potrf(Upper, a[0]) }),
			stale.Of("Potrs", []string{"f", "b"}, [][]int{m, r}, func(a V) error { return Potrs(Lower, a[0], a[1]) }),
			stale.Of("Geqrf", []string{"a"}, [][]int{m}, func(a V) error { return Geqrf(a[0], make([]float64, k)) }),
			stale.Of("Gels", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return Gels(a[0], a[1]) }),
			stale.Of("LogDet", []string{"a"}, [][]int{m}, func(a V) error { _, _, err := LogDet(a[0]); return err }),
			stale.Of("Det", []string{"a"}, [][]int{m}, func(a V) error { _, err := Det(a[0]); return err }),
			stale.Of("Gesdd", []string{"a", "u", "vt"}, [][]int{m, m, m}, func(a V) error {
				return Gesdd(a[0], make([]float64, k), a[1], a[2])
			}),
			stale.Of("Syevd", []string{"a"}, [][]int{m}, func(a V) error { return Syevd(Upper, a[0], make([]float64, k)) }),
			stale.Of("SolveTo", []string{"x", "a", "b"}, [][]int{r, m, r}, func(a V) error { return SolveTo(a[0], a[1], a[2]) }),
			stale.Of("InvTo", []string{"dst", "a"}, [][]int{m, m}, func(a V) error { return InvTo(a[0], a[1]) }),
			stale.Of("CholeskyTo", []string{"dst", "a"}, [][]int{m, m}, func(a V) error { return CholeskyTo(Upper, a[0], a[1]) }),
			stale.Of("CholeskySolveTo", []string{"x", "f", "b"}, [][]int{r, m, r}, func(a V) error {
				return CholeskySolveTo(Upper, a[0], a[1], a[2])
			}),
		}
		for _, c := range calls {
			t.Run(fmt.Sprintf("%s/n=%d", c.Name, n), func(t *testing.T) { stale.Check(t, c) })
		}
	}
}
