# kernels.sh, sourced by the bench scripts: benchmarks run on lapis's own
# kernel-set choice (docs/kernels.md), not on an OPENBLAS_CORETYPE the
# environment happens to carry; LAPIS_OPENBLAS_CORE=<set> forces one. The
# anchors that load OpenBLAS in another process (numpy, mpirun's ranks)
# get the set lapis runs on as their OPENBLAS_CORETYPE, so that every
# column of a table runs the same kernels. Sets LAPIS_CORE and exports
# ANCHOR_CORETYPE (the OPENBLAS_CORETYPE for those processes).
unset OPENBLAS_CORETYPE
LAPIS_CORE=$(go run ./cmd/lapis info -json | sed -n 's/.*"in_use": "\(.*\)".*/\1/p' | head -1)
export ANCHOR_CORETYPE=${LAPIS_CORE}
echo "kernel set: ${LAPIS_CORE:-not OpenBLAS} (lapis's choice; LAPIS_OPENBLAS_CORE=${LAPIS_OPENBLAS_CORE:-unset})" >&2
