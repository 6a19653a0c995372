package lapack

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/lapis-go/lapis/cblas"
	tm "github.com/lapis-go/lapis/internal/testmat"
)

// condBenchSizes are the orders of the conditioning check's benchmarks:
// both sides of cond.Max (exact in Go up to 16) and the orders issue 12
// sets its target on (at most 5% of Solve for n >= 100).
var condBenchSizes = []int{4, 16, 100, 200, 500, 1000}

// BenchmarkSolveCondCheck: the cost of the conditioning check, Solve
// (the norm before, CheckCondition after the factorisation) and Inv (the
// norm of the computed inverse) with the check against the same call with
// NoConditionCheck, float64 and complex128, one right-hand side, one
// OpenBLAS thread. The machine this runs on is shared, so the two are
// timed in alternating chunks of about 0.2 ms each (the order swapped
// every pair) on the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID: time
// spent descheduled does not count), and the benchmark reports the
// median over the pairs of check / nocheck - 1 as cost-%, and each side's
// CPU time per call as check-ns and nocheck-ns. ns/op is the wall time of
// one pair of chunks.
func BenchmarkSolveCondCheck(b *testing.B) {
	if err := cblas.SetThreads(1); err == nil {
		defer cblas.SetThreads(cblas.AutoThreads)
	}
	benchCondCheck[float64](b, "float64")
	benchCondCheck[complex128](b, "complex128")
}

func benchCondCheck[T Scalar](b *testing.B, typ string) {
	rng := rand.New(rand.NewPCG(12, 5))
	for _, op := range []string{"solve", "inv"} {
		for _, n := range condBenchSizes {
			if op == "inv" && n > 500 {
				continue
			}
			a := tm.New[T](rng, n, n, tm.ColPacked)
			rhs := tm.New[T](rng, n, 1, tm.ColPacked)
			call := func(opts ...Option) {
				var x interface{ Release() }
				var err error
				if op == "solve" {
					x, err = Solve(a.V, rhs.V, opts...)
				} else {
					x, err = Inv(a.V, opts...)
				}
				if err != nil {
					b.Fatal(err)
				}
				x.Release()
			}
			b.Run(fmt.Sprintf("op=%s/type=%s/n=%d/impl=paired", op, typ, n), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				t0 := threadCPU()
				call(NoConditionCheck())
				k := max(1, int(200*time.Microsecond/max(1, threadCPU()-t0)))
				chunk := func(opts ...Option) time.Duration {
					t := threadCPU()
					for range k {
						call(opts...)
					}
					return threadCPU() - t
				}
				var ratios []float64
				var check, nocheck time.Duration
				for b.Loop() {
					var c, n time.Duration
					if len(ratios)%2 == 0 {
						c, n = chunk(), chunk(NoConditionCheck())
					} else {
						n, c = chunk(NoConditionCheck()), chunk()
					}
					check, nocheck = check+c, nocheck+n
					ratios = append(ratios, float64(c)/float64(n))
				}
				slices.Sort(ratios)
				calls := float64(k * len(ratios))
				b.ReportMetric(100*(ratios[len(ratios)/2]-1), "cost-%")
				b.ReportMetric(float64(check)/calls, "check-ns")
				b.ReportMetric(float64(nocheck)/calls, "nocheck-ns")
			})
		}
	}
}

// threadCPU is the calling OS thread's CPU time.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3 // CLOCK_THREAD_CPUTIME_ID (Linux)
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
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
