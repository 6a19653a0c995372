#!/usr/bin/env bash
# bench-gonum-mat.sh: gonum/mat's SVD, EigenSym, Eigen, Cholesky, LU and
# Dense.Solve under pure gonum, gonum/netlib's LAPACK and lapis
# (BenchmarkGonumMat), on one OpenBLAS thread, printed as a table of
# medians of COUNT passes (default 5) relative to lapis. Each pass runs
# every case once, the three impls of a case back to back, so that a noisy
# machine slows all three alike (go test -count would repeat one case
# COUNT times before the next).
#   scripts/bench-gonum-mat.sh
#   COUNT=8 BENCHTIME=1s scripts/bench-gonum-mat.sh
# OPENBLAS_CORETYPE defaults to Haswell (see bench-lapack.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE-Haswell}
export OPENBLAS_NUM_THREADS=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -c -o "$out.test" ./bench
trap 'rm -f "$out" "$out.test"' EXIT
for _ in $(seq "${COUNT:-5}"); do
  "$out.test" -test.run '^$' -test.bench '^BenchmarkGonumMat$' -test.benchtime "${BENCHTIME:-0.5s}" -test.timeout 60m |
    tee -a "$out" >&2
done
go run ./bench/report -ref lapis <"$out"
