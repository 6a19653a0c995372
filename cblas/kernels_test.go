package cblas

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/rt/coreset"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/views"
)

// envKernelsChild makes the test binary a child of TestKernelSwitch: it
// reports KernelSet and Info and checks a few products against gonum.
const envKernelsChild = "LAPIS_TEST_KERNELS_CHILD"

type kernelReport struct {
	Kernels lapis.KernelChoice
	Core    string // lapis.Info().Core
	Info    string // lapis.Info().String()
	Agree   string // "" when the products agree with gonum, else what differed
}

// TestKernelsChild is the child's body; it does nothing in a normal run.
func TestKernelsChild(t *testing.T) {
	if os.Getenv(envKernelsChild) == "" {
		t.Skip("runs as TestKernelSwitch's child only")
	}
	r := kernelReport{Kernels: lapis.KernelSet(), Core: lapis.Info().Core, Info: lapis.Info().String(), Agree: agreeWithGonum()}
	b, _ := json.Marshal(r)
	os.Stdout.Write(append([]byte("REPORT "), append(b, '\n')...))
}

// agreeWithGonum computes float64 and complex128 products large enough
// for OpenBLAS's kernels (ForceC) and compares them with gonum's.
func agreeWithGonum() string {
	rng := rand.New(rand.NewPCG(29, 29))
	for _, n := range []int{7, 64, 129} {
		a, b := tm.New[float64](rng, n, n, tm.ColPacked), tm.New[float64](rng, n, n, tm.ColPacked)
		c, _ := views.Zeros[float64](n, n)
		if err := Gemm(1, a.V, b.V, 0, c.View(), lapis.ForceC()); err != nil {
			return err.Error()
		}
		want := make([]float64, n*n)
		// Column-major a b is row-major b^T a^T.
		gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, b.V.ToColMajor().Data(), n, a.V.ToColMajor().Data(), n, 0, want, n)
		for i, w := range want {
			if d := c.Data()[i] - w; d*d > 1e-20*float64(n*n) {
				return "dgemm differs from gonum's"
			}
		}
		c.Release()
		x := newVector[complex128](rng, n, 1)
		y := newVector[complex128](rng, n, 1)
		got, err := Dot(x.V.Conj(), y.V, lapis.ForceC())
		if err != nil {
			return err.Error()
		}
		xs, ys := x.V.ToColMajor().Data(), y.V.ToColMajor().Data()
		if d := got - (gonum.Implementation{}).Zdotc(n, xs, 1, ys, 1); real(d)*real(d)+imag(d)*imag(d) > 1e-20*float64(n) {
			return "zdotc differs from gonum's"
		}
	}
	return ""
}

// runKernelsChild runs the child with the environment's OPENBLAS_* and
// LAPIS_OPENBLAS_CORE replaced by env.
func runKernelsChild(t *testing.T, env ...string) kernelReport {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKernelsChild$", "-test.count=1")
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "OPENBLAS_CORETYPE=") && !strings.HasPrefix(e, coreset.EnvVar+"=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, envKernelsChild+"=1")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child with %v: %v\n%s", env, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "REPORT "); ok {
			var r kernelReport
			if err := json.Unmarshal([]byte(rest), &r); err != nil {
				t.Fatal(err)
			}
			if r.Agree != "" {
				t.Errorf("child with %v on %s: %s", env, r.Kernels.InUse, r.Agree)
			}
			if r.Core != r.Kernels.InUse || !strings.Contains(r.Info, r.Kernels.Reason) {
				t.Errorf("child with %v: Info reports core %s and %q; KernelSet %+v", env, r.Core, r.Info, r.Kernels)
			}
			return r
		}
	}
	t.Fatalf("child with %v printed no report:\n%s", env, out)
	return kernelReport{}
}

