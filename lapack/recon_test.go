package lapack

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Reconstruction tests: every routine, all four types, views of every
// layout class over NaN-padded buffers, results checked against a plain
// complex128 reference (P L U = A, L L^H = A, Q R = A, U S V^H = A,
// A V = V diag(w), residuals of A x = b) with tolerances scaled by
// n * eps * norm.

func tol[T Scalar](n int) float64 { return 40 * float64(max(n, 1)) * scalar.Eps[T]() }

func newRand(t *testing.T) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(len(t.Name())), 7))
}

// spd returns a random n x n Hermitian positive definite matrix (real
// symmetric for real types).
func spd[T Scalar](rng *rand.Rand, n int) tm.M {
	b := tm.Rand(rng, n, n, !tm.IsComplex[T]())
	a := b.Mul(b.H())
	for i := range n {
		a.Set(i, i, a.At(i, i)+complex(float64(n), 0))
	}
	return a
}

// copies runs f and returns how many operand copies lapis counted.
func copies(f func()) int64 {
	before := lapis.ReadStats().Copies
	f()
	return lapis.ReadStats().Copies - before
}

// wantCopies is the count for an operand v that LAPACK takes in place
// only column-major and unconjugated (transposable: row-major too),
// derived from its layout as lapis must (degenerate extents included).
func wantCopies[T Scalar](v views.View[T], transposable bool) int64 {
	m, ok := v.Layout().Matrix()
	switch {
	case !ok:
		return 1
	case m.Rows*m.Cols == 0: // nothing to conjugate
		return 0
	case !m.Trans && !v.IsConj():
		return 0
	case (m.Trans || m.Rows == 1 && m.Cols == 1) && transposable: // a 1 x 1 is its own transpose
		return 0
	}
	return 1
}

func TestGetrf(t *testing.T) {
	tm.ForTypes(t, testGetrf[float32], testGetrf[float64], testGetrf[complex64], testGetrf[complex128])
}

func testGetrf[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {0, 3}, {3, 5}, {5, 3}, {17, 17}, {65, 40}} {
		m, n := sz[0], sz[1]
		for k := range tm.NumKinds {
			a := tm.New[T](rng, m, n, k)
			want := tm.Of(a.V)
			ipiv := make([]int32, min(m, n))
			var err error
			if c := copies(func() { err = Getrf(a.V, ipiv) }); err != nil || c != wantCopies(a.V, false) {
				t.Fatalf("%dx%d %v: err %v, %d copies", m, n, k, err, c)
			}
			a.CheckPadding(t, "Getrf")
			kk := min(m, n)
			f := tm.Of(a.V)
			l, u := tm.Zeros(m, kk), tm.Zeros(kk, n)
			for i := range m {
				for j := range n {
					switch {
					case i > j && j < kk:
						l.Set(i, j, f.At(i, j))
					case i <= j && i < kk:
						u.Set(i, j, f.At(i, j))
					}
				}
			}
			for i := range kk {
				l.Set(i, i, 1)
			}
			lu := l.Mul(u)
			perm, err := Perm(ipiv, m)
			if err != nil {
				t.Fatal(err)
			}
			pa := tm.Zeros(m, n)
			for i := range m {
				for j := range n {
					pa.Set(i, j, want.At(perm[i], j))
				}
			}
			tm.Close(t, fmt.Sprintf("P L U, %dx%d %v", m, n, k), lu, pa, tol[T](max(m, n)))
		}
	}
}

// residual checks |op(A) x - b| <= tol |A| |x| (x, b n x nrhs).
func residual[T Scalar](t *testing.T, what string, a, x, b tm.M) {
	t.Helper()
	r := a.Mul(x).Sub(b).Norm()
	if lim := tol[T](a.R) * max(1, a.Norm()*x.Norm()); !(r <= lim) {
		t.Fatalf("%s: residual %.3g > %.3g", what, r, lim)
	}
}

func TestGesv(t *testing.T) {
	tm.ForTypes(t, testGesv[float32], testGesv[float64], testGesv[complex64], testGesv[complex128])
}

func testGesv[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, n := range []int{0, 1, 4, 33} {
		for ka := range tm.NumKinds {
			for _, kb := range []tm.Kind{tm.ColPacked, tm.RowStrided, tm.Reversed} {
				a, b := tm.New[T](rng, n, n, ka), tm.New[T](rng, n, 3, kb)
				am, bm := tm.Of(a.V), tm.Of(b.V)
				ipiv := make([]int32, n)
				var err error
				c := copies(func() { err = Gesv(a.V, b.V, ipiv) })
				if err != nil || c != wantCopies(a.V, false)+wantCopies(b.V, false) {
					t.Fatalf("n=%d %v %v: err %v, %d copies", n, ka, kb, err, c)
				}
				a.CheckPadding(t, "Gesv a")
				b.CheckPadding(t, "Gesv b")
				residual[T](t, fmt.Sprintf("Gesv n=%d %v %v", n, ka, kb), am, tm.Of(b.V), bm)
			}
		}
	}
}

func TestGetrsGetri(t *testing.T) {
	tm.ForTypes(t, testGetrsGetri[float32], testGetrsGetri[float64], testGetrsGetri[complex64], testGetrsGetri[complex128])
}

func testGetrsGetri[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, n := range []int{0, 1, 7, 40} {
		for k := range tm.NumKinds {
			a := tm.New[T](rng, n, n, k)
			am := tm.Of(a.V)
			ipiv := make([]int32, n)
			if err := Getrf(a.V, ipiv); err != nil {
				t.Fatal(err)
			}
			for _, tr := range []Op{NoTrans, Trans, ConjTrans} {
				b := tm.New[T](rng, n, 2, tm.ColStrided)
				bm := tm.Of(b.V)
				if err := Getrs(tr, a.V, ipiv, b.V); err != nil {
					t.Fatal(err)
				}
				b.CheckPadding(t, "Getrs")
				op := am
				switch {
				case tr == Trans:
					op = am.T()
				case tr == ConjTrans && tm.IsComplex[T]():
					op = am.H()
				case tr == ConjTrans:
					op = am.T()
				}
				residual[T](t, fmt.Sprintf("Getrs %c n=%d %v", tr, n, k), op, tm.Of(b.V), bm)
			}
			if err := Getri(a.V, ipiv); err != nil {
				t.Fatal(err)
			}
			a.CheckPadding(t, "Getri")
			tm.Close(t, fmt.Sprintf("A A^-1 n=%d %v", n, k), am.Mul(tm.Of(a.V)), tm.Eye(n), tol[T](n)*max(1, am.Norm()*tm.Of(a.V).Norm()))
		}
	}
}

