#!/usr/bin/env bash
# test.sh: everything CI checks, in order. Runs setup.sh first, so it works
# on a fresh Debian machine as root. Fails on the first failing step.
#   FUZZTIME=500000x scripts/test.sh   (fuzz budget per target)
# The fuzz budget is a count of executions, not a duration: with a duration,
# Go 1.26's fuzz coordinator can fail a clean run with "context deadline
# exceeded" when the time runs out (golang/go#75804, fixed in Go 1.27).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's heading is preceded by how long the step before it took and
# the time so far (the budget: 15 minutes on 2 cores).
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

step "workflow lint (actionlint ${ACTIONLINT_VERSION:=v1.7.12})"
# A pinned go run, not a tool dependency: it keeps actionlint's modules
# out of go.mod (README, Dependencies).
go run "github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}" -color=false

step "cgo-free packages build with CGO_ENABLED=0"
pure=()
for d in layout views internal; do
  [ -d "$d" ] && pure+=("./$d/...")
done
CGO_ENABLED=0 go build "${pure[@]}"
# And none of them imports "C" even behind a build tag.
if grep -rl --include='*.go' '^import "C"' "${pure[@]%/...}" 2>/dev/null; then
  echo 'the files above import "C" in a package that must stay cgo-free'; exit 1
fi

step "go test -race"
GOEXPERIMENT=cgocheck2 go test -race -count=1 ./...

step "cblas, lapack and batch under each OpenBLAS kernel set this CPU runs, and lapis's default"
# When neither variable is set, go test -race above ran on lapis's own
# choice already: no need to run that configuration again.
if [ -z "${OPENBLAS_CORETYPE+x}" ] && [ -z "${LAPIS_OPENBLAS_CORE+x}" ]; then
  DEFAULT=0 bash scripts/kernel-sets.sh
else
  bash scripts/kernel-sets.sh
fi

step "gonum/mat's own test suite with lapis as BLAS and LAPACK"
bash scripts/gonum-mat.sh

step "guard pages, full tables, with checkptr (under -race they run a sample)"
go test -count=1 -gcflags=all=-d=checkptr -run '^TestGuard$' ./...

step "allocation counts (without -race: its sync.Pool drops buffers at random)"
go test -count=1 -run 'Alloc' ./...

step "cblas, lapack and batch against the 64-bit-integer OpenBLAS (-tags lapis_cgoflags)"
CGO_CFLAGS="$(pkg-config --cflags openblas64)" CGO_LDFLAGS="$(pkg-config --libs openblas64)" \
  go test -count=1 -tags lapis_cgoflags ./cblas/... ./lapack/... ./batch/...

step "without assembly (-tags purego): views, the kernel, and cblas and batch on its Go fallback"
go test -count=1 -tags purego ./views/... ./internal/kernel/... ./internal/split/... ./cblas/... ./batch/...

step "fuzz (${FUZZTIME:-200000x} per target)"
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "-- $pkg $target"
    go test -run='^$' -fuzz="^${target}\$" -fuzztime="${FUZZTIME:-200000x}" "$pkg"
  done
done

step "ok"
