package cblas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The kinds of matrix operand Level 2 and 3 tests draw from, with an
// optional conjugation, and the vector strides.
type mkind struct {
	k    tm.Kind
	conj bool
}

func (m mkind) String() string { return m.k.String() + cs(m.conj) }

func matrixKinds[T views.Scalar]() []mkind {
	var ks []mkind
	for k := range tm.NumKinds {
		ks = append(ks, mkind{k, false})
		if views.IsComplex[T]() {
			ks = append(ks, mkind{k, true})
		}
	}
	return ks
}

func newMat[T views.Scalar](rng *rand.Rand, r, c int, mk mkind) (tm.Operand[T], views.View[T]) {
	o := tm.New[T](rng, r, c, mk.k)
	v := o.V
	if mk.conj {
		v = v.Conj()
	}
	return o, v
}

func newVec[T views.Scalar](rng *rand.Rand, n, stride int, conj bool) (tm.Operand[T], views.View[T]) {
	o := newVector[T](rng, n, stride)
	v := o.V
	if conj {
		v = v.Conj()
	}
	return o, v
}

func closeMat[T views.Scalar](t *testing.T, name string, got, want [][]T, n int) {
	t.Helper()
	for i := range want {
		for j := range want[i] {
			if !close1(got[i][j], want[i][j], n) {
				t.Fatalf("%s: [%d][%d] = %v, want %v", name, i, j, got[i][j], want[i][j])
			}
		}
	}
}

func closeVec[T views.Scalar](t *testing.T, name string, got, want []T, n int) {
	t.Helper()
	for i := range want {
		if !close1(got[i], want[i], n) {
			t.Fatalf("%s: [%d] = %v, want %v", name, i, got[i], want[i])
		}
	}
}

// inTri reports whether (i, j) lies in the uplo triangle (diagonal
// included).
func inTri(uplo Uplo, i, j int) bool {
	if uplo == Upper {
		return i <= j
	}
	return i >= j
}

// fullHerm builds the full matrix a Hermitian (herm) or symmetric routine
// sees from the uplo triangle of a's values.
func fullHerm[T views.Scalar](a [][]T, uplo Uplo, herm bool) [][]T {
	n := len(a)
	f := make([][]T, n)
	for i := range f {
		f[i] = make([]T, n)
		for j := range f[i] {
			switch {
			case i == j && herm:
				f[i][j] = scalar.Conj(a[i][i])/2 + a[i][i]/2 // the real part
			case inTri(uplo, i, j):
				f[i][j] = a[i][j]
			case herm:
				f[i][j] = scalar.Conj(a[j][i])
			default:
				f[i][j] = a[j][i]
			}
		}
	}
	return f
}

func matVec[T views.Scalar](a [][]T, x []T) []T {
	y := make([]T, len(a))
	for i := range a {
		for j := range x {
			y[i] += a[i][j] * x[j]
		}
	}
	return y
}