// triangle returns the uplo triangle of m (the rest zero).
func triangle(m tm.M, uplo cblas.Uplo) tm.M {
	out := tm.Zeros(m.R, m.C)
	for i := range m.R {
		for j := range m.C {
			if (uplo == cblas.Lower && i >= j) || (uplo == cblas.Upper && i <= j) {
				out.Set(i, j, m.At(i, j))
			}
		}
	}
	return out
}

// sameOutside checks that the strict triangle opposite uplo is unchanged.
func sameOutside(t *testing.T, what string, got, want tm.M, uplo cblas.Uplo) {
	t.Helper()
	for i := range got.R {
		for j := range got.C {
			if (uplo == cblas.Lower && i < j || uplo == cblas.Upper && i > j) && got.At(i, j) != want.At(i, j) {
				t.Fatalf("%s: element (%d, %d) outside the triangle changed", what, i, j)
			}
		}
	}
}

func TestCholesky(t *testing.T) {
	tm.ForTypes(t, testCholesky[float32], testCholesky[float64], testCholesky[complex64], testCholesky[complex128])
}

func testCholesky[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, n := range []int{0, 1, 6, 37} {
		for k := range tm.NumKinds {
			for _, uplo := range []cblas.Uplo{cblas.Lower, cblas.Upper} {
				for _, conjd := range []bool{false, true} {
					if conjd && !tm.IsComplex[T]() {
						continue
					}
					am := spd[T](rng, n)
					what := fmt.Sprintf("n=%d %v uplo=%d conj=%v", n, k, uplo, conjd)
					// a views am: stored as conj(am) and read through
					// Conj() when conjd.
					view := func() (tm.Operand[T], views.View[T]) {
						if !conjd {
							o := tm.From[T](am, k)
							return o, o.V
						}
						o := tm.From[T](conjOf(am), k)
						return o, o.V.Conj()
					}
					a, av := view()
					stored := tm.Of(av)
					var err error
					// potrf, potri and pocon take a row-major view in place,
					// conjugated or not (the storage with the triangle
					// swapped); potrs and posv unless unconjugated complex.
					if c := copies(func() { err = Potrf(uplo, av) }); err != nil || c != wantCopies(av, true) {
						t.Fatalf("Potrf %s: %v, %d copies", what, err, c)
					}
					a.CheckPadding(t, "Potrf")
					f := tm.Of(av)
					sameOutside(t, "Potrf "+what, f, stored, uplo)
					tri := triangle(f, uplo)
					if uplo == cblas.Lower {
						tm.Close(t, "L L^H "+what, tri.Mul(tri.H()), am, tol[T](n))
					} else {
						tm.Close(t, "U^H U "+what, tri.H().Mul(tri), am, tol[T](n))
					}
					b := tm.New[T](rng, n, 2, tm.ColPacked)
					bm := tm.Of(b.V)
					wantSolve := wantCopies(av, !tm.IsComplex[T]() || conjd)
					if c := copies(func() { err = Potrs(uplo, av, b.V) }); err != nil || c != wantSolve {
						t.Fatalf("Potrs %s: %v, %d copies, want %d", what, err, c, wantSolve)
					}
					residual[T](t, "Potrs "+what, am, tm.Of(b.V), bm)
					rc, err := Pocon(uplo, av, norm1(am))
					if err != nil {
						t.Fatal(err)
					}
					checkRcond(t, "Pocon "+what, rc, am)
					if err := Potri(uplo, av); err != nil {
						t.Fatal(err)
					}
					a.CheckPadding(t, "Potri")
					inv := hermitianFrom(tm.Of(av), uplo)
					tm.Close(t, "A A^-1 "+what, am.Mul(inv), tm.Eye(n), tol[T](n)*max(1, am.Norm()*inv.Norm()))

					_, av2 := view()
					b2 := tm.New[T](rng, n, 1, tm.Reversed)
					bm2 := tm.Of(b2.V)
					if err := Posv(uplo, av2, b2.V); err != nil {
						t.Fatal(err)
					}
					b2.CheckPadding(t, "Posv")
					residual[T](t, "Posv "+what, am, tm.Of(b2.V), bm2)
				}
			}
		}
	}
}

// conjOf returns the elementwise conjugate of m.
func conjOf(m tm.M) tm.M {
	c := tm.Zeros(m.R, m.C)
	for i, v := range m.D {
		c.D[i] = cmplx.Conj(v)
	}
	return c
}

// hermitianFrom fills the other triangle of m's uplo triangle.
func hermitianFrom(m tm.M, uplo cblas.Uplo) tm.M {
	tri := triangle(m, uplo)
	out := tri.Add(tri.H())
	for i := range m.R {
		out.Set(i, i, m.At(i, i))
	}
	return out
}

func norm1(m tm.M) float64 {
	best := 0.0
	for j := range m.C {
		s := 0.0
		for i := range m.R {
			s += cmplx.Abs(m.At(i, j))
		}
		best = max(best, s)
	}
	return best
}

// checkRcond checks an estimated reciprocal condition number against the
// true one-norm value within a factor of 10 (LAPACK's estimator is
// usually within 3).
func checkRcond(t *testing.T, what string, rc float64, a tm.M) {
	t.Helper()
	if a.R == 0 {
		return
	}
	inv, err := Inv(tmView(a))
	if err != nil {
		t.Fatal(err)
	}
	exact := 1 / (norm1(a) * norm1(tm.Of(inv.View())))
	if !(rc <= 10*exact*(1+1e-3) && rc >= exact/10) {
		t.Fatalf("%s: rcond %.3g, exact %.3g", what, rc, exact)
	}
}

