// Package clib is lapis's one C layer: every call from Go into the linked
// BLAS and LAPACK library (OpenBLAS by default) goes through it, and no
// other package of the library imports "C" for them. It holds
//
//   - the generated dispatchers, one generic function per routine family
//     with the library's own argument list in Go's types: BLAS in
//     zblas.go (Gemm calls cblas_sgemm, cblas_dgemm, cblas_cgemm or
//     cblas_zgemm by element type), LAPACK in zlapack.go (Getrf calls
//     sgetrf_ ... zgetrf_);
//   - the C loops that run many small products or solves in one cgo call
//     (GemmStrided, GesvSmall);
//   - the library's facts and controls: which library it is, its version,
//     config and integer width, its thread count (OpenBLAS and MKL), and
//     OpenBLAS's kernel-set switch.
//
// Callers check every argument before they call: sizes fit the library's
// integer (IntBits), pointers reach the memory the routine touches, and
// nothing is nil where the routine reads. The functions here convert
// without checking, never keep a pointer after they return and never call
// back into Go.
//
// The library is found by pkg-config (openblas) unless the build has
// -tags lapis_cgoflags, which takes CGO_CFLAGS and CGO_LDFLAGS as they
// are (docs/blas.md#other-blas-libraries).
package clib

//go:generate go run ./internal/genblas zblas.go
//go:generate go run ./internal/genlapack zlapack.go ../../lapack/zfamilies.go

/*
#include "lapis_cblas.h"
#include "lapis_lapack.h"
*/
import "C"

import "unsafe"

// IntBits is the width in bits of the BLAS integer lapis was compiled
// for (blasint of the library's cblas.h); LAPACKIntBits that of the
// LAPACK integer (lapack_int of lapack.h). They are equal for every
// library lapis links; lapis.Info reports both and what the library says.
const (
	IntBits       = int(unsafe.Sizeof(C.blasint(0))) * 8
	LAPACKIntBits = int(unsafe.Sizeof(C.lapis_int(0))) * 8
)

// Trans, Uplo, Diag and Side are CBLAS's enum arguments (their values
// are CBLAS's).
type (
	Trans int32
	Uplo  int32
	Diag  int32
	Side  int32
)

const (
	NoTrans   Trans = C.CblasNoTrans
	DoTrans   Trans = C.CblasTrans
	ConjTrans Trans = C.CblasConjTrans

	Upper Uplo = C.CblasUpper
	Lower Uplo = C.CblasLower

	NonUnit Diag = C.CblasNonUnit
	Unit    Diag = C.CblasUnit

	Left  Side = C.CblasLeft
	Right Side = C.CblasRight
)

// Fits reports whether v is representable in the BLAS integer (IntBits)
// and the library uses the integer lapis was compiled for
// (LibraryIntBits): the check every size, increment and leading
// dimension passes before it is handed to a function here.
func Fits(v int) bool {
	return LibraryIntBits == IntBits && (IntBits >= 64 || v == int(int32(v)))
}

// FitsLAPACK is Fits for the LAPACK integer (LAPACKIntBits).
func FitsLAPACK(v int) bool {
	return LibraryIntBits == LAPACKIntBits && (LAPACKIntBits >= 64 || v == int(int32(v)))
}
