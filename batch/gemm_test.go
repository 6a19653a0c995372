package batch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// tbatch is a test batch: a view [rows, cols, shape...] whose matrices
// have the layout class kind, over a NaN-padded buffer.
type tbatch[T Scalar] struct {
	v   views.View[T]
	buf []T
}

// newBatch makes a batch with matrices of class kind (ColPacked,
// ColStrided, RowPacked, General) and random values.
func newBatch[T Scalar](rng *rand.Rand, rows, cols int, shape []int, kind tm.Kind) tbatch[T] {
	pad := 2
	var s0, s1, size int
	switch kind {
	case tm.ColPacked:
		s0, s1, size = 1, max(1, rows), rows*cols
	case tm.ColStrided:
		s0, s1, size = 1, rows+pad, (rows+pad)*cols
	case tm.RowPacked:
		s0, s1, size = max(1, cols), 1, rows*cols
	default: // General: every other row
		s0, s1, size = 2, 2*max(1, rows), 2*max(1, rows)*cols
	}
	dims := append([]int{rows, cols}, shape...)
	strides := []int{s0, s1}
	step := size + pad
	for _, d := range shape {
		strides = append(strides, step)
		step *= max(1, d)
	}
	l, err := layout.New(dims, strides, 1)
	if err != nil {
		panic(err)
	}
	buf := make([]T, step+2)
	for i := range buf {
		buf[i] = tm.NaN[T]()
	}
	v, err := views.FromSlice(buf, l)
	if err != nil {
		panic(err)
	}
	b := tbatch[T]{v: v, buf: buf}
	b.each(func(m views.View[T]) {
		for i := range rows {
			for j := range cols {
				m.Set(tm.Random[T](rng), i, j)
			}
		}
	})
	return b
}

// each calls f on every matrix of the batch, in flat (column-major) order.
func (b tbatch[T]) each(f func(views.View[T])) { eachMatrix(b.v, f) }

func eachMatrix[T Scalar](v views.View[T], f func(views.View[T])) {
	if v.Rank() == 2 {
		f(v)
		return
	}
	last := v.Rank() - 1
	for i := range v.Layout().Dim(last) {
		sub, _ := v.Index(last, i)
		eachMatrix(sub, func(m views.View[T]) { f(m) })
	}
}

// flatMatrices lists the matrices with batch axis 2 varying fastest.
func flatMatrices[T Scalar](v views.View[T]) []tm.M {
	shape := v.Shape()[2:]
	n := count(shape)
	out := make([]tm.M, n)
	idx := make([]int, len(shape))
	for t := range n {
		x := t
		for i, d := range shape {
			idx[i] = x % d
			x /= d
		}
		m := v
		for i := len(idx) - 1; i >= 0; i-- {
			m, _ = m.Index(2+i, idx[i])
		}
		out[t] = tm.Of(m)
	}
	return out
}

func tol[T Scalar](k int) float64 { return 20 * float64(max(k, 1)) * scalar.Eps[T]() }

// broadcastAt returns the matrix of an input batch for output index t.
func broadcastAt(ms []tm.M, shape, inShape []int, t int) tm.M {
	flat, mult := 0, 1
	for i, d := range shape {
		x := t % d
		t /= d
		if i < len(inShape) && inShape[i] == d && d != 1 {
			flat += x * mult
		}
		if i < len(inShape) {
			mult *= inShape[i]
		}
	}
	return ms[flat]
}

func TestGemm(t *testing.T) {
	tm.ForTypes(t, testGemm[float32], testGemm[float64], testGemm[complex64], testGemm[complex128])
}

