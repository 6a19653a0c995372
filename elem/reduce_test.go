package elem

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

type redCase[T Scalar] struct {
	name  string
	real  bool
	to    func(dst, x, y views.View[T], axes ...int) error
	plain func(x, y views.View[T], axes ...int) (*views.Tensor[T], error)
	init  func() T
	add   func(acc, x, y T) T
	tol   float64
}

func redCases[T Scalar]() []redCase[T] {
	zero := func() T { return 0 }
	return []redCase[T]{
		{"Sum", false, func(d, x, _ views.View[T], ax ...int) error { return SumTo(d, x, ax...) },
			func(x, _ views.View[T], ax ...int) (*views.Tensor[T], error) { return Sum(x, ax...) },
			zero, func(acc, x, _ T) T { return acc + x }, 0},
		{"Mean", false, func(d, x, _ views.View[T], ax ...int) error { return MeanTo(d, x, ax...) },
			func(x, _ views.View[T], ax ...int) (*views.Tensor[T], error) { return Mean(x, ax...) },
			zero, func(acc, x, _ T) T { return acc + x }, 1e-6},
		{"Prod", false, func(d, x, _ views.View[T], ax ...int) error { return ProdTo(d, x, ax...) },
			func(x, _ views.View[T], ax ...int) (*views.Tensor[T], error) { return Prod(x, ax...) },
			func() T { return 1 }, func(acc, x, _ T) T { return acc * x }, 1e-5},
		{"Max", true, func(d, x, _ views.View[T], ax ...int) error { return MaxTo(d, x, ax...) },
			func(x, _ views.View[T], ax ...int) (*views.Tensor[T], error) { return Max(x, ax...) },
			func() T { return scalar.FromFloat[T](math.Inf(-1)) }, func(acc, x, _ T) T { return orderOf(opMax, acc, x) }, 0},
		{"Min", true, func(d, x, _ views.View[T], ax ...int) error { return MinTo(d, x, ax...) },
			func(x, _ views.View[T], ax ...int) (*views.Tensor[T], error) { return Min(x, ax...) },
			func() T { return scalar.FromFloat[T](math.Inf(1)) }, func(acc, x, _ T) T { return orderOf(opMin, acc, x) }, 0},
		{"L1", false, func(d, x, _ views.View[T], ax ...int) error { return NormTo(d, x, L1, ax...) },
			func(x, _ views.View[T], ax ...int) (*views.Tensor[T], error) { return Norm(x, L1, ax...) },
			zero, func(acc, x, _ T) T { return acc + absOf(x) }, 1e-6},
		{"LInf", false, func(d, x, _ views.View[T], ax ...int) error { return NormTo(d, x, LInf, ax...) },
			func(x, _ views.View[T], ax ...int) (*views.Tensor[T], error) { return Norm(x, LInf, ax...) },
			zero, func(acc, x, _ T) T { return maxAbs(acc, absOf(x)) }, 0},
		{"L2", false, func(d, x, _ views.View[T], ax ...int) error { return NormTo(d, x, L2, ax...) },
			func(x, _ views.View[T], ax ...int) (*views.Tensor[T], error) { return Norm(x, L2, ax...) },
			zero, func(acc, x, _ T) T { a := absOf(x); return acc + a*a }, 1e-5},
		{"Dot", false, func(d, x, y views.View[T], ax ...int) error { return DotTo(d, x, y, ax...) },
			func(x, y views.View[T], ax ...int) (*views.Tensor[T], error) { return Dot(x, y, ax...) },
			zero, func(acc, x, y T) T { return acc + x*y }, 0},
	}
}

// redOracle reduces x (and y) over the axes index by index into a
// tensor of x's shape with the reduced axes of extent 1.
func redOracle[T Scalar](c redCase[T], x, y views.View[T], reduced []bool) *views.Tensor[T] {
	xs := x.Shape()
	ks := slices.Clone(xs)
	for k := range ks {
		if reduced[k] {
			ks[k] = 1
		}
	}
	out := must(views.Zeros[T](ks...))
	cnt := must(views.Zeros[float64](ks...))
	indices(ks, func(idx []int) { out.Set(c.init(), idx...) })
	indices(xs, func(idx []int) {
		o := slices.Clone(idx)
		for k := range o {
			if reduced[k] {
				o[k] = 0
			}
		}
		out.Set(c.add(out.At(o...), x.At(idx...), at(y, idx)), o...)
		cnt.Set(cnt.At(o...)+1, o...)
	})
	switch c.name {
	case "Mean":
		indices(ks, func(idx []int) { out.Set(out.At(idx...)/scalar.FromFloat[T](cnt.At(idx...)), idx...) })
	case "L2":
		indices(ks, func(idx []int) {
			out.Set(scalar.FromFloat[T](math.Sqrt(real(scalar.Complex128(out.At(idx...))))), idx...)
		})
	}
	return out
}

