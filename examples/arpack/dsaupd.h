// dsaupd.h: the prototypes of ARPACK's dsaupd and dseupd as gfortran
// compiles them, for main.go and raw.go (cgo reads each file's preamble
// on its own).
#ifndef ARPACK_EXAMPLE_DSAUPD_H
#define ARPACK_EXAMPLE_DSAUPD_H
#include <stddef.h>

// gfortran's calling convention: every argument by address (INTEGER is
// int, LOGICAL is int, DOUBLE PRECISION is double), then one hidden
// length (size_t) per CHARACTER argument, in order, after all the others.
void dsaupd_(int *ido, const char *bmat, const int *n, const char *which, const int *nev,
	const double *tol, double *resid, const int *ncv, double *v, const int *ldv, int *iparam,
	int *ipntr, double *workd, double *workl, const int *lworkl, int *info,
	size_t bmat_len, size_t which_len);
void dseupd_(const int *rvec, const char *howmny, int *select, double *d, double *z,
	const int *ldz, const double *sigma, const char *bmat, const int *n, const char *which,
	const int *nev, const double *tol, double *resid, const int *ncv, double *v,
	const int *ldv, int *iparam, int *ipntr, double *workd, double *workl,
	const int *lworkl, int *info, size_t howmny_len, size_t bmat_len, size_t which_len);
#endif