func testGemm[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, uint64(len(t.Name()))))
	type bcase struct {
		out, a, b []int
	}
	batches := []bcase{
		{[]int{5}, []int{5}, []int{5}},
		{[]int{3, 2}, []int{3, 2}, []int{1, 2}},    // b broadcast on axis 2
		{[]int{2, 3, 2}, []int{2}, []int{2, 3, 2}}, // a missing axes
		{[]int{4}, []int{1}, []int{4}},             // a one matrix: folds
		{[]int{4}, []int{4}, []int{}},              // b one matrix
		{[]int{0}, []int{0}, []int{0}},
		{[]int{1}, []int{1}, []int{1}},
	}
	sizes := [][3]int{{3, 4, 2}, {4, 4, 4}, {1, 5, 3}, {20, 17, 9}, {2, 0, 3}}
	kinds := []tm.Kind{tm.ColPacked, tm.ColStrided, tm.RowPacked, tm.General}
	for _, bc := range batches {
		for _, sz := range sizes {
			m, n, k := sz[0], sz[1], sz[2]
			for i := range 12 {
				ka, kb, kc := kinds[i%4], kinds[(i/2)%4], kinds[(i/3)%4]
				a := newBatch[T](rng, m, k, bc.a, ka)
				b := newBatch[T](rng, k, n, bc.b, kb)
				c := newBatch[T](rng, m, n, bc.out, kc)
				av, bv, cv := a.v, b.v, c.v
				if i%5 == 1 && tm.IsComplex[T]() {
					av = av.Conj()
				}
				if i%7 == 2 && len(bc.out) > 0 && bc.out[0] > 1 { // a reversed batch axis
					cv, _ = cv.Reverse(2)
					if len(bc.a) > 0 && bc.a[0] == bc.out[0] {
						av, _ = av.Reverse(2)
					}
				}
				what := fmt.Sprintf("batch %v a%v b%v %dx%dx%d kinds %v %v %v case %d", bc.out, bc.a, bc.b, m, n, k, ka, kb, kc, i)
				am, bm, cm := flatMatrices(av), flatMatrices(bv), flatMatrices(cv)
				alpha, beta := tm.FromParts[T](1.5, -0.5), tm.FromParts[T](0.5, 0.25)
				if i%3 == 0 {
					beta = 0
					c.each(func(v views.View[T]) { // beta = 0 must not read c
						for r := range m {
							for s := range n {
								v.Set(tm.NaN[T](), r, s)
							}
						}
					})
				}
				if err := Gemm(alpha, av, bv, beta, cv); err != nil {
					t.Fatal(what, err)
				}
				got := flatMatrices(cv)
				for ti := range got {
					want := broadcastAt(am, bc.out, bc.a, ti).Mul(broadcastAt(bm, bc.out, bc.b, ti))
					ca, cb := scalar.Complex128(alpha), scalar.Complex128(beta)
					for x := range want.D {
						want.D[x] *= ca
						if cb != 0 {
							want.D[x] += cb * cm[ti].D[x]
						}
					}
					tm.Close(t, fmt.Sprintf("%s matrix %d", what, ti), got[ti], want, tol[T](k))
				}
				checkPadding(t, what, c)
			}
		}
	}
}

// checkPadding fails if an element outside the batch's view changed.
func checkPadding[T Scalar](t *testing.T, what string, b tbatch[T]) {
	t.Helper()
	tm.Operand[T]{V: b.v, Buf: b.buf}.CheckPadding(t, what)
}

// TestGemmCounts: compact batches run with zero copies and one C call per
// chunk; a broadcast a folds into one gemm; General matrices are copied
// once per batch and refused in strict mode.
func TestGemmCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	a := newBatch[float64](rng, 6, 5, []int{40}, tm.ColPacked)
	b := newBatch[float64](rng, 5, 7, []int{40}, tm.RowPacked)
	c := newBatch[float64](rng, 6, 7, []int{40}, tm.ColStrided)
	prev, _ := lapis.SetWorkers(1)
	defer lapis.SetWorkers(prev)
	s0 := lapis.ReadStats()
	if err := Gemm(1, a.v, b.v, 0, c.v); err != nil {
		t.Fatal(err)
	}
	s1 := lapis.ReadStats()
	// One chunk: one C call, or one run of the Go-assembly kernel (Small).
	if s1.Copies != s0.Copies || s1.Calls-s0.Calls+s1.Small-s0.Small != 1 {
		t.Fatalf("compact batch: %d copies, %d C calls, %d kernel runs; want 0 and 1 in all", s1.Copies-s0.Copies, s1.Calls-s0.Calls, s1.Small-s0.Small)
	}
	// complex128 always goes through the C loop.
	za, zb, zc := newBatch[complex128](rng, 6, 5, []int{40}, tm.ColPacked), newBatch[complex128](rng, 5, 7, []int{40}, tm.RowPacked), newBatch[complex128](rng, 6, 7, []int{40}, tm.ColPacked)
	s0 = lapis.ReadStats()
	if err := Gemm(1, za.v, zb.v, 0, zc.v); err != nil {
		t.Fatal(err)
	}
	if s1 = lapis.ReadStats(); s1.Copies != s0.Copies || s1.Calls-s0.Calls != 1 {
		t.Fatalf("compact complex batch: %d copies, %d C calls; want 0 and 1", s1.Copies-s0.Copies, s1.Calls-s0.Calls)
	}

	// a one matrix, b and c compact: one gemm with 7*40 columns.
	one := newBatch[float64](rng, 6, 5, []int{1}, tm.ColPacked)
	bc, cc, loop := compact(rng, 5, 7, 40), compact(rng, 6, 7, 40), compact(rng, 6, 7, 40)
	s0 = lapis.ReadStats()
	if err := Gemm(1, one.v, bc.v, 0, cc.v); err != nil {
		t.Fatal(err)
	}
	s1 = lapis.ReadStats()
	if s1.Calls-s0.Calls != 1 || s1.Copies != s0.Copies {
		t.Fatalf("fold: %d calls, %d copies", s1.Calls-s0.Calls, s1.Copies-s0.Copies)
	}
	// The same product matrix by matrix.
	for i := range 40 {
		bi, _ := bc.v.Index(2, i)
		ci, _ := loop.v.Index(2, i)
		if err := cblas.Gemm(1, first(one.v), bi, 0, ci); err != nil {
			t.Fatal(err)
		}
	}
	tm.Close(t, "fold", tm.Of(must(cc.v.Reshape(6, 280))), tm.Of(must(loop.v.Reshape(6, 280))), tol[float64](5))

	g := newBatch[float64](rng, 6, 5, []int{40}, tm.General)
	s0 = lapis.ReadStats()
	if err := Gemm(1, g.v, b.v, 0, c.v); err != nil {
		t.Fatal(err)
	}
	if d := lapis.ReadStats().Copies - s0.Copies; d != 1 {
		t.Fatalf("General a: %d copies, want 1 for the whole batch", d)
	}
	before := slices.Clone(c.buf)
	err := Gemm(1, g.v, b.v, 0, c.v, lapis.Strict(true))
	if !errors.Is(err, lapis.ErrCopyRefused) {
		t.Fatalf("strict: %v", err)
	}
	if !slices.EqualFunc(before, c.buf, sameFloat) {
		t.Fatal("a refused call wrote c")
	}
}

