package lapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	tm "github.com/lapis-go/lapis/internal/testmat"
)

// BenchmarkSolveCondCheck: Solve with its conditioning check (a norm
// before and gecon after the factorisation) against Solve with
// NoConditionCheck, float64, one right-hand side.
func BenchmarkSolveCondCheck(b *testing.B) {
	rng := rand.New(rand.NewPCG(12, 5))
	for _, n := range []int{4, 16, 100, 500} {
		a := tm.New[float64](rng, n, n, tm.ColPacked)
		rhs := tm.New[float64](rng, n, 1, tm.ColPacked)
		for _, c := range []struct {
			name string
			opts []Option
		}{{"check", nil}, {"nocheck", []Option{NoConditionCheck()}}} {
			b.Run(fmt.Sprintf("op=solve/n=%d/impl=%s", n, c.name), func(b *testing.B) {
				for b.Loop() {
					x, err := Solve(a.V, rhs.V, c.opts...)
					if err != nil {
						b.Fatal(err)
					}
					x.Release()
				}
			})
		}
	}
}
