// Command mkl is the anchor benchmark of lapis against Intel MKL
// (docs/bench/mkl.md): batch's tiny operations (Solve with and without
// the conditioning check, Cholesky, Inv, Det on 10000 float64 matrices of
// order 3, 4 and 8) against MKL's compact API, batch.Gemm against
// cblas_dgemm_batch, and dgemm 1024 / dgesv 1000 through lapis on
// whichever library it links. MKL's side (anchor.c) is built only with
// -tags lapis_mkl, where MKL is; without the tag the program times lapis
// alone, on the library it links (OpenBLAS by default), which is how
// scripts/bench-mkl.sh gets lapis on OpenBLAS beside lapis on MKL in one
// run. Everything runs on one thread unless a row says otherwise.
//
//	mkl [-reps N]               one pass; prints "case<TAB>impl<TAB>ms" lines
//	mkl -info                   the library lines only
//	mkl -table FILE...          the Markdown table of passes' medians
//	mkl -summary FILE...        the tiny operations' tables per kernel set
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/cblas"
	tk "github.com/lapis-go/lapis/internal/kernel/tiny"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// anchors is MKL's side, set by mkl.go where it is built.
type anchors interface {
	format() string
	tiny(op string, n, count int, packed bool, a0, b0, x, xd []float64, reps int) ([]float64, error)
	gemm(n, count int, strided bool, a, b, c []float64, reps int) []float64
}

var mkl anchors

// mklSuffix names MKL's rows of a forced pass; lapis's tiny and batched
// rows are timed only in the plain pass and, on its AVX2 kernels, in the
// AVX2 pass (lapisSuffix names those).
var mklSuffix, lapisSuffix string

const count = 10000

func main() {
	reps := flag.Int("reps", 21, "repetitions of each tiny and batched measurement (the median is printed)")
	table := flag.Bool("table", false, "print the table of the passes in the files named")
	summary := flag.Bool("summary", false, "print the tiny operations' tables per kernel set of the passes in the files named")
	header := flag.Bool("info", false, "print the library lines only")
	flag.Parse()
	if *summary {
		if err := printSummary(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "mkl:", err)
			os.Exit(1)
		}
		return
	}
	if *table {
		if err := printTable(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "mkl:", err)
			os.Exit(1)
		}
		return
	}
	info := lapis.Info()
	fmt.Printf("# library\t%s %s (%s)\n# core\t%s\n# cpu\t%s\n", info.Library, info.Version, info.Path, info.Core, info.CPU)
	if mkl != nil {
		fmt.Printf("# mkl compact format\t%s\n", mkl.format())
	}
	if *header {
		return
	}
	if _, err := lapis.SetWorkers(1); err != nil {
		fail(err)
	}
	if err := lapis.SetThreads(1); err != nil {
		fail(err)
	}
	lib := "lapis on " + info.Library
	// A pass with MKL forced onto its Intel code paths (run.sh's
	// LD_PRELOAD) times MKL's rows and lapis on that MKL, named apart.
	// The AVX2 pass (LAPIS_BENCH_AVX2, on a host with AVX-512; run.sh
	// caps MKL at AVX2 with MKL_ENABLE_INSTRUCTIONS) times lapis on its
	// AVX2 kernels beside MKL's AVX2 path: the table of an AVX2 CPU, as
	// far as one with AVX-512 can show it (the same cores and caches).
	forced := os.Getenv("LAPIS_BENCH_MKL_FORCED") != ""
	switch {
	case os.Getenv("LAPIS_BENCH_AVX2") != "":
		tk.SetAVX512(false)
		lib += " (AVX2 path forced)"
		mklSuffix, lapisSuffix = " (AVX2 path forced)", " (AVX2 kernels)"
	case forced:
		lib += " (AVX-512 path forced)"
		mklSuffix = " (AVX-512 path forced)"
	}
	if mkl != nil {
		for _, n := range []int{3, 4, 8} {
			tiny(n, *reps)
		}
		for _, n := range []int{4, 16} {
			gemm(n, *reps)
		}
	}
	for _, th := range []int{1, 2} {
		if err := lapis.SetThreads(th); err != nil {
			fail(err)
		}
		large(lib, th)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mkl:", err)
	os.Exit(1)
}

func must[V any](v V, err error) V {
	if err != nil {
		fail(err)
	}
	return v
}

func report(c, impl string, times []float64) {
	fmt.Printf("%s\t%s\t%.4f\n", c, impl, median(times)*1e3)
}

func median(s []float64) float64 {
	s = slices.Clone(s)
	slices.Sort(s)
	return s[len(s)/2]
}

