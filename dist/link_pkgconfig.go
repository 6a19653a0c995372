//go:build !lapis_cgoflags

package dist

// ScaLAPACK (with BLACS and PBLAS inside) and Open MPI as pkg-config finds
// them (Debian: libscalapack-openmpi-dev, libopenmpi-dev). Its BLAS and
// LAPACK are the system's alternatives, OpenBLAS when libopenblas-dev is
// installed: the same library package lapack links. With -tags
// lapis_cgoflags, CGO_CFLAGS and CGO_LDFLAGS name them instead.

/*
#cgo pkg-config: scalapack-openmpi ompi-c
*/
import "C"
