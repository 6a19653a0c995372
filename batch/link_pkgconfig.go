//go:build !lapis_cgoflags

package batch

// By default the BLAS library is OpenBLAS as pkg-config finds it (Debian:
// libopenblas-dev), as for cblas and lapack; -tags lapis_cgoflags takes
// CGO_CFLAGS and CGO_LDFLAGS instead (README, "Other BLAS libraries").

/*
#cgo pkg-config: openblas
*/
import "C"
