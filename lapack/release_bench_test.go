package lapack

import (
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkReleaseCheck is the cost of the released-view check on a 100 x
// 100 Solve with one right-hand side, one OpenBLAS thread: views of pooled
// tensors, and the result released every call (so the generation advance of
// its Put is counted too). Compare binaries built before and after the
// check, alternated (docs/bench/release-check.md).
func BenchmarkReleaseCheck(b *testing.B) {
	if err := lapis.SetThreads(1); err == nil {
		defer lapis.SetThreads(lapis.AutoThreads)
	}
	const n = 100
	a, err := views.Zeros[float64](n, n)
	if err != nil {
		b.Fatal(err)
	}
	rhs, err := views.Zeros[float64](n, 1)
	if err != nil {
		b.Fatal(err)
	}
	seed := uint64(1)
	for i, d := 0, a.Data(); i < len(d); i++ {
		seed = seed*6364136223846793005 + 1442695040888963407
		d[i] = float64(seed>>11)/(1<<53) - 0.5
		if i%(n+1) == 0 {
			d[i] += n // diagonally dominant: well conditioned
		}
	}
	for i, d := 0, rhs.Data(); i < len(d); i++ {
		d[i] = float64(i%5) - 2
	}
	av, bv := a.View(), rhs.View()
	b.Run("op=solve/n=100/src=tensor", func(b *testing.B) {
		for b.Loop() {
			x, err := Solve(av, bv)
			if err != nil {
				b.Fatal(err)
			}
			x.Release()
		}
	})
}
