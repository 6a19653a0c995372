package cblas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

func matMul[T views.Scalar](a, b [][]T) [][]T {
	out := make([][]T, len(a))
	for i := range a {
		out[i] = make([]T, len(b[0]))
		for j := range out[i] {
			for p := range b {
				out[i][j] += a[i][p] * b[p][j]
			}
		}
	}
	return out
}

func transpose[T views.Scalar](a [][]T, conjugate bool) [][]T {
	if len(a) == 0 {
		return nil
	}
	out := make([][]T, len(a[0]))
	for j := range out {
		out[j] = make([]T, len(a))
		for i := range a {
			out[j][i] = a[i][j]
			if conjugate {
				out[j][i] = scalar.Conj(a[i][j])
			}
		}
	}
	return out
}

func triangle[T views.Scalar](a [][]T, uplo Uplo, diag Diag) [][]T {
	out := make([][]T, len(a))
	for i := range a {
		out[i] = make([]T, len(a))
		for j := range a {
			if inTri(uplo, i, j) {
				out[i][j] = a[i][j]
			}
			if i == j && diag == Unit {
				out[i][j] = tm.FromParts[T](1, 0)
			}
		}
	}
	return out
}

func lincomb[T views.Scalar](alpha T, x [][]T, beta T, y [][]T) [][]T {
	out := make([][]T, len(x))
	for i := range x {
		out[i] = make([]T, len(x[i]))
		for j := range x[i] {
			out[i][j] = alpha*x[i][j] + beta*y[i][j]
		}
	}
	return out
}

func testLevel3[T views.Scalar](t *testing.T, rng *rand.Rand, m, n, k int) {
	herm := views.IsComplex[T]()
	kinds := matrixKinds[T]()
	pick := func() mkind { return kinds[rng.IntN(len(kinds))] }
	for _, side := range []Side{Left, Right} {
		for _, uplo := range []Uplo{Upper, Lower} {
			for trial := 0; trial < 6; trial++ {
				ka, kb, kc := pick(), pick(), pick()
				name := fmt.Sprintf("%s m=%d n=%d k=%d side=%d uplo=%d a=%v b=%v c=%v", tm.TypeName[T](), m, n, k, side, uplo, ka, kb, kc)
				order := sideDim(side, m, n)
				alpha, beta := tm.Random[T](rng), tm.Random[T](rng)
				// Trmm / Trsm
				ao, a := newMat[T](rng, order, order, ka)
				for i := 0; i < order; i++ {
					a.Set(a.At(i, i)+tm.FromParts[T](float64(2*order+2), 0), i, i)
				}
				bo, b := newMat[T](rng, m, n, kb)
				for _, diag := range []Diag{NonUnit, Unit} {
					tri := triangle(snapshot(a), uplo, diag)
					b0 := snapshot(b)
					var want [][]T
					if side == Left {
						want = matMul(tri, b0)
					} else {
						want = matMul(b0, tri)
					}
					want = lincomb(alpha, want, *new(T), want)
					if err := Trmm(side, uplo, diag, alpha, a, b); err != nil {
						t.Fatalf("%s Trmm: %v", name, err)
					}
					closeMat(t, name+" Trmm", snapshot(b), want, order)
					if err := Trsm(side, uplo, diag, 1/alpha, a, b); err != nil {
						t.Fatalf("%s Trsm: %v", name, err)
					}
					if diag == NonUnit || order <= 8 {
						closeMat(t, name+" Trsm", snapshot(b), b0, 4*order+8)
					}
				}
				ao.CheckPadding(t, name+" a")
				bo.CheckPadding(t, name+" b")
				// Symm / Hemm
				co, c := newMat[T](rng, m, n, kc)
				_, b = newMat[T](rng, m, n, kb)
				for _, h := range []bool{false, true} {
					full := fullHerm(snapshot(a), uplo, h && herm)
					var prod [][]T
					if side == Left {
						prod = matMul(full, snapshot(b))
					} else {
						prod = matMul(snapshot(b), full)
					}
					want := lincomb(alpha, prod, beta, snapshot(c))
					var err error
					if h {
						err = Hemm(side, uplo, alpha, a, b, beta, c)
					} else {
						err = Symm(side, uplo, alpha, a, b, beta, c)
					}
					if err != nil {
						t.Fatalf("%s Symm/Hemm %v: %v", name, h, err)
					}
					closeMat(t, fmt.Sprintf("%s Symm/Hemm %v", name, h), snapshot(c), want, order+2)
				}
				co.CheckPadding(t, name+" c")
				// Syrk / Herk / Syr2k / Her2k on c' (m x m) with a', b' (m x k)
				so, s := newMat[T](rng, m, m, kc)
				_, p := newMat[T](rng, m, k, ka)
				_, q := newMat[T](rng, m, k, kb)
				ra, rb := 0.5, -1.5
				for form := 0; form < 4; form++ {
					before := snapshot(s)
					var upd [][]T
					var err error
					pv, qv := snapshot(p), snapshot(q)
					switch form {
					case 0:
						upd = lincomb(alpha, matMul(pv, transpose(pv, false)), beta, before)
						err = Syrk(uplo, alpha, p, beta, s)
					case 1:
						upd = lincomb(tm.FromParts[T](ra, 0), matMul(pv, transpose(pv, herm)), tm.FromParts[T](rb, 0), before)
						err = Herk(uplo, ra, p, rb, s)
					case 2:
						upd = lincomb(alpha, matMul(pv, transpose(qv, false)), beta, before)
						upd = lincomb(tm.FromParts[T](1, 0), upd, alpha, matMul(qv, transpose(pv, false)))
						err = Syr2k(uplo, alpha, p, q, beta, s)
					case 3:
						ab := matMul(pv, transpose(qv, herm))
						ba := matMul(qv, transpose(pv, herm))
						upd = lincomb(alpha, ab, scalar.Conj(alpha), ba)
						upd = lincomb(tm.FromParts[T](1, 0), upd, tm.FromParts[T](rb, 0), before)
						err = Her2k(uplo, alpha, p, q, rb, s)
					}
					if err != nil {
						t.Fatalf("%s form %d: %v", name, form, err)
					}
					got := snapshot(s)
					for i := range got {
						for j := range got[i] {
							if !inTri(uplo, i, j) {
								if got[i][j] != before[i][j] {
									t.Fatalf("%s form %d: [%d][%d] outside the triangle changed", name, form, i, j)
								}
								continue
							}
							g, w := got[i][j], upd[i][j]
							if i == j && herm && form%2 == 1 { // Hermitian forms: real diagonal
								g, w = scalar.Conj(g)/2+g/2, scalar.Conj(w)/2+w/2
							}
							if !close1(g, w, k+4) {
								t.Fatalf("%s form %d: [%d][%d] = %v, want %v", name, form, i, j, g, w)
							}
						}
					}
				}
				so.CheckPadding(t, name+" s")
			}
		}
	}
}

