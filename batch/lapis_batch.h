/* lapis_batch.h: the C loops of package batch. One call runs a chunk of a
 * batch: the matrices with flat batch index lo <= t < hi (column-major
 * order over the batch axes), each found from three base pointers and the
 * batch strides by an odometer, so that Go crosses into C once per chunk
 * instead of once per matrix. Products of tiny matrices use a plain kernel
 * instead of BLAS, whose per-call cost dominates there. */
#ifndef LAPIS_BATCH_H
#define LAPIS_BATCH_H

#include <complex.h>
#include <math.h>
#include "lapis_cblas.h"

#define LAPIS_MAXB 8

typedef struct {
	int rank; /* batch axes, <= LAPIS_MAXB */
	long long shape[LAPIS_MAXB];
	long long sa[LAPIS_MAXB], sb[LAPIS_MAXB], sc[LAPIS_MAXB]; /* element strides; 0 broadcasts */
} lapis_batch;

/* lapis_seek sets the odometer idx to flat index t and returns the three
 * element offsets there. */
static inline void lapis_seek(const lapis_batch *g, long long t, long long *idx,
		long long *oa, long long *ob, long long *oc) {
	*oa = *ob = *oc = 0;
	for (int i = 0; i < g->rank; i++) {
		long long x = t % g->shape[i];
		t /= g->shape[i];
		idx[i] = x;
		*oa += x * g->sa[i];
		*ob += x * g->sb[i];
		*oc += x * g->sc[i];
	}
}

/* lapis_step advances the odometer by one matrix. */
static inline void lapis_step(const lapis_batch *g, long long *idx,
		long long *oa, long long *ob, long long *oc) {
	for (int i = 0; i < g->rank; i++) {
		idx[i]++;
		*oa += g->sa[i];
		*ob += g->sb[i];
		*oc += g->sc[i];
		if (idx[i] < g->shape[i]) {
			return;
		}
		*oa -= idx[i] * g->sa[i];
		*ob -= idx[i] * g->sb[i];
		*oc -= idx[i] * g->sc[i];
		idx[i] = 0;
	}
}

#define LAPIS_TINY_MAX 8 /* the tiny kernels' largest m */

/* Tiny products c = alpha op(a) op(b) + beta c, column-major; trans codes
 * 0 "N", 1 "T", 2 "C"; c is not read when beta is 0. One function per m
 * (1..LAPIS_TINY_MAX), so that the column of c being summed lives in
 * registers: with m known at compile time a 4x4 product takes about 18 ns
 * here, against about 90 ns for the same loop with m a variable (and 63 ns
 * for a cblas_dgemm call). An untransposed a makes each column of c a sum
 * of columns of a; a transposed a takes a dot product per element. */
#define LAPIS_TINY_M(NAME, M, T, CONJ)                                                     \
static void NAME##M(int ta, int tb, int n, int k, T alpha, const T *a, long long lda,      \
		const T *b, long long ldb, T beta, T *c, long long ldc) {                          \
	for (int j = 0; j < n; j++) {                                                          \
		T acc[M];                                                                          \
		for (int i = 0; i < M; i++) acc[i] = 0;                                            \
		for (int p = 0; p < k; p++) {                                                      \
			T y = tb == 0 ? b[p + j * ldb] : b[j + p * ldb];                               \
			if (tb == 2) y = CONJ(y);                                                      \
			if (ta == 0) {                                                                 \
				const T *ap = a + p * lda;                                                 \
				for (int i = 0; i < M; i++) acc[i] += ap[i] * y;                           \
			} else {                                                                       \
				for (int i = 0; i < M; i++) {                                              \
					T x = a[p + i * lda];                                                  \
					acc[i] += (ta == 2 ? CONJ(x) : x) * y;                                 \
				}                                                                          \
			}                                                                              \
		}                                                                                  \
		T *cj = c + j * ldc;                                                               \
		if (beta == 0) {                                                                   \
			for (int i = 0; i < M; i++) cj[i] = alpha * acc[i];                            \
		} else {                                                                           \
			for (int i = 0; i < M; i++) cj[i] = alpha * acc[i] + beta * cj[i];             \
		}                                                                                  \
	}                                                                                      \
}

