package sum

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/internal/test/guard"
)

// TestBlocksMatchGo: the assembly blocks are bit-identical to the Go
// blocks (the same association), for runs of 8 to 256 values of mixed
// magnitudes, with NaN and infinities.
func TestBlocksMatchGo(t *testing.T) {
	if !fast {
		t.Skip("no AVX2 on this CPU, or a purego build: the Go blocks run")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 8; n <= 256; n += 8 {
		for trial := range 50 {
			x := make([]float64, n)
			y := make([]float32, n)
			for i := range x {
				x[i] = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(30)-15))
				y[i] = float32(x[i])
			}
			switch trial {
			case 1:
				x[r.IntN(n)], y[r.IntN(n)] = math.NaN(), float32(math.NaN())
			case 2:
				x[r.IntN(n)], y[r.IntN(n)] = math.Inf(1), float32(math.Inf(-1))
			}
			if got, want := block64AVX2(&x[0], n), go64(x); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("float64 n=%d: %v, Go %v", n, got, want)
			}
			if got, want := block32AVX2(&y[0], n), go32(y); math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
				t.Fatalf("float32 n=%d: %v, Go %v", n, got, want)
			}
		}
	}
}

// TestGuard runs the blocks on runs flush against an inaccessible page
// on either side: a read outside the run faults.
func TestGuard(t *testing.T) {
	for _, side := range guard.Sides {
		a := guard.NewArena(side)
		for n := 8; n <= 136; n += 8 {
			x := guard.Slice[float64](a, "x", n)
			y := guard.Slice[float32](a, "y", n)
			for i := range x {
				x[i], y[i] = float64(i), float32(i)
			}
			want := float64(n*(n-1)) / 2
			if got := Block64(x); got != want {
				t.Errorf("%v n=%d: Block64 %v, want %v", side, n, got, want)
			}
			if got := Block32(y); float64(got) != want {
				t.Errorf("%v n=%d: Block32 %v, want %v", side, n, got, want)
			}
		}
		a.Free()
	}
}
