package bench

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis/views"
)

func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

func filled(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(i)
	}
	return s
}

// withThreads runs f with the copy engine bounded to t goroutines.
func withThreads(t int, f func()) {
	prev := views.SetCopyThreads(t)
	defer views.SetCopyThreads(prev)
	f()
}

// BenchmarkCopy: op=transpose (an n x n float64 matrix into its transpose,
// compact to compact), op=permute4d ([64 64 64 8] to axes (3 1 0 2)),
// op=reverse (both axes of an n x n matrix reversed). Each reports bytes
// read + written per second. impl=memcpy is Go's copy() of the same bytes,
// impl=loop a plain Go loop, impl=gonum Dense.Copy(a.T()), impl=lapis the
// engine on one goroutine, impl=lapis-2t on two, impl=lapis-fromrowmajor
// views.FromRowMajor of the same data (plus Release).
func BenchmarkCopy(b *testing.B) {
	for _, n := range []int{1024, 4096} {
		bytes := int64(2 * 8 * n * n)
		src := filled(n * n)
		dst := make([]float64, n*n)
		a := must(views.FromColMajor(src, n, n))
		at := a.View().T()
		out := must(views.FromColMajor(dst, n, n))
		run := func(op, impl string, f func()) {
			b.Run(fmt.Sprintf("op=%s/n=%d/impl=%s", op, n, impl), func(b *testing.B) {
				b.SetBytes(bytes)
				for b.Loop() {
					f()
				}
			})
		}
		run("transpose", "memcpy", func() { copy(dst, src) })
		run("transpose", "loop", func() {
			for j := 0; j < n; j++ {
				col := dst[j*n : j*n+n]
				for i := range col {
					col[i] = src[j+i*n]
				}
			}
		})
		g := mat.NewDense(n, n, src)
		gd := mat.NewDense(n, n, dst)
		run("transpose", "gonum", func() { gd.Copy(g.T()) })
		run("transpose", "lapis", func() { withThreads(1, func() { must(0, views.Copy(out.View(), at)) }) })
		run("transpose", "lapis-2t", func() { withThreads(2, func() { must(0, views.Copy(out.View(), at)) }) })
		run("transpose", "lapis-fromrowmajor", func() {
			withThreads(1, func() { must(views.FromRowMajor(src, n, n)).Release() })
		})
		rev := must(must(a.View().Reverse(0)).Reverse(1))
		run("reverse", "lapis", func() { withThreads(1, func() { must(0, views.Copy(out.View(), rev)) }) })
		run("reverse", "loop", func() {
			for j := 0; j < n; j++ {
				col := dst[j*n : j*n+n]
				s := src[(n-1-j)*n : (n-j)*n]
				for i := range col {
					col[i] = s[n-1-i]
				}
			}
		})
	}
	// A 4-D permutation of 2M float64 (16 MiB).
	shape := []int{64, 64, 64, 8}
	axes := []int{3, 1, 0, 2}
	src := must(views.FromColMajor(filled(64*64*64*8), shape...))
	pv := must(src.View().Permute(axes...))
	dst := must(views.Zeros[float64](pv.Shape()...))
	bytes := int64(2 * 8 * src.Len())
	b.Run("op=permute4d/n=2097152/impl=memcpy", func(b *testing.B) {
		b.SetBytes(bytes)
		for b.Loop() {
			copy(dst.Data(), src.Data())
		}
	})
	b.Run("op=permute4d/n=2097152/impl=loop", func(b *testing.B) {
		b.SetBytes(bytes)
		l := pv.Layout()
		s, d := src.Data(), dst.Data()
		for b.Loop() {
			p := 0
			for i3 := 0; i3 < l.Dim(3); i3++ {
				for i2 := 0; i2 < l.Dim(2); i2++ {
					for i1 := 0; i1 < l.Dim(1); i1++ {
						for i0 := 0; i0 < l.Dim(0); i0++ {
							d[p] = s[l.Offset()+i0*l.Stride(0)+i1*l.Stride(1)+i2*l.Stride(2)+i3*l.Stride(3)]
							p++
						}
					}
				}
			}
		}
	})
	b.Run("op=permute4d/n=2097152/impl=lapis", func(b *testing.B) {
		b.SetBytes(bytes)
		for b.Loop() {
			withThreads(1, func() { must(0, views.Copy(dst.View(), pv)) })
		}
	})
}
