package cblas

import (
	"fmt"

	"testing"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/strided"
	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/views"
)

// TestGuard runs every routine of the package on operands whose lowest or
// highest reachable element sits against an inaccessible page, so that a
// read or write outside a view faults (see internal/test/guard), and compares
// each result with the same call on ordinary memory. Sizes straddle the
// pure-Go thresholds (level1Small, gemmSmallFlops, gemmKernelFlops and
// gemmKernelDim), so both paths run.
func TestGuard(t *testing.T) {
	guard.Run(t,
		guard.Group{Name: "zdotcReversed", Cases: zdotcReversedCases(), Full: true},
		guard.Group{Name: "level1", Cases: forTypes(level1Cases[float32], level1Cases[float64], level1Cases[complex64], level1Cases[complex128])},
		guard.Group{Name: "level2", Cases: forTypes(level2Cases[float32], level2Cases[float64], level2Cases[complex64], level2Cases[complex128])},
		guard.Group{Name: "level3", Cases: forTypes(level3Cases[float32], level3Cases[float64], level3Cases[complex64], level3Cases[complex128])},
		guard.Group{Name: "strided", Cases: forTypes(stridedCases[float32], stridedCases[float64], stridedCases[complex64], stridedCases[complex128])},
	)
}

func forTypes(fs ...func() []guard.Case) []guard.Case {
	var cs []guard.Case
	for _, f := range fs {
		cs = append(cs, f()...)
	}
	return cs
}

// zdotcReversedCases: the dot OpenBLAS reads past, run in full even under
// -race (where the other groups run a sample): a reversed complex128 vector
// of 8 elements against the guard, conjugated, dotted with a forward one
// (cblas_zdotc_sub, which OpenBLAS 0.3.21 makes read one element past the
// vectors; lapis computes such dots in Go: see blasgo.ComplexStridedDot).
func zdotcReversedCases() []guard.Case {
	x, y := guard.Vec("x", 8, -1).WithConj(true), guard.Vec("y", 8, 1)
	return guard.Both("Dot/complex128/n=8/x:-1 conj/y:1", []guard.Spec{x, y}, tolOf[complex128](), nil,
		func(_ *guard.Arena, v []views.View[complex128]) (any, error) {
			return Dot(v[0], v[1])
		})
}

// Vector strides (every operand takes each) and the conjugation flags a
// type has.
var guardIncs = []int{1, 2, -1, -3}

func conjFlags[T Scalar]() []bool {
	if views.IsComplex[T]() {
		return []bool{false, true}
	}
	return []bool{false}
}

func conjName(c bool) string {
	if c {
		return " conj"
	}
	return ""
}

func tolOf[T Scalar]() float64 { return 1e3 * scalar.Eps[T]() }

// Dot runs on fewer stride pairs than the other routines (a crash costs a
// new child process, and these were the pairs that crashed before lapis
// kept complex strided dots away from OpenBLAS). The pairs still give
// each operand every stride.
func dotPair(incx, incy int) bool {
	switch [2]int{incx, incy} {
	case [2]int{1, 1}, [2]int{2, 1}, [2]int{1, -1}, [2]int{-1, 1}, [2]int{-3, 2}, [2]int{-1, -3}:
		return true
	}
	return false
}

