package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkKernels: the calls that tell OpenBLAS's kernel sets apart
// (docs/bench/kernels.md), on each set, through lapis, with OpenBLAS's
// threads fixed. The kernel set is the process's (chosen as cblas starts),
// so scripts/bench-kernels.sh runs this benchmark once per configuration,
// alternating, and names each in impl= through LAPIS_BENCH_IMPL (default
// "lapis"):
//
//	scripts/bench-kernels.sh
//	LAPIS_BENCH_IMPL=off LAPIS_OPENBLAS_CORE=off go test -run '^$' -bench '^BenchmarkKernels$' ./bench
func BenchmarkKernels(b *testing.B) {
	printBLAS()
	impl := os.Getenv("LAPIS_BENCH_IMPL")
	if impl == "" {
		impl = "lapis"
	}
	prev := lapis.Threads()
	defer func() { _ = lapis.SetThreads(prev) }()
	rng := rand.New(rand.NewPCG(29, 1))
	square := func(n int) []float64 {
		a := make([]float64, n*n)
		for i := range a {
			a[i] = rng.Float64() - 0.5
		}
		return a
	}
	spd := func(n int) []float64 { // a a^T + n I
		a, s := square(n), make([]float64, n*n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				var d float64
				for k := 0; k < n; k++ {
					d += a[i+k*n] * a[j+k*n]
				}
				s[i+j*n] = d
			}
			s[j+j*n] += float64(n)
		}
		return s
	}
	view := func(x []float64, r, c int) views.View[float64] { return must(views.FromColMajor(x, r, c)).View() }
	threads := func(b *testing.B, t int) {
		if err := lapis.SetThreads(t); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct{ n, threads int }{{256, 1}, {1024, 1}, {256, 2}, {1024, 2}} {
		b.Run(kernelsName("dgemm", c.n, c.threads, impl), func(b *testing.B) {
			threads(b, c.threads)
			x, y, z := view(square(c.n), c.n, c.n), view(square(c.n), c.n, c.n), view(make([]float64, c.n*c.n), c.n, c.n)
			for b.Loop() {
				if err := cblas.Gemm(1, x, y, 0, z); err != nil {
					b.Fatal(err)
				}
			}
			reportGFLOPS(b, 2*float64(c.n)*float64(c.n)*float64(c.n))
		})
	}
	b.Run(kernelsName("zgemm", 512, 1, impl), func(b *testing.B) {
		threads(b, 1)
		n := 512
		mk := func() views.View[complex128] {
			a := make([]complex128, n*n)
			for i := range a {
				a[i] = complex(rng.Float64()-0.5, rng.Float64()-0.5)
			}
			return must(views.FromColMajor(a, n, n)).View()
		}
		x, y, z := mk(), mk(), mk()
		for b.Loop() {
			if err := cblas.Gemm(1, x, y, 0, z); err != nil {
				b.Fatal(err)
			}
		}
		reportGFLOPS(b, 8*float64(n)*float64(n)*float64(n))
	})
	// LAPACK at n = 500 on one thread, each call on a fresh copy of its
	// input (the copy outside the timer).
	n := 500
	a0, s0 := square(n), spd(n)
	a, rhs, s, w, ipiv := make([]float64, n*n), make([]float64, n), make([]float64, n*n), make([]float64, n), make([]int32, n)
	av, bv, sv := view(a, n, n), view(rhs, n, 1), view(s, n, n)
	for _, c := range []struct {
		op    string
		flops float64
		reset func()
		call  func() error
	}{
		{"dgesv", 2.0 / 3 * float64(n*n*n), func() { copy(a, a0); clear(rhs); rhs[0] = 1 }, func() error { return lapack.Gesv(av, bv, ipiv) }},
		{"dpotrf", 1.0 / 3 * float64(n*n*n), func() { copy(s, s0) }, func() error { return lapack.Potrf(cblas.Lower, sv) }},
		{"dsyevd", 0, func() { copy(s, s0) }, func() error { return lapack.Syevd(lapack.JobVectors, cblas.Lower, sv, w) }},
	} {
		b.Run(kernelsName(c.op, n, 1, impl), func(b *testing.B) {
			threads(b, 1)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				c.reset()
				b.StartTimer()
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
			if c.flops > 0 {
				reportGFLOPS(b, c.flops)
			}
		})
	}
}

func kernelsName(op string, n, threads int, impl string) string {
	return fmt.Sprintf("op=%s/n=%d/threads=%d/impl=%s", op, n, threads, impl)
}
