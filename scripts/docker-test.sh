#!/usr/bin/env bash
# docker-test.sh: run lapis's tests against every BLAS/LAPACK build a user
# may link, one Docker container per variant, and print a table.
#
#   scripts/docker-test.sh                 all variants
#   scripts/docker-test.sh blis reference  some of them
#   scripts/docker-test.sh --list          the variants
#   scripts/docker-test.sh --clean         remove the images and cache volume
#                                          this script made, then exit
#   scripts/docker-test.sh --base SUITE    only find or build the base image
#                                          of SUITE and print its name (for
#                                          scripts/dist-docker.sh)
#
# Base images: debian:<suite> when it is there or a registry gives it;
# otherwise (no registry, as on the project's machines) lapis-base:<suite>,
# built here with debootstrap (minbase) from the host's Debian mirror and
# `docker import`ed. Either is reused by later runs. Each variant's image
# (lapis-test:<variant>, docker/Dockerfile) adds the variant's packages with
# apt; the tests run in it with this checkout, the host's Go toolchain and
# the host's module cache (filled by `go mod download` first) mounted
# read-only, offline (GOPROXY=off), and a build cache volume
# (lapis-gocache) shared by the variants; then `lapis check -known-ok`
# (docker/run-tests.sh). A variant fails when its tests fail, when lapis
# check finds a WRONG or CRASH that is not a known defect of its library,
# or when the library it ran against is not the one it names; the
# script then shows the end of its log and exits 1 after the table.
#
#   LAPIS_DOCKER_PULL=never   do not try a registry for the base images
#   LAPIS_DEBIAN_MIRROR=URL   the mirror debootstrap and the images use
#                             (default: the host's, else deb.debian.org)
#   LAPIS_DOCKER_JOBS=N       image builds at once (default 2; tests run
#                             one variant at a time)
#   LAPIS_DOCKER_LOGS=DIR     where the logs go (default: a new temp dir)
#   LAPIS_DOCKER_SHORT="v..."  the variants whose tests run with -short
#                             (smaller size tables, gonum's testlapack
#                             sampled as under -race); "all" for every
#                             one. .ci/run sets it (CONTRIBUTING.md#ci);
#                             arm64 always runs -short
#
# The arm64 variant runs under emulation: qemu-user (Debian's
# qemu-user-static, registered with binfmt_misc by binfmt-support) runs
# an arm64 Debian (lapis-base:<suite>-arm64, debootstrap --arch=arm64, or
# arm64v8/debian:<suite> where a registry gives it). Compiling Go under
# emulation is slow, so its test binaries and cmd/lapis are cross-compiled
# on the host (GOARCH=arm64, Debian's gcc-aarch64-linux-gnu, with the
# variant image's file system exported as the sysroot, cached by image
# id) and only run in the container (docker/run-tests.sh, LAPIS_PREBUILT).
# The script mounts binfmt_misc and installs qemu-user-static,
# binfmt-support and gcc-aarch64-linux-gnu on the host when they are
# missing (the host's apt sources are not changed); when that cannot be
# done it prints one line saying why and skips the variant.
#
#   LAPIS_ARM64_CACHE=DIR     where the arm64 sysroot and test binaries
#                             go (default ~/.cache/lapis)
#   LAPIS_ARM64_SETS="a b"    OpenBLAS arm64 kernel sets to rerun the
#                             focused tests under (default neoversen1)
set -euo pipefail
cd "$(dirname "$0")/.."

