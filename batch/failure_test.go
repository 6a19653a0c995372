package batch

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// A failed factorisation travels with the data: CholeskySolve on the
// factors Cholesky returned reports the matrix whose factorisation failed
// again, instead of solving from its partial factor, and solves all the
// others.
func testSolveAfterFailedCholesky[T Scalar](t *testing.T) {
	const n, count, bad = 3, 10000, 4321
	rng := rand.New(rand.NewPCG(10, 1))
	for _, uplo := range []cblas.Uplo{cblas.Lower, cblas.Upper} {
		a := spdBatch[T](rng, n, []int{count}, tm.ColPacked)
		m := matrixAt(a.v, []int{count}, bad)
		m.Set(-1, 2, 2) // not positive definite at the minor of order 3
		f := cloneBatch(a)
		err := Potrf(uplo, f.v)
		var be *Error
		if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[bad] == nil {
			t.Fatalf("uplo %v: Cholesky: %v, want matrix %d reported", uplo, err, bad)
		}
		b := newBatch[T](rng, n, 1, []int{count}, tm.ColPacked)
		x := cloneBatch(b)
		err = Potrs(uplo, f.v, x.v)
		if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[bad] == nil ||
			!errors.Is(err, lapack.ErrNotPositiveDefinite) {
			t.Fatalf("uplo %v: CholeskySolve on the failed factor: %v, want matrix %d reported not positive definite", uplo, err, bad)
		}
		if got := be.Failed[bad].Index; got != 2 {
			t.Errorf("uplo %v: failing index %d, want 2 (as Cholesky said: %v)", uplo, got, err)
		}
		// The failed matrix's right-hand side is untouched; the others solved.
		for _, i := range []int{0, bad - 1, bad, bad + 1, count - 1} {
			bm, xm, am := matrixAt(b.v, []int{count}, i), matrixAt(x.v, []int{count}, i), matrixAt(a.v, []int{count}, i)
			if i == bad {
				tm.Close(t, "untouched b", tm.Of(xm), tm.Of(bm), 0)
				continue
			}
			full := tm.Of(am)
			for r := range n { // the other triangle of the SPD matrix, for the residual
				for c := range n {
					if (uplo == cblas.Lower) == (r < c) {
						full.Set(r, c, full.At(c, r))
						if tm.IsComplex[T]() {
							full.Set(r, c, complexConj(full.At(c, r)))
						}
					}
				}
			}
			tm.Close(t, "a x = b", full.Mul(tm.Of(xm)), tm.Of(bm), 1e3*scalar.Eps[T]())
		}
	}
}

func complexConj(c complex128) complex128 { return complex(real(c), -imag(c)) }

func TestSolveAfterFailedCholesky(t *testing.T) {
	tm.ForTypes(t, testSolveAfterFailedCholesky[float32], testSolveAfterFailedCholesky[float64],
		testSolveAfterFailedCholesky[complex64], testSolveAfterFailedCholesky[complex128])
}

// A NaN in the matrix: OpenBLAS's potf2 does not report it (NaN <= 0 is
// false), but the factor's diagonal carries it, so the solve is refused.
func TestSolveAfterNaNCholesky(t *testing.T) {
	a := must2(views.FromColMajor([]float64{4, 2, 2, nan()}, 2, 2))
	_ = lapack.Potrf(cblas.Lower, a.View()) // whatever it says
	b := must2(views.FromColMajor([]float64{1, 1}, 2, 1))
	if err := lapack.Potrs(cblas.Lower, a.View(), b.View()); !errors.Is(err, lapack.ErrNotPositiveDefinite) {
		t.Errorf("Potrs on a NaN factor: %v, want ErrNotPositiveDefinite", err)
	}
	if b.At(0, 0) != 1 || b.At(1, 0) != 1 {
		t.Errorf("b written: %v", b.Data())
	}
}

