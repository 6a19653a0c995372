// Package family holds the benchmark families of lapis: the summary
// measurements `lapis bench` runs and prints (and BenchmarkFamilies runs
// under go test -bench), each a table of lapis against its anchors in the
// same run: the linked library called from C (bench/cref), gonum's pure
// Go, and numpy when python3 has it (numpy_timer.py, the one numpy timer).
// Each figure is the median of Options.Count batches; WriteChart draws a
// family as a PNG. It links through bench/cref, so it builds against any
// BLAS lapis does (-tags lapis_cgoflags included). Package bench's
// benchmarks measure each family further; scripts/bench-*.sh run both.
package family

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	gonumlapack "gonum.org/v1/gonum/lapack"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/bench/cref"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/elem"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Measurement is one timed operation (bench -json prints a list of them).
type Measurement struct {
	Family  string  `json:"Family"` // copy, gemm, small, lapack, batch, tiny, elem, reduce, elemsmall, threads
	Op      string  `json:"op"`     // transpose, dgemm, dgesv, dpotrf, dsyevd, gemm, solve
	Impl    string  `json:"impl"`   // lapis, C, gonum (pure Go), numpy, ...
	N       int     `json:"n"`
	Count   int     `json:"count,omitempty"` // matrices per call (batch, tiny)
	Seconds float64 `json:"seconds"`         // per call, the median of Options.Count batches
	Value   float64 `json:"value"`           // in Unit
	Unit    string  `json:"unit"`            // the Family's unit
}

// Units of the families.
const (
	unitGBs      = "GB/s"
	unitGFLOPS   = "GFLOP/s"
	unitMs       = "ms per call"
	unitNsCall   = "ns per call"
	unitNsMatrix = "ns per matrix"
)

// higherIsBetter says whether bigger values of unit are faster.
func higherIsBetter(unit string) bool { return unit == unitGBs || unit == unitGFLOPS }

// value is a measurement's figure in unit: work is the flops or bytes of
// one call, count its matrices.
func value(unit string, seconds, work float64, count int) float64 {
	switch unit {
	case unitGBs, unitGFLOPS:
		return work / seconds / 1e9
	case unitMs:
		return seconds * 1e3
	case unitNsMatrix:
		return seconds * 1e9 / float64(max(1, count))
	}
	return seconds * 1e9
}

// Impl names shared by the families.
const (
	implLapis  = "lapis"
	implLapisC = "lapis, always C (ForceC)"
	implC      = "C"
	implGonum  = "gonum (pure Go)"
	implNumpy  = "numpy"
)

// job is one measurement to make: f is called repeatedly and each call
// counts as per calls; numpy jobs have no f (numpy.go times them in one
// Python process).
type job struct {
	op, impl string
	count    int     // matrices per call
	work     float64 // flops or bytes per call
	per      int     // calls one f makes (0: 1)
	threads  int     // 0: as set; n: lapis.SetThreads(n) while measuring (threadsDefault: the default policy)
	busy     bool    // a goroutine runs a pure-Go loop meanwhile
	f        func() error
}

// threadsDefault in job.threads selects lapis's default policy
// (lapis.AutoThreads is 0, which there means "as set").
const threadsDefault = -1

// Family is one group of measurements: one table, one PNG.
type Family struct {
	Name, Title string
	Unit        string
	Defaults    []int // sizes n
	Quick       []int // sizes n of a quick run
	// Note, when set, is said under the table (what is not measured, and why).
	Note string
	// jobs builds the operands of size n and returns the jobs on them.
	jobs func(e *env, n int) []job
}

// env is what the families' jobs share.
type env struct {
	r        *rand.Rand
	cThreads int  // OpenBLAS threads the C reference and numpy run with
	numpy    bool // numpy jobs are added
}

