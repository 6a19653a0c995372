//go:build !lapis_cgoflags

package cref

// The C references (cref.go) link the library lapis links: OpenBLAS as
// pkg-config finds it by default, or with -tags lapis_cgoflags whatever
// CGO_LDFLAGS names (docs/blas.md, "Other BLAS libraries").

/*
#cgo pkg-config: openblas
*/
import "C"
