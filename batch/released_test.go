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
// views of live tensors and of slices as before (issue 31, item 2).
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
			{"Solve", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return rel(Solve(a[0], a[1])) }},
			{"Inv", []string{"a"}, [][]int{m}, func(a V) error { return rel(Inv(a[0])) }},
			{"Cholesky", []string{"a"}, [][]int{m}, func(a V) error { return rel(Cholesky(Upper, a[0])) }},
			{"CholeskySolve", []string{"f", "b"}, [][]int{m, r}, func(a V) error { return rel(CholeskySolve(Lower, a[0], a[1])) }},
			{"LeastSquares", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return rel(LeastSquares(a[0], a[1])) }},
			{"Gemm", []string{"a", "b", "c"}, [][]int{m, m, m}, func(a V) error { return Gemm(2, a[0], a[1], 1, a[2]) }},
			{"Mul", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return rel(Mul(a[0], a[1])) }},
			{"Gesv", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return Gesv(a[0], a[1]) }},
			{"Getrf", []string{"a"}, [][]int{m}, func(a V) error { return Getrf(a[0], make([]int32, k)) }},
			{"Potrf", []string{"a"}, [][]int{m}, func(a V) error { return Potrf(Upper, a[0]) }},
			{"Potrs", []string{"f", "b"}, [][]int{m, r}, func(a V) error { return Potrs(Lower, a[0], a[1]) }},
			{"Geqrf", []string{"a"}, [][]int{m}, func(a V) error { return Geqrf(a[0], make([]float64, k)) }},
			{"Gels", []string{"a", "b"}, [][]int{m, r}, func(a V) error { return Gels(a[0], a[1]) }},
			{"LogDet", []string{"a"}, [][]int{m}, func(a V) error { _, _, err := LogDet(a[0]); return err }},
			{"Det", []string{"a"}, [][]int{m}, func(a V) error { _, err := Det(a[0]); return err }},
			{"Gesdd", []string{"a", "u", "vt"}, [][]int{m, m, m}, func(a V) error {
				return Gesdd(a[0], make([]float64, k), a[1], a[2])
			}},
			{"Syevd", []string{"a"}, [][]int{m}, func(a V) error { return Syevd(Upper, a[0], make([]float64, k)) }},
			{"SolveTo", []string{"x", "a", "b"}, [][]int{r, m, r}, func(a V) error { return SolveTo(a[0], a[1], a[2]) }},
			{"InvTo", []string{"dst", "a"}, [][]int{m, m}, func(a V) error { return InvTo(a[0], a[1]) }},
			{"CholeskyTo", []string{"dst", "a"}, [][]int{m, m}, func(a V) error { return CholeskyTo(Upper, a[0], a[1]) }},
			{"CholeskySolveTo", []string{"x", "f", "b"}, [][]int{r, m, r}, func(a V) error {
				return CholeskySolveTo(Upper, a[0], a[1], a[2])
			}},
		}
		for _, c := range calls {
			t.Run(fmt.Sprintf("%s/n=%d", c.Name, n), func(t *testing.T) { stale.Check(t, c) })
		}
	}
}
