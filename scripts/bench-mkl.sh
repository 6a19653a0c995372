#!/usr/bin/env bash
# bench-mkl.sh: lapis against Intel MKL, side by side in one run in the
# mkl variant's image (scripts/docker-test.sh mkl builds it): batch's tiny
# operations against MKL's compact API, batch.Gemm against
# cblas_dgemm_batch, and dgemm 1024 / dgesv 1000 through lapis on MKL and
# on OpenBLAS (bench/mkl; docs/bench/mkl.md has the table and how to read
# it).
#
#   ROUNDS=5 scripts/bench-mkl.sh     passes of each binary (default 5)
#   SAVE=1 scripts/bench-mkl.sh       also write docs/bench/results/mkl.txt
set -euo pipefail
cd "$(dirname "$0")/.."
img=lapis-test:mkl
if ! docker image inspect "$img" >/dev/null 2>&1; then
  echo "bench-mkl.sh: no image $img; build it with scripts/docker-test.sh mkl (it needs Debian's non-free component)" >&2
  exit 1
fi
go mod download
docker volume create lapis-gocache >/dev/null
out=$(mktemp)
docker run --rm -v "$PWD:/src:ro" -v "$(go env GOROOT):/usr/local/go:ro" -v "$(go env GOMODCACHE):/gomodcache:ro" \
  -v lapis-gocache:/gocache -e ROUNDS="${ROUNDS:-5}" -e MKL_INTERFACE_LAYER=LP64 -e MKL_THREADING_LAYER=GNU \
  "$img" bash /src/bench/mkl/run.sh | tee "$out"
if [ -n "${SAVE:-}" ]; then
  mkdir -p docs/bench/results
  { echo "# $(date -u +%Y-%m-%dT%H:%MZ) ROUNDS=${ROUNDS:-5} scripts/bench-mkl.sh"; cat "$out"; } >docs/bench/results/mkl.txt
  echo "bench-mkl.sh: wrote docs/bench/results/mkl.txt" >&2
fi
rm -f "$out"
