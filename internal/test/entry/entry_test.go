package entry

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
)

// memLimitKiB is the child's address-space limit (ulimit -v): 4 GiB, so
// that the huge operands (over the bound lapis reads from that limit)
// stay within the 32-bit LAPACK integer and the gate, not the integer
// check, is what refuses them.
const memLimitKiB = 4 << 20

// aCase is one call with one bad operand.
type aCase struct {
	call, pos int
	mode      Mode
	axis      int
}

// plan lists the cases: every position of every call, with the zero
// operand, a released one, and a huge broadcast along the first and the
// last axis of its template shape (views only: tensors and matrices own
// their memory and cannot be broadcast).
func plan() []aCase {
	var cs []aCase
	for c, call := range calls {
		for p, prm := range call.Params {
			if !prm.Pos {
				continue
			}
			cs = append(cs, aCase{c, p, Zero, 0}, aCase{c, p, Released, 0})
			if prm.Kind != "Tensor" && prm.Kind != "Matrix" {
				cs = append(cs, aCase{c, p, Huge, 0}, aCase{c, p, Huge, -1})
			}
		}
	}
	return cs
}

// allowedPanics are the calls without an error result that panic on a bad
// operand as documented, as Go panics on a nil map write or an index out
// of range: call and mode -> where it is documented.
var allowedPanics = map[string]string{
	"views.View.At zero":             "views.View: At, Set panic on the zero View, as a nil pointer would",
	"views.View.Set zero":            "views.View: At, Set panic on the zero View, as a nil pointer would",
	"views.View.At released":         "views.Tensor.Release: At, Set and ToColMajor of a released tensor's view panic",
	"views.View.Set released":        "views.Tensor.Release: At, Set and ToColMajor of a released tensor's view panic",
	"views.View.ToColMajor released": "views.Tensor.Release: At, Set and ToColMajor of a released tensor's view panic",
	"views.View.ToColMajor huge":     "views.View.ToColMajor: a copy beyond this machine's memory panics with lapis.ErrTooLarge, as make does",
	"views.View.Set huge":            "views.View.Set: a view with indices sharing an element is read-only; Set panics",
	"views.Tensor.At zero":           "views.Tensor.At: index out of range on the zero Tensor, as Go's index would",
	"views.Tensor.Set zero":          "views.Tensor.Set: index out of range on the zero Tensor, as Go's index would",
	"views.Tensor.At released":       "views.Tensor.Release: At, Set and Data of a released tensor panic",
	"views.Tensor.Set released":      "views.Tensor.Release: At, Set and Data of a released tensor panic",
	"views.Tensor.Data released":     "views.Tensor.Release: At, Set and Data of a released tensor panic",
	"dist.Matrix.Owner zero":         "dist.Matrix.Owner: panics when (i, j) is outside the matrix, as indexing does",
	"dist.Matrix.ToLocal zero":       "dist.Matrix.ToLocal: panics when (i, j) is outside the matrix",
	"dist.Matrix.ToGlobal zero":      "dist.Matrix.ToGlobal: panics when (li, lj) is outside the piece",
	"dist.Matrix.Fill released":      "dist.Matrix.Fill: panics on a released matrix, as Set on a released tensor does",
}

// optional are the parameters documented to take the zero View where the
// call does not reference them: call and parameter -> where.
var optional = map[string]string{
	"lapack.Geev vl":          "lapack.Geev: an unreferenced vl or vr may be views.View[T]{}",
	"lapack.Geev vr":          "lapack.Geev: an unreferenced vl or vr may be views.View[T]{}",
	"lapack.Gesdd u":          "lapack.Gesdd: JobNone: neither is referenced, pass views.View[T]{}",
	"lapack.Gesdd vt":         "lapack.Gesdd: JobNone: neither is referenced, pass views.View[T]{}",
	"lapack.Gesvd u":          "lapack.Gesvd: JobNone: not referenced, pass views.View[T]{}",
	"lapack.Gesvd vt":         "lapack.Gesvd: JobNone: not referenced, pass views.View[T]{}",
	"lapack.Syevr z":          "lapack.Syevr: with JobNone z is not referenced",
	"dist.Matrix.Scatter src": "dist.Matrix.Scatter: other ranks pass the zero View",
	"dist.Matrix.Gather dst":  "dist.Matrix.Gather: other ranks pass the zero View",
}

var prefix = regexp.MustCompile(`^[a-z]+(\.[A-Za-z0-9]+)+: `)

