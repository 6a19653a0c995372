package bench

/*
#cgo pkg-config: openblas
#include <cblas.h>

// The same promises cblas/zblas.go makes for its bindings, so that impl=c
// differs from lapis only in what lapis does on the Go side.
#cgo noescape cblas_dgemm
#cgo nocallback cblas_dgemm
#cgo noescape lapis_bench_dgemm_reps
#cgo nocallback lapis_bench_dgemm_reps

// lapis_bench_dgemm_reps calls cblas_dgemm reps times from C: the cost of
// OpenBLAS alone, without a cgo crossing per call.
static void lapis_bench_dgemm_reps(int reps, int row_major, int trans_a, int trans_b,
		blasint m, blasint n, blasint k, double alpha, const double *a, blasint lda,
		const double *b, blasint ldb, double beta, double *c, blasint ldc) {
	enum CBLAS_ORDER o = row_major ? CblasRowMajor : CblasColMajor;
	enum CBLAS_TRANSPOSE ta = trans_a ? CblasTrans : CblasNoTrans;
	enum CBLAS_TRANSPOSE tb = trans_b ? CblasTrans : CblasNoTrans;
	for (int r = 0; r < reps; r++) {
		cblas_dgemm(o, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
	}
}
*/
import "C"

// The C reference driver: OpenBLAS called directly, as a C programmer
// would, on the same Go memory the lapis benchmarks use. Only benchmarks
// and their tests use it.

// dgemmArgs is one cblas_dgemm call: c = alpha op(a) op(b) + beta c, with
// m x n c, in row-major or column-major storage (BLAS's order argument).
// Slices must not be empty.
type dgemmArgs struct {
	rowMajor       bool
	transA, transB bool
	m, n, k        int
	alpha, beta    float64
	a, b, c        []float64
	lda, ldb, ldc  int
}

func transpose(t bool) C.enum_CBLAS_TRANSPOSE {
	if t {
		return C.CblasTrans
	}
	return C.CblasNoTrans
}

func cbool(t bool) C.int {
	if t {
		return 1
	}
	return 0
}

// dgemm calls cblas_dgemm once through cgo.
func dgemm(g *dgemmArgs) {
	order := C.enum_CBLAS_ORDER(C.CblasColMajor)
	if g.rowMajor {
		order = C.CblasRowMajor
	}
	C.cblas_dgemm(order, transpose(g.transA), transpose(g.transB),
		C.blasint(g.m), C.blasint(g.n), C.blasint(g.k),
		C.double(g.alpha), (*C.double)(&g.a[0]), C.blasint(g.lda),
		(*C.double)(&g.b[0]), C.blasint(g.ldb),
		C.double(g.beta), (*C.double)(&g.c[0]), C.blasint(g.ldc))
}

// dgemmReps makes the call of dgemm reps times inside one cgo call.
func dgemmReps(reps int, g *dgemmArgs) {
	C.lapis_bench_dgemm_reps(C.int(reps), cbool(g.rowMajor), cbool(g.transA), cbool(g.transB),
		C.blasint(g.m), C.blasint(g.n), C.blasint(g.k),
		C.double(g.alpha), (*C.double)(&g.a[0]), C.blasint(g.lda),
		(*C.double)(&g.b[0]), C.blasint(g.ldb),
		C.double(g.beta), (*C.double)(&g.c[0]), C.blasint(g.ldc))
}

// setBLASThreads sets OpenBLAS's thread count and returns the previous one.
func setBLASThreads(n int) int {
	prev := int(C.openblas_get_num_threads())
	C.openblas_set_num_threads(C.int(n))
	return prev
}

// blasConfig returns OpenBLAS's build configuration and the core it chose.
func blasConfig() (config, core string) {
	return C.GoString(C.openblas_get_config()), C.GoString(C.openblas_get_corename())
}