// families lists the families in the order they run and print.
func All() []Family {
	return []Family{
		{Name: "copy", Title: "transposing copy, n x n float64 into its transpose (bytes read + written)", Unit: unitGBs,
			Defaults: []int{64, 256, 1024, 2048}, Quick: []int{256, 1024}, jobs: copyJobs},
		{Name: "gemm", Title: "dgemm, n x n x n", Unit: unitGFLOPS,
			Defaults: []int{32, 64, 128, 256, 512, 1024}, Quick: []int{64, 256}, jobs: gemmJobs},
		{Name: "small", Title: "small dgemm, per call (the cost of crossing into C shows against the pure-Go paths)", Unit: unitNsCall,
			Defaults: []int{2, 3, 4, 6, 8, 12, 16, 24, 32}, Quick: []int{2, 4, 8, 16}, jobs: smallJobs},
		{Name: "lapack", Title: "LAPACK, n x n (gesv: one right-hand side; syevd: eigenvectors, gonum has no syevd and runs dsyev)", Unit: unitMs,
			Defaults: []int{50, 100, 200, 400, 800}, Quick: []int{50, 200}, jobs: lapackJobs},
		{Name: "batch", Title: "batched dgemm, count n x n products in one [n, n, count] batch", Unit: unitNsMatrix,
			Defaults: []int{8, 16, 32, 64}, Quick: []int{16, 64}, jobs: batchJobs},
		{Name: "tiny", Title: "tiny batches, 10000 n x n float64 matrices (solve: SPD, one right-hand side, operands restored each call)", Unit: unitNsMatrix,
			Defaults: []int{2, 3, 4, 6, 8}, Quick: []int{4, 8}, jobs: tinyJobs},
		{Name: "elem", Title: "element-wise, n x n float64 (package elem; bytes read + written; numpy: np.copyto, np.add(a, b, out=c), np.add(a, a.T, out=c))", Unit: unitGBs,
			Defaults: []int{1000, 4000}, Quick: []int{1000}, jobs: elemJobs},
		{Name: "reduce", Title: "sums of an n x n float64 matrix along each axis (bytes read; read: Go's vectorised bytes.Count over the matrix; numpy: a.sum(axis) of its C-order copy, axis 0 its slow axis)", Unit: unitGBs,
			Defaults: []int{1000, 4000}, Quick: []int{1000}, jobs: reduceJobs},
		{Name: "elemsmall", Title: "small element-wise adds, n x n float64, per call (the engine's overhead against a plain Go loop)", Unit: unitNsCall,
			Defaults: []int{4, 16, 64}, Quick: []int{4, 16}, jobs: elemSmallJobs},
		{Name: "threads", Title: "dgesv beside one busy goroutine (a pure-Go loop)", Unit: unitMs,
			Defaults: []int{128, 256, 512, 1024}, Quick: []int{256}, jobs: threadsJobs,
			Note: "numpy is not measured here: a busy Python thread would hold the GIL, not a core as a goroutine does"},
	}
}

// Options are bench's settings.
type Options struct {
	Families []string         // names to run (nil: all)
	Sizes    map[string][]int // per family; missing: the family's Defaults or Quick sizes
	Quick    bool
	Budget   time.Duration // per measurement, split over Count batches
	Count    int           // batches per measurement, each figure their median (0: DefaultCount)
	Progress io.Writer     // a progress line while running; nil: none
	Numpy    string        // python3 with numpy ("": none; FindNumpy)
}

// DefaultCount is Options.Count when it is 0.
const DefaultCount = 5

// count is o.Count, or DefaultCount when unset.
func (o Options) count() int {
	if o.Count > 0 {
		return o.Count
	}
	return DefaultCount
}

// timeOp returns the seconds one call of f takes: after a first call (the
// warm-up), the median of count batches of calls, each batch about
// budget/count long (one call when a call takes longer). numpy_timer.py
// times numpy's calls by the same rule.
func timeOp(budget time.Duration, count int, f func()) float64 {
	count = max(1, count)
	t0 := time.Now()
	f()
	first := time.Since(t0)
	reps := max(1, int(budget/time.Duration(count)/max(first, time.Nanosecond)))
	times := make([]float64, count)
	for i := range times {
		t0 = time.Now()
		for range reps {
			f()
		}
		times[i] = time.Since(t0).Seconds() / float64(reps)
	}
	return median(times)
}

// median returns the median of xs (the mean of the middle two when their
// number is even), sorting xs.
func median(xs []float64) float64 {
	slices.Sort(xs)
	k := len(xs)
	if k%2 == 1 {
		return xs[k/2]
	}
	return (xs[k/2-1] + xs[k/2]) / 2
}

// colMajor returns an m x n column-major view over data (no copy).
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

// batchView returns the [m, n, count] compact column-major view over data.
func batchView(data []float64, m, n, count int) views.View[float64] {
	t, err := views.FromColMajor(data, m, n, count)
	if err != nil {
		panic(err)
	}
	return t.View()
}

// sizesOf returns the sizes Family f runs at under o.
func (o Options) sizesOf(f Family) []int {
	if s, ok := o.Sizes[f.Name]; ok {
		return s
	}
	if o.Quick {
		return f.Quick
	}
	return f.Defaults
}

// Selected returns the families o runs.
func (o Options) Selected() []Family {
	var out []Family
	for _, f := range All() {
		if o.Families == nil || slices.Contains(o.Families, f.Name) {
			out = append(out, f)
		}
	}
	return out
}

