package cblas

import (
	"math/rand/v2"
	"testing"

	tm "github.com/lapis-go/lapis/internal/test/testmat"
)

// BenchmarkSmallGemm is the call overhead of a 4 x 4 product, the case the
// pure-Go path exists for.
func BenchmarkSmallGemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, k := range []tm.Kind{tm.ColPacked, tm.RowPacked} {
		a, bb, c := tm.New[float64](rng, 4, 4, k), tm.New[float64](rng, 4, 4, k), tm.New[float64](rng, 4, 4, k)
		b.Run(k.String(), func(b *testing.B) {
			for b.Loop() {
				_ = Gemm(1, a.V, bb.V, 0, c.V)
			}
		})
	}
}
