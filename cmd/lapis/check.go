package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The statuses a check ends with. WRONG and CRASH fail `lapis check`.
const (
	statusOK      = "ok"      // every case within tolerance
	statusWrong   = "WRONG"   // a result out of tolerance, or an error where none was due
	statusCrash   = "CRASH"   // the guarded child process died in a case
	statusAvoided = "avoided" // the library is wrong or known to be, and lapis does not call it there
	statusSkip    = "skip"    // does not apply to this library or system
	statusWarn    = "WARN"    // works, but slower than it could: does not fail check
)

// Result is one check's outcome (and one element of check -json's
// "checks").
type Result struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Cases  int    `json:"cases"`
	// Detail gives the numbers: the largest error against its tolerance
	// and the case it came from, or what went wrong.
	Detail string `json:"detail"`
	// MaxError and Tolerance are the largest error seen (relative to the
	// reference's scale) and the tolerance of that case.
	MaxError  float64 `json:"max_error"`
	Tolerance float64 `json:"tolerance"`
	// Workaround says what lapis does about a known library defect.
	Workaround string `json:"workaround,omitempty"`
	// Known names the library defect a WRONG or CRASH is known to be for
	// this library's version and kernels (an upstream issue), when lapis
	// does not work around it; check -known-ok then exits 0.
	Known   string  `json:"known_defect,omitempty"`
	Seconds float64 `json:"seconds"`
}

// Check is one named check.
type Check struct {
	Name string
	Run  func(t *tally) // records cases in t; may set t's status directly
}

// checks lists every check in the order they run.
func checks() []Check {
	return []Check{
		{"kernel set (OpenBLAS's choice for this CPU)", kernelCheck},
		{"gemm/float64", gemmCheck[float64](200)},
		{"gemm/float32", gemmCheck[float32](60)},
		{"gemm/complex64", gemmCheck[complex64](60)},
		{"gemm/complex128", gemmCheck[complex128](60)},
		{"gemm/large", gemmLarge},
		{"gemv", gemvCheck},
		{"dot", dotCheck},
		{"asum (scasum tail, OpenBLAS#4282)", asumCheck},
		{"scal with a NaN alpha", scalCheck},
		{"nrm2 extreme values", nrm2Check},
		{"rotg scaling (OpenBLAS#4130)", rotgCheck},
		{"gesv", gesvCheck},
		{"potrf", potrfCheck},
		{"geqrf (QR)", qrCheck},
		{"syevd", syevdCheck},
		{"gesdd (SVD)", svdCheck},
		{"guard pages (over-reads, child process)", guardCheck},
		{"concurrent calls (thread safety)", concurrencyCheck},
		{"threads under a busy goroutine", threadsCheck},
	}
}

// injectWrong, when it names a check, perturbs the first result that
// check compares, so that tests can see a WRONG reported.
var injectWrong string

// tally collects one check's cases: the largest error relative to its
// tolerance, and where it was.
type tally struct {
	name       string
	cases      int
	worst      float64 // max over cases of error / tolerance
	err, tol   float64 // of the worst case
	where      string
	status     string // set to override the status the errors give
	detail     string // set to override the detail
	workaround string
	known      string // the known library defect a failure is (Result.Known)
	notes      []string
}

// cmp compares got with want elementwise: the error is the largest
// difference relative to scale (when scale <= 0, the largest magnitude of
// want, at least 1); NaN must be where want has NaN, infinities must be
// equal.
func (t *tally) cmp(where string, got, want []complex128, tol, scale float64) {
	if t.cases == 0 && injectWrong == t.name && len(got) > 0 {
		got = append([]complex128(nil), got...)
		got[0] += 1
	}
	t.cases++
	if scale <= 0 {
		scale = 1
		for _, w := range want {
			if a := cmplx.Abs(w); a > scale && !math.IsInf(a, 0) {
				scale = a
			}
		}
	}
	e := 0.0
	if len(got) != len(want) {
		e = math.Inf(1)
	}
	for i := 0; i < len(got) && i < len(want); i++ {
		g, w := got[i], want[i]
		switch {
		case cmplx.IsNaN(w) || cmplx.IsNaN(g):
			if cmplx.IsNaN(w) != cmplx.IsNaN(g) {
				e = math.Inf(1)
			}
		case g == w:
		case cmplx.IsInf(w) || cmplx.IsInf(g):
			e = math.Inf(1)
		default:
			e = max(e, cmplx.Abs(g-w)/scale)
		}
	}
	t.record(where, e, tol)
}

// record notes one case's error against its tolerance; the first case
// out of tolerance is the one reported.
func (t *tally) record(where string, e, tol float64) {
	r := e / tol
	if math.IsNaN(r) {
		r = math.Inf(1)
	}
	if t.worst > 1 {
		return
	}
	if r > t.worst || t.where == "" {
		t.worst, t.err, t.tol, t.where = r, e, tol, where
	}
}

