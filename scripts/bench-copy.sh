#!/usr/bin/env bash
# bench-copy.sh: the copy engine against its anchors, measured in one run,
# through the benchmarks' one harness, lapis bench (cmd/lapis over
# bench/family), and bench/report for go test -bench:
#   1. lapis bench's copy family at SIZES (default 1024,4096): lapis, the C
#      reference (bench/cref, 16 x 16 tiles), gonum, Go's copy() and numpy
#      (np.ascontiguousarray(a.T), by bench/family/numpy_timer.py, when
#      /usr/bin/python3 has numpy: apt-get install python3-numpy), each
#      figure the median of COUNT batches (default 4);
#   2. BenchmarkCopy, go test -count COUNT: the engine on one and two
#      goroutines and its variants against memcpy, as tables of ratios.
#   scripts/bench-copy.sh
#   COUNT=8 SIZES=1024 OUT=/tmp/copy scripts/bench-copy.sh
# OUT=dir keeps lapis bench's bench.md, bench.json, bench.txt and copy.png.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-4}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "Copy engine, float64, $(nproc) cores; lapis bench, medians of $count batches:"
go run ./cmd/lapis bench -families copy -sizes "copy=${SIZES:-1024,4096}" -count "$count" ${OUT:+-out "$OUT"}

go test -run '^$' -bench '^BenchmarkCopy$' -count "$count" ./bench | tee "$out" >&2
echo
echo "BenchmarkCopy, medians of $count; impl=lapis is one goroutine, lapis-2t two."
echo "time / memcpy: the target is <= 3 for transpose; time / lapis > 1 means lapis is faster."
go run ./bench/report -ref memcpy,lapis <"$out"
