package elem

import (
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// randExpr builds a random expression over the leaves, depth at most d,
// and its value at an index by the oracle.
func randExpr[T Scalar](r *rand.Rand, leaves []views.View[T], d int, linear bool) (Expr[T], func(idx []int) T) {
	if d == 0 || r.IntN(4) == 0 {
		v := leaves[r.IntN(len(leaves))]
		return X(v), func(idx []int) T { return at(v, idx) }
	}
	alpha := scalar.FromFloat[T](float64(r.IntN(7)-3) / 2)
	a, fa := randExpr(r, leaves, d-1, linear)
	k := r.IntN(6)
	if linear {
		k = r.IntN(4)
	}
	switch k {
	case 0:
		return a.Scale(alpha), func(idx []int) T { return alpha * fa(idx) }
	case 1:
		return a.Neg(), func(idx []int) T { return -fa(idx) }
	}
	b, fb := randExpr(r, leaves, d-1, linear)
	switch k {
	case 2:
		return a.Add(b), func(idx []int) T { return fa(idx) + fb(idx) }
	case 3:
		return a.Sub(b), func(idx []int) T { return fa(idx) - fb(idx) }
	case 4:
		return a.Mul(b), func(idx []int) T { return fa(idx) * fb(idx) }
	}
	return a.Div(b), func(idx []int) T { return fa(idx) / fb(idx) }
}

// agree is closeTo, but any two non-finite values agree: a division by
// a zero the tree makes (x - x) gives complex infinities and NaNs whose
// pattern depends on how the coefficients were folded.
func agree[T Scalar](got, want T) bool {
	g, w := scalar.Complex128(got), scalar.Complex128(want)
	finite := func(z complex128) bool { return !cmplx.IsInf(z) && !cmplx.IsNaN(z) }
	if !finite(w) || !finite(g) {
		return !finite(w) && !finite(g)
	}
	return closeTo(got, want, 1e-4)
}

func testExpr[T Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(17, uint64(scalar.Index[T]())))
	for c := range 600 {
		rank := r.IntN(5)
		shape := randShape(r, rank)
		nleaf := 1 + r.IntN(4)
		leaves := make([]views.View[T], nleaf)
		for i := range leaves {
			leaves[i] = makeView[T](r, shape, classes[r.IntN(len(classes))], false)
		}
		linear := c%2 == 0
		e, want := randExpr(r, leaves, 1+r.IntN(5), linear)
		dst := makeView[T](r, shape, classes[r.IntN(len(classes))], true)
		name := fmt.Sprintf("case %d %T %v leaves %d linear %v", c, *new(T), shape, nleaf, linear)
		if err := EvalTo(dst, e); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		indices(shape, func(idx []int) {
			if got, w := dst.At(idx...), want(idx); !agree(got, w) {
				t.Fatalf("%s: at %v got %v want %v", name, idx, got, w)
			}
		})
		res, err := Eval(e)
		if err != nil {
			t.Fatalf("%s Eval: %v", name, err)
		}
		indices(shape, func(idx []int) {
			if got, w := res.At(idx...), want(idx); !agree(got, w) {
				t.Fatalf("%s Eval: at %v got %v want %v", name, idx, got, w)
			}
		})
		res.Release()
	}
}

func TestExpr(t *testing.T) {
	t.Run("float32", testExpr[float32])
	t.Run("float64", testExpr[float64])
	t.Run("complex64", testExpr[complex64])
	t.Run("complex128", testExpr[complex128])
}

