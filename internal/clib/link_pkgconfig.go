//go:build !lapis_cgoflags

package clib

// By default the BLAS library is OpenBLAS as pkg-config finds it (Debian:
// libopenblas-dev). Build with -tags lapis_cgoflags to link another CBLAS
// through CGO_CFLAGS and CGO_LDFLAGS instead (docs/blas.md, "Other BLAS
// libraries").

/*
#cgo pkg-config: openblas
*/
import "C"