func testReduceOracle[T Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(11, uint64(scalar.Index[T]())))
	for _, c := range redCases[T]() {
		if c.real && scalar.IsComplex[T]() {
			x := must(views.Zeros[T](2))
			if _, err := c.plain(x.View(), x.View()); !errors.Is(err, lapis.ErrInvalid) {
				t.Errorf("%s on %T: %v, want lapis.ErrInvalid", c.name, *new(T), err)
			}
			continue
		}
		for rank := 0; rank <= 8; rank++ {
			for _, xc := range classes {
				shape := randShape(r, rank)
				if c.real {
					for k := range shape { // Max of nothing is an error, tested apart
						shape[k] = max(shape[k], 1)
					}
				}
				x := makeView[T](r, shape, xc, false)
				y := makeView[T](r, shape, classes[r.IntN(len(classes))], false)
				var axes []int
				reduced := make([]bool, rank)
				for k := range rank {
					if r.IntN(2) == 0 {
						axes = append(axes, k)
						reduced[k] = true
					}
				}
				if len(axes) == 0 {
					for k := range reduced {
						reduced[k] = true
					}
				}
				r.Shuffle(len(axes), func(i, j int) { axes[i], axes[j] = axes[j], axes[i] })
				want := redOracle(c, x, y, reduced)
				name := fmt.Sprintf("%s %T x %v %s axes %v", c.name, *new(T), shape, xc, axes)
				check := func(form string, got views.View[T]) {
					t.Helper()
					ws := want.Shape()
					indices(ws, func(idx []int) {
						gi := idx
						if got.Rank() != len(ws) { // dropped axes
							gi = nil
							for k, i := range idx {
								if !reduced[k] {
									gi = append(gi, i)
								}
							}
						}
						if g, w := got.At(gi...), want.At(idx...); !closeTo(g, w, c.tol) {
							t.Fatalf("%s %s: at %v got %v want %v", name, form, idx, g, w)
						}
					})
				}
				res, err := c.plain(x, y, axes...)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				check("plain", res.View())
				res.Release()
				// Into a destination of a random class, kept or dropped.
				ds := want.Shape()
				if r.IntN(2) == 0 {
					ds = res.Shape()
				}
				dst := makeView[T](r, ds, classes[r.IntN(len(classes))], true)
				if err := c.to(dst, x, y, axes...); err != nil {
					t.Fatalf("%s To %v: %v", name, ds, err)
				}
				check(fmt.Sprintf("To %v", ds), dst)
			}
		}
	}
}

func TestReduceOracle(t *testing.T) {
	t.Run("float32", testReduceOracle[float32])
	t.Run("float64", testReduceOracle[float64])
	t.Run("complex64", testReduceOracle[complex64])
	t.Run("complex128", testReduceOracle[complex128])
}

// exactSum is the sum of xs in exact arithmetic, rounded once.
func exactSum[F float32 | float64](xs []F) float64 {
	acc := new(big.Float).SetPrec(2048)
	for _, x := range xs {
		acc.Add(acc, big.NewFloat(float64(x)))
	}
	f, _ := acc.Float64()
	return f
}

// TestSumAccuracy: sums along the contiguous axis, along the strided
// axis and over all axes stay within numpy's pairwise bound against the
// exact sum, where a plain running sum is off by far more: float32 0.1
// added 2^18 times (naive: about 1e-3 relative; pairwise: about 1e-7).
func TestSumAccuracy(t *testing.T) {
	const m = 1 << 18
	data := make([]float32, 4*m)
	for i := range data {
		data[i] = 0.1
		if i%3 == 0 {
			data[i] = 1.7e-3
		}
	}
	eps := float64(math.Nextafter32(1, 2) - 1)
	bound := func(n int, abs float64) float64 {
		// numpy's pairwise sum: 8 interleaved runs of 16 in a block of 128,
		// then a binary tree of the blocks.
		return (16 + math.Log2(float64(n)/128) + 3) * eps * abs
	}
	var naive float32
	for _, x := range data[:m] {
		naive += x
	}
	col := exactSum(data[:m])
	if math.Abs(float64(naive)-col) <= bound(m, col) {
		t.Fatalf("the data does not tell pairwise from naive summation (naive error %g)", math.Abs(float64(naive)-col))
	}
	tall := must(views.FromColMajor(data, m, 4)).View() // its columns contiguous
	for _, c := range []struct {
		name string
		x    views.View[float32]
		axes []int
		n    int
	}{
		{"columns of a column-major [m, 4] (contiguous lines)", tall, []int{0}, m},
		{"rows of a column-major [4, m] (the strided axis)", must(views.FromColMajor(interleave(data, m), 4, m)).View(), []int{1}, m},
		{"rows of its transpose, row-major [4, m] (contiguous lines)", tall.T(), []int{1}, m},
		{"all of it", tall, nil, 4 * m},
	} {
		s := must(Sum(c.x, c.axes...))
		for i, got := range s.Data() {
			var exact, abs float64
			if c.axes == nil {
				exact = exactSum(data)
			} else {
				exact = exactSum(data[i*m : (i+1)*m])
			}
			abs = exact // all terms positive
			if err := math.Abs(float64(got) - exact); err > bound(c.n, abs) {
				t.Errorf("%s [%d]: %v, exact %v: error %.3g above the pairwise bound %.3g", c.name, i, got, exact, err, bound(c.n, abs))
			}
		}
	}
}

