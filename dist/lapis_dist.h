// lapis_dist.h: the C side of package dist. Debian's libscalapack-openmpi
// ships no header, so the BLACS, TOOLS, PBLAS and ScaLAPACK prototypes
// lapis uses are declared here as the library defines them (ScaLAPACK
// 2.2.1, 32-bit integers). Fortran routines take every argument by address
// and one hidden length per CHARACTER argument, appended at the end
// (gfortran: size_t). MPI's handles are macros over addresses of library
// objects, which cgo cannot use, so the few MPI calls go through the small
// static functions below. Nothing here keeps a pointer after it returns.
#ifndef LAPIS_DIST_H
#define LAPIS_DIST_H

#include <stddef.h>
#include <string.h>
#include <signal.h>
#include <complex.h>
#include <mpi.h>

typedef int lapis_int;              // ScaLAPACK's INTEGER
typedef double _Complex lapis_z;    // COMPLEX*16

// BLACS (C interface).
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int ictxt, int what, int *val);
void Cblacs_gridinit(int *ictxt, char *order, int nprow, int npcol);
void Cblacs_gridmap(int *ictxt, int *usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int ictxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ictxt);
void Cblacs_exit(int notDone);
void Cblacs_barrier(int ictxt, char *scope);
void Cigamx2d(int ictxt, char *scope, char *top, int m, int n, int *a, int lda,
              int *ra, int *ca, int rcflag, int rdest, int cdest);
void Cigamn2d(int ictxt, char *scope, char *top, int m, int n, int *a, int lda,
              int *ra, int *ca, int rcflag, int rdest, int cdest);
void Cdgebs2d(int ictxt, char *scope, char *top, int m, int n, double *a, int lda);
void Cdgebr2d(int ictxt, char *scope, char *top, int m, int n, double *a, int lda,
              int rsrc, int csrc);

// TOOLS.
lapis_int numroc_(const lapis_int *n, const lapis_int *nb, const lapis_int *iproc,
                  const lapis_int *isrcproc, const lapis_int *nprocs);
lapis_int indxg2p_(const lapis_int *indxglob, const lapis_int *nb, const lapis_int *iproc,
                   const lapis_int *isrcproc, const lapis_int *nprocs);
lapis_int indxg2l_(const lapis_int *indxglob, const lapis_int *nb, const lapis_int *iproc,
                   const lapis_int *isrcproc, const lapis_int *nprocs);
lapis_int indxl2g_(const lapis_int *indxloc, const lapis_int *nb, const lapis_int *iproc,
                   const lapis_int *isrcproc, const lapis_int *nprocs);
void descinit_(lapis_int *desc, const lapis_int *m, const lapis_int *n, const lapis_int *mb,
               const lapis_int *nb, const lapis_int *irsrc, const lapis_int *icsrc,
               const lapis_int *ictxt, const lapis_int *lld, lapis_int *info);

// Redistribution (ScaLAPACK REDIST).
void pdgemr2d_(const lapis_int *m, const lapis_int *n, const double *a, const lapis_int *ia,
               const lapis_int *ja, const lapis_int *desca, double *b, const lapis_int *ib,
               const lapis_int *jb, const lapis_int *descb, const lapis_int *ictxt);
void pzgemr2d_(const lapis_int *m, const lapis_int *n, const lapis_z *a, const lapis_int *ia,
               const lapis_int *ja, const lapis_int *desca, lapis_z *b, const lapis_int *ib,
               const lapis_int *jb, const lapis_int *descb, const lapis_int *ictxt);

// PBLAS.
void pdgemm_(const char *transa, const char *transb, const lapis_int *m, const lapis_int *n,
             const lapis_int *k, const double *alpha, const double *a, const lapis_int *ia,
             const lapis_int *ja, const lapis_int *desca, const double *b, const lapis_int *ib,
             const lapis_int *jb, const lapis_int *descb, const double *beta, double *c,
             const lapis_int *ic, const lapis_int *jc, const lapis_int *descc, size_t, size_t);
