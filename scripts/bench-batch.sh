#!/usr/bin/env bash
# bench-batch.sh: package batch against its anchors, measured in one run,
# float64, printed as tables of ratios (medians of COUNT passes, default 4).
# OpenBLAS runs one thread; impl=lapis uses one worker, lapis-w2 two.
#   scripts/bench-batch.sh
#   COUNT=8 scripts/bench-batch.sh
#   TINY='t=float64/layout=compact/' BENCHTIME=200x scripts/bench-batch.sh
# TINY runs only BenchmarkBatchTiny's cases matching that sub-benchmark
# pattern (and numpy's tiny stacks); BENCHTIME is go test's -benchtime;
# RAW=file keeps every measurement line (go test's and numpy's) there.
# numpy's np.matmul and np.linalg.solve on the same stacks ((count, n, n)
# arrays) are timed too when /usr/bin/python3 has numpy (apt-get install
# python3-numpy); otherwise they are skipped with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-4}
. scripts/kernels.sh
export OPENBLAS_NUM_THREADS=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

pattern='^Benchmark(BatchGemm|BatchSolve|BatchTiny)$'
if [ -n "${TINY-}" ]; then
  pattern="^BenchmarkBatchTiny\$/$TINY"
fi
# numpy_pass times numpy's matmul, solve and the tiny stacks once each
# (one pass), in go test's output format.
numpy_pass() {
  OPENBLAS_CORETYPE=$ANCHOR_CORETYPE /usr/bin/python3 - "${TINY:+tiny}" <<'PY'
import sys, time
import numpy as np
tiny_only = sys.argv[1] == "tiny"
rng = np.random.default_rng(1)
def bench(name, f, reps, aliases=()):
    f()
    t = time.perf_counter()
    for _ in range(reps):
        f()
    ns = (time.perf_counter() - t) / reps * 1e9
    for nm in (name,) + tuple(aliases):
        print(f"Benchmark{nm}/impl=numpy 1 {ns:.0f} ns/op")
for n, cnt in ((4, 10000), (16, 10000), (64, 1000)):
    if tiny_only:
        break
    a, b = rng.random((cnt, n, n)), rng.random((cnt, n, n))
    bench(f"BatchGemm/op=gemm/n={n}/count={cnt}", lambda: np.matmul(a, b), 20 if n < 64 else 3)
if not tiny_only:
    a = rng.random((10000, 8, 8)) + 16 * np.eye(8)
    b = rng.random((10000, 8, 1))
    bench("BatchSolve/op=solve/n=8/count=10000", lambda: np.linalg.solve(a, b), 10)
# BenchmarkBatchTiny's stacks: 10000 SPD matrices m m^T + n I, float64
# and float32, timed once and reported under both of its layouts' names
# (numpy's own (10000, n, n) stack is the layout numpy is fast on).
for dt in ("float64", "float32"):
    for n in (3, 4, 8):
        m = rng.random((10000, n, n)) * 2 - 1
        a = (m @ m.transpose(0, 2, 1) + n * np.eye(n)).astype(dt)
        b = (rng.random((10000, n, 1)) * 2 - 1).astype(dt)
        g = f"BatchTiny/t={dt}/layout=compact/op=%s/n={n}/count=10000"
        inner = lambda op: (g.replace("compact", "inner") % op,)
        bench(g % "solve", lambda: np.linalg.solve(a, b), 20, inner("solve"))
        bench(g % "cholesky", lambda: np.linalg.cholesky(a), 20, inner("cholesky"))
        # cho_solve is scipy's; numpy solves with the factor as two
        # triangular solves through np.linalg.solve, which does not know
        # they are.
        bench(g % "det", lambda: np.linalg.det(a), 20, inner("det"))
        bench(g % "inv", lambda: np.linalg.inv(a), 20, inner("inv"))
PY
}

# The passes alternate: one of go test's (-count 1), then one of numpy's,
# COUNT times, so that a slow phase of the machine (this 2-vCPU VM has
# phases of seconds to minutes in which both run up to twice as long)
# falls on both sides of a ratio instead of on one.
numpy=1
/usr/bin/python3 -c 'import numpy' 2>/dev/null || numpy=
if [ -z "$numpy" ]; then
  echo "numpy not found (/usr/bin/python3 -c 'import numpy' failed): numpy rows skipped" >&2
fi
: >"$out"
for pass in $(seq 1 "$count"); do
  go test -run '^$' -bench "$pattern" -benchtime "${BENCHTIME:-1s}" -count 1 ./bench | tee -a "$out" >&2
  [ -z "$numpy" ] || numpy_pass >>"$out"
done

[ -z "${RAW-}" ] || cp "$out" "$RAW"
go run ./bench/report -ref lapis <"$out"
