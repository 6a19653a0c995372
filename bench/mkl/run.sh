#!/usr/bin/env bash
# run.sh: scripts/bench-mkl.sh's steps inside the mkl variant's image
# (docker/Dockerfile.mkl): builds bench/mkl twice, on MKL (the generic
# route, -lblas -llapack -> libmkl_rt.so, with anchor.c) and on OpenBLAS
# (lapis's default link, its default kernel set), runs ROUNDS passes of
# each alternately and prints the table of their medians.
set -euo pipefail
cd /src
out=$(mktemp -d)
CGO_CFLAGS="-O2" CGO_LDFLAGS="-lblas -llapack -Wl,--no-as-needed,-lgomp,-lm" go build -tags lapis_cgoflags,lapis_mkl -o "$out/on-mkl" ./bench/mkl
go build -o "$out/on-openblas" ./bench/mkl
# MKL 2020 runs its generic code on CPUs it does not take for Intel's;
# a third pass forces its Intel paths (bench/mkl/intelcpu.c.in), only
# where they are not taken already.
gcc -O2 -shared -fPIC -x c bench/mkl/intelcpu.c.in -o "$out/intelcpu.so"
forced="" info=$("$out/on-mkl" -info)
[[ "$info" != *"core"*"Architecture processors"* ]] || forced=1
# On a host with AVX-512, a fourth pass shows an AVX2 CPU's table: lapis
# on its AVX2 kernels, MKL capped at AVX2 (MKL_ENABLE_INSTRUCTIONS; its
# Intel paths forced where the third pass forces them).
avx2=""
! grep -qw avx512f /proc/cpuinfo || avx2=1
preload=""
[ -z "$forced" ] || preload="$out/intelcpu.so"
for r in $(seq "${ROUNDS:-5}"); do
  echo "bench-mkl: pass $r of ${ROUNDS:-5}" >&2
  "$out/on-mkl" >"$out/mkl-$r.txt"
  "$out/on-openblas" >"$out/openblas-$r.txt"
  [ -z "$forced" ] || LD_PRELOAD="$out/intelcpu.so" LAPIS_BENCH_MKL_FORCED=1 "$out/on-mkl" >"$out/forced-$r.txt"
  [ -z "$avx2" ] || LD_PRELOAD="$preload" MKL_ENABLE_INSTRUCTIONS=AVX2 LAPIS_BENCH_AVX2=1 "$out/on-mkl" >"$out/avx2-$r.txt"
done
echo "== passes (case, impl, ms)"
cat "$out"/mkl-*.txt "$out"/openblas-*.txt $([ -z "$forced" ] || echo "$out"/forced-*.txt) $([ -z "$avx2" ] || echo "$out"/avx2-*.txt)
echo "== table"
"$out/on-mkl" -table "$out"/mkl-*.txt "$out"/openblas-*.txt $([ -z "$forced" ] || echo "$out"/forced-*.txt) $([ -z "$avx2" ] || echo "$out"/avx2-*.txt)
echo "== summary"
"$out/on-mkl" -summary "$out"/mkl-*.txt "$out"/openblas-*.txt $([ -z "$forced" ] || echo "$out"/forced-*.txt) $([ -z "$avx2" ] || echo "$out"/avx2-*.txt)
