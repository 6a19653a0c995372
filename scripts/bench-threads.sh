#!/usr/bin/env bash
# bench-threads.sh: the thread policy in one run. lapack Gesv, Potrf, Geqrf,
# Syevd and cblas Gemm at n = 64, 256, 1024, each with 0, 1 and 2 goroutines
# running a pure-Go loop, under the policy (auto) and with OpenBLAS fixed at
# 1 and 2 threads, printed as one table (docs/bench/threads.md; medians of
# COUNT passes, default 5) with auto / best, auto / 2 threads and the
# targets.
#   scripts/bench-threads.sh
#   COUNT=3 BENCHTIME=0.2s scripts/bench-threads.sh
#   FILTER='op=(gemm|gesv)/n=1024' scripts/bench-threads.sh
#   LOCK=/tmp/lapis-bench.lock scripts/bench-threads.sh   # run under flock
# The test binary is built first, so a lock is never held while compiling.
# The kernel set is lapis's choice (scripts/kernels.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/kernels.sh
count=${COUNT:-5}
benchtime=${BENCHTIME:-0.3s}
filter=${FILTER:-}
bin=$(mktemp)
out=$(mktemp)
trap 'rm -f "$bin" "$out"' EXIT

go test -c -o "$bin" ./bench
pattern='^BenchmarkThreads$'
if [ -n "$filter" ]; then
  pattern="^BenchmarkThreads\$/$filter"
fi
run=("$bin" -test.run '^$' -test.bench "$pattern" -test.benchtime "$benchtime" -test.count "$count")
if [ -n "${LOCK:-}" ]; then
  run=(flock "$LOCK" "${run[@]}")
fi
load=$(cut -d' ' -f1-4 /proc/loadavg)
(cd bench && "${run[@]}") | tee "$out" >&2

echo
echo "Threads: $(nproc) cores, GOMAXPROCS ${GOMAXPROCS:-default}, kernel set ${LAPIS_CORE:-unknown}, medians of $count, -benchtime $benchtime, /proc/loadavg before: $load, after: $(cut -d' ' -f1-4 /proc/loadavg)"
go run ./bench/report -threads <"$out"
