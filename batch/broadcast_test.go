package batch

import (
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Right-hand sides with no batch axes (or extent-1 ones) broadcast over a's
// batch in the functions that only read b, by Gemm's rule for its inputs:
// Solve, SolveTo, CholeskySolve, CholeskySolveTo and LeastSquares, each
// checked against the per-matrix lapack helper.

// bcRandom returns a compact tensor of shape with entries in [-1, 1)
// (both parts), plus shift on the diagonal of each matrix when the
// matrices are square (well conditioned for shift > 1.5 n).
func bcRandom[T Scalar](rng *rand.Rand, shift float64, shape ...int) *views.Tensor[T] {
	x := must2(views.Zeros[T](shape...))
	d := x.Data()
	for i := range d {
		d[i] = tm.FromParts[T](2*rng.Float64()-1, 2*rng.Float64()-1)
	}
	if shift != 0 && len(shape) >= 2 && shape[0] == shape[1] {
		n := shape[0]
		for m := 0; m < len(d)/(n*n); m++ {
			for i := range n {
				d[m*n*n+i*(n+1)] += tm.FromParts[T](shift, 0)
			}
		}
	}
	return x
}

// bcSPD returns a batch of Hermitian positive definite matrices [n, n,
// shape...] and their lower Cholesky factors.
func bcSPD[T Scalar](t *testing.T, rng *rand.Rand, n int, shape []int) (a, l *views.Tensor[T]) {
	a = bcRandom[T](rng, 0, append([]int{n, n}, shape...)...)
	d := a.Data()
	for m := 0; m < count(shape); m++ {
		blk := d[m*n*n : (m+1)*n*n]
		for j := range n {
			for i := range j {
				blk[i+j*n] = scalar.Conj(blk[j+i*n])
			}
			blk[j*(n+1)] = tm.FromParts[T](2*float64(n)+2, 0) // diagonally dominant
		}
	}
	l, err := Cholesky(Lower, a.View())
	if err != nil {
		t.Fatal(err)
	}
	return a, l
}

// bcWant returns the per-matrix reference of a solve of the batch a
// (batch shape shape) with the right-hand sides b broadcast over it:
// ref(a_t, b_t) for every matrix t, b_t b itself for a vector b, else
// matrix t of b's broadcast (layout.BroadcastTo, the reference of the
// rule), laid out as the broadcast call's result should be (b_t's
// shape, then shape).
func bcWant[T Scalar](t *testing.T, a views.View[T], shape []int, b views.View[T], ref func(a, b views.View[T]) (*views.Tensor[T], error)) *views.Tensor[T] {
	t.Helper()
	var out *views.Tensor[T]
	var per int
	bb := b
	if b.Rank() >= 2 {
		bb = must2(b.BroadcastTo(append(b.Shape()[:2], shape...)...))
	}
	for m := 0; m < count(shape); m++ {
		bm := b
		if b.Rank() >= 2 {
			bm = matrixAt(bb, shape, m)
		}
		x, err := ref(matrixAt(a, shape, m), bm)
		if err != nil {
			t.Fatalf("reference: %v", err)
		}
		if out == nil {
			out = must2(views.Zeros[T](append(x.Shape(), shape...)...))
			per = x.Len()
		}
		copy(out.Data()[m*per:(m+1)*per], x.Data())
		x.Release()
	}
	return out
}

// bcClose reports whether got (any layout) has want's shape and values
// within tol (relative to the largest |want|).
func bcClose[T Scalar](got views.View[T], want *views.Tensor[T], tol float64) error {
	if !slices.Equal(got.Shape(), want.Shape()) {
		return fmt.Errorf("shape %v, want %v", got.Shape(), want.Shape())
	}
	g := got.ToColMajor()
	defer g.Release()
	scale := 1.0
	for _, w := range want.Data() {
		scale = max(scale, cmplx.Abs(scalar.Complex128(w)))
	}
	for i, w := range want.Data() {
		if d := cmplx.Abs(scalar.Complex128(g.Data()[i]) - scalar.Complex128(w)); !(d <= tol*scale) {
			return fmt.Errorf("element %d: %v, want %v", i, g.Data()[i], w)
		}
	}
	return nil
}

func TestBroadcastRHS(t *testing.T) {
	t.Run("float32", testBroadcastRHS[float32])
	t.Run("float64", testBroadcastRHS[float64])
	t.Run("complex64", testBroadcastRHS[complex64])
	t.Run("complex128", testBroadcastRHS[complex128])
}

func testBroadcastRHS[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 2))
	tol := 1e3 * scalar.Eps[T]()
	shape := []int{3, 2}
	for _, n := range []int{3, 7, 20} { // the tiny kernels (real types), the strided C loop, gesv
		a := bcRandom[T](rng, 2*float64(n)+2, append([]int{n, n}, shape...)...)
		f, l := bcSPD[T](t, rng, n, shape)
		tall := bcRandom[T](rng, 0, append([]int{n + 2, n}, shape...)...)
		for _, bs := range [][]int{{n}, {n, 2}, {n, 2, 1}, {n, 2, 1, 2}} {
			b := bcRandom[T](rng, 0, bs...)
			bt := bcRandom[T](rng, 0, append([]int{n + 2}, bs[1:]...)...)
			before := slices.Clone(b.Data())
			resShape := append(slices.Clone(bs[:min(len(bs), 2)]), shape...)
			what := fmt.Sprintf("n=%d/b%v", n, bs)

			want := bcWant(t, a.View(), shape, b.View(), func(a, b views.View[T]) (*views.Tensor[T], error) { return lapack.Solve(a, b) })
			x, err := Solve(a.View(), b.View())
			if err != nil {
				t.Fatalf("%s: Solve: %v", what, err)
			}
			if e := bcClose(x.View(), want, tol); e != nil {
				t.Errorf("%s: Solve: %v", what, e)
			}
			dst := must2(views.Full[T](tm.FromParts[T](7, 0), resShape...))
			if err := SolveTo(dst.View(), a.View(), b.View()); err != nil {
				t.Errorf("%s: SolveTo: %v", what, err)
			} else if e := bcClose(dst.View(), want, tol); e != nil {
				t.Errorf("%s: SolveTo: %v", what, e)
			}
			// A destination that is not compact: its transpose's storage.
			if len(resShape) == 4 {
				tr := must2(views.Zeros[T](resShape[1], resShape[0], resShape[2], resShape[3]))
				xt := must2(tr.View().Permute(1, 0, 2, 3))
				if err := SolveTo(xt, a.View(), b.View()); err != nil {
					t.Errorf("%s: SolveTo row-major x: %v", what, err)
				} else if e := bcClose(xt, want, tol); e != nil {
					t.Errorf("%s: SolveTo row-major x: %v", what, e)
				}
			}

			wantC := bcWant(t, f.View(), shape, b.View(), func(a, b views.View[T]) (*views.Tensor[T], error) { return lapack.Solve(a, b) })
			xc, err := CholeskySolve(Lower, l.View(), b.View())
			if err != nil {
				t.Fatalf("%s: CholeskySolve: %v", what, err)
			}
			if e := bcClose(xc.View(), wantC, tol); e != nil {
				t.Errorf("%s: CholeskySolve: %v", what, e)
			}
			dstC := must2(views.Zeros[T](resShape...))
			if err := CholeskySolveTo(Lower, dstC.View(), l.View(), b.View()); err != nil {
				t.Errorf("%s: CholeskySolveTo: %v", what, err)
			} else if e := bcClose(dstC.View(), wantC, tol); e != nil {
				t.Errorf("%s: CholeskySolveTo: %v", what, e)
			}

			wantL := bcWant(t, tall.View(), shape, bt.View(), func(a, b views.View[T]) (*views.Tensor[T], error) { return lapack.LeastSquares(a, b) })
			xl, err := LeastSquares(tall.View(), bt.View())
			if err != nil {
				t.Fatalf("%s: LeastSquares: %v", what, err)
			}
			if e := bcClose(xl.View(), wantL, tol); e != nil {
				t.Errorf("%s: LeastSquares: %v", what, e)
			}

			if !slices.Equal(b.Data(), before) {
				t.Errorf("%s: b was modified", what)
			}
			for _, r := range []*views.Tensor[T]{want, wantC, wantL, x, xc, xl, dst, dstC, b, bt} {
				r.Release()
			}
		}
		a.Release()
		f.Release()
		l.Release()
		tall.Release()
	}
}

