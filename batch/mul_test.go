package batch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

func TestMul(t *testing.T) {
	tm.ForTypes(t, testMul[float32], testMul[float64], testMul[complex64], testMul[complex128])
}

// testMul: broadcast batch shapes, every matrix layout batch.Gemm takes
// (column- and row-major, padded, General, transposed, conjugated); the
// result is a new compact batch of the broadcast shape holding the
// reference products.
func testMul[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(21, uint64(len(t.Name()))))
	for _, bc := range []struct{ a, b, out []int }{
		{[]int{5}, []int{5}, []int{5}},
		{[]int{3, 2}, []int{1, 2}, []int{3, 2}},    // b broadcast on axis 2
		{[]int{2}, []int{2, 3, 2}, []int{2, 3, 2}}, // a missing axes
		{[]int{1}, []int{4}, []int{4}},             // a one matrix
		{[]int{4}, []int{}, []int{4}},              // b one matrix
		{[]int{}, []int{}, []int{}},                // rank 2: one product
		{[]int{3, 1}, []int{1, 4}, []int{3, 4}},    // each broadcast on another axis
		{[]int{1, 1, 2}, []int{2}, []int{2, 1, 2}}, // extent-1 axes kept
		{[]int{0}, []int{1}, []int{0}},             // no matrices
		{[]int{2, 0}, []int{2, 1}, []int{2, 0}},    // no matrices, later axis
	} {
		for _, sz := range [][3]int{{3, 4, 2}, {1, 5, 3}, {20, 17, 9}, {2, 0, 3}, {2, 3, 0}} {
			m, n, k := sz[0], sz[1], sz[2]
			for i := range 6 {
				ka := []tm.Kind{tm.ColPacked, tm.RowPacked, tm.ColStrided, tm.General}[i%4]
				kb := []tm.Kind{tm.RowPacked, tm.ColPacked, tm.General, tm.ColStrided}[(i+1)%4]
				a := newBatch[T](rng, m, k, bc.a, ka).v
				b := newBatch[T](rng, k, n, bc.b, kb).v
				name := fmt.Sprintf("a %v%v b %v%v %dx%dx%d kinds %v %v", []int{m, k}, bc.a, []int{k, n}, bc.b, m, n, k, ka, kb)
				switch i {
				case 4: // a transposed batch: row-major matrices from column-major ones
					a = must(newBatch[T](rng, k, m, bc.a, tm.ColPacked).v.Transpose(0, 1))
					name += " a=col.T"
				case 5:
					a, b = a.Conj(), b.Conj()
					name += " conj"
				}
				c, err := Mul(a, b)
				if err != nil {
					t.Fatal(name, err)
				}
				if want := append([]int{m, n}, bc.out...); !slices.Equal(c.Shape(), want) || !c.Layout().IsColMajor() {
					t.Fatalf("%s: shape %v, want %v, layout %v", name, c.Shape(), want, c.Layout())
				}
				am, bm := flatMatrices(a), flatMatrices(b)
				for ti, got := range flatMatrices(c.View()) {
					want := broadcastAt(am, bc.out, bc.a, ti).Mul(broadcastAt(bm, bc.out, bc.b, ti))
					tm.Close(t, fmt.Sprintf("%s matrix %d", name, ti), got, want, tol[T](k))
				}
				c.Release()
			}
		}
	}
}

func TestMulErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	a := newBatch[float64](rng, 3, 4, []int{5}, tm.ColPacked).v
	b := newBatch[float64](rng, 4, 2, []int{5}, tm.ColPacked).v
	b3 := newBatch[float64](rng, 4, 2, []int{3}, tm.ColPacked).v
	g := newBatch[float64](rng, 4, 2, []int{5}, tm.General).v
	empty := func(shape ...int) views.View[float64] {
		st := make([]int, len(shape))
		return must(views.FromSlice[float64](nil, must(layout.New(shape, st, 0))))
	}
	for _, tc := range []struct {
		name string
		a, b views.View[float64]
		opts []lapis.Option
		is   error
		want string
	}{
		{"rank a", must(first(a).Index(1, 0)), b, nil, layout.ErrShape, "batch.Mul: a: rank 1, want at least 2 ([rows, cols, batch...]) (bad shape)"},
		{"zero b", a, views.View[float64]{}, nil, layout.ErrBounds, "batch.Mul: b: the zero View has no data (make views with FromSlice or Tensor.View) (out of bounds)"},
		{"inner", a, a, nil, layout.ErrShape, "batch.Mul: b: 3 rows, want a's 4 columns (bad shape)"},
		{"batch", a, b3, nil, layout.ErrShape, "batch.Mul: b: batch axis 2 has extent 3, a's has 5 (one of them must be 1 to broadcast) (bad shape)"},
		{"strict", a, g, []lapis.Option{lapis.Strict(true)}, lapis.ErrCopyRefused, "batch.Mul: b: a layout BLAS cannot take as it is (shape [4 2] strides [2 8] offset 1, class General) needs a copy and strict mode is on (operand needs a copy)"},
		{"overflow", empty(1<<40, 0, 2), empty(0, 1<<40), nil, layout.ErrOverflow, "batch.Mul: b: the output: [1099511627776 1099511627776 2] float64 elements: more than an int holds (integer overflow)"},
	} {
		c, err := Mul(tc.a, tc.b, tc.opts...)
		if c != nil || !errors.Is(err, tc.is) || err.Error() != tc.want {
			t.Errorf("%s: Mul = %v, %v\nwant nil, %q", tc.name, c, err, tc.want)
		}
	}
}
