package elem

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The oracle: every operation against a plain index-by-index loop over
// At, for every layout class of destination and sources, the four
// element types, ranks 0 to 8 and extents 0 and 1.

// classes are the layout classes of the operands.
var classes = []string{"colmajor", "rowmajor", "strided", "reversed", "broadcast", "conj"}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// randVal returns a random value of T (small integers and halves, some
// negative, so that exact results are exact).
func randVal[T Scalar](r *rand.Rand) T {
	re := float64(r.IntN(17)-8) / 2
	im := float64(r.IntN(17)-8) / 2
	if re == 0 {
		re = 0.5
	}
	var x T
	switch p := any(&x).(type) {
	case *complex64:
		*p = complex(float32(re), float32(im))
	case *complex128:
		*p = complex(re, im)
	default:
		x = scalar.FromFloat[T](re)
	}
	return x
}

// makeView returns a view of the shape in the class, over fresh random
// data. A broadcast view repeats along one random axis (extent 1 there
// in its storage); for a destination (write) the class falls back to a
// strided view, as a broadcast view cannot be written.
func makeView[T Scalar](r *rand.Rand, shape []int, class string, write bool) views.View[T] {
	if class == "broadcast" && (write || len(shape) == 0) {
		class = "strided"
	}
	big := slices.Clone(shape)
	switch class {
	case "strided":
		for k := range big {
			if big[k] > 0 {
				big[k] = 2*big[k] + 1
			}
		}
	case "broadcast":
		big[r.IntN(len(big))] = 1
	}
	if class == "rowmajor" { // storage of the reversed shape, its axes reversed
		slices.Reverse(big)
	}
	t := must(views.Zeros[T](big...))
	for i := range t.Data() {
		t.Data()[i] = randVal[T](r)
	}
	v := t.View()
	switch class {
	case "rowmajor":
		perm := make([]int, len(shape))
		for k := range perm {
			perm[k] = len(shape) - 1 - k
		}
		v = must(v.Permute(perm...))
	case "strided":
		for k, e := range shape {
			if e > 0 {
				v = must(v.Slice(k, 1, 2*e, 2))
			}
		}
	case "reversed":
		for k := range shape {
			v = must(v.Reverse(k))
		}
	case "broadcast":
		v = must(v.BroadcastTo(shape...))
	case "conj":
		v = v.Conj()
	}
	return v
}

func prod(s []int) int {
	n := 1
	for _, e := range s {
		n *= e
	}
	return n
}

