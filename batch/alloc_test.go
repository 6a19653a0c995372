package batch

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// TestAllocating: each allocating form equals its To or in-place form on
// copies, bit for bit, leaves its operands unchanged, and returns its
// tensor with a *Error when some matrices fail.
func TestAllocating(t *testing.T) {
	tm.ForTypes(t, testAllocating[float32], testAllocating[float64], testAllocating[complex64], testAllocating[complex128])
}

func testAllocating[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{3, 7, 20} {
		for _, kind := range []tm.Kind{tm.ColPacked, tm.RowPacked, tm.General} {
			shape := []int{5}
			a := newBatch[T](rng, n, n, shape, kind)
			b := newBatch[T](rng, n, 2, shape, kind)
			spd := spdBatch[T](rng, n, shape, kind)
			keepA, keepB, keepS := slices.Clone(a.buf), slices.Clone(b.buf), slices.Clone(spd.buf)
			kept := func(what string) {
				t.Helper()
				if !same(a.buf, keepA) || !same(b.buf, keepB) || !same(spd.buf, keepS) {
					t.Fatalf("n=%d %v: %s changed an operand", n, kind, what)
				}
			}

			x, err := Solve(a.v, b.v)
			kept("Solve")
			want := compactLike(b.v)
			if werr := SolveTo(want, a.v, b.v); (err == nil) != (werr == nil) {
				t.Fatalf("Solve: %v, SolveTo: %v", err, werr)
			}
			equalBatches(t, "Solve", x.View(), want)

			inv, err := Inv(a.v)
			kept("Inv")
			wantInv := compactLike(a.v)
			if werr := InvTo(wantInv, a.v); (err == nil) != (werr == nil) {
				t.Fatalf("Inv: %v, InvTo: %v", err, werr)
			}
			equalBatches(t, "Inv", inv.View(), wantInv)

			l, err := Cholesky(Lower, spd.v)
			kept("Cholesky")
			if err != nil {
				t.Fatal(err)
			}
			wantL := compactLike(spd.v)
			if err := CholeskyTo(Lower, wantL, spd.v); err != nil {
				t.Fatal(err)
			}
			equalBatches(t, "Cholesky", l.View(), wantL)

			cx, err := CholeskySolve(Lower, l.View(), b.v)
			kept("CholeskySolve")
			if err != nil {
				t.Fatal(err)
			}
			wantX := compactLike(b.v)
			if err := CholeskySolveTo(Lower, wantX, l.View(), b.v); err != nil {
				t.Fatal(err)
			}
			equalBatches(t, "CholeskySolve", cx.View(), wantX)

			// Least squares on tall matrices: against Gels on copies.
			m := n + 3
			ta := newBatch[T](rng, m, n, shape, kind)
			tb := newBatch[T](rng, m, 2, shape, kind)
			keepTA, keepTB := slices.Clone(ta.buf), slices.Clone(tb.buf)
			ls, err := LeastSquares(ta.v, tb.v)
			if err != nil {
				t.Fatal(err)
			}
			if !same(ta.buf, keepTA) || !same(tb.buf, keepTB) {
				t.Fatal("LeastSquares changed an operand")
			}
			ga, gb := cloneBatch(ta), cloneBatch(tb)
			if err := Gels(ga.v, gb.v); err != nil {
				t.Fatal(err)
			}
			top, _ := gb.v.Slice(0, 0, n, 1)
			if got := ls.Shape(); !slices.Equal(got, []int{n, 2, 5}) {
				t.Fatalf("LeastSquares shape %v", got)
			}
			closeBatches(t, "LeastSquares", ls.View(), top, tol[T](m)*100)
		}
	}

	// A singular matrix: the tensor comes back with the *Error.
	a := newBatch[T](rand.New(rand.NewPCG(1, 2)), 4, 4, []int{3}, tm.ColPacked)
	m1, _ := a.v.Index(2, 1)
	for i := range 4 {
		m1.Set(0, i, 0)
	}
	inv, err := Inv(a.v)
	var be *Error
	if !errors.As(err, &be) || inv == nil || !slices.Equal(be.Indices(), []int{1}) {
		t.Fatalf("Inv of a batch with a singular matrix: %v, %v", inv, err)
	}
	// Indices are in order, whatever order the map gives.
	e := &Error{Failed: map[int]*lapack.Error{9: nil, 2: nil, 5: nil, 0: nil}}
	if got := e.Indices(); !slices.Equal(got, []int{0, 2, 5, 9}) {
		t.Fatalf("Indices = %v", got)
	}
	// A bad argument: nil and the error.
	bad, _ := views.Zeros[T](4, 3, 3)
	if x, err := Inv(bad.View()); err == nil || x != nil {
		t.Fatalf("Inv of 4x3 matrices: %v, %v", x, err)
	}
}

// same reports whether x and y hold the same values, NaN padding equal
// to NaN.
func same[T Scalar](x, y []T) bool {
	return slices.EqualFunc(x, y, func(p, q T) bool { return p == q || p != p && q != q })
}

// compactLike returns a new compact column-major batch of v's shape.
func compactLike[T Scalar](v views.View[T]) views.View[T] {
	z, err := views.Zeros[T](v.Shape()...)
	if err != nil {
		panic(err)
	}
	return z.View()
}

// TestAllocatingNames: the allocating forms' errors name the function
// called, not the To form it runs: a per-matrix failure (*Error) and an
// error of the To form's own checks alike.
func TestAllocatingNames(t *testing.T) {
	// Two 2x2 matrices, the second singular (so not positive definite).
	a, _ := views.FromColMajor([]float64{2, 0, 0, 2, 1, 2, 2, 4}, 2, 2, 2)
	_, err := Cholesky(Lower, a.View())
	var e *Error
	if !errors.As(err, &e) || e.Op != "batch.Cholesky" || !strings.HasPrefix(err.Error(), "batch.Cholesky: ") {
		t.Errorf("Cholesky of a singular matrix: %v (%T)", err, err)
	}
	_, err = Inv(a.View())
	if !errors.As(err, &e) || e.Op != "batch.Inv" {
		t.Errorf("Inv of a singular matrix: %v", err)
	}
	if _, err := Cholesky(Uplo('x'), a.View()); err == nil || !strings.HasPrefix(err.Error(), "batch.Cholesky: ") {
		t.Errorf("Cholesky with a bad uplo: %v", err)
	}
}
