package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/blas"
	gonumlapack "gonum.org/v1/gonum/lapack"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Measurement is one timed operation (bench -json prints a list of them).
type Measurement struct {
	Family  string  `json:"family"` // gemm, lapack, small
	Op      string  `json:"op"`     // dgemm, dgesv, dpotrf, dsyevd
	Impl    string  `json:"impl"`   // lapis, lapis (cgo, ForceC), gonum (pure Go)
	N       int     `json:"n"`
	Seconds float64 `json:"seconds"` // per call, the best of three batches
	GFLOPS  float64 `json:"gflops,omitempty"`
}

// benchOptions are bench's settings.
type benchOptions struct {
	gemm, lapack, small []int
	budget              time.Duration // per measurement
	progress            io.Writer     // a progress line while running; nil: none
}

// benchDefaults are the settings without -quick.
var benchDefaults = benchOptions{
	gemm:   []int{16, 32, 64, 128, 256, 512, 1024},
	lapack: []int{50, 100, 200, 400, 800},
	small:  []int{2, 3, 4, 6, 8, 12, 16, 24, 32},
	budget: 100 * time.Millisecond,
}

// benchQuick are -quick's.
var benchQuick = benchOptions{
	gemm:   []int{16, 64, 256},
	lapack: []int{50, 100, 200},
	small:  []int{2, 4, 8, 16},
	budget: 15 * time.Millisecond,
}

// Impl names.
const (
	implLapis  = "lapis"
	implLapisC = "lapis, always C (ForceC)"
	implGonum  = "gonum (pure Go)"
)

// timeOp returns the seconds one call of f takes: after a first call
// (warm-up), the best of three batches each about budget/4 long (one or
// two calls when a call takes longer than budget/2).
func timeOp(budget time.Duration, f func()) float64 {
	t0 := time.Now()
	f()
	first := time.Since(t0)
	if first >= budget/2 {
		t0 = time.Now()
		f()
		return min(first, time.Since(t0)).Seconds()
	}
	reps := max(1, int(budget/4/max(first, time.Nanosecond)))
	best := math.Inf(1)
	for range 3 {
		t0 = time.Now()
		for range reps {
			f()
		}
		best = min(best, time.Since(t0).Seconds()/float64(reps))
	}
	return best
}

// colMajor returns an n x n column-major view over data (no copy).
func colMajor(data []float64, m, n int) views.View[float64] {
	l, err := layout.ColMajor(m, n)
	if err != nil {
		panic(err)
	}
	v, err := views.FromSlice(data, l)
	if err != nil {
		panic(err)
	}
	return v
}

