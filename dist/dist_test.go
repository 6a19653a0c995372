package dist_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lapis-go/lapis/dist"
)

// The Go index maps agree with ScaLAPACK's TOOLS (INDXG2P, INDXG2L,
// INDXL2G, NUMROC) over every index, block size and grid extent here.
func TestIndexMaps(t *testing.T) {
	for np := 1; np <= 5; np++ {
		for nb := 1; nb <= 7; nb++ {
			for ig := 0; ig < 60; ig++ {
				for iproc := 0; iproc < np; iproc++ {
					p, l, g, nr := dist.LibMaps(ig, nb, iproc, np)
					if gp := dist.G2P(ig, nb, np); gp != p {
						t.Fatalf("g2p(%d, nb %d, np %d) = %d, INDXG2P %d", ig, nb, np, gp, p)
					}
					if gl := dist.G2L(ig, nb, np); gl != l {
						t.Fatalf("g2l(%d, nb %d, np %d) = %d, INDXG2L %d", ig, nb, np, gl, l)
					}
					if gg := dist.L2G(ig, nb, iproc, np); gg != g {
						t.Fatalf("l2g(%d, nb %d, p %d of %d) = %d, INDXL2G %d", ig, nb, iproc, np, gg, g)
					}
					if gn := dist.Numroc(ig, nb, iproc, np); gn != nr {
						t.Fatalf("numroc(%d, nb %d, p %d of %d) = %d, NUMROC %d", ig, nb, iproc, np, gn, nr)
					}
				}
			}
		}
	}
}

// Before Init every call fails with ErrState instead of reaching MPI (this
// test process never initialises MPI: the multi-rank tests run mpitest).
func TestBeforeInit(t *testing.T) {
	if _, err := dist.NewGrid(1, 1); !errors.Is(err, dist.ErrState) {
		t.Errorf("NewGrid before Init: %v", err)
	}
	if err := dist.Barrier(); !errors.Is(err, dist.ErrState) {
		t.Errorf("Barrier before Init: %v", err)
	}
	if err := dist.Finalize(); !errors.Is(err, dist.ErrState) {
		t.Errorf("Finalize before Init: %v", err)
	}
	if dist.ThreadLevel() != -1 {
		t.Errorf("ThreadLevel before Init = %d", dist.ThreadLevel())
	}
}

var (
	buildOnce sync.Once
	helper    string
	buildErr  error
)

