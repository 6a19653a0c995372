package lapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	tm "github.com/lapis-go/lapis/internal/testmat"
)

// condBenchSizes are the orders of the conditioning check's benchmarks:
// both sides of cond.Max (exact in Go up to 16) and the orders issue 12
// sets its target on (at most 5% of Solve for n >= 100).
var condBenchSizes = []int{4, 16, 100, 200, 500, 1000}

// BenchmarkSolveCondCheck: Solve with its conditioning check (the norm
// before, CheckCondition after the factorisation) against Solve with
// NoConditionCheck, one right-hand side, float64 and complex128; and Inv
// with its check (the norm of the computed inverse) against Inv without.
// The cost of the check is the ratio check / nocheck of one run.
func BenchmarkSolveCondCheck(b *testing.B) {
	benchCondCheck[float64](b, "float64")
	benchCondCheck[complex128](b, "complex128")
}

func benchCondCheck[T Scalar](b *testing.B, typ string) {
	rng := rand.New(rand.NewPCG(12, 5))
	variants := []struct {
		name string
		opts []Option
	}{{"check", nil}, {"nocheck", []Option{NoConditionCheck()}}}
	for _, op := range []string{"solve", "inv"} {
		for _, n := range condBenchSizes {
			if op == "inv" && n > 500 {
				continue
			}
			a := tm.New[T](rng, n, n, tm.ColPacked)
			rhs := tm.New[T](rng, n, 1, tm.ColPacked)
			for _, c := range variants {
				b.Run(fmt.Sprintf("op=%s/type=%s/n=%d/impl=%s", op, typ, n, c.name), func(b *testing.B) {
					for b.Loop() {
						var x interface{ Release() }
						var err error
						if op == "solve" {
							x, err = Solve(a.V, rhs.V, c.opts...)
						} else {
							x, err = Inv(a.V, c.opts...)
						}
						if err != nil {
							b.Fatal(err)
						}
						x.Release()
					}
				})
			}
		}
	}
}

// BenchmarkCondEstimate: the estimate alone on the same LU factors, the
// one CheckCondition makes (impl=trsv: ?lacn2's iteration on plain
// triangular solves) against LAPACK's ?gecon (impl=gecon: the same
// iteration on scaled ?latrs solves, what CheckCondition called before),
// next to the factorisation itself (impl=getrf, the unit of the ratio).
func BenchmarkCondEstimate(b *testing.B) {
	rng := rand.New(rand.NewPCG(12, 6))
	for _, n := range condBenchSizes[2:] {
		a := tm.New[float64](rng, n, n, tm.ColPacked)
		anorm, _ := Lange(OneNorm, a.V)
		lu := a.V.ToColMajor()
		ipiv := make([]int32, n)
		if err := Getrf(lu.View(), ipiv); err != nil {
			b.Fatal(err)
		}
		src, work := a.V.ToColMajor(), a.V.ToColMajor()
		b.Run(fmt.Sprintf("op=rcond/n=%d/impl=getrf", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				copy(work.Data(), src.Data())
				b.StartTimer()
				if err := Getrf(work.View(), ipiv); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, impl := range []string{"trsv", "gecon"} {
			b.Run(fmt.Sprintf("op=rcond/n=%d/impl=%s", n, impl), func(b *testing.B) {
				for b.Loop() {
					if _, err := gecon("bench", OneNorm, lu.View(), anorm, impl == "trsv", nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
