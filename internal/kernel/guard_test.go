package kernel

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/internal/guard"
	"github.com/lapis-go/lapis/views"
)

// TestGuard runs Dgemm and DgemmStrided (the assembly kernel where the CPU
// has it, dgemmGo otherwise) on matrices whose first or last element sits
// against an inaccessible page (see internal/guard), so that a read or
// write outside a matrix faults, and compares each result with the same
// call on ordinary memory.
func TestGuard(t *testing.T) {
	guard.Run(t,
		guard.Group{Name: "Dgemm", Cases: dgemmGuardCases()},
		guard.Group{Name: "DgemmStrided", Cases: dgemmStridedGuardCases()},
		guard.Group{Name: "Tiny", Cases: append(tinyGuardCases[float64](), tinyGuardCases[float32]()...)},
	)
}

// stored returns the spec of op(x), rows x cols, stored column-major as
// itself or (trans) as its transpose, with ld = stored rows + pad, and ld.
func stored(name string, rows, cols int, trans bool, pad int) (guard.Spec, int) {
	if trans {
		rows, cols = cols, rows
	}
	return guard.Mat(name, rows, cols, false, pad), rows + pad
}

func dgemmGuardCases() []guard.Case {
	var cs []guard.Case
	for _, m := range []int{1, 3, 4, 5, 8, 9, 16, 17, 33, 65} {
		for _, n := range []int{1, 3, 4, 5, 9, 17} {
			for _, k := range []int{1, 4, 9, 33} {
				for tr := range 4 {
					ta, tb := tr&1 != 0, tr&2 != 0
					pad := 3 * (tr % 2)
					a, lda := stored("a", m, k, ta, pad)
					b, ldb := stored("b", k, n, tb, 2-pad/3)
					c, ldc := stored("c", m, n, false, 1)
					name := fmt.Sprintf("%dx%dx%d/transA:%v/transB:%v", m, n, k, ta, tb)
					cs = append(cs, guard.Both(name, []guard.Spec{a, b, c}, 1e-12, nil, func(_ *guard.Arena, v []views.View[float64]) (any, error) {
						Dgemm(m, n, k, 0.75, v[0].Data(), lda, ta, v[1].Data(), ldb, tb, -1.25, v[2].Data(), ldc)
						return nil, nil
					})...)
				}
			}
		}
	}
	return cs
}

func dgemmStridedGuardCases() []guard.Case {
	var cs []guard.Case
	const count = 3
	for _, mnk := range [][3]int{{1, 1, 1}, {3, 5, 7}, {4, 4, 4}, {8, 8, 8}, {9, 17, 4}, {33, 9, 17}, {64, 3, 64}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		for tr := range 4 {
			ta, tb := tr&1 != 0, tr&2 != 0
			for _, rev := range []bool{false, true} {
				a, lda := stored("a", m, k, ta, 2)
				b, ldb := stored("b", k, n, tb, 0)
				c, ldc := stored("c", m, n, false, 1)
				specs := []guard.Spec{a.Batched(count, 1, rev), b.Batched(count, 0, !rev), c.Batched(count, 2, rev)}
				name := fmt.Sprintf("%dx%dx%d/transA:%v/transB:%v/reverse:%v", m, n, k, ta, tb, rev)
				cs = append(cs, guard.Both(name, specs, 1e-12, nil, func(_ *guard.Arena, v []views.View[float64]) (any, error) {
					p := make([]unsafe.Pointer, 3)
					s := make([]int, 3)
					for i := range v {
						l := v[i].Layout()
						p[i], s[i] = unsafe.Pointer(&v[i].Data()[l.Offset()]), l.Stride(2)
					}
					DgemmStrided(count, m, n, k, 0.75, p[0], lda, s[0], ta, p[1], ldb, s[1], tb, -1.25, p[2], ldc, s[2])
					return nil, nil
				})...)
			}
		}
	}
	return cs
}

// tinyGuardCases runs every tiny kernel on runs of matrices (padded,
// backwards, with a tail after full lane groups; compact, forwards, full
// lane groups alone, so that the last one's whole-vector or masked loads
// and stores end at the guard page; column- and row-major) whose extremes
// sit against the guard pages. The diagonal is
// made dominant first, so that the Cholesky kernels store their lanes
// too.
func tinyGuardCases[T float32 | float64]() []guard.Case {
	var cs []guard.Case
	impls := []tinyImpl{tinyBest}
	if Wide {
		impls = []tinyImpl{tinyAVX512, tinyAVX512NoScatter, tinyAVX2} // both AVX-512 sets, and the AVX2 kernels too
	}
	for _, impl := range impls {
		for n := MinTiny; n <= MaxTiny; n++ {
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
					cs = append(cs, guard.Both(name, []guard.Spec{a, b, b1, ao, bo}, 1e3*guard.Eps[T](), nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
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
						check := &TinyCheck{Thresh: 0.5}
						flagged = tiny(TinyDet, n, count, am, bm, 0, det, nil, flagged, impl, nil)
						aom, bom := mat(v[3]), mat(v[4])
						if aom.RS != am.RS || aom.CS != am.CS || aom.BS != am.BS || bom.RS != bm.RS || bom.CS != bm.CS || bom.BS != bm.BS {
							return nil, fmt.Errorf("TinyTo's outputs %+v %+v, inputs %+v %+v: not the same strides", aom, bom, am, bm)
						}
						flagged = tiny[T](TinyCholesky, n, count, am, bm, 0, nil, nil, flagged, impl, &TinyOut{A: aom.P, Zero: true})
						flagged = tiny[T](TinyInv, n, count, am, bm, 0, nil, check, flagged, impl, &TinyOut{A: aom.P})
						flagged = tiny[T](TinySolve, n, count, am, bm, 2, nil, check, flagged, impl, &TinyOut{B: bom.P})
						flagged = tiny[T](TinyCholesky, n, count, am, bm, 0, nil, nil, flagged, impl, nil)
						flagged = tiny[T](TinyCholeskySolve, n, count, am, bm, 2, nil, nil, flagged, impl, nil)
						flagged = tiny[T](TinyCholeskySolve, n, count, am, b1m, 1, nil, nil, flagged, impl, nil)
						flagged = tiny[T](TinySolve, n, count, am, bm, 2, nil, check, flagged, impl, nil)
						flagged = tiny[T](TinySolve, n, count, am, b1m, 1, nil, check, flagged, impl, nil)
						flagged = tiny[T](TinyInv, n, count, am, bm, 0, nil, check, flagged, impl, nil)
						return [2]any{det, flagged}, nil
					})...)
				}
			}
		}
	}
	return cs
}
