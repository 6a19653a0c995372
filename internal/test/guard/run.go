package guard

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Case is one guarded call.
type Case struct {
	Name string
	Side Side // of every operand's guard page
	// Known, if set, names a known bug that makes this case fail today;
	// the failure quotes it. The case still runs and still fails: the
	// mark explains, it does not excuse.
	Known string
	Run   func(a *Arena) error
}

// Group is a family of cases that one child process runs.
type Group struct {
	Name  string
	Cases []Case
	Full  bool // run every case under the race detector too (see raceStride)
}

const (
	envGroup = "LAPIS_GUARD_GROUP" // the group a child runs
	envFrom  = "LAPIS_GUARD_FROM"  // the index of its first case
	// envSerial, when set, runs the groups one after another instead of
	// in parallel: the arm64 Docker variant sets it, where qemu-user once
	// left a child deadlocked between fork and exec (the parent blocked
	// in os.StartProcess until the 20-minute timeout) while other groups'
	// goroutines ran; fewer running threads at each fork make that less
	// likely.
	envSerial = "LAPIS_GUARD_SERIAL"
	// maxRuns bounds the child processes of one group: each fault in C
	// costs one.
	maxRuns = 400
	// raceStride: under the race detector, which slows the cases several
	// times and does not watch mapped memory anyway, Run runs only every
	// raceStride-th case of each group (the same ones on every run); the
	// full tables run without -race.
	raceStride = 5
)

// selected reports whether case i runs in this build.
func (g Group) selected(i int) bool { return !raceEnabled || g.Full || i%raceStride == 0 }

// Run runs each group's cases in a child process and fails t for every
// case that faults, panics or returns an error. It must be called from a
// top-level test function (the child re-runs it with -test.run), and the
// groups must be built the same way on every run. In the child it runs
// the cases itself.
func Run(t *testing.T, groups ...Group) {
	if !Supported {
		t.Skip("guard pages need Linux")
	}
	if name, ok := os.LookupEnv(envGroup); ok {
		for _, g := range groups {
			if g.Name == name {
				child(g)
				return
			}
		}
		t.Fatalf("guard: no group %q", name)
	}
	if strings.Contains(t.Name(), "/") {
		t.Fatalf("guard: Run called from subtest %s; call it from a top-level test", t.Name())
	}
	_, serial := os.LookupEnv(envSerial)
	for _, g := range groups {
		t.Run(g.Name, func(t *testing.T) {
			if !serial {
				t.Parallel()
			}
			parent(t, g)
		})
	}
}

// child runs the cases from envFrom on, announcing each on stdout before
// it starts and its outcome after.
func child(g Group) {
	from, _ := strconv.Atoi(os.Getenv(envFrom))
	debug.SetPanicOnFault(true)
	out := os.Stdout // unbuffered: a line is out before the next call can crash
	live.Lock()
	live.w = out
	live.Unlock()
	for i := from; i < len(g.Cases); i++ {
		c := g.Cases[i]
		if !g.selected(i) {
			continue
		}
		fmt.Fprintf(out, "\nguard: begin %d %s\n", i, strconv.Quote(c.Name))
		if err := runCase(c); err != nil {
			fmt.Fprintf(out, "\nguard: fail %d %s\n", i, strconv.Quote(err.Error()))
		} else {
			fmt.Fprintf(out, "\nguard: ok %d\n", i)
		}
	}
	fmt.Fprintf(out, "\nguard: done\n")
}

// runCase runs c on a fresh arena, turning a panic (a fault in Go code
// included) into an error.
func runCase(c Case) (err error) {
	a := NewArena(c.Side)
	defer a.Free()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
			if f, ok := r.(interface{ Addr() uintptr }); ok {
				err = fmt.Errorf("fault at %#x, %s, in %s", f.Addr(), describeLive(f.Addr()), faultingFunc())
			}
		}
	}()
	return c.Run(a)
}

// faultingFunc returns the function that was running when the panicking
// fault happened: the caller of runtime.sigpanic.
func faultingFunc() string {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(1, pc)])
	sig := false
	for {
		f, more := frames.Next()
		if sig {
			return fmt.Sprintf("%s (%s:%d)", f.Function, f.File, f.Line)
		}
		sig = f.Function == "runtime.sigpanic"
		if !more {
			return "an unknown function"
		}
	}
}

// reporter is what parent needs of a *testing.T.
type reporter interface {
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Name() string
	Deadline() (time.Time, bool)
}

