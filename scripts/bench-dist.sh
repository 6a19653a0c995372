#!/usr/bin/env bash
# bench-dist.sh: package dist's benchmarks at n = 4000, and the tables of
# docs/bench/dist.md.
#
#   1. Overhead: pdgesv and pdgemm on 2 ranks (1 x 2 grid), lapis
#      (bench/distbench: dist.Gesv, dist.Gemm) against a C program making
#      the same ScaLAPACK calls on the same matrices
#      (bench/scalapack/pdbench.c), interleaved C, lapis, lapis, C, ...
#   2. Fixed cost: the same two at n = 64 on 2 ranks, 301 calls each:
#      what lapis adds per call (the hand-off to dist's MPI thread, info
#      agreed by one MPI_Allreduce), which the n = 4000 times, a second
#      or more, cannot resolve on a shared machine.
#   3. Scaling: pdgesv, pdgemm and pdpotrf through lapis on 1, 2 and 4
#      ranks (grids 1 x 1, 1 x 2, 2 x 2), one OpenBLAS thread per rank,
#      --oversubscribe (on a 2-core machine 4 ranks take turns on the
#      cores).
#   4. Validation (LAPIS_DIST_PARTS=validation, not in the default set):
#      dist.Gesv at n = 64 (301 calls) and n = $LAPIS_DIST_N (reps calls)
#      against distbench's "check" (Gesv with a right-hand side of no
#      columns: the argument checks and the MPI_Allreduce that agrees on
#      them, then nothing), 301 calls at each n, 2 rounds, on 2 ranks.
#
# Every program times each call as barrier, Wtime, the call, barrier (the
# slowest rank's time) and refills its operands before each repetition,
# untimed. Both programs are built first (under nice); each part then runs
# at normal priority under the shared benchmark lock, so the lock is never
# held while compiling.
#
#   LAPIS_DIST_N=4000      matrix order
#   LAPIS_DIST_NB=64       block size
#   LAPIS_DIST_REPS=3      calls per mpirun (the median is taken over all)
#   LAPIS_DIST_ROUNDS=2    interleaved rounds of part 1
#   LAPIS_BENCH_LOCK=/tmp/lapis-bench.lock
#   LAPIS_DIST_PARTS="overhead fixed scaling"   (validation: part 4)
set -euo pipefail
cd "$(dirname "$0")/.."

n=${LAPIS_DIST_N:-4000} nb=${LAPIS_DIST_NB:-64} reps=${LAPIS_DIST_REPS:-3}
rounds=${LAPIS_DIST_ROUNDS:-2} lock=${LAPIS_BENCH_LOCK:-/tmp/lapis-bench.lock}
parts=${LAPIS_DIST_PARTS:-overhead fixed scaling}
die() { printf 'bench-dist.sh: %s\n' "$*" >&2; exit 1; }
command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 || die "mpirun/mpicc not found (scripts/setup.sh)"
command -v flock >/dev/null 2>&1 || die "flock not found (util-linux)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lapis-bench-dist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "bench-dist.sh: building bench/distbench and bench/scalapack/pdbench.c" >&2
nice -n 15 go build -o "$tmp/lapis" ./bench/distbench
# shellcheck disable=SC2046 # pkg-config prints several flags
nice -n 15 mpicc -O2 -o "$tmp/c" bench/scalapack/pdbench.c $(pkg-config --libs scalapack-openmpi)

. scripts/kernels.sh
export OPENBLAS_NUM_THREADS=1
# Containers forbid the cross-process copy of Open MPI's shared-memory
# transport; as root mpirun needs these two.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

# one impl op np P: one mpirun of reps calls; its RESULT line is kept.
one() {
  local out
  # The C ranks load OpenBLAS without lapis: they get lapis's set.
  local core=()
  [ "$1" = c ] && [ -n "$ANCHOR_CORETYPE" ] && core=(-x "OPENBLAS_CORETYPE=$ANCHOR_CORETYPE")
  out=$(timeout 170 mpirun --oversubscribe "${core[@]}" -np "$3" "$tmp/$1" "$2" "$n" "$4" "$nb" "$reps" 2>&1) ||
    { printf '%s\n' "$out" >&2; die "mpirun -np $3 $1 $2 failed"; }
  grep '^RESULT ' <<<"$out" | tee -a "$results" | cut -d' ' -f1-10 >&2
}

for part in $parts; do
  results=$tmp/results-$part
  : >"$results"
  case "$part" in
    overhead)
      echo "bench-dist.sh: part 1 (overhead), n = $n, 2 ranks, $rounds rounds of $reps calls; waiting for $lock" >&2
      # shellcheck disable=SC2016
      flock "$lock" bash -c "$(declare -f one die); $(declare -p n nb reps tmp results);"'
        for r in $(seq '"$rounds"'); do
          for op in gesv gemm; do
            if [ $((r % 2)) -eq 1 ]; then one c $op 2 1; one lapis $op 2 1; else one lapis $op 2 1; one c $op 2 1; fi
          done
        done' ;;
    fixed)
      echo "bench-dist.sh: part 2 (fixed cost), n = 64, 2 ranks, 301 calls; waiting for $lock" >&2
      # shellcheck disable=SC2016
      flock "$lock" bash -c "$(declare -f one die); $(declare -p nb tmp results); n=64 reps=301;"'
        for r in 1 2; do for op in gesv gemm; do one c $op 2 1; one lapis $op 2 1; done; done' ;;
    scaling)
      echo "bench-dist.sh: part 3 (scaling), n = $n, 1, 2, 4 ranks, $reps calls each; waiting for $lock" >&2
      # shellcheck disable=SC2016
      flock "$lock" bash -c "$(declare -f one die); $(declare -p n nb reps tmp results);"'
        for np in 1 2 4; do
          p=1; [ $np -eq 4 ] && p=2
          for op in gesv gemm potrf; do one lapis $op $np $p; done
        done' ;;
    validation)
      echo "bench-dist.sh: part 4 (validation), n = 64 and $n, 2 ranks; waiting for $lock" >&2
      # shellcheck disable=SC2016
      flock "$lock" bash -c "$(declare -f one die); $(declare -p nb tmp results n reps);"'
        big=$n bigreps=$reps
        for r in 1 2; do
          n=64 reps=301; one lapis gesv 2 1; one lapis check 2 1
          n=$big reps=$bigreps; one lapis gesv 2 1; reps=301; one lapis check 2 1
        done' ;;
    *) die "unknown part $part (overhead, fixed, scaling, validation)" ;;
  esac