// fail records a case that returned an error.
func (t *tally) fail(where string, err error) {
	t.cases++
	if !(t.worst > 1) {
		t.worst, t.err, t.tol, t.where = math.Inf(1), math.Inf(1), 0, fmt.Sprintf("%s: %v", where, err)
	}
}

// result turns t into a Result.
func (t *tally) result(d time.Duration) Result {
	r := Result{Name: t.name, Cases: t.cases, MaxError: t.err, Tolerance: t.tol, Workaround: t.workaround, Seconds: d.Seconds()}
	defer func() {
		if r.Status == statusWrong || r.Status == statusCrash {
			r.Known = t.known
		}
	}()
	switch {
	case t.status != "":
		r.Status = t.status
	case t.worst > 1:
		r.Status = statusWrong
	case t.cases == 0:
		r.Status = statusSkip
	default:
		r.Status = statusOK
	}
	switch {
	case t.detail != "":
		r.Detail = t.detail
	case t.tol == 0 && math.IsInf(t.err, 1):
		r.Detail = fmt.Sprintf("%d cases; error at %s", t.cases, t.where)
	case t.cases > 0:
		r.Detail = fmt.Sprintf("%d cases, max error %.2g (tolerance %.2g) at %s", t.cases, t.err, t.tol, t.where)
	}
	if len(t.notes) > 0 {
		r.Detail += "; " + strings.Join(t.notes, "; ")
	}
	if math.IsInf(r.MaxError, 0) || math.IsNaN(r.MaxError) {
		r.MaxError = -1 // JSON has no Inf: -1 marks a non-finite error
	}
	return r
}

// Report is what check -json prints.
type Report struct {
	Library string   `json:"library"`
	Version string   `json:"version"`
	Core    string   `json:"core"`
	Threads int      `json:"threads"`
	CPU     string   `json:"cpu"`
	Checks  []Result `json:"checks"`
	Failed  int      `json:"failed"` // WRONG and CRASH
	// Known is how many of Failed are known library defects (Result.Known).
	Known   int     `json:"known_defects"`
	Seconds float64 `json:"seconds"`
}

// runChecks runs the checks whose names match sel (all when sel is nil),
// calling progress after each.
func runChecks(sel *regexp.Regexp, progress func(Result)) Report {
	info := lapis.Info()
	rep := Report{Library: info.Library, Version: info.Version, Core: info.Core, Threads: info.Threads, CPU: info.CPU, Checks: []Result{}}
	start := time.Now()
	for _, c := range checks() {
		if sel != nil && !sel.MatchString(c.Name) {
			continue
		}
		t := &tally{name: c.Name}
		t0 := time.Now()
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.status, t.detail = statusCrash, fmt.Sprintf("panic: %v", p)
				}
			}()
			c.Run(t)
		}()
		r := t.result(time.Since(t0))
		if r.Status == statusWrong || r.Status == statusCrash {
			rep.Failed++
			if r.Known != "" {
				rep.Known++
			}
		}
		rep.Checks = append(rep.Checks, r)
		if progress != nil {
			progress(r)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep
}

func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lapis check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	runRE := fs.String("run", "", "run only the checks whose names match this regular expression")
	knownOK := fs.Bool("known-ok", false, "exit 0 when every WRONG or CRASH is a known defect of this library version that lapis does not work around (still reported)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var sel *regexp.Regexp
	if *runRE != "" {
		var err error
		if sel, err = regexp.Compile(*runRE); err != nil {
			fmt.Fprintln(stderr, "lapis check: -run:", err)
			return 2
		}
	}
	var progress func(Result)
	if !*asJSON {
		info := lapis.Info()
		fmt.Fprintf(stdout, "lapis check: %s %s, %s kernels, %d thread(s) (%s), on %s\n", info.Library, info.Version, info.Core, info.Threads, threading(info.Parallel, info.Variant), info.CPU)
		progress = func(r Result) {
			fmt.Fprintf(stdout, "%-8s %-40s %s\n", r.Status, r.Name, r.Detail)
			if r.Workaround != "" {
				fmt.Fprintf(stdout, "%-8s %-40s lapis: %s\n", "", "", r.Workaround)
			}
		}
	}
	rep := runChecks(sel, progress)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "lapis check:", err)
			return 2
		}
	} else {
		counts := map[string]int{}
		for _, r := range rep.Checks {
			counts[r.Status]++
		}
		known := ""
		if rep.Known > 0 {
			known = fmt.Sprintf(" (%d of them known library defects)", rep.Known)
		}
		warn := ""
		if counts[statusWarn] > 0 {
			warn = fmt.Sprintf(", %d WARN", counts[statusWarn])
		}
		fmt.Fprintf(stdout, "%d ok, %d WRONG, %d CRASH%s, %d avoided%s, %d skipped in %.1fs\n",
			counts[statusOK], counts[statusWrong], counts[statusCrash], known, counts[statusAvoided], warn, counts[statusSkip], rep.Seconds)
	}
	return exitStatus(rep, *knownOK)
}

