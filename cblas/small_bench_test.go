package cblas

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSmallGemm is the call overhead of a 4 x 4 product, the case the
// pure-Go path exists for.
func BenchmarkSmallGemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, k := range []kind{colPacked, rowPacked} {
		a, bb, c := newOperand[float64](rng, 4, 4, k), newOperand[float64](rng, 4, 4, k), newOperand[float64](rng, 4, 4, k)
		b.Run(k.String(), func(b *testing.B) {
			for b.Loop() {
				_ = Gemm(1, a.v, bb.v, 0, c.v)
			}
		})
	}
}
