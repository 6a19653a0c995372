package cblas

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
)

// BenchmarkThreshold measures the C and pure-Go paths of the calls that
// have both, on the sizes around their crossover; it is how level1Small,
// axpySmall, scalSmall, nrm2Small, gemmSmallFlops and gemmKernelFlops were chosen:
//
//	go test -run '^$' -bench Threshold -count 4 ./cblas
func BenchmarkThreshold(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{4, 16, 64, 128, 256, 512, 1024, 8192} {
		x, y := newVector[float64](rng, n, 1), newVector[float64](rng, n, 1)
		z := newVector[complex128](rng, n, 1)
		for _, path := range []struct {
			name string
			opt  lapis.Option
		}{{"c", lapis.ForceC()}, {"go", lapis.ForcePureGo()}} {
			b.Run(fmt.Sprintf("op=ddot/n=%d/impl=%s", n, path.name), func(b *testing.B) {
				for b.Loop() {
					_, _ = Dot(x.V, y.V, path.opt)
				}
			})
			b.Run(fmt.Sprintf("op=daxpy/n=%d/impl=%s", n, path.name), func(b *testing.B) {
				for b.Loop() {
					_ = Axpy(1e-9, x.V, y.V, path.opt)
				}
			})
			b.Run(fmt.Sprintf("op=dnrm2/n=%d/impl=%s", n, path.name), func(b *testing.B) {
				for b.Loop() {
					_, _ = Nrm2(x.V, path.opt)
				}
			})
			b.Run(fmt.Sprintf("op=dznrm2/n=%d/impl=%s", n, path.name), func(b *testing.B) {
				for b.Loop() {
					_, _ = Nrm2(z.V, path.opt)
				}
			})
			b.Run(fmt.Sprintf("op=dscal/n=%d/impl=%s", n, path.name), func(b *testing.B) {
				for b.Loop() {
					_ = Scal(-1.0, x.V, path.opt)
				}
			})
			b.Run(fmt.Sprintf("op=zscal/n=%d/impl=%s", n, path.name), func(b *testing.B) {
				for b.Loop() {
					_ = Scal(complex(0.6, 0.8), z.V, path.opt)
				}
			})
		}
	}
	for _, n := range []int{2, 4, 6, 8, 12, 16, 24, 32, 40, 48, 64} {
		for _, typ := range []string{"d", "z"} {
			if typ == "z" && n > 16 {
				continue // the sizes above 16 place gemmKernelFlops (float64)
			}
			for _, path := range []struct {
				name string
				opt  lapis.Option
			}{{"c", lapis.ForceC()}, {"go", lapis.ForcePureGo()}} {
				b.Run(fmt.Sprintf("op=%sgemm/n=%d/impl=%s", typ, n, path.name), func(b *testing.B) {
					if typ == "d" {
						a, bb, c := tm.New[float64](rng, n, n, tm.ColPacked), tm.New[float64](rng, n, n, tm.ColPacked), tm.New[float64](rng, n, n, tm.ColPacked)
						for b.Loop() {
							_ = Gemm(1, a.V, bb.V, 0, c.V, path.opt)
						}
						return
					}
					a, bb, c := tm.New[complex128](rng, n, n, tm.ColPacked), tm.New[complex128](rng, n, n, tm.ColPacked), tm.New[complex128](rng, n, n, tm.ColPacked)
					for b.Loop() {
						_ = Gemm(1, a.V, bb.V, 0, c.V, path.opt)
					}
				})
			}
		}
	}
}
