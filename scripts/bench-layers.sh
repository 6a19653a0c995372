#!/usr/bin/env bash
# bench-layers.sh: bench/layers (cblas.Gemm 4x4 and 16x16, lapack.Solve
# n = 100 and 1000, batch.Solve of 10000 3x3 systems, the gonum adapters'
# Dgemm and Dgetrf) on the revision BEFORE and on this checkout, the two
# test binaries run in turns COUNT times each (default 6) so that both
# see the same machine, then benchstat's comparison. A change to the
# layers between the API and the C library must leave these within noise.
#   scripts/bench-layers.sh 9cb8920
#   COUNT=10 BENCHTIME=1s scripts/bench-layers.sh HEAD~3
# Where BEFORE has the gonum adapters in cblas and lapack (cblas.Gonum,
# lapack.Gonum, before gonumblas and gonumlapack), its copy of bench/layers
# names them there.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: scripts/bench-layers.sh BEFORE-REVISION}
count=${COUNT:-6}
benchtime=${BENCHTIME:-0.5s}
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/before" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT

git worktree add --detach --quiet "$tmp/before" "$before"
mkdir -p "$tmp/before/bench/layers"
cp bench/layers/layers_test.go "$tmp/before/bench/layers/"
if [ -d "$tmp/before/gonumblas" ]; then
  cp bench/layers/adapters_test.go "$tmp/before/bench/layers/"
else
  sed -e 's#lapis/gonumblas"#lapis/cblas"#; s#lapis/gonumlapack"#lapis/lapack"#' \
    -e 's#gonumblas.Implementation{}#cblas.Gonum{}#; s#gonumlapack.Implementation{}#lapack.Gonum{}#' \
    bench/layers/adapters_test.go >"$tmp/before/bench/layers/adapters_test.go"
fi
(cd "$tmp/before" && go test -c -o "$tmp/before.test" ./bench/layers)
go test -c -o "$tmp/after.test" ./bench/layers

for _ in $(seq "$count"); do
  "$tmp/before.test" -test.run '^$' -test.bench . -test.benchtime "$benchtime" >>"$tmp/before.txt"
  "$tmp/after.test" -test.run '^$' -test.bench . -test.benchtime "$benchtime" >>"$tmp/after.txt"
done
echo "bench/layers, $before against $(git rev-parse --short HEAD)$(git diff --quiet || echo ' + changes'), $count runs each, in turns:"
GOFLAGS= go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da "before=$tmp/before.txt" "after=$tmp/after.txt"
