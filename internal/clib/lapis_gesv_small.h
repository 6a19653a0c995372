/* lapis_gesv_small.h: the C loops behind clib.GesvSmall and clib.GesvLoop: count systems
 * a_t x = b_t, matrix t of each operand t*stride elements after its first,
 * in one call. */
#ifndef LAPIS_LAPACK_STRIDED_H
#define LAPIS_LAPACK_STRIDED_H

#include <math.h>
#include "lapis_lapack.h"

#define LAPIS_GESV_MAX 16 /* the largest n the small solver takes */

/* Small linear systems a x = b (n <= LAPIS_GESV_MAX, column-major, in
 * place), one after another: LU with partial pivoting as LAPACK's
 * unblocked getf2 does it (the pivot is the first element of largest
 * |re| + |im| in its column; a zero pivot sets info to its 1-based
 * position, the first one counts, and the elimination goes on without
 * swapping or scaling that column), then the two triangular solves on b.
 * A system with info != 0 leaves b unchanged, as gesv does. OpenBLAS's
 * gesv costs about 0.8 us for an 8x8 system here, mostly its own call
 * overhead; this loop does it in a fraction. info[t] receives each system's info. */
#define LAPIS_GESV_SMALL(NAME, T, ABS1)                                                    \
static void NAME(long long count, int n, int nrhs, T *a, long long lda, long long sa,      \
		T *b, long long ldb, long long sb, int *info) {                                    \
	int piv[LAPIS_GESV_MAX];                                                               \
	for (long long t = 0; t < count; t++) {                                                \
		T *A = a + t * sa, *B = b + t * sb;                                                \
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
		info[t] = bad;                                                                     \
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
	}                                                                                      \
}

#define LAPIS_ABS1R(x) fabs((double)(x))
#define LAPIS_ABS1C(x) (fabs((double)crealf(x)) + fabs((double)cimagf(x)))
#define LAPIS_ABS1Z(x) (fabs(creal(x)) + fabs(cimag(x)))
LAPIS_GESV_SMALL(lapis_sgesv_small, float, LAPIS_ABS1R)
LAPIS_GESV_SMALL(lapis_dgesv_small, double, LAPIS_ABS1R)
LAPIS_GESV_SMALL(lapis_cgesv_small, float complex, LAPIS_ABS1C)
LAPIS_GESV_SMALL(lapis_zgesv_small, double complex, LAPIS_ABS1Z)

/* Larger systems: LAPACK's gesv per system (ipiv: n integers of scratch). */
#define LAPIS_GESV_LOOP(NAME, T, GESV)                                                     \
static void NAME(long long count, lapis_int n, lapis_int nrhs, T *a, lapis_int lda,        \
		long long sa, T *b, lapis_int ldb, long long sb, lapis_int *ipiv, int *info) {     \
	for (long long t = 0; t < count; t++) {                                                \
		lapis_int in = 0;                                                                  \
		GESV(&n, &nrhs, a + t * sa, &lda, ipiv, b + t * sb, &ldb, &in);                    \
		info[t] = (int)in;                                                                 \
	}                                                                                      \
}
LAPIS_GESV_LOOP(lapis_sgesv_loop, float, sgesv_)
LAPIS_GESV_LOOP(lapis_dgesv_loop, double, dgesv_)
LAPIS_GESV_LOOP(lapis_cgesv_loop, lapack_complex_float, cgesv_)
LAPIS_GESV_LOOP(lapis_zgesv_loop, lapack_complex_double, zgesv_)

#endif