// runBench measures everything and returns the measurements.
func runBench(o benchOptions) ([]Measurement, error) {
	var ms []Measurement
	r := rand.New(rand.NewPCG(41, 43))
	total := 2*len(o.gemm) + 6*len(o.lapack) + 3*len(o.small)
	done := 0
	add := func(family, op, impl string, n int, flops float64, f func()) {
		if o.progress != nil {
			fmt.Fprintf(o.progress, "\rbench %3d/%d  %-7s %-6s n=%-5d %-26s", done+1, total, family, op, n, impl)
		}
		s := timeOp(o.budget, f)
		m := Measurement{Family: family, Op: op, Impl: impl, N: n, Seconds: s}
		if flops > 0 {
			m.GFLOPS = flops / s / 1e9
		}
		ms = append(ms, m)
		done++
	}
	var gerr error
	check := func(err error) {
		if err != nil && gerr == nil {
			gerr = err
		}
	}
	gemm := func(family string, n int, impls []string) {
		a, b, c := randoms[float64](r, n*n), randoms[float64](r, n*n), make([]float64, n*n)
		av, bv, cv := colMajor(a, n, n), colMajor(b, n, n), colMajor(c, n, n)
		flops := 2 * float64(n) * float64(n) * float64(n)
		for _, impl := range impls {
			switch impl {
			case implLapis:
				add(family, "dgemm", impl, n, flops, func() { check(cblas.Gemm(1.0, av, bv, 0.0, cv)) })
			case implLapisC:
				add(family, "dgemm", impl, n, flops, func() { check(cblas.Gemm(1.0, av, bv, 0.0, cv, cblas.ForceC())) })
			case implGonum:
				add(family, "dgemm", impl, n, flops, func() { ref.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, b, n, a, n, 0, c, n) })
			}
		}
	}
	for _, n := range o.gemm {
		gemm("gemm", n, []string{implLapis, implGonum})
	}
	var gl lapackgo.Implementation
	for _, n := range o.lapack {
		a := randoms[float64](r, n*n)
		for i := 0; i < n; i++ {
			a[i+i*n] += float64(n)
		}
		spd := hermitian[float64](r, n, true, float64(n))
		sym := hermitian[float64](r, n, false, 0)
		b := randoms[float64](r, n)
		work, bw := make([]float64, n*n), make([]float64, n)
		wv, bwv := colMajor(work, n, n), colMajor(bw, n, 1)
		ipiv32, ipiv := make([]int32, n), make([]int, n)
		w := make([]float64, n)
		n3 := float64(n) * float64(n) * float64(n)
		add("lapack", "dgesv", implLapis, n, 2*n3/3, func() {
			copy(work, a)
			copy(bw, b)
			check(lapack.Gesv(wv, bwv, ipiv32))
		})
		add("lapack", "dgesv", implGonum, n, 2*n3/3, func() {
			copy(work, a)
			copy(bw, b)
			gl.Dgetrf(n, n, work, n, ipiv)
			gl.Dgetrs(blas.NoTrans, n, 1, work, n, ipiv, bw, 1)
		})
		add("lapack", "dpotrf", implLapis, n, n3/3, func() {
			copy(work, spd)
			check(lapack.Potrf(lapack.Lower, wv))
		})
		add("lapack", "dpotrf", implGonum, n, n3/3, func() {
			copy(work, spd)
			gl.Dpotrf(blas.Upper, n, work, n) // row-major upper = column-major lower
		})
		add("lapack", "dsyevd", implLapis, n, 0, func() {
			copy(work, sym)
			check(lapack.Syevd(lapack.JobVectors, lapack.Lower, wv, w))
		})
		q := make([]float64, 1)
		gl.Dsyev(gonumlapack.EVCompute, blas.Upper, n, work, n, w, q, -1)
		gw := make([]float64, int(q[0]))
		add("lapack", "dsyevd", "gonum (pure Go, dsyev)", n, 0, func() {
			copy(work, sym)
			gl.Dsyev(gonumlapack.EVCompute, blas.Upper, n, work, n, w, gw, len(gw))
		})
	}
	for _, n := range o.small {
		gemm("small", n, []string{implLapis, implLapisC, implGonum})
	}
	if o.progress != nil {
		fmt.Fprintf(o.progress, "\r%-80s\r", "")
	}
	return ms, gerr
}

// pick returns the measurements of family (and op, unless "").
func pick(ms []Measurement, family, op string) []Measurement {
	var out []Measurement
	for _, m := range ms {
		if m.Family == family && (op == "" || m.Op == op) {
			out = append(out, m)
		}
	}
	return out
}

// seriesOf groups measurements into one series per (op,) impl, with y
// from value.
func seriesOf(ms []Measurement, withOp bool, value func(Measurement) float64) []series {
	var out []series
	idx := map[string]int{}
	for _, m := range ms {
		name := m.Impl
		if withOp {
			name = m.Op + ": " + m.Impl
		}
		i, ok := idx[name]
		if !ok {
			i = len(out)
			idx[name] = i
			out = append(out, series{Name: name})
		}
		out[i].X = append(out[i].X, float64(m.N))
		out[i].Y = append(out[i].Y, value(m))
	}
	return out
}

// panels builds the three plots.
func panels(ms []Measurement, title string) []panel {
	return []panel{
		{
			Title: "dgemm, n x n x n: GFLOP/s (higher is better)  " + title, XLabel: "n", YLabel: "GFLOP/s",
			LogX: true, Series: seriesOf(pick(ms, "gemm", ""), false, func(m Measurement) float64 { return m.GFLOPS }),
		},
		{
			Title: "LAPACK, n x n: seconds per call (lower is better)", XLabel: "n", YLabel: "seconds",
			LogX: true, LogY: true, Series: seriesOf(pick(ms, "lapack", ""), true, func(m Measurement) float64 { return m.Seconds }),
		},
		{
			Title: "small dgemm: nanoseconds per call (lower is better)", XLabel: "n", YLabel: "ns per call",
			LogX: true, LogY: true, Series: seriesOf(pick(ms, "small", ""), false, func(m Measurement) float64 { return m.Seconds * 1e9 }),
		},
	}
}

