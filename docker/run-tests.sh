#!/usr/bin/env bash
# run-tests.sh: the test steps of one variant, inside its container
# (docker/Dockerfile; scripts/docker-test.sh runs it with the source at
# /src, Go at /usr/local/go, the module cache at /gomodcache, read-only).
#
#   LAPIS_VARIANT  the variant's name (scripts/docker-test.sh lists them)
#   LAPIS_LINK     openblas:   the default build (pkg-config openblas)
#                  openblas64: -tags lapis_cgoflags, pkg-config openblas64
#                  generic:    -tags lapis_cgoflags, -lblas -llapack (the
#                              libraries Debian's alternatives select)
#                              plus LAPIS_CFLAGS (@triplet@ in it is
#                              the multiarch triplet) and LAPIS_LDFLAGS
#   LAPIS_PKGS     the packages to test (default ./...)
#   LAPIS_SKIP     tests to skip (go test -skip), for a library's known
#                  defect that lapis does not work around (docker-test.sh
#                  says which and why)
#   LAPIS_PREBUILT a directory of test binaries and cmd/lapis built for
#                  this architecture elsewhere (the arm64 variant: cross-
#                  compiled on the host, since compiling under qemu is
#                  slow), with tests.txt listing "<package dir> <binary>":
#                  they run instead of go test, then the kernel-set runs
#                  and lapis check below use them too
#   LAPIS_TESTFLAGS more flags for the prebuilt binaries (-test.short)
#   LAPIS_SHORT    1: go test -short (smaller size tables, gonum's
#                  testlapack sampled as under -race): the CI-sized run
#   LAPIS_ARM64_SETS OpenBLAS kernel sets to run the focused tests under
#
# It prints the Debian packages and alternatives in use, then runs
# go test -v over the packages (no -race, no fuzzing: docker-test.sh keeps
# the matrix lean; scripts/test.sh does those on the host), for OpenBLAS
# the tests that found the old kernel sets' defects under Prescott and
# Sandybridge, then builds
# cmd/lapis the same way and runs `lapis check -known-ok` against the
# variant's library (a WRONG or CRASH that is not a known defect of that
# library's version fails the variant). Exit status: 0 when both pass.
set -uo pipefail
cd /src

triplet=$(gcc -print-multiarch)
# (With LAPIS_PREBUILT no Go runs here: the host's x86-64 toolchain is
# mounted all the same, and would run natively on an arm64 image.)
goversion="go $(go env GOVERSION)"
[ -z "${LAPIS_PREBUILT:-}" ] || goversion="prebuilt tests ($(uname -m))"
echo "== variant ${LAPIS_VARIANT:?}: $(. /etc/os-release && echo "$PRETTY_NAME"), $goversion, $triplet"
echo "== packages"
dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' 'libopenblas*' 'libblas*' 'liblapack*' 'libblis*' 'libmkl-rt' 'libmkl-gnu-thread' 2>/dev/null | awk '$1 == "ii" {print "  " $2, $3}'
echo "== alternatives"
for a in libblas.so.3 liblapack.so.3 libblas.so liblapack.so; do
  v=$(update-alternatives --query "$a-$triplet" 2>/dev/null | sed -n 's/^Value: //p')
  [ -n "$v" ] && echo "  $a -> $v"
done

# run_prebuilt dirs flags...: the test binary of each package whose
# directory matches the regexp dirs, in that directory as go test runs
# it, then one line per package ("ok|FAIL <dir> <seconds>s").
run_prebuilt() {
  local only=$1 dir bin start r rc=0
  shift
  while read -r dir bin; do
    [[ -n "$bin" && "$dir" =~ $only ]] || continue
    echo "== $dir: $bin $*"
    start=$(date +%s)
    (cd "/src/$dir" && "$LAPIS_PREBUILT/$bin" -test.count=1 -test.timeout=20m "$@")
    r=$?
    [ "$r" -eq 0 ] && echo "ok	$dir	$(($(date +%s) - start))s" || { echo "FAIL	$dir	$(($(date +%s) - start))s (exit $r)"; rc=1; }
  done <"$LAPIS_PREBUILT/tests.txt"
  return "$rc"
}

