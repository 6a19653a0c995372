//go:build lapis_mkl

// anchor.c: MKL's side of the anchor benchmark (main.go), timed in C:
// the compact API (mkl_dgetrfnp_compact, mkl_dtrsm_compact,
// mkl_dgetrinp_compact, mkl_dpotrf_compact with mkl_dgepack_compact /
// mkl_dgeunpack_compact) and cblas_dgemm_batch / _strided, on one
// thread (mkl_set_num_threads_local(1) on the calling OS thread).
#include <mkl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "anchor.h"

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

int anchor_format(void) {
	switch (mkl_get_format_compact()) {
	case MKL_COMPACT_SSE: return 2;
	case MKL_COMPACT_AVX: return 4;
	case MKL_COMPACT_AVX512: return 8;
	}
	return 0;
}

// anchor_tiny times op on count n x n matrices (a0: compact column-major,
// matrix t at a0 + t*n*n; b0: one right-hand side each), reps times into
// times[]. packed = 0: time-to-result from that layout (pack, the
// operation, unpack into x or xd); packed = 1: the operation alone on
// data already interleaved (packed before each rep, untimed). Results:
// solve -> x (n x count), cholesky and inv -> xd (n*n x count), det ->
// x[t]. Returns MKL's first nonzero info, 0 when all succeeded.
int anchor_tiny(int op, int n, int count, int packed, const double *a0, const double *b0,
		double *x, double *xd, int reps, double *times) {
	int prev = mkl_set_num_threads_local(1);
	MKL_COMPACT_PACK fmt = mkl_get_format_compact();
	int V = anchor_format();
	MKL_INT sa = mkl_dget_size_compact(n, n, fmt, count), sb = mkl_dget_size_compact(n, 1, fmt, count);
	double *ap = mkl_malloc(sa, 64), *bp = mkl_malloc(sb, 64);
	const double **ain = malloc(count * sizeof *ain), **bin = malloc(count * sizeof *bin);
	double **xout = malloc(count * sizeof *xout), **xdout = malloc(count * sizeof *xdout);
	for (int t = 0; t < count; t++) {
		ain[t] = a0 + (size_t)t * n * n;
		bin[t] = b0 + (size_t)t * n;
		xout[t] = x + (size_t)t * n;
		xdout[t] = xd + (size_t)t * n * n;
	}
	MKL_INT info = 0, bad = 0, lwork = -1;
	double wq = 0, *work = 0;
	if (op == ANCHOR_INV) {
		mkl_dgetrinp_compact(MKL_COL_MAJOR, n, ap, n, &wq, lwork, &info, fmt, count);
		lwork = (MKL_INT)wq;
		work = mkl_malloc((size_t)(lwork > 0 ? lwork : 1) * sizeof(double), 64);
	}
	for (int r = 0; r < reps; r++) {
		if (packed) {
			mkl_dgepack_compact(MKL_COL_MAJOR, n, n, ain, n, ap, n, fmt, count);
			if (op == ANCHOR_SOLVE) mkl_dgepack_compact(MKL_COL_MAJOR, n, 1, bin, n, bp, n, fmt, count);
		}
		double t0 = now();
		if (!packed) {
			mkl_dgepack_compact(MKL_COL_MAJOR, n, n, ain, n, ap, n, fmt, count);
			if (op == ANCHOR_SOLVE) mkl_dgepack_compact(MKL_COL_MAJOR, n, 1, bin, n, bp, n, fmt, count);
		}
		switch (op) {
		case ANCHOR_SOLVE:
			mkl_dgetrfnp_compact(MKL_COL_MAJOR, n, n, ap, n, &info, fmt, count);
			mkl_dtrsm_compact(MKL_COL_MAJOR, MKL_LEFT, MKL_LOWER, MKL_NOTRANS, MKL_UNIT, n, 1, 1.0, ap, n, bp, n, fmt, count);
			mkl_dtrsm_compact(MKL_COL_MAJOR, MKL_LEFT, MKL_UPPER, MKL_NOTRANS, MKL_NONUNIT, n, 1, 1.0, ap, n, bp, n, fmt, count);
			if (!packed) mkl_dgeunpack_compact(MKL_COL_MAJOR, n, 1, xout, n, bp, n, fmt, count);
			break;
		case ANCHOR_CHOLESKY:
			mkl_dpotrf_compact(MKL_COL_MAJOR, MKL_LOWER, n, ap, n, &info, fmt, count);
			if (!packed) mkl_dgeunpack_compact(MKL_COL_MAJOR, n, n, xdout, n, ap, n, fmt, count);
			break;
		case ANCHOR_INV:
			mkl_dgetrfnp_compact(MKL_COL_MAJOR, n, n, ap, n, &info, fmt, count);
			if (info == 0) mkl_dgetrinp_compact(MKL_COL_MAJOR, n, ap, n, work, lwork, &info, fmt, count);
			if (!packed) mkl_dgeunpack_compact(MKL_COL_MAJOR, n, n, xdout, n, ap, n, fmt, count);
			break;
		case ANCHOR_DET: {
			mkl_dgetrfnp_compact(MKL_COL_MAJOR, n, n, ap, n, &info, fmt, count);
			// The compact layout: groups of V matrices, element (i, j)
			// of matrix g*V+k at ap[g*V*n*n + (i + j*n)*V + k].
			for (int g = 0; g < (count + V - 1) / V; g++) {
				const double *p = ap + (size_t)g * V * n * n;
				for (int k = 0; k < V && g * V + k < count; k++) {
					double d = 1;
					for (int i = 0; i < n; i++) d *= p[(i + i * n) * V + k];
					x[g * V + k] = d;
				}
			}
			break;
		}
		}
		times[r] = now() - t0;
		if (info != 0 && bad == 0) bad = info;
	}
	if (packed) { // the results, for the check against lapis
		if (op == ANCHOR_SOLVE) mkl_dgeunpack_compact(MKL_COL_MAJOR, n, 1, xout, n, bp, n, fmt, count);
		if (op == ANCHOR_CHOLESKY || op == ANCHOR_INV) mkl_dgeunpack_compact(MKL_COL_MAJOR, n, n, xdout, n, ap, n, fmt, count);
	}
	mkl_free(ap); mkl_free(bp); if (work) mkl_free(work);
	free(ain); free(bin); free(xout); free(xdout);
	mkl_set_num_threads_local(prev);
	return (int)bad;
}