// timeit runs f reps times after one untimed run, in seconds.
func timeit(reps int, f func() error) []float64 {
	if err := f(); err != nil {
		fail(err)
	}
	t := make([]float64, reps)
	for i := range t {
		start := time.Now()
		if err := f(); err != nil {
			fail(err)
		}
		t[i] = time.Since(start).Seconds()
	}
	return t
}

// spd returns count SPD matrices of order n, matrix t at t*n*n.
func spd(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n*n*count)
	m := make([]float64, n*n)
	for t := range count {
		for i := range m {
			m[i] = 2*rng.Float64() - 1
		}
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

func random(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 2*rng.Float64() - 1
	}
	return s
}

// tiny times the four operations on count SPD matrices of order n, in
// both layouts: "compact" ([n, n, count], each matrix contiguous; MKL
// packs, works and unpacks) and "interleaved" (batch axis innermost for
// lapis; MKL's own compact format, packed untimed, the operation alone).
func tiny(n, reps int) {
	rng := rand.New(rand.NewPCG(uint64(n), 32))
	a0, b0 := spd(rng, n), random(rng, n*count)
	ai, bi := make([]float64, len(a0)), make([]float64, len(b0))
	for t := range count { // matrix t's (i, j) at t + count*(i + n*j)
		for e := range n * n {
			ai[t+count*e] = a0[e+t*n*n]
		}
		for i := range n {
			bi[t+count*i] = b0[i+t*n]
		}
	}
	view := func(s []float64, cols int, inner bool) views.View[float64] {
		if inner {
			return must(must(views.FromColMajor(s, count, n, cols)).View().Permute(1, 2, 0))
		}
		return must(views.FromColMajor(s, n, cols, count)).View()
	}
	for _, op := range []string{"solve", "cholesky", "inv", "det"} {
		// MKL first, on the compact input; its results are checked
		// against lapis's below.
		mx, mxd := make([]float64, n*count), make([]float64, n*n*count)
		px, pxd := make([]float64, n*count), make([]float64, n*n*count)
		tm := must(mkl.tiny(op, n, count, false, a0, b0, mx, mxd, reps))
		tp := must(mkl.tiny(op, n, count, true, a0, b0, px, pxd, reps))
		for _, lay := range []string{"compact", "interleaved"} {
			inner := lay == "interleaved"
			a, b := a0, b0
			if inner {
				a, b = ai, bi
			}
			x, xd := make([]float64, n*count), make([]float64, n*n*count)
			av, bv, xv, xdv := view(a, n, inner), view(b, 1, inner), view(x, 1, inner), view(xd, n, inner)
			var det []float64
			run := func(opts ...lapis.Option) func() error {
				return func() (err error) {
					switch op {
					case "solve":
						return batch.SolveTo(xv, av, bv, opts...)
					case "cholesky":
						return batch.CholeskyTo(batch.Lower, xdv, av, opts...)
					case "inv":
						return batch.InvTo(xdv, av, opts...)
					}
					det, err = batch.Det(av, opts...)
					return err
				}
			}
			c := fmt.Sprintf("%s/n=%d/%s", op, n, lay)
			// lapis's results are needed for the check either way.
			lt := timeit(reps, run())
			if mklSuffix == "" || lapisSuffix != "" {
				report(c, "lapis"+lapisSuffix, lt)
				if op == "solve" || op == "inv" {
					report(c, "lapis-nocheck"+lapisSuffix, timeit(reps, run(lapis.NoConditionCheck())))
				}
				if !inner {
					// MKL's way with lapis's kernels: pack the compact
					// input into the interleaved layout, run there, unpack
					// the result (the kernels transpose compact lane
					// groups in registers instead).
					report(c, "lapis-packed"+lapisSuffix, timeit(reps, packed(op, n, av, bv, xv, xdv, view)))
				}
			}
			if inner {
				report(c, "mkl-compact-op"+mklSuffix, tp)
			} else {
				report(c, "mkl-compact"+mklSuffix, tm)
			}
			// The check: MKL's results (both modes) against lapis's, in
			// lapis's compact order.
			got := func(t, k int, whole bool) float64 { // lapis's element k of matrix t
				if op == "det" {
					return det[t]
				}
				if !whole {
					if inner {
						return x[t+count*k]
					}
					return x[t*n+k]
				}
				if inner {
					return xd[t+count*k]
				}
				return xd[t*n*n+k]
			}
			for _, m := range [][2][]float64{{mx, mxd}, {px, pxd}} {
				worst := 0.0
				for t := range count {
					switch op {
					case "det":
						worst = max(worst, math.Abs(m[0][t]-got(t, 0, false))/math.Abs(got(t, 0, false)))
					case "solve":
						for k := range n {
							worst = max(worst, math.Abs(m[0][t*n+k]-got(t, k, false)))
						}
					default:
						for j := range n {
							for i := range n {
								if op == "cholesky" && i < j {
									continue
								}
								k := i + j*n
								worst = max(worst, math.Abs(m[1][t*n*n+k]-got(t, k, true)))
							}
						}
					}
				}
				if worst > 1e-10 || math.IsNaN(worst) {
					fail(fmt.Errorf("%s: MKL's results differ from lapis's by %g", c, worst))
				}
			}
		}
	}
}