# The variants: name, Debian suite, packages, alternatives to select
# (@triplet@ is the multiarch triplet), how lapis links, extra CGO_CFLAGS,
# packages to test, and what lapis.Info must report (a regexp over the
# LAPIS_INFO line TestInfo logs).
variants=(openblas-pthread openblas-openmp openblas-serial openblas64 trixie-openblas reference blis mkl arm64)
# What reaches the BLAS/LAPACK library. layout, views and internal (but
# internal/clib, the C layer, and the thread policy over it) are cgo-free
# (scripts/test.sh checks it) and their tests do not reach the library,
# so on amd64 they would repeat the host's runs: only the arm64 variant,
# where their pure-Go fallbacks replace the assembly, runs them (with
# internal/clib and the thread policy, which run against its OpenBLAS).
# internal/test/entry is left out: it calls every public package, dist and
# fortran included (Open MPI, gfortran), and runs on the host (test.sh).
# elem calls no BLAS but links the library through lapis's options, and
# its Go fallbacks replace the assembly on arm64; einsum reaches cblas
# and batch.
lib_pkgs="./cblas/... ./lapack/... ./batch/... ./elem/... ./einsum/... ./gonumblas/... ./gonumlapack/..."
pure_pkgs="./layout/... ./views/... $(go list ./internal/... | grep -v '/internal/test/entry' | tr '\n' ' ')"
# The OpenBLAS builds linked the default way run everything but fortran
# and dist (and their examples), which need gfortran and Open MPI with
# ScaLAPACK: those two are tested on the host by scripts/test.sh, and
# depend on the BLAS only through lapack and cblas, which every variant
# tests. bench/distbench is dist's benchmark (Open MPI), so bench is
# listed without it.
default_pkgs="$lib_pkgs ./bench ./bench/report ./cmd/... ./examples/quickstart/..."
variant() {
  suite=bookworm alternatives="" link=openblas cflags="" pkgs="$default_pkgs" skip_tests=""
  dockerfile=docker/Dockerfile run_env="" # mkl's
  arch="" # empty: the host's; arm64: under emulation (see the top)
  case "$1" in
    openblas-pthread)
      packages="libopenblas0-pthread libopenblas-pthread-dev liblapacke-dev"
      expect='library=OpenBLAS\|.*\|intbits=32\|.*\|parallel=1\|' ;;
    openblas-openmp)
      packages="libopenblas0-openmp libopenblas-openmp-dev liblapacke-dev"
      expect='library=OpenBLAS\|.*\|intbits=32\|.*\|parallel=2\|' ;;
    openblas-serial)
      packages="libopenblas0-serial libopenblas-serial-dev liblapacke-dev"
      expect='library=OpenBLAS\|.*\|intbits=32\|.*\|parallel=0\|' ;;
    openblas64)
      packages="libopenblas64-0-pthread libopenblas64-pthread-dev liblapacke-dev"
      link=openblas64 pkgs="$lib_pkgs"
      expect='library=OpenBLAS\|.*\|path=[^|]*openblas64[^|]*\|intbits=64\|' ;;
    trixie-openblas)
      suite=trixie
      packages="libopenblas0-pthread libopenblas-pthread-dev liblapacke-dev"
      expect='library=OpenBLAS\|version=0\.3\.([3-9][0-9]|2[4-9])\|.*\|intbits=32\|' ;;
    reference)
      packages="libblas-dev liblapack-dev liblapacke-dev"
      alternatives="libblas.so.3-@triplet@=/usr/lib/@triplet@/blas/libblas.so.3 libblas.so-@triplet@=/usr/lib/@triplet@/blas/libblas.so"
      alternatives+=" liblapack.so.3-@triplet@=/usr/lib/@triplet@/lapack/liblapack.so.3 liblapack.so-@triplet@=/usr/lib/@triplet@/lapack/liblapack.so"
      link=generic pkgs="$lib_pkgs"
      expect='library=unknown\|version=\|path=/usr/lib/[^|]*/blas/libblas\.so\.3[^|]*\|intbits=32\|' ;;
    blis)
      packages="libblis4-pthread libblis-pthread-dev liblapack-dev liblapacke-dev"
      alternatives="libblas.so.3-@triplet@=/usr/lib/@triplet@/blis-pthread/libblas.so.3 libblas.so-@triplet@=/usr/lib/@triplet@/blis-pthread/libblas.so"
      alternatives+=" liblapack.so.3-@triplet@=/usr/lib/@triplet@/lapack/liblapack.so.3 liblapack.so-@triplet@=/usr/lib/@triplet@/lapack/liblapack.so"
      link=generic cflags="-I/usr/include/@triplet@/blis-pthread" pkgs="$lib_pkgs"
      # Guard pages: on an Intel Xeon (skx, with BLIS's haswell "sup"
      # kernels) BLIS 0.9.0's float32 small-matrix gemm reads one element
      # past a (through reference LAPACK's sgetrf) and 32 bytes past b,
      # which crashes TestGuard's float32 cases; very likely flame/blis#821
      # (an out-of-bounds read in bli_sgemmsup_rd_haswell_asm_1x16n, fixed
      # by #824 in 2024, after Debian 12's 0.9.0). Not seen on an AMD
      # host. lapis does not work around it; the
      # guard tables run in every other variant.
      skip_tests="^TestGuard$"
      # -lblas gives BLIS's libblas.so.3, which exports no bli_* symbol:
      # lapis.Info says "unknown" and the path tells.
      expect='library=unknown\|version=\|path=/usr/lib/[^|]*/blis-pthread/libblas\.so\.3\|intbits=32\|' ;;
    mkl)
      # Intel MKL 2020.4 (Debian's libmkl-dev, non-free) through the
      # generic route: Debian registers libmkl_rt.so as the libblas.so.3 /
      # liblapack.so.3 alternative, lapis links -lblas -llapack, and
      # mkl_rt loads the LP64 interface and GNU OpenMP threading layers
      # that run_env names. libmkl_gnu_thread.so needs libgomp in the
      # process and mkl_rt does not load it (it looks for an unversioned
      # libgomp.so, which Debian keeps in gcc's private directory), and
      # cgo's link drops a -lgomp nothing references: without
      # -Wl,--no-as-needed,-lgomp the first call fails with "undefined
      # symbol: omp_get_num_procs". libmkl_core.so calls log10 without
      # naming libm as needed (-lm, or lapack's tests fail with
      # "undefined symbol: log10"). Debian ships no libiomp5 for MKL's
      # default Intel layer. docker/Dockerfile.mkl adds
      # non-free to the image's apt sources (and OpenBLAS, for
      # scripts/bench-mkl.sh).
      dockerfile=docker/Dockerfile.mkl
      packages="libmkl-dev liblapacke-dev libopenblas0-pthread libopenblas-pthread-dev"
      alternatives="libblas.so.3-@triplet@=/usr/lib/@triplet@/libmkl_rt.so libblas.so-@triplet@=/usr/lib/@triplet@/libmkl_rt.so"
      alternatives+=" liblapack.so.3-@triplet@=/usr/lib/@triplet@/libmkl_rt.so liblapack.so-@triplet@=/usr/lib/@triplet@/libmkl_rt.so"
      run_env="MKL_INTERFACE_LAYER=LP64 MKL_THREADING_LAYER=GNU LAPIS_LDFLAGS=-Wl,--no-as-needed,-lgomp,-lm"
      # bench links OpenBLAS by pkg-config (its C references): left out.
      link=generic pkgs="$lib_pkgs ./cmd/... ./examples/quickstart/..."
      expect='library=MKL\|version=2020\.[^|]*\|path=/usr/lib/[^|]*/libmkl_rt\.so\|intbits=32\|.*\|variant=per-thread\|' ;;
    arm64)
      # Under qemu: the packages whose code differs on arm64 (every
      # assembly kernel has a pure-Go fallback there) and what reaches
      # OpenBLAS's arm64 kernels; docker/run-tests.sh says what runs.
      arch=arm64
      packages="libopenblas0-pthread libopenblas-pthread-dev liblapacke-dev"
      pkgs="$pure_pkgs $lib_pkgs"
      # The subset sized for emulation: -short (smaller size tables, and
      # testlapack's largest suites skipped as under -race), then the
      # focused tests under the kernel set of Graviton 2 and Ampere Altra
      # besides the one OpenBLAS picks under qemu (armv8);
      # LAPIS_ARM64_SETS names others (each adds about 3 minutes).
      arm64_flags="-test.short" arm64_sets=${LAPIS_ARM64_SETS-neoversen1}
      # The thread policy's concurrency test relies on sequentially
      # consistent atomics, which qemu-user does not give an arm64 guest
      # on an x86 host (internal/rt/threads: TestConcurrentSections failed
      # there once, a section raised while another ran); real arm64 keeps
      # the order (STLR then LDAR), and every amd64 variant runs the test.
      skip_tests="^TestConcurrentSections$"
      expect='library=OpenBLAS\|.*\|intbits=32\|.*\|parallel=1\|' ;;
    *) return 1 ;;
  esac
}