// tmView returns m as a complex128 column-major view.
func tmView(m tm.M) views.View[complex128] {
	return tm.From[complex128](m, tm.ColPacked).V
}

func TestSysvHesv(t *testing.T) {
	tm.ForTypes(t, testSysvHesv[float32], testSysvHesv[float64], testSysvHesv[complex64], testSysvHesv[complex128])
}

func testSysvHesv[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, n := range []int{0, 1, 9, 30} {
		for _, k := range []tm.Kind{tm.ColPacked, tm.ColStrided, tm.RowPacked, tm.General} {
			for _, herm := range []bool{false, true} {
				b0 := tm.Rand(rng, n, n, !tm.IsComplex[T]())
				am := b0.Add(b0.T()) // complex symmetric
				if herm {
					am = b0.Add(b0.H())
				}
				a, b := tm.From[T](am, k), tm.New[T](rng, n, 2, tm.ColPacked)
				bm := tm.Of(b.V)
				ipiv := make([]int32, n)
				solve := Sysv[T]
				if herm {
					solve = Hesv[T]
				}
				if err := solve(cblas.Lower, a.V, b.V, ipiv); err != nil {
					t.Fatal(err)
				}
				a.CheckPadding(t, "Sysv")
				residual[T](t, fmt.Sprintf("Sysv herm=%v n=%d %v", herm, n, k), am, tm.Of(b.V), bm)
			}
		}
	}
}

func TestTrtrs(t *testing.T) {
	tm.ForTypes(t, testTrtrs[float32], testTrtrs[float64], testTrtrs[complex64], testTrtrs[complex128])
}

func testTrtrs[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, n := range []int{0, 1, 8, 33} {
		for k := range tm.NumKinds {
			for _, uplo := range []cblas.Uplo{cblas.Lower, cblas.Upper} {
				for _, diag := range []cblas.Diag{cblas.NonUnit, cblas.Unit} {
					for _, how := range []string{"a", "a.T", "a.H"} {
						base := tm.New[T](rng, n, n, k)
						for i := range n { // keep it well conditioned
							base.V.Set(tm.FromParts[T](float64(n)+2, 0), i, i)
						}
						v := base.V
						switch how {
						case "a.T":
							v = v.T()
						case "a.H":
							v = v.H()
						}
						full := tm.Of(v)
						am := triangle(full, uplo)
						if diag == cblas.Unit {
							for i := range n {
								am.Set(i, i, 1)
							}
						}
						b := tm.New[T](rng, n, 3, tm.ColStrided)
						bm := tm.Of(b.V)
						var err error
						c := copies(func() { err = Trtrs(uplo, diag, v, b.V) })
						if err != nil {
							t.Fatal(err)
						}
						// A view that is the transpose of an addressable
						// one is addressable; a.H() of a column-major view
						// is a conjugated row-major one ("C"), whereas a
						// conjugated column-major view needs a copy.
						if want := wantCopies(v, true); c != want {
							t.Fatalf("Trtrs %s %v n=%d: %d copies, want %d", how, k, n, c, want)
						}
						base.CheckPadding(t, "Trtrs a")
						b.CheckPadding(t, "Trtrs b")
						what := fmt.Sprintf("Trtrs n=%d %v %s uplo=%d diag=%d", n, k, how, uplo, diag)
						residual[T](t, what, am, tm.Of(b.V), bm)
					}
				}
			}
		}
	}
}

func TestQR(t *testing.T) {
	tm.ForTypes(t, testQR[float32], testQR[float64], testQR[complex64], testQR[complex128])
}

func testQR[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {7, 4}, {40, 25}, {20, 20}} {
		m, n := sz[0], sz[1]
		for k := range tm.NumKinds {
			a := tm.New[T](rng, m, n, k)
			am := tm.Of(a.V)
			what := fmt.Sprintf("%dx%d %v", m, n, k)
			tau := make([]T, n)
			if err := Geqrf(a.V, tau); err != nil {
				t.Fatal(err)
			}
			a.CheckPadding(t, "Geqrf")
			refl := tm.Of(a.V)
			r := triangle(refl, cblas.Upper)
			// Apply Q to R with Ormqr (Left, NoTrans) and compare with A.
			qr := tm.From[T](r, tm.RowStrided)
			if err := Ormqr(cblas.Left, NoTrans, a.V, tau, qr.V); err != nil {
				t.Fatal(err)
			}
			tm.Close(t, "Q R (Ormqr) "+what, tm.Of(qr.V), am, tol[T](m))
			// Q^H A = R.
			qa := tm.From[T](am, tm.ColPacked)
			if err := Ormqr(cblas.Left, ConjTrans, a.V, tau, qa.V); err != nil {
				t.Fatal(err)
			}
			tm.Close(t, "Q^H A "+what, tm.Of(qa.V), r, tol[T](m))
			// Right side: A^H Q = R^H.
			ah := tm.From[T](am.H(), tm.General)
			if err := Ormqr(cblas.Right, NoTrans, a.V, tau, ah.V); err != nil {
				t.Fatal(err)
			}
			tm.Close(t, "A^H Q "+what, tm.Of(ah.V), r.H(), tol[T](m))
			// Orgqr forms Q explicitly (its first n columns).
			if err := Orgqr(a.V, tau); err != nil {
				t.Fatal(err)
			}
			q := tm.Of(a.V)
			tm.Close(t, "Q^H Q "+what, q.H().Mul(q), tm.Eye(n), tol[T](m))
			tm.Close(t, "Q R "+what, q.Mul(r.Rows(0, n)), am, tol[T](m))
		}
	}
}

func TestGelqf(t *testing.T) {
	tm.ForTypes(t, testGelqf[float32], testGelqf[float64], testGelqf[complex64], testGelqf[complex128])
}