func testLevel2[T views.Scalar](t *testing.T, rng *rand.Rand, m, n int) {
	for _, mk := range matrixKinds[T]() {
		for _, sx := range []int{1, -2} {
			for _, cx := range []bool{false, true} {
				if cx && !views.IsComplex[T]() {
					continue
				}
				name := fmt.Sprintf("%s m=%d n=%d a=%v x stride %d%s", tm.TypeName[T](), m, n, mk, sx, cs(cx))
				// Gemv
				ao, a := newMat[T](rng, m, n, mk)
				xo, x := newVec[T](rng, n, sx, cx)
				yo, y := newVec[T](rng, m, -sx, !cx && views.IsComplex[T]())
				alpha, beta := tm.Random[T](rng), tm.Random[T](rng)
				ax := matVec(snapshot(a), values1(x))
				want := values1(y)
				for i := range want {
					want[i] = alpha*ax[i] + beta*want[i]
				}
				if err := Gemv(alpha, a, x, beta, y); err != nil {
					t.Fatalf("%s Gemv: %v", name, err)
				}
				closeVec(t, name+" Gemv", values1(y), want, n)
				ao.CheckPadding(t, name+" Gemv a")
				xo.CheckPadding(t, name+" Gemv x")
				yo.CheckPadding(t, name+" Gemv y")
				// Ger: a += alpha x' y'^T with x' length m
				xo2, x2 := newVec[T](rng, m, sx, cx)
				wantA := snapshot(a)
				yv := values1(x)
				for i := range wantA {
					for j := range wantA[i] {
						wantA[i][j] += alpha * values1(x2)[i] * yv[j]
					}
				}
				if err := Ger(alpha, x2, x, a); err != nil {
					t.Fatalf("%s Ger: %v", name, err)
				}
				closeMat(t, name+" Ger", snapshot(a), wantA, 2)
				ao.CheckPadding(t, name+" Ger a")
				xo2.CheckPadding(t, name+" Ger x")
				// Square routines
				for _, uplo := range []Uplo{Upper, Lower} {
					sname := fmt.Sprintf("%s uplo=%d", name, uplo)
					so, s := newMat[T](rng, n, n, mk)
					for i := 0; i < n; i++ { // well conditioned for Trsv
						s.Set(s.At(i, i)+tm.Random[T](rng)*0+tm.FromParts[T](float64(2*n+2), 0), i, i)
					}
					_, v := newVec[T](rng, n, sx, cx)
					_, w := newVec[T](rng, n, 1, false)
					// Hemv (Symv for real types)
					full := fullHerm(snapshot(s), uplo, views.IsComplex[T]())
					ws := matVec(full, values1(v))
					wantW := values1(w)
					for i := range wantW {
						wantW[i] = alpha*ws[i] + beta*wantW[i]
					}
					if err := Hemv(uplo, alpha, s, v, beta, w); err != nil {
						t.Fatalf("%s Hemv: %v", sname, err)
					}
					closeVec(t, sname+" Hemv", values1(w), wantW, n)
					if !views.IsComplex[T]() {
						if err := Symv(uplo, alpha, s, v, beta, w); err != nil {
							t.Fatalf("%s Symv: %v", sname, err)
						}
					}
					// Trmv, Trsv
					for _, diag := range []Diag{NonUnit, Unit} {
						tri := snapshot(s)
						for i := range tri {
							for j := range tri[i] {
								if !inTri(uplo, i, j) {
									tri[i][j] = 0
								}
								if i == j && diag == Unit {
									tri[i][j] = tm.FromParts[T](1, 0)
								}
							}
						}
						x0 := values1(v)
						if err := Trmv(uplo, diag, s, v); err != nil {
							t.Fatalf("%s Trmv: %v", sname, err)
						}
						closeVec(t, sname+" Trmv", values1(v), matVec(tri, x0), n)
						if err := Trsv(uplo, diag, s, v); err != nil {
							t.Fatalf("%s Trsv: %v", sname, err)
						}
						if diag == NonUnit || n <= 8 {
							// A random unit triangular matrix is badly
							// conditioned; the round trip is checked
							// only where its error stays small.
							closeVec(t, sname+" Trsv", values1(v), x0, 4*n)
						}
					}
					// Her, Her2 (Syr, Syr2 for real types)
					_, v = newVec[T](rng, n, sx, cx) // fresh: Trsv and Hemv grew v and w
					_, w = newVec[T](rng, n, 1, false)
					before := snapshot(s)
					ralpha := 0.75
					xs, ws2 := values1(v), values1(w)
					if err := Her(uplo, ralpha, v, s); err != nil {
						t.Fatalf("%s Her: %v", sname, err)
					}
					if err := Her2(uplo, alpha, v, w, s); err != nil {
						t.Fatalf("%s Her2: %v", sname, err)
					}
					got := snapshot(s)
					for i := 0; i < n; i++ {
						for j := 0; j < n; j++ {
							if !inTri(uplo, i, j) {
								if got[i][j] != before[i][j] {
									t.Fatalf("%s Her: [%d][%d] outside the triangle changed", sname, i, j)
								}
								continue
							}
							w := before[i][j] + xs[i]*scalar.Conj(xs[j])*tm.FromParts[T](ralpha, 0) + alpha*xs[i]*scalar.Conj(ws2[j]) + scalar.Conj(alpha)*ws2[i]*scalar.Conj(xs[j])
							if i == j && views.IsComplex[T]() {
								w = scalar.Conj(w)/2 + w/2
								got[i][j] = scalar.Conj(got[i][j])/2 + got[i][j]/2
							}
							if !close1(got[i][j], w, 16) {
								t.Fatalf("%s Her/Her2: [%d][%d] = %v, want %v", sname, i, j, got[i][j], w)
							}
						}
					}
					so.CheckPadding(t, sname+" square a")
				}
			}
		}
	}
}