func level1Cases[T Scalar]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	tol := tolOf[T]()
	alpha := value[T](0.75, -0.5)
	sizes := []int{1, 8, 33, level1Small, level1Small + 1, 2*level1Small + 3}
	for _, n := range sizes {
		dotSize := n != 33 && n != 2*level1Small+3
		for _, ix := range guardIncs {
			for _, cx := range conjFlags[T]() {
				x := guard.Vec("x", n, ix).WithConj(cx)
				one := fmt.Sprintf("%s/n=%d/x:%d%s", typ, n, ix, conjName(cx))
				cs = append(cs, guard.Both("Scal/"+one, []guard.Spec{x}, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
					return nil, Scal(alpha, v[0])
				})...)
				cs = append(cs, guard.Both("Nrm2/"+one, []guard.Spec{x}, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
					return Nrm2(v[0])
				})...)
				cs = append(cs, guard.Both("Asum/"+one, []guard.Spec{x}, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
					return Asum(v[0])
				})...)
				cs = append(cs, guard.Both("Iamax/"+one, []guard.Spec{x}, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
					return Iamax(v[0])
				})...)
				for _, iy := range guardIncs {
					for _, cy := range conjFlags[T]() {
						y := guard.Vec("y", n, iy).WithConj(cy)
						two := fmt.Sprintf("%s/n=%d/x:%d%s/y:%d%s", typ, n, ix, conjName(cx), iy, conjName(cy))
						specs := []guard.Spec{x, y}
						if dotSize && dotPair(ix, iy) {
							cs = append(cs, guard.Both("Dot/"+two, specs, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
								return Dot(v[0], v[1])
							})...)
						}
						cs = append(cs, guard.Both("Axpy/"+two, specs, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Axpy(alpha, v[0], v[1])
						})...)
						cs = append(cs, guard.Both("Swap/"+two, specs, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Swap(v[0], v[1])
						})...)
						cs = append(cs, guard.Both("Rot/"+two, specs, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Rot(v[0], v[1], 0.6, 0.8)
						})...)
					}
				}
			}
		}
	}
	return cs
}

// scalar returns re + im*i as a T (im dropped for real types).
func value[T Scalar](re, im float64) T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(re)
	case *float64:
		*p = re
	case *complex64:
		*p = complex(float32(re), float32(im))
	case *complex128:
		*p = complex(re, im)
	}
	return z
}

// matLayout is a matrix operand's storage: column-major with ld = rows+pad
// or row-major (a transposed view) with ld = cols+pad.
type matLayout struct {
	row bool
	pad int
}

func (m matLayout) spec(name string, rows, cols int) guard.Spec {
	return guard.Mat(name, rows, cols, m.row, m.pad)
}

func (m matLayout) String() string {
	if m.row {
		return fmt.Sprintf("row+%d", m.pad)
	}
	return fmt.Sprintf("col+%d", m.pad)
}

var (
	colPacked = matLayout{false, 0}
	colPad    = matLayout{false, 3}
	rowPad    = matLayout{true, 2}
	// incPairs give x and y each of guardIncs.
	incPairs = [][2]int{{1, 1}, {2, -1}, {-1, -3}, {-3, 2}}
	uploDiag = []struct {
		u Uplo
		d Diag
	}{{Upper, NonUnit}, {Lower, Unit}}
)

func level2Cases[T Scalar]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	tol := tolOf[T]()
	alpha, beta := value[T](0.75, -0.5), value[T](-1.25, 0.25)
	add := func(name string, specs []guard.Spec, call guard.Call[T]) {
		cs = append(cs, guard.Both(name, specs, tol, nil, call)...)
	}
	for _, mn := range [][2]int{{3, 6}, {17, 9}, {70, 33}} {
		m, n := mn[0], mn[1]
		for _, ml := range []matLayout{colPacked, colPad, rowPad} {
			for _, ca := range conjFlags[T]() {
				for _, inc := range incPairs {
					a := ml.spec("a", m, n).WithConj(ca)
					name := fmt.Sprintf("%s/%dx%d/a:%s%s/x:%d/y:%d", typ, m, n, ml, conjName(ca), inc[0], inc[1])
					cs = append(cs, guard.Both("Gemv/"+name, []guard.Spec{a, guard.Vec("x", n, inc[0]), guard.Vec("y", m, inc[1])}, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
						return nil, Gemv(alpha, v[0], v[1], beta, v[2])
					})...)
					for _, cy := range conjFlags[T]() {
						add("Ger/"+name+conjName(cy), []guard.Spec{guard.Vec("x", m, inc[0]), guard.Vec("y", n, inc[1]).WithConj(cy), a}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Ger(alpha, v[0], v[1], v[2])
						})
					}
					// The square routines, on the leading n x n block's
					// size (n < m or n > m alike).
					sq := ml.spec("a", n, n).WithConj(ca)
					sqName := fmt.Sprintf("%s/n=%d/a:%s%s/x:%d/y:%d", typ, n, ml, conjName(ca), inc[0], inc[1])
					x, y := guard.Vec("x", n, inc[0]), guard.Vec("y", n, inc[1])
					for _, ud := range uploDiag {
						u, d := ud.u, ud.d
						un := fmt.Sprintf("/%v%v", map[Uplo]string{Upper: "U", Lower: "L"}[u], map[Diag]string{NonUnit: "N", Unit: "U"}[d])
						cs = append(cs, guard.Both("Hemv/"+sqName+un, []guard.Spec{sq, x, y}, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Hemv(u, alpha, v[0], v[1], beta, v[2])
						})...)
						add("Trmv/"+sqName+un, []guard.Spec{sq, x}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Trmv(u, d, v[0], v[1])
						})
						add("Trsv/"+sqName+un, []guard.Spec{sq.WithFill(guard.Dominant), x}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Trsv(u, d, v[0], v[1])
						})
						add("Her/"+sqName+un, []guard.Spec{x, sq}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Her(u, 0.5, v[0], v[1])
						})
						add("Her2/"+sqName+un, []guard.Spec{x, y, sq}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Her2(u, alpha, v[0], v[1], v[2])
						})
						if !views.IsComplex[T]() { // no complex symmetric symv, syr, syr2 in CBLAS
							add("Symv/"+sqName+un, []guard.Spec{sq, x, y}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
								return nil, Symv(u, alpha, v[0], v[1], beta, v[2])
							})
							add("Syr/"+sqName+un, []guard.Spec{x, sq}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
								return nil, Syr(u, alpha, v[0], v[1])
							})
							add("Syr2/"+sqName+un, []guard.Spec{x, y, sq}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
								return nil, Syr2(u, alpha, v[0], v[1], v[2])
							})
						}
					}
				}
			}
		}
	}
	return cs
}

