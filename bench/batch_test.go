package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/bench/cref"
	"github.com/lapis-go/lapis/lapack"
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
//	go test -run '^$' -bench BatchGemm -count 4 ./bench | go run ./bench/report -ref kernel-loop,lapis
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
				prev, _ := lapis.SetWorkers(w)
				if err := batch.Gemm(1, av, bv, 0, cv); err != nil {
					b.Fatal(err)
				}
				lapis.SetWorkers(prev)
			})
		}
		run("kernel-loop", func() { cref.KernelLoop(c.count, c.n, a, bb, out) })
		run("blas-loop", func() { cref.BLASLoop(c.count, c.n, a, bb, out) })
		run("go-cgo-loop", func() {
			for t := range c.count {
				cref.Dgemm(1, cref.Square(c.n, a[t*nn:(t+1)*nn], bb[t*nn:(t+1)*nn], out[t*nn:(t+1)*nn]))
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

// BenchmarkBatchSolve: count n x n systems with one right-hand side each,
// a [n, n, count] and b [n, 1, count] compact column-major, solved in
// place by batch.Gesv (workers 1 and 2) and by a Go loop of lapack.Gesv
// calls; inputs restored untimed before each run.
//
//	go test -run '^$' -bench BatchSolve -count 4 ./bench | go run ./bench/report -ref lapis
func BenchmarkBatchSolve(b *testing.B) {
	prev := setBLASThreads(1)
	defer setBLASThreads(prev)
	n, count := 8, 10000
	rng := rand.New(rand.NewPCG(8, 8))
	a0, b0 := random(rng, n*n*count), random(rng, n*count)
	for t := range count { // diagonally dominant: well conditioned
		for i := range n {
			a0[t*n*n+i*n+i] += float64(2 * n)
		}
	}
	a, bb := make([]float64, len(a0)), make([]float64, len(b0))
	av := must(views.FromColMajor(a, n, n, count)).View()
	bv := must(views.FromColMajor(bb, n, 1, count)).View()
	run := func(name string, f func()) {
		b.Run(fmt.Sprintf("op=solve/n=%d/count=%d/impl=%s", n, count, name), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				copy(a, a0)
				copy(bb, b0)
				b.StartTimer()
				f()
			}
			b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "matrices/s")
		})
	}
	for _, w := range []int{1, 2} {
		name := "lapis"
		if w > 1 {
			name = fmt.Sprintf("lapis-w%d", w)
		}
		run(name, func() {
			prev, _ := lapis.SetWorkers(w)
			if err := batch.Gesv(av, bv); err != nil {
				b.Fatal(err)
			}
			lapis.SetWorkers(prev)
		})
	}
	ipiv := make([]int32, n)
	run("go-lapack-loop", func() {
		for t := range count {
			ai, _ := av.Index(2, t)
			bi, _ := bv.Index(2, t)
			if err := lapack.Gesv(ai, bi, ipiv); err != nil {
				b.Fatal(err)
			}
		}
	})
}
