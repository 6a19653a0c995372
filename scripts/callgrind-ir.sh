#!/bin/bash
# callgrind-ir.sh BINARY DIR BENCH N: the instructions (callgrind's Ir) of
# one run of the test binary BINARY, in directory DIR, running benchmark
# BENCH (a -test.bench pattern) for exactly N iterations. Instruction
# counts repeat under load where times do not: the difference of two runs
# with different N, divided by the difference of the N, is the count per
# call (docs/bench/release-check.md). Go's runtime needs three settings
# under valgrind 3.19: no RDTSCP (valgrind does not decode it), no
# asynchronous preemption (callgrind asserts on its signals), and one P
# with GC off, so that the count depends on the code alone.
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 BINARY DIR BENCH N" >&2; exit 2; }
bin=$1 dir=$2 bench=$3 n=$4
command -v valgrind >/dev/null || { echo "$0: valgrind not found (scripts/setup.sh installs it)" >&2; exit 1; }
cd "$dir"
GODEBUG=cpu.rdtscp=off,asyncpreemptoff=1 GOGC=off GOMAXPROCS=1 \
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" -test.run '^$' \
  -test.bench "$bench" -test.benchtime "${n}x" -test.count 1 2>&1 | sed -n 's/.*Collected : //p'
