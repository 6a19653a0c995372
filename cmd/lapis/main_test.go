package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/bench/family"
	"github.com/lapis-go/lapis/cblas"
)

// envCLIChild, set to a command line (words separated by "|"), makes the
// test binary run it as lapis would and exit: for cases that need the
// process to start with another environment (the kernel set is chosen
// as cblas is initialised).
const envCLIChild = "LAPIS_TEST_CLI"

func TestMain(m *testing.M) {
	probeChild() // check's guard-page probe re-runs this binary as its child
	if args := os.Getenv(envCLIChild); args != "" {
		os.Exit(run(strings.Split(args, "|"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// lapisChild runs one command line in a new process with env added to
// the environment (OPENBLAS_CORETYPE and LAPIS_OPENBLAS_CORE dropped
// first) and returns its exit status and output.
func lapisChild(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "OPENBLAS_CORETYPE=") && !strings.HasPrefix(e, "LAPIS_OPENBLAS_CORE=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(append(cmd.Env, env...), envCLIChild+"="+strings.Join(args, "|"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// lapis runs one command line and returns its exit status and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestVerbs(t *testing.T) {
	if code, _, stderr := runCLI(t); code != 2 || !strings.Contains(stderr, "usage") {
		t.Errorf("no verb: status %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "frobnicate"); code != 2 || !strings.Contains(stderr, `unknown verb "frobnicate"`) {
		t.Errorf("unknown verb: status %d, stderr %q", code, stderr)
	}
	if code, stdout, _ := runCLI(t, "help"); code != 0 || !strings.Contains(stdout, "check") {
		t.Errorf("help: status %d, %q", code, stdout)
	}
	if code, _, _ := runCLI(t, "info", "-nosuchflag"); code != 2 {
		t.Errorf("bad flag: status %d", code)
	}
}

func TestInfo(t *testing.T) {
	code, out, _ := runCLI(t, "info")
	if code != 0 {
		t.Fatalf("status %d", code)
	}
	ci := lapis.Info()
	for _, want := range []string{"library:", "config:", "core (kernels):", "threads:", "integer:", "CPU:", "CPU features:", "caches:", "thread policy:", "blas_threads", "environment:", "shared objects loaded:", ci.Library} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	if ci.Path != "" && !strings.Contains(out, ci.Path+"   <- BLAS") {
		t.Errorf("info does not mark the BLAS library %s among the loaded objects:\n%s", ci.Path, out)
	}
	t.Logf("\n%s", out)

	code, out, _ = runCLI(t, "info", "-json")
	if code != 0 {
		t.Fatalf("-json: status %d", code)
	}
	var info Info
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("-json does not decode: %v\n%s", err, out)
	}
	if info.Library == "" || info.Library != ci.Library || info.IntBits != cblas.IntBits || info.Threads < 1 || info.Threading == "" {
		t.Errorf("-json: %+v", info)
	}
	if info.CPU.Model == "" || info.CPU.LogicalCores < 1 || len(info.Policy) == 0 || info.Go.GOMAXPROCS < 1 {
		t.Errorf("-json: cpu %+v, policy %v, go %+v", info.CPU, info.Policy, info.Go)
	}
	if _, err := os.Stat("/proc/self/maps"); err == nil {
		found := false
		for _, o := range info.Loaded {
			found = found || o == ci.Path
		}
		if ci.Path != "" && !found {
			t.Errorf("-json: %s not among the loaded objects %v", ci.Path, info.Loaded)
		}
	}
}

func TestParseMaps(t *testing.T) {
	maps := `55d0c0a00000-55d0c0a22000 r--p 00000000 08:01 123 /usr/local/bin/lapis
7f1c2a000000-7f1c2a021000 rw-p 00000000 00:00 0
7f1c2b000000-7f1c2b100000 r-xp 00000000 08:01 456 /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so
7f1c2b100000-7f1c2b200000 r--p 00100000 08:01 456 /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so
7f1c2c000000-7f1c2c100000 r-xp 00000000 08:01 789 /usr/lib/x86_64-linux-gnu/libc.so.6
7f1c2d000000-7f1c2d001000 r-xp 00000000 08:01 790 /opt/my libs/libfoo.so
7ffd1a000000-7ffd1a021000 rw-p 00000000 00:00 0 [stack]
7ffd1b000000-7ffd1b002000 r-xp 00000000 00:00 0 [vdso]
`
	got := parseMaps(strings.NewReader(maps))
	want := []string{"/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/opt/my libs/libfoo.so"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("parseMaps = %q, want %q", got, want)
	}
	env := blasEnv([]string{"OPENBLAS_CORETYPE=Haswell", "HOME=/root", "OMP_NUM_THREADS=1", "GOMAXPROCS=2", "PATH=/bin"})
	if len(env) != 3 || env["OPENBLAS_CORETYPE"] != "Haswell" || env["OMP_NUM_THREADS"] != "1" || env["GOMAXPROCS"] != "2" {
		t.Errorf("blasEnv = %v", env)
	}
}

// knownDefect reports whether a failed check is a library defect that
// lapis does not work around and that this library is known to have: the
// check is right to fail (the Docker matrix runs OpenBLAS 0.3.21 with the
// kernels the CPU picks, Cooperlake on a Cooper Lake Xeon). It restates
// the conditions, so that a Known the check sets wrongly fails the test.
func knownDefect(r Result) bool {
	info := lapis.Info()
	switch {
	case strings.HasPrefix(r.Name, "concurrent"):
		return info.Library == "OpenBLAS" && info.Parallel == 0 && r.Known == "OpenMathLib/OpenBLAS#2126"
	}
	return false
}

func TestCheck(t *testing.T) {
	start := time.Now()
	code, out, stderr := runCLI(t, "check", "-json")
	var rep Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("-json does not decode: %v\n%s\n%s", err, out, stderr)
	}
	if len(rep.Checks) != len(checks()) || rep.Library == "" {
		t.Fatalf("%d checks reported of %d; library %q", len(rep.Checks), len(checks()), rep.Library)
	}
	failed := 0
	for _, r := range rep.Checks {
		t.Logf("%-8s %-40s %s (%.2fs)", r.Status, r.Name, r.Detail, r.Seconds)
		switch r.Status {
		case statusOK, statusAvoided, statusWarn:
			if r.Cases == 0 {
				t.Errorf("%s: %s with no cases", r.Name, r.Status)
			}
		case statusSkip:
		case statusWrong, statusCrash:
			failed++
			if !knownDefect(r) {
				t.Errorf("%s: %s: %s", r.Name, r.Status, r.Detail)
			}
		default:
			t.Errorf("%s: status %q", r.Name, r.Status)
		}
	}
	if (failed > 0) != (code == 1) || rep.Failed != failed {
		t.Errorf("exit status %d with %d failed checks (report says %d)", code, failed, rep.Failed)
	}
	if rep.Known != failed {
		t.Errorf("%d failed checks, %d of them known defects", failed, rep.Known)
	}
	t.Logf("check took %v", time.Since(start))
}

// TestCheckKernelSet: check reports the kernel set as avoided when lapis
// moved OpenBLAS off a set below the CPU, and warns (exit status 0) when
// it was told not to.
func TestCheckKernelSet(t *testing.T) {
	k := lapis.KernelSet()
	if k.InUse == "" || k.CPULevel < 2 {
		t.Skipf("no kernel sets to choose between: %s", k.Reason)
	}
	for _, c := range []struct {
		setting, status string
	}{{"auto", statusAvoided}, {"off", statusWarn}} {
		code, out, stderr := lapisChild(t, []string{"OPENBLAS_CORETYPE=Prescott", "LAPIS_OPENBLAS_CORE=" + c.setting}, "check", "-json", "-run", "kernel set")
		var rep Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("-json does not decode: %v\n%s\n%s", err, out, stderr)
		}
		if code != 0 || len(rep.Checks) != 1 || rep.Checks[0].Status != c.status {
			t.Errorf("LAPIS_OPENBLAS_CORE=%s from Prescott: exit %d, %+v; want %s", c.setting, code, rep.Checks, c.status)
		}
		_, info, _ := lapisChild(t, []string{"OPENBLAS_CORETYPE=Prescott", "LAPIS_OPENBLAS_CORE=" + c.setting}, "info")
		if warned := strings.Contains(info, "WARNING"); warned != (c.status == statusWarn) || !strings.Contains(info, "chosen:") {
			t.Errorf("LAPIS_OPENBLAS_CORE=%s from Prescott: info says\n%s", c.setting, info)
		}
	}
}

// TestCheckReportsWrong injects a wrong result and expects WRONG and exit
// status 1, in text and JSON.
func TestCheckReportsWrong(t *testing.T) {
	injectWrong = "gemm/float64"
	defer func() { injectWrong = "" }()
	code, out, _ := runCLI(t, "check", "-run", "^gemm/float64$")
	if code != 1 || !strings.Contains(out, "WRONG    gemm/float64") || !strings.Contains(out, "0 ok, 1 WRONG") {
		t.Errorf("status %d:\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "check", "-known-ok", "-run", "^gemm/float64$"); code != 1 {
		t.Errorf("-known-ok with an injected (unknown) wrong result: status %d, want 1", code)
	}
	for _, c := range []struct {
		failed, known int
		knownOK       bool
		want          int
	}{{0, 0, false, 0}, {0, 0, true, 0}, {1, 1, false, 1}, {1, 1, true, 0}, {2, 1, true, 1}} {
		if got := exitStatus(Report{Failed: c.failed, Known: c.known}, c.knownOK); got != c.want {
			t.Errorf("exitStatus(%d failed, %d known, -known-ok %v) = %d, want %d", c.failed, c.known, c.knownOK, got, c.want)
		}
	}
	code, out, _ = runCLI(t, "check", "-json", "-run", "^gemm/float64$")
	var rep Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || rep.Failed != 1 || rep.Checks[0].Status != statusWrong {
		t.Errorf("-json: status %d, err %v:\n%s", code, err, out)
	}
}

// TestCheckReportsCollapse injects a collapse (each call under lapis's
// policy made 20 times its one-thread time) into the threads check and
// expects WRONG naming it.
func TestCheckReportsCollapse(t *testing.T) {
	injectWrong = "threads under a busy goroutine"
	defer func() { injectWrong = "" }()
	code, out, _ := runCLI(t, "check", "-run", "^threads")
	if code != 1 || !strings.Contains(out, "WRONG    threads under a busy goroutine") || !strings.Contains(out, "threads collapse under a busy goroutine: gesv n=256") {
		t.Errorf("status %d:\n%s", code, out)
	}
}

// TestCheckReportsCrash makes the probe child die in a case and expects
// CRASH naming that case, with the cases after it still run.
func TestCheckReportsCrash(t *testing.T) {
	t.Setenv(envProbeDie, "3")
	code, out, _ := runCLI(t, "check", "-run", "^guard")
	name := probeCases()[3].name
	if code != 1 || !strings.Contains(out, "CRASH") || !strings.Contains(out, "1 of ") || !strings.Contains(out, name) {
		t.Errorf("status %d, want CRASH in %q:\n%s", code, name, out)
	}
	if strings.Contains(out, "1 of 1 cases") {
		t.Errorf("the cases after the crash did not run:\n%s", out)
	}
}

// TestBench runs bench -quick with every family and checks the tables,
// the files -out writes (Markdown, JSON, go test -bench text, charts), -json and
// -benchfmt, and that bad flags are refused.
func TestBench(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	// -quick's sizes, with a shorter time per figure than its 15 ms to
	// keep the test short (under -race too).
	code, out, stderr := runCLI(t, "bench", "-quick", "-time", "3ms", "-out", dir)
	took := time.Since(start)
	if code != 0 {
		t.Fatalf("status %d: %s", code, stderr)
	}
	// How long it took is logged, not asserted (speed lives in
	// benchmarks).
	t.Logf("bench -quick took %v\n%s", took, out)
	if strings.Contains(stderr, "\r") {
		t.Errorf("progress written to a stderr that is not a terminal:\n%q", stderr)
	}
	python, _ := family.FindNumpy()
	for _, f := range family.All() {
		if !strings.Contains(out, "### "+f.Name+": ") {
			t.Errorf("bench output has no table for %s", f.Name)
		}
		for _, n := range f.Quick {
			if !strings.Contains(out, fmt.Sprintf("| %d ", n)) {
				t.Errorf("bench output has no row n = %d for %s", n, f.Name)
			}
		}
		if python != "" && f.Name != "threads" && !strings.Contains(out, " numpy |") {
			t.Errorf("numpy (%s) is there but has no column", python)
		}
	}
	// bench.md is the printed tables with a link to each family's chart
	// after its table; the charts are PNGs of the size WriteChart promises.
	md, err := os.ReadFile(filepath.Join(dir, "bench.md"))
	if err != nil {
		t.Fatal(err)
	}
	if unlinked := regexp.MustCompile(`\n\n!\[[^\n]*\]\(\w+\.png\)\n`).ReplaceAllString(string(md), "\n"); unlinked != out {
		t.Errorf("bench.md less its chart links differs from the printed tables:\n%s", md)
	}
	var fromFile []family.Measurement
	if data, err := os.ReadFile(filepath.Join(dir, "bench.json")); err != nil || json.Unmarshal(data, &fromFile) != nil || len(fromFile) == 0 {
		t.Errorf("bench.json: %v, %d measurements", err, len(fromFile))
	}
	for _, f := range family.All() {
		if !strings.Contains(string(md), "]("+family.ChartFile(f)+")") {
			t.Errorf("bench.md does not link %s", family.ChartFile(f))
		}
		r, err := os.Open(filepath.Join(dir, family.ChartFile(f)))
		if err != nil {
			t.Error(err)
			continue
		}
		img, err := png.Decode(r)
		r.Close()
		if w, h := family.ChartSize(f, fromFile); err != nil || img.Bounds().Dx() != w || img.Bounds().Dy() != h {
			t.Errorf("%s: %v, want a %d x %d PNG", family.ChartFile(f), err, w, h)
		}
	}
	if txt, err := os.ReadFile(filepath.Join(dir, "bench.txt")); err != nil || strings.Count(string(txt), "\nBenchmarkFamilies/family=") != len(fromFile) {
		t.Errorf("bench.txt: %v, want a benchmark line per measurement (%d):\n%s", err, len(fromFile), txt)
	}

	code, out, _ = runCLI(t, "bench", "-families", "gemm,tiny,threads", "-sizes", "gemm=8,16", "-sizes", "tiny=2", "-sizes", "threads=16", "-time", "1ms", "-json")
	var ms []family.Measurement
	if err := json.Unmarshal([]byte(out), &ms); err != nil || code != 0 {
		t.Fatalf("-json: status %d, %v\n%s", code, err, out)
	}
	perFamily := map[string]int{}
	for _, m := range ms {
		perFamily[m.Family]++
		if !(m.Seconds > 0) || !(m.Value > 0) || m.Unit == "" || (m.Family == "tiny" && m.Count != 10000) {
			t.Errorf("measurement %+v", m)
		}
	}
	threadsImpls := 4 // lapis default and one thread, C at the full count, gonum
	if lapis.SetThreads(lapis.AutoThreads) != nil {
		threadsImpls = 3 // not OpenBLAS: lapis and C on the library's own threads, gonum
	}
	if len(perFamily) != 3 || perFamily["gemm"] < 2*3 || perFamily["tiny"] < 2*3 || perFamily["threads"] != threadsImpls {
		t.Errorf("measurements per family %v", perFamily)
	}
	code, out, _ = runCLI(t, "bench", "-families", "small", "-sizes", "small=4", "-time", "1ms", "-nonumpy", "-benchfmt")
	if code != 0 || !strings.Contains(out, "BenchmarkFamilies/family=small/op=dgemm/n=4/impl=lapis-") || !strings.Contains(out, " ns/op") {
		t.Errorf("-benchfmt: status %d:\n%s", code, out)
	}
	for _, bad := range [][]string{{"-sizes", "gemm=8,x"}, {"-sizes", "nosuch=8"}, {"-families", "gemm,nosuch"}, {"-count", "-1"}} {
		if code, _, _ := runCLI(t, append([]string{"bench"}, bad...)...); code != 2 {
			t.Errorf("bench %v: status %d, want 2", bad, code)
		}
	}
}

// TestKernelTally: the kernel-set check names the CPU by its x86-64
// level on x86-64 and by its architecture elsewhere (on arm64 it said
// "this x86-64-v0 CPU").
func TestKernelTally(t *testing.T) {
	for _, c := range []struct {
		k      lapis.KernelChoice
		goarch string
		status string
		detail string
	}{
		{lapis.KernelChoice{}, "amd64", statusSkip, ""},
		{lapis.KernelChoice{InUse: "NEOVERSEN1", Chosen: "NEOVERSEN1", Reason: "lapis chooses kernel sets on x86-64 only (this is arm64)"},
			"arm64", "", "NEOVERSEN1 on this arm64 CPU: lapis chooses kernel sets on x86-64 only (this is arm64)"},
		{lapis.KernelChoice{InUse: "SkylakeX", Chosen: "SkylakeX", CPULevel: 4, InUseLevel: 4, Reason: "matches"},
			"amd64", "", "SkylakeX on this x86-64-v4 CPU: matches"},
		{lapis.KernelChoice{InUse: "SkylakeX", Chosen: "Prescott", Switched: true, CPULevel: 4, InUseLevel: 4, Reason: "moved"},
			"amd64", statusAvoided, "SkylakeX in use on this x86-64-v4 CPU"},
		{lapis.KernelChoice{InUse: "Prescott", Chosen: "Prescott", CPULevel: 4, InUseLevel: 1, Reason: "kept"},
			"amd64", statusWarn, "Prescott needs only x86-64-v1, this CPU is x86-64-v4: BLAS runs slower than it could; kept. Unset OPENBLAS_CORETYPE, or set LAPIS_OPENBLAS_CORE=auto"},
	} {
		var tl tally
		kernelTally(&tl, c.k, c.goarch)
		if tl.status != c.status || tl.detail != c.detail {
			t.Errorf("%+v on %s: status %q detail %q, want %q %q", c.k, c.goarch, tl.status, tl.detail, c.status, c.detail)
		}
	}
}
