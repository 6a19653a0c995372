#!/usr/bin/env bash
# test.sh: what CI checks on one machine. Runs setup.sh first, so it works
# on a fresh Debian machine as root.
#
#   scripts/test.sh          the full run (CI): the quick steps, then the
#                            independent long steps in two lanes at once
#   scripts/test.sh quick    the edit loop: gofmt, the generated-code
#                            check, go vet, go test (dist alone, last;
#                            about 3 minutes)
#   FUZZTIME=500000x scripts/test.sh   (fuzz budget per target)
#   LANES=1 scripts/test.sh            (the long steps one after another)
#
# The fuzz budget is a count of executions, not a duration: with a duration,
# Go 1.26's fuzz coordinator can fail a clean run with "context deadline
# exceeded" when the time runs out (golang/go#75804, fixed in Go 1.27).
# Budgets (CONTRIBUTING.md): quick under 4 minutes, full under 15, on 2
# cores with a warm build cache.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-full}
case "$mode" in
  quick|full) ;;
  *) echo "usage: scripts/test.sh [quick|full]" >&2; exit 2 ;;
esac

# Each step's heading is preceded by how long the step before it took and
# the time so far.
started=$SECONDS
step() {
  if [ -n "${last-}" ]; then
    printf '(%ds; %ds in all)\n' $((SECONDS - last)) $((SECONDS - started))
  fi
  last=$SECONDS
  printf '\n== %s\n' "$*"
}