// TestGemmDeterministic: the split over workers does not change a bit.
func TestGemmDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, n := range []int{4, 24} {
		nb := 20000 / n // enough work for several chunks (chunkFlops)
		a := newBatch[float64](rng, n, n, []int{nb}, tm.ColPacked)
		b := newBatch[float64](rng, n, n, []int{nb}, tm.RowPacked)
		var results [][]float64
		for _, w := range []int{1, 2, 3} {
			prev, _ := lapis.SetWorkers(w)
			if got := chunksFor(nb, n*n*n); got != w {
				t.Fatalf("n=%d, %d workers: %d chunks", n, w, got)
			}
			c := newBatch[float64](rng, n, n, []int{nb}, tm.ColPacked)
			if err := Gemm(1, a.v, b.v, 0, c.v); err != nil {
				t.Fatal(err)
			}
			lapis.SetWorkers(prev)
			results = append(results, c.buf)
		}
		for i := 1; i < len(results); i++ {
			if !slices.EqualFunc(results[0], results[i], sameFloat) {
				t.Fatalf("n=%d: %d workers differ from 1", n, i+1)
			}
		}
	}
}

func TestGemmErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	a := newBatch[float64](rng, 3, 4, []int{5}, tm.ColPacked)
	b := newBatch[float64](rng, 4, 2, []int{5}, tm.ColPacked)
	c := newBatch[float64](rng, 3, 2, []int{5}, tm.ColPacked)
	bad := newBatch[float64](rng, 4, 2, []int{3}, tm.ColPacked)
	cb, _ := first(c.v).Reshape(3, 2, 1)
	cb, _ = cb.BroadcastTo(3, 2, 5)
	cases := map[string]error{
		"b rows":      Gemm(1, a.v, must(a.v.Transpose(0, 1)), 0, c.v),
		"batch":       Gemm(1, a.v, bad.v, 0, c.v),
		"broadcast c": Gemm(1, a.v, b.v, 0, cb),
		"overlap":     Gemm(1, a.v, b.v, 0, must(a.v.Slice(1, 0, 2, 1))),
		"rank":        Gemm(1, must(first(a.v).Index(1, 0)), b.v, 0, c.v),
	}
	for name, err := range cases {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := cases["rank"]; err != nil && !errors.Is(err, layout.ErrShape) {
		t.Errorf("rank: %v", err)
	}
}

// sameFloat compares bit for bit's sake: equal, or both NaN (padding).
func sameFloat(x, y float64) bool { return x == y || x != x && y != y }

// compact returns a compact column-major batch of random values.
func compact(rng *rand.Rand, dims ...int) tbatch[float64] {
	t, err := views.Zeros[float64](dims...)
	if err != nil {
		panic(err)
	}
	for i := range t.Data() {
		t.Data()[i] = rng.NormFloat64()
	}
	return tbatch[float64]{v: t.View(), buf: t.Data()}
}
