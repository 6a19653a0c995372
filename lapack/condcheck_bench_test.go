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

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/cond"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/views"
)

// condBenchSizes are the orders of the conditioning check's benchmarks:
// both sides of cond.Max (exact in Go up to 16) and orders 100 to 1000,
// where the check should cost at most 5% of Solve
// (docs/bench/lapack.md#the-conditioning-check).
var condBenchSizes = []int{4, 16, 100, 200, 500, 1000}

// BenchmarkSolveCondCheck: the cost of the conditioning check, Solve
// (the norm before, checkCondition after the factorisation) and Inv (the
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
	if err := lapis.SetThreads(1); err == nil {
		defer lapis.SetThreads(lapis.AutoThreads)
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
			call := func(opts ...lapis.Option) {
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
				call(lapis.NoConditionCheck())
				k := max(1, int(200*time.Microsecond/max(1, threadCPU()-t0)))
				chunk := func(opts ...lapis.Option) time.Duration {
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
						c, n = chunk(), chunk(lapis.NoConditionCheck())
					} else {
						n, c = chunk(lapis.NoConditionCheck()), chunk()
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

// BenchmarkCondEstimate: the parts of the check, timed as
// BenchmarkSolveCondCheck times (chunks on the thread's CPU clock, one
// OpenBLAS thread), float64 and complex128: getrf-ns the factorisation
// (the unit), norm-ns the norm taken before it (in Go) against lange-ns
// (?lange), trsv-ns the estimate checkCondition makes (?lacn2's
// iteration on plain ?trsv solves) against gecon-ns (LAPACK's ?gecon, the
// same iteration on scaled ?latrs solves: what the check called before),
// and trsv2-ns one product by A^-1 (two ?trsv: the unit of any estimate
// that solves with the factors).
func BenchmarkCondEstimate(b *testing.B) {
	if err := lapis.SetThreads(1); err == nil {
		defer lapis.SetThreads(lapis.AutoThreads)
	}
	benchCondEstimate[float64](b, "float64")
	benchCondEstimate[complex128](b, "complex128")
}

func benchCondEstimate[T Scalar](b *testing.B, typ string) {
	rng := rand.New(rand.NewPCG(12, 6))
	for _, n := range condBenchSizes[2:] {
		a := tm.New[T](rng, n, n, tm.ColPacked)
		anorm, _ := Lange(OneNorm, a.V)
		src, lu, work := a.V.ToColMajor(), a.V.ToColMajor(), a.V.ToColMajor()
		ipiv := make([]int32, n)
		if err := Getrf(lu.View(), ipiv); err != nil {
			b.Fatal(err)
		}
		x := make([]T, n)
		parts := []struct {
			unit string
			f    func()
		}{
			{"getrf-ns", func() {
				copy(work.Data(), src.Data())
				if err := Getrf(work.View(), ipiv); err != nil {
					b.Fatal(err)
				}
			}},
			{"norm-ns", func() { cond.MatrixNorm(src.Data(), n, false) }},
			{"lange-ns", func() { Lange(OneNorm, src.View()) }},
			{"trsv-ns", func() {
				cond.Estimate(false, lu.View(), anorm, func(lu views.View[T]) (float64, error) { return gecon("bench", OneNorm, lu, anorm, nil) })
			}},
			{"gecon-ns", func() { gecon("bench", OneNorm, lu.View(), anorm, nil) }},
			{"trsv2-ns", func() {
				cond.SolveLU[T](false, n, unsafe.Pointer(unsafe.SliceData(lu.Data())), n, unsafe.Pointer(&x[0]))
			}},
		}
		b.Run(fmt.Sprintf("op=rcond/type=%s/n=%d/impl=parts", typ, n), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			k := make([]int, len(parts))
			for i, p := range parts {
				t0 := threadCPU()
				p.f()
				k[i] = max(1, int(200*time.Microsecond/max(1, threadCPU()-t0)))
			}
			total := make([]time.Duration, len(parts))
			calls := make([]int, len(parts))
			for b.Loop() {
				for i, p := range parts {
					for j := range x {
						x[j] = 1
					}
					t0 := threadCPU()
					for range k[i] {
						p.f()
					}
					total[i] += threadCPU() - t0
					calls[i] += k[i]
				}
			}
			for i, p := range parts {
				b.ReportMetric(float64(total[i])/float64(calls[i]), p.unit)
			}
		})
	}
}
