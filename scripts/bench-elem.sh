#!/usr/bin/env bash
# bench-elem.sh: the element-wise layer (package elem) against its
# anchors, measured in one run through the benchmarks' one harness, lapis
# bench: the elem family (copy, add, axpby, a + a^T, (a + a^T)/2 fused and
# as two operations; lapis on one and two goroutines; numpy's copyto, add
# and add(a, a.T) by bench/family/numpy_timer.py when /usr/bin/python3
# has numpy), reduce (sums along each axis against a vectorised read and
# numpy's a.sum(axis)) and elemsmall (small adds against a Go loop).
#   scripts/bench-elem.sh
#   COUNT=8 SIZES=1000 OUT=/tmp/elem scripts/bench-elem.sh
# OUT=dir keeps lapis bench's bench.md, bench.json, bench.txt and charts.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}
sizes=${SIZES:-1000,4000}
echo "Element-wise layer, float64, $(nproc) cores; lapis bench, medians of $count batches:"
go run ./cmd/lapis bench -families elem,reduce,elemsmall -sizes "elem=$sizes" -sizes "reduce=$sizes" \
  -count "$count" -time "${TIME:-1s}" ${OUT:+-out "$OUT"}
