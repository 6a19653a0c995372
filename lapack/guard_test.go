package lapack

import (
	"fmt"
	"testing"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/strided"
	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/views"
)

// TestGuard runs the package's routines on operands (matrices, and the
// ipiv, tau, w and s slices) whose lowest or highest element sits against
// an inaccessible page (see internal/test/guard), so that a read or write
// outside them faults, and compares each result with the same call on
// ordinary memory. Orders straddle gesvStrided's small-solver limit
// (gesvSmall = 16).
func TestGuard(t *testing.T) {
	guard.Run(t,
		guard.Group{Name: "solve", Cases: append(append(append(solveCases[float32, float32](), solveCases[float64, float64]()...), solveCases[complex64, float32]()...), solveCases[complex128, float64]()...)},
		guard.Group{Name: "factor", Cases: append(append(append(factorCases[float32, float32, complex64](), factorCases[float64, float64, complex128]()...), factorCases[complex64, float32, complex64]()...), factorCases[complex128, float64, complex128]()...)},
		guard.Group{Name: "strided", Cases: append(append(append(gesvStridedCases[float32](), gesvStridedCases[float64]()...), gesvStridedCases[complex64]()...), gesvStridedCases[complex128]()...)},
	)
}

// guardLayout is a matrix operand's storage: column-major with ld =
// rows+pad, or row-major with ld = cols+pad; conjugated or not.
type guardLayout struct {
	row  bool
	pad  int
	conj bool
}

func (g guardLayout) spec(name string, rows, cols int) guard.Spec {
	return guard.Mat(name, rows, cols, g.row, g.pad).WithConj(g.conj)
}

func (g guardLayout) String() string {
	s := fmt.Sprintf("col+%d", g.pad)
	if g.row {
		s = fmt.Sprintf("row+%d", g.pad)
	}
	if g.conj {
		s += " conj"
	}
	return s
}

// guardLayouts are the layouts of T's operands: conjugated ones only for
// complex types.
func guardLayouts[T Scalar]() []guardLayout {
	ls := []guardLayout{{false, 0, false}, {false, 3, false}, {true, 2, false}}
	if views.IsComplex[T]() {
		ls = append(ls, guardLayout{false, 1, true}, guardLayout{true, 1, true})
	}
	return ls
}

var guardOrders = []int{1, 5, 16, 17, 40}

type call[T Scalar] = guard.Call[T]

func guardTol[T Scalar]() float64 { return 1e4 * scalar.Eps[T]() }

