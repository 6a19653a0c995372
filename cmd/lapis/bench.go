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
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Measurement is one timed operation (bench -json prints a list of them).
type Measurement struct {
	Family  string  `json:"family"` // copy, gemm, small, lapack, batch, tiny, threads
	Op      string  `json:"op"`     // transpose, dgemm, dgesv, dpotrf, dsyevd, gemm, solve
	Impl    string  `json:"impl"`   // lapis, C, gonum (pure Go), numpy, ...
	N       int     `json:"n"`
	Count   int     `json:"count,omitempty"` // matrices per call (batch, tiny)
	Seconds float64 `json:"seconds"`         // per call, the best of three batches
	Value   float64 `json:"value"`           // in Unit
	Unit    string  `json:"unit"`            // the family's unit
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
	threads  int     // 0: as set; n: lapis.SetThreads(n) while measuring (threadsAuto: the default policy)
	busy     bool    // a goroutine runs a pure-Go loop meanwhile
	f        func() error
}

// threadsAuto in job.threads selects lapis's default policy
// (lapis.AutoThreads is 0, which there means "as set").
const threadsAuto = -1

// family is one group of measurements: one table, one PNG.
type family struct {
	name, title string
	unit        string
	defaults    []int // sizes n
	quick       []int
	// note, when set, is said under the table (what is not measured, and why).
	note string
	// jobs builds the operands of size n and returns the jobs on them.
	jobs func(e *benchEnv, n int) []job
}

// benchEnv is what the families' jobs share.
type benchEnv struct {
	r        *rand.Rand
	cThreads int  // OpenBLAS threads the C reference and numpy run with
	numpy    bool // numpy jobs are added
}

// families lists the families in the order they run and print.
func families() []family {
	return []family{
		{name: "copy", title: "transposing copy, n x n float64 into its transpose (bytes read + written)", unit: unitGBs,
			defaults: []int{64, 256, 1024, 2048}, quick: []int{256, 1024}, jobs: copyJobs},
		{name: "gemm", title: "dgemm, n x n x n", unit: unitGFLOPS,
			defaults: []int{32, 64, 128, 256, 512, 1024}, quick: []int{64, 256}, jobs: gemmJobs},
		{name: "small", title: "small dgemm, per call (the cost of crossing into C shows against the pure-Go paths)", unit: unitNsCall,
			defaults: []int{2, 3, 4, 6, 8, 12, 16, 24, 32}, quick: []int{2, 4, 8, 16}, jobs: smallJobs},
		{name: "lapack", title: "LAPACK, n x n (gesv: one right-hand side; syevd: eigenvectors, gonum has no syevd and runs dsyev)", unit: unitMs,
			defaults: []int{50, 100, 200, 400, 800}, quick: []int{50, 200}, jobs: lapackJobs},
		{name: "batch", title: "batched dgemm, count n x n products in one [n, n, count] batch", unit: unitNsMatrix,
			defaults: []int{8, 16, 32, 64}, quick: []int{16, 64}, jobs: batchJobs},
		{name: "tiny", title: "tiny batches, 10000 n x n float64 matrices (solve: SPD, one right-hand side, operands restored each call)", unit: unitNsMatrix,
			defaults: []int{2, 3, 4, 6, 8}, quick: []int{4, 8}, jobs: tinyJobs},
		{name: "threads", title: "dgesv beside one busy goroutine (a pure-Go loop)", unit: unitMs,
			defaults: []int{128, 256, 512, 1024}, quick: []int{256}, jobs: threadsJobs,
			note: "numpy is not measured here: a busy Python thread would hold the GIL, not a core as a goroutine does"},
	}
}

// benchOptions are bench's settings.
type benchOptions struct {
	families []string         // names to run (nil: all)
	sizes    map[string][]int // per family; missing: the family's defaults or quick sizes
	quick    bool
	budget   time.Duration // per measurement
	progress io.Writer     // a progress line while running; nil: none
	numpy    string        // python3 with numpy ("" : none)
}

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

// sizesOf returns the sizes family f runs at under o.
func (o benchOptions) sizesOf(f family) []int {
	if s, ok := o.sizes[f.name]; ok {
		return s
	}
	if o.quick {
		return f.quick
	}
	return f.defaults
}

// selected returns the families o runs.
func (o benchOptions) selected() []family {
	var out []family
	for _, f := range families() {
		if o.families == nil || slices.Contains(o.families, f.name) {
			out = append(out, f)
		}
	}
	return out
}

