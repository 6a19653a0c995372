package finite

import (
	"fmt"
	"math"
	"testing"
)

// TestFinite: Float64s and Float32s (the assembly where it runs, Go's
// loop for the tail) against an element-by-element oracle: every length
// up to 300 and a few long ones, a NaN, +Inf or -Inf at every position
// (and at none), each at an offset from an aligned start.
func TestFinite(t *testing.T) {
	t.Logf("AVX2 scan: %v", fast)
	testFinite(t, Float64s, math.NaN(), math.Inf(1), math.Inf(-1))
	testFinite(t, Float32s, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)))
}

func testFinite[F float32 | float64](t *testing.T, scan func([]F) bool, bads ...F) {
	lens := []int{}
	for n := range 301 {
		lens = append(lens, n)
	}
	lens = append(lens, 511, 512, 513, 4099)
	for _, n := range lens {
		for _, skew := range []int{0, 1, 3} {
			buf := make([]F, n+skew)
			for i := range buf {
				buf[i] = F(i%11) - 5.5
			}
			xs := buf[skew:]
			if !scan(xs) || !goFinite(xs) {
				t.Fatalf("%T n=%d skew=%d: finite slice reported not finite", xs, n, skew)
			}
			step := 1
			if n > 300 {
				step = 37
			}
			for k := 0; k < n; k += step {
				for _, bad := range bads {
					keep := xs[k]
					xs[k] = bad
					if scan(xs) || goFinite(xs) {
						t.Fatalf("%T n=%d skew=%d: %v at %d missed", xs, n, skew, bad, k)
					}
					xs[k] = keep
				}
			}
		}
	}
	// The largest finite values and the smallest subnormals are finite.
	xs := make([]F, 64)
	for i := range xs {
		xs[i] = F(math.Copysign(math.MaxFloat32, float64(i%2)-0.5))
		if i%3 == 0 {
			xs[i] = F(math.SmallestNonzeroFloat32)
		}
	}
	if !scan(xs) {
		t.Errorf("%T: extreme finite values reported not finite", xs)
	}
}

var sink bool

// BenchmarkFinite: the scan of n float64, assembly (impl=asm, where it
// runs) against Go's loop (impl=go).
//
//	go test -run '^$' -bench Finite ./internal/kernel/finite
func BenchmarkFinite(b *testing.B) {
	for _, n := range []int{16, 256, 10000, 1000000} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i) / 7
		}
		b.Run(fmt.Sprintf("n=%d/impl=asm", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			for b.Loop() {
				sink = Float64s(xs)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=go", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			for b.Loop() {
				sink = goFinite(xs)
			}
		})
	}
}