// check applies the rules to one case's outcome and returns what broke
// them ("" when none).
func check(x *Args, r Result, panicked any) string {
	key := x.Call.Name + " " + x.Mode.String()
	if panicked != nil {
		if _, ok := allowedPanics[key]; ok {
			return ""
		}
		if err, ok := panicked.(error); ok && errors.Is(err, pool.ErrTooLarge) {
			return fmt.Sprintf("panicked past the allocation gate (a missing pool.Check): %v", err)
		}
		return fmt.Sprintf("panicked: %v", panicked)
	}
	if !r.HasErr {
		return ""
	}
	name := x.Call.Params[x.Bad].Name
	err := r.Err
	switch x.Mode {
	case Zero:
		if _, ok := optional[x.Call.Name+" "+name]; err == nil && !ok {
			return "no error for a zero operand"
		}
	case Released:
		if err == nil {
			return "no error for a released operand"
		}
		if !errors.Is(err, lapis.ErrReleased) {
			return fmt.Sprintf("error does not match lapis.ErrReleased: %v", err)
		}
	}
	if err == nil {
		return "" // a huge broadcast may be read where nothing is allocated for it
	}
	msg := err.Error()
	if !prefix.MatchString(msg) {
		return fmt.Sprintf("message does not start with the function called (pkg.Func: ...): %q", msg)
	}
	if x.Call.Params[x.Bad].Kind == "Members" {
		name = "member" // WriteNPZ names the member it refuses: member 'm'
	}
	if x.Mode != Huge && !regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).MatchString(msg) {
		return fmt.Sprintf("error does not name the argument %s: %q", name, msg)
	}
	if x.Mode == Zero && x.Call.Params[x.Bad].Kind == "View" && !strings.Contains(msg, "zero View") {
		return fmt.Sprintf("error for the zero View does not say so (views.View's doc: \"the zero View has no data\"): %q", msg)
	}
	if w := x.Written(); len(w) > 0 {
		return fmt.Sprintf("returned an error but wrote %v: %v", w, err)
	}
	return ""
}

// outcome classes a passing case's result for the summary.
func outcome(r Result) string {
	switch {
	case !r.HasErr:
		return "returned"
	case r.Err == nil:
		return "succeeded"
	case errors.Is(r.Err, lapis.ErrTooLarge):
		return "ErrTooLarge"
	case errors.Is(r.Err, layout.ErrOverflow):
		return "ErrOverflow"
	case errors.Is(r.Err, lapis.ErrReleased):
		return "ErrReleased"
	}
	return "other error"
}

// run calls x's function, recovering a panic.
func run(x *Args) (r Result, panicked any) {
	defer func() { panicked = recover() }()
	return x.Call.Fn(x), nil
}

// baseline finds the first template under which c succeeds (ok false:
// none, or c calls a Fortran routine it is given).
func baseline(c *Call, grid *dist.Grid, dir string) (base, bool) {
	if c.HasRoutine() {
		return base{Templates[0], 0}, false
	}
	// Without a baseline, the attempt whose error names the latest
	// parameter: the most of the call's checks passed.
	fallback, latest := base{Templates[0], 0}, -1
	for _, t := range Templates {
		for choice := range 8 {
			x := &Args{Call: c, T: t, Bad: -1, G: grid, Dir: dir, Choice: choice}
			r, p := run(x)
			x.Close(r)
			if p == nil && r.Err == nil {
				return base{t, choice}, true
			}
			var le *layout.Error
			if errors.As(r.Err, &le) && index(c, le.Arg) > latest {
				fallback, latest = base{t, choice}, index(c, le.Arg)
			}
		}
	}
	return fallback, false
}

// index is the position in c's parameters of the one named arg, or -1.
func index(c *Call, arg string) int {
	for i, p := range c.Params {
		if p.Name == arg {
			return i
		}
	}
	return -1
}

// base is what a call's good operands are: a template and a choice of
// constants.
type base struct {
	T      Template
	Choice int
}

// child runs the cases from start on, one line each on stdout.
func child(start int) {
	if err := dist.Init(); err != nil {
		fmt.Printf("entry: fatal dist.Init: %v\n", err)
		os.Exit(2)
	}
	grid, err := dist.NewGrid(1, 1)
	if err != nil {
		fmt.Printf("entry: fatal dist.NewGrid: %v\n", err)
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "entry")
	if err != nil {
		fmt.Printf("entry: fatal %v\n", err)
		os.Exit(2)
	}
	defer os.RemoveAll(dir)
	huge := int(pool.MaxBytes/8) + 1 // float64 elements: over the bound whatever the other extents
	bases := map[int]base{}
	cs := plan()
	for k := start; k < len(cs); k++ {
		c := cs[k]
		call := &calls[c.call]
		b, ok := bases[c.call]
		if !ok {
			fmt.Printf("entry: baseline %d\n", c.call)
			var found bool
			b, found = baseline(call, grid, dir)
			bases[c.call] = b
			fmt.Printf("entry: base %d %v %s\n", c.call, found, b.T.Name)
		}
		t := b.T
		x := &Args{Call: call, T: t, Choice: b.Choice, Bad: c.pos, Mode: c.mode, HugeN: huge, G: grid, Dir: dir}
		if c.mode == Huge {
			n := len(t.Shape(call.Params[c.pos].Name))
			x.Axis = (c.axis + n) % n
		}
		fmt.Printf("entry: start %d %s\n", k, x.Describe())
		r, p := run(x)
		msg := check(x, r, p)
		x.Close(r)
		if msg != "" {
			fmt.Printf("entry: fail %d %s\n", k, strings.ReplaceAll(msg, "\n", " "))
		} else {
			fmt.Printf("entry: ok %d %s\n", k, outcome(r))
		}
	}
	fmt.Println("entry: end")
	dist.Finalize()
}

