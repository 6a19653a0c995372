/* lapis_cblas.h: the CBLAS header lapis compiles against. It is the
 * library's own <cblas.h> (OpenBLAS's; or, with -tags lapis_cgoflags, the
 * netlib reference one from Debian's libblas-dev, BLIS's, ...) plus the
 * types lapis's Go code uses for what those headers spell differently:
 *
 *   blasint        the BLAS integer: OpenBLAS's own typedef; CBLAS_INT in
 *                  the reference header (LAPACK >= 3.10), f77_int in BLIS's,
 *                  int otherwise.
 *   lapis_trans_t, lapis_uplo_t, lapis_diag_t, lapis_side_t: the enum
 *                  arguments, as int. OpenBLAS and BLIS declare them as
 *                  "enum CBLAS_TRANSPOSE", the reference header (and MKL's)
 *                  as the typedef "CBLAS_TRANSPOSE", and cgo gives each
 *                  spelling its own Go type.
 *
 * Go calls CBLAS only through the generated static inline wrappers of
 * zblas.go (lapis_cblas_dgemm, ...) and the C loops of lapis_strided.h,
 * which take these types; C converts them to whatever the header declares.
 * OpenBLAS's extensions (threads, config) are not declared here: they are
 * looked up at run time (threads.go), so lapis links against any CBLAS. */
#ifndef LAPIS_CBLAS_H
#define LAPIS_CBLAS_H

#include <cblas.h>

#if defined(OPENBLAS_CONST) /* OpenBLAS's header: it has blasint */
#elif defined(BLIS_EXPORT_BLAS) /* BLIS */
typedef f77_int blasint;
#elif defined(CBLAS_INT) /* netlib reference, LAPACK >= 3.10 */
typedef CBLAS_INT blasint;
#else
typedef int blasint;
#endif

typedef int lapis_trans_t;
typedef int lapis_uplo_t;
typedef int lapis_diag_t;
typedef int lapis_side_t;

#if defined(BLIS_EXPORT_BLAS)
/* BLIS 0.9's CBLAS layer has no cblas_csrot/cblas_zdrot (CBLAS added them
 * in LAPACK 3.10); its BLAS layer has the Fortran csrot_/zdrot_, which
 * these forward to. */
void csrot_(const f77_int *n, void *x, const f77_int *incx, void *y, const f77_int *incy, const float *c, const float *s);
void zdrot_(const f77_int *n, void *x, const f77_int *incx, void *y, const f77_int *incy, const double *c, const double *s);
static inline void cblas_csrot(f77_int n, void *x, f77_int incx, void *y, f77_int incy, float c, float s) {
	csrot_(&n, x, &incx, y, &incy, &c, &s);
}
static inline void cblas_zdrot(f77_int n, void *x, f77_int incx, void *y, f77_int incy, double c, double s) {
	zdrot_(&n, x, &incx, y, &incy, &c, &s);
}
#endif

#endif