#define LAPIS_TINY(NAME, T, CONJ)                                                          \
LAPIS_TINY_M(NAME, 1, T, CONJ) LAPIS_TINY_M(NAME, 2, T, CONJ) LAPIS_TINY_M(NAME, 3, T, CONJ) \
LAPIS_TINY_M(NAME, 4, T, CONJ) LAPIS_TINY_M(NAME, 5, T, CONJ) LAPIS_TINY_M(NAME, 6, T, CONJ) \
LAPIS_TINY_M(NAME, 7, T, CONJ) LAPIS_TINY_M(NAME, 8, T, CONJ)                              \
static void NAME(int ta, int tb, int m, int n, int k, T alpha, const T *a, long long lda,  \
		const T *b, long long ldb, T beta, T *c, long long ldc) {                          \
	switch (m) {                                                                           \
	case 1: NAME##1(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;             \
	case 2: NAME##2(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;             \
	case 3: NAME##3(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;             \
	case 4: NAME##4(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;             \
	case 5: NAME##5(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;             \
	case 6: NAME##6(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;             \
	case 7: NAME##7(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;             \
	default: NAME##8(ta, tb, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;            \
	}                                                                                      \
}

#define LAPIS_REAL(x) (x)
LAPIS_TINY(lapis_stiny, float, LAPIS_REAL)
LAPIS_TINY(lapis_dtiny, double, LAPIS_REAL)
LAPIS_TINY(lapis_ctiny, float complex, conjf)
LAPIS_TINY(lapis_ztiny, double complex, conj)

static inline enum CBLAS_TRANSPOSE lapis_trans(int t) {
	return t == 0 ? CblasNoTrans : t == 1 ? CblasTrans : CblasConjTrans;
}

/* The batched gemm of one element type: PASS hands a scalar to CBLAS (by
 * value for real types, by address for complex ones). */
#define LAPIS_GEMM_BATCH(NAME, T, GEMM, PASS, TINY)                                        \
static void NAME(const lapis_batch *g, long long lo, long long hi, int ta, int tb,        \
		blasint m, blasint n, blasint k, T alpha, const T *a, blasint lda, const T *b,       \
		blasint ldb, T beta, T *c, blasint ldc, int tiny) {                                  \
	long long idx[LAPIS_MAXB], oa, ob, oc;                                                 \
	lapis_seek(g, lo, idx, &oa, &ob, &oc);                                                 \
	enum CBLAS_TRANSPOSE tra = lapis_trans(ta), trb = lapis_trans(tb);                    \
	for (long long t = lo; t < hi; t++) {                                                  \
		if (tiny) {                                                                        \
			TINY(ta, tb, m, n, k, alpha, a + oa, lda, b + ob, ldb, beta, c + oc, ldc);     \
		} else {                                                                           \
			GEMM(CblasColMajor, tra, trb, m, n, k, PASS(alpha), a + oa, lda, b + ob, ldb,  \
				PASS(beta), c + oc, ldc);                                                  \
		}                                                                                  \
		lapis_step(g, idx, &oa, &ob, &oc);                                                 \
	}                                                                                      \
}

#define LAPIS_BYADDR(x) (&(x))
LAPIS_GEMM_BATCH(lapis_sgemm_batch, float, cblas_sgemm, LAPIS_REAL, lapis_stiny)
LAPIS_GEMM_BATCH(lapis_dgemm_batch, double, cblas_dgemm, LAPIS_REAL, lapis_dtiny)
LAPIS_GEMM_BATCH(lapis_cgemm_batch, float complex, cblas_cgemm, LAPIS_BYADDR, lapis_ctiny)
LAPIS_GEMM_BATCH(lapis_zgemm_batch, double complex, cblas_zgemm, LAPIS_BYADDR, lapis_ztiny)

#endif

#ifndef LAPIS_BATCH_GESV_H
#define LAPIS_BATCH_GESV_H

#define LAPIS_GESV_MAX 16 /* the largest n the small solver takes */

