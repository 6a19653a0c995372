package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkBatchGemm: count products of n x n float64 matrices in compact
// column-major batches [n, n, count], reported as matrices per second.
// impl=lapis is batch.Gemm (workers=1 unless the name says w=2);
// kernel-loop is a plain C triple loop over the batch in one cgo call;
// blas-loop a C loop of cblas_dgemm in one cgo call; go-cgo-loop a Go loop
// of one cgo cblas_dgemm call per matrix; gonum a Go loop of gonum's
// Dgemm. OpenBLAS runs one thread.
//
//	OPENBLAS_CORETYPE=Haswell go test -run '^$' -bench BatchGemm -count 4 ./bench | go run ./bench/report -ref kernel-loop,lapis
func BenchmarkBatchGemm(b *testing.B) {
	prev := setBLASThreads(1)
	defer setBLASThreads(prev)
	for _, c := range []struct{ n, count int }{{4, 10000}, {16, 10000}, {64, 1000}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), 1))
		nn := c.n * c.n
		a, bb := random(rng, nn*c.count), random(rng, nn*c.count)
		out := make([]float64, nn*c.count)
		av := must(views.FromColMajor(a, c.n, c.n, c.count)).View()
		bv := must(views.FromColMajor(bb, c.n, c.n, c.count)).View()
		cv := must(views.FromColMajor(out, c.n, c.n, c.count)).View()
		run := func(name string, f func()) {
			b.Run(fmt.Sprintf("op=gemm/n=%d/count=%d/impl=%s", c.n, c.count, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					f()
				}
				b.ReportMetric(float64(c.count)*float64(b.N)/b.Elapsed().Seconds(), "matrices/s")
			})
		}
		for _, w := range []int{1, 2} {
			name := "lapis"
			if w > 1 {
				name = fmt.Sprintf("lapis-w%d", w)
			}
			run(name, func() {
				prev := batch.SetWorkers(w)
				if err := batch.Gemm(1, av, bv, 0, cv); err != nil {
					b.Fatal(err)
				}
				batch.SetWorkers(prev)
			})
		}
		run("kernel-loop", func() { batchKernelLoop(c.count, c.n, a, bb, out) })
		run("blas-loop", func() { batchBLASLoop(c.count, c.n, a, bb, out) })
		args := dgemmArgs{m: c.n, n: c.n, k: c.n, alpha: 1, lda: c.n, ldb: c.n, ldc: c.n}
		run("go-cgo-loop", func() {
			for t := range c.count {
				g := args
				g.a, g.b, g.c = a[t*nn:(t+1)*nn], bb[t*nn:(t+1)*nn], out[t*nn:(t+1)*nn]
				dgemm(&g)
			}
		})
		var impl gonum.Implementation
		run("gonum", func() {
			for t := range c.count {
				// column-major C = A B is row-major C^T = B^T A^T
				impl.Dgemm(blas.NoTrans, blas.NoTrans, c.n, c.n, c.n, 1, bb[t*nn:(t+1)*nn], c.n, a[t*nn:(t+1)*nn], c.n, 0, out[t*nn:(t+1)*nn], c.n)
			}
		})
	}
}
