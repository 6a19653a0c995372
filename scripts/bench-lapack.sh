#!/usr/bin/env bash
# bench-lapack.sh: package lapack against its anchors, measured in one run
# on one OpenBLAS thread, printed as tables of ratios (medians of COUNT
# passes, default 4).
#   scripts/bench-lapack.sh
#   COUNT=8 scripts/bench-lapack.sh
#   LAPIS_OPENBLAS_CORE=off scripts/bench-lapack.sh   # OpenBLAS's own kernel choice
# The kernel set is lapis's choice (scripts/kernels.sh; the run prints
# "openblas-core:"), numpy's the same. numpy.linalg (solve, cholesky,
# qr(mode='raw'), svd, eigh: the same gesv, potrf, geqrf, gesdd, syevd
# routines, on the same OpenBLAS through Debian's alternatives) is timed too
# when /usr/bin/python3 has numpy (apt-get install python3-numpy); otherwise
# it is skipped with a note. numpy copies its input inside each call, so its
# times include that copy.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-4}
. scripts/kernels.sh
export OPENBLAS_NUM_THREADS=1 # the benchmarks also set it; numpy needs it
out=$(mktemp)
trap 'rm -f "$out"' EXIT

go test -run '^$' -bench '^BenchmarkLapack$' -count "$count" -timeout 60m ./bench | tee "$out" >&2

if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  OPENBLAS_CORETYPE=$ANCHOR_CORETYPE /usr/bin/python3 - "$count" >>"$out" <<'PY'
import sys, time
import numpy as np
count = int(sys.argv[1])
rng = np.random.default_rng(5)

def rand(r, c):
    return 2 * rng.random((r, c)) - 1

def spd(n):
    a = rand(n, n)
    return a.T @ a + n * np.eye(n)

cases = []
for nrhs in (1, 100):
    a, b = rand(1000, 1000) + 1000 * np.eye(1000), rand(1000, nrhs)  # diagonally dominant
    fl = 2 * 1000**3 / 3 + 2 * 1000**2 * nrhs
    cases.append((f"gesv/n=1000/nrhs={nrhs}", fl, lambda a=a, b=b: np.linalg.solve(a, b)))
s = spd(1000)
cases.append(("potrf/n=1000", 1000**3 / 3, lambda: np.linalg.cholesky(s)))
q = rand(1000, 1000)
cases.append(("geqrf/n=1000", 4 * 1000**3 / 3, lambda: np.linalg.qr(q, mode="raw")))
u = rand(500, 500)
cases.append(("gesdd/n=500", 0, lambda: np.linalg.svd(u, full_matrices=True)))
e = spd(500)
cases.append(("syevd/n=500", 0, lambda: np.linalg.eigh(e, UPLO="L")))

for name, flops, f in cases:
    f()  # warm
    t = time.perf_counter()
    f()
    reps = max(1, int(1.0 / max(time.perf_counter() - t, 1e-6)))
    for _ in range(count):
        t = time.perf_counter()
        for _ in range(reps):
            f()
        ns = (time.perf_counter() - t) / reps * 1e9
        extra = f"\t{flops / ns:.2f} GFLOP/s" if flops else ""
        print(f"BenchmarkLapack/op={name}/impl=numpy \t{reps}\t{ns:.0f} ns/op{extra}")
PY
  echo "numpy $(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)') timed in the same run" >&2
else
  echo "note: /usr/bin/python3 has no numpy (apt-get install python3-numpy); numpy rows skipped" >&2
fi

echo
echo "LAPACK, float64, one OpenBLAS thread (kernel set ${LAPIS_CORE:-unknown}), medians of $count."
echo "Targets: time / c <= 1.05 for lapis; netlib's time / lapis >= 1.15;"
echo "gonum's time / lapis >= 5 for svd-helper and eigsym-helper."
go run ./bench/report -ref c,lapis <"$out"
