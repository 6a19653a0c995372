package cblas

import (
	"errors"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/test/stale"
	"github.com/lapis-go/lapis/views"
)

// TestReleasedViews: every entry point refuses a view of a released
// tensor in each of its view arguments (lapis.ErrReleased, naming the
// argument, nothing written), and takes views of live tensors and of
// slices as it takes any other view.
func TestReleasedViews(t *testing.T) {
	m, v := []int{4, 4}, []int{4}
	type V = []views.View[float64]
	calls := []stale.Call[float64]{
		stale.Of("Dot", []string{"x", "y"}, [][]int{v, v}, func(a V) error { _, err := Dot(a[0], a[1]); return err }),
		stale.Of("Axpy", []string{"x", "y"}, [][]int{v, v}, func(a V) error { return Axpy(2, a[0], a[1]) }),
		stale.Of("Scal", []string{"x"}, [][]int{v}, func(a V) error { return Scal(2, a[0]) }),
		stale.Of("Nrm2", []string{"x"}, [][]int{v}, func(a V) error { _, err := Nrm2(a[0]); return err }),
		stale.Of("Asum", []string{"x"}, [][]int{v}, func(a V) error { _, err := Asum(a[0]); return err }),
		stale.Of("Iamax", []string{"x"}, [][]int{v}, func(a V) error { _, err := Iamax(a[0]); return err }),
		stale.Of("Swap", []string{"x", "y"}, [][]int{v, v}, func(a V) error { return Swap(a[0], a[1]) }),
		stale.Of("Rot", []string{"x", "y"}, [][]int{v, v}, func(a V) error { return Rot(a[0], a[1], 0.6, 0.8) }),
		stale.Of("Gemv", []string{"a", "x", "y"}, [][]int{m, v, v}, func(a V) error { return Gemv(2, a[0], a[1], 1, a[2]) }),
		stale.Of("Ger", []string{"x", "y", "a"}, [][]int{v, v, m}, func(a V) error { return Ger(2, a[0], a[1], a[2]) }),
		stale.Of("Symv", []string{"a", "x", "y"}, [][]int{m, v, v}, func(a V) error { return Symv(Upper, 2, a[0], a[1], 1, a[2]) }),
		stale.Of("Hemv", []string{"a", "x", "y"}, [][]int{m, v, v}, func(a V) error { return Hemv(Lower, 2, a[0], a[1], 1, a[2]) }),
		stale.Of("Trmv", []string{"a", "x"}, [][]int{m, v}, func(a V) error { return Trmv(Upper, NonUnit, a[0], a[1]) }),
		stale.Of("Trsv", []string{"a", "x"}, [][]int{m, v}, func(a V) error { return Trsv(Lower, NonUnit, a[0], a[1]) }),
		stale.Of("Syr", []string{"x", "a"}, [][]int{v, m}, func(a V) error { return Syr(Upper, 2, a[0], a[1]) }),
		stale.Of("Her", []string{"x", "a"}, [][]int{v, m}, func(a V) error { return Her(Upper, 2, a[0], a[1]) }),
		stale.Of("Syr2", []string{"x", "y", "a"}, [][]int{v, v, m}, func(a V) error { return Syr2(Upper, 2, a[0], a[1], a[2]) }),
		stale.Of("Her2", []string{"x", "y", "a"}, [][]int{v, v, m}, func(a V) error { return Her2(Upper, 2, a[0], a[1], a[2]) }),
		stale.Of("Gemm", []string{"a", "b", "c"}, [][]int{m, m, m}, func(a V) error { return Gemm(2, a[0], a[1], 1, a[2]) }),
		stale.Of("Trsm", []string{"a", "b"}, [][]int{m, m}, func(a V) error { return Trsm(Left, Upper, NonUnit, 2, a[0], a[1]) }),
		stale.Of("Trmm", []string{"a", "b"}, [][]int{m, m}, func(a V) error { return Trmm(Right, Lower, NonUnit, 2, a[0], a[1]) }),
		stale.Of("Symm", []string{"a", "b", "c"}, [][]int{m, m, m}, func(a V) error { return Symm(Left, Upper, 2, a[0], a[1], 1, a[2]) }),
		stale.Of("Hemm", []string{"a", "b", "c"}, [][]int{m, m, m}, func(a V) error { return Hemm(Right, Upper, 2, a[0], a[1], 1, a[2]) }),
		stale.Of("Syrk", []string{"a", "c"}, [][]int{m, m}, func(a V) error { return Syrk(Upper, 2, a[0], 1, a[1]) }),
		stale.Of("Herk", []string{"a", "c"}, [][]int{m, m}, func(a V) error { return Herk(Upper, 2, a[0], 1, a[1]) }),
		stale.Of("Syr2k", []string{"a", "b", "c"}, [][]int{m, m, m}, func(a V) error { return Syr2k(Upper, 2, a[0], a[1], 1, a[2]) }),
		stale.Of("Her2k", []string{"a", "b", "c"}, [][]int{m, m, m}, func(a V) error { return Her2k(Upper, 2, a[0], a[1], 1, a[2]) }),
		stale.Of("Mul", []string{"a", "b"}, [][]int{m, m}, func(a V) error {
			c, err := Mul(a[0], a[1])
			if c != nil {
				c.Release()
			}
			return err
		}),
	}
	for _, c := range calls {
		t.Run(c.Name, func(t *testing.T) { stale.Check(t, c) })
	}
	// Transposed and conjugated views keep the generation (T and H
	// cannot fail, so the entry point catches them), on the library path
	// as on the pure-Go one.
	a, next := stale.Released[complex128](t, []int{40, 40})
	defer next.Release()
	b, c := stale.Live[complex128](t, []int{40, 40}), stale.Live[complex128](t, []int{40, 40})
	defer b.Release()
	defer c.Release()
	for _, av := range []views.View[complex128]{a.T(), a.H(), a.Conj()} {
		for _, o := range [][]lapis.Option{nil, {lapis.ForcePureGo()}, {lapis.ForceC()}} {
			if err := Gemm(1, av, b.View(), 0, c.View(), o...); !errors.Is(err, lapis.ErrReleased) {
				t.Errorf("Gemm of a transformed released view (options %v): %v", o, err)
			}
		}
	}
}
