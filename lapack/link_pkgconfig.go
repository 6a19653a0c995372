//go:build !lapis_cgoflags

package lapack

// By default LAPACK is the one inside OpenBLAS as pkg-config finds it
// (Debian: libopenblas-dev); no LAPACKE library is linked. Build with
// -tags lapis_cgoflags to link another library through CGO_CFLAGS and
// CGO_LDFLAGS instead (docs/blas.md, "Other BLAS libraries").

/*
#cgo pkg-config: openblas
*/
import "C"
