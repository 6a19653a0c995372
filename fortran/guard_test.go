package fortran_test

import (
	"fmt"

	"testing"

	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/fortran/internal/ftest"
	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/views"
)

// TestGuard hands views placed flush against inaccessible pages (below and
// above) to Fortran through every path, in place and through copies, and
// compares memory and results with the same calls on Go memory: the
// hand-off itself (descriptors, sections, copies, copy-back) touches no
// element outside the view.
func TestGuard(t *testing.T) {
	guard.Run(t,
		guard.Group{Name: "fortran", Cases: append(append(append(guardCases[float32](), guardCases[float64]()...), guardCases[complex64]()...), guardCases[complex128]()...)},
	)
}

func guardCases[T views.Scalar]() []guard.Case {
	specs := []guard.Spec{
		guard.Mat("a", 5, 3, false, 0),
		guard.Mat("a", 5, 3, false, 2),
		guard.Mat("a", 5, 3, true, 0),
		guard.Mat("a", 5, 3, false, 1).WithConj(true),
		guard.Vec("a", 7, 1),
		guard.Vec("a", 7, -1),
		guard.Vec("a", 7, 3),
		guard.Mat("a", 4, 3, false, 1).Batched(3, 2, false),
		guard.Mat("a", 4, 3, false, 0).Batched(3, 0, true),
		guard.Mat("a", 4, 3, true, 1).Batched(2, 1, false),
	}
	var cs []guard.Case
	typ := guard.TypeName[T]()
	for _, s := range specs {
		s := s
		name := fmt.Sprintf("%s/%v", typ, s)
		cs = append(cs, guard.Both(name+"/Call1", []guard.Spec{s}, 0, nil, func(a *guard.Arena, v []views.View[T]) (any, error) {
			return nil, fortran.Call1(ftest.Twice[T](), fortran.InOut(v[0]))
		})...)
		cs = append(cs, guard.Both(name+"/Explicit", []guard.Spec{s}, 0, nil, func(a *guard.Arena, v []views.View[T]) (any, error) {
			return nil, fortran.Explicit(fortran.InOut(v[0]), ftest.XTwice[T])
		})...)
		cs = append(cs, guard.Both(name+"/Describe", []guard.Spec{s}, 0, nil, func(a *guard.Arena, v []views.View[T]) (any, error) {
			d, err := fortran.Describe(fortran.InOut(v[0]))
			if err != nil {
				return nil, err
			}
			ftest.Call1(ftest.Twice[T](), d.Ptr())
			d.Done()
			return nil, nil
		})...)
		cs = append(cs, guard.Both(name+"/check", []guard.Spec{s}, 0, nil, func(a *guard.Arena, v []views.View[T]) (any, error) {
			n := max(1, v[0].Len())
			vals := guard.View[T](a, "vals", []int{n}, []int{1})
			info := guard.View[float64](a, "info", []int{16}, []int{1})
			if err := fortran.Call3(ftest.Check[T](), fortran.In(v[0]), fortran.Out(vals), fortran.Out(info)); err != nil {
				return nil, err
			}
			return values(vals), nil
		})...)
	}
	return cs
}