// testGelqf checks L against the R of the QR factorisation of A^H: A = L Q
// means A^H = Q^H L^H, so |L| = |R^H| element by element.
func testGelqf[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, sz := range [][2]int{{0, 0}, {1, 3}, {4, 7}, {25, 40}} {
		m, n := sz[0], sz[1]
		for _, k := range []tm.Kind{tm.ColPacked, tm.RowStrided, tm.Reversed} {
			a := tm.New[T](rng, m, n, k)
			am := tm.Of(a.V)
			tau := make([]T, m)
			if err := Gelqf(a.V, tau); err != nil {
				t.Fatal(err)
			}
			a.CheckPadding(t, "Gelqf")
			l := triangle(tm.Of(a.V), cblas.Lower)
			ah := tm.From[T](am.H(), tm.ColPacked)
			if err := Geqrf(ah.V, make([]T, m)); err != nil {
				t.Fatal(err)
			}
			r := triangle(tm.Of(ah.V), cblas.Upper).H()
			for i := range m {
				for j := range m {
					if d := math.Abs(cmplx.Abs(l.At(i, j)) - cmplx.Abs(r.At(i, j))); d > tol[T](n)*max(1, am.Norm()) {
						t.Fatalf("Gelqf %dx%d %v: |L[%d,%d]| = %g, |R^H| = %g", m, n, k, i, j, cmplx.Abs(l.At(i, j)), cmplx.Abs(r.At(i, j)))
					}
				}
			}
		}
	}
}

func TestGels(t *testing.T) {
	tm.ForTypes(t, testGels[float32], testGels[float64], testGels[complex64], testGels[complex128])
}

func testGels[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {9, 4}, {4, 9}, {30, 30}} {
		m, n := sz[0], sz[1]
		for k := range tm.NumKinds {
			for _, how := range []string{"a", "a.T", "a.H"} {
				base := tm.New[T](rng, m, n, k)
				v := base.V
				switch how {
				case "a.T":
					v = v.T()
				case "a.H":
					v = v.H()
				}
				am := tm.Of(v)
				rows, cols := am.R, am.C
				b := tm.New[T](rng, max(rows, cols), 2, tm.ColPacked)
				bm := tm.Of(b.V).Rows(0, rows)
				var err error
				c := copies(func() { err = Gels(v, b.V) })
				if err != nil {
					t.Fatal(err)
				}
				what := fmt.Sprintf("Gels %dx%d %v %s", rows, cols, k, how)
				if k == tm.ColPacked && how == "a.T" && c != 0 && !tm.IsComplex[T]() {
					t.Fatalf("%s: %d copies, want 0", what, c)
				}
				base.CheckPadding(t, what)
				x := tm.Of(b.V).Rows(0, cols)
				checkLeastSquares[T](t, what, am, x, bm)
			}
		}
	}
}

// checkLeastSquares checks the normal equations A^H (A x - b) = 0 (for
// m >= n) or, for m < n, A x = b.
func checkLeastSquares[T Scalar](t *testing.T, what string, a, x, b tm.M) {
	t.Helper()
	r := a.Mul(x).Sub(b)
	if a.R < a.C {
		residual[T](t, what, a, x, b)
		return
	}
	g := a.H().Mul(r).Norm()
	if lim := tol[T](a.R) * max(1, a.Norm()*a.Norm()*x.Norm()+a.Norm()*b.Norm()); !(g <= lim) {
		t.Fatalf("%s: |A^H r| = %.3g > %.3g", what, g, lim)
	}
}

func TestGelsd(t *testing.T) {
	tm.ForTypes(t, testGelsd[float32, float32], testGelsd[float64, float64], testGelsd[complex64, float32], testGelsd[complex128, float64])
}

func testGelsd[T Scalar, R Real](t *testing.T) {
	rng := newRand(t)
	for _, sz := range [][3]int{{0, 0, 0}, {1, 1, 1}, {12, 6, 3}, {6, 12, 4}, {20, 20, 12}} {
		m, n, rank := sz[0], sz[1], sz[2]
		for _, k := range []tm.Kind{tm.ColPacked, tm.RowPacked, tm.Reversed} {
			am := tm.Rand(rng, m, rank, !tm.IsComplex[T]()).Mul(tm.Rand(rng, rank, n, !tm.IsComplex[T]()))
			a := tm.From[T](am, k)
			b := tm.New[T](rng, max(m, n), 2, tm.ColStrided)
			bm := tm.Of(b.V).Rows(0, m)
			s := make([]R, min(m, n))
			got, err := Gelsd(a.V, b.V, s, math.Sqrt(scalar.Eps[T]()))
			if err != nil {
				t.Fatal(err)
			}
			b.CheckPadding(t, "Gelsd")
			if got != rank && m > 0 {
				t.Fatalf("Gelsd %dx%d rank %d: got rank %d (s = %v)", m, n, rank, got, s)
			}
			x := tm.Of(b.V).Rows(0, n)
			// Minimum norm least squares: A^H (A x - b) = 0.
			g := am.H().Mul(am.Mul(x).Sub(bm)).Norm()
			if lim := 1e3 * tol[T](max(m, n)) * max(1, am.Norm()*am.Norm()*x.Norm()+am.Norm()*bm.Norm()); !(g <= lim) {
				t.Fatalf("Gelsd %dx%d %v: |A^H r| = %.3g > %.3g", m, n, k, g, lim)
			}
		}
	}
}

func TestSVD(t *testing.T) {
	tm.ForTypes(t, testSVD[float32, float32], testSVD[float64, float64], testSVD[complex64, float32], testSVD[complex128, float64])
}