// parent runs g in child processes, starting a new one after each case
// that crashes its child, and reports the failing cases.
func parent(t reporter, g Group) {
	start := time.Now()
	failed, faults, runs := 0, 0, 0
	report := func(i int, msg string) {
		failed++
		c := g.Cases[i]
		if c.Known != "" {
			msg += "\n\tknown bug: " + c.Known
		}
		t.Errorf("case %s: %s", c.Name, msg)
	}
	passed := map[int]bool{}
	for from := 0; from < len(g.Cases); {
		if runs++; runs > maxRuns {
			t.Errorf("stopped after %d child processes; cases from %s on did not run", maxRuns, g.Cases[from].Name)
			break
		}
		stdout, stderr, err := spawn(t, g.Name, from)
		cur, done := -1, false
		var regions []*region
		sc := bufio.NewScanner(bytes.NewReader(stdout))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			f := strings.SplitN(sc.Text(), " ", 3)
			if len(f) < 2 || f[0] != "guard:" {
				continue
			}
			switch f[1] {
			case "begin":
				i, name := parseIndex(f), ""
				if k := strings.IndexByte(f[2], ' '); k >= 0 {
					name, _ = strconv.Unquote(f[2][k+1:])
				}
				if i < 0 || i >= len(g.Cases) || g.Cases[i].Name != name {
					t.Fatalf("the child's case %q (index %d) is not the parent's: the case table must not depend on the run", name, i)
				}
				cur, regions = i, nil
			case "region":
				if r, ok := parseRegion(f[2]); ok {
					regions = append(regions, r)
				}
			case "ok":
				passed[parseIndex(f)] = true
				cur = -1
			case "fail":
				i := parseIndex(f)
				msg := ""
				if k := strings.IndexByte(f[2], ' '); k >= 0 {
					msg, _ = strconv.Unquote(f[2][k+1:])
				}
				report(i, msg)
				cur = -1
			case "done":
				done = true
			}
		}
		if done && err == nil {
			break
		}
		if cur < 0 {
			t.Fatalf("child for %s (cases from %d) failed outside any case: %v\n%s", g.Name, from, err, tail(stdout, stderr))
		}
		faults++
		report(cur, "crashed the process: "+crashSummary(stderr, regions))
		from = cur + 1
	}
	ran := 0
	for i, c := range g.Cases {
		if g.selected(i) {
			ran++
		}
		if c.Known != "" && passed[i] {
			t.Logf("case %s passed although marked with a known bug (%s): remove the mark", c.Name, c.Known)
		}
	}
	t.Logf("%d of %d cases ran, %d failed (%d crashed a child), %d child processes, %v", ran, len(g.Cases), failed, faults, runs, time.Since(start).Round(time.Millisecond))
}

// spawn runs the test binary on group name from case from.
func spawn(t reporter, name string, from int) (stdout, stderr []byte, err error) {
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-5*time.Second))
		defer cancel()
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(top)+"$", "-test.count=1")
	// A race-enabled binary sleeps a second at exit unless told not to.
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(os.Environ(), envGroup+"="+name, envFrom+"="+strconv.Itoa(from), "GORACE="+gorace)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

func parseIndex(f []string) int {
	if len(f) < 3 {
		return -1
	}
	s, _, _ := strings.Cut(f[2], " ")
	i, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return i
}

// parseRegion reads a region line: lo hi elem side name.
func parseRegion(s string) (*region, bool) {
	f := strings.SplitN(s, " ", 5)
	if len(f) < 5 {
		return nil, false
	}
	lo, err1 := strconv.ParseUint(f[0], 0, 64)
	hi, err2 := strconv.ParseUint(f[1], 0, 64)
	elem, err3 := strconv.Atoi(f[2])
	name, err4 := strconv.Unquote(f[4])
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || elem <= 0 {
		return nil, false
	}
	side := Low
	if f[3] == "high" {
		side = High
	}
	return &region{name: name, lo: uintptr(lo), hi: uintptr(hi), elem: elem, side: side}, true
}

var (
	signalRE = regexp.MustCompile(`\b(SIG[A-Z]+)\b`)
	addrRE   = regexp.MustCompile(`\baddr=(0x[0-9a-f]+)`)
	cfuncRE  = regexp.MustCompile(`(?m)^[^\s]*\._Cfunc_([A-Za-z0-9_]+)\(`)
	goFrame  = regexp.MustCompile(`(?m)^(github\.com/lapis-go/lapis/[^\s(]+)\(`)
)

// crashSummary says how the child died: the signal, the address and the
// operand next to it, and the C function (cgo call) or Go function that
// was running.
func crashSummary(stderr []byte, regions []*region) string {
	var b strings.Builder
	sig, at := signalRE.FindSubmatch(stderr), addrRE.FindSubmatch(stderr)
	if sig != nil && at != nil {
		addr, _ := strconv.ParseUint(string(at[1]), 0, 64)
		fmt.Fprintf(&b, "%s at %s, %s", sig[1], at[1], describe(regions, uintptr(addr)))
	} else {
		first, _, _ := strings.Cut(strings.TrimSpace(string(stderr)), "\n")
		b.WriteString(first)
	}
	if m := cfuncRE.FindSubmatch(stderr); m != nil {
		fmt.Fprintf(&b, ", in C function %s", m[1])
	} else if m := goFrame.FindSubmatch(stderr); m != nil {
		fmt.Fprintf(&b, ", in %s", m[1])
	}
	return b.String()
}

// tail returns the end of the child's output, for errors outside cases.
func tail(stdout, stderr []byte) string {
	s := string(stdout) + string(stderr)
	if len(s) > 4000 {
		s = "..." + s[len(s)-4000:]
	}
	return s
}