// runBench measures every selected family and returns the measurements.
func runBench(o benchOptions) ([]Measurement, error) {
	e := &benchEnv{r: rand.New(rand.NewPCG(41, 43)), cThreads: cThreads(), numpy: o.numpy != ""}
	var ms []Measurement
	var pending []numpyJob
	var gerr error
	fams := o.selected()
	start := time.Now()
	for fi, f := range fams {
		sizes := o.sizesOf(f)
		for si, n := range sizes {
			for _, j := range f.jobs(e, n) {
				m := Measurement{Family: f.name, Op: j.op, Impl: j.impl, N: n, Count: j.count, Unit: f.unit}
				if j.f == nil {
					pending = append(pending, numpyJob{Family: f.name, Op: j.op, N: n, Count: j.count, work: j.work, index: len(ms)})
					ms = append(ms, m)
					continue
				}
				if o.progress != nil {
					fmt.Fprintf(o.progress, "\rbench %5.1fs  %d/%d %-7s  n=%-5d (%d/%d)  %-7s %-34s", time.Since(start).Seconds(), fi+1, len(fams), f.name, n, si+1, len(sizes), j.op, j.impl)
				}
				s, err := measure(o.budget, j)
				if err != nil && gerr == nil {
					gerr = fmt.Errorf("%s %s n=%d %s: %w", f.name, j.op, n, j.impl, err)
				}
				m.Seconds, m.Value = s, value(f.unit, s, j.work, j.count)
				ms = append(ms, m)
			}
		}
	}
	if len(pending) > 0 {
		if o.progress != nil {
			fmt.Fprintf(o.progress, "\rbench %5.1fs  numpy: %d measurements in one %s process%-40s", time.Since(start).Seconds(), len(pending), o.numpy, "")
		}
		secs, err := runNumpy(o.numpy, pending, o.budget, e.cThreads)
		if err != nil {
			return nil, err
		}
		for i, p := range pending {
			ms[p.index].Seconds = secs[i]
			ms[p.index].Value = value(ms[p.index].Unit, secs[i], p.work, p.Count)
		}
	}
	if o.progress != nil {
		fmt.Fprintf(o.progress, "\r%-110s\r", "")
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
func measure(budget time.Duration, j job) (float64, error) {
	if j.threads != 0 {
		restore := saveThreads()
		defer restore()
		n := j.threads
		if n == threadsAuto {
			n = lapis.AutoThreads
		}
		_ = lapis.SetThreads(n) // not OpenBLAS: its own setting stays
	}
	if j.busy {
		stop := startBusy()
		defer stop()
	}
	var err error
	s := timeOp(budget, func() {
		if e := j.f(); e != nil && err == nil {
			err = e
		}
	})
	return s / float64(max(1, j.per)), err
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

// seriesOf groups measurements into one series per impl.
func seriesOf(ms []Measurement) []series {
	var out []series
	idx := map[string]int{}
	for _, m := range ms {
		i, ok := idx[m.Impl]
		if !ok {
			i = len(out)
			idx[m.Impl] = i
			out = append(out, series{Name: m.Impl})
		}
		out[i].X = append(out[i].X, float64(m.N))
		out[i].Y = append(out[i].Y, m.Value)
	}
	return out
}

// familyPanels builds a family's plots: one per op, time (or rate)
// against n, log scales on both axes.
func familyPanels(f family, ms []Measurement, title string) []panel {
	var ps []panel
	better := "lower is better"
	if higherIsBetter(f.unit) {
		better = "higher is better"
	}
	ms = pick(ms, f.name, "")
	for _, op := range opsOf(ms) {
		ps = append(ps, panel{
			Title:  fmt.Sprintf("%s %s: %s (%s)  %s", f.name, op, f.unit, better, title),
			XLabel: "n", YLabel: f.unit, LogX: true, LogY: true,
			Series: seriesOf(pick(ms, f.name, op)),
		})
	}
	return ps
}

// table formats one family as a Markdown table: a row per n, a column per
// (op, impl).
func table(f family, ms []Measurement) string {
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
	fmt.Fprintf(&b, "### %s: %s, %s\n\n", f.name, f.title, f.unit)
	if higherIsBetter(f.unit) {
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
	if f.note != "" {
		fmt.Fprintf(&b, "\n%s.\n", f.note)
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

// report formats the measurements as Markdown, one table per family.
func report(fams []family, ms []Measurement, numpyNote string, cThreads int) string {
	info := lapis.Info()
	var b strings.Builder
	fmt.Fprintf(&b, "lapis bench: %s %s, %s kernels, thread policy %s, %s; GOMAXPROCS %d\n\n", info.Library, info.Version, info.Core, lapis.ThreadPolicy(), info.CPU, maxProcs())
	fmt.Fprintf(&b, "C is the linked library called from C on the same memory; it and numpy run %s per call (-threads N sets all three); %s.\n", plural(cThreads, "OpenBLAS thread"), numpyNote)
	for _, f := range fams {
		b.WriteString("\n")
		b.WriteString(table(f, pick(ms, f.name, "")))
	}
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
	if len(out) == 0 {
		return nil, fmt.Errorf("no sizes in %q", s)
	}
	return out, nil
}

// familyNames lists every family's name.
func familyNames() []string {
	var names []string
	for _, f := range families() {
		names = append(names, f.name)
	}
	return names
}

func benchCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lapis bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "fewer sizes and a shorter time per measurement (under a minute in all)")
	famList := fs.String("families", "", "families to run, comma-separated (default all: "+strings.Join(familyNames(), ",")+")")
	sizes := map[string][]int{}
	fs.Func("sizes", "FAMILY=N,N,...: the sizes n of one family (repeatable), e.g. -sizes gemm=64,256", func(s string) error {
		name, list, ok := strings.Cut(s, "=")
		if !ok || !slices.Contains(familyNames(), name) {
			return fmt.Errorf("%q: want FAMILY=N,N,... with FAMILY one of %s", s, strings.Join(familyNames(), ","))
		}
		v, err := intList(list)
		if err != nil {
			return err
		}
		sizes[name] = v
		return nil
	})
	budget := fs.Duration("time", 0, "time budget per measurement (default 100ms; 15ms with -quick)")
	pngPath := fs.String("png", "", "write every plot, one above the other, to this PNG file")
	outDir := fs.String("out", "", "write FAMILY.png for each family and bench.md to this directory")
	asJSON := fs.Bool("json", false, "print the measurements as JSON instead of tables")
	threads := fs.Int("threads", 0, "OpenBLAS threads per call during the run (lapis.SetThreads; 0: lapis's default policy). The C reference and numpy get the same count")
	noNumpy := fs.Bool("nonumpy", false, "do not run numpy even when python3 has it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o := benchOptions{sizes: sizes, quick: *quick, budget: 100 * time.Millisecond, progress: stderr}
	if *quick {
		o.budget = 15 * time.Millisecond
	}
	if *budget > 0 {
		o.budget = *budget
	}
	if *famList != "" {
		for _, name := range strings.Split(*famList, ",") {
			if !slices.Contains(familyNames(), name) {
				fmt.Fprintf(stderr, "lapis bench: -families: unknown family %q (families: %s)\n", name, strings.Join(familyNames(), ","))
				return 2
			}
			o.families = append(o.families, name)
		}
	}
	if *threads > 0 {
		restore := saveThreads()
		if err := lapis.SetThreads(*threads); err != nil {
			fmt.Fprintln(stderr, "lapis bench: -threads:", err)
			return 2
		}
		defer restore()
	}
	numpyNote := "numpy: not run (-nonumpy)"
	if !*noNumpy {
		o.numpy, numpyNote = findNumpy()
	}
	ms, err := runBench(o)
	if err != nil {
		fmt.Fprintln(stderr, "lapis bench:", err)
		return 2
	}
	fams := o.selected()
	md := report(fams, ms, numpyNote, cThreads())
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
	info := lapis.Info()
	title := fmt.Sprintf("(%s %s, %s, %s)", info.Library, info.Version, info.Core, lapis.ThreadPolicy())
	var all []panel
	for _, f := range fams {
		ps := familyPanels(f, ms, title)
		all = append(all, ps...)
		if *outDir == "" {
			continue
		}
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
		if err := writeFile(filepath.Join(*outDir, f.name+".png"), func(w io.Writer) error { return writePNG(w, ps, 900, 480) }); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
	}
	if *outDir != "" {
		if err := os.WriteFile(filepath.Join(*outDir, "bench.md"), []byte(md), 0o644); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
		fmt.Fprintf(stderr, "wrote FAMILY.png for %d families and bench.md to %s\n", len(fams), *outDir)
	}
	if *pngPath != "" {
		if err := writeFile(*pngPath, func(w io.Writer) error { return writePNG(w, all, 900, 480) }); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
		fmt.Fprintf(stderr, "wrote %s\n", *pngPath)
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
