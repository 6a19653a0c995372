package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// numpy's side of bench: the jobs are timed in one Python process, after
// the Go ones, by the script below (the same timing rule as timeOp, on
// operands of the same shapes and kinds, made by numpy's own generator).

// numpyJob is one numpy measurement: what to time (JSON to the script),
// and where its result goes.
type numpyJob struct {
	Family string `json:"family"`
	Op     string `json:"op"`
	N      int    `json:"n"`
	Count  int    `json:"count"`
	work   float64
	index  int // in the measurements
}

// findNumpy returns the first of python3 (on PATH) and /usr/bin/python3
// that imports numpy, and a sentence for the report; "" when none does.
func findNumpy() (python, note string) {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		out, err := exec.Command(p, "-c", "import numpy; print(numpy.__version__)").Output()
		if err == nil {
			return p, fmt.Sprintf("numpy %s (%s)", strings.TrimSpace(string(out)), p)
		}
	}
	return "", "numpy: not found (python3 -c 'import numpy' fails), its column is skipped"
}

// runNumpy times the jobs in one run of python and returns each one's
// seconds per call. numpy's OpenBLAS runs threads threads per call.
func runNumpy(python string, jobs []numpyJob, budget time.Duration, threads int) ([]float64, error) {
	spec, err := json.Marshal(struct {
		Budget float64    `json:"budget"`
		Jobs   []numpyJob `json:"jobs"`
	}{budget.Seconds(), jobs})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-c", numpyScript)
	cmd.Stdin = bytes.NewReader(spec)
	cmd.Env = append(os.Environ(), "OPENBLAS_NUM_THREADS="+strconv.Itoa(threads), "OMP_NUM_THREADS="+strconv.Itoa(threads))
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

// numpyScript reads {"budget": s, "jobs": [...]} on stdin and prints the
// seconds per call of each job as a JSON list. Operations match the Go
// jobs: copy is np.ascontiguousarray(a.T) (numpy's transposing copy),
// gemm and small a @ b, lapack np.linalg.solve (one right-hand side),
// cholesky and eigh, batch and tiny np.matmul and np.linalg.solve on
// (count, n, n) stacks. numpy's functions are out of place, so they pay
// for their result's allocation where lapis restores its operands.
const numpyScript = `
import json, sys, time
import numpy as np

spec = json.load(sys.stdin)
budget = spec["budget"]
rng = np.random.default_rng(41)

def timeop(f):
    t = time.perf_counter(); f(); first = time.perf_counter() - t
    if first >= budget / 2:
        t = time.perf_counter(); f()
        return min(first, time.perf_counter() - t)
    reps = max(1, int(budget / 4 / max(first, 1e-9)))
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(reps):
            f()
        best = min(best, (time.perf_counter() - t) / reps)
    return best

def rand(*shape):
    return rng.random(shape) * 2 - 1

def spd(n):
    m = rand(n, n)
    return m @ m.T + n * np.eye(n)

def make(j):
    fam, op, n, count = j["family"], j["op"], j["n"], j["count"]
    if fam == "copy":
        a = rand(n, n)
        return lambda: np.ascontiguousarray(a.T)
    if fam in ("gemm", "small"):
        a, b = rand(n, n), rand(n, n)
        return lambda: a @ b
    if fam == "lapack":
        if op == "dgesv":
            a, b = rand(n, n) + n * np.eye(n), rand(n)
            return lambda: np.linalg.solve(a, b)
        if op == "dpotrf":
            a = spd(n)
            return lambda: np.linalg.cholesky(a)
        if op == "dsyevd":
            m = rand(n, n)
            a = m + m.T
            return lambda: np.linalg.eigh(a)
    if fam in ("batch", "tiny"):
        if op == "gemm":
            a, b = rand(count, n, n), rand(count, n, n)
            return lambda: np.matmul(a, b)
        if op == "solve":
            m = rand(count, n, n)
            a = m @ m.transpose(0, 2, 1) + n * np.eye(n)
            b = rand(count, n, 1)
            return lambda: np.linalg.solve(a, b)
    raise SystemExit("numpy: no job for %s %s" % (fam, op))

json.dump([timeop(make(j)) for j in spec["jobs"]], sys.stdout)
`

// plural says "1 thread", "2 threads".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