void pzgemm_(const char *transa, const char *transb, const lapis_int *m, const lapis_int *n,
             const lapis_int *k, const lapis_z *alpha, const lapis_z *a, const lapis_int *ia,
             const lapis_int *ja, const lapis_int *desca, const lapis_z *b, const lapis_int *ib,
             const lapis_int *jb, const lapis_int *descb, const lapis_z *beta, lapis_z *c,
             const lapis_int *ic, const lapis_int *jc, const lapis_int *descc, size_t, size_t);

// ScaLAPACK.
void pdgesv_(const lapis_int *n, const lapis_int *nrhs, double *a, const lapis_int *ia,
             const lapis_int *ja, const lapis_int *desca, lapis_int *ipiv, double *b,
             const lapis_int *ib, const lapis_int *jb, const lapis_int *descb, lapis_int *info);
void pzgesv_(const lapis_int *n, const lapis_int *nrhs, lapis_z *a, const lapis_int *ia,
             const lapis_int *ja, const lapis_int *desca, lapis_int *ipiv, lapis_z *b,
             const lapis_int *ib, const lapis_int *jb, const lapis_int *descb, lapis_int *info);
void pdpotrf_(const char *uplo, const lapis_int *n, double *a, const lapis_int *ia,
              const lapis_int *ja, const lapis_int *desca, lapis_int *info, size_t);
void pzpotrf_(const char *uplo, const lapis_int *n, lapis_z *a, const lapis_int *ia,
              const lapis_int *ja, const lapis_int *desca, lapis_int *info, size_t);
void pdpotrs_(const char *uplo, const lapis_int *n, const lapis_int *nrhs, const double *a,
              const lapis_int *ia, const lapis_int *ja, const lapis_int *desca, double *b,
              const lapis_int *ib, const lapis_int *jb, const lapis_int *descb, lapis_int *info, size_t);
void pzpotrs_(const char *uplo, const lapis_int *n, const lapis_int *nrhs, const lapis_z *a,
              const lapis_int *ia, const lapis_int *ja, const lapis_int *desca, lapis_z *b,
              const lapis_int *ib, const lapis_int *jb, const lapis_int *descb, lapis_int *info, size_t);
void pdsyevd_(const char *jobz, const char *uplo, const lapis_int *n, double *a,
              const lapis_int *ia, const lapis_int *ja, const lapis_int *desca, double *w,
              double *z, const lapis_int *iz, const lapis_int *jz, const lapis_int *descz,
              double *work, const lapis_int *lwork, lapis_int *iwork, const lapis_int *liwork,
              lapis_int *info, size_t, size_t);
void pdgesvd_(const char *jobu, const char *jobvt, const lapis_int *m, const lapis_int *n,
              double *a, const lapis_int *ia, const lapis_int *ja, const lapis_int *desca,
              double *s, double *u, const lapis_int *iu, const lapis_int *ju, const lapis_int *descu,
              double *vt, const lapis_int *ivt, const lapis_int *jvt, const lapis_int *descvt,
              double *work, const lapis_int *lwork, lapis_int *info, size_t, size_t);
void pzheevd_(const char *jobz, const char *uplo, const lapis_int *n, lapis_z *a,
              const lapis_int *ia, const lapis_int *ja, const lapis_int *desca, double *w,
              lapis_z *z, const lapis_int *iz, const lapis_int *jz, const lapis_int *descz,
              lapis_z *work, const lapis_int *lwork, double *rwork, const lapis_int *lrwork,
              lapis_int *iwork, const lapis_int *liwork, lapis_int *info, size_t, size_t);
void pzgesvd_(const char *jobu, const char *jobvt, const lapis_int *m, const lapis_int *n,
              lapis_z *a, const lapis_int *ia, const lapis_int *ja, const lapis_int *desca,
              double *s, lapis_z *u, const lapis_int *iu, const lapis_int *ju, const lapis_int *descu,
              lapis_z *vt, const lapis_int *ivt, const lapis_int *jvt, const lapis_int *descvt,
              lapis_z *work, const lapis_int *lwork, double *rwork, lapis_int *info, size_t, size_t);