/* Small linear systems a x = b (n <= LAPIS_GESV_MAX, column-major, in
 * place), one after another: LU with partial pivoting as LAPACK's
 * unblocked getf2 does it (the pivot is the first element of largest
 * |re| + |im| in its column; a zero pivot sets info to its 1-based
 * position, the first one counts, and the elimination goes on without
 * swapping or scaling that column), then the two triangular solves on b.
 * A system with info != 0 leaves b unchanged, as gesv does. OpenBLAS's
 * gesv costs about 0.8 us for an 8x8 system here, mostly its own call
 * overhead; this loop does it in a fraction. info[t - lo] receives each
 * system's info. */
#define LAPIS_GESV_BATCH(NAME, T, ABS1)                                                    \
static void NAME(const lapis_batch *g, long long lo, long long hi, int n, int nrhs,        \
		T *a, long long lda, T *b, long long ldb, int *info) {                             \
	long long idx[LAPIS_MAXB], oa, ob, oc;                                                 \
	int piv[LAPIS_GESV_MAX];                                                               \
	lapis_seek(g, lo, idx, &oa, &ob, &oc);                                                 \
	for (long long t = lo; t < hi; t++) {                                                  \
		T *A = a + oa, *B = b + ob;                                                        \
		int bad = 0;                                                                       \
		for (int j = 0; j < n; j++) {                                                      \
			int p = j;                                                                     \
			double best = ABS1(A[j + j * lda]);                                            \
			for (int i = j + 1; i < n; i++) {                                              \
				double v = ABS1(A[i + j * lda]);                                           \
				if (v > best) {                                                            \
					best = v;                                                              \
					p = i;                                                                 \
				}                                                                          \
			}                                                                              \
			piv[j] = p;                                                                    \
			if (A[p + j * lda] != 0) {                                                     \
				if (p != j) {                                                              \
					for (int c = 0; c < n; c++) {                                          \
						T x = A[j + c * lda];                                              \
						A[j + c * lda] = A[p + c * lda];                                   \
						A[p + c * lda] = x;                                                \
					}                                                                      \
				}                                                                          \
				T r = 1 / A[j + j * lda];                                                  \
				for (int i = j + 1; i < n; i++) A[i + j * lda] *= r;                       \
			} else if (!bad) {                                                             \
				bad = j + 1;                                                               \
			}                                                                              \
			for (int c = j + 1; c < n; c++) {                                              \
				T x = A[j + c * lda];                                                      \
				for (int i = j + 1; i < n; i++) A[i + c * lda] -= A[i + j * lda] * x;      \
			}                                                                              \
		}                                                                                  \
		info[t - lo] = bad;                                                                \
		if (!bad) {                                                                        \
			for (int c = 0; c < nrhs; c++) {                                               \
				T *x = B + c * ldb;                                                        \
				for (int j = 0; j < n; j++) {                                              \
					if (piv[j] != j) {                                                     \
						T s = x[j];                                                        \
						x[j] = x[piv[j]];                                                  \
						x[piv[j]] = s;                                                     \
					}                                                                      \
				}                                                                          \
				for (int j = 0; j < n; j++) {                                              \
					T xj = x[j];                                                           \
					for (int i = j + 1; i < n; i++) x[i] -= A[i + j * lda] * xj;           \
				}                                                                          \
				for (int j = n - 1; j >= 0; j--) {                                         \
					x[j] /= A[j + j * lda];                                                \
					T xj = x[j];                                                           \
					for (int i = 0; i < j; i++) x[i] -= A[i + j * lda] * xj;               \
				}                                                                          \
			}                                                                              \
		}                                                                                  \
		lapis_step(g, idx, &oa, &ob, &oc);                                                 \
	}                                                                                      \
}

#define LAPIS_ABS1R(x) fabs((double)(x))
#define LAPIS_ABS1C(x) (fabs((double)crealf(x)) + fabs((double)cimagf(x)))
#define LAPIS_ABS1Z(x) (fabs(creal(x)) + fabs(cimag(x)))
LAPIS_GESV_BATCH(lapis_sgesv_batch, float, LAPIS_ABS1R)
LAPIS_GESV_BATCH(lapis_dgesv_batch, double, LAPIS_ABS1R)
LAPIS_GESV_BATCH(lapis_cgesv_batch, float complex, LAPIS_ABS1C)
LAPIS_GESV_BATCH(lapis_zgesv_batch, double complex, LAPIS_ABS1Z)

#endif
