// Package cref holds the C references lapis is measured against: what a
// C programmer would write, on the Go memory the lapis measurements use,
// each timed loop inside one cgo call where the loop is the point (so no
// cgo crossing is counted per call). bench's benchmarks and cmd/lapis's
// bench verb (bench/family) both use them; it is the one C reference
// gemm loop (Dgemm). They link the library lapis links
// (link_pkgconfig.go, or -tags lapis_cgoflags). Slices must not be empty.
package cref

/*
#include "../../internal/clib/lapis_cblas.h"
#include "../../internal/clib/lapis_lapack.h"

#cgo noescape lapis_cref_dgemm_reps
#cgo nocallback lapis_cref_dgemm_reps
#cgo noescape lapis_cref_transpose
#cgo nocallback lapis_cref_transpose
#cgo noescape lapis_cref_kernel_loop
#cgo nocallback lapis_cref_kernel_loop
#cgo noescape lapis_cref_blas_loop
#cgo nocallback lapis_cref_blas_loop
#cgo noescape lapis_cref_dgesv_loop
#cgo nocallback lapis_cref_dgesv_loop
#cgo noescape lapis_cref_dpotrf
#cgo nocallback lapis_cref_dpotrf
#cgo noescape lapis_cref_dsyevd
#cgo nocallback lapis_cref_dsyevd

// reps calls of cblas_dgemm from C, the library alone: c = alpha op(a)
// op(b) + beta c, m x n c, row- or column-major (BLAS's order argument).
static void lapis_cref_dgemm_reps(int reps, int row_major, int trans_a, int trans_b,
		blasint m, blasint n, blasint k, double alpha, const double *a, blasint lda,
		const double *b, blasint ldb, double beta, double *c, blasint ldc) {
	for (int r = 0; r < reps; r++) {
		cblas_dgemm(row_major ? CblasRowMajor : CblasColMajor,
			trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
			m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
	}
}

// dst = src^T for n x n column-major matrices, in 16 x 16 tiles (the best
// tile of plain C on this kind of machine: docs/bench/README.md#anchors).
static void lapis_cref_transpose(long n, const double *src, double *dst) {
	enum { T = 16 };
	for (long jj = 0; jj < n; jj += T) {
		for (long ii = 0; ii < n; ii += T) {
			long je = jj + T < n ? jj + T : n, ie = ii + T < n ? ii + T : n;
			for (long j = jj; j < je; j++) {
				for (long i = ii; i < ie; i++) {
					dst[j + i * n] = src[i + j * n];
				}
			}
		}
	}
}

// count products of n x n matrices stored one after another: a plain
// triple loop, and a loop of cblas_dgemm calls.
static void lapis_cref_kernel_loop(int count, int n, const double *a, const double *b, double *c) {
	long nn = (long)n * n;
	for (int t = 0; t < count; t++) {
		const double *A = a + t * nn, *B = b + t * nn;
		double *Cm = c + t * nn;
		for (int j = 0; j < n; j++) {
			for (int i = 0; i < n; i++) {
				double s = 0;
				for (int p = 0; p < n; p++) {
					s += A[i + p * n] * B[p + j * n];
				}
				Cm[i + j * n] = s;
			}
		}
	}
}

static void lapis_cref_blas_loop(int count, blasint n, const double *a, const double *b, double *c) {
	long nn = (long)n * n;
	for (int t = 0; t < count; t++) {
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a + t * nn, n, b + t * nn, n, 0.0, c + t * nn, n);
	}
}

// count systems a_t x = b_t (n x n, nrhs columns each, stored one after
// another) solved by one dgesv call each; returns the first nonzero info.
static int lapis_cref_dgesv_loop(int count, lapis_int n, lapis_int nrhs, double *a, double *b, lapis_int *ipiv) {
	for (int t = 0; t < count; t++) {
		lapis_int info = 0;
		LAPACK_dgesv(&n, &nrhs, a + (long)t * n * n, &n, ipiv, b + (long)t * n * nrhs, &n, &info);
		if (info != 0) {
			return (int)info;
		}
	}
	return 0;
}

static int lapis_cref_dpotrf(lapis_int n, double *a) {
	lapis_int info = 0;
	char uplo = 'L';
	LAPACK_dpotrf(&uplo, &n, a, &n, &info);
	return (int)info;
}

// dsyevd with eigenvectors; lwork = -1 is the workspace query.
static int lapis_cref_dsyevd(lapis_int n, double *a, double *w, double *work, lapis_int lwork, lapis_int *iwork, lapis_int liwork) {
	lapis_int info = 0;
	char jobz = 'V', uplo = 'L';
	LAPACK_dsyevd(&jobz, &uplo, &n, a, &n, w, work, &lwork, iwork, &liwork, &info);
	return (int)info;
}
*/
import "C"