// TestKernelSwitch forces OpenBLAS onto Prescott through the environment
// in a child process and checks that lapis moves it to the set the
// decision table gives for this CPU (auto), keeps it (off, or
// OPENBLAS_CORETYPE alone), or runs a named set, and that the products
// agree with gonum on each.
func TestKernelSwitch(t *testing.T) {
	info := lapis.Info()
	if info.Library != "OpenBLAS" || !strings.Contains(info.Config, "DYNAMIC_ARCH") || runtime.GOARCH != "amd64" {
		t.Skipf("%s %s (%s): no kernel sets to switch between", info.Library, info.Version, info.Config)
	}
	want := coreset.Decide(coreset.Input{
		Library: info.Library, Version: info.Version, Config: info.Config, Chosen: "Prescott",
		CPU: coreset.ThisCPU(runtime.GOARCH), Setting: "auto", CoretypeSet: true, Coretype: "Prescott",
		Present: func(coreset.Set) bool { return true },
	}).Target
	if want == "" {
		t.Skipf("this x86-64-v%d CPU has no set above Prescott", lapis.KernelSet().CPULevel)
	}

	r := runKernelsChild(t, "OPENBLAS_CORETYPE=Prescott", coreset.EnvVar+"=auto")
	if r.Kernels.Chosen != "Prescott" || r.Kernels.InUse != want || !r.Kernels.Switched || r.Kernels.Below() {
		t.Errorf("auto from Prescott: %+v; want %s in use", r.Kernels, want)
	}
	if !strings.Contains(r.Info, "lapis chose "+want) {
		t.Errorf("auto from Prescott: Info says %q", r.Info)
	}

	r = runKernelsChild(t, "OPENBLAS_CORETYPE=Prescott")
	if r.Kernels.InUse != "Prescott" || r.Kernels.Switched || !strings.Contains(r.Kernels.Reason, "OPENBLAS_CORETYPE=Prescott is set") {
		t.Errorf("the user's OPENBLAS_CORETYPE: %+v; want Prescott kept", r.Kernels)
	}

	r = runKernelsChild(t, "OPENBLAS_CORETYPE=Prescott", coreset.EnvVar+"=off")
	if r.Kernels.InUse != "Prescott" || r.Kernels.Switched || !r.Kernels.Below() {
		t.Errorf("off: %+v; want Prescott kept, below the CPU", r.Kernels)
	}

	r = runKernelsChild(t, "OPENBLAS_CORETYPE=Prescott", coreset.EnvVar+"=nehalem")
	if r.Kernels.InUse != "Nehalem" || !r.Kernels.Switched {
		t.Errorf("named Nehalem: %+v", r.Kernels)
	}

	r = runKernelsChild(t, "OPENBLAS_CORETYPE=Prescott", coreset.EnvVar+"=NoSuchCore")
	if r.Kernels.InUse != "Prescott" || !strings.Contains(r.Kernels.Reason, "names no kernel set") {
		t.Errorf("an unknown name: %+v", r.Kernels)
	}
}

// TestKernelSetConsistent: the set in use is what Info reports, and the
// over-read workarounds follow it.
func TestKernelSetConsistent(t *testing.T) {
	k := lapis.KernelSet()
	t.Logf("kernel set: %+v", k)
	if lapis.Info().Library == "OpenBLAS" && (k.InUse != lapis.Info().Core || k.Reason == "") {
		t.Errorf("KernelSet %+v, lapis.Info().Core %s", k, lapis.Info().Core)
	}
	// scripts/kernel-sets.sh runs the suites under each set and says
	// which one each run must be on.
	if want := os.Getenv("LAPIS_TEST_WANT_CORE"); want != "" && k.InUse != want {
		t.Fatalf("running on %s, want %s (%s)", k.InUse, want, k.Reason)
	}
	// KernelSets lists x86-64 sets only (nil on other CPUs: on arm64
	// OpenBLAS's choice is kept and lapis has no table of its sets).
	sets := lapis.KernelSets()
	if runtime.GOARCH != "amd64" && sets != nil {
		t.Errorf("KernelSets %v on %s, want nil", sets, runtime.GOARCH)
	}
	if runtime.GOARCH == "amd64" && lapis.Info().Library == "OpenBLAS" && strings.Contains(lapis.Info().Config, "DYNAMIC_ARCH") && !slices.Contains(sets, k.InUse) {
		t.Errorf("KernelSets %v lacks the set in use, %s", sets, k.InUse)
	}
	if blasgo.RealSymvOverRead != coreset.RealSymvOverRead(k.InUse) {
		t.Errorf("blasgo.RealSymvOverRead %v on %s", blasgo.RealSymvOverRead, k.InUse)
	}
}
