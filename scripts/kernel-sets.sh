#!/usr/bin/env bash
# kernel-sets.sh: the cblas, lapack, batch, gonumblas and gonumlapack
# suites (guard tables in full) under each OpenBLAS kernel set this machine can execute, with
# lapis's switch off (LAPIS_OPENBLAS_CORE=off, OPENBLAS_CORETYPE=<set>),
# and once under lapis's own choice (neither variable set). Each run
# checks that it is on the set it was given (LAPIS_TEST_WANT_CORE).
#
#   scripts/kernel-sets.sh                 the sets below that this CPU runs
#   SETS="Prescott Haswell" scripts/kernel-sets.sh
#   JOBS=2 (default: 2 runs at a time)
#
# The sets: Prescott stands for the x86-64-v1 family (Core2, Penryn,
# Barcelona, ... behaved alike in 0.3.21: docs/kernels.md; SETS runs
# them), then Nehalem, Sandybridge, Haswell, Zen, SkylakeX and Cooperlake.
# gonum's testlapack suite (gonumlapack, 16 s a run) runs on the SSE and AVX sets
# (Prescott, Nehalem, Sandybridge), where LAPACK's results differ most
# from the host's, and under lapis's default; the AVX2 and AVX-512 sets
# skip it. DEFAULT=0 leaves out the run under lapis's default (test.sh
# sets it when its go test -race step already ran there). About 2.5
# minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

want=${SETS:-"Prescott Nehalem Sandybridge Haswell Zen SkylakeX Cooperlake"}
full=" Prescott Nehalem Sandybridge default "
pkgs="cblas lapack batch gonumblas gonumlapack"
jobs=${JOBS:-2}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for p in $pkgs; do
  go test -c -o "$work/$p.test" "./$p"
done
go build -o "$work/lapis" ./cmd/lapis

available=" $(env -u OPENBLAS_CORETYPE LAPIS_OPENBLAS_CORE=off "$work/lapis" info -sets | tr '\n' ' ') "
if [ "$available" = "  " ]; then
  echo "kernel-sets.sh: the linked BLAS has no kernel sets to choose between (not a DYNAMIC_ARCH OpenBLAS): nothing to run"
  exit 0
fi
sets=()
for s in $want; do
  if [[ "$available" == *" $s "* ]]; then
    sets+=("$s")
  else
    echo "kernel-sets.sh: $s skipped: this CPU cannot run it or the library lacks it (available:$available)"
  fi
done
default=$(env -u OPENBLAS_CORETYPE -u LAPIS_OPENBLAS_CORE "$work/lapis" info -json | sed -n 's/.*"in_use": "\(.*\)".*/\1/p' | head -1)
echo "kernel-sets.sh: lapis's own choice here: $default"

# One job: a set (or "default") and a package.
run_one() {
  local set=$1 pkg=$2 log="$work/$1-$2.log" skip=() env=()
  if [[ "$full" != *" $set "* ]]; then
    skip=(-test.skip '^TestTestlapack$')
  fi
  if [ "$set" = default ]; then
    env=(env -u OPENBLAS_CORETYPE -u LAPIS_OPENBLAS_CORE LAPIS_TEST_WANT_CORE="$default")
  else
    env=(env OPENBLAS_CORETYPE="$set" LAPIS_OPENBLAS_CORE=off LAPIS_TEST_WANT_CORE="$set")
  fi
  local start=$SECONDS rc=0
  (cd "$pkg" && "${env[@]}" "$work/$pkg.test" -test.count=1 "${skip[@]}" >"$log" 2>&1) || rc=$?
  printf '%-12s %-11s %s %3ds\n' "$set" "$pkg" "$([ $rc = 0 ] && echo ok || echo FAIL)" $((SECONDS - start)) | tee -a "$work/summary"
  if [ $rc != 0 ]; then
    echo "---- $set $pkg:"; grep -E -- '--- FAIL|_test.go:|run.go:|panic|SIG' "$log" | head -20
  fi
  return $rc
}
export -f run_one
export work full default

runs=("${sets[@]}")
[ "${DEFAULT:-1}" = 0 ] || runs+=(default)
rc=0
for s in "${runs[@]}"; do
  for p in $pkgs; do
    echo "$s $p"
  done
done | xargs -P "$jobs" -L 1 bash -c 'run_one $0 $1' || rc=$?
if [ $rc != 0 ]; then
  echo "kernel-sets.sh: failures above"
  exit 1
fi
echo "kernel-sets.sh: ${runs[*]} (lapis's default here: $default), $pkgs: all ok"