func TestLevel3(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, d := range [][3]int{{1, 1, 1}, {3, 4, 2}, {6, 5, 7}, {65, 63, 9}} {
		testLevel3[float64](t, rng, d[0], d[1], d[2])
		testLevel3[float32](t, rng, d[0], d[1], d[2])
		testLevel3[complex128](t, rng, d[0], d[1], d[2])
		testLevel3[complex64](t, rng, d[0], d[1], d[2])
	}
}

// TestLevel3ZeroCopies: column- and row-major operands that BLAS can
// address run in place for the routines whose flags allow it.
func TestLevel3ZeroCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	for _, k := range []tm.Kind{tm.ColPacked, tm.ColStrided, tm.RowPacked, tm.RowStrided} {
		a := tm.New[float64](rng, 5, 5, k)
		b := tm.New[float64](rng, 5, 5, k)
		c := tm.New[float64](rng, 5, 5, k)
		before := lapis.ReadStats()
		_ = Trsm(Left, Upper, NonUnit, 1, a.V, b.V)
		_ = Trmm(Right, Lower, Unit, 1, a.V, b.V)
		_ = Symm(Left, Upper, 1, a.V, b.V, 1, c.V)
		_ = Syrk(Lower, 1, a.V, 1, c.V)
		_ = Herk(Upper, 1, a.V.T(), 1, c.V)
		_ = Syr2k(Upper, 1, a.V, b.V, 1, c.V)
		d := lapis.ReadStats()
		if d.Copies != before.Copies || d.Calls-before.Calls != 6 {
			t.Errorf("%v: %d copies, %d calls", k, d.Copies-before.Copies, d.Calls-before.Calls)
		}
	}
}

func TestLevel3Errors(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	a := tm.New[float64](rng, 3, 3, tm.ColPacked)
	b := tm.New[float64](rng, 3, 4, tm.ColPacked)
	g := tm.New[float64](rng, 3, 3, tm.General)
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"Trsm side", Trsm(Right, Upper, NonUnit, 1, a.V, b.V), layout.ErrShape},
		{"Trsm enum", Trsm(Side(3), Upper, NonUnit, 1, a.V, b.V), lapis.ErrInvalid},
		{"Trsm aliased", Trsm(Left, Upper, NonUnit, 1, a.V, must2(views.FromSlice(a.Buf, must(layout.ColMajor(3, 2))))), layout.ErrOverlap},
		{"Symm shape", Symm(Left, Upper, 1, a.V, b.V, 0, a.V), layout.ErrShape},
		{"Syrk shape", Syrk(Upper, 1, b.V, 0, b.V), layout.ErrShape},
		{"Syr2k b", Syr2k(Upper, 1, a.V, b.V, 0, tm.New[float64](rng, 3, 3, tm.ColPacked).V), layout.ErrShape},
		{"Trmm strict", Trmm(Left, Lower, Unit, 1, g.V, b.V, lapis.Strict(true)), lapis.ErrCopyRefused},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}