// anchor_gemm times C = A B for count n x n matrices (compact
// column-major batches) with cblas_dgemm_batch (one group; the pointer
// arrays made before the timing; strided = 1: cblas_dgemm_batch_strided).
void anchor_gemm(int n, int count, int strided, const double *a, const double *b, double *c, int reps, double *times) {
	int prev = mkl_set_num_threads_local(1);
	const double **pa = malloc(count * sizeof *pa), **pb = malloc(count * sizeof *pb);
	double **pc = malloc(count * sizeof *pc);
	for (int t = 0; t < count; t++) {
		pa[t] = a + (size_t)t * n * n;
		pb[t] = b + (size_t)t * n * n;
		pc[t] = c + (size_t)t * n * n;
	}
	CBLAS_TRANSPOSE tr = CblasNoTrans;
	MKL_INT m = n, lda = n, size = count;
	double alpha = 1, beta = 0;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		if (strided)
			cblas_dgemm_batch_strided(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, (MKL_INT)n * n,
				b, n, (MKL_INT)n * n, 0.0, c, n, (MKL_INT)n * n, count);
		else
			cblas_dgemm_batch(CblasColMajor, &tr, &tr, &m, &m, &m, &alpha, pa, &lda, pb, &lda, &beta, pc, &lda, 1, &size);
		times[r] = now() - t0;
	}
	free(pa); free(pb); free(pc);
	mkl_set_num_threads_local(prev);
}
