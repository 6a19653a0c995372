package elem

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/views"
)

// BenchmarkElem times the element-wise layer on n x n float64 operands
// against a copy of the same bytes and a read-only pass (bytes.IndexByte
// over the operand, Go's vectorised scan): B/s counts every byte read and
// written once.
//
//	go test -run '^$' -bench Elem -benchtime 20x ./elem
func BenchmarkElem(b *testing.B) {
	for _, threads := range []int{1, 2} {
		prev := views.SetCopyThreads(threads)
		for _, n := range []int{4000} {
			benchLarge(b, n, threads)
		}
		views.SetCopyThreads(prev)
	}
	for _, n := range []int{4, 16} {
		benchSmall(b, n)
	}
}

func benchLarge(b *testing.B, n, threads int) {
	b.Run(fmt.Sprintf("n=%d/threads=%d", n, threads), func(b *testing.B) { benchLargeOps(b, n) })
}

func benchLargeOps(b *testing.B, n int) {
	a := must(views.Zeros[float64](n, n))
	c := must(views.Zeros[float64](n, n))
	d := must(views.Zeros[float64](n, n))
	for i := range a.Data() {
		a.Data()[i] = float64(i%7) - 3
		c.Data()[i] = float64(i%5) - 2
	}
	av, cv, dv := a.View(), c.View(), d.View()
	row := must(views.Zeros[float64](n))
	col := must(views.Zeros[float64](1, n))
	elems := int64(n * n * 8)
	sym := X(av).Add(X(av.T())).Scale(0.5)
	prog := X(av).Mul(X(cv)).Add(X(av))
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&a.Data()[0])), n*n*8)
	for _, c := range []struct {
		name  string
		bytes int64
		f     func() error
	}{
		{"copy", 2 * elems, func() error { return views.Copy(dv, cv) }},
		{"read", elems, func() error { bytes.IndexByte(raw, 0xff); return nil }},
		{"add", 3 * elems, func() error { return AddTo(dv, av, cv) }},
		{"axpby", 3 * elems, func() error { return AxpbyTo(dv, 2, av, 3, cv) }},
		{"add-transposed", 3 * elems, func() error { return AddTo(dv, av, av.T()) }},
		{"scale-inplace", 2 * elems, func() error { return ScaleTo(dv, 1.0, dv) }},
		{"sym-fused", 3 * elems, func() error { return EvalTo(dv, sym) }},
		{"sym-op-by-op", 3 * elems, func() error {
			if err := AddTo(dv, av, av.T()); err != nil {
				return err
			}
			return ScaleTo(dv, 0.5, dv)
		}},
		{"prog-fused", 3 * elems, func() error { return EvalTo(dv, prog) }},
		{"prog-op-by-op", 3 * elems, func() error {
			if err := MulTo(dv, av, cv); err != nil {
				return err
			}
			return AddTo(dv, dv, av)
		}},
		{"sum-axis0", elems, func() error { return SumTo(col.View(), av, 0) }},
		{"sum-axis1", elems, func() error { return SumTo(row.View(), av, 1) }},
		{"sum-all", elems, func() error { _, err := Sum(av); return err }},
	} {
		b.Run("op="+c.name, func(b *testing.B) {
			b.SetBytes(c.bytes)
			for b.Loop() {
				if err := c.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchSmall(b *testing.B, n int) {
	a := must(views.Zeros[float64](n, n))
	c := must(views.Zeros[float64](n, n))
	d := must(views.Zeros[float64](n, n))
	av, cv, dv := a.View(), c.View(), d.View()
	b.Run(fmt.Sprintf("op=add/n=%d/impl=lapis", n), func(b *testing.B) {
		for b.Loop() {
			if err := AddTo(dv, av, cv); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("op=add/n=%d/impl=loop", n), func(b *testing.B) {
		x, y, z := a.Data(), c.Data(), d.Data()
		for b.Loop() {
			for j := range n {
				for i := range n {
					z[i+j*n] = x[i+j*n] + y[i+j*n]
				}
			}
		}
	})
}