func testSVD[T Scalar, R Real](t *testing.T) {
	rng := newRand(t)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {8, 5}, {5, 8}, {30, 30}} {
		m, n := sz[0], sz[1]
		kk := min(m, n)
		for k := range tm.NumKinds {
			for _, job := range []Job{JobAll, JobSome, JobNone, JobOverwrite} {
				for _, qr := range []bool{false, true} {
					if qr && job == JobOverwrite {
						continue // Gesvd's overwrite jobs are per factor; below
					}
					a := tm.New[T](rng, m, n, k)
					am := tm.Of(a.V)
					s := make([]R, kk)
					ur, uc, uUsed := vecShape(job, m, n, true)
					vr, vc, vUsed := vecShape(job, m, n, false)
					if job == JobOverwrite {
						if m >= n {
							vr, vc, vUsed = n, n, true
						} else {
							ur, uc, uUsed = m, m, true
						}
					}
					var u, vt tm.Operand[T]
					if uUsed {
						u = tm.Empty[T](ur, uc, k)
					}
					if vUsed {
						vt = tm.Empty[T](vr, vc, tm.ColStrided)
					}
					var err error
					if qr {
						err = Gesvd(job, job, a.V, s, u.V, vt.V)
					} else {
						err = Gesdd(job, a.V, s, u.V, vt.V)
					}
					what := fmt.Sprintf("%dx%d %v job=%c qr=%v", m, n, k, job, qr)
					if err != nil {
						t.Fatal(what, err)
					}
					a.CheckPadding(t, what)
					for i := 1; i < kk; i++ {
						if s[i] > s[i-1] || s[i] < 0 {
							t.Fatalf("%s: singular values not descending: %v", what, s)
						}
					}
					if job == JobNone {
						ref := make([]R, kk)
						if err := Gesdd(JobAll, tm.From[T](am, tm.ColPacked).V, ref, tm.Empty[T](m, m, tm.ColPacked).V, tm.Empty[T](n, n, tm.ColPacked).V); err != nil {
							t.Fatal(err)
						}
						for i := range s {
							if d := math.Abs(float64(s[i] - ref[i])); d > tol[T](max(m, n))*max(1, float64(ref[0])) {
								t.Fatalf("%s: s[%d] = %g, with vectors %g", what, i, s[i], ref[i])
							}
						}
						continue
					}
					var um, vm tm.M
					switch {
					case job == JobOverwrite && m >= n:
						um, vm = tm.Of(a.V).Cols(0, kk), tm.Of(vt.V)
					case job == JobOverwrite:
						um, vm = tm.Of(u.V), tm.Of(a.V).Rows(0, kk)
					default:
						um, vm = tm.Of(u.V), tm.Of(vt.V)
					}
					u.CheckPadding(t, what+" u")
					vt.CheckPadding(t, what+" vt")
					us := um.Cols(0, kk)
					for j := range kk {
						for i := range m {
							us.Set(i, j, us.At(i, j)*complex(float64(s[j]), 0))
						}
					}
					tm.Close(t, "U S V^H "+what, us.Mul(vm.Rows(0, kk)), am, tol[T](max(m, n)))
					tm.Close(t, "U^H U "+what, um.H().Mul(um), tm.Eye(um.C), tol[T](max(m, n)))
					tm.Close(t, "V^H V "+what, vm.Mul(vm.H()), tm.Eye(vm.R), tol[T](max(m, n)))
				}
			}
		}
	}
}

func TestSyevdSyevr(t *testing.T) {
	tm.ForTypes(t, testSyev[float32, float32], testSyev[float64, float64], testSyev[complex64, float32], testSyev[complex128, float64])
}

func testSyev[T Scalar, R Real](t *testing.T) {
	rng := newRand(t)
	for _, n := range []int{0, 1, 7, 35} {
		for k := range tm.NumKinds {
			for _, uplo := range []cblas.Uplo{cblas.Lower, cblas.Upper} {
				b0 := tm.Rand(rng, n, n, !tm.IsComplex[T]())
				am := b0.Add(b0.H())
				what := fmt.Sprintf("n=%d %v uplo=%d", n, k, uplo)
				a := tm.From[T](am, k)
				w := make([]R, n)
				if err := Syevd(JobVectors, uplo, a.V, w); err != nil {
					t.Fatal(err)
				}
				a.CheckPadding(t, "Syevd")
				checkEigSym[T](t, "Syevd "+what, am, w, tm.Of(a.V))

				for _, rng2 := range []Range{AllValues(), IndicesIn(max(0, n/3), max(0, n-2)), ValuesIn(-1, 2)} {
					if n == 0 && rng2.kind == 'I' {
						continue
					}
					a2 := tm.From[T](am, k)
					z := tm.Empty[T](n, n, tm.ColStrided)
					w2 := make([]R, n)
					found, err := Syevr(JobVectors, uplo, rng2, a2.V, w2, z.V)
					if err != nil {
						t.Fatal(err)
					}
					z.CheckPadding(t, "Syevr z")
					sel := w[:0]
					for i, x := range w {
						switch rng2.kind {
						case 'A':
							sel = w[:n]
						case 'I':
							sel = w[rng2.il : rng2.iu+1]
						case 'V':
							if float64(x) > rng2.lo && float64(x) <= rng2.hi {
								sel = w[slices.IndexFunc(w, func(y R) bool { return float64(y) > rng2.lo }) : i+1]
							}
						}
					}
					if found != len(sel) {
						t.Fatalf("Syevr %s %c: found %d, want %d", what, rng2.kind, found, len(sel))
					}
					for i := range found {
						if d := math.Abs(float64(w2[i] - sel[i])); d > tol[T](n)*max(1, am.Norm()) {
							t.Fatalf("Syevr %s: w[%d] = %g, Syevd %g", what, i, w2[i], sel[i])
						}
					}
					checkEigSym[T](t, "Syevr "+what, am, w2[:found], tm.Of(z.V).Cols(0, found))
				}
			}
		}
	}
}

// checkEigSym checks A V = V diag(w), V^H V = I, w ascending.
func checkEigSym[T Scalar, R Real](t *testing.T, what string, a tm.M, w []R, v tm.M) {
	t.Helper()
	for i := 1; i < len(w); i++ {
		if w[i] < w[i-1] {
			t.Fatalf("%s: eigenvalues not ascending: %v", what, w)
		}
	}
	vw := v.Cols(0, len(w))
	for j := range w {
		for i := range v.R {
			vw.Set(i, j, vw.At(i, j)*complex(float64(w[j]), 0))
		}
	}
	tm.Close(t, "A V = V W "+what, a.Mul(v.Cols(0, len(w))), vw, tol[T](a.R)*max(1, a.Norm()))
	vv := v.Cols(0, len(w))
	tm.Close(t, "V^H V "+what, vv.H().Mul(vv), tm.Eye(len(w)), tol[T](a.R))
}