// interleave lays the k-th run of m elements of data along row k of a
// column-major [4, m] matrix: each row is strided in memory.
func interleave(data []float32, m int) []float32 {
	out := make([]float32, len(data))
	for k := range 4 {
		for j := range m {
			out[k+4*j] = data[k*m+j]
		}
	}
	return out
}

// TestReduceErrors: bad axes and destinations are errors naming the
// argument, with nothing written.
func TestReduceErrors(t *testing.T) {
	x := must(views.Zeros[float64](3, 4)).View()
	dst := must(views.Full(7.0, 4))
	var le *layout.Error
	for _, c := range []struct {
		name string
		err  error
		want error
		arg  string
	}{
		{"axis out of range", SumTo(dst.View(), x, 2), layout.ErrShape, "axes"},
		{"axis twice", SumTo(dst.View(), x, 0, 0), lapis.ErrInvalid, "axes"},
		{"wrong dst shape", SumTo(dst.View(), x, 1), layout.ErrShape, "dst"},
		{"dst inside x", SumTo(must(x.Index(1, 0)), x, 1), layout.ErrOverlap, "dst"},
		{"max of nothing", MaxTo(dst.View(), must(views.Zeros[float64](0, 4)).View(), 0), layout.ErrShape, "x"},
	} {
		if !errors.Is(c.err, c.want) || !errors.As(c.err, &le) || le.Arg != c.arg {
			t.Errorf("%s: %v, want %v naming %s", c.name, c.err, c.want, c.arg)
		}
	}
	if slices.ContainsFunc(dst.Data(), func(v float64) bool { return v != 7 }) {
		t.Errorf("a refused call wrote: %v", dst.Data())
	}
	// The sum of nothing is 0, the product 1.
	e := must(views.Zeros[float64](0, 3)).View()
	if s := must(Sum(e, 0)); s.At(2) != 0 {
		t.Errorf("sum of nothing: %v", s.Data())
	}
	if p := must(Prod(e, 0)); p.At(1) != 1 {
		t.Errorf("product of nothing: %v", p.Data())
	}
	if s := must(Sum(x)); s.Rank() != 0 || s.At() != 0 {
		t.Errorf("Sum over all: rank %d", s.Rank())
	}
}

// TestNorm2Scaled: the 2-norm neither overflows nor underflows where the
// norm itself does not, and follows its scale's Inf and NaN.
func TestNorm2Scaled(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{3e200, 4e200}, 5e200},
		{[]float64{3e-200, 4e-200}, 5e-200},
		{[]float64{0, 0}, 0},
		{[]float64{math.Inf(-1), 1}, math.Inf(1)},
		{[]float64{math.NaN(), 1}, math.NaN()},
	} {
		x := must(views.FromColMajor(c.x, len(c.x))).View()
		got := must(Norm(x, L2)).At()
		if !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want)) && math.Abs(got-c.want) > 1e-15*c.want {
			t.Errorf("||%v||_2 = %v, want %v", c.x, got, c.want)
		}
	}
	if _, err := Norm(must(views.Zeros[float64](2)).View(), NormKind(3)); !errors.Is(err, lapis.ErrInvalid) {
		t.Errorf("norm 3: %v, want lapis.ErrInvalid", err)
	}
}