done

# The tables: medians over every call of a configuration in its part (and
# for the overhead the fastest call too: on a shared machine other work
# only adds time, so the minimum is the cleaner comparison).
table() {
  awk -v want="$1" -v n="$n" '
    function field(k,   i, kv) { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] } return "" }
    function median(s,   a, c, i, j, t) {
      c = split(s, a, ",")
      for (i = 2; i <= c; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
    }
    function least(s,   a, c, i, m) {
      c = split(s, a, ","); m = a[1] + 0
      for (i = 2; i <= c; i++) if (a[i] + 0 < m) m = a[i] + 0
      return m
    }
    function flops(op) { return op == "gemm" ? 2 * n * n * n : op == "gesv" ? 2 * n * n * n / 3 + 2 * n * n : n * n * n / 3 }
    /^RESULT / {
      k = field("impl") SUBSEP field("op") SUBSEP field("ranks")
      if (k in t) t[k] = t[k] "," field("times"); else t[k] = field("times")
      kv = field("op") SUBSEP field("n")
      if (kv in v) v[kv] = v[kv] "," field("times"); else v[kv] = field("times")
      grid[field("ranks")] = field("grid")
    }
    END {
      split("gesv gemm potrf", ops, " ")
      if (want == "validation") {
        print "| n, 2 ranks (1 x 2) | dist.Gesv, median (min) | its argument checks and their allreduce, median (min) | share of the call |"
        print "|---|---|---|---|"
        for (k in v) if (k ~ /^gesv/) {
          split(k, f, SUBSEP); kc = "check" SUBSEP f[2]
          if (!(kc in v)) continue
          g = median(v[k]); c = median(v[kc])
          printf "| %d | %.3f ms (%.3f) | %.1f us (%.1f) | %.4f%% |\n", f[2], g * 1e3, least(v[k]) * 1e3, c * 1e6, least(v[kc]) * 1e6, 100 * c / g
        }
      } else if (want == "fixed") {
        print "| routine, n = 64, 2 ranks (1 x 2) | lapis `dist`, median (min) | C, median (min) | lapis - C, medians |"
        print "|---|---|---|---|"
        for (i = 1; i <= 2; i++) {
          kl = "lapis" SUBSEP ops[i] SUBSEP 2; kc = "c" SUBSEP ops[i] SUBSEP 2
          if (!(kl in t) || !(kc in t)) continue
          l = median(t[kl]); c = median(t[kc])
          printf "| pd%s | %.0f us (%.0f) | %.0f us (%.0f) | %.0f us |\n", ops[i], l * 1e6, least(t[kl]) * 1e6, c * 1e6, least(t[kc]) * 1e6, (l - c) * 1e6
        }
      } else if (want == "overhead") {
        print "| routine, n = " n ", 2 ranks (1 x 2) | lapis `dist`, median (min) | C, same ScaLAPACK calls, median (min) | lapis / C, medians (mins) |"
        print "|---|---|---|---|"
        for (i = 1; i <= 2; i++) {
          kl = "lapis" SUBSEP ops[i] SUBSEP 2; kc = "c" SUBSEP ops[i] SUBSEP 2
          if (!(kl in t) || !(kc in t)) continue
          l = median(t[kl]); c = median(t[kc]); lm = least(t[kl]); cm = least(t[kc])
          printf "| pd%s | %.3f s (%.3f) | %.3f s (%.3f) | %.3f (%.3f) |\n", ops[i], l, lm, c, cm, l / c, lm / cm
        }
      } else {
        print "| routine, n = " n " | 1 rank (1 x 1) | 2 ranks (1 x 2) | 4 ranks (2 x 2), 2 per core | speed-up 2 / 4 ranks |"
        print "|---|---|---|---|---|"
        for (i = 1; i <= 3; i++) {
          row = "| pd" ops[i]
          for (np = 1; np <= 4; np *= 2) {
            k = "lapis" SUBSEP ops[i] SUBSEP np
            if (k in t) { m[np] = median(t[k]); row = row sprintf(" | %.3f s (%.1f GFLOP/s)", m[np], flops(ops[i]) / m[np] / 1e9) }
            else { m[np] = 0; row = row " | -" }
          }
          if (m[1] > 0 && m[2] > 0 && m[4] > 0) row = row sprintf(" | %.2f / %.2f", m[1] / m[2], m[1] / m[4])
          else row = row " | -"
          print row " |"
        }
      }
    }' "$tmp/results-$1"
}
echo
echo "OPENBLAS_NUM_THREADS=1, nb = $nb, medians of every call ($reps per mpirun); $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
for part in $parts; do echo; table "$part"; done