// TestEntryPoints runs every case of the table in a child process (the
// test binary itself) under a memory limit, restarting after a case that
// crashes it, and fails for each case that crashes or breaks a rule of
// check: a call given the zero View, a released tensor's view or a huge
// broadcast returns an error naming that argument (or succeeds where
// nothing needs allocating), never panics except as allowedPanics
// documents, never dies, and writes nothing when it returns an error.
func TestEntryPoints(t *testing.T) {
	if s := os.Getenv("LAPIS_ENTRY_CHILD"); s != "" {
		start, _ := strconv.Atoi(s)
		child(start)
		return
	}
	if testing.Short() {
		t.Skip("the child process tries every entry point: not with -short")
	}
	if raceEnabled {
		// Without ulimit -v (the race detector's shadow memory needs the
		// address space) the huge operands must exceed the machine's memory,
		// and the calls that read them whole take minutes under -race.
		t.Skip("runs without -race, under ulimit -v: scripts/test.sh's entrypoints step")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cs := plan()
	status := make([]string, len(cs)) // "" not run, "ok", or what failed
	bases := map[int]bool{}
	huge := map[string]int{} // the huge cases' outcomes
	start, crashes := 0, 0
	for start < len(cs) {
		cmd := exec.Command("sh", "-c", fmt.Sprintf("ulimit -v %d && ", memLimitKiB)+`exec "$0" -test.run='^TestEntryPoints$' -test.count=1`, exe)
		cmd.Env = append(os.Environ(), "LAPIS_ENTRY_CHILD="+strconv.Itoa(start), "OMPI_MCA_plm=isolated", "OMPI_MCA_btl=self")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		running, end := -1, false
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			f := strings.SplitN(strings.TrimPrefix(sc.Text(), "entry: "), " ", 3)
			if !strings.HasPrefix(sc.Text(), "entry: ") {
				continue
			}
			k := -1
			if len(f) > 1 {
				k, _ = strconv.Atoi(f[1])
			}
			switch f[0] {
			case "start":
				running = k
			case "ok":
				status[k], running = "ok", -1
				if cs[k].mode == Huge && len(f) > 2 {
					huge[f[2]]++
				}
			case "fail":
				status[k], running = f[2], -1
			case "base":
				bases[k] = strings.HasPrefix(f[2], "true")
			case "end":
				end = true
			case "fatal":
				t.Fatalf("child: %s", sc.Text())
			}
		}
		werr := cmd.Wait()
		if end && werr == nil {
			break
		}
		if running < 0 {
			t.Fatalf("the child stopped outside a case (%v); its stderr:\n%s", werr, tail(stderr.String(), 40))
		}
		crashes++
		status[running] = fmt.Sprintf("crashed the process (%v): %s", werr, tail(stderr.String(), 12))
		start = running + 1
	}
	positions := map[[2]int]bool{}
	modes := map[Mode]int{}
	for k, c := range cs {
		positions[[2]int{c.call, c.pos}] = true
		modes[c.mode]++
		if status[k] != "ok" {
			x := &Args{Call: &calls[c.call], Bad: c.pos, Mode: c.mode}
			t.Errorf("%s: %s", x.Describe(), status[k])
		}
	}
	var none []string
	for c := range calls {
		if !bases[c] {
			none = append(none, calls[c].Name)
		}
	}
	fmt.Printf("entry points: %d functions and methods x %d positions tried (%d cases: %d zero, %d released, %d huge broadcasts; %d crashes); child under ulimit -v %d KiB\n",
		len(calls), len(positions), len(cs), modes[Zero], modes[Released], modes[Huge], crashes, memLimitKiB)
	fmt.Printf("entry points: huge broadcasts: %d ErrTooLarge, %d ErrOverflow, %d other errors (shapes that do not match the other operands), %d succeeded without allocating, %d without an error result\n",
		huge["ErrTooLarge"], huge["ErrOverflow"], huge["other error"], huge["succeeded"], huge["returned"])
	fmt.Printf("entry points: %d of %d succeed with good operands (their baseline); without one (tried with bad operands only): %s\n", len(calls)-len(none), len(calls), strings.Join(none, ", "))
}

func tail(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// TestTableCurrent fails when calls_gen.go is not what ./gen writes from
// the packages' source today: a function added, removed or changed since.
func TestTableCurrent(t *testing.T) {
	tmp := t.TempDir() + "/calls_gen.go"
	out, err := exec.Command("go", "run", "./gen", "-o", tmp).CombinedOutput()
	if err != nil {
		t.Fatalf("go run ./gen: %v\n%s", err, out)
	}
	want, _ := os.ReadFile(tmp)
	have, _ := os.ReadFile("calls_gen.go")
	if !bytes.Equal(want, have) {
		t.Fatal("calls_gen.go is stale: run go generate ./internal/test/entry")
	}
}
