#!/usr/bin/env bash
# bench-kernels.sh: what lapis's kernel-set choice is worth
# (docs/bench/kernels.md).
# The same benchmark (bench's BenchmarkKernels: dgemm 256 and 1024 on 1
# and 2 threads, zgemm 512, dgesv, dpotrf and dsyevd at n = 500 on one
# thread) in one process per configuration, the configurations
# alternated round by round (COUNT rounds, default 3):
#
#   lapis           lapis's default: neither OPENBLAS_CORETYPE nor
#                   LAPIS_OPENBLAS_CORE set
#   off             LAPIS_OPENBLAS_CORE=off: OpenBLAS's own choice
#   from-prescott   OPENBLAS_CORETYPE=Prescott LAPIS_OPENBLAS_CORE=auto:
#                   OpenBLAS starting on Prescott, as 0.3.20-0.3.24 do on
#                   Intel family-6 models from 0xB0, and lapis moving it
#   prescott        the same with LAPIS_OPENBLAS_CORE=off: what such a
#                   machine runs without lapis's switch
#   <Set>           LAPIS_OPENBLAS_CORE=<Set> for each of SETS (default
#                   "Haswell SkylakeX", those this CPU runs)
#
# It prints the kernel set each configuration ran on and a table of
# medians with per-round ratios (bench/report -rounds). Raw output:
# docs/bench/results/kernels.txt when SAVE=1.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-3}
benchtime=${BENCHTIME:-0.5s}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" ./bench
go build -o "$tmp/lapis" ./cmd/lapis
unset OPENBLAS_CORETYPE LAPIS_OPENBLAS_CORE

available=" $(LAPIS_OPENBLAS_CORE=off "$tmp/lapis" info -sets | tr '\n' ' ') "
configs=(lapis off)
[[ "$available" == *" Prescott "* ]] && configs+=(from-prescott prescott)
for s in ${SETS:-Haswell SkylakeX}; do
  [[ "$available" == *" $s "* ]] && configs+=("$s")
done

# env for a configuration
envof() {
  case $1 in
    lapis) echo "" ;;
    off) echo "LAPIS_OPENBLAS_CORE=off" ;;
    from-prescott) echo "OPENBLAS_CORETYPE=Prescott LAPIS_OPENBLAS_CORE=auto" ;;
    prescott) echo "OPENBLAS_CORETYPE=Prescott LAPIS_OPENBLAS_CORE=off" ;;
    *) echo "LAPIS_OPENBLAS_CORE=$1" ;;
  esac
}

echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $(LAPIS_OPENBLAS_CORE=off "$tmp/lapis" info | sed -n 's/^config: *//p')"
for c in "${configs[@]}"; do
  # shellcheck disable=SC2046 # envof prints words
  printf '%-14s %s\n' "$c" "$(env $(envof "$c") "$tmp/lapis" info -json | sed -n 's/.*"reason": "\(.*\)".*/\1/p' | head -1)"
done
raw="$tmp/raw.txt"
for round in $(seq "$count"); do
  for c in "${configs[@]}"; do
    # shellcheck disable=SC2046
    (cd bench && env $(envof "$c") LAPIS_BENCH_IMPL="$c" "$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkKernels$' -test.benchtime "$benchtime") >>"$raw"
  done
  echo "round $round of $count done" >&2
done
if [ "${SAVE:-}" = 1 ]; then
  mkdir -p docs/bench/results
  cp "$raw" docs/bench/results/kernels.txt
fi
ratios=off/lapis
[[ " ${configs[*]} " == *" prescott "* ]] && ratios+=,prescott/from-prescott
for s in ${SETS:-Haswell SkylakeX}; do
  [[ " ${configs[*]} " == *" $s "* ]] && ratios+=",$s/lapis"
done
go run ./bench/report -ratios "$ratios" -rounds <"$raw"
