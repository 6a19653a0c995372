package gemm

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/views"
)

// TestGuard runs Dgemm and DgemmStrided (the assembly kernel where the CPU
// has it, dgemmGo otherwise) on matrices whose first or last element sits
// against an inaccessible page (see internal/test/guard), so that a read or
// write outside a matrix faults, and compares each result with the same
// call on ordinary memory.
func TestGuard(t *testing.T) {
	guard.Run(t,
		guard.Group{Name: "Dgemm", Cases: dgemmGuardCases()},
		guard.Group{Name: "DgemmStrided", Cases: dgemmStridedGuardCases()},
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