// packed returns the pack-then-compute form of op on the compact
// operands av, bv into xv (solve) or xdv (cholesky, inv): copies of the
// inputs into the interleaved layout (batch axis innermost), the
// operation there, and a copy of its result back.
func packed(op string, n int, av, bv, xv, xdv views.View[float64], view func([]float64, int, bool) views.View[float64]) func() error {
	qa, qb := view(make([]float64, n*n*count), n, true), view(make([]float64, n*count), 1, true)
	qx, qxd := view(make([]float64, n*count), 1, true), view(make([]float64, n*n*count), n, true)
	return func() error {
		if err := views.Copy(qa, av); err != nil {
			return err
		}
		switch op {
		case "solve":
			if err := views.Copy(qb, bv); err != nil {
				return err
			}
			if err := batch.SolveTo(qx, qa, qb); err != nil {
				return err
			}
			return views.Copy(xv, qx)
		case "cholesky":
			if err := batch.CholeskyTo(batch.Lower, qxd, qa); err != nil {
				return err
			}
			return views.Copy(xdv, qxd)
		case "inv":
			if err := batch.InvTo(qxd, qa); err != nil {
				return err
			}
			return views.Copy(xdv, qxd)
		}
		_, err := batch.Det(qa)
		return err
	}
}

// gemm times C = A B on count n x n matrices, compact batches.
func gemm(n, reps int) {
	rng := rand.New(rand.NewPCG(uint64(n), 33))
	a, b := random(rng, n*n*count), random(rng, n*n*count)
	c, mc := make([]float64, len(a)), make([]float64, len(a))
	v := func(s []float64) views.View[float64] { return must(views.FromColMajor(s, n, n, count)).View() }
	cs := fmt.Sprintf("gemm/n=%d/compact", n)
	lt := timeit(reps, func() error { return batch.Gemm(1, v(a), v(b), 0, v(c)) })
	if mklSuffix == "" {
		report(cs, "lapis", lt)
	}
	for _, strided := range []bool{false, true} {
		impl := "mkl-gemm-batch"
		if strided {
			impl += "-strided"
		}
		impl += mklSuffix
		report(cs, impl, mkl.gemm(n, count, strided, a, b, mc, reps))
		for i := range c {
			if d := math.Abs(c[i] - mc[i]); d > 1e-12*float64(n) {
				fail(fmt.Errorf("%s %s: differs from lapis's by %g at %d", cs, impl, d, i))
			}
		}
	}
}

// large times dgemm 1024 and dgesv 1000 (one right-hand side, A copied
// in each time) through lapis on th threads.
func large(lib string, th int) {
	rng := rand.New(rand.NewPCG(7, 34))
	const m = 1024
	a, b, c := random(rng, m*m), random(rng, m*m), make([]float64, m*m)
	v := func(s []float64, r, k int) views.View[float64] { return must(views.FromColMajor(s, r, k)).View() }
	report(fmt.Sprintf("dgemm/n=1024/threads=%d", th), lib, timeit(5, func() error {
		return cblas.Gemm(1, v(a, m, m), v(b, m, m), 0, v(c, m, m))
	}))
	const n = 1000
	a0, b0 := random(rng, n*n), random(rng, n)
	x, w, ipiv := make([]float64, n), make([]float64, n*n), make([]int32, n)
	report(fmt.Sprintf("dgesv/n=1000/threads=%d", th), lib, timeit(7, func() error {
		copy(w, a0)
		copy(x, b0)
		return lapack.Gesv(v(w, n, n), v(x, n, 1), ipiv)
	}))
}

// passes is what the pass files hold: each case's impls in the order
// met, every value of each (case, impl), and the comment lines.
type passes struct {
	cases []string
	impls map[string][]string
	vals  map[[2]string][]float64
	notes []string
}