// mpitest builds ./internal/mpitest once (with -race when this test runs
// with it; GOEXPERIMENT, e.g. cgocheck2, comes through the environment)
// and returns its path. It skips the test when mpirun is missing.
func mpitest(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("mpirun"); err != nil {
		t.Skip("mpirun not found (scripts/setup.sh installs openmpi-bin): multi-rank tests skipped")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lapis-mpitest")
		if err != nil {
			buildErr = err
			return
		}
		helper = filepath.Join(dir, "mpitest")
		args := []string{"build", "-o", helper}
		if raceEnabled {
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, "./internal/mpitest")...).CombinedOutput()
		if err != nil {
			buildErr = errors.New("go build ./internal/mpitest: " + err.Error() + "\n" + string(out))
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return helper
}

// mpirun runs the helper's scenario (its name and arguments) on np ranks
// on this machine under a timeout (a hang fails the test) and returns its
// output and exit code.
func mpirun(t *testing.T, np int, scenario string, timeout time.Duration) (string, int) {
	t.Helper()
	bin := mpitest(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "mpirun", append([]string{"--oversubscribe", "-np", itoa(np), bin}, strings.Fields(scenario)...)...)
	cmd.Env = append(os.Environ(), "OPENBLAS_NUM_THREADS=1",
		// Containers forbid the cross-process memory copy Open MPI's
		// shared-memory transport tries first; say so rather than warn.
		"OMPI_MCA_btl_vader_single_copy_mechanism=none")
	if os.Geteuid() == 0 {
		cmd.Env = append(cmd.Env, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	}
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("mpirun -np %d mpitest %s did not finish within %v (hang):\n%s", np, scenario, timeout, out)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("mpirun: %v", err)
	}
	return string(out), code
}

func itoa(n int) string { return string(rune('0' + n)) }

// The suite (grids 1x1, 1x2, 2x1, 2x2, 1x4, 4x1, 1x3 as the job allows;
// n 1, 13, 64 in blocks of 1, 5, 16; every routine for float64 and
// complex128 against lapack, plus singular, indefinite and rank-deficient
// matrices reported on every rank, and workspaces asked once per shape)
// on 1, 2 and 4 ranks, each under a timeout that fails the test. The
// timeout detects a hang, not slowness: alone on 2 cores the three runs
// take about 30 s under -race, but beside other CPU-bound work MPI's
// waiting ranks take the cores from the ones they wait for and the same
// runs take over 10 minutes (docs/dist.md#tests: run them alone). The
// three timeouts fit within scripts/test.sh's 15-minute package limit.
func TestSuite(t *testing.T) {
	for _, np := range []int{1, 2, 4} {
		out, code := mpirun(t, np, "suite", 4*time.Minute)
		if code != 0 || !strings.Contains(out, "PASS suite") {
			t.Errorf("mpirun -np %d mpitest suite: exit %d\n%s", np, code, out)
		}
	}
}

// MPI_Init keeps Go's signal handlers, at thread level FUNNELED.
func TestInfo(t *testing.T) {
	out, code := mpirun(t, 2, "info", time.Minute)
	if code != 0 || strings.Count(out, "thread level 1, signal handlers changed by MPI_Init: none") != 2 {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// A nil dereference on rank 0 after MPI_Init is still Go's panic: a Go
// stack trace and exit 2 (not Open MPI's backtrace), the job ends though
// rank 1 waits in a barrier (no hang), and the panic is recoverable.
func TestSegfault(t *testing.T) {
	out, code := mpirun(t, 2, "segv", time.Minute)
	if code != 2 || !strings.Contains(out, "panic: runtime error: invalid memory address or nil pointer dereference") ||
		!strings.Contains(out, "goroutine 1 [running]") || !strings.Contains(out, "mpitest/main.go") {
		t.Errorf("exit %d\n%s", code, out)
	}
	out, code = mpirun(t, 2, "segv-recover", time.Minute)
	if code != 0 || strings.Count(out, "recovered: runtime error: invalid memory address") != 2 {
		t.Errorf("segv-recover: exit %d\n%s", code, out)
	}
}

// A rank that exits while the others wait in a collective ends the job
// with its exit code instead of leaving the others hanging.
func TestRankExits(t *testing.T) {
	out, code := mpirun(t, 4, "rank-exits", time.Minute)
	if code != 3 || strings.Contains(out, "passed the barrier") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// An argument wrong on one rank only (a Wrap piece of another shape, a w
// too short on rank 0, a root out of range, ...), for every entry point,
// is an error on every rank naming the argument (and, on the others, the
// rank), not a hang; ranks that pass different global arguments all get
// lapis.ErrInvalid. On 2 ranks, and on 4 with the last outside the grid.
func TestOneRankBad(t *testing.T) {
	for _, np := range []int{2, 4} {
		out, code := mpirun(t, np, "onebad", time.Minute)
		if code != 0 || !strings.Contains(out, "PASS onebad") {
			t.Errorf("mpirun -np %d mpitest onebad: exit %d\n%s", np, code, out)
		}
	}
}

// A NaN or an infinity in what a routine reads is an error matching
// lapis.ErrNotFinite on every rank, with the same text, naming the
// operand; one in a triangle a routine does not read is not an error. On
// 1, 2 and 4 ranks (grids as the suite's).
func TestNotFinite(t *testing.T) {
	for _, np := range []int{1, 2, 4} {
		out, code := mpirun(t, np, "notfinite", 3*time.Minute)
		if code != 0 || !strings.Contains(out, "PASS notfinite") {
			t.Errorf("mpirun -np %d mpitest notfinite: exit %d\n%s", np, code, out)
		}
	}
}
