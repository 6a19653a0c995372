package views_test

import (
	"fmt"
	"testing"

	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/views"
)

// TestGuard runs the copy engine (Copy and ToColMajor) with every source
// and destination flush against an inaccessible page (see internal/test/guard),
// so that a read or write outside a view faults: transposes of 8-byte
// elements big enough for the assembly kernels (transposeF64x8, x4, and
// the non-temporal one from 4 MiB on), the generic tiles of the other
// types, reversed and conjugated views, a permuted rank-3 view. Each
// result is compared with the same copy on ordinary memory.
func TestGuard(t *testing.T) {
	guard.Run(t,
		guard.Group{Name: "copy", Cases: forTypes(copyCases[float32], copyCases[float64], copyCases[complex64], copyCases[complex128])},
		guard.Group{Name: "nt", Cases: ntCases()},
	)
}

func forTypes(fs ...func() []guard.Case) []guard.Case {
	var cs []guard.Case
	for _, f := range fs {
		cs = append(cs, f()...)
	}
	return cs
}

// layouts of an m x n operand: column-major (packed or with ld > rows),
// row-major with ld > cols (a transposed view), both axes reversed.
var layouts = []struct {
	name string
	make func(name string, m, n int) guard.Spec
}{
	{"col", func(name string, m, n int) guard.Spec { return guard.Mat(name, m, n, false, 0) }},
	{"col+3", func(name string, m, n int) guard.Spec { return guard.Mat(name, m, n, false, 3) }},
	{"row", func(name string, m, n int) guard.Spec { return guard.Mat(name, m, n, true, 0) }},
	{"row+5", func(name string, m, n int) guard.Spec { return guard.Mat(name, m, n, true, 5) }},
	{"reversed", func(name string, m, n int) guard.Spec {
		return guard.Spec{Name: name, Shape: []int{m, n}, Strides: []int{-1, -(m + 1)}}
	}},
}

func copyCases[T views.Scalar]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	conj := []bool{false}
	if views.IsComplex[T]() {
		conj = []bool{false, true}
	}
	for _, mn := range [][2]int{{1, 1}, {3, 5}, {7, 9}, {8, 8}, {12, 13}, {33, 70}, {64, 32}, {130, 65}} {
		m, n := mn[0], mn[1]
		for _, src := range layouts {
			for _, cs0 := range conj {
				s := src.make("src", m, n).WithConj(cs0)
				base := fmt.Sprintf("%s/%dx%d/src:%s%s", typ, m, n, src.name, conjName(cs0))
				cs = append(cs, guard.Both("ToColMajor/"+base, []guard.Spec{s}, 0, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
					t := v[0].ToColMajor()
					defer t.Release()
					return append([]T(nil), t.Data()...), nil
				})...)
				for _, dst := range layouts {
					for _, cd := range conj {
						d := dst.make("dst", m, n).WithConj(cd)
						cs = append(cs, guard.Both(fmt.Sprintf("Copy/%s/dst:%s%s", base, dst.name, conjName(cd)), []guard.Spec{d, s}, 0, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, views.Copy(v[0], v[1])
						})...)
					}
				}
			}
		}
	}
	// A rank-3 permutation: dst [m, n, p] column-major, src the same
	// elements stored [p, m, n] (axes permuted, one reversed).
	for _, mnp := range [][3]int{{8, 16, 3}, {17, 9, 4}} {
		m, n, p := mnp[0], mnp[1], mnp[2]
		src := guard.Spec{Name: "src", Shape: []int{m, n, p}, Strides: []int{p, p * m, -1}}
		dst := guard.Spec{Name: "dst", Shape: []int{m, n, p}, Strides: []int{1, m + 1, (m + 1) * n}}
		cs = append(cs, guard.Both(fmt.Sprintf("Copy/%s/%dx%dx%d/permuted", typ, m, n, p), []guard.Spec{dst, src}, 0, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
			return nil, views.Copy(v[0], v[1])
		})...)
	}
	return cs
}

// ntCases copy transposes of 4 MiB and more, which use the non-temporal
// assembly kernel (and several goroutines).
func ntCases() []guard.Case {
	var cs []guard.Case
	for _, mn := range [][2]int{{512, 1024}} {
		m, n := mn[0], mn[1]
		src := guard.Mat("src", m, n, true, 1)
		for _, dst := range []guard.Spec{guard.Mat("dst", m, n, false, 0), guard.Mat("dst", m, n, false, 8)} {
			cs = append(cs, guard.Both(fmt.Sprintf("Copy/float64/%dx%d/src:row+1/dst:%v", m, n, dst.Strides), []guard.Spec{dst, src}, 0, nil, func(_ *guard.Arena, v []views.View[float64]) (any, error) {
				return nil, views.Copy(v[0], v[1])
			})...)
		}
		cs = append(cs, guard.Both(fmt.Sprintf("ToColMajor/complex64/%dx%d/src:row+1", m, n), []guard.Spec{src}, 0, nil, func(_ *guard.Arena, v []views.View[complex64]) (any, error) {
			t := v[0].ToColMajor()
			defer t.Release()
			return append([]complex64(nil), t.Data()...), nil
		})...)
	}
	return cs
}

func conjName(c bool) string {
	if c {
		return " conj"
	}
	return ""
}