step "setup"
bash scripts/setup.sh

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "no built files tracked"
# Nothing built is committed: no ELF file, no executable that is not a
# script (#!), no file over 1 MB unless marked generated.
built=$(git ls-files -s | while read -r mode _ _ f; do
  [ -f "$f" ] || continue
  if [ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then echo "$f (an ELF file)"
  elif [ "$mode" = 100755 ] && [ "$(head -c 2 "$f")" != '#!' ]; then echo "$f (executable, not a script)"
  elif [ "$(stat -c %s "$f")" -gt 1048576 ] && ! head -c 4096 "$f" | grep -q '^// Code generated .* DO NOT EDIT\.$'; then echo "$f (over 1 MB, not marked generated)"
  fi
done)
if [ -n "$built" ]; then
  echo "tracked files that look built:"; echo "$built"; exit 1
fi

step "generated code is up to date"
gen_before=$(mktemp -d)
for f in $(grep -rl --include='*.go' --include='*.s' '^// Code generated .* DO NOT EDIT\.$' . | grep -v '/testdata/'); do
  mkdir -p "$gen_before/$(dirname "$f")"; cp "$f" "$gen_before/$f"
done
go generate ./...
stale=$(cd "$gen_before" && find . -name '*.go' -o -name '*.s' | while read -r f; do cmp -s "$f" "$OLDPWD/$f" || echo "$f"; done)
rm -rf "$gen_before"
if [ -n "$stale" ]; then
  echo "go generate changed: $stale (commit the regenerated files)"; exit 1
fi

step "go vet"
go vet ./...

# Package dist's tests run Open MPI jobs of up to 4 ranks on this
# machine's cores. MPI ranks wait for each other by spinning (or, when
# oversubscribed, by sched_yield), so beside other CPU-bound work a job
# that takes 30 s alone can take over 10 minutes (measured:
# docs/dist.md#tests). They run alone, after everything else.
nodist=$(go list ./... | grep -v '/dist$')
distalone() { go test -count=1 -timeout 15m "$@" ./dist; }

if [ "$mode" = quick ]; then
  step "go test"
  # shellcheck disable=SC2086 # a list of packages
  go test -count=1 $nodist
  step "go test ./dist (alone: MPI jobs)"
  distalone
  step "ok (quick)"
  exit 0
fi

step "workflow lint (actionlint ${ACTIONLINT_VERSION:=v1.7.12})"
# A pinned go run, not a tool dependency: it keeps actionlint's modules
# out of go.mod (CONTRIBUTING.md, "Dependencies").
go run "github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}" -color=false

step "cgo-free packages build with CGO_ENABLED=0"
pure=()
for d in layout views npy; do
  [ -d "$d" ] && pure+=("./$d/...")
done
CGO_ENABLED=0 go build "${pure[@]}"
# And none of them imports "C" even behind a build tag; in the library,
# only internal/clib (BLAS and LAPACK), dist (ScaLAPACK, MPI) and fortran
# (ISO_Fortran_binding.h) do (layers_test.go, cgoOwners).
if grep -rl --include='*.go' '^import "C"' layout views npy 2>/dev/null ||
  grep -rl --include='*.go' '^import "C"' . | grep -Ev '^\./(internal/clib|dist|fortran|cmd|bench|examples)/'; then
  echo 'the files above import "C" outside the packages that own C'; exit 1
fi

# The long steps are independent: two lanes run at once (LANES=1: one),
# each step's output kept in a log shown when it fails or, in order, as
# it ends. go test -race and the guard tables with checkptr each build
# the module their own way; the kernel-set and gonum runs are C-bound.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# shellcheck disable=SC2086 # a list of packages
race() { GOEXPERIMENT=cgocheck2 go test -race -count=1 $nodist; }
kernelsets() {
  # When neither variable is set, go test -race runs on lapis's own
  # choice already: no need to run that configuration again.
  if [ -z "${OPENBLAS_CORETYPE+x}" ] && [ -z "${LAPIS_OPENBLAS_CORE+x}" ]; then
    DEFAULT=0 bash scripts/kernel-sets.sh
  else
    bash scripts/kernel-sets.sh
  fi
}
gonummat() { bash scripts/gonum-mat.sh; }
# The guard tables of cblas, lapack and batch run in full under every
# kernel set (kernelsets) and, with checkptr, sampled under -race; the
# other packages' tables run in full with checkptr here.
guardfull() { go test -count=1 -gcflags=all=-d=checkptr -run '^TestGuard$' ./views/... ./fortran/... ./internal/...; }
allocs() { go test -count=1 -run 'Alloc' ./...; }
# Every exported function and method that takes a view or tensor, with the
# zero View, a released tensor's view and a broadcast larger than memory, in
# a child process under ulimit -v (not under -race: its shadow memory needs
# more address space); prints what it tried (CONTRIBUTING.md, "What the
# tests cover").
entrypoints() {
  go test -count=1 -run '^(TestEntryPoints|TestTableCurrent)$' -v ./internal/test/entry >"$logs/entrypoints.out" 2>&1 \
    || { cat "$logs/entrypoints.out"; return 1; }
  grep '^entry points' "$logs/entrypoints.out"
}
openblas64() {
  CGO_CFLAGS="$(pkg-config --cflags openblas64)" CGO_LDFLAGS="$(pkg-config --libs openblas64)" \
    go test -count=1 -tags lapis_cgoflags ./cblas/... ./lapack/... ./batch/... ./gonumblas/... ./gonumlapack/...
}
# -short: the Go fallbacks take the same paths at the smaller sizes (the
# full tables run on the assembly under -race and the kernel sets).
purego() { go test -count=1 -short -tags purego . ./views/... ./elem/... ./internal/loop/... ./internal/kernel/... ./internal/rt/split/... ./cblas/... ./batch/... ./gonumblas/...; }
fuzz() {
  for pkg in $(go list ./...); do
    dir=$(go list -f '{{.Dir}}' "$pkg")
    for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
      echo "-- $pkg $target"
      budget=${FUZZTIME:-100000x}
      # FuzzEinsum's oracle enumerates every index of every operand: a
      # fifth of the budget takes it as long as the others (about 10 s).
      [ "$target" = FuzzEinsum ] && budget=${FUZZTIME:-20000x}
      go test -run='^$' -fuzz="^${target}\$" -fuzztime="$budget" "$pkg"  || return 1
    done
  done
}

# lane runs its steps (name:description) in order, each into its log, and
# records each step's status and time.
lane() {
  local s name
  for s in "$@"; do
    name=${s%%:*}
    local t0=$SECONDS
    if "$name" >"$logs/$name.log" 2>&1; then
      echo "ok $((SECONDS - t0))" >"$logs/$name.status"
    else
      echo "FAIL $((SECONDS - t0))" >"$logs/$name.status"
    fi
  done
}
lane1=("race:go test -race" "openblas64:cblas, lapack, batch and the gonum adapters against the 64-bit-integer OpenBLAS (-tags lapis_cgoflags)" "purego:without assembly (-tags purego, -short): the root package, views, elem, the kernels, split, and cblas, batch and gonumblas on their Go fallbacks" "allocs:allocation counts (without -race: its sync.Pool drops buffers at random)" "fuzz:fuzz (${FUZZTIME:-100000x} per target)")
lane2=("entrypoints:every exported entry point with the zero View, a released view and a huge broadcast, under ulimit -v" "kernelsets:cblas, lapack, batch and the gonum adapters under each OpenBLAS kernel set this CPU runs (guard tables in full)" "gonummat:the test suites of gonum/mat and of the gonum packages that reach BLAS and LAPACK through it, with lapis as both" "guardfull:guard pages of views, fortran and the kernels, full tables, with checkptr (under -race they run a sample)")
step "long steps in ${LANES:=2} lane(s): ${#lane1[@]} + ${#lane2[@]} steps"
if [ "$LANES" = 1 ]; then
  lane "${lane1[@]}" "${lane2[@]}"
else
  lane "${lane1[@]}" &
  pid1=$!
  lane "${lane2[@]}" &
  pid2=$!
  wait "$pid1" "$pid2"
fi
failed=0
for s in "${lane1[@]}" "${lane2[@]}"; do
  name=${s%%:*}
  read -r status secs <"$logs/$name.status"
  printf '\n== %s: %s (%ds)\n' "${s#*:}" "$status" "$secs"
  if [ "$status" = ok ]; then
    tail -n 3 "$logs/$name.log"
  else
    tail -n 60 "$logs/$name.log"
    failed=1
  fi
done
if [ "$failed" = 1 ]; then
  echo; echo "test.sh: a long step failed (above)"; exit 1
fi

step "go test -race ./dist (alone: MPI jobs on 1, 2 and 4 ranks)"
GOEXPERIMENT=cgocheck2 distalone -race

step "ok"
