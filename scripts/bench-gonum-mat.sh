#!/usr/bin/env bash
# bench-gonum-mat.sh: gonum/mat's SVD, EigenSym, Eigen, Cholesky, LU and
# Dense.Solve under pure gonum, gonum/netlib's LAPACK and lapis
# (BenchmarkGonumMat), on one OpenBLAS thread, printed as a table of
# medians of COUNT passes (default 5) relative to lapis. Each pass runs
# every case once, the three impls of a case back to back, so that a noisy
# machine slows all three alike (go test -count would repeat one case
# COUNT times before the next).
# It prints two tables, of wall time and of the process's CPU time per op
# (on a shared machine the second leaves out the time other processes held
# the core). Each is docs/bench/gonum.md's: medians, then lapis's time over
# netlib's (target <= 1.02), gonum's over lapis's (the speed-up; target >= 5
# for svd and eigensym at n = 500) and, for svd, dgesvd's over dgesdd's.
#   scripts/bench-gonum-mat.sh
#   COUNT=8 BENCHTIME=1s scripts/bench-gonum-mat.sh
#   LOCK=/tmp/lapis-bench.lock scripts/bench-gonum-mat.sh
# The test binary is compiled first at low priority (nice); with LOCK set,
# each pass runs under flock on that file, never the compile, so machines
# shared by several benchmarks take turns.
# The kernel set is lapis's choice (scripts/kernels.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/kernels.sh
export OPENBLAS_NUM_THREADS=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
nice -n 15 go test -c -o "$out.test" ./bench
nice -n 15 go build -o "$out.report" ./bench/report
trap 'rm -f "$out" "$out.test" "$out.report"' EXIT
lock=()
[ -n "${LOCK:-}" ] && lock=(flock "$LOCK")
for _ in $(seq "${COUNT:-5}"); do
  "${lock[@]}" "$out.test" -test.run '^$' -test.bench '^BenchmarkGonumMat$' -test.benchtime "${BENCHTIME:-0.5s}" -test.timeout 60m |
    tee -a "$out" >&2
done
ratios=lapis/netlib,gonum/lapis,lapis-qr/lapis
echo "wall time (ns/op):"
"$out.report" -ratios "$ratios" <"$out"
echo
echo "CPU time of the process (cpu-ns/op):"
"$out.report" -ratios "$ratios" -unit cpu-ns/op <"$out"
