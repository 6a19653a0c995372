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

#endif