func testArg[T Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(13, uint64(scalar.Index[T]())))
	for rank := 1; rank <= 8; rank++ {
		for _, xc := range classes {
			shape := randShape(r, rank)
			for k := range shape {
				shape[k] = max(shape[k], 1)
			}
			x := makeView[T](r, shape, xc, false)
			if r.IntN(3) == 0 && xc != "broadcast" { // a NaN somewhere
				idx := make([]int, rank)
				for k := range idx {
					idx[k] = r.IntN(shape[k])
				}
				x.Set(scalar.FromFloat[T](math.NaN()), idx...)
			}
			val := func(idx []int) float64 { return real(scalar.Complex128(x.At(idx...))) }
			for _, largest := range []bool{true, false} {
				better := func(v, b float64) bool {
					return !math.IsNaN(b) && (math.IsNaN(v) || largest && v > b || !largest && v < b)
				}
				f := ArgMax[T]
				if !largest {
					f = ArgMin[T]
				}
				for axis := -1; axis < rank; axis++ {
					got, err := f(x, axis)
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("%T %v %s largest=%v axis %d", *new(T), shape, xc, largest, axis)
					if axis == -1 {
						var best []int
						indices(shape, func(idx []int) {
							if best == nil || better(val(idx), val(best)) {
								best = slices.Clone(idx)
							}
						})
						if !slices.Equal(got, best) {
							t.Fatalf("%s: %v, want %v", name, got, best)
						}
						continue
					}
					others := slices.Clone(shape)
					others[axis] = 1
					i := 0
					indices(others, func(idx []int) {
						best := 0
						j := slices.Clone(idx)
						for m := 1; m < shape[axis]; m++ {
							j[axis], idx[axis] = m, best
							if better(val(j), val(idx)) {
								best = m
							}
						}
						if got[i] != best {
							t.Fatalf("%s: position %d (%v): %d, want %d", name, i, idx, got[i], best)
						}
						i++
					})
				}
			}
		}
	}
}

func TestArg(t *testing.T) {
	t.Run("float32", testArg[float32])
	t.Run("float64", testArg[float64])
	if _, err := ArgMax(must(views.Zeros[complex64](2)).View(), 0); !errors.Is(err, lapis.ErrInvalid) {
		t.Errorf("complex ArgMax: %v", err)
	}
	if _, err := ArgMin(must(views.Zeros[float64](2, 0)).View(), 1); !errors.Is(err, layout.ErrShape) {
		t.Errorf("empty axis: %v", err)
	}
}

// TestReduceParallel reruns the reduction oracle with the split threshold
// lowered, so that small reductions run their halves and their kept axes
// on several goroutines.
func TestReduceParallel(t *testing.T) {
	saved := loop.ParMinElems
	defer func() { loop.ParMinElems = saved }()
	loop.ParMinElems = 7
	prev := views.SetCopyThreads(4)
	defer views.SetCopyThreads(prev)
	t.Run("float64", testReduceOracle[float64])
	t.Run("complex128", testReduceOracle[complex128])
}

// TestReduceRepeats: along an axis a view only repeats (a broadcast),
// reductions take the distinct elements once and adjust (sum: times the
// repeats; 2-norm: times their square root; product: to their power), so
// that a reduction of a broadcast of 2^40 elements costs no more than its
// source.
func TestReduceRepeats(t *testing.T) {
	src := must(views.FromColMajor([]float64{3, -1.5, 2, 0.5}, 1, 4)).View()
	x := must(src.BroadcastTo(1<<40, 4))
	for _, c := range []struct {
		name string
		f    func() (*views.Tensor[float64], error)
		want []float64
	}{
		{"Sum", func() (*views.Tensor[float64], error) { return Sum(x, 0) }, []float64{3 << 40, -1.5 * (1 << 40), 2 << 40, 1 << 39}},
		{"Mean", func() (*views.Tensor[float64], error) { return Mean(x, 0) }, []float64{3, -1.5, 2, 0.5}},
		{"Max", func() (*views.Tensor[float64], error) { return Max(x, 0) }, []float64{3, -1.5, 2, 0.5}},
		{"L1", func() (*views.Tensor[float64], error) { return Norm(x, L1, 0) }, []float64{3 << 40, 1.5 * (1 << 40), 2 << 40, 1 << 39}},
		{"L2", func() (*views.Tensor[float64], error) { return Norm(x, L2, 0) }, []float64{3 << 20, 1.5 * (1 << 20), 2 << 20, 1 << 19}},
		{"Prod of 2^10", func() (*views.Tensor[float64], error) {
			return Prod(must(src.BroadcastTo(1<<10, 4)), 0)
		}, []float64{math.Pow(3, 1024), math.Pow(1.5, 1024), math.Pow(2, 1024), math.Pow(0.5, 1024)}},
	} {
		got, err := c.f()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, w := range c.want {
			if g := got.At(i); g != w && math.Abs(g-w) > 1e-12*math.Abs(w) {
				t.Errorf("%s[%d] = %v, want %v", c.name, i, g, w)
			}
		}
	}
}