void pdgels_(const char *trans, const lapis_int *m, const lapis_int *n, const lapis_int *nrhs,
             double *a, const lapis_int *ia, const lapis_int *ja, const lapis_int *desca,
             double *b, const lapis_int *ib, const lapis_int *jb, const lapis_int *descb,
             double *work, const lapis_int *lwork, lapis_int *info, size_t);
void pzgels_(const char *trans, const lapis_int *m, const lapis_int *n, const lapis_int *nrhs,
             lapis_z *a, const lapis_int *ia, const lapis_int *ja, const lapis_int *desca,
             lapis_z *b, const lapis_int *ib, const lapis_int *jb, const lapis_int *descb,
             lapis_z *work, const lapis_int *lwork, lapis_int *info, size_t);
void pdtrcon_(const char *norm, const char *uplo, const char *diag, const lapis_int *n,
              const double *a, const lapis_int *ia, const lapis_int *ja, const lapis_int *desca,
              double *rcond, double *work, const lapis_int *lwork, lapis_int *iwork,
              const lapis_int *liwork, lapis_int *info, size_t, size_t, size_t);
void pztrcon_(const char *norm, const char *uplo, const char *diag, const lapis_int *n,
              const lapis_z *a, const lapis_int *ia, const lapis_int *ja, const lapis_int *desca,
              double *rcond, lapis_z *work, const lapis_int *lwork, double *rwork,
              const lapis_int *lrwork, lapis_int *info, size_t, size_t, size_t);

// MPI, through functions (MPI_COMM_WORLD is a macro over an address).
static inline int lapis_mpi_init(int required, int *provided) {
	return MPI_Init_thread(NULL, NULL, required, provided);
}
static inline int lapis_mpi_initialized(void) { int f = 0; MPI_Initialized(&f); return f; }
static inline int lapis_mpi_finalized(void) { int f = 0; MPI_Finalized(&f); return f; }
static inline int lapis_mpi_finalize(void) { return MPI_Finalize(); }
static inline int lapis_mpi_rank(int *r) { return MPI_Comm_rank(MPI_COMM_WORLD, r); }
static inline int lapis_mpi_size(int *s) { return MPI_Comm_size(MPI_COMM_WORLD, s); }
static inline int lapis_mpi_barrier(void) { return MPI_Barrier(MPI_COMM_WORLD); }
static inline int lapis_mpi_abort(int code) { return MPI_Abort(MPI_COMM_WORLD, code); }
static inline int lapis_mpi_allreduce_max_ints(int *x, int n) {
	return MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}
static inline int lapis_mpi_allreduce_max_long(long long *x, int n) {
	return MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
}
static inline int lapis_mpi_allreduce_min_long(long long *x, int n) {
	return MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
}
static inline int lapis_mpi_bcast(char *buf, int n, int root) {
	return MPI_Bcast(buf, n, MPI_CHAR, root, MPI_COMM_WORLD);
}
static inline int lapis_mpi_allreduce_max_double(double *x) {
	return MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}
static inline int lapis_mpi_allreduce_sum_double(double *x, int n) {
	return MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static inline double lapis_mpi_wtime(void) { return MPI_Wtime(); }
static inline const char *lapis_mpi_version(void) {
	static char buf[MPI_MAX_LIBRARY_VERSION_STRING + 1];
	int len = 0;
	MPI_Get_library_version(buf, &len);
	return buf;
}

// Signal handlers, for checking what MPI_Init did to Go's (sigs.go):
// handler address and flags of signal sig.
static inline int lapis_sigaction(int sig, unsigned long *handler, int *flags) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (sigaction(sig, NULL, &sa) != 0) return -1;
	*handler = (unsigned long)sa.sa_handler;
	*flags = sa.sa_flags;
	return 0;
}

#endif