if [ -n "${LAPIS_PREBUILT:-}" ]; then
  echo "== prebuilt for $(uname -m): $(tr '\n' ' ' <"$LAPIS_PREBUILT/built.txt" 2>/dev/null)"
  # Under qemu-user a child of the guard-page tests once deadlocked
  # between fork and exec; their groups run one at a time here
  # (internal/test/guard's envSerial).
  export LAPIS_GUARD_SERIAL=1
  # shellcheck disable=SC2086 # LAPIS_TESTFLAGS is a list
  run_prebuilt . -test.v ${LAPIS_SKIP:+-test.skip "$LAPIS_SKIP"} ${LAPIS_TESTFLAGS:-}
  rc=$?
  # OpenBLAS's kernel sets for this architecture other than the one it
  # chose (lapis chooses sets on x86-64 only; under qemu OpenBLAS 0.3.21
  # falls back to armv8): the tests that found the x86 sets' defects,
  # under the sets LAPIS_ARM64_SETS names (run as OPENBLAS_CORETYPE=<set>;
  # each run fails unless openblas_get_corename() then says <set>).
  for set in ${LAPIS_ARM64_SETS:-}; do
    echo "== kernel set $set (OPENBLAS_CORETYPE=$set)"
    OPENBLAS_CORETYPE=$set LAPIS_TEST_WANT_CORE=$set run_prebuilt '^(cblas|lapack|batch|gonumblas)$' -test.short \
      -test.run "${LAPIS_SETS_RUN:-TestGuard|TestBatchOps|TestScal|TestLevel2|TestKernel|TestConformance}" || rc=1
  done
  echo "== lapis check -known-ok"
  check_rc=0
  "$LAPIS_PREBUILT/lapis" check -known-ok || check_rc=$?
  echo "LAPIS_CHECK|rc=$check_rc"
  [ "$rc" -ne 0 ] || rc=$check_rc
  exit "$rc"
fi

tags=""
flags="-O2 -g -DLAPIS_VARIANT=${LAPIS_VARIANT//[^A-Za-z0-9_]/_}" # the marker keys the shared build cache per variant
case "${LAPIS_LINK:-openblas}" in
  openblas)
    export CGO_CFLAGS="$flags" ;;
  openblas64)
    tags=lapis_cgoflags
    export CGO_CFLAGS="$flags $(pkg-config --cflags openblas64)" CGO_LDFLAGS="$(pkg-config --libs openblas64)" ;;
  generic)
    tags=lapis_cgoflags
    export CGO_CFLAGS="$flags ${LAPIS_CFLAGS//@triplet@/$triplet}" CGO_LDFLAGS="-lblas -llapack${LAPIS_LDFLAGS:+ $LAPIS_LDFLAGS}" ;;
  *)
    echo "run-tests.sh: unknown LAPIS_LINK=$LAPIS_LINK" >&2; exit 2 ;;
esac
short=""
[ "${LAPIS_SHORT:-}" != 1 ] || short=-short
echo "== go test $short -tags '$tags' ${LAPIS_PKGS:-./...}   (CGO_CFLAGS='$CGO_CFLAGS' CGO_LDFLAGS='${CGO_LDFLAGS:-}')"
# shellcheck disable=SC2086 # LAPIS_PKGS is a list
go test -count=1 -v -timeout 20m $short -tags "$tags" ${LAPIS_SKIP:+-skip "$LAPIS_SKIP"} ${LAPIS_PKGS:-./...}
rc=$?
# The old kernel sets' defects (docs/kernels.md) under this variant's
# OpenBLAS: the tests that found them, with lapis's switch off, on the
# x86-64-v1 set and on Sandybridge (scripts/kernel-sets.sh runs the full
# suites on the host).
case "${LAPIS_LINK:-openblas}" in
  openblas | openblas64)
    go build -tags "$tags" -o /tmp/lapis-sets ./cmd/lapis
    avail=" $(/tmp/lapis-sets info -sets | tr '\n' ' ') "
    for set in Prescott Sandybridge; do
      if [[ "$avail" != *" $set "* ]]; then
        echo "== kernel set $set: not available here (sets:$avail)"
        continue
      fi
      echo "== kernel set $set (OPENBLAS_CORETYPE=$set LAPIS_OPENBLAS_CORE=off)"
      OPENBLAS_CORETYPE=$set LAPIS_OPENBLAS_CORE=off LAPIS_TEST_WANT_CORE=$set \
        go test -count=1 $short -tags "$tags" -run 'TestGuard|TestBatchOps|TestScal|TestLevel2|TestKernel|TestConformance' ./cblas ./lapack ./batch ./gonumblas || rc=1
    done ;;
esac
echo "== lapis check -known-ok"
check_rc=0
go build -tags "$tags" -o /tmp/lapis ./cmd/lapis && /tmp/lapis check -known-ok || check_rc=$?
echo "LAPIS_CHECK|rc=$check_rc"
[ "$rc" -ne 0 ] || rc=$check_rc
exit "$rc"
