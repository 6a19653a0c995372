package strided_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/strided"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// runOf makes a run [rows, cols, n] over a NaN-padded buffer: matrices of
// class kind (column- or row-major, or General), stride apart (negative:
// the last matrix first in memory).
func runOf[T scalar.Type](rng *rand.Rand, rows, cols, n int, kind tm.Kind, reverse bool) (views.View[T], []T) {
	pad := 2
	s0, s1, size := 1, rows+pad, (rows+pad)*cols
	switch kind {
	case tm.RowPacked:
		s0, s1, size = cols, 1, rows*cols
	case tm.General:
		s0, s1, size = 2, 2*rows, 2*rows*cols
	}
	step := size + pad
	off := 1
	if reverse {
		off, step = 1+step*(n-1), -step
	}
	l, err := layout.New([]int{rows, cols, n}, []int{s0, s1, step}, off)
	if err != nil {
		panic(err)
	}
	buf := make([]T, (size+pad)*n+2)
	for i := range buf {
		buf[i] = tm.NaN[T]()
	}
	v, _ := views.FromSlice(buf, l)
	for t := range n {
		for i := range rows {
			for j := range cols {
				v.Set(tm.Random[T](rng), i, j, t)
			}
		}
	}
	return v, buf
}

func TestGemmStrided(t *testing.T) {
	tm.ForTypes(t, testGemmStrided[float32], testGemmStrided[float64], testGemmStrided[complex64], testGemmStrided[complex128])
}

// testGemmStrided checks each product of a run against Gemm on that matrix,
// for the kernel, tiny and BLAS paths, repeated inputs, reversed runs,
// row-major and General operands.
func testGemmStrided[T scalar.Type](t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	kinds := []tm.Kind{tm.ColStrided, tm.RowPacked, tm.General}
	for _, sz := range [][3]int{{4, 4, 4}, {3, 5, 2}, {20, 9, 70}} {
		m, n, k := sz[0], sz[1], sz[2]
		for i := range 9 {
			ka, kb, kc := kinds[i%3], kinds[(i/3)%3], kinds[(i+1)%3]
			const count = 5
			na := count
			if i%4 == 3 {
				na = 1 // one a for every product
			}
			a, _ := runOf[T](rng, m, k, na, ka, i%2 == 1)
			b, _ := runOf[T](rng, k, n, count, kb, false)
			c, cbuf := runOf[T](rng, m, n, count, kc, i%3 == 2)
			want := make([]tm.M, count)
			alpha, beta := tm.FromParts[T](0.5, 1), tm.FromParts[T](2, -1)
			for p := range count {
				ai := p
				if na == 1 {
					ai = 0
				}
				want[p] = tm.Of(must2(a.Index(2, ai))).Mul(tm.Of(must2(b.Index(2, p))))
				cm := tm.Of(must2(c.Index(2, p)))
				for x := range want[p].D {
					want[p].D[x] = scalar.Complex128(alpha)*want[p].D[x] + scalar.Complex128(beta)*cm.D[x]
				}
			}
			what := fmt.Sprintf("%dx%dx%d kinds %v %v %v case %d", m, n, k, ka, kb, kc, i)
			s0 := lapis.ReadStats()
			if err := strided.Gemm("cblas.GemmStrided", alpha, a, b, beta, c); err != nil {
				t.Fatal(what, err)
			}
			s1 := lapis.ReadStats()
			if s1.Calls-s0.Calls+s1.Small-s0.Small != 1 {
				t.Fatalf("%s: %d C calls and %d kernel runs, want one in all", what, s1.Calls-s0.Calls, s1.Small-s0.Small)
			}
			for p := range count {
				tm.Close(t, fmt.Sprintf("%s product %d", what, p), tm.Of(must2(c.Index(2, p))), want[p], 40*float64(k)*scalar.Eps[T]())
			}
			(tm.Operand[T]{V: c, Buf: cbuf}).CheckPadding(t, what)
		}
	}
}

func TestGemmStridedErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	a, _ := runOf[float64](rng, 3, 4, 2, tm.ColStrided, false)
	b, _ := runOf[float64](rng, 4, 2, 2, tm.ColStrided, false)
	c, _ := runOf[float64](rng, 3, 2, 2, tm.ColStrided, false)
	b3, _ := runOf[float64](rng, 4, 2, 3, tm.ColStrided, false)
	one, _ := runOf[float64](rng, 3, 2, 1, tm.ColStrided, false)
	cases := map[string]struct {
		err, want error
	}{
		"rank":       {strided.Gemm("cblas.GemmStrided", 1, must2(a.Index(2, 0)), b, 0, c), layout.ErrShape},
		"count":      {strided.Gemm("cblas.GemmStrided", 1, a, b3, 0, c), layout.ErrShape},
		"repeated c": {strided.Gemm("cblas.GemmStrided", 1, a, b, 0, must2(one.BroadcastTo(3, 2, 2))), layout.ErrOverlap},
		"overlap":    {strided.Gemm("cblas.GemmStrided", 1, a, b, 0, must2(a.Slice(1, 0, 2, 1))), layout.ErrOverlap},
		"strict":     {strided.Gemm("cblas.GemmStrided", 1, a, must2(b.Reverse(0)), 0, c, lapis.Strict(true)), lapis.ErrCopyRefused},
	}
	for name, x := range cases {
		if !errors.Is(x.err, x.want) {
			t.Errorf("%s: %v, want %v", name, x.err, x.want)
		}
	}
}

// Scalar is the set of element types.
type Scalar = scalar.Type

func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

func must2[T Scalar](v views.View[T], err error) views.View[T] { return must(v, err) }
