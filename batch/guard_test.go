package batch

import (
	"fmt"
	"testing"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// TestGuard runs the batched routines on batches (and the ipiv, tau, s and
// w slices) whose lowest or highest element sits against an inaccessible
// page (see internal/test/guard), so that a read or write outside them faults,
// and compares each result with the same call on ordinary memory. Batch
// axes walk forwards and backwards; orders straddle the small solver's 16
// and Gemm's kernel and single-gemm paths.
func TestGuard(t *testing.T) {
	guard.Run(t,
		guard.Group{Name: "gemm", Cases: append(append(append(gemmGuardCases[float32](), gemmGuardCases[float64]()...), gemmGuardCases[complex64]()...), gemmGuardCases[complex128]()...)},
		guard.Group{Name: "lapack", Cases: append(append(append(lapackGuardCases[float32, float32](), lapackGuardCases[float64, float64]()...), lapackGuardCases[complex64, float32]()...), lapackGuardCases[complex128, float64]()...)},
	)
}

func guardConj[T Scalar]() []bool {
	if views.IsComplex[T]() {
		return []bool{false, true}
	}
	return []bool{false}
}

func conjSuffix(c bool) string {
	if c {
		return " conj"
	}
	return ""
}

func gemmGuardCases[T Scalar]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	tol := 1e3 * scalar.Eps[T]()
	alpha, beta := any(T(1)).(T)*3/4, -any(T(1)).(T)*5/4
	const count = 4
	for _, mnk := range [][3]int{{3, 5, 7}, {8, 8, 8}, {17, 9, 33}, {65, 4, 9}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		for _, rowA := range []bool{false, true} {
			for _, ca := range guardConj[T]() {
				for _, rowB := range []bool{false, true} {
					for _, rev := range []bool{false, true} {
						// a one matrix for every product (extent 1) or a batch.
						for _, ac := range []int{1, count} {
							a := guard.Mat("a", m, k, rowA, 2).WithConj(ca).Batched(ac, 1, rev)
							b := guard.Mat("b", k, n, rowB, 0).Batched(count, 0, !rev)
							c := guard.Mat("c", m, n, false, 0).Batched(count, 0, rev)
							name := fmt.Sprintf("Gemm/%s/%dx%dx%d/a:row=%v%s x%d/b:row=%v/reverse:%v", typ, m, n, k, rowA, conjSuffix(ca), ac, rowB, rev)
							cs = append(cs, guard.Both(name, []guard.Spec{a, b, c}, tol, nil, func(_ *guard.Arena, v []views.View[T]) (any, error) {
								return nil, Gemm(alpha, v[0], v[1], beta, v[2])
							})...)
						}
					}
				}
			}
		}
	}
	return cs
}

func lapackGuardCases[T Scalar, R lapack.Real]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	tol := 1e4 * scalar.Eps[T]()
	const count = 3
	add := func(name string, specs []guard.Spec, call guard.Call[T]) {
		cs = append(cs, guard.Both(name, specs, tol, nil, call)...)
	}
	for _, n := range []int{1, 4, 16, 17, 33} {
		for _, row := range []bool{false, true} {
			for _, c := range guardConj[T]() {
				for _, rev := range []bool{false, true} {
					name := fmt.Sprintf("%s/n=%d/row=%v%s/reverse:%v", typ, n, row, conjSuffix(c), rev)
					sq := guard.Mat("a", n, n, row, 1).WithConj(c)
					dom := sq.WithFill(guard.Dominant).Batched(count, 2, rev)
					hpd := sq.WithFill(guard.HPD).Batched(count, 1, rev)
					gen := sq.Batched(count, 0, rev)
					b := guard.Mat("b", n, 2, row, 2).Batched(count, 1, !rev)
					add("Solve/"+name, []guard.Spec{dom, b}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
						return nil, Gesv(v[0], v[1])
					})
					add("LU/"+name, []guard.Spec{dom}, func(a *guard.Arena, v []views.View[T]) (any, error) {
						ipiv := guard.Slice[int32](a, "ipiv", n*count)
						return ipiv, Getrf(v[0], ipiv)
					})
					add("Inv/"+name, []guard.Spec{dom}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
						return nil, InvTo(v[0], v[0])
					})
					add("Det+LogDet/"+name, []guard.Spec{dom}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
						d, err := Det(v[0])
						if err != nil {
							return nil, err
						}
						la, s, err := LogDet(v[0])
						return []any{d, la, s}, err
					})
					for _, u := range []cblas.Uplo{cblas.Upper, cblas.Lower} {
						un := name + map[cblas.Uplo]string{cblas.Upper: "/U", cblas.Lower: "/L"}[u]
						add("Cholesky+CholeskySolve/"+un, []guard.Spec{hpd, b}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
							if err := Potrf(u, v[0]); err != nil {
								return nil, err
							}
							return nil, Potrs(u, v[0], v[1])
						})
						add("EigSym/"+un, []guard.Spec{hpd.WithVectors()}, func(a *guard.Arena, v []views.View[T]) (any, error) {
							w := guard.Slice[R](a, "w", n*count)
							return w, Syevd(u, v[0], w)
						})
					}
					add("QR/"+name, []guard.Spec{gen}, func(a *guard.Arena, v []views.View[T]) (any, error) {
						tau := guard.Slice[T](a, "tau", n*count)
						return tau, Geqrf(v[0], tau)
					})
					add("LeastSquares/"+name, []guard.Spec{dom, b}, func(_ *guard.Arena, v []views.View[T]) (any, error) {
						return nil, Gels(v[0], v[1])
					})
					add("SVD/"+name, []guard.Spec{gen, guard.Mat("u", n, n, false, 1).Batched(count, 0, rev), guard.Mat("vt", n, n, false, 2).Batched(count, 0, !rev)}, func(a *guard.Arena, v []views.View[T]) (any, error) {
						s := guard.Slice[R](a, "s", n*count)
						return s, Gesdd(v[0], s, v[1], v[2])
					})
				}
			}
		}
	}
	return cs
}
