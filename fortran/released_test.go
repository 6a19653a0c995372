package fortran_test

import (
	"testing"

	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/fortran/internal/ftest"
	"github.com/lapis-go/lapis/internal/test/stale"
	"github.com/lapis-go/lapis/views"
)

// TestReleasedViews: Call1-3, Describe and Explicit refuse a view of a
// released tensor in each argument (lapis.ErrReleased naming it, on the
// direct path and the copying one, nothing written), and take views of
// live tensors and of slices as it takes any other view.
func TestReleasedViews(t *testing.T) {
	type V = []views.View[float64]
	m, vals, info := []int{4, 4}, []int{16}, []int{11}
	calls := []stale.Call[float64]{
		stale.Of("Call1", []string{"a"}, [][]int{m}, func(a V) error { return fortran.Call1(ftest.Twice[float64](), fortran.InOut(a[0])) }),
		stale.Of("Call1 copied", []string{"a"}, [][]int{m}, func(a V) error {
			return fortran.Call1(ftest.Twice[float64](), fortran.InOut(a[0].T()))
		}),
		stale.Of("Call2", []string{"a", "b"}, [][]int{m, {1}}, func(a V) error {
			return fortran.Call2(ftest.Sum, fortran.In(a[0]), fortran.Out(a[1]))
		}),
		stale.Of("Call3", []string{"a", "b", "c"}, [][]int{m, vals, info}, func(a V) error {
			return fortran.Call3(ftest.Check[float64](), fortran.In(a[0]), fortran.Out(a[1]), fortran.Out(a[2]))
		}),
		stale.Of("Describe", []string{"a"}, [][]int{m}, func(a V) error {
			d, err := fortran.Describe(fortran.InOut(a[0]))
			if d != nil {
				d.Done()
			}
			return err
		}),
		stale.Of("Explicit", []string{"a"}, [][]int{m}, func(a V) error {
			return fortran.Explicit(fortran.InOut(a[0]), ftest.XTwice[float64])
		}),
		stale.Of("Explicit copied", []string{"a"}, [][]int{m}, func(a V) error {
			return fortran.Explicit(fortran.InOut(a[0].T()), ftest.XTwice[float64])
		}),
	}
	for _, c := range calls {
		t.Run(c.Name, func(t *testing.T) { stale.Check(t, c) })
	}
}