die() { printf 'docker-test.sh: %s\n' "$*" >&2; exit 1; }
say() { printf 'docker-test.sh: %s\n' "$*" >&2; }

case "${1:-}" in
  --list) printf '%s\n' "${variants[@]}"; exit 0 ;;
  --clean)
    # The variant images carry a label (older, untagged builds too), so
    # none is left holding a base image.
    for img in $(docker image ls -q -a --filter label=org.lapis-go.lapis.test=1 | sort -u) $(docker image ls -q lapis-base | sort -u); do
      docker image rm -f "$img" >/dev/null 2>&1 || true
    done
    docker volume rm -f lapis-gocache >/dev/null 2>&1 || true
    echo "docker-test.sh: removed lapis-test:*, lapis-base:* and the lapis-gocache volume"
    exit 0 ;;
  --base)
    [ $# -eq 2 ] || die "--base takes one Debian suite (bookworm, trixie)"
    base_only=$2; set -- ;;
  -*) die "unknown option $1 (see the top of $0)" ;;
esac
run=("$@")
[ ${#run[@]} -gt 0 ] || run=("${variants[@]}")
for v in "${run[@]}"; do variant "$v" || die "unknown variant '$v'; variants: ${variants[*]}"; done

command -v docker >/dev/null 2>&1 || die "docker not found"
docker info >/dev/null 2>&1 || die "the Docker daemon does not answer (docker info)"
command -v go >/dev/null 2>&1 || die "go not found on PATH (its toolchain is mounted into the containers)"
goroot=$(go env GOROOT)
[ "$(go env GOOS)" = linux ] || die "the host's Go must be a linux toolchain to run in the containers"

logs=${LAPIS_DOCKER_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/lapis-docker.XXXXXX")}
mkdir -p "$logs"
say "logs in $logs"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root (or sudo) for: $*"
  fi
}

# The Debian mirror the host uses (first .../debian URI of its apt
# sources), for debootstrap and the images' sources.list.
debian_mirror() {
  if [ -n "${LAPIS_DEBIAN_MIRROR:-}" ]; then echo "${LAPIS_DEBIAN_MIRROR%/}"; return; fi
  local m
  m=$( (grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{for (i = 2; i <= NF; i++) print $i}'
        grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; break}}') |
       grep -E '/debian/?$' | head -n1)
  echo "${m:-http://deb.debian.org/debian}" | sed 's:/*$::'
}

# build_base suite [arch]: debootstrap a minbase Debian and import it as
# lapis-base:<suite> (lapis-base:<suite>-<arch> for another architecture,
# whose second stage runs under qemu).
build_base() {
  local suite=$1 arch=${2:-} tag="lapis-base:$1${2:+-$2}" mirror root log="$logs/base-$1${2:+-$2}.log"
  mirror=$(debian_mirror)
  if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap"
    as_root apt-get update -q >"$logs/apt-debootstrap.log" 2>&1 || { tail -n 20 "$logs/apt-debootstrap.log" >&2; die "apt-get update failed"; }
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q --no-install-recommends debootstrap >>"$logs/apt-debootstrap.log" 2>&1 ||
      { tail -n 20 "$logs/apt-debootstrap.log" >&2; die "apt-get install debootstrap failed"; }
  fi
  root=$(mktemp -d "${TMPDIR:-/tmp}/lapis-base-$suite.XXXXXX")
  say "debootstrap ${arch:+--arch=$arch }$suite from $mirror (log: $log)"
  if ! as_root debootstrap --variant=minbase --components=main ${arch:+--arch="$arch"} "$suite" "$root" "$mirror" >"$log" 2>&1; then
    tail -n 30 "$log" >&2; as_root rm -rf "$root"; die "debootstrap $suite failed (log: $log)"
  fi
  local security=${mirror%/debian}/debian-security
  as_root sh -c "cat > '$root/etc/apt/sources.list'" <<EOF_SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF_SOURCES
  as_root sh -c "echo 'APT::Install-Recommends \"false\";' > '$root/etc/apt/apt.conf.d/90lapis'
    rm -rf '$root'/var/cache/apt/archives/*.deb '$root'/var/lib/apt/lists/*"
  # (docker 20.10 records the host's architecture on an import whatever
  # --platform says; the files are what counts.)
  if ! as_root tar -C "$root" -c . | docker import -c 'CMD ["bash"]' -m "debootstrap --variant=minbase ${arch:+--arch=$arch }$suite $mirror" - "$tag" >>"$log" 2>&1; then
    tail -n 10 "$log" >&2; as_root rm -rf "$root"; die "docker import of $tag failed"
  fi
  as_root rm -rf "$root"
  say "built $tag"
}

# base_image suite [arch]: prints the image to build on, making it when
# needed.
base_image() {
  local suite=$1 arch=${2:-} tag official="debian:$1"
  [ "$arch" != arm64 ] || official="arm64v8/debian:$suite" # Docker's arm64 namespace
  for tag in "$official" "lapis-base:$suite${arch:+-$arch}"; do
    if docker image inspect "$tag" >/dev/null 2>&1; then echo "$tag"; return; fi
  done
  if [ "${LAPIS_DOCKER_PULL:-auto}" != never ] && docker pull -q "$official" >"$logs/pull-$suite$arch.log" 2>&1; then
    echo "$official"; return
  fi
  say "no $official (no registry answers: $(tail -n1 "$logs/pull-$suite$arch.log" 2>/dev/null | cut -c1-100)); building it"
  build_base "$suite" "$arch" >&2
  echo "lapis-base:$suite${arch:+-$arch}"
}

[ -z "${base_only:-}" ] || { base_image "$base_only"; exit 0; }

# arm64_ready: whether this host runs arm64 containers (qemu-user through
# binfmt_misc) and cross-compiles for them, setting up what is missing;
# when it cannot, prints the reason and fails.
arm64_ready() {
  local alog="$logs/apt-arm64.log" missing=() reg=/proc/sys/fs/binfmt_misc/qemu-aarch64
  case "$(uname -m)" in
    x86_64) ;;
    *) echo "the arm64 variant cross-compiles from an x86-64 host; this one is $(uname -m)"; return 1 ;;
  esac
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
    echo "binfmt_misc and qemu-user-static need root (or sudo)"; return 1
  fi
  if [ ! -e /proc/sys/fs/binfmt_misc/status ] &&
    ! as_root mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc >"$logs/binfmt-mount.log" 2>&1; then
    echo "binfmt_misc is not mounted and cannot be ($(tail -n1 "$logs/binfmt-mount.log"))"; return 1
  fi
  command -v update-binfmts >/dev/null 2>&1 || missing+=(binfmt-support)
  [ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || command -v qemu-aarch64-static >/dev/null 2>&1 || missing+=(qemu-user-static)
  command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (log: $alog)"
    { as_root apt-get update -q && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$alog" 2>&1 ||
      { echo "apt-get install ${missing[*]} failed ($(tail -n1 "$alog"))"; return 1; }
  fi
  [ -e "$reg" ] || as_root update-binfmts --enable qemu-aarch64 >>"$alog" 2>&1 || true
  if ! grep -qx enabled "$reg" 2>/dev/null; then
    echo "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --enable qemu-aarch64 failed)"; return 1
  fi
  # F: the kernel opens the interpreter at registration, so it works
  # inside containers that do not have it.
  if ! grep -q '^flags:.*F' "$reg"; then
    echo "qemu-aarch64 is registered without the F (fix-binary) flag, so containers cannot reach it"; return 1
  fi
}

skipped=() skip_rows=() # variants skipped, and the rows of those left out of run
for v in "${run[@]}"; do
  variant "$v"
  [ "$arch" = arm64 ] || continue
  if ! why=$(arm64_ready); then
    echo "docker-test.sh: $v: skipped: $why"
    skipped+=("$v") skip_rows+=("| $v | skipped: $why | | | | | | | | | skipped |")
    keep=() # run without it
    for w in "${run[@]}"; do [ "$w" = "$v" ] || keep+=("$w"); done
    run=("${keep[@]}")
  fi
done

# Modules: downloaded on the host, mounted read-only.
say "go mod download"
go mod download || die "go mod download failed"
modcache=$(go env GOMODCACHE)
docker volume create lapis-gocache >/dev/null

# Images: built in the background, LAPIS_DOCKER_JOBS at a time, while the
# tests of the images already built run one variant at a time. The base
# images are found or made in the same background sequence, each before
# the first image on it, so that a cold run's debootstraps (about 3
# minutes each, the arm64 one more) overlap the first variants' tests.
# Each variant's base image name goes to base-<variant>.name, and
# build-<variant>.done gets "<exit code> <seconds>".
build_image() {
  local v=$1 b=$2 start rc=0
  variant "$v"
  start=$(date +%s)
  docker build -t "lapis-test:$v" -f "$dockerfile" \
    --build-arg BASE="$b" --build-arg PACKAGES="$packages" \
    --build-arg ALTERNATIVES="$alternatives" docker >"$logs/build-$v.log" 2>&1 || rc=$?
  echo "$rc $(($(date +%s) - start))" >"$logs/build-$v.done"
}
(
  jobs=${LAPIS_DOCKER_JOBS:-2} n=0
  declare -A base
  for v in "${run[@]}"; do
    variant "$v"
    if [ -z "${base[$suite$arch]:-}" ]; then
      start=$(date +%s)
      if ! base[$suite$arch]=$(base_image "$suite" "$arch" 2>"$logs/base-image-$v.log"); then
        cat "$logs/base-image-$v.log" >&2
        cp "$logs/base-image-$v.log" "$logs/build-$v.log"
        echo "1 $(($(date +%s) - start))" >"$logs/build-$v.done"
        base[$suite$arch]=""
        continue
      fi
      cat "$logs/base-image-$v.log" >&2
    fi
    echo "${base[$suite$arch]}" >"$logs/base-$v.name"
    build_image "$v" "${base[$suite$arch]}" &
    n=$((n + 1))
    if [ "$n" -ge "$jobs" ]; then wait -n; n=$((n - 1)); fi
  done
  wait
) &
builder=$!
trap 'kill "$builder" 2>/dev/null || true' EXIT

# arm64_prepare variant: cross-compiles the variant's test binaries and
# cmd/lapis for arm64 into a directory (printed) that docker/run-tests.sh
# runs them from, with a file list (tests.txt). The sysroot is the
# variant image's /usr and /etc/alternatives, exported once per image id;
# its absolute symbolic links (Debian's alternatives) are pointed into it.
arm64_prepare() {
  local v=$1 cache=${LAPIS_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lapis} id sr out c testpkgs
  id=$(docker image inspect -f '{{.Id}}' "lapis-test:$v") || return 1
  id=${id#sha256:}
  sr=$cache/sysroot-$v-${id:0:12} out=$cache/bin-$v
  if [ ! -e "$sr/.complete" ]; then
    rm -rf "$cache/sysroot-$v-"* && mkdir -p "$sr" || return 1
    c=$(docker create "lapis-test:$v" true) || return 1
    docker export "$c" | tar -x -C "$sr" lib usr/include usr/lib etc/alternatives || { docker rm "$c" >/dev/null; return 1; }
    docker rm "$c" >/dev/null
    find "$sr" -type l -lname '/*' -print0 | while IFS= read -r -d '' l; do ln -sfn "$sr$(readlink "$l")" "$l"; done
    touch "$sr/.complete"
  fi
  rm -rf "$out" && mkdir -p "$out" || return 1
  # shellcheck disable=SC2086 # pkgs is a list
  (
    export GOOS=linux GOARCH=arm64 CGO_ENABLED=1 CC="aarch64-linux-gnu-gcc --sysroot=$sr" CGO_CFLAGS="-O2 -g" \
      PKG_CONFIG_SYSROOT_DIR="$sr" PKG_CONFIG_LIBDIR="$sr/usr/lib/aarch64-linux-gnu/pkgconfig:$sr/usr/share/pkgconfig"
    go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.Dir}} {{.ImportPath}}{{end}}' $pkgs >"$out/list.txt" &&
      testpkgs=$(awk '{print $2}' "$out/list.txt") &&
      awk -v root="$PWD/" '{d = $1; sub(root, "", d); n = split($2, p, "/"); print d, p[n] ".test"}' "$out/list.txt" >"$out/tests.txt" &&
      go test -c -o "$out/" $testpkgs &&
      go build -o "$out/lapis" ./cmd/lapis &&
      echo "go $(go env GOVERSION) GOARCH=arm64, $(aarch64-linux-gnu-gcc -dumpversion | sed 's/^/aarch64-linux-gnu-gcc /'), sysroot lapis-test:$v ${id:0:12}" >"$out/built.txt"
  ) >&2 || return 1
  echo "$out"
}

rows=() failed=() passed=0
for v in "${run[@]}"; do
  variant "$v"
  while [ ! -f "$logs/build-$v.done" ]; do
    kill -0 "$builder" 2>/dev/null || [ -f "$logs/build-$v.done" ] || die "the image builder stopped before $v's image (logs: $logs)"
    sleep 2
  done
  read -r brc btime <"$logs/build-$v.done"
  vbase=$(cat "$logs/base-$v.name" 2>/dev/null || echo "no base image")
  log="$logs/test-$v.log"
  # A variant whose packages the mirror does not serve (mkl: the non-free
  # component unreachable) is skipped, saying so in one line.
  # (apt's messages come with colour codes in docker build's log.)
  if [ "$brc" -ne 0 ] && [ "$v" = mkl ] &&
     sed 's/\x1b\[[0-9;]*m//g' "$logs/build-$v.log" |
     grep -Eq "Unable to locate package libmkl|Package 'libmkl-dev' has no installation candidate|Failed to fetch [^ ]*non-free"; then
    say "$v: skipped: no libmkl-dev from $(debian_mirror) (non-free unreachable, or no MKL for this architecture): $(sed 's/\x1b\[[0-9;]*m//g' "$logs/build-$v.log" | grep -E '^(E|W):' | tail -n1 | cut -c1-100)"
    rows+=("| $v | $vbase | skipped: non-free unreachable | | | | | | | ${btime}s | skipped |")
    skipped+=("$v")
    continue
  fi
  if [ "$brc" -ne 0 ]; then
    say "$v: docker build failed; end of $logs/build-$v.log:"
    tail -n 40 "$logs/build-$v.log" >&2
    rows+=("| $v | image build failed | | | | | | | | ${btime}s |")
    failed+=("$v"); continue
  fi
  extra=() xtime=""
  if [ "$arch" = arm64 ]; then
    start=$(date +%s)
    if ! bindir=$(arm64_prepare "$v" 2>"$logs/cross-$v.log"); then
      say "$v: cross-compiling failed; end of $logs/cross-$v.log:"
      tail -n 40 "$logs/cross-$v.log" >&2
      rows+=("| $v | cross-compiling failed | | | | | | | | ${btime}s |")
      failed+=("$v"); continue
    fi
    xtime=", $(($(date +%s) - start))s cross-compile"
    extra=(-v "$bindir:/lapis-bin:ro" -e LAPIS_PREBUILT=/lapis-bin -e LAPIS_TESTFLAGS="$arm64_flags" -e LAPIS_ARM64_SETS="$arm64_sets")
  fi
  for e in $run_env; do extra+=(-e "$e"); done
  short=""
  if [[ " ${LAPIS_DOCKER_SHORT:-} " == *" all "* || " ${LAPIS_DOCKER_SHORT:-} " == *" $v "* || "$arch" = arm64 ]]; then
    extra+=(-e LAPIS_SHORT=1) short=" (-short)"
  fi
  say "$v: testing (image built in ${btime}s${xtime})"
  start=$(date +%s) rc=0
  docker run --rm --name "lapis-test-$v-$$" ${extra[@]+"${extra[@]}"} \
    -v "$PWD:/src:ro" -v "$goroot:/usr/local/go:ro" -v "$modcache:/gomodcache:ro" -v lapis-gocache:/gocache \
    -e LAPIS_VARIANT="$v" -e LAPIS_LINK="$link" -e LAPIS_CFLAGS="$cflags" -e LAPIS_PKGS="$pkgs" -e LAPIS_SKIP="$skip_tests" \
    "lapis-test:$v" >"$log" 2>&1 || rc=$?
  secs=$(($(date +%s) - start))
  info=$(grep -o 'LAPIS_INFO|.*' "$log" | head -n1 || true)
  field() { sed -n "s/.*|$1=\([^|]*\).*/\1/p" <<<"$info"; }
  pass=$(grep -c -- '--- PASS:' "$log" || true)
  fail=$(grep -c -- '--- FAIL:' "$log" || true)
  skip=$(grep -c -- '--- SKIP:' "$log" || true)
  # lapis check's summary line, e.g. "17 ok, 1 WRONG, 0 CRASH (1 of them known library defects), ...".
  checked=$(grep -E '^[0-9]+ ok, [0-9]+ WRONG, [0-9]+ CRASH' "$log" | tail -n1 | sed 's/ in [0-9.]*s$//' || true)
  check_rc=$(sed -n 's/^LAPIS_CHECK|rc=//p' "$log" | tail -n1)
  [ -n "$checked" ] && [ "${check_rc:-}" != 0 ] && checked+=" (exit $check_rc)"
  stress=$(grep -o -- '--- [A-Z]*: TestStress ([0-9.]*s)' "$log" | head -n1 | sed 's/--- \([A-Z]*\): TestStress (\(.*\))/\1 \2/' || true)
  calls=$(grep -o '[0-9]* calls compared' "$log" | head -n1 | cut -d' ' -f1 || true)
  [ -n "$stress" ] && [ -n "$calls" ] && stress+=", $calls calls"
  verdict=ok
  if [ "$rc" -ne 0 ]; then
    verdict="FAIL (exit $rc)"
  elif ! grep -Eq "$expect" <<<"$info"; then
    verdict="FAIL (library is not the variant's: want /$expect/)"
  fi
  lib="$(field library) $(field version)"
  threads="$(field threads)"
  [ "$(field parallel)" = 0 ] && threads+=" (serial)"
  [ "$(field parallel)" = 1 ] && threads+=" (pthreads)"
  [ "$(field parallel)" = 2 ] && threads+=" (OpenMP)"
  [ "$(field variant)" = per-thread ] && threads+=" (per-thread: $(sed -n 's/.*layers: \([^|]*\).*/\1/p' <<<"$info" | grep -o 'libmkl_[a-z]*_thread\|libmkl_sequential' | head -n1))"
  rows+=("| $v | $vbase | $lib | $(field path) | $(field intbits) | $threads | $pass / $fail / $skip$short | ${stress:-not run} | ${checked:-not run} | ${secs}s (+${btime}s build${xtime}) | $verdict |")
  if [ "$verdict" != ok ]; then
    failed+=("$v")
    say "$v: $verdict; end of $log:"
    grep -E -- '^(--- FAIL|FAIL|panic:)|_test\.go:[0-9]+:' "$log" | grep -v LAPIS_INFO | tail -n 30 >&2 || true
    echo "..." >&2
    tail -n 40 "$log" >&2
  else
    passed=$((passed + 1))
    say "$v: ok ($pass passed, $skip skipped, ${secs}s)"
  fi
done
wait "$builder" 2>/dev/null || true
trap - EXIT

echo
echo "| variant | base | library (lapis.Info) | loaded from | int bits | threads | tests pass / fail / skip | stress test | lapis check | time | result |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' ${rows[@]+"${rows[@]}"} ${skip_rows[@]+"${skip_rows[@]}"}
echo
echo "(test counts include subtests; logs in $logs)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "docker-test.sh: failed: ${failed[*]}" >&2
  exit 1
fi
if [ ${#skipped[@]} -gt 0 ]; then
  echo "docker-test.sh: $passed variants passed; skipped (prerequisites not available): ${skipped[*]}"
else
  echo "docker-test.sh: all $passed variants passed"
fi