func TestGeev(t *testing.T) {
	tm.ForTypes(t, testGeev[float32, complex64], testGeev[float64, complex128], testGeev[complex64, complex64], testGeev[complex128, complex128])
}

func testGeev[T Scalar, C Complex](t *testing.T) {
	rng := newRand(t)
	for _, n := range []int{0, 1, 6, 25} {
		for k := range tm.NumKinds {
			a := tm.New[T](rng, n, n, k)
			am := tm.Of(a.V)
			w := make([]C, n)
			vl, vr := tm.Empty[T](n, n, tm.RowPacked), tm.Empty[T](n, n, tm.ColStrided)
			if err := Geev(JobVectors, JobVectors, a.V, w, vl.V, vr.V); err != nil {
				t.Fatal(err)
			}
			vl.CheckPadding(t, "Geev vl")
			vr.CheckPadding(t, "Geev vr")
			what := fmt.Sprintf("Geev n=%d %v", n, k)
			right, left := unpack[T](w, tm.Of(vr.V)), unpack[T](w, tm.Of(vl.V))
			for j := range n {
				lambda := complex128(w[j])
				rv, lv := right.Cols(j, j+1), left.Cols(j, j+1)
				av, lvA := am.Mul(rv), lv.H().Mul(am)
				for i := range n {
					rv.D[i] *= lambda
				}
				tm.Close(t, fmt.Sprintf("%s: A v = lambda v (%d)", what, j), av, rv, tol[T](n)*max(1, am.Norm()))
				lh := lv.H()
				for i := range n {
					lh.D[i] *= lambda
				}
				tm.Close(t, fmt.Sprintf("%s: u^H A = lambda u^H (%d)", what, j), lvA, lh, tol[T](n)*max(1, am.Norm()))
			}
		}
	}
}

// unpack turns Geev's vectors into complex columns (real types pack a
// conjugate pair into two real columns).
func unpack[T Scalar, C Complex](w []C, v tm.M) tm.M {
	if tm.IsComplex[T]() {
		return v
	}
	out := tm.Zeros(v.R, v.C)
	for j := 0; j < v.C; j++ {
		if imag(complex128(w[j])) != 0 && j+1 < v.C {
			for i := range v.R {
				re, im := real(v.At(i, j)), real(v.At(i, j+1))
				out.Set(i, j, complex(re, im))
				out.Set(i, j+1, complex(re, -im))
			}
			j++
			continue
		}
		for i := range v.R {
			out.Set(i, j, v.At(i, j))
		}
	}
	return out
}

func TestLangeGecon(t *testing.T) {
	tm.ForTypes(t, testLangeGecon[float32], testLangeGecon[float64], testLangeGecon[complex64], testLangeGecon[complex128])
}