// Run measures every selected Family and returns the measurements. Each
// family's numpy jobs run in one Python process right after its Go jobs.
func Run(o Options) ([]Measurement, error) {
	e := &env{r: rand.New(rand.NewPCG(41, 43)), cThreads: cThreads(), numpy: o.Numpy != ""}
	var ms []Measurement
	var gerr error
	fams := o.Selected()
	start := time.Now()
	for fi, f := range fams {
		var pending []numpyJob
		sizes := o.sizesOf(f)
		for si, n := range sizes {
			for _, j := range f.jobs(e, n) {
				m := Measurement{Family: f.Name, Op: j.op, Impl: j.impl, N: n, Count: j.count, Unit: f.Unit}
				if j.f == nil {
					pending = append(pending, numpyJob{Family: f.Name, Op: j.op, N: n, Count: j.count, work: j.work, index: len(ms)})
					ms = append(ms, m)
					continue
				}
				if o.Progress != nil {
					fmt.Fprintf(o.Progress, "\rbench %5.1fs  %d/%d %-7s  n=%-5d (%d/%d)  %-7s %-34s", time.Since(start).Seconds(), fi+1, len(fams), f.Name, n, si+1, len(sizes), j.op, j.impl)
				}
				s, err := measure(o.Budget, o.count(), j)
				if err != nil && gerr == nil {
					gerr = fmt.Errorf("%s %s n=%d %s: %w", f.Name, j.op, n, j.impl, err)
				}
				m.Seconds, m.Value = s, value(f.Unit, s, j.work, j.count)
				ms = append(ms, m)
			}
		}
		if len(pending) == 0 {
			continue
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "\rbench %5.1fs  %d/%d %-7s  numpy: %d measurements in one %s process%-20s", time.Since(start).Seconds(), fi+1, len(fams), f.Name, len(pending), o.Numpy, "")
		}
		secs, err := runNumpy(o.Numpy, pending, o.Budget, o.count(), e.cThreads)
		if err != nil {
			return nil, err
		}
		for i, p := range pending {
			ms[p.index].Seconds = secs[i]
			ms[p.index].Value = value(ms[p.index].Unit, secs[i], p.work, p.Count)
		}
	}
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "\r%-110s\r", "")
	}
	return ms, gerr
}

// cThreads is the OpenBLAS thread count the C reference and numpy run
// with: the count lapis is fixed at (bench -threads N), or under the
// default policy one, the count the policy leaves OpenBLAS at between
// calls (lapis raises it only for large calls on idle cores).
func cThreads() int {
	if strings.HasPrefix(lapis.ThreadPolicy(), "fixed") {
		return lapis.Threads()
	}
	return 1
}

// measure times j under its thread setting and load.
func measure(budget time.Duration, count int, j job) (float64, error) {
	defer j.setUp()()
	var err error
	s := timeOp(budget, count, func() {
		if e := j.f(); e != nil && err == nil {
			err = e
		}
	})
	return s / float64(max(1, j.per)), err
}

// setUp puts the process in j's thread setting and load, and returns what
// undoes it.
func (j job) setUp() (undo func()) {
	restore := func() {}
	if j.threads != 0 {
		restore = SaveThreads()
		n := j.threads
		if n == threadsDefault {
			n = lapis.AutoThreads
		}
		_ = lapis.SetThreads(n) // not OpenBLAS: its own setting stays
	}
	stop := func() int64 { return 0 }
	if j.busy {
		stop = StartBusy(1)
	}
	return func() { stop(); restore() }
}

