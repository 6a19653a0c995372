#!/usr/bin/env bash
# bench-lapack.sh: package lapack against its anchors, measured in one run
# on one OpenBLAS thread, through the benchmarks' one harness, lapis bench
# (cmd/lapis over bench/family), and bench/report for go test -bench:
#   1. lapis bench's lapack family (dgesv with one right-hand side, dpotrf,
#      dsyevd) at SIZES (default 500,1000): lapis, the C reference
#      (bench/cref), gonum and numpy (numpy.linalg's solve, cholesky and
#      eigh on the same OpenBLAS and kernel set, by
#      bench/family/numpy_timer.py, when /usr/bin/python3 has numpy:
#      apt-get install python3-numpy), each figure the median of COUNT
#      batches (default 4);
#   2. BenchmarkLapack, go test -count COUNT: gesv (1 and 100 right-hand
#      sides), potrf, geqrf, gesdd, gesvd, syevd and the helpers against
#      the C reference, gonum/netlib and gonum, as tables of ratios.
#   scripts/bench-lapack.sh
#   COUNT=8 SIZES=200,500 OUT=/tmp/lapack scripts/bench-lapack.sh
#   LAPIS_OPENBLAS_CORE=off scripts/bench-lapack.sh   # OpenBLAS's own kernel choice
# OUT=dir keeps lapis bench's bench.md, bench.json, bench.txt and
# lapack.png. The kernel set is lapis's choice (scripts/kernels.sh; the run
# prints "openblas-core:"), numpy's the same. numpy copies its input
# inside each call, so its times include that copy.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-4}
. scripts/kernels.sh
export OPENBLAS_NUM_THREADS=1 # the benchmarks also set it
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "LAPACK, float64, one OpenBLAS thread (kernel set ${LAPIS_CORE:-unknown}); lapis bench, medians of $count batches:"
go run ./cmd/lapis bench -families lapack -sizes "lapack=${SIZES:-500,1000}" -threads 1 -count "$count" ${OUT:+-out "$OUT"}

go test -run '^$' -bench '^BenchmarkLapack$' -count "$count" -timeout 60m ./bench | tee "$out" >&2
echo
echo "BenchmarkLapack, medians of $count."
echo "Targets: time / c <= 1.05 for lapis; netlib's time / lapis >= 1.15;"
echo "gonum's time / lapis >= 5 for svd-helper and eigsym-helper."
go run ./bench/report -ref c,lapis <"$out"