func testLangeGecon[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {5, 9}, {9, 5}, {30, 30}} {
		m, n := sz[0], sz[1]
		for k := range tm.NumKinds {
			for _, how := range []string{"a", "a.T", "a.H", "conj"} {
				base := tm.New[T](rng, m, n, k)
				v := base.V
				switch how {
				case "a.T":
					v = v.T()
				case "a.H":
					v = v.H()
				case "conj":
					v = v.Conj()
				}
				am := tm.Of(v)
				ref := map[Norm]float64{OneNorm: norm1(am), InfNorm: norm1(am.T()), Frobenius: am.Norm()}
				for _, x := range am.D {
					ref[MaxAbs] = max(ref[MaxAbs], cmplx.Abs(x))
				}
				for _, nm := range []Norm{MaxAbs, OneNorm, InfNorm, Frobenius} {
					var got float64
					var err error
					c := copies(func() { got, err = Lange(nm, v) })
					if err != nil {
						t.Fatal(err)
					}
					if k.Addressable() && c != 0 {
						t.Fatalf("Lange %v %s: %d copies", k, how, c)
					}
					if d := math.Abs(got - ref[nm]); d > tol[T](max(m, n))*max(1, ref[nm]) {
						t.Fatalf("Lange %c %dx%d %v %s: %g, want %g", nm, m, n, k, how, got, ref[nm])
					}
				}
			}
			if m != n {
				continue
			}
			a := tm.New[T](rng, n, n, k)
			am := tm.Of(a.V)
			anorm, _ := Lange(OneNorm, a.V)
			ipiv := make([]int32, n)
			if err := Getrf(a.V, ipiv); err != nil {
				t.Fatal(err)
			}
			rc, err := Gecon(OneNorm, a.V, anorm)
			if err != nil {
				t.Fatal(err)
			}
			checkRcond(t, fmt.Sprintf("Gecon n=%d %v", n, k), rc, am)
			// Non-finite anorm: the same answer with every LAPACK version.
			for _, bad := range []float64{math.Inf(1), math.NaN()} {
				want := 0.0
				if n == 0 {
					want = 1
				} else if math.IsNaN(bad) {
					want = bad
				}
				rc, err := Gecon(OneNorm, a.V, bad)
				if err != nil || !(rc == want || math.IsNaN(rc) && math.IsNaN(want)) {
					t.Fatalf("Gecon n=%d anorm=%v: %v, %v; want %v, nil", n, bad, rc, err, want)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	// A zero pivot: index 1 (0-based) of U.
	sing, _ := views.FromColMajor([]float64{1, 2, 2, 4}, 2, 2)
	ipiv := make([]int32, 2)
	err := Getrf(sing.View(), ipiv)
	var le *Error
	if !errors.Is(err, ErrSingular) || !errors.As(err, &le) || le.Index != 1 || le.Routine != "dgetrf" || le.Info != 2 {
		t.Fatalf("singular Getrf: %v (%+v)", err, le)
	}
	// Not positive definite at the second leading minor.
	npd, _ := views.FromColMajor([]complex128{4, 2, 2, 1}, 2, 2)
	err = Potrf(cblas.Lower, npd.View())
	if !errors.Is(err, ErrNotPositiveDefinite) || !errors.As(err, &le) || le.Index != 1 || le.Routine != "zpotrf" {
		t.Fatalf("non-positive-definite Potrf: %v", err)
	}
	// A singular system leaves b unchanged.
	s2, _ := views.FromColMajor([]float32{0, 0, 0, 0}, 2, 2)
	b, _ := views.FromColMajor([]float32{1, 2}, 2, 1)
	if err := Gesv(s2.View(), b.View(), ipiv); !errors.Is(err, ErrSingular) || b.Data()[0] != 1 || b.Data()[1] != 2 {
		t.Fatalf("singular Gesv: %v, b = %v", err, b.Data())
	}
	// Triangular with a zero on the diagonal.
	tr, _ := views.FromColMajor([]float64{1, 0, 0, 0}, 2, 2)
	if err := Trtrs(cblas.Upper, cblas.NonUnit, tr.View(), b2(t)); !errors.Is(err, ErrSingular) {
		t.Fatalf("singular Trtrs: %v", err)
	}

	a, _ := views.Zeros[float64](3, 3)
	rect, _ := views.Zeros[float64](3, 2)
	short := make([]int32, 2)
	cases := map[string]error{
		"Getrf short ipiv":  Getrf(a.View(), short),
		"Gesv b rows":       Gesv(a.View(), reshape(rect.View(), 2, 3), make([]int32, 3)),
		"Getrs not square":  Getrs(NoTrans, rect.View(), short, rect.View()),
		"Getrs bad trans":   Getrs(Op('X'), a.View(), make([]int32, 3), rect.View()),
		"Potrf bad uplo":    Potrf(cblas.Uplo(7), a.View()),
		"Gesv overlap":      Gesv(a.View(), a.View(), make([]int32, 3)),
		"Geqrf short tau":   Geqrf(rect.View(), make([]float64, 1)),
		"Orgqr wide":        Orgqr(reshape(rect.View(), 2, 3), make([]float64, 1)),
		"Gesdd s type":      Gesdd(JobNone, a.View(), make([]float32, 3), views.View[float64]{}, views.View[float64]{}),
		"Gesdd u shape":     Gesdd(JobAll, a.View(), make([]float64, 3), rect.View(), a.View()),
		"Gesvd both O":      Gesvd(JobOverwrite, JobOverwrite, a.View(), make([]float64, 3), views.View[float64]{}, views.View[float64]{}),
		"Syevd bad job":     Syevd(JobAll, cblas.Lower, a.View(), make([]float64, 3)),
		"Lange bad norm":    second(Lange(Norm('x'), a.View())),
		"Gecon MaxAbs":      second(Gecon(MaxAbs, a.View(), 1)),
		"Ormqr complex T":   Ormqr(cblas.Left, Trans, views.View[complex64]{}, nil, views.View[complex64]{}),
		"rank 1":            Getrf(reshape(a.View(), 9), short),
		"Syevr bad indices": second(Syevr(JobNone, cblas.Lower, IndicesIn(2, 5), a.View(), make([]float64, 3), views.View[float64]{})),
		"Geev w type":       Geev(JobNone, JobNone, a.View(), make([]complex64, 3), views.View[float64]{}, views.View[float64]{}),
	}
	for name, err := range cases {
		if err == nil {
			t.Errorf("%s: no error", name)
		} else if errors.Is(err, ErrArgument) {
			t.Errorf("%s: reached LAPACK: %v", name, err)
		}
	}
	// Values no call takes match lapis.ErrInvalid, not a shape error.
	for name, err := range map[string]error{
		"Getrs bad trans": cases["Getrs bad trans"],
		"Potrf bad uplo":  cases["Potrf bad uplo"],
		"Gesvd both O":    cases["Gesvd both O"],
		"Syevd bad job":   cases["Syevd bad job"],
		"Lange bad norm":  cases["Lange bad norm"],
		"Syevr NaN bound": second(Syevr(JobNone, cblas.Lower, ValuesIn(math.NaN(), 1), a.View(), make([]float64, 3), views.View[float64]{})),
		"Syevr empty":     second(Syevr(JobNone, cblas.Lower, ValuesIn(1, 1), a.View(), make([]float64, 3), views.View[float64]{})),
	} {
		if !errors.Is(err, lapis.ErrInvalid) || errors.Is(err, layout.ErrShape) {
			t.Errorf("%s: %v, want lapis.ErrInvalid", name, err)
		}
	}
}

func b2(t *testing.T) views.View[float64] {
	b, err := views.FromColMajor([]float64{1, 1}, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	return b.View()
}

func second[A any](_ A, err error) error { return err }

func reshape[T Scalar](v views.View[T], shape ...int) views.View[T] {
	r, err := v.Reshape(shape...)
	if err != nil {
		panic(err)
	}
	return r
}

// TestPivotsChecked: pivots that are not rows are refused before LAPACK
// could write out of bounds with them.
func TestPivotsChecked(t *testing.T) {
	a, _ := views.Zeros[float64](3, 3)
	b, _ := views.Zeros[float64](3, 1)
	for _, ipiv := range [][]int32{{0, 2, 3}, {1, 4, 3}, {-1, 2, 3}} {
		if err := Getrs(NoTrans, a.View(), ipiv, b.View()); !errors.Is(err, layout.ErrBounds) {
			t.Fatalf("Getrs with pivots %v: %v", ipiv, err)
		}
		if err := Getri(a.View(), ipiv); !errors.Is(err, layout.ErrBounds) {
			t.Fatalf("Getri with pivots %v: %v", ipiv, err)
		}
	}
}

// TestWorkspaceRemembered: a routine asks LAPACK for its workspace once
// per shape, not once per call.
func TestWorkspaceRemembered(t *testing.T) {
	queries := wspace.Queries
	a, _ := views.Zeros[float32](37, 23)
	tau := make([]float32, 23)
	before := queries()
	for range 3 {
		if err := Geqrf(a.View(), tau); err != nil {
			t.Fatal(err)
		}
	}
	if got := queries() - before; got != 1 {
		t.Fatalf("3 calls of one shape made %d workspace queries, want 1", got)
	}
	b, _ := views.Zeros[float32](38, 23)
	if err := Geqrf(b.View(), tau); err != nil {
		t.Fatal(err)
	}
	if got := queries() - before; got != 2 {
		t.Fatalf("a new shape made %d queries in all, want 2", got)
	}
}

// TestIllegalArgument: should LAPACK ever reject an argument (lapis checks
// them first, so only a direct call of a dispatcher can make it), the
// error names it.
func TestIllegalArgument(t *testing.T) {
	info := clib.Getrf[float64](-1, 2, nil, 1, nil)
	err := infoErr[float64]("lapack.Getrf", "xgetrf", info)
	var le *Error
	if !errors.Is(err, ErrArgument) || !errors.As(err, &le) || le.Arg != "m" || le.Routine != "dgetrf" || le.Info != -1 {
		t.Fatalf("info %d: %v", info, err)
	}
	info = clib.Gesdd[complex64]('A', 2, 2, nil, 0, nil, nil, 1, nil, 1, nil, -1, nil, nil)
	if err := infoErr[complex64]("lapack.Gesdd", "xgesdd", info); !errors.As(err, &le) || le.Arg != "lda" || le.Routine != "cgesdd" {
		t.Fatalf("info %d: %v", info, err)
	}
}

// TestEdgeArguments: arguments at the edges are refused before LAPACK
// sees them, each error naming the argument as the caller knows it (more
// reflectors than Q has rows, a negative norm, w inside a, b's rows
// against f's order, an f that is not square, an unknown diag, pivots
// that are not rows), or work (Syevr of an empty matrix, Gelsd and
// LeastSquares with no right-hand side), and a copied z keeps the columns
// Syevr does not find.
func TestEdgeArguments(t *testing.T) {
	rng := newRand(t)
	var le *layout.Error
	named := func(err error, arg string) bool { return errors.As(err, &le) && le.Arg == arg }

	// More reflectors than Q has rows.
	q := tm.New[float64](rng, 2, 3, tm.ColPacked)
	tau := make([]float64, 3)
	if err := Geqrf(q.V, tau[:2]); err != nil {
		t.Fatal(err)
	}
	c := tm.New[float64](rng, 2, 2, tm.ColPacked)
	if err := Ormqr(cblas.Left, NoTrans, q.V, tau, c.V); !named(err, "tau") {
		t.Fatalf("Ormqr with 3 reflectors for order 2: %v", err)
	}
	// A negative norm.
	a := tm.New[float64](rng, 3, 3, tm.ColPacked)
	if _, err := Gecon(OneNorm, a.V, -1); !named(err, "anorm") {
		t.Fatalf("Gecon with anorm -1: %v", err)
	}
	if _, err := Pocon(cblas.Lower, a.V, -1); !named(err, "anorm") {
		t.Fatalf("Pocon with anorm -1: %v", err)
	}
	// Syevr of an empty matrix, whatever the range.
	empty := tm.New[float64](rng, 0, 0, tm.ColPacked)
	if found, err := Syevr(JobNone, cblas.Lower, IndicesIn(0, 0), empty.V, []float64(nil), views.View[float64]{}); err != nil || found != 0 {
		t.Fatalf("Syevr of a 0x0: %d, %v", found, err)
	}
	// Gelsd and LeastSquares with no right-hand side still work.
	g := tm.New[complex128](rng, 5, 3, tm.ColPacked)
	b0 := tm.New[complex128](rng, 5, 0, tm.ColPacked)
	s := make([]float64, 3)
	if rank, err := Gelsd(g.V, b0.V, s, -1); err != nil || rank != 3 || s[2] <= 0 {
		t.Fatalf("Gelsd with nrhs 0: rank %d, s %v, %v", rank, s, err)
	}
	if x, err := LeastSquares(tm.New[float32](rng, 4, 2, tm.RowPacked).V, tm.New[float32](rng, 4, 0, tm.ColPacked).V); err != nil || x.Len() != 0 {
		t.Fatalf("LeastSquares with no right-hand side: %v", err)
	}
	// Eigenvalues written inside the matrix.
	buf := make([]float64, 12)
	sym, _ := views.FromSlice(buf, must(layout.ColMajor(3, 3)))
	if err := Syevd(JobVectors, cblas.Lower, sym, buf[7:10]); !errors.Is(err, layout.ErrOverlap) || !named(err, "w") {
		t.Fatalf("Syevd with w inside a: %v", err)
	}
	// Arguments named as the caller knows them.
	f, bb := tm.New[float64](rng, 3, 3, tm.ColPacked), tm.New[float64](rng, 4, 1, tm.ColPacked)
	if err := Potrs(cblas.Lower, f.V, bb.V); !named(err, "b") || !errorsMentionText(err, "f's order") {
		t.Fatalf("Potrs with 4 rows of b: %v", err)
	}
	if err := Potri(cblas.Lower, tm.New[float64](rng, 2, 3, tm.ColPacked).V); !named(err, "f") {
		t.Fatalf("Potri of a 2x3: %v", err)
	}
	if err := Trtrs(cblas.Lower, cblas.Diag(77), a.V, bb.V); !named(err, "diag") {
		t.Fatalf("Trtrs with diag 77: %v", err)
	}
	// A copied z keeps the columns Syevr does not find.
	h := spd[float64](rng, 3)
	z := tm.New[float64](rng, 3, 3, tm.General)
	before := tm.Of(z.V)
	w := make([]float64, 3)
	if found, err := Syevr(JobVectors, cblas.Lower, IndicesIn(0, 0), tm.From[float64](h, tm.ColPacked).V, w, z.V); err != nil || found != 1 {
		t.Fatalf("Syevr: %d, %v", found, err)
	}
	if after := tm.Of(z.V); !slices.Equal(after.Cols(1, 3).D, before.Cols(1, 3).D) {
		t.Fatal("Syevr changed columns of a copied z it found nothing for")
	}
	// Pivots that are not rows.
	if _, err := Perm([]int32{5}, 2); !errors.Is(err, layout.ErrBounds) {
		t.Fatalf("Perm with pivot 5 of 2 rows: %v", err)
	}
	if _, err := Perm([]int32{1, 2, 3}, 2); !errors.Is(err, layout.ErrBounds) {
		t.Fatalf("Perm with 3 pivots for 2 rows: %v", err)
	}
}

func errorsMentionText(err error, s string) bool {
	return err != nil && strings.Contains(err.Error(), s)
}

func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}