// WriteBenchmarks writes ms in the format of go test -bench (one line per
// measurement, named BenchmarkFamilies/family=.../op=.../n=.../impl=...
// with spaces as underscores, as go test names sub-benchmarks), which
// benchstat and bench/report read: ns/op per call, and the family's unit
// as a second metric. Measurements that did not run (Seconds 0) are left
// out.
func WriteBenchmarks(w io.Writer, ms []Measurement) error {
	info := lapis.Info()
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/lapis-go/lapis/bench\ncpu: %s\n", runtime.GOOS, runtime.GOARCH, info.CPU)
	for _, m := range ms {
		if !(m.Seconds > 0) {
			continue
		}
		fmt.Fprintf(w, "%s\t1\t%.6g ns/op", benchmarkName(m), m.Seconds*1e9)
		if u := metricUnit(m.Unit); u != "ns/op" {
			fmt.Fprintf(w, "\t%.6g %s", m.Value, u)
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

// benchmarkName is m's name as BenchmarkFamilies runs it (GOMAXPROCS
// suffixed, as go test does).
func benchmarkName(m Measurement) string {
	name := fmt.Sprintf("BenchmarkFamilies/family=%s/op=%s/n=%d", m.Family, m.Op, m.N)
	if m.Count > 0 {
		name += fmt.Sprintf("/count=%d", m.Count)
	}
	name += "/impl=" + m.Impl
	return strings.ReplaceAll(name, " ", "_") + fmt.Sprintf("-%d", runtime.GOMAXPROCS(0))
}

// metricUnit is unit as a benchmark metric (no spaces).
func metricUnit(unit string) string {
	switch unit {
	case unitGBs, unitGFLOPS:
		return unit
	case unitNsMatrix:
		return "ns/matrix"
	}
	return "ns/op"
}

// pick returns the measurements of Family (and op, unless "").
func pick(ms []Measurement, Family, op string) []Measurement {
	var out []Measurement
	for _, m := range ms {
		if m.Family == Family && (op == "" || m.Op == op) {
			out = append(out, m)
		}
	}
	return out
}

// opsOf lists the ops of ms in order of appearance.
func opsOf(ms []Measurement) []string {
	var ops []string
	for _, m := range ms {
		if !slices.Contains(ops, m.Op) {
			ops = append(ops, m.Op)
		}
	}
	return ops
}

// table formats one Family as a Markdown table: a row per n, a column per
// (op, impl).
func table(f Family, ms []Measurement) string {
	var cols []string
	seen := map[string]bool{}
	rows := map[int]map[string]string{}
	counts := map[int]int{}
	var ns []int
	oneOp := len(opsOf(ms)) == 1
	for _, m := range ms {
		c := m.Op + " " + m.Impl
		if oneOp {
			c = m.Impl
		}
		if !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
		if rows[m.N] == nil {
			rows[m.N] = map[string]string{}
			ns = append(ns, m.N)
		}
		rows[m.N][c] = figure(m.Value)
		counts[m.N] = max(counts[m.N], m.Count)
	}
	sort.Ints(ns)
	var b strings.Builder
	head := "n"
	if len(counts) > 0 && counts[ns[0]] > 0 {
		head = "n (count)"
	}
	fmt.Fprintf(&b, "### %s: %s, %s\n\n", f.Name, f.Title, f.Unit)
	if higherIsBetter(f.Unit) {
		b.WriteString("(higher is better)\n\n")
	} else {
		b.WriteString("(lower is better)\n\n")
	}
	fmt.Fprintf(&b, "| %s | %s |\n|---|%s\n", head, strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
	for _, n := range ns {
		if counts[n] > 0 {
			fmt.Fprintf(&b, "| %d (%d) |", n, counts[n])
		} else {
			fmt.Fprintf(&b, "| %d |", n)
		}
		for _, c := range cols {
			fmt.Fprintf(&b, " %s |", rows[n][c])
		}
		b.WriteString("\n")
	}
	if f.Note != "" {
		fmt.Fprintf(&b, "\n%s.\n", f.Note)
	}
	return b.String()
}

// figure formats a value with three significant digits (no exponent for
// the magnitudes bench produces).
func figure(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// Markdown formats the measurements o made as Markdown, one table per
// Family; with charts set, each table is followed by a link to its chart
// (ChartFile, beside the Markdown).
func Markdown(o Options, ms []Measurement, numpyNote string, charts bool) string {
	cThreads := cThreads()
	info := lapis.Info()
	var b strings.Builder
	fmt.Fprintf(&b, "lapis bench: %s %s, %s kernels, thread policy %s, %s; GOMAXPROCS %d\n\n", info.Library, info.Version, info.Core, lapis.ThreadPolicy(), info.CPU, maxProcs())
	each := fmt.Sprintf("the median of %d batches of calls", o.count())
	if o.count() == 1 {
		each = "one batch of calls"
	}
	fmt.Fprintf(&b, "Each figure is %s after a warm-up call. C is the linked library called from C on the same memory; it and numpy run %s per call (-threads N sets all three); %s.\n", each, plural(cThreads, "OpenBLAS thread"), numpyNote)
	for _, f := range o.Selected() {
		b.WriteString("\n")
		b.WriteString(table(f, pick(ms, f.Name, "")))
		if charts {
			fmt.Fprintf(&b, "\n![%s: %s against n](%s)\n", f.Name, f.Unit, ChartFile(f))
		}
	}
	return b.String()
}

// The jobs of each Family. Every implementation of one row works on the
// same operands; operations that overwrite their input restore it first,
// for every implementation alike. gonum is row-major: on column-major
// data it computes the transposed problem, at the same cost.

func maxProcs() int { return runtime.GOMAXPROCS(0) }

var gl lapackgo.Implementation

// withNumpy appends the numpy job of op to js when numpy is there.
func (e *env) withNumpy(js []job, op string, count int, work float64) []job {
	if e.numpy {
		js = append(js, job{op: op, impl: implNumpy, count: count, work: work})
	}
	return js
}

func copyJobs(e *env, n int) []job {
	src := randoms(e.r, n*n)
	dst := make([]float64, n*n)
	at := colMajor(src, n, n).T()
	out := colMajor(dst, n, n)
	g, gd := mat.NewDense(n, n, src), mat.NewDense(n, n, dst)
	bytes := 16 * float64(n) * float64(n)
	js := []job{
		{op: "transpose", impl: implLapis, work: bytes, f: func() error { return views.Copy(out, at) }},
		{op: "transpose", impl: implC + " (16 x 16 tiles)", work: bytes, f: func() error { cref.Transpose(n, src, dst); return nil }},
		{op: "transpose", impl: "gonum Dense.Copy(a.T())", work: bytes, f: func() error { gd.Copy(g.T()); return nil }},
		{op: "transpose", impl: "Go copy() (no transpose)", work: bytes, f: func() error { copy(dst, src); return nil }},
	}
	return e.withNumpy(js, "transpose", 0, bytes)
}

// withCopyThreads runs f with the element-wise layer and copy engine
// limited to t goroutines (views.SetCopyThreads).
func withCopyThreads(t int, f func() error) func() error {
	return func() error {
		prev := views.SetCopyThreads(t)
		defer views.SetCopyThreads(prev)
		return f()
	}
}

// lapisThreads returns jobs for f on one and on two goroutines.
func lapisThreads(op string, work float64, f func() error) []job {
	return []job{
		{op: op, impl: implLapis + " 1t", work: work, f: withCopyThreads(1, f)},
		{op: op, impl: implLapis + " 2t", work: work, f: withCopyThreads(2, f)},
	}
}

func elemJobs(e *env, n int) []job {
	a, b, c := randoms(e.r, n*n), randoms(e.r, n*n), make([]float64, n*n)
	av, bv, cv := colMajor(a, n, n), colMajor(b, n, n), colMajor(c, n, n)
	bytes2, bytes3 := 16*float64(n)*float64(n), 24*float64(n)*float64(n)
	sym := elem.X(av).Add(elem.X(av.T())).Scale(0.5)
	var js []job
	js = append(js, lapisThreads("copy", bytes2, func() error { return views.Copy(cv, av) })...)
	js = e.withNumpy(js, "copy", 0, bytes2)
	js = append(js, lapisThreads("add", bytes3, func() error { return elem.AddTo(cv, av, bv) })...)
	js = e.withNumpy(js, "add", 0, bytes3)
	js = append(js, lapisThreads("axpby", bytes3, func() error { return elem.AxpbyTo(cv, 2, av, 3, bv) })...)
	js = append(js, lapisThreads("a+a^T", bytes3, func() error { return elem.AddTo(cv, av, av.T()) })...)
	js = e.withNumpy(js, "a+a^T", 0, bytes3)
	js = append(js, lapisThreads("(a+a^T)/2 fused", bytes3, func() error { return elem.EvalTo(cv, sym) })...)
	js = append(js, lapisThreads("(a+a^T)/2 two ops", bytes3, func() error {
		if err := elem.AddTo(cv, av, av.T()); err != nil {
			return err
		}
		return elem.ScaleTo(cv, 0.5, cv)
	})...)
	return js
}

func reduceJobs(e *env, n int) []job {
	a := randoms(e.r, n*n)
	av := colMajor(a, n, n)
	cols, rows := make([]float64, n), make([]float64, n)
	cv, rv := colMajor(cols, 1, n), colMajor(rows, n, 1)
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 8*n*n)
	read := 8 * float64(n) * float64(n)
	js := []job{{op: "read", impl: "Go bytes.Count", work: read, f: func() error { bytesCount(raw); return nil }}}
	js = append(js, lapisThreads("sum axis 0", read, func() error { return elem.SumTo(cv, av, 0) })...)
	js = append(js, lapisThreads("sum axis 1", read, func() error { return elem.SumTo(rv, av, 1) })...)
	js = e.withNumpy(js, "sum axis 0", 0, read)
	return e.withNumpy(js, "sum axis 1", 0, read)
}

func elemSmallJobs(e *env, n int) []job {
	a, b, c := randoms(e.r, n*n), randoms(e.r, n*n), make([]float64, n*n)
	av, bv, cv := colMajor(a, n, n), colMajor(b, n, n), colMajor(c, n, n)
	return []job{
		{op: "add", impl: implLapis, f: func() error { return elem.AddTo(cv, av, bv) }},
		{op: "add", impl: "Go loop", f: func() error {
			for i := range c {
				c[i] = a[i] + b[i]
			}
			return nil
		}},
	}
}

func gemmJobs(e *env, n int) []job {
	a, b, c := randoms(e.r, n*n), randoms(e.r, n*n), make([]float64, n*n)
	av, bv, cv := colMajor(a, n, n), colMajor(b, n, n), colMajor(c, n, n)
	sq := cref.Square(n, a, b, c)
	flops := 2 * float64(n) * float64(n) * float64(n)
	js := []job{
		{op: "dgemm", impl: implLapis, work: flops, f: func() error { return cblas.Gemm(1.0, av, bv, 0.0, cv) }},
		{op: "dgemm", impl: implC, work: flops, threads: e.cThreads, f: func() error { cref.Dgemm(1, sq); return nil }},
		{op: "dgemm", impl: implGonum, work: flops, f: func() error {
			ref.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, b, n, a, n, 0, c, n)
			return nil
		}},
	}
	return e.withNumpy(js, "dgemm", 0, flops)
}

func smallJobs(e *env, n int) []job {
	a, b, c := randoms(e.r, n*n), randoms(e.r, n*n), make([]float64, n*n)
	av, bv, cv := colMajor(a, n, n), colMajor(b, n, n), colMajor(c, n, n)
	sq := cref.Square(n, a, b, c)
	const reps = 100 // calls per cgo call of the C loop
	js := []job{
		{op: "dgemm", impl: implLapis, f: func() error { return cblas.Gemm(1.0, av, bv, 0.0, cv) }},
		{op: "dgemm", impl: implLapisC, f: func() error { return cblas.Gemm(1.0, av, bv, 0.0, cv, lapis.ForceC()) }},
		{op: "dgemm", impl: implC + " (loop in C)", per: reps, threads: e.cThreads, f: func() error { cref.Dgemm(reps, sq); return nil }},
		{op: "dgemm", impl: implGonum, f: func() error {
			ref.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, b, n, a, n, 0, c, n)
			return nil
		}},
	}
	return e.withNumpy(js, "dgemm", 0, 0)
}

// diagDominant returns a random n x n matrix with n added to its diagonal
// (well conditioned).
func diagDominant(e *env, n int) []float64 {
	a := randoms(e.r, n*n)
	for i := 0; i < n; i++ {
		a[i+i*n] += float64(n)
	}
	return a
}

func lapackJobs(e *env, n int) []job {
	a := diagDominant(e, n)
	spd := symmetric(e.r, n, true, float64(n))
	sym := symmetric(e.r, n, false, 0)
	b := randoms(e.r, n)
	work, bw, w := make([]float64, n*n), make([]float64, n), make([]float64, n)
	wv, bwv := colMajor(work, n, n), colMajor(bw, n, 1)
	ipiv32, ipiv, cipiv := make([]int32, n), make([]int, n), cref.NewPivots(n)
	n3 := float64(n) * float64(n) * float64(n)
	restore := func(m []float64) { copy(work, m); copy(bw, b) }
	js := []job{
		{op: "dgesv", impl: implLapis, work: 2 * n3 / 3, f: func() error { restore(a); return lapack.Gesv(wv, bwv, ipiv32) }},
		{op: "dgesv", impl: implC, work: 2 * n3 / 3, threads: e.cThreads, f: func() error { restore(a); return cref.GesvLoop(1, n, 1, work, bw, cipiv) }},
		{op: "dgesv", impl: implGonum, work: 2 * n3 / 3, f: func() error {
			restore(a)
			gl.Dgetrf(n, n, work, n, ipiv)
			gl.Dgetrs(blas.NoTrans, n, 1, work, n, ipiv, bw, 1)
			return nil
		}},
	}
	js = e.withNumpy(js, "dgesv", 0, 0)
	js = append(js,
		job{op: "dpotrf", impl: implLapis, f: func() error { restore(spd); return lapack.Potrf(lapack.Lower, wv) }},
		job{op: "dpotrf", impl: implC, threads: e.cThreads, f: func() error { restore(spd); return cref.Dpotrf(n, work) }},
		job{op: "dpotrf", impl: implGonum, f: func() error {
			restore(spd)
			gl.Dpotrf(blas.Upper, n, work, n) // row-major upper = column-major lower
			return nil
		}},
	)
	js = e.withNumpy(js, "dpotrf", 0, 0)
	restore(sym)
	syevd := cref.Syevd(n, work, w)
	q := make([]float64, 1)
	gl.Dsyev(gonumlapack.EVCompute, blas.Upper, n, work, n, w, q, -1)
	gw := make([]float64, int(q[0]))
	js = append(js,
		job{op: "dsyevd", impl: implLapis, f: func() error { restore(sym); return lapack.Syevd(lapack.JobVectors, lapack.Lower, wv, w) }},
		job{op: "dsyevd", impl: implC, threads: e.cThreads, f: func() error { restore(sym); return syevd() }},
		job{op: "dsyevd", impl: "gonum (pure Go, dsyev)", f: func() error {
			restore(sym)
			gl.Dsyev(gonumlapack.EVCompute, blas.Upper, n, work, n, w, gw, len(gw))
			return nil
		}},
	)
	return e.withNumpy(js, "dsyevd", 0, 0)
}

// batchCount is the batch size for n x n products: about 2^22 flops per
// batch, at least 100 and at most 10000 matrices.
func batchCount(n int) int { return min(10000, max(100, (1<<21)/(n*n*n))) }

// gemmBatchJobs are the jobs of count n x n products.
func gemmBatchJobs(e *env, n, count int) []job {
	nn := n * n
	a, b, c := randoms(e.r, nn*count), randoms(e.r, nn*count), make([]float64, nn*count)
	av, bv, cv := batchView(a, n, n, count), batchView(b, n, n, count), batchView(c, n, n, count)
	js := []job{
		{op: "gemm", impl: implLapis, count: count, f: func() error { return batch.Gemm(1.0, av, bv, 0.0, cv) }},
		{op: "gemm", impl: implC + " kernel loop (no BLAS)", count: count, f: func() error { cref.KernelLoop(count, n, a, b, c); return nil }},
		{op: "gemm", impl: implC + " loop of cblas_dgemm", count: count, threads: e.cThreads, f: func() error { cref.BLASLoop(count, n, a, b, c); return nil }},
		{op: "gemm", impl: implGonum, count: count, f: func() error {
			for t := 0; t < count; t++ {
				o := t * nn
				ref.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, b[o:o+nn], n, a[o:o+nn], n, 0, c[o:o+nn], n)
			}
			return nil
		}},
	}
	return e.withNumpy(js, "gemm", count, 0)
}

func batchJobs(e *env, n int) []job { return gemmBatchJobs(e, n, batchCount(n)) }

func tinyJobs(e *env, n int) []job {
	const count = 10000
	js := gemmBatchJobs(e, n, count)
	nn := n * n
	a0, b0 := make([]float64, nn*count), randoms(e.r, n*count)
	for t := 0; t < count; t++ {
		copy(a0[t*nn:], symmetric(e.r, n, true, float64(n)))
	}
	a, b := make([]float64, len(a0)), make([]float64, len(b0))
	av, bv := batchView(a, n, n, count), batchView(b, n, 1, count)
	ipiv, cipiv := make([]int, n), cref.NewPivots(n)
	restore := func() { copy(a, a0); copy(b, b0) }
	js = append(js,
		job{op: "solve", impl: implLapis, count: count, f: func() error { restore(); return batch.Gesv(av, bv) }},
		job{op: "solve", impl: implC + " loop of dgesv", count: count, threads: e.cThreads, f: func() error { restore(); return cref.GesvLoop(count, n, 1, a, b, cipiv) }},
		job{op: "solve", impl: implGonum, count: count, f: func() error {
			restore()
			for t := 0; t < count; t++ {
				gl.Dgetrf(n, n, a[t*nn:(t+1)*nn], n, ipiv)
				gl.Dgetrs(blas.NoTrans, n, 1, a[t*nn:(t+1)*nn], n, ipiv, b[t*n:(t+1)*n], 1)
			}
			return nil
		}},
	)
	return e.withNumpy(js, "solve", count, 0)
}

// threadsJobs: one n x n dgesv while a goroutine runs a pure-Go loop,
// with lapis's default policy, lapis fixed at one thread, the C
// reference with OpenBLAS at its full count (what a program that leaves
// OpenBLAS alone gets), and gonum.
func threadsJobs(e *env, n int) []job {
	restoreSetting := SaveThreads()
	controlled := lapis.SetThreads(lapis.AutoThreads) == nil
	full := lapis.Threads()
	restoreSetting()
	a, b := diagDominant(e, n), randoms(e.r, n)
	work, bw := make([]float64, n*n), make([]float64, n)
	wv, bwv := colMajor(work, n, n), colMajor(bw, n, 1)
	ipiv32, ipiv, cipiv := make([]int32, n), make([]int, n), cref.NewPivots(n)
	restore := func() { copy(work, a); copy(bw, b) }
	lapisGesv := func() error { restore(); return lapack.Gesv(wv, bwv, ipiv32) }
	cGesv := func() error { restore(); return cref.GesvLoop(1, n, 1, work, bw, cipiv) }
	gonumGesv := job{op: "dgesv", impl: implGonum, busy: true, f: func() error {
		restore()
		gl.Dgetrf(n, n, work, n, ipiv)
		gl.Dgetrs(blas.NoTrans, n, 1, work, n, ipiv, bw, 1)
		return nil
	}}
	if !controlled { // not OpenBLAS: the library's own threads, whoever calls it
		return []job{
			{op: "dgesv", impl: implLapis + " (the library's threads)", busy: true, f: lapisGesv},
			{op: "dgesv", impl: implC + " (the library's threads)", busy: true, f: cGesv},
			gonumGesv,
		}
	}
	return []job{
		{op: "dgesv", impl: "lapis (default policy)", threads: threadsDefault, busy: true, f: lapisGesv},
		{op: "dgesv", impl: "lapis, 1 thread (SetThreads(1))", threads: 1, busy: true, f: lapisGesv},
		{op: "dgesv", impl: implC + ", OpenBLAS at its " + plural(full, "thread"), threads: full, busy: true, f: cGesv},
		gonumGesv,
	}
}

// numpy's side of bench: each family's numpy jobs are timed in one Python
// process, after its Go ones, by numpy_timer.py (the same timing rule as
// timeOp, on operands of the same shapes and kinds, made by numpy's own
// generator).

//go:embed numpy_timer.py
var numpyTimer string

// numpyJob is one numpy measurement: what to time (JSON to the timer),
// and where its result goes.
type numpyJob struct {
	Family string `json:"Family"`
	Op     string `json:"op"`
	N      int    `json:"n"`
	Count  int    `json:"count"`
	work   float64
	index  int // in the measurements
}

// FindNumpy returns the first of Debian's /usr/bin/python3 (numpy from
// python3-numpy, on the system OpenBLAS lapis links) and python3 on PATH
// that imports numpy, and a sentence for the report; "" when none does.
func FindNumpy() (python, note string) {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		out, err := exec.Command(p, "-c", "import numpy; print(numpy.__version__)").Output()
		if err == nil {
			return p, fmt.Sprintf("numpy %s (%s)", strings.TrimSpace(string(out)), p)
		}
	}
	return "", "numpy: not found (/usr/bin/python3 -c 'import numpy' fails: apt-get install python3-numpy), its column is skipped"
}

