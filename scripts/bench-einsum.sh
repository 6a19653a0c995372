#!/usr/bin/env bash
# bench-einsum.sh: package einsum against its anchors, in one run: the
# five cases of issue 39 with a prepared plan in lapis's column-major and
# numpy's C-order layouts and the GEMM of the same size (go test -bench
# BenchmarkEinsum), the fixed cost of a plan on an MPS inner product
# (BenchmarkMPS), the TCCG corpus against the same-size GEMM
# (BenchmarkTCCG, one thread), then numpy.einsum and torch.einsum on the
# same cases (bench/einsum/anchors.py, Debian's /usr/bin/python3 with
# python3-numpy and python3-torch, which this script installs when it
# runs as root and torch is missing).
#   scripts/bench-einsum.sh            # all
#   TCCG=0 COUNT=3 scripts/bench-einsum.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}
source scripts/kernels.sh # lapis's kernel set, and the same for the anchors
echo "# einsum, float64 (MPS: complex128), $(nproc) cores, kernel set: ${LAPIS_CORE:-not OpenBLAS}"
go test -run '^$' -bench 'Einsum|MPS' -count "$count" -benchtime "${BENCHTIME:-1s}" ./einsum
if [ "${TCCG:-1}" != 0 ]; then
  go test -run '^$' -bench 'TCCG' -count 1 -benchtime 5x ./einsum
fi
# The anchors' setup: python3-torch is a benchmark anchor only (setup.sh
# installs python3-numpy; the tests need neither).
if ! /usr/bin/python3 -c 'import torch' 2>/dev/null && [ "$(id -u)" = 0 ] && [ "${INSTALL_TORCH:-1}" != 0 ]; then
  echo "# installing python3-torch for the anchors (INSTALL_TORCH=0 skips)" >&2
  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3-torch; } >&2 || true
fi
if /usr/bin/python3 -c 'import numpy, torch' 2>/dev/null; then
  OPENBLAS_CORETYPE=$ANCHOR_CORETYPE /usr/bin/python3 bench/einsum/anchors.py
else
  echo "# anchors skipped: /usr/bin/python3 lacks numpy or torch (apt-get install python3-numpy python3-torch)"
fi