// exitStatus is check's: 1 on any WRONG or CRASH, unless knownOK and
// every one is a known library defect.
func exitStatus(rep Report, knownOK bool) int {
	if rep.Failed > rep.Known || (rep.Failed > 0 && !knownOK) {
		return 1
	}
	return 0
}

// Helpers shared by the checks.

// random returns a number uniform in [-1, 1) (both parts, for complex T).
func random[T views.Scalar](r *rand.Rand) T {
	var x T
	switch p := any(&x).(type) {
	case *float32:
		*p = float32(2*r.Float64() - 1)
	case *float64:
		*p = 2*r.Float64() - 1
	case *complex64:
		*p = complex(float32(2*r.Float64()-1), float32(2*r.Float64()-1))
	case *complex128:
		*p = complex(2*r.Float64()-1, 2*r.Float64()-1)
	}
	return x
}

func randoms[T views.Scalar](r *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		x[i] = random[T](r)
	}
	return x
}

// toC converts a slice of T to complex128.
func toC[T views.Scalar](x []T) []complex128 {
	out := make([]complex128, len(x))
	for i, v := range x {
		out[i] = scalar.Complex128(v)
	}
	return out
}

// logical returns the elements of the rank-1 or rank-2 view v in
// column-major order, packed.
func logical[T views.Scalar](v views.View[T]) []T {
	return append([]T(nil), v.ToColMajor().Data()...)
}

// strided returns a rank-1 view of x's values with increment inc (negative:
// walking backwards from the end of its slice), with NaN in the gaps.
func strided[T views.Scalar](x []T, inc int) views.View[T] {
	n := len(x)
	a := max(inc, -inc)
	data := make([]T, max(1, 1+(n-1)*a))
	nan := scalar.FromFloat[T](math.NaN())
	for i := range data {
		data[i] = nan
	}
	off := 0
	if inc < 0 && n > 0 {
		off = (n - 1) * a
	}
	l, err := layout.New([]int{n}, []int{inc}, off)
	if err != nil {
		panic(err)
	}
	v, err := views.FromSlice(data, l)
	if err != nil {
		panic(err)
	}
	for i, e := range x {
		v.Set(e, i)
	}
	return v
}

// matrix returns an m x n column-major view of a's values (packed,
// column-major) with leading dimension m+pad, NaN in the padding.
func matrix[T views.Scalar](a []T, m, n, pad int) views.View[T] {
	ld := max(1, m+pad)
	data := make([]T, ld*n)
	nan := scalar.FromFloat[T](math.NaN())
	for j := 0; j < n; j++ {
		for i := 0; i < ld; i++ {
			if i < m {
				data[i+j*ld] = a[i+j*m]
			} else {
				data[i+j*ld] = nan
			}
		}
	}
	l, err := layout.New([]int{m, n}, []int{1, ld}, 0)
	if err != nil {
		panic(err)
	}
	v, err := views.FromSlice(data, l)
	if err != nil {
		panic(err)
	}
	return v
}

// typeName is T's name, for case descriptions.
func typeName[T views.Scalar]() string { return fmt.Sprintf("%T", *new(T)) }

// kernelCheck reports the kernel set: avoided when lapis moved OpenBLAS
// off its own choice, WARN (not a failure) when the set in use needs a
// lower x86-64 level than the CPU has and lapis did not move it
// (LAPIS_OPENBLAS_CORE=off, OPENBLAS_CORETYPE set, or no better table).
func kernelCheck(t *tally) { kernelTally(t, lapis.KernelSet(), runtime.GOARCH) }

// kernelTally is kernelCheck for the kernel choice k on a goarch CPU.
func kernelTally(t *tally, k lapis.KernelChoice, goarch string) {
	if k.InUse == "" {
		t.status, t.detail = statusSkip, k.Reason
		return
	}
	t.cases = 1
	// The CPU as the choice sees it: its x86-64 level, or (elsewhere,
	// where lapis leaves the choice to OpenBLAS) its architecture.
	cpu := goarch
	if k.CPULevel > 0 {
		cpu = fmt.Sprintf("x86-64-v%d", k.CPULevel)
	}
	switch {
	case k.Switched:
		t.status = statusAvoided
		t.detail = fmt.Sprintf("%s in use on this %s CPU", k.InUse, cpu)
		t.workaround = k.Reason + " (LAPIS_OPENBLAS_CORE=off keeps OpenBLAS's choice)"
	case k.Below():
		t.status = statusWarn
		t.detail = fmt.Sprintf("%s needs only x86-64-v%d, this CPU is %s: BLAS runs slower than it could; %s. Unset OPENBLAS_CORETYPE, or set LAPIS_OPENBLAS_CORE=auto", k.InUse, k.InUseLevel, cpu, k.Reason)
	default:
		t.detail = fmt.Sprintf("%s on this %s CPU: %s", k.InUse, cpu, k.Reason)
	}
}
