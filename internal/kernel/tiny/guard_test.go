package tiny

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/views"
)

// TestGuard runs the tiny kernels on batches whose first or last element
// sits against an inaccessible page (see internal/test/guard), so that a read
// or write outside a batch faults, and compares each result with the same
// call on ordinary memory.
func TestGuard(t *testing.T) {
	guard.Run(t, guard.Group{Name: "Tiny", Cases: append(tinyGuardCases[float64](), tinyGuardCases[float32]()...)})
}

func tinyGuardCases[T float32 | float64]() []guard.Case {
	var cs []guard.Case
	impls := []tinyImpl{tinyBest}
	if Wide {
		impls = []tinyImpl{tinyAVX512, tinyAVX512NoScatter, tinyAVX2} // both AVX-512 sets, and the AVX2 kernels too
	}
	for _, impl := range impls {
		for n := MinN; n <= MaxN; n++ {
			for _, row := range []bool{false, true} {
				for _, rev := range []bool{false, true} {
					pad, count := 1, 17 // a tail after lane groups of 4, 8 or 16
					if !rev {
						pad, count = 0, 16
					}
					a := guard.Mat("a", n, n, row, pad).Batched(count, pad, rev)
					b := guard.Mat("b", n, 2, false, 0).Batched(count, 0, !rev)
					b1 := guard.Mat("b1", n, 1, false, 0).Batched(count, 0, rev)   // compact when a is: AVX-512 reads it as rows
					ao := guard.Mat("ao", n, n, row, pad).Batched(count, pad, rev) // TinyTo's outputs: a's and b's strides
					bo := guard.Mat("bo", n, 2, false, 0).Batched(count, 0, !rev)
					name := fmt.Sprintf("%s/%s/n=%d/row=%v/reverse:%v/pad=%d", guard.TypeName[T](), impl, n, row, rev, pad)
					cs = append(cs, guard.Both(name, []guard.Spec{a, b, b1, ao, bo}, 1e3*scalar.Eps[T](), nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
						mat := func(x views.View[T]) Mat {
							l := x.Layout()
							return Mat{P: unsafe.Pointer(&x.Data()[l.Offset()]), RS: l.Stride(0), CS: l.Stride(1), BS: l.Stride(2)}
						}
						for t := range count {
							for i := range n {
								v[0].Set(T(2*n), i, i, t)
							}
						}
						am, bm, b1m := mat(v[0]), mat(v[1]), mat(v[2])
						det := make([]T, count)
						var flagged []int
						check := &Check{Thresh: 0.5}
						flagged = tiny(Det, n, count, am, bm, 0, det, nil, flagged, impl, nil)
						aom, bom := mat(v[3]), mat(v[4])
						if aom.RS != am.RS || aom.CS != am.CS || aom.BS != am.BS || bom.RS != bm.RS || bom.CS != bm.CS || bom.BS != bm.BS {
							return nil, fmt.Errorf("TinyTo's outputs %+v %+v, inputs %+v %+v: not the same strides", aom, bom, am, bm)
						}
						flagged = tiny[T](Cholesky, n, count, am, bm, 0, nil, nil, flagged, impl, &Out{A: aom.P, Zero: true})
						flagged = tiny[T](Inv, n, count, am, bm, 0, nil, check, flagged, impl, &Out{A: aom.P})
						flagged = tiny[T](Solve, n, count, am, bm, 2, nil, check, flagged, impl, &Out{B: bom.P})
						flagged = tiny[T](Cholesky, n, count, am, bm, 0, nil, nil, flagged, impl, nil)
						flagged = tiny[T](CholeskySolve, n, count, am, bm, 2, nil, nil, flagged, impl, nil)
						flagged = tiny[T](CholeskySolve, n, count, am, b1m, 1, nil, nil, flagged, impl, nil)
						flagged = tiny[T](Solve, n, count, am, bm, 2, nil, check, flagged, impl, nil)
						flagged = tiny[T](Solve, n, count, am, b1m, 1, nil, check, flagged, impl, nil)
						flagged = tiny[T](Inv, n, count, am, bm, 0, nil, check, flagged, impl, nil)
						return [2]any{det, flagged}, nil
					})...)
				}
			}
		}
	}
	return cs
}
