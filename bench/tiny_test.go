package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkBatchTiny: 10000 float64 SPD matrices of order 3, 4 and 8 in
// compact column-major batches [n, n, 10000], one goroutine, timed as a
// user runs them: an in-place operation (solve with one right-hand side,
// cholesky, inv) includes the copy that keeps its input, since numpy's
// functions are out of place; det writes nothing. impl=lapis is batch
// with one worker (the tiny kernels), lapis-w2 two workers, lapis-old the
// per-matrix path batch took before the kernels (cblas.ForceC(): LAPACK
// through cgo, Solve's C loop). OpenBLAS runs one thread. numpy's
// np.linalg.solve / cholesky / det / inv on the same (10000, n, n) stacks
// are timed by scripts/bench-batch.sh in the same run.
//
//	OPENBLAS_CORETYPE=Haswell go test -run '^$' -bench BatchTiny -count 4 ./bench | go run ./bench/report -ref lapis
func BenchmarkBatchTiny(b *testing.B) {
	prev := setBLASThreads(1)
	defer setBLASThreads(prev)
	const count = 10000
	for _, n := range []int{3, 4, 8} {
		rng := rand.New(rand.NewPCG(uint64(n), 14))
		a0, b0 := spdStack(rng, n, count), random(rng, n*count)
		a, bb := make([]float64, len(a0)), make([]float64, len(b0))
		av := must(views.FromColMajor(a, n, n, count)).View()
		bv := must(views.FromColMajor(bb, n, 1, count)).View()
		a0v := must(views.FromColMajor(a0, n, n, count)).View()
		for _, op := range []string{"solve", "cholesky", "cholsolve", "det", "inv"} {
			for _, impl := range []string{"lapis", "lapis-w2", "lapis-old"} {
				var opts []batch.Option
				if impl == "lapis-old" {
					opts = append(opts, cblas.ForceC())
				}
				w := 1
				if impl == "lapis-w2" {
					w = 2
				}
				// cholsolve solves with a factor made once, outside the timing.
				copy(a, a0)
				if op == "cholsolve" {
					if err := batch.Cholesky(batch.Lower, av); err != nil {
						b.Fatal(err)
					}
				}
				b.Run(fmt.Sprintf("op=%s/n=%d/count=%d/impl=%s", op, n, count, impl), func(b *testing.B) {
					prevW := batch.SetWorkers(w)
					defer batch.SetWorkers(prevW)
					var err error
					for b.Loop() {
						switch op {
						case "solve":
							copy(a, a0)
							copy(bb, b0)
							err = batch.Solve(av, bv, opts...)
						case "cholesky":
							copy(a, a0)
							err = batch.Cholesky(batch.Lower, av, opts...)
						case "cholsolve":
							copy(bb, b0)
							err = batch.CholeskySolve(batch.Lower, av, bv, opts...)
						case "det":
							_, err = batch.Det(a0v, opts...)
						case "inv":
							copy(a, a0)
							err = batch.Inv(av, opts...)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "matrices/s")
				})
			}
		}
	}
}

// spdStack returns count symmetric positive definite n x n matrices, one
// after another: m m^T + n I for m with entries in [-1, 1).
func spdStack(rng *rand.Rand, n, count int) []float64 {
	s := make([]float64, n*n*count)
	for t := range count {
		m := random(rng, n*n)
		for j := range n {
			for i := range n {
				var v float64
				for k := range n {
					v += m[i+k*n] * m[j+k*n]
				}
				if i == j {
					v += float64(n)
				}
				s[t*n*n+i+j*n] = v
			}
		}
	}
	return s
}
