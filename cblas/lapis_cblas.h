/* lapis_cblas.h: the CBLAS header lapis compiles against. It is the
 * library's own <cblas.h> plus what lapis needs that only OpenBLAS's header
 * declares: the blasint type and OpenBLAS's extensions (which threads.go
 * references weakly, so that other CBLAS libraries link too). */
#ifndef LAPIS_CBLAS_H
#define LAPIS_CBLAS_H

#include <cblas.h>

#ifndef OPENBLAS_CONST /* not OpenBLAS's header */
#ifdef CBLAS_INT
typedef CBLAS_INT blasint;
#else
typedef int blasint;
#endif
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
char *openblas_get_config(void);
char *openblas_get_corename(void);
int openblas_get_parallel(void);
#endif

#endif
