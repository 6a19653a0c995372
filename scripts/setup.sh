#!/usr/bin/env bash
# setup.sh: install what building and testing lapis needs on Debian 12.
#
# Idempotent: packages that are already installed are skipped, and when
# nothing is missing apt is not touched at all. When something is missing,
# `apt-get update` runs first, then one `apt-get install`. Run as root (or
# with sudo available). Exits non-zero with a message naming what failed.
set -euo pipefail

packages=(
  libopenblas-dev   # BLAS + LAPACK (Fortran symbols) in one library
  liblapacke-dev    # LAPACKE C interface (separate from Debian's OpenBLAS)
  libopenblas64-dev # the 64-bit-integer OpenBLAS, to test linking another BLAS
  pkg-config        # cgo finds OpenBLAS through it
  gfortran          # Fortran runtime for LAPACK symbols and C references
  gcc               # cgo
  libscalapack-openmpi-dev # ScaLAPACK + BLACS on Open MPI (package dist)
  libopenmpi-dev    # MPI headers and libmpi (package dist)
  openmpi-bin       # mpirun, to run dist's multi-rank tests and examples/dist
  python3-numpy     # benchmarks only: the numpy columns of scripts/bench-*.sh
  python3-scipy     # tests: Expm checked against scipy.linalg.expm
  libarpack2-dev    # ARPACK (dsaupd_, dseupd_), for examples/arpack
  valgrind          # benchmarks only: instruction counts (scripts/callgrind-ir.sh)
)
min_go="1.26"

die() { printf 'setup.sh: %s\n' "$*" >&2; exit 1; }

command -v dpkg-query >/dev/null 2>&1 || die "this script needs a Debian-like system (dpkg-query not found)"

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to install: ${missing[*]}"
    sudo="sudo"
  fi
  echo "setup.sh: installing ${missing[*]}"
  $sudo apt-get update -q || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || die "apt-get install ${missing[*]} failed"
else
  echo "setup.sh: system packages already installed (${packages[*]})"
fi

# Go itself is not installed here: Debian's golang is older than the module
# needs, and toolchains are not downloaded. Check and say so clearly.
command -v go >/dev/null 2>&1 || die "go not found on PATH; install Go >= ${min_go} (e.g. to /usr/local/go)"
have=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$min_go" "$have" | sort -V | head -n1)" != "$min_go" ]; then
  die "go ${have} is too old; lapis needs Go >= ${min_go}"
fi

pkg-config --exists openblas || die "pkg-config cannot find openblas after install"
echo "setup.sh: ok (go ${have}, openblas $(pkg-config --modversion openblas))"
