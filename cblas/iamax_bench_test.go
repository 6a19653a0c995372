package cblas

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkIamax: lapis's Iamax (library i?amax checked by ?asum for NaN)
// against its ?asum pass alone and the Go loop, float64, stride 1.
func BenchmarkIamax(b *testing.B) {
	for _, n := range []int{256, 4096, 1 << 16} {
		rng := rand.New(rand.NewPCG(1, 1))
		d := make([]float64, n)
		for i := range d {
			d[i] = rng.NormFloat64()
		}
		x := must2(views.FromSlice(d, must(layout.ColMajor(n))))
		b.Run(fmt.Sprintf("op=iamax/n=%d/impl=lapis", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			for b.Loop() {
				Iamax(x)
			}
		})
		b.Run(fmt.Sprintf("op=asum/n=%d/impl=lapis", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			for b.Loop() {
				Asum(x)
			}
		})
		b.Run(fmt.Sprintf("op=iamax/n=%d/impl=go", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			for b.Loop() {
				blasgo.Iamax[float64](n, unsafe.Pointer(&d[0]), 1)
			}
		})
	}
}
