#!/usr/bin/env bash
# profile-tiny.sh: the instruction profile of batch's tiny operations
# (docs/bench/mkl.md, "Where the time goes"): callgrind's count of every
# instruction the AVX2 tiny kernels run on 10000 float64 matrices, by
# class, per matrix, for each operation, order and layout (bench/
# tinyprof). valgrind has no AVX-512, so the kernels it runs are the
# AVX2 ones. Installs valgrind when it is missing and this runs as root.
#
#   scripts/profile-tiny.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get install -y -q valgrind >/dev/null
  else
    echo "profile-tiny.sh: needs valgrind (apt-get install valgrind)" >&2
    exit 1
  fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/tinyprof" ./bench/tinyprof
echo "| op, n | layout | kernel instructions | div, sqrt | FMA | blend | shuffle, gather | loads | stores | Go side |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for op in solve cholesky inv det; do
  for n in 3 4 8; do
    for layout in compact inner; do
      # Go's asynchronous preemption signals trip callgrind.
      GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --dump-instr=yes \
        --callgrind-out-file="$out/cg.out" "$out/tinyprof" run "$op" "$n" "$layout" 2>/dev/null
      echo "| $op $n | $layout | $("$out/tinyprof" classify "$out/cg.out" "$out/tinyprof") |"
    done
  done
done
