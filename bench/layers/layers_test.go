// Package layers measures the calls whose speed a change to lapis's
// layers (the C layer, the internal packages between the API and it, the
// gonum adapters) must keep: cblas.Gemm at 4x4 and 16x16 (where the
// layers' overhead is most of the time), lapack.Solve at n = 100 and
// 1000, batch.Solve over 10000 systems of order 3, and the gonum
// adapters' Dgemm and Dgetrf. scripts/bench-layers.sh runs them on two
// revisions, interleaved, and compares with benchstat.
package layers

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

func randTensor(rng *rand.Rand, shape ...int) *views.Tensor[float64] {
	t, _ := views.Zeros[float64](shape...)
	d := t.Data()
	for i := range d {
		d[i] = rng.Float64() - 0.5
	}
	return t
}

func BenchmarkCblasGemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{4, 16} {
		a, bb, c := randTensor(rng, n, n), randTensor(rng, n, n), randTensor(rng, n, n)
		b.Run(fmt.Sprintf("op=dgemm/n=%d/impl=lapis", n), func(b *testing.B) {
			for b.Loop() {
				if err := cblas.Gemm(1, a.View(), bb.View(), 0, c.View()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLapackSolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{100, 1000} {
		a, x := randTensor(rng, n, n), randTensor(rng, n)
		for i := range n {
			a.View().Set(a.View().At(i, i)+float64(n), i, i)
		}
		b.Run(fmt.Sprintf("op=dgesv/n=%d/impl=lapis", n), func(b *testing.B) {
			for b.Loop() {
				r, err := lapack.Solve(a.View(), x.View())
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
			}
		})
	}
}

func BenchmarkBatchSolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const count = 10000
	a, x := randTensor(rng, 3, 3, count), randTensor(rng, 3, 1, count)
	for t := range count {
		for i := range 3 {
			a.View().Set(a.View().At(i, i, t)+3, i, i, t)
		}
	}
	b.Run("op=dgesv/n=3/count=10000/impl=lapis", func(b *testing.B) {
		for b.Loop() {
			r, err := batch.Solve(a.View(), x.View())
			if err != nil {
				b.Fatal(err)
			}
			r.Release()
		}
	})
}

func BenchmarkGonumDgemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{16, 256} {
		a, bb, c := randTensor(rng, n*n), randTensor(rng, n*n), randTensor(rng, n*n)
		b.Run(fmt.Sprintf("op=dgemm/n=%d/impl=adapter", n), func(b *testing.B) {
			for b.Loop() {
				gonumBLAS.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a.Data(), n, bb.Data(), n, 0, c.Data(), n)
			}
		})
	}
}

func BenchmarkGonumDgetrf(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{100, 500} {
		a0 := randTensor(rng, n*n)
		a := make([]float64, n*n)
		ipiv := make([]int, n)
		b.Run(fmt.Sprintf("op=dgetrf/n=%d/impl=adapter", n), func(b *testing.B) {
			for b.Loop() {
				copy(a, a0.Data())
				gonumLAPACK.Dgetrf(n, n, a, n, ipiv)
			}
		})
	}
}