// readPasses reads pass files ("case\timpl\tms" lines, "# key\tvalue"
// comments).
func readPasses(files []string) (*passes, error) {
	ps := &passes{impls: map[string][]string{}, vals: map[[2]string][]float64{}}
	seen := map[string]bool{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "# ") {
				if !seen[line] {
					seen[line] = true
					ps.notes = append(ps.notes, line)
				}
				continue
			}
			f := strings.Split(line, "\t")
			if len(f) != 3 {
				continue
			}
			ms, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				fh.Close()
				return nil, fmt.Errorf("%s: %q: %v", fh.Name(), line, err)
			}
			k := [2]string{f[0], f[1]}
			if _, ok := ps.impls[f[0]]; !ok {
				ps.cases = append(ps.cases, f[0])
			}
			if _, ok := ps.vals[k]; !ok {
				ps.impls[f[0]] = append(ps.impls[f[0]], f[1])
			}
			ps.vals[k] = append(ps.vals[k], ms)
		}
		fh.Close()
	}
	return ps, nil
}

// median returns the median of (c, impl) over the passes, or NaN.
func (ps *passes) median(c, impl string) float64 {
	v, ok := ps.vals[[2]string{c, impl}]
	if !ok {
		return math.NaN()
	}
	return median(v)
}

// printTable prints, for every case, each impl's median over the passes
// and its time over lapis's (or, for the large cases, lapis on OpenBLAS
// over lapis on MKL).
func printTable(files []string) error {
	ps, err := readPasses(files)
	if err != nil {
		return err
	}
	for _, n := range ps.notes {
		fmt.Println(strings.Replace(n, "\t", ": ", 1))
	}
	fmt.Println()
	fmt.Println("| case | impl | ms (median of passes) | passes | x lapis's time |")
	fmt.Println("|---|---|---|---|---|")
	for _, c := range ps.cases {
		ref := ps.median(c, "lapis")
		if math.IsNaN(ref) {
			ref = ps.median(c, "lapis on MKL")
		}
		for _, impl := range ps.impls[c] {
			ratio := ""
			if !math.IsNaN(ref) {
				ratio = fmt.Sprintf("%.2f", ps.median(c, impl)/ref)
			}
			fmt.Printf("| %s | %s | %.3f | %d | %s |\n", c, impl, ps.median(c, impl), len(ps.vals[[2]string{c, impl}]), ratio)
		}
	}
	return nil
}

// printSummary prints the tiny operations' two tables per kernel set
// (docs/bench/mkl.md): lapis's time-to-result on compact input against
// MKL's pack, operation and unpack, and lapis on interleaved input
// against MKL's operation alone on its own format; lapis with the
// conditioning check, without it in brackets (solve, inv); after MKL's
// time, MKL's time over lapis's (above 1: lapis faster). A kernel set
// is a pair of lapis's and MKL's row suffixes present in the passes.
func printSummary(files []string) error {
	ps, err := readPasses(files)
	if err != nil {
		return err
	}
	sets := []struct{ title, lapis, mkl string }{
		{"AVX2 (lapis's AVX2 kernels, MKL capped at AVX2)", " (AVX2 kernels)", " (AVX2 path forced)"},
		{"AVX-512 (lapis's default kernels, MKL's AVX-512 path forced)", "", " (AVX-512 path forced)"},
		{"lapis's default kernels, MKL as it runs here", "", ""},
	}
	for _, set := range sets {
		if math.IsNaN(ps.median("solve/n=3/compact", "mkl-compact"+set.mkl)) || math.IsNaN(ps.median("solve/n=3/compact", "lapis"+set.lapis)) {
			continue
		}
		fmt.Printf("\n%s, ms:\n\n", set.title)
		fmt.Println("| op, n | lapis compact | MKL pack+op+unpack | lapis interleaved | MKL op only |")
		fmt.Println("|---|---|---|---|---|")
		for _, op := range []string{"solve", "cholesky", "inv", "det"} {
			for _, n := range []int{3, 4, 8} {
				cell := func(lay, mklImpl string) string {
					c := fmt.Sprintf("%s/n=%d/%s", op, n, lay)
					l, nc := ps.median(c, "lapis"+set.lapis), ps.median(c, "lapis-nocheck"+set.lapis)
					m := ps.median(c, mklImpl+set.mkl)
					ls := fmt.Sprintf("%.3f", l)
					if !math.IsNaN(nc) {
						ls += fmt.Sprintf(" (%.3f)", nc)
					}
					return fmt.Sprintf("%s | %.3f (%.2f)", ls, m, m/l)
				}
				fmt.Printf("| %s %d | %s | %s |\n", op, n, cell("compact", "mkl-compact"), cell("interleaved", "mkl-compact-op"))
			}
		}
	}
	return nil
}
