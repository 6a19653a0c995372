#!/usr/bin/env bash
# bench-batch.sh: package batch against its anchors, float64, measured in
# one run on one OpenBLAS thread, through the benchmarks' one harness,
# lapis bench (cmd/lapis over bench/family), and bench/report for go test
# -bench:
#   1. lapis bench's batch and tiny families (batched dgemm at BATCH_SIZES,
#      default 4,16,64; 10000 tiny matrices, gemm and solve, at TINY_SIZES,
#      default 3,4,8): lapis, the C loops (bench/cref), gonum and numpy
#      (np.matmul and np.linalg.solve on (count, n, n) stacks, by
#      bench/family/numpy_timer.py, when /usr/bin/python3 has numpy:
#      apt-get install python3-numpy), each figure the median of COUNT
#      batches (default 4);
#   2. BenchmarkBatchGemm, BenchmarkBatchSolve and BenchmarkBatchTiny, go
#      test -count COUNT: lapis's variants (one and two workers, the
#      out-of-place and unchecked paths, ...) against the C loops and
#      gonum, as tables of ratios. impl=lapis uses one worker, lapis-w2
#      two.
#   scripts/bench-batch.sh
#   COUNT=8 OUT=/tmp/batch scripts/bench-batch.sh
#   TINY='t=float64/layout=compact/' BENCHTIME=200x scripts/bench-batch.sh
# TINY runs only the tiny family and BenchmarkBatchTiny's cases matching
# that sub-benchmark pattern; BENCHTIME is go test's -benchtime; RAW=file
# keeps go test's output there; OUT=dir keeps lapis bench's bench.md,
# bench.json, bench.txt and its charts (batch.png, tiny.png).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-4}
. scripts/kernels.sh
export OPENBLAS_NUM_THREADS=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

families=(-families batch,tiny -sizes "batch=${BATCH_SIZES:-4,16,64}")
pattern='^Benchmark(BatchGemm|BatchSolve|BatchTiny)$'
if [ -n "${TINY-}" ]; then
  families=(-families tiny)
  pattern="^BenchmarkBatchTiny\$/$TINY"
fi
echo "Batches, float64, one OpenBLAS thread (kernel set ${LAPIS_CORE:-unknown}); lapis bench, medians of $count batches:"
go run ./cmd/lapis bench "${families[@]}" -sizes "tiny=${TINY_SIZES:-3,4,8}" -threads 1 -count "$count" ${OUT:+-out "$OUT"}

go test -run '^$' -bench "$pattern" -benchtime "${BENCHTIME:-1s}" -count "$count" ./bench | tee "$out" >&2
[ -z "${RAW-}" ] || cp "$out" "$RAW"
echo
echo "go test -bench, medians of $count."
go run ./bench/report -ref lapis <"$out"