func must2[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

func nan() float64 { return math.NaN() }

// A batch of vectors for right-hand sides: the error says which shape one
// right-hand side per matrix has, and how to get it.
func TestBatchRHSShapeHint(t *testing.T) {
	a := must2(views.Zeros[float64](3, 3, 5))
	for t := range 5 {
		for i := range 3 {
			a.Set(1, i, i, t)
		}
	}
	b := must2(views.Zeros[float64](3, 5))
	err := Gesv(a.View(), b.View())
	if err == nil || !strings.Contains(err.Error(), "b.Reshape(3, 1, 5)") {
		t.Errorf("Solve with b [3 5] for a [3 3 5]: %v; want the Reshape(3, 1, 5) hint", err)
	}
	if err := Gesv(a.View(), must2(b.View().Reshape(3, 1, 5))); err != nil {
		t.Errorf("with the hint followed: %v", err)
	}
}

// Solve and Inv report an ill-conditioned matrix of the batch, with its
// result written, whatever the layout, at order 2 (the exact check in Go)
// and 20 (the conditioning check of lapack.Solve's estimate, CheckInverse);
// NoConditionCheck turns it off.
func TestBatchIllConditioned(t *testing.T) {
	for _, n := range []int{2, 20} {
		testBatchIllConditioned(t, n)
	}
}

func testBatchIllConditioned(t *testing.T, n int) {
	const count, bad = 7, 3
	eps := 0x1p-52
	build := func(rowMajor bool) views.View[float64] {
		a := must2(views.Zeros[float64](n, n, count))
		for q := range count {
			for i := range n {
				for j := range n {
					v := 1.0 // well conditioned: ones plus (n+1) I
					if i == j {
						v += float64(n)
					}
					if q == bad { // I with [[1 1] [1 1+eps]] in its corner
						v = 0
						if i == j || i < 2 && j < 2 {
							v = 1
						}
						if i == 1 && j == 1 {
							v = 1 + eps
						}
					}
					a.Set(v, i, j, q)
				}
			}
		}
		v := a.View()
		if rowMajor {
			v, _ = v.Transpose(0, 1) // the same values as a^T: still one ill-conditioned matrix
		}
		return v
	}
	for _, rowMajor := range []bool{false, true} {
		for _, nocheck := range []bool{false, true} {
			var opts []lapis.Option
			if nocheck {
				opts = append(opts, lapis.NoConditionCheck())
			}
			a := build(rowMajor)
			b := must2(views.Zeros[float64](n, 1, count))
			for i := range b.Data() {
				b.Data()[i] = 1
			}
			errSolve := Gesv(a, b.View(), opts...)
			ai := build(rowMajor)
			errInv := InvTo(ai, ai, opts...)
			for name, err := range map[string]error{"Solve": errSolve, "Inv": errInv} {
				var be *Error
				switch {
				case nocheck && err != nil:
					t.Errorf("n=%d rowMajor=%v %s with NoConditionCheck: %v", n, rowMajor, name, err)
				case !nocheck && (!errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[bad] == nil || !errors.Is(err, lapack.ErrIllConditioned)):
					t.Errorf("n=%d rowMajor=%v %s: %v; want matrix %d reported ill-conditioned", n, rowMajor, name, err, bad)
				}
			}
			if x := b.At(1, 0, bad); math.IsNaN(x) || x == 1 { // x = [1 0 ...]
				t.Errorf("n=%d rowMajor=%v: the ill-conditioned system's x was not written: %v", n, rowMajor, x)
			}
		}
	}
}

// BenchmarkSolveCondCheck: batch.Gesv with its conditioning check against
// NoConditionCheck, 10000 float64 SPD matrices of order n, one right-hand
// side.
func BenchmarkSolveCondCheck(b *testing.B) {
	oneThread(b)
	rng := rand.New(rand.NewPCG(14, 1))
	for _, n := range []int{3, 8, 32} {
		a0 := spdBatch[float64](rng, n, []int{10000}, tm.ColPacked)
		b0 := newBatch[float64](rng, n, 1, []int{10000}, tm.ColPacked)
		for _, c := range []struct {
			name string
			opts []lapis.Option
		}{{"check", nil}, {"nocheck", []lapis.Option{lapis.NoConditionCheck()}}} {
			b.Run(fmt.Sprintf("op=solve/n=%d/impl=%s", n, c.name), func(b *testing.B) {
				a, x := cloneBatch(a0), cloneBatch(b0)
				for b.Loop() {
					b.StopTimer()
					copy(a.buf, a0.buf)
					copy(x.buf, b0.buf)
					b.StartTimer()
					if err := Gesv(a.v, x.v, c.opts...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