// TestExprKernels: linear combinations of up to three views run as one
// arithmetic kernel, others as programs; (a + a^T)/2 is one Axpby.
func TestExprKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	a := makeView[float64](r, []int{5, 5}, "colmajor", false)
	x := makeView[float64](r, []int{5, 5}, "strided", false)
	y := makeView[float64](r, []int{5, 5}, "rowmajor", false)
	for _, c := range []struct {
		e    Expr[float64]
		want opcode
	}{
		{X(a).Add(X(a.T())).Scale(0.5), opAxpby},
		{X(a).Scale(2).Add(X(x).Scale(3)).Add(X(y)), opLin3},
		{X(a).Sub(X(a)).Add(X(a).Neg()), opScale},
		{X(x).Mul(X(y)), opProg},
	} {
		var cp compiled[float64]
		if err := cp.leaves("t", c.e.n); err != nil {
			t.Fatal(err)
		}
		if k, ok := cp.kernel(c.e.n, new(program[float64])); !ok || k.op != c.want {
			t.Errorf("kernel %d, want %d", k.op, c.want)
		}
	}
}

// TestExprInPlace: the destination may be one of the expression's views
// element for element, on the linear and the program path, contiguous
// or strided.
func TestExprInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for _, class := range []string{"colmajor", "strided", "rowmajor"} {
		a := makeView[float64](r, []int{70, 3}, class, true)
		b := makeView[float64](r, []int{70, 3}, "colmajor", false)
		before := must(Eval(X(a)))
		if err := EvalTo(a, X(a).Mul(X(b)).Add(X(a))); err != nil {
			t.Fatal(err)
		}
		if err := EvalTo(a, X(a).Scale(2).Sub(X(b))); err != nil {
			t.Fatal(err)
		}
		indices([]int{70, 3}, func(idx []int) {
			x0, y := before.At(idx...), b.At(idx...)
			if want := 2*(x0*y+x0) - y; a.At(idx...) != want {
				t.Fatalf("%s at %v: %v, want %v", class, idx, a.At(idx...), want)
			}
		})
	}
}

// TestReviewFindings holds the cases a review of the package found
// wrong, each failing before its fix.
func TestReviewFindings(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	// ArgMax with another axis empty: no lines, no panic.
	if got, err := ArgMax(must(views.Zeros[float64](3, 0)).View(), 0); err != nil || len(got) != 0 {
		t.Errorf("ArgMax of [3 0] along 0: %v, %v", got, err)
	}
	// More than three views: the views are still checked against dst.
	sq := makeView[float64](r, []int{2, 2}, "colmajor", true)
	b := makeView[float64](r, []int{2, 2}, "colmajor", false)
	c := makeView[float64](r, []int{2, 2}, "strided", false)
	d := makeView[float64](r, []int{2, 2}, "reversed", false)
	if err := EvalTo(sq, X(sq.T()).Mul(X(b)).Add(X(c).Mul(X(d)))); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("four views, one the transpose of dst: %v, want layout.ErrOverlap", err)
	}
	// A deep chain fits the program's slots: one pass, no temporaries.
	x := makeView[float64](r, []int{5}, "colmajor", false)
	e := X(x)
	for range 40 {
		e = e.Mul(X(x)).Scale(0.5)
	}
	var cp compiled[float64]
	if err := cp.leaves("t", e.n); err != nil {
		t.Fatal(err)
	}
	if _, ok := cp.kernel(e.n, new(program[float64])); !ok {
		t.Errorf("a left-deep chain of 80 operations does not fit a program")
	}
	// Exact aliasing whatever the stride of an extent-1 axis.
	data := []float64{1, 2, 3}
	l1 := must(layout.New([]int{3, 1}, []int{1, 3}, 0))
	l2 := must(layout.New([]int{3, 1}, []int{1, 1}, 0))
	v1, v2 := must(views.FromSlice(data, l1)), must(views.FromSlice(data, l2))
	if err := AddTo(v1, v2, makeView[float64](r, []int{3, 1}, "strided", false)); err != nil {
		t.Errorf("exact aliasing with another extent-1 stride: %v", err)
	}
	// The oracle's row-major class is row-major.
	if l := makeView[float64](r, []int{3, 4}, "rowmajor", false).Layout(); !l.IsRowMajor() || l.IsColMajor() {
		t.Errorf("row-major class: %s", l.String())
	}
}