// runNumpy times the jobs in one run of python and returns each one's
// seconds per call. numpy's OpenBLAS runs threads threads per call, on
// the kernel set lapis runs (OPENBLAS_CORETYPE), so that every column of
// a table runs the same kernels.
func runNumpy(python string, jobs []numpyJob, budget time.Duration, count, threads int) ([]float64, error) {
	spec, err := json.Marshal(struct {
		Budget float64    `json:"budget"`
		Count  int        `json:"count"`
		Jobs   []numpyJob `json:"jobs"`
	}{budget.Seconds(), count, jobs})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-c", numpyTimer)
	cmd.Stdin = bytes.NewReader(spec)
	cmd.Env = append(os.Environ(), "OPENBLAS_NUM_THREADS="+strconv.Itoa(threads), "OMP_NUM_THREADS="+strconv.Itoa(threads))
	if set := lapis.KernelSet().InUse; set != "" {
		cmd.Env = append(cmd.Env, "OPENBLAS_CORETYPE="+set)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("numpy: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var secs []float64
	if err := json.Unmarshal(out, &secs); err != nil || len(secs) != len(jobs) {
		return nil, fmt.Errorf("numpy: %d results for %d jobs (%v): %s", len(secs), len(jobs), err, out)
	}
	return secs, nil
}

// plural says "1 thread", "2 threads".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// StartBusy starts k goroutines that run a pure-Go loop until stop is
// called; stop returns how many iterations of the loop they made.
func StartBusy(k int) (stop func() (loops int64)) {
	var done atomic.Bool
	var count atomic.Int64
	var wg sync.WaitGroup
	var started sync.WaitGroup
	wg.Add(k)
	started.Add(k)
	for range k {
		go func() {
			defer wg.Done()
			started.Done()
			x := 1.0
			for i := 0; !done.Load(); i++ {
				for range 1000 {
					x = x*1.0000001 + 1e-9
				}
				count.Add(1000)
			}
			runtime.KeepAlive(x)
		}()
	}
	started.Wait()
	return func() int64 { done.Store(true); wg.Wait(); return count.Load() }
}

// SaveThreads returns what restores lapis's thread setting as it is now.
func SaveThreads() (restore func()) {
	if strings.HasPrefix(lapis.ThreadPolicy(), "fixed") {
		n := lapis.Threads()
		return func() { _ = lapis.SetThreads(n) }
	}
	return func() { _ = lapis.SetThreads(lapis.AutoThreads) }
}

// ref is gonum's pure-Go BLAS, the families' gonum anchor.
var ref gonum.Implementation

// randoms returns n numbers uniform in [-1, 1).
func randoms(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 2*r.Float64() - 1
	}
	return x
}

// bytesCount reads all of b with Go's vectorised byte count: the read
// bandwidth anchor.
func bytesCount(b []byte) int { return bytes.Count(b, []byte{0x5a}) }

// symmetric returns a random symmetric n x n matrix (column-major) plus
// shift on the diagonal; spd makes it M M^T + shift I.
func symmetric(r *rand.Rand, n int, spd bool, shift float64) []float64 {
	m := randoms(r, n*n)
	a := make([]float64, n*n)
	for j := range n {
		for i := range n {
			if spd {
				var s float64
				for k := range n {
					s += m[i+k*n] * m[j+k*n]
				}
				a[i+j*n] = s
			} else {
				a[i+j*n] = (m[i+j*n] + m[j+i*n]) / 2
			}
		}
		a[j+j*n] += shift
	}
	return a
}
