package clib

/*
#include "lapis_gemm_strided.h"
#include "lapis_gesv_small.h"

// The C loops keep no pointer after they return and never call back into Go.
#cgo noescape lapis_sgemm_strided
#cgo nocallback lapis_sgemm_strided
#cgo noescape lapis_dgemm_strided
#cgo nocallback lapis_dgemm_strided
#cgo noescape lapis_cgemm_strided
#cgo nocallback lapis_cgemm_strided
#cgo noescape lapis_zgemm_strided
#cgo nocallback lapis_zgemm_strided
#cgo noescape lapis_sgesv_small
#cgo nocallback lapis_sgesv_small
#cgo noescape lapis_dgesv_small
#cgo nocallback lapis_dgesv_small
#cgo noescape lapis_cgesv_small
#cgo nocallback lapis_cgesv_small
#cgo noescape lapis_zgesv_small
#cgo nocallback lapis_zgesv_small
#cgo noescape lapis_sgesv_loop
#cgo nocallback lapis_sgesv_loop
#cgo noescape lapis_dgesv_loop
#cgo nocallback lapis_dgesv_loop
#cgo noescape lapis_cgesv_loop
#cgo nocallback lapis_cgesv_loop
#cgo noescape lapis_zgesv_loop
#cgo nocallback lapis_zgesv_loop
*/
import "C"

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/scalar"
)

// Strided is a run of column-major matrices as the C loops take them:
// matrix 0 at Ptr with leading dimension LD, matrix t Stride elements
// after matrix t-1 (0 repeats one matrix; negative walks backwards).
type Strided struct {
	Ptr    unsafe.Pointer
	LD     int
	Stride int
}

// GemmTinyMax is the largest m GemmStrided's plain C kernel takes.
const GemmTinyMax = C.LAPIS_TINY_MAX

// GemmStrided computes c_t = alpha op(a_t) op(b_t) + beta c_t for t = 0,
// ..., count-1 in one cgo call (lapis_gemm_strided.h): ta and tb are 0
// ("N"), 1 ("T") or 2 ("C"); c is m x n. tiny (m <= GemmTinyMax) runs the
// plain C kernel instead of a BLAS call per product.
func GemmStrided[T scalar.Type](count, ta, tb, m, n, k int, alpha T, a, b Strided, beta T, c Strided, tiny bool) {
	defer Leave(Enter())
	t := C.int(0)
	if tiny {
		t = 1
	}
	cc, cta, ctb := C.longlong(count), C.int(ta), C.int(tb)
	cm, cn, ck := C.blasint(m), C.blasint(n), C.blasint(k)
	lda, ldb, ldc := C.blasint(a.LD), C.blasint(b.LD), C.blasint(c.LD)
	sa, sb, sc := C.longlong(a.Stride), C.longlong(b.Stride), C.longlong(c.Stride)
	switch x := any(alpha).(type) {
	case float32:
		C.lapis_sgemm_strided(cc, cta, ctb, cm, cn, ck, C.float(x), (*C.float)(a.Ptr), lda, sa, (*C.float)(b.Ptr), ldb, sb,
			C.float(any(beta).(float32)), (*C.float)(c.Ptr), ldc, sc, t)
	case float64:
		C.lapis_dgemm_strided(cc, cta, ctb, cm, cn, ck, C.double(x), (*C.double)(a.Ptr), lda, sa, (*C.double)(b.Ptr), ldb, sb,
			C.double(any(beta).(float64)), (*C.double)(c.Ptr), ldc, sc, t)
	case complex64:
		C.lapis_cgemm_strided(cc, cta, ctb, cm, cn, ck, C.complexfloat(x), (*C.complexfloat)(a.Ptr), lda, sa,
			(*C.complexfloat)(b.Ptr), ldb, sb, C.complexfloat(any(beta).(complex64)), (*C.complexfloat)(c.Ptr), ldc, sc, t)
	case complex128:
		C.lapis_zgemm_strided(cc, cta, ctb, cm, cn, ck, C.complexdouble(x), (*C.complexdouble)(a.Ptr), lda, sa,
			(*C.complexdouble)(b.Ptr), ldb, sb, C.complexdouble(any(beta).(complex128)), (*C.complexdouble)(c.Ptr), ldc, sc, t)
	}
}

// GesvSmallMax is the largest order GesvSmall solves.
const GesvSmallMax = C.LAPIS_GESV_MAX

// GesvSmall solves a_t x = b_t in place for t = 0, ..., count-1, n <=
// GesvSmallMax, with getf2's algorithm and the two triangular solves
// (lapis_gesv_small.h); info[t] receives system t's info (info has count
// elements).
func GesvSmall[T scalar.Type](count, n, nrhs int, a, b Strided, info []int32) {
	cc, cn, cr := C.longlong(count), C.int(n), C.int(nrhs)
	lda, sa, ldb, sb := C.longlong(a.LD), C.longlong(a.Stride), C.longlong(b.LD), C.longlong(b.Stride)
	ci := (*C.int)(unsafe.Pointer(unsafe.SliceData(info)))
	switch any(*new(T)).(type) {
	case float32:
		C.lapis_sgesv_small(cc, cn, cr, (*C.float)(a.Ptr), lda, sa, (*C.float)(b.Ptr), ldb, sb, ci)
	case float64:
		C.lapis_dgesv_small(cc, cn, cr, (*C.double)(a.Ptr), lda, sa, (*C.double)(b.Ptr), ldb, sb, ci)
	case complex64:
		C.lapis_cgesv_small(cc, cn, cr, (*C.complexfloat)(a.Ptr), lda, sa, (*C.complexfloat)(b.Ptr), ldb, sb, ci)
	case complex128:
		C.lapis_zgesv_small(cc, cn, cr, (*C.complexdouble)(a.Ptr), lda, sa, (*C.complexdouble)(b.Ptr), ldb, sb, ci)
	}
}

// GesvLoop solves a_t x = b_t in place for t = 0, ..., count-1 with one
// ?gesv_ call each, in one cgo call; ipiv holds n LAPACK integers (reused
// by every system) and info[t] receives system t's info.
func GesvLoop[T scalar.Type](count, n, nrhs int, a, b Strided, ipiv unsafe.Pointer, info []int32) {
	defer Leave(Enter())
	cc, cn, cr := C.longlong(count), C.lapis_int(n), C.lapis_int(nrhs)
	lda, sa, ldb, sb := C.lapis_int(a.LD), C.longlong(a.Stride), C.lapis_int(b.LD), C.longlong(b.Stride)
	ip := (*C.lapis_int)(ipiv)
	ci := (*C.int)(unsafe.Pointer(unsafe.SliceData(info)))
	switch any(*new(T)).(type) {
	case float32:
		C.lapis_sgesv_loop(cc, cn, cr, (*C.float)(a.Ptr), lda, sa, (*C.float)(b.Ptr), ldb, sb, ip, ci)
	case float64:
		C.lapis_dgesv_loop(cc, cn, cr, (*C.double)(a.Ptr), lda, sa, (*C.double)(b.Ptr), ldb, sb, ip, ci)
	case complex64:
		C.lapis_cgesv_loop(cc, cn, cr, (*C.complexfloat)(a.Ptr), lda, sa, (*C.complexfloat)(b.Ptr), ldb, sb, ip, ci)
	case complex128:
		C.lapis_zgesv_loop(cc, cn, cr, (*C.complexdouble)(a.Ptr), lda, sa, (*C.complexdouble)(b.Ptr), ldb, sb, ip, ci)
	}
}