func solveCases[T Scalar, R Real]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	add := func(name string, specs []guard.Spec, c call[T]) {
		cs = append(cs, guard.Both(name, specs, guardTol[T](), nil, c)...)
	}
	for _, n := range guardOrders {
		nrhs := 3
		for _, l := range guardLayouts[T]() {
			lb := guardLayout{row: l.row, pad: 1}
			name := fmt.Sprintf("%s/n=%d/a:%s", typ, n, l)
			dom := l.spec("a", n, n).WithFill(guard.Dominant)
			hpd := l.spec("a", n, n).WithFill(guard.HPD)
			b := lb.spec("b", n, nrhs)
			add("Gesv/"+name, []guard.Spec{dom, b}, func(a *guard.Arena, v []views.View[T]) (any, error) {
				ipiv := guard.Slice[int32](a, "ipiv", n)
				return ipiv, Gesv(v[0], v[1], ipiv)
			})
			for _, tr := range []Op{NoTrans, Trans, ConjTrans} {
				add(fmt.Sprintf("Getrf+Getrs/%s/%c", name, tr), []guard.Spec{dom, b}, func(a *guard.Arena, v []views.View[T]) (any, error) {
					ipiv := guard.Slice[int32](a, "ipiv", n)
					if err := Getrf(v[0], ipiv); err != nil {
						return nil, err
					}
					return ipiv, Getrs(tr, v[0], ipiv, v[1])
				})
			}
			add("Getrf+Getri/"+name, []guard.Spec{dom}, func(a *guard.Arena, v []views.View[T]) (any, error) {
				ipiv := guard.Slice[int32](a, "ipiv", n)
				if err := Getrf(v[0], ipiv); err != nil {
					return nil, err
				}
				anorm, err := Lange(OneNorm, v[0])
				if err != nil {
					return nil, err
				}
				rcond, err := Gecon(OneNorm, v[0], anorm)
				if err != nil {
					return nil, err
				}
				return []any{ipiv, rcond}, Getri(v[0], ipiv)
			})
			for _, u := range []cblas.Uplo{cblas.Upper, cblas.Lower} {
				un := fmt.Sprintf("%s/%v", name, map[cblas.Uplo]string{cblas.Upper: "U", cblas.Lower: "L"}[u])
				add("Potrf+Potrs/"+un, []guard.Spec{hpd, b}, func(a *guard.Arena, v []views.View[T]) (any, error) {
					if err := Potrf(u, v[0]); err != nil {
						return nil, err
					}
					rcond, err := Pocon(u, v[0], 2*float64(n))
					if err != nil {
						return nil, err
					}
					return rcond, Potrs(u, v[0], v[1])
				})
				add("Posv+Potri/"+un, []guard.Spec{hpd, b}, func(a *guard.Arena, v []views.View[T]) (any, error) {
					if err := Posv(u, v[0], v[1]); err != nil {
						return nil, err
					}
					return nil, Potri(u, v[0])
				})
				add("Sysv/"+un, []guard.Spec{hpd, b}, func(a *guard.Arena, v []views.View[T]) (any, error) {
					ipiv := guard.Slice[int32](a, "ipiv", n)
					return ipiv, Sysv(u, v[0], v[1], ipiv)
				})
				add("Hesv/"+un, []guard.Spec{hpd, b}, func(a *guard.Arena, v []views.View[T]) (any, error) {
					ipiv := guard.Slice[int32](a, "ipiv", n)
					return ipiv, Hesv(u, v[0], v[1], ipiv)
				})
				for _, d := range []cblas.Diag{cblas.NonUnit, cblas.Unit} {
					add(fmt.Sprintf("Trtrs/%s%v", un, map[cblas.Diag]string{cblas.NonUnit: "N", cblas.Unit: "U"}[d]), []guard.Spec{dom, b}, func(a *guard.Arena, v []views.View[T]) (any, error) {
						return nil, Trtrs(u, d, v[0], v[1])
					})
				}
			}
			// The helpers, which copy into tensors of their own.
			add("Solve/"+name, []guard.Spec{dom, b}, func(a *guard.Arena, v []views.View[T]) (any, error) {
				return Solve(v[0], v[1])
			})
			add("Inv/"+name, []guard.Spec{dom}, func(a *guard.Arena, v []views.View[T]) (any, error) {
				return Inv(v[0])
			})
			add("Det+LogDet/"+name, []guard.Spec{dom}, func(a *guard.Arena, v []views.View[T]) (any, error) {
				d, err := Det(v[0])
				if err != nil {
					return nil, err
				}
				la, s, err := LogDet(v[0])
				return []any{d, la, s}, err
			})
			add("Cholesky/"+name, []guard.Spec{hpd}, func(a *guard.Arena, v []views.View[T]) (any, error) {
				return Cholesky(v[0])
			})
			add("LU/"+name, []guard.Spec{dom}, func(a *guard.Arena, v []views.View[T]) (any, error) {
				p, l, u, err := LU(v[0])
				return []any{p, l, u}, err
			})
		}
	}
	return cs
}

// Rectangular shapes: tall, wide, square.
var guardShapes = [][2]int{{1, 1}, {7, 4}, {4, 7}, {17, 17}, {40, 23}}

