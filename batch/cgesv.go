package batch

/*
#cgo CFLAGS: -I${SRCDIR}/../cblas
#cgo LDFLAGS: -lm
#include "lapis_batch.h"

#cgo noescape lapis_sgesv_batch
#cgo nocallback lapis_sgesv_batch
#cgo noescape lapis_dgesv_batch
#cgo nocallback lapis_dgesv_batch
#cgo noescape lapis_cgesv_batch
#cgo nocallback lapis_cgesv_batch
#cgo noescape lapis_zgesv_batch
#cgo nocallback lapis_zgesv_batch
*/
import "C"

import "unsafe"

// gesvMax is the largest order the small solver takes.
const gesvMax = C.LAPIS_GESV_MAX

// gesvChunk solves systems lo <= t < hi of a batch in one C call;
// info[t-lo] receives each one's info.
func gesvChunk[T Scalar](g *geometry, lo, hi, n, nrhs int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, info []int32) {
	clo, chi, cn, cr, clda, cldb := C.longlong(lo), C.longlong(hi), C.int(n), C.int(nrhs), C.longlong(lda), C.longlong(ldb)
	ci := (*C.int)(unsafe.Pointer(&info[0]))
	switch any(*new(T)).(type) {
	case float32:
		C.lapis_sgesv_batch(g, clo, chi, cn, cr, (*C.float)(a), clda, (*C.float)(b), cldb, ci)
	case float64:
		C.lapis_dgesv_batch(g, clo, chi, cn, cr, (*C.double)(a), clda, (*C.double)(b), cldb, ci)
	case complex64:
		C.lapis_cgesv_batch(g, clo, chi, cn, cr, (*C.complexfloat)(a), clda, (*C.complexfloat)(b), cldb, ci)
	case complex128:
		C.lapis_zgesv_batch(g, clo, chi, cn, cr, (*C.complexdouble)(a), clda, (*C.complexdouble)(b), cldb, ci)
	}
}
