/* lapis_batch.h: the C loops of package batch. One call runs a chunk of a
 * batch: the matrices with flat batch index lo <= t < hi (column-major
 * order over the batch axes), each found from three base pointers and the
 * batch strides by an odometer, so that Go crosses into C once per chunk
 * instead of once per matrix. Products of tiny matrices use a plain kernel
 * instead of BLAS, whose per-call cost dominates there. */
#ifndef LAPIS_BATCH_H
#define LAPIS_BATCH_H

#include <complex.h>
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

#define LAPIS_TINY_MAX 16 /* the tiny kernel's largest m */

/* A tiny product c = alpha op(a) op(b) + beta c, column-major; trans codes
 * 0 "N", 1 "T", 2 "C". Untransposed a is the common case: each column of c
 * is a sum of columns of a, accumulated in a local column the compiler
 * vectorises; otherwise a dot product per element. c is not read when
 * beta is 0. m <= LAPIS_TINY_MAX. */
#define LAPIS_TINY(NAME, T, CONJ)                                                      \
static void NAME(int ta, int tb, int m, int n, int k, T alpha, const T *a, long long lda, \
		const T *b, long long ldb, T beta, T *c, long long ldc) {                          \
	T acc[LAPIS_TINY_MAX];                                                                 \
	for (int j = 0; j < n; j++) {                                                          \
		if (ta == 0) {                                                                     \
			for (int i = 0; i < m; i++) acc[i] = 0;                                        \
			for (int p = 0; p < k; p++) {                                                  \
				T y = tb == 0 ? b[p + j * ldb] : b[j + p * ldb];                           \
				if (tb == 2) y = CONJ(y);                                                  \
				const T *ap = a + p * lda;                                                 \
				for (int i = 0; i < m; i++) acc[i] += ap[i] * y;                           \
			}                                                                              \
		} else {                                                                           \
			for (int i = 0; i < m; i++) {                                                  \
				T s = 0;                                                                   \
				const T *ai = a + i * lda;                                                 \
				for (int p = 0; p < k; p++) {                                              \
					T x = ta == 2 ? CONJ(ai[p]) : ai[p];                                   \
					T y = tb == 0 ? b[p + j * ldb] : b[j + p * ldb];                       \
					if (tb == 2) y = CONJ(y);                                              \
					s += x * y;                                                            \
				}                                                                          \
				acc[i] = s;                                                                \
			}                                                                              \
		}                                                                                  \
		T *cj = c + j * ldc;                                                               \
		if (beta == 0) {                                                                   \
			for (int i = 0; i < m; i++) cj[i] = alpha * acc[i];                            \
		} else {                                                                           \
			for (int i = 0; i < m; i++) cj[i] = alpha * acc[i] + beta * cj[i];             \
		}                                                                                  \
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
