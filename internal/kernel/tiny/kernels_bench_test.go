package tiny

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkTinyKernels times the tiny kernels alone on compact float64
// batches (Tiny, the implementation this machine runs), the operands
// restored from a saved copy before each pass with the timer stopped:
// count = 512 stays in the core's caches, count = 10000 is the batch
// benchmarks' size. It reports nanoseconds per matrix. Where the machine
// has AVX-512, impl=avx512 and impl=avx512-noscatter time both sets (the
// one Tiny runs is tinyWide's; they differ in float64 orders 3, 4, 5 and
// 7 only).
//
//	go test -run '^$' -bench TinyKernels ./internal/kernel/tiny
func BenchmarkTinyKernels(b *testing.B) {
	impls := []tinyImpl{tinyBest}
	if Wide {
		impls = []tinyImpl{tinyAVX512, tinyAVX512NoScatter}
	}
	for _, count := range []int{512, 10000} {
		for _, n := range []int{3, 4, 5, 7, 8} {
			for _, op := range []Op{Cholesky, CholeskySolve, Solve, Inv, Det} {
				for _, impl := range impls {
					b.Run(fmt.Sprintf("count=%d/op=%s/n=%d/impl=%s", count, tinyOpNames[op], n, impl), func(b *testing.B) {
						nrhs := 0
						if op == Solve || op == CholeskySolve {
							nrhs = 1
						}
						rng := rand.New(rand.NewPCG(uint64(n), uint64(op)))
						orig := newTinyCase[float64](rng, op, n, count, max(nrhs, 1), 0)
						c := orig.clone()
						am, bm := c.mats()
						det := make([]float64, count)
						var fl []int
						for b.Loop() {
							b.StopTimer()
							copy(c.a, orig.a)
							copy(c.b, orig.b)
							b.StartTimer()
							fl = tiny(op, n, count, am, bm, nrhs, det, nil, fl[:0], impl, nil)
						}
						if len(fl) != 0 {
							b.Fatalf("%d flagged", len(fl))
						}
						b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*count), "ns/matrix")
					})
				}
			}
		}
	}
}
