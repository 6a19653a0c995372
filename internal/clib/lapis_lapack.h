/* lapis_lapack.h: the LAPACK declarations lapis compiles against: the
 * Fortran routines (dgesv_ ...) as <lapack.h> (LAPACKE's package) declares
 * them, with the integer width of the BLAS library found through its own
 * header: OpenBLAS's 64-bit-integer build defines OPENBLAS_USE64BITINT. */
#ifndef LAPIS_LAPACK_H
#define LAPIS_LAPACK_H

#include <cblas.h>

#if defined(OPENBLAS_USE64BITINT) && !defined(LAPACK_ILP64)
#define LAPACK_ILP64
#endif

#include <lapack.h>

typedef lapack_int lapis_int;

/* ?latrs, which OpenBLAS 0.3.21's lapack.h does not declare (libopenblas
   exports it). Reference LAPACK's arguments, gfortran's hidden lengths. */
void slatrs_(const char *uplo, const char *trans, const char *diag, const char *normin,
             const lapis_int *n, const float *a, const lapis_int *lda, float *x, float *scale,
             float *cnorm, lapis_int *info, size_t, size_t, size_t, size_t);
void dlatrs_(const char *uplo, const char *trans, const char *diag, const char *normin,
             const lapis_int *n, const double *a, const lapis_int *lda, double *x, double *scale,
             double *cnorm, lapis_int *info, size_t, size_t, size_t, size_t);
void clatrs_(const char *uplo, const char *trans, const char *diag, const char *normin,
             const lapis_int *n, const lapack_complex_float *a, const lapis_int *lda,
             lapack_complex_float *x, float *scale, float *cnorm, lapis_int *info,
             size_t, size_t, size_t, size_t);
void zlatrs_(const char *uplo, const char *trans, const char *diag, const char *normin,
             const lapis_int *n, const lapack_complex_double *a, const lapis_int *lda,
             lapack_complex_double *x, double *scale, double *cnorm, lapis_int *info,
             size_t, size_t, size_t, size_t);

#endif