// indices calls f with every index of shape, column-major order.
func indices(shape []int, f func(idx []int)) {
	n := prod(shape)
	idx := make([]int, len(shape))
	for range n {
		f(idx)
		for a := range idx {
			if idx[a]++; idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
}

// at reads v at idx, broadcast to a longer index (trailing axes of v
// missing; extent-1 axes repeat).
func at[T Scalar](v views.View[T], idx []int) T {
	sh := v.Shape()
	i := make([]int, len(sh))
	for k := range sh {
		if sh[k] != 1 {
			i[k] = idx[k]
		}
	}
	return v.At(i...)
}

// close reports whether got equals want, exactly or (tol > 0) within
// tol relative to the operands' size.
func closeTo[T Scalar](got, want T, tol float64) bool {
	g, w := scalar.Complex128(got), scalar.Complex128(want)
	if cmplx.IsNaN(g) || cmplx.IsNaN(w) {
		return cmplx.IsNaN(g) && cmplx.IsNaN(w)
	}
	if g == w || tol == 0 {
		return g == w
	}
	return cmplx.Abs(g-w) <= tol*(1+cmplx.Abs(w))
}

type opCase[T Scalar] struct {
	name  string
	nsrc  int
	real  bool // real types only
	to    func(dst, a, b views.View[T]) error
	plain func(a, b views.View[T]) (*views.Tensor[T], error)
	want  func(a, b T) T
}

func opCases[T Scalar]() []opCase[T] {
	const al, be = 1.5, -0.5
	alpha, beta := scalar.FromFloat[T](al), scalar.FromFloat[T](be)
	sq := func(x T) T { return x*x + 1 }
	f2 := func(x, y T) T { return x*y - y }
	return []opCase[T]{
		{"Add", 2, false, AddTo[T], Add[T], func(a, b T) T { return a + b }},
		{"Sub", 2, false, SubTo[T], Sub[T], func(a, b T) T { return a - b }},
		{"Mul", 2, false, MulTo[T], Mul[T], func(a, b T) T { return a * b }},
		{"Div", 2, false, DivTo[T], Div[T], func(a, b T) T { return a / b }},
		{"Maximum", 2, true, MaximumTo[T], Maximum[T], func(a, b T) T { return orderOf(opMax, a, b) }},
		{"Minimum", 2, true, MinimumTo[T], Minimum[T], func(a, b T) T { return orderOf(opMin, a, b) }},
		{"Axpby", 2, false,
			func(d, a, b views.View[T]) error { return AxpbyTo(d, alpha, a, beta, b) },
			func(a, b views.View[T]) (*views.Tensor[T], error) { return Axpby(alpha, a, beta, b) },
			func(a, b T) T { return alpha*a + beta*b }},
		{"Zip", 2, false,
			func(d, a, b views.View[T]) error { return ZipTo(d, a, b, f2) },
			func(a, b views.View[T]) (*views.Tensor[T], error) { return Zip(a, b, f2) },
			f2},
		{"Scale", 1, false,
			func(d, a, _ views.View[T]) error { return ScaleTo(d, alpha, a) },
			func(a, _ views.View[T]) (*views.Tensor[T], error) { return Scale(alpha, a) },
			func(a, _ T) T { return alpha * a }},
		{"Neg", 1, false, func(d, a, _ views.View[T]) error { return NegTo(d, a) },
			func(a, _ views.View[T]) (*views.Tensor[T], error) { return Neg(a) },
			func(a, _ T) T { return -a }},
		{"Abs", 1, false, func(d, a, _ views.View[T]) error { return AbsTo(d, a) },
			func(a, _ views.View[T]) (*views.Tensor[T], error) { return Abs(a) },
			func(a, _ T) T { return absOf(a) }},
		{"Conj", 1, false, func(d, a, _ views.View[T]) error { return ConjTo(d, a) },
			func(a, _ views.View[T]) (*views.Tensor[T], error) { return Conj(a) },
			func(a, _ T) T { return scalar.Conj(a) }},
		{"Map", 1, false, func(d, a, _ views.View[T]) error { return MapTo(d, a, sq) },
			func(a, _ views.View[T]) (*views.Tensor[T], error) { return Map(a, sq) },
			func(a, _ T) T { return sq(a) }},
		{"Fill", 0, false, func(d, _, _ views.View[T]) error { return Fill(d, alpha) }, nil,
			func(_, _ T) T { return alpha }},
	}
}

// randShape returns a shape of the rank with extents 0 to 3 (0 rarely),
// at most 300 elements.
func randShape(r *rand.Rand, rank int) []int {
	for {
		s := make([]int, rank)
		for k := range s {
			s[k] = 1 + r.IntN(3)
			if r.IntN(16) == 0 {
				s[k] = 0
			}
		}
		if prod(s) <= 300 {
			return s
		}
	}
}

func testOracle[T Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(7, uint64(scalar.Index[T]())))
	for _, c := range opCases[T]() {
		if c.real && scalar.IsComplex[T]() {
			d := must(views.Zeros[T](2))
			if err := c.to(d.View(), d.View(), d.View()); err == nil {
				t.Errorf("%s on %T: no error", c.name, *new(T))
			}
			continue
		}
		tol := 0.0
		if c.name == "Axpby" || c.name == "Div" {
			tol = 1e-6 // fused or complex division may round differently
		}
		for rank := 0; rank <= 8; rank++ {
			for _, dc := range classes {
				for _, ac := range classes {
					bc := classes[r.IntN(len(classes))]
					shape := randShape(r, rank)
					dst := makeView[T](r, shape, dc, true)
					a := makeView[T](r, shape, ac, false)
					b := makeView[T](r, shape, bc, false)
					name := fmt.Sprintf("%s %T shape %v dst %s a %s b %s", c.name, *new(T), shape, dc, ac, bc)
					if err := c.to(dst, a, b); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					indices(shape, func(idx []int) {
						if got, want := dst.At(idx...), c.want(at(a, idx), at(b, idx)); !closeTo(got, want, tol) {
							t.Fatalf("%s: at %v got %v want %v", name, idx, got, want)
						}
					})
					if c.plain == nil {
						continue
					}
					res, err := c.plain(a, b)
					if err != nil {
						t.Fatalf("%s plain: %v", name, err)
					}
					if rv := res.View(); !slices.Equal(rv.Shape(), shape) && !(c.nsrc == 0) {
						t.Fatalf("%s plain: shape %v", name, rv.Shape())
					}
					indices(shape, func(idx []int) {
						if got, want := res.At(idx...), c.want(at(a, idx), at(b, idx)); !closeTo(got, want, tol) {
							t.Fatalf("%s plain: at %v got %v want %v", name, idx, got, want)
						}
					})
					res.Release()
				}
			}
		}
	}
}

func TestOracle(t *testing.T) {
	t.Run("float32", testOracle[float32])
	t.Run("float64", testOracle[float64])
	t.Run("complex64", testOracle[complex64])
	t.Run("complex128", testOracle[complex128])
}

// TestBroadcastShapes: the plain forms broadcast their operands (leading
// axes align; a missing trailing axis or an extent 1 repeats), and a
// shape that does not broadcast is an error naming the operand.
func TestBroadcastShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a := makeView[float64](r, []int{3, 4, 2}, "colmajor", false)
	col := makeView[float64](r, []int{3}, "strided", false)
	row := makeView[float64](r, []int{1, 4}, "rowmajor", false)
	s := must(Add(a, col))
	if !slices.Equal(s.Shape(), []int{3, 4, 2}) {
		t.Fatalf("a + col: shape %v", s.Shape())
	}
	indices([]int{3, 4, 2}, func(idx []int) {
		if s.At(idx...) != a.At(idx...)+col.At(idx[0]) {
			t.Fatalf("a + col at %v", idx)
		}
	})
	o := must(Mul(col, row)) // outer product [3] x [1, 4] -> [3, 4]
	if !slices.Equal(o.Shape(), []int{3, 4}) || o.At(2, 3) != col.At(2)*row.At(0, 3) {
		t.Fatalf("col * row: shape %v", o.Shape())
	}
	bad := makeView[float64](r, []int{4}, "colmajor", false)
	_, err := Add(a, bad)
	var le *layout.Error
	if !errors.Is(err, layout.ErrShape) || !errors.As(err, &le) || le.Arg != "b" {
		t.Errorf("a + [4]: %v, want layout.ErrShape naming b", err)
	}
	if err := AddTo(col, a, a); !errors.Is(err, layout.ErrShape) {
		t.Errorf("AddTo into a smaller dst: %v", err)
	}
}