// The broadcast is the rule of Gemm's inputs, nothing more: batch axes
// that neither match a's nor have extent 1 are refused, and so are more
// batch axes than a has; the in-place forms, which write b, do not
// broadcast it; a destination of the wrong shape is refused.
func TestBroadcastRHSRefused(t *testing.T) {
	a := must2(views.Zeros[float64](3, 3, 4)).View()
	for _, c := range []struct {
		what string
		b    []int
	}{
		{"extent 2 against 4", []int{3, 1, 2}},
		{"more batch axes", []int{3, 1, 4, 2}},
		{"rows", []int{2, 1}},
	} {
		b := must2(views.Zeros[float64](c.b...)).View()
		if _, err := Solve(a, b); !errors.Is(err, layout.ErrShape) {
			t.Errorf("Solve, b %s: %v, want ErrShape", c.what, err)
		}
	}
	b := must2(views.Full[float64](1, 3, 1)).View()
	if err := Gesv(must2(views.Zeros[float64](3, 3, 4)).View(), b); !errors.Is(err, layout.ErrShape) {
		t.Errorf("Gesv with b [3, 1]: %v, want ErrShape (b is written)", err)
	}
	x := must2(views.Zeros[float64](3, 1, 4)).View()
	if err := SolveTo(x, a, must2(views.Zeros[float64](3)).View()); !errors.Is(err, layout.ErrShape) {
		t.Errorf("SolveTo of a vector b into [3, 1, 4]: %v, want ErrShape (x is [3, 4])", err)
	}
	if err := SolveTo(must2(views.Zeros[float64](3, 1, 2)).View(), a, b); !errors.Is(err, layout.ErrShape) {
		t.Errorf("SolveTo into [3, 1, 2]: %v, want ErrShape", err)
	}
}
