/* lapis_gemm_strided.h: the C loop behind clib.GemmStrided. One call runs
 * count products c_t = alpha op(a_t) op(b_t) + beta c_t, matrix t of each
 * operand t*stride elements after its first (stride 0 repeats a matrix,
 * negative strides walk backwards), so that Go crosses into C once for
 * them all instead of once per matrix. Products of tiny matrices use a
 * plain kernel instead of BLAS, whose per-call cost dominates there. */
#ifndef LAPIS_STRIDED_H
#define LAPIS_STRIDED_H

#include <complex.h>
#include "lapis_cblas.h"

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

static inline lapis_trans_t lapis_trans(int t) {
	return t == 0 ? CblasNoTrans : t == 1 ? CblasTrans : CblasConjTrans;
}

/* The strided gemm of one element type: PASS hands a scalar to CBLAS (by
 * value for real types, by address for complex ones). */
#define LAPIS_GEMM_STRIDED(NAME, T, GEMM, PASS, TINY)                                      \
static void NAME(long long count, int ta, int tb, blasint m, blasint n, blasint k, T alpha, \
		const T *a, blasint lda, long long sa, const T *b, blasint ldb, long long sb,        \
		T beta, T *c, blasint ldc, long long sc, int tiny) {                                 \
	lapis_trans_t tra = lapis_trans(ta), trb = lapis_trans(tb);                    \
	for (long long t = 0; t < count; t++) {                                                \
		if (tiny) {                                                                        \
			TINY(ta, tb, m, n, k, alpha, a + t * sa, lda, b + t * sb, ldb, beta, c + t * sc, ldc); \
		} else {                                                                           \
			GEMM(CblasColMajor, tra, trb, m, n, k, PASS(alpha), a + t * sa, lda, b + t * sb, \
				ldb, PASS(beta), c + t * sc, ldc);                                         \
		}                                                                                  \
	}                                                                                      \
}

#define LAPIS_BYADDR(x) (&(x))
LAPIS_GEMM_STRIDED(lapis_sgemm_strided, float, cblas_sgemm, LAPIS_REAL, lapis_stiny)
LAPIS_GEMM_STRIDED(lapis_dgemm_strided, double, cblas_dgemm, LAPIS_REAL, lapis_dtiny)
LAPIS_GEMM_STRIDED(lapis_cgemm_strided, float complex, cblas_cgemm, LAPIS_BYADDR, lapis_ctiny)
LAPIS_GEMM_STRIDED(lapis_zgemm_strided, double complex, cblas_zgemm, LAPIS_BYADDR, lapis_ztiny)

#endif