func factorCases[T Scalar, R Real, C Complex]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	add := func(name string, specs []guard.Spec, c call[T]) {
		cs = append(cs, guard.Both(name, specs, guardTol[T](), nil, c)...)
	}
	// Fewer layouts than the solvers: most complex cases here fault today
	// (see the commit message), and each fault costs a child process.
	layouts := []guardLayout{{false, 0, false}, {true, 2, false}}
	if views.IsComplex[T]() {
		layouts = append(layouts, guardLayout{false, 1, true})
	}
	for _, mn := range guardShapes {
		m, n := mn[0], mn[1]
		k := min(m, n)
		for _, l := range layouts {
			lb := guardLayout{row: l.row, pad: 1}
			name := fmt.Sprintf("%s/%dx%d/a:%s", typ, m, n, l)
			a := l.spec("a", m, n)
			add("Geqrf+Orgqr+Ormqr/"+name, []guard.Spec{a, lb.spec("c", m, 3)}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				tau := guard.Slice[T](ar, "tau", k)
				if err := Geqrf(v[0], tau); err != nil {
					return nil, err
				}
				tr := Trans
				if views.IsComplex[T]() {
					tr = ConjTrans
				}
				if err := Ormqr(cblas.Left, tr, v[0], tau, v[1]); err != nil {
					return nil, err
				}
				q, err := v[0].Slice(1, 0, k, 1)
				if err != nil {
					return nil, err
				}
				return tau, Orgqr(q, tau)
			})
			add("Gelqf/"+name, []guard.Spec{a}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				tau := guard.Slice[T](ar, "tau", k)
				return tau, Gelqf(v[0], tau)
			})
			b := lb.spec("b", max(m, n), 2)
			add("Gels/"+name, []guard.Spec{a.WithFill(guard.Dominant), b}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				return nil, Gels(v[0], v[1])
			})
			add("Gelsd/"+name, []guard.Spec{a, b}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				s := guard.Slice[R](ar, "s", k)
				rank, err := Gelsd(v[0], v[1], s, -1)
				return []any{s, rank}, err
			})
			for _, job := range []Job{JobSome, JobAll} {
				ur, uc, vr, vc := m, k, k, n
				if job == JobAll {
					uc, vr = m, n
				}
				if job == JobNone {
					ur, uc, vr, vc = 0, 0, 0, 0
				}
				specs := []guard.Spec{a, guardLayout{pad: 1}.spec("u", ur, uc), guardLayout{pad: 2}.spec("vt", vr, vc)}
				add(fmt.Sprintf("Gesdd/%s/%c", name, job), specs, func(ar *guard.Arena, v []views.View[T]) (any, error) {
					s := guard.Slice[R](ar, "s", k)
					u, vt := v[1], v[2]
					if job == JobNone {
						u, vt = views.View[T]{}, views.View[T]{}
					}
					return s, Gesdd(job, v[0], s, u, vt)
				})
				add(fmt.Sprintf("Gesvd/%s/%c", name, job), specs, func(ar *guard.Arena, v []views.View[T]) (any, error) {
					s := guard.Slice[R](ar, "s", k)
					u, vt := v[1], v[2]
					if job == JobNone {
						u, vt = views.View[T]{}, views.View[T]{}
					}
					return s, Gesvd(job, job, v[0], s, u, vt)
				})
			}
			add("QR/"+name, []guard.Spec{a}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				q, r, err := QR(v[0])
				return []any{q, r}, err
			})
			add("SVD/"+name, []guard.Spec{a}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				s, u, vt, err := SVD(v[0])
				return []any{s, u, vt}, err
			})
			add("LeastSquares/"+name, []guard.Spec{a, lb.spec("b", m, 2)}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				return LeastSquares(v[0], v[1])
			})
			if m != n {
				continue
			}
			// Eigen-solvers, on square matrices.
			hpd := a.WithFill(guard.HPD)
			for _, u := range []cblas.Uplo{cblas.Upper, cblas.Lower} {
				un := fmt.Sprintf("%s/%v", name, map[cblas.Uplo]string{cblas.Upper: "U", cblas.Lower: "L"}[u])
				add("Syevd/"+un, []guard.Spec{hpd.WithVectors()}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
					w := guard.Slice[R](ar, "w", n)
					return w, Syevd(JobVectors, u, v[0], w)
				})
				add("Syevr/"+un, []guard.Spec{hpd, guardLayout{pad: 1}.spec("z", n, n).WithVectors()}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
					w := guard.Slice[R](ar, "w", n)
					found, err := Syevr(JobVectors, u, AllValues(), v[0], w, v[1])
					return []any{w, found}, err
				})
			}
			add("EigSym/"+name, []guard.Spec{hpd}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				w, vec, err := EigSym(v[0])
				if err != nil {
					return nil, err
				}
				return []any{w, guard.Canonical(vec.View())}, nil
			})
			// geev overwrites a with its Schur form, which MKL 2020.4
			// computes differently for another placement of a (float32
			// 17 x 17: elements 0.12 apart), and its eigenvectors' signs
			// with it: w is compared, vl and vr up to a unit factor per
			// column.
			add("Geev/"+name, []guard.Spec{a.WithScratch(), guardLayout{pad: 1}.spec("vl", n, n).WithVectors(), guardLayout{pad: 2}.spec("vr", n, n).WithVectors()}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				w := guard.Slice[C](ar, "w", n)
				return w, Geev(JobVectors, JobVectors, v[0], w, v[1], v[2])
			})
			add("Eig/"+name, []guard.Spec{a}, func(ar *guard.Arena, v []views.View[T]) (any, error) {
				w, vec, err := Eig(v[0])
				return []any{w, vec}, err
			})
		}
	}
	return cs
}

// gesvStridedCases run gesvStrided on runs of 3 systems, on both sides
// of its small solver (order gesvSmall), forwards and backwards.
func gesvStridedCases[T Scalar]() []guard.Case {
	var cs []guard.Case
	typ := guard.TypeName[T]()
	for _, n := range []int{1, 4, clib.GesvSmallMax, clib.GesvSmallMax + 1, 33} {
		for _, l := range guardLayouts[T]() {
			for _, rev := range []bool{false, true} {
				a := l.spec("a", n, n).WithFill(guard.Dominant).Batched(3, 2, rev)
				b := guardLayout{row: l.row, pad: 1}.spec("b", n, 2).Batched(3, 1, !rev)
				name := fmt.Sprintf("gesvStrided/%s/n=%d/a:%s/reverse:%v", typ, n, l, rev)
				cs = append(cs, guard.Both(name, []guard.Spec{a, b}, guardTol[T](), nil, func(ar *guard.Arena, v []views.View[T]) (any, error) {
					failed, err := strided.Gesv("lapack.GesvStrided", v[0], v[1])
					return fmt.Sprint(failed), err
				})...)
			}
		}
	}
	return cs
}
