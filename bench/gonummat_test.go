package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	goblas "gonum.org/v1/gonum/blas/gonum"
	glapack "gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/netlib/lapack/netlib"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/gonumblas"
	"github.com/lapis-go/lapis/gonumlapack"
)

// BenchmarkGonumMat times gonum/mat's own decompositions and solve, the
// code a gonum program already has, under three LAPACKs, side by side in
// one run:
//
//	impl=gonum   gonum's pure-Go BLAS and LAPACK (mat's defaults)
//	impl=netlib  gonum/netlib's LAPACK (LAPACKE's row-major entry points on
//	             the linked OpenBLAS) with lapis's BLAS
//	impl=lapis   gonumlapack with lapis's BLAS: the two lines
//	             blas64.Use(gonumblas.Implementation{}); lapack64.Use(gonumlapack.Implementation{})
//	impl=lapis-dc  (svd only) gonumlapack.Implementation{DivideAndConquer: true}: Dgesvd
//	             by dgesdd instead of dgesvd (gonum's algorithm, the
//	             default)
//
// ops: mat.SVD (SVDThin: Dgesvd; lapis and gonum/netlib answer it with
// dgesvd, lapis-dc with dgesdd), mat.EigenSym (Dsyev: lapis answers it with dsyevd,
// gonum/netlib with dsyev), mat.Eigen (EigenRight: Dgeev),
// mat.Cholesky, mat.LU and mat.Dense.Solve (LU, Dgecon, Dgetrs) of an
// n x n matrix and one right-hand side. OpenBLAS runs on one thread, as
// gonum does. Besides ns/op it reports cpu-ns/op, the process's CPU time
// (user and system) per op: on a machine shared with other work, wall
// time counts the time other processes held the core and CPU time does
// not. scripts/bench-gonum-mat.sh runs it and prints the table.
// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// oneThreadGonum runs a benchmark on one OpenBLAS thread and puts the
// thread count and gonum's own BLAS and LAPACK back when it ends.
func oneThreadGonum(b *testing.B) {
	threads := lapis.Threads()
	if err := lapis.SetThreads(1); err != nil {
		b.Logf("OpenBLAS threads: %v", err)
	}
	b.Cleanup(func() {
		_ = lapis.SetThreads(threads)
		blas64.Use(goblas.Implementation{})
		lapack64.Use(gonum.Implementation{})
	})
}

// gonumMatOp is one gonum/mat operation the benchmarks time.
type gonumMatOp struct {
	name string
	run  func() bool
}

// gonumMatOps are gonum/mat's SVD, EigenSym, Eigen, Cholesky, LU and
// Dense.Solve on a random n x n matrix (an SPD one for EigenSym and
// Cholesky) and one right-hand side.
func gonumMatOps(n int) []gonumMatOp {
	rnd := rand.New(rand.NewPCG(12, uint64(n)))
	a := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			a.Set(i, j, 2*rnd.Float64()-1)
		}
	}
	spd := mat.NewSymDense(n, nil)
	spd.SymOuterK(1, a)
	for i := range n {
		spd.SetSym(i, i, spd.At(i, i)+float64(n))
	}
	rhs := mat.NewDense(n, 1, nil)
	for i := range n {
		rhs.Set(i, 0, 2*rnd.Float64()-1)
	}
	return []gonumMatOp{
		{"svd", func() bool { var s mat.SVD; return s.Factorize(a, mat.SVDThin) }},
		{"eigensym", func() bool { var e mat.EigenSym; return e.Factorize(spd, true) }},
		{"eigen", func() bool { var e mat.Eigen; return e.Factorize(a, mat.EigenRight) }},
		{"cholesky", func() bool { var c mat.Cholesky; return c.Factorize(spd) }},
		{"lu", func() bool { var lu mat.LU; lu.Factorize(a); return true }},
		{"solve", func() bool { var x mat.Dense; return x.Solve(a, rhs) == nil }},
	}
}

func BenchmarkGonumMat(b *testing.B) {
	oneThreadGonum(b)
	impls := []struct {
		name string
		b    blas.Float64
		l    glapack.Float64
		only string // the one op it runs, or every op
	}{
		{"gonum", goblas.Implementation{}, gonum.Implementation{}, ""},
		{"netlib", gonumblas.Implementation{}, netlib.Implementation{}, ""},
		{"lapis", gonumblas.Implementation{}, gonumlapack.Implementation{}, ""},
		{"lapis-dc", gonumblas.Implementation{}, gonumlapack.Implementation{DivideAndConquer: true}, "svd"},
	}
	for _, n := range []int{100, 500} {
		for _, op := range gonumMatOps(n) {
			for _, impl := range impls {
				if impl.only != "" && impl.only != op.name {
					continue
				}
				b.Run(fmt.Sprintf("op=%s/n=%d/impl=%s", op.name, n, impl.name), func(b *testing.B) {
					blas64.Use(impl.b)
					lapack64.Use(impl.l)
					cpu0 := cpuTime()
					for b.Loop() {
						if !op.run() {
							b.Fatalf("%s failed", op.name)
						}
					}
					b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// BenchmarkGonumMatPaired times the cells where lapis and gonum/netlib run
// the same LAPACK routine and differ only in their copies (mat.Eigen:
// Dgeev; mat.LU and Dense.Solve: Dgetrf, Dgecon, Dgetrs) in pairs: each
// iteration runs the op once under netlib and once under lapis, in
// alternating order, and the benchmark reports the median over the pairs
// of lapis's time over netlib's (lapis/netlib) besides each one's median
// time. A load that slows a whole pass of BenchmarkGonumMat (seconds)
// slows both halves of a pair alike, so the ratio needs far fewer passes
// to settle on a shared machine:
//
//	go test -run '^$' -bench GonumMatPaired -benchtime 4s ./bench
func BenchmarkGonumMatPaired(b *testing.B) {
	oneThreadGonum(b)
	blas64.Use(gonumblas.Implementation{})
	impls := [2]glapack.Float64{netlib.Implementation{}, gonumlapack.Implementation{}}
	for _, n := range []int{100, 500} {
		for _, op := range gonumMatOps(n) {
			if op.name != "eigen" && op.name != "lu" && op.name != "solve" {
				continue
			}
			b.Run(fmt.Sprintf("op=%s/n=%d", op.name, n), func(b *testing.B) {
				var (
					ratios []float64
					times  [2][]float64
				)
				i := 0
				for b.Loop() {
					var t [2]float64
					for k := range 2 {
						which := (i + k) % 2 // alternate which goes first
						lapack64.Use(impls[which])
						t0 := time.Now()
						if !op.run() {
							b.Fatalf("%s failed", op.name)
						}
						t[which] = float64(time.Since(t0))
					}
					ratios = append(ratios, t[1]/t[0])
					times[0] = append(times[0], t[0])
					times[1] = append(times[1], t[1])
					i++
				}
				b.ReportMetric(median(ratios), "lapis/netlib")
				b.ReportMetric(median(times[0]), "netlib-ns")
				b.ReportMetric(median(times[1]), "lapis-ns")
				b.ReportMetric(float64(i), "pairs")
			})
		}
	}
}

// median returns the median of x (reordering x); 0 for none.
func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	slices.Sort(x)
	if len(x)%2 == 1 {
		return x[len(x)/2]
	}
	return (x[len(x)/2-1] + x[len(x)/2]) / 2
}
