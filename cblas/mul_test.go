package cblas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

func TestMul(t *testing.T) {
	tm.ForTypes(t, testMul[float32], testMul[float64], testMul[complex64], testMul[complex128])
}

// testMul: every operand class (column- and row-major, padded, General,
// reversed), transposed and conjugated inputs, on the Go and C paths; the
// result is a new compact column-major tensor equal to the reference
// product, and the inputs are untouched.
func testMul[T views.Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, uint64(len(t.Name()))))
	type input struct {
		name string
		make func(r, c int) (views.View[T], tm.M) // an r x c operand and its values
	}
	inputs := []input{}
	for k := range tm.NumKinds {
		inputs = append(inputs, input{k.String(), func(r, c int) (views.View[T], tm.M) {
			o := tm.New[T](rng, r, c, k)
			return o.V, tm.Of(o.V)
		}})
	}
	inputs = append(inputs,
		input{"col.T", func(r, c int) (views.View[T], tm.M) { // row-major by transposing
			o := tm.New[T](rng, c, r, tm.ColPacked)
			v := o.V.T()
			return v, tm.Of(v)
		}},
		input{"row.H", func(r, c int) (views.View[T], tm.M) { // column-major, conjugated for complex
			o := tm.New[T](rng, c, r, tm.RowPacked)
			v := o.V.H()
			return v, tm.Of(v)
		}},
	)
	for _, sz := range [][3]int{{2, 3, 4}, {1, 1, 1}, {5, 1, 7}, {33, 17, 65}, {3, 0, 2}, {0, 4, 3}, {4, 3, 0}} {
		m, n, k := sz[0], sz[1], sz[2]
		for i, in := range inputs {
			jn := inputs[(i*5+len(t.Name()))%len(inputs)]
			for _, opt := range []lapis.Option{lapis.ForcePureGo(), lapis.ForceC()} {
				what := fmt.Sprintf("%dx%dx%d a=%s b=%s", m, n, k, in.name, jn.name)
				a, am := in.make(m, k)
				b, bm := jn.make(k, n)
				aBefore, bBefore := tm.Of(a), tm.Of(b)
				c, err := Mul(a, b, opt)
				if err != nil {
					t.Fatal(what, err)
				}
				if !slices.Equal(c.Shape(), []int{m, n}) || !c.Layout().IsColMajor() {
					t.Fatalf("%s: shape %v layout %v", what, c.Shape(), c.Layout())
				}
				tm.Close(t, what, tm.Of(c.View()), am.Mul(bm), float64(k+2)*8*scalar.Eps[T]())
				tm.Close(t, what+" a unchanged", tm.Of(a), aBefore, 0)
				tm.Close(t, what+" b unchanged", tm.Of(b), bBefore, 0)
				c.Release()
			}
		}
	}
}

// TestMulCopies: Mul copies only what Gemm copies (nothing for column- and
// row-major inputs) and makes one C call.
func TestMulCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	a := tm.New[float64](rng, 40, 30, tm.RowPacked)
	b := tm.New[float64](rng, 30, 20, tm.ColStrided)
	s0 := lapis.ReadStats()
	c, err := Mul(a.V, b.V, lapis.ForceC())
	if err != nil {
		t.Fatal(err)
	}
	c.Release()
	if d := lapis.ReadStats(); d.Copies != s0.Copies || d.Calls-s0.Calls != 1 {
		t.Fatalf("%d copies, %d C calls; want 0 and 1", d.Copies-s0.Copies, d.Calls-s0.Calls)
	}
}

func TestMulErrors(t *testing.T) {
	a := tm.New[float64](rand.New(rand.NewPCG(1, 2)), 2, 3, tm.ColPacked).V
	g := tm.New[float64](rand.New(rand.NewPCG(1, 2)), 3, 2, tm.General).V
	vec := must2(a.Index(1, 0))
	empty := func(r, c int) views.View[float64] {
		return must2(views.FromSlice[float64](nil, must(layout.New([]int{r, c}, []int{1, 1}, 0))))
	}
	for _, tc := range []struct {
		name string
		a, b views.View[float64]
		opts []lapis.Option
		is   error
		want string
	}{
		{"rank a", vec, a, nil, layout.ErrShape, "cblas.Mul: a: rank 1, want 2 (shape [2] strides [1] offset 0) (bad shape)"},
		{"rank b", a, vec, nil, layout.ErrShape, "cblas.Mul: b: rank 1, want 2 (shape [2] strides [1] offset 0) (bad shape)"},
		{"zero View", views.View[float64]{}, a, nil, layout.ErrBounds, "cblas.Mul: a: the zero View has no data (make views with FromSlice or Tensor.View) (out of bounds)"},
		{"inner", a, a, nil, layout.ErrShape, "cblas.Mul: b: 2 rows, want a's 3 columns (bad shape)"},
		{"strict", a, g, []lapis.Option{lapis.Strict(true)}, lapis.ErrCopyRefused, "cblas.Mul: b: a General layout (shape [3 2] strides [2 6] offset 1, class General) needs a copy and strict mode is on (operand needs a copy)"},
		{"overflow", empty(1<<40, 0), empty(0, 1<<40), nil, layout.ErrOverflow, "cblas.Mul: the result: [1099511627776 1099511627776] float64 elements: more than an int holds (integer overflow)"},
	} {
		c, err := Mul(tc.a, tc.b, tc.opts...)
		if c != nil || !errors.Is(err, tc.is) || err.Error() != tc.want {
			t.Errorf("%s: Mul = %v, %v\nwant nil, %q", tc.name, c, err, tc.want)
		}
	}
}