// TestAliasing: a destination may be an operand element for element;
// partial overlap and a broadcast destination are refused, and nothing
// is written then.
func TestAliasing(t *testing.T) {
	x := must(views.FromColMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	v := x.View()
	if err := AddTo(v, v, v); err != nil || x.At(1, 2) != 12 {
		t.Fatalf("x = x + x: %v, %v", err, x.Data())
	}
	if err := ScaleTo(v, 0.5, v); err != nil || x.At(1, 2) != 6 {
		t.Fatalf("x = x/2: %v, %v", err, x.Data())
	}
	before := slices.Clone(x.Data())
	sq := must(views.FromColMajor([]float64{1, 2, 3, 4}, 2, 2))
	if err := AddTo(sq.View(), sq.View(), sq.View().T()); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("x = x + x^T: %v, want layout.ErrOverlap", err)
	}
	shifted := must(v.Slice(1, 1, 3, 1))
	head := must(v.Slice(1, 0, 2, 1))
	if err := NegTo(shifted, head); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("shifted overlap: %v, want layout.ErrOverlap", err)
	}
	bc := must(must(views.FromColMajor([]float64{1, 2}, 2)).View().BroadcastTo(2, 3))
	if err := Fill(bc, 1.0); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("fill of a broadcast view: %v, want layout.ErrOverlap", err)
	}
	if !slices.Equal(x.Data(), before) {
		t.Errorf("a refused call wrote: %v, was %v", x.Data(), before)
	}
}

// TestNaNPropagates: IEEE arithmetic, no checks; Maximum and Minimum propagate
// NaN as numpy's maximum and minimum do.
func TestNaNPropagates(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	a := must(views.FromColMajor([]float64{nan, 1, inf, 0}, 4)).View()
	b := must(views.FromColMajor([]float64{1, nan, 1, 0}, 4)).View()
	m := must(Maximum(a, b))
	if !math.IsNaN(m.At(0)) || !math.IsNaN(m.At(1)) || m.At(2) != inf {
		t.Errorf("Maximum: %v", m.Data())
	}
	q := must(Div(b, a))
	if !math.IsNaN(q.At(3)) || q.At(2) != 0 {
		t.Errorf("Div: %v", q.Data())
	}
}

// TestBlocksAndParts covers the blocked walk and the parallel split:
// cache blocks shrunk so that small operands cross them, and the split
// threshold lowered so that they are cut across goroutines, for
// transposed, permuted and reversed operands against the oracle.
func TestBlocksAndParts(t *testing.T) {
	saved, savedMin := loop.Blocks, loop.ParMinElems
	defer func() { loop.Blocks, loop.ParMinElems = saved, savedMin }()
	for i := range loop.Blocks {
		loop.Blocks[i] = loop.Blocking{Rows: 12, Cols: 8, Super: 24}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, par := range []int{1 << 30, 7} {
		loop.ParMinElems = par
		for _, m := range []int{1, 5, 8, 13, 24, 25, 50} {
			for _, n := range []int{1, 7, 9, 24, 31} {
				a := makeView[float64](r, []int{m, n}, "colmajor", false)
				at := makeView[float64](r, []int{n, m}, "colmajor", false).T()
				p3 := must(makeView[float64](r, []int{n, 3, m}, "rowmajor", false).Permute(2, 0, 1))
				rev := makeView[float64](r, []int{m, n, 3}, "reversed", false)
				for _, c := range []struct {
					name string
					a, b views.View[float64]
					dst  views.View[float64]
				}{
					{"a + a^T", a, at, makeView[float64](r, []int{m, n}, "colmajor", true)},
					{"a^T + a into row-major", at, a, makeView[float64](r, []int{m, n}, "rowmajor", true)},
					{"permuted + reversed", p3, rev, makeView[float64](r, []int{m, n, 3}, "strided", true)},
				} {
					if err := AddTo(c.dst, c.a, c.b); err != nil {
						t.Fatal(err)
					}
					indices(c.dst.Shape(), func(idx []int) {
						if got, want := c.dst.At(idx...), c.a.At(idx...)+c.b.At(idx...); got != want {
							t.Fatalf("%s %dx%d par %d: at %v got %v want %v", c.name, m, n, par, idx, got, want)
						}
					})
				}
			}
		}
	}
}