func TestLevel2(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, mn := range [][2]int{{1, 1}, {3, 4}, {7, 5}, {65, 63}} {
		testLevel2[float64](t, rng, mn[0], mn[1])
		testLevel2[float32](t, rng, mn[0], mn[1])
		testLevel2[complex128](t, rng, mn[0], mn[1])
		testLevel2[complex64](t, rng, mn[0], mn[1])
	}
}

func TestLevel2Errors(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	a := tm.New[complex128](rng, 3, 4, tm.ColPacked)
	sq := tm.New[complex128](rng, 3, 3, tm.ColPacked)
	x, y := newVector[complex128](rng, 4, 1), newVector[complex128](rng, 3, 1)
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"Gemv x length", Gemv(1, a.V, y.V, 0, y.V), layout.ErrShape},
		{"Gemv y aliases x", Gemv(1, sq.V, y.V, 0, y.V), layout.ErrOverlap},
		{"Ger shape", Ger(1, x.V, x.V, a.V), layout.ErrShape},
		{"Hemv not square", Hemv(Upper, 1, a.V, x.V, 0, y.V), layout.ErrShape},
		{"Hemv uplo", Hemv(Uplo(7), 1, sq.V, y.V, 0, newVector[complex128](rng, 3, 1).V), lapis.ErrInvalid},
		{"Trsv diag", Trsv(Upper, Diag(-1), sq.V, y.V), lapis.ErrInvalid},
		{"Symv complex", Symv(Upper, 1, sq.V, y.V, 0, newVector[complex128](rng, 3, 1).V), lapis.ErrUnsupported},
		{"Syr complex", Syr(Upper, 1, y.V, sq.V), lapis.ErrUnsupported},
		{"Syr2 complex", Syr2(Upper, 1, y.V, y.V, sq.V), lapis.ErrUnsupported},
		{"Her strict", Her(Upper, 1, y.V.Conj(), sq.V, lapis.Strict(true)), lapis.ErrCopyRefused},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}

// TestLevel2ZeroCopies: every BLAS-addressable, unconjugated layout runs in
// place.
func TestLevel2ZeroCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for _, k := range []tm.Kind{tm.ColPacked, tm.ColStrided, tm.RowPacked, tm.RowStrided} {
		a := tm.New[float64](rng, 6, 6, k)
		x, y := newVector[float64](rng, 6, -3), newVector[float64](rng, 6, 2)
		before := lapis.ReadStats()
		_ = Gemv(1, a.V, x.V, 1, y.V)
		_ = Ger(1, x.V, y.V, a.V)
		_ = Hemv(Lower, 1, a.V, x.V, 1, y.V)
		_ = Symv(Upper, 1, a.V, x.V, 1, y.V)
		_ = Trmv(Upper, Unit, a.V, x.V)
		_ = Syr(Lower, 2, x.V, a.V)
		_ = Syr2(Upper, 2, x.V, y.V, a.V)
		d := lapis.ReadStats()
		calls := int64(7)
		if blasgo.RealSymvOverRead { // Hemv and Symv in Go (see Symv)
			calls = 5
		}
		if d.Copies != before.Copies || d.Calls-before.Calls != calls || d.Small-before.Small != 7-calls {
			t.Errorf("a %v: %d copies, %d calls, %d in Go", k, d.Copies-before.Copies, d.Calls-before.Calls, d.Small-before.Small)
		}
	}
}