// gemmSizes straddle the pure-Go thresholds: gemmSmallFlops (4x4x4), the
// plain kernel's 16x16x16, gemmKernelFlops (32x32x32) and gemmKernelDim
// (64), then sizes only OpenBLAS runs.
var gemmSizes = [][3]int{{2, 3, 4}, {4, 4, 4}, {5, 4, 4}, {16, 16, 16}, {17, 16, 16}, {32, 32, 32}, {33, 32, 32}, {64, 8, 64}, {65, 8, 8}, {70, 33, 20}}

func level3Cases[T Scalar]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	tol := tolOf[T]()
	alpha, beta := value[T](0.75, -0.5), value[T](-1.25, 0.25)
	add := func(name string, specs []guard.Spec, call guard.Call[T]) {
		cs = append(cs, guard.Both(name, specs, tol, nil, call)...)
	}
	ab := []matLayout{colPad, rowPad}
	cl := []struct {
		l    matLayout
		conj bool
	}{{matLayout{false, 1}, false}, {rowPad, true}}
	for _, mnk := range gemmSizes {
		m, n, k := mnk[0], mnk[1], mnk[2]
		for _, la := range ab {
			for _, ca := range conjFlags[T]() {
				for _, lb := range ab {
					for _, cb := range conjFlags[T]() {
						for _, c := range cl {
							specs := []guard.Spec{la.spec("a", m, k).WithConj(ca), lb.spec("b", k, n).WithConj(cb), c.l.spec("c", m, n).WithConj(c.conj)}
							name := fmt.Sprintf("Gemm/%s/%dx%dx%d/a:%s%s/b:%s%s/c:%s%s", typ, m, n, k, la, conjName(ca), lb, conjName(cb), c.l, conjName(c.conj))
							add(name, specs, func(_ *guard.Arena, v []views.View[T]) (any, error) {
								return nil, Gemm(alpha, v[0], v[1], beta, v[2])
							})
						}
					}
				}
			}
		}
	}
	ud := map[Uplo]string{Upper: "U", Lower: "L"}
	dd := map[Diag]string{NonUnit: "N", Unit: "U"}
	sd := map[Side]string{Left: "left", Right: "right"}
	for _, mn := range [][2]int{{3, 4}, {17, 9}, {40, 70}} {
		m, n := mn[0], mn[1]
		for _, side := range []Side{Left, Right} {
			na := m
			if side == Right {
				na = n
			}
			for _, la := range []matLayout{{false, 2}, {true, 1}} {
				for _, ca := range conjFlags[T]() {
					for _, lb := range []matLayout{{false, 1}, {true, 3}} {
						b := lb.spec("b", m, n)
						base := fmt.Sprintf("%s/%dx%d/%s/a:%s%s/b:%s", typ, m, n, sd[side], la, conjName(ca), lb)
						a := la.spec("a", na, na).WithConj(ca)
						for _, x := range uploDiag {
							u, d := x.u, x.d
							add("Trsm/"+base+"/"+ud[u]+dd[d], []guard.Spec{a.WithFill(guard.Dominant), b}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
								return nil, Trsm(side, u, d, alpha, v[0], v[1])
							})
							add("Trmm/"+base+"/"+ud[u]+dd[d], []guard.Spec{a, b}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
								return nil, Trmm(side, u, d, alpha, v[0], v[1])
							})
							for _, lc := range []matLayout{{false, 2}, {true, 1}} {
								specs := []guard.Spec{a, b, lc.spec("c", m, n)}
								add("Symm/"+base+"/c:"+lc.String()+"/"+ud[u], specs, func(_ *guard.Arena, v []views.View[T]) (any, error) {
									return nil, Symm(side, u, alpha, v[0], v[1], beta, v[2])
								})
								add("Hemm/"+base+"/c:"+lc.String()+"/"+ud[u], specs, func(_ *guard.Arena, v []views.View[T]) (any, error) {
									return nil, Hemm(side, u, alpha, v[0], v[1], beta, v[2])
								})
							}
						}
					}
				}
			}
		}
		// Rank-k updates of an m x m c with an m x n a (and b).
		for _, la := range []matLayout{{false, 2}, {true, 1}} {
			for _, ca := range conjFlags[T]() {
				for _, lc := range []matLayout{{false, 1}, {true, 2}} {
					for _, u := range []Uplo{Upper, Lower} {
						a, b, c := la.spec("a", m, n).WithConj(ca), la.spec("b", m, n), lc.spec("c", m, m)
						name := fmt.Sprintf("%s/n=%d/k=%d/a:%s%s/c:%s/%s", typ, m, n, la, conjName(ca), lc, ud[u])
						add("Syrk/"+name, []guard.Spec{a, c}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Syrk(u, alpha, v[0], beta, v[1])
						})
						add("Herk/"+name, []guard.Spec{a, c}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Herk(u, 0.75, v[0], -1.25, v[1])
						})
						add("Syr2k/"+name, []guard.Spec{a, b, c}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Syr2k(u, alpha, v[0], v[1], beta, v[2])
						})
						add("Her2k/"+name, []guard.Spec{a, b, c}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							return nil, Her2k(u, alpha, v[0], v[1], -1.25, v[2])
						})
					}
				}
			}
		}
	}
	return cs
}

