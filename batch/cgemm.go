package batch

/*
#cgo CFLAGS: -I${SRCDIR}/../cblas
#include "lapis_batch.h"

// The C loops keep no pointer after they return and never call back into Go.
#cgo noescape lapis_sgemm_batch
#cgo nocallback lapis_sgemm_batch
#cgo noescape lapis_dgemm_batch
#cgo nocallback lapis_dgemm_batch
#cgo noescape lapis_cgemm_batch
#cgo nocallback lapis_cgemm_batch
#cgo noescape lapis_zgemm_batch
#cgo nocallback lapis_zgemm_batch
*/
import "C"

import "unsafe"

// geometry is a batch's shape and each operand's element strides along it
// (0 where an input is broadcast), as the C loops read them.
type geometry = C.lapis_batch

// newGeometry fills a geometry (len(shape) <= maxBatchRank).
func newGeometry(shape, sa, sb, sc []int) geometry {
	var g geometry
	g.rank = C.int(len(shape))
	for i, d := range shape {
		g.shape[i], g.sa[i], g.sb[i], g.sc[i] = C.longlong(d), C.longlong(sa[i]), C.longlong(sb[i]), C.longlong(sc[i])
	}
	return g
}

// maxBatchRank is the most batch axes the C loops take (after merging).
const maxBatchRank = C.LAPIS_MAXB

// tinyMax is the largest m the tiny kernel takes.
const tinyMax = C.LAPIS_TINY_MAX

// blasInt is the BLAS library's integer type.
type blasInt = C.blasint

// IntBits is the width of blasInt in bits.
const IntBits = int(unsafe.Sizeof(C.blasint(0))) * 8

// gemmChunk runs products lo <= t < hi of a batch in one C call.
func gemmChunk[T Scalar](g *geometry, lo, hi int, ta, tb int, m, n, k int, alpha T, a unsafe.Pointer, lda int,
	b unsafe.Pointer, ldb int, beta T, c unsafe.Pointer, ldc int, tiny bool) {
	t := C.int(0)
	if tiny {
		t = 1
	}
	clo, chi, cta, ctb := C.longlong(lo), C.longlong(hi), C.int(ta), C.int(tb)
	cm, cn, ck, clda, cldb, cldc := C.blasint(m), C.blasint(n), C.blasint(k), C.blasint(lda), C.blasint(ldb), C.blasint(ldc)
	switch x := any(alpha).(type) {
	case float32:
		C.lapis_sgemm_batch(g, clo, chi, cta, ctb, cm, cn, ck, C.float(x), (*C.float)(a), clda, (*C.float)(b), cldb,
			C.float(any(beta).(float32)), (*C.float)(c), cldc, t)
	case float64:
		C.lapis_dgemm_batch(g, clo, chi, cta, ctb, cm, cn, ck, C.double(x), (*C.double)(a), clda, (*C.double)(b), cldb,
			C.double(any(beta).(float64)), (*C.double)(c), cldc, t)
	case complex64:
		C.lapis_cgemm_batch(g, clo, chi, cta, ctb, cm, cn, ck, C.complexfloat(x), (*C.complexfloat)(a), clda,
			(*C.complexfloat)(b), cldb, C.complexfloat(any(beta).(complex64)), (*C.complexfloat)(c), cldc, t)
	case complex128:
		C.lapis_zgemm_batch(g, clo, chi, cta, ctb, cm, cn, ck, C.complexdouble(x), (*C.complexdouble)(a), clda,
			(*C.complexdouble)(b), cldb, C.complexdouble(any(beta).(complex128)), (*C.complexdouble)(c), cldc, t)
	}
}