import "fmt"

// Gemm is one cblas_dgemm call: C = Alpha op(A) op(B) + Beta C with M x N
// C and inner dimension K, in row-major or column-major storage (BLAS's
// order argument), op transposing when TransA or TransB is set.
type Gemm struct {
	RowMajor       bool
	TransA, TransB bool
	M, N, K        int
	Alpha, Beta    float64
	A, B, C        []float64
	LdA, LdB, LdC  int
}

// Square is the column-major n x n x n product c = a b.
func Square(n int, a, b, c []float64) *Gemm {
	return &Gemm{M: n, N: n, K: n, Alpha: 1, A: a, B: b, C: c, LdA: n, LdB: n, LdC: n}
}

// Dgemm makes reps calls of g inside one cgo call (reps = 1: one call, as
// a cgo binding makes it; more: the library's own cost, no cgo crossing
// per call).
func Dgemm(reps int, g *Gemm) {
	C.lapis_cref_dgemm_reps(C.int(reps), cbool(g.RowMajor), cbool(g.TransA), cbool(g.TransB),
		C.blasint(g.M), C.blasint(g.N), C.blasint(g.K),
		C.double(g.Alpha), (*C.double)(&g.A[0]), C.blasint(g.LdA),
		(*C.double)(&g.B[0]), C.blasint(g.LdB),
		C.double(g.Beta), (*C.double)(&g.C[0]), C.blasint(g.LdC))
}

func cbool(t bool) C.int {
	if t {
		return 1
	}
	return 0
}

// Transpose writes src^T to dst (n x n, column-major).
func Transpose(n int, src, dst []float64) {
	C.lapis_cref_transpose(C.long(n), (*C.double)(&src[0]), (*C.double)(&dst[0]))
}

// KernelLoop and BLASLoop compute count products of n x n matrices.
func KernelLoop(count, n int, a, b, c []float64) {
	C.lapis_cref_kernel_loop(C.int(count), C.int(n), (*C.double)(&a[0]), (*C.double)(&b[0]), (*C.double)(&c[0]))
}

// BLASLoop is KernelLoop by one cblas_dgemm call per product.
func BLASLoop(count, n int, a, b, c []float64) {
	C.lapis_cref_blas_loop(C.int(count), C.blasint(n), (*C.double)(&a[0]), (*C.double)(&b[0]), (*C.double)(&c[0]))
}

// GesvLoop solves count n x n systems with nrhs right-hand sides each,
// one dgesv call per system; ipiv has n elements (of the C type).
func GesvLoop(count, n, nrhs int, a, b []float64, ipiv Pivots) error {
	if info := C.lapis_cref_dgesv_loop(C.int(count), C.lapis_int(n), C.lapis_int(nrhs), (*C.double)(&a[0]), (*C.double)(&b[0]), &ipiv.p[0]); info != 0 {
		return fmt.Errorf("C reference dgesv: info = %d", int(info))
	}
	return nil
}

// Pivots is dgesv's ipiv in LAPACK's integer type.
type Pivots struct{ p []C.lapis_int }

// NewPivots returns room for n pivots.
func NewPivots(n int) Pivots { return Pivots{make([]C.lapis_int, n)} }

// Dpotrf is dpotrf of the lower triangle of the n x n a.
func Dpotrf(n int, a []float64) error {
	if info := C.lapis_cref_dpotrf(C.lapis_int(n), (*C.double)(&a[0])); info != 0 {
		return fmt.Errorf("C reference dpotrf: info = %d", int(info))
	}
	return nil
}

// Syevd returns a call of dsyevd on the n x n a (into w), its workspace
// sized by a query first.
func Syevd(n int, a, w []float64) func() error {
	q, iq := make([]float64, 1), make([]C.lapis_int, 1)
	C.lapis_cref_dsyevd(C.lapis_int(n), (*C.double)(&a[0]), (*C.double)(&w[0]), (*C.double)(&q[0]), -1, &iq[0], -1)
	work, iwork := make([]float64, max(1, int(q[0]))), make([]C.lapis_int, max(1, int(iq[0])))
	return func() error {
		if info := C.lapis_cref_dsyevd(C.lapis_int(n), (*C.double)(&a[0]), (*C.double)(&w[0]), (*C.double)(&work[0]), C.lapis_int(len(work)), &iwork[0], C.lapis_int(len(iwork))); info != 0 {
			return fmt.Errorf("C reference dsyevd: info = %d", int(info))
		}
		return nil
	}
}