// stridedCases run gemmStrided on runs of 3 matrices whose batch axis
// walks forwards or backwards, on every path it has: the float64 kernel
// (sides up to 64), the tiny C kernel (m <= 8, m*n*k <= 4096) and the C
// loop over BLAS; and with one a for every product (extent 1).
func stridedCases[T Scalar]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	tol := tolOf[T]()
	alpha, beta := value[T](0.75, -0.5), value[T](-1.25, 0.25)
	for _, mnk := range [][3]int{{3, 5, 7}, {8, 8, 8}, {9, 4, 4}, {33, 17, 9}, {20, 30, 10}, {65, 9, 9}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		for _, la := range []matLayout{colPad, rowPad} {
			for _, ca := range conjFlags[T]() {
				for _, lb := range []matLayout{colPacked, rowPad} {
					for _, cb := range conjFlags[T]() {
						for _, rev := range []bool{false, true} {
							for _, count := range []int{1, 3} { // count 1: one a for three b
								a := la.spec("a", m, k).WithConj(ca).Batched(count, 2, rev)
								b := lb.spec("b", k, n).WithConj(cb).Batched(3, 1, !rev)
								c := matLayout{false, 2}.spec("c", m, n).Batched(3, 3, rev)
								name := fmt.Sprintf("gemmStrided/%s/%dx%dx%d/a:%s%sx%d/b:%s%s/reverse:%v", typ, m, n, k, la, conjName(ca), count, lb, conjName(cb), rev)
								cs = append(cs, guard.Both(name, []guard.Spec{a, b, c}, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
									return nil, strided.Gemm("cblas.GemmStrided", alpha, v[0], v[1], beta, v[2])
								})...)
							}
						}
					}
				}
			}
		}
	}
	return cs
}