// table formats one family as a Markdown table: a row per n, a column per
// (op, impl), cells from cell.
func table(ms []Measurement, head string, cell func(Measurement) string) string {
	var cols []string
	seen := map[string]bool{}
	rows := map[int]map[string]string{}
	var ns []int
	for _, m := range ms {
		c := m.Op + " " + m.Impl
		if !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
		if rows[m.N] == nil {
			rows[m.N] = map[string]string{}
			ns = append(ns, m.N)
		}
		rows[m.N][c] = cell(m)
	}
	sort.Ints(ns)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n| n | %s |\n|---|%s\n", head, strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
	for _, n := range ns {
		fmt.Fprintf(&b, "| %d |", n)
		for _, c := range cols {
			fmt.Fprintf(&b, " %s |", rows[n][c])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// report formats the measurements as Markdown.
func report(ms []Measurement) string {
	info := cblas.Info()
	var b strings.Builder
	fmt.Fprintf(&b, "lapis bench: %s %s, %s kernels, %d thread(s) per call, %s\n\n", info.Library, info.Version, info.Core, info.Threads, info.CPU)
	b.WriteString(table(pick(ms, "gemm", ""), "dgemm, GFLOP/s (lapis: its default path, pure Go for small products)", func(m Measurement) string { return fmt.Sprintf("%.1f", m.GFLOPS) }))
	b.WriteString("\n")
	b.WriteString(table(pick(ms, "lapack", ""), "LAPACK, milliseconds per call (one right-hand side for gesv; eigenvectors for syevd; gonum has no syevd and runs dsyev)", func(m Measurement) string { return fmt.Sprintf("%.3g", m.Seconds*1e3) }))
	b.WriteString("\n")
	b.WriteString(table(pick(ms, "small", ""), "small dgemm, nanoseconds per call (the cost of crossing into C shows against the pure-Go paths)", func(m Measurement) string { return fmt.Sprintf("%.0f", m.Seconds*1e9) }))
	return b.String()
}

// intList parses "16,64,256".
func intList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive size", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func benchCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lapis bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "fewer sizes and a shorter time per measurement (well under a minute)")
	gemmSizes := fs.String("sizes", "", "gemm sizes n, comma-separated (default "+joinInts(benchDefaults.gemm)+")")
	lapackSizes := fs.String("lapack-sizes", "", "LAPACK sizes n (default "+joinInts(benchDefaults.lapack)+")")
	smallSizes := fs.String("small-sizes", "", "small-gemm sizes n (default "+joinInts(benchDefaults.small)+")")
	budget := fs.Duration("time", 0, "time budget per measurement (default 100ms; 15ms with -quick)")
	pngPath := fs.String("png", "", "write the three plots, one above the other, to this PNG file")
	outDir := fs.String("out", "", "write gemm.png, lapack.png, small.png and bench.md to this directory")
	asJSON := fs.Bool("json", false, "print the measurements as JSON instead of tables")
	threads := fs.Int("threads", 0, "OpenBLAS threads per call during the run (cblas.SetThreads; 0: leave as it is)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *threads > 0 {
		prev := cblas.Threads()
		if err := cblas.SetThreads(*threads); err != nil {
			fmt.Fprintln(stderr, "lapis bench: -threads:", err)
			return 2
		}
		defer cblas.SetThreads(prev)
	}
	o := benchDefaults
	if *quick {
		o = benchQuick
	}
	for _, f := range []struct {
		s   string
		dst *[]int
	}{{*gemmSizes, &o.gemm}, {*lapackSizes, &o.lapack}, {*smallSizes, &o.small}} {
		if f.s == "" {
			continue
		}
		v, err := intList(f.s)
		if err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
		*f.dst = v
	}
	if *budget > 0 {
		o.budget = *budget
	}
	o.progress = stderr
	ms, err := runBench(o)
	if err != nil {
		fmt.Fprintln(stderr, "lapis bench:", err)
		return 2
	}
	md := report(ms)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ms); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
	} else {
		fmt.Fprint(stdout, md)
	}
	info := cblas.Info()
	title := fmt.Sprintf("(%s %s, %s, %d thr.)", info.Library, info.Version, info.Core, info.Threads)
	ps := panels(ms, title)
	if *pngPath != "" {
		if err := writeFile(*pngPath, func(w io.Writer) error { return writePNG(w, ps, 900, 480) }); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
		fmt.Fprintf(stderr, "wrote %s\n", *pngPath)
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
		for i, name := range []string{"gemm.png", "lapack.png", "small.png"} {
			p := filepath.Join(*outDir, name)
			if err := writeFile(p, func(w io.Writer) error { return writePNG(w, ps[i:i+1], 900, 480) }); err != nil {
				fmt.Fprintln(stderr, "lapis bench:", err)
				return 2
			}
		}
		if err := os.WriteFile(filepath.Join(*outDir, "bench.md"), []byte(md), 0o644); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
		fmt.Fprintf(stderr, "wrote gemm.png, lapack.png, small.png and bench.md to %s\n", *outDir)
	}
	return 0
}

// writeFile creates path and writes it with f.
func writeFile(path string, f func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := f(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
