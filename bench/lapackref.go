package bench

/*
#cgo pkg-config: openblas
// gonum.org/v1/netlib/lapack/lapacke (impl=netlib of BenchmarkLapack)
// declares no library: its users supply one. Debian's liblapacke calls
// the Fortran LAPACK symbols, which resolve to the ones in libopenblas,
// like the C reference's below.
#cgo LDFLAGS: -llapacke
#include <lapack.h>

#cgo noescape lapis_bench_dgesv
#cgo nocallback lapis_bench_dgesv
#cgo noescape lapis_bench_dpotrf
#cgo nocallback lapis_bench_dpotrf
#cgo noescape lapis_bench_dgeqrf
#cgo nocallback lapis_bench_dgeqrf
#cgo noescape lapis_bench_dgesdd
#cgo nocallback lapis_bench_dgesdd
#cgo noescape lapis_bench_dgesvd
#cgo nocallback lapis_bench_dgesvd
#cgo noescape lapis_bench_dsyevd
#cgo nocallback lapis_bench_dsyevd

// Each wrapper is one call of the Fortran routine (column-major, 1-based
// pivots) and returns its info. The LAPACK_x macros of lapack.h pass the
// hidden length (1) of each character argument at the end, as gfortran
// expects (LAPACK_FORTRAN_STRLEN_END).

static int lapis_bench_dgesv(lapack_int n, lapack_int nrhs, double *a, lapack_int lda,
		lapack_int *ipiv, double *b, lapack_int ldb) {
	lapack_int info = 0;
	LAPACK_dgesv(&n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
	return info;
}

static int lapis_bench_dpotrf(char uplo, lapack_int n, double *a, lapack_int lda) {
	lapack_int info = 0;
	LAPACK_dpotrf(&uplo, &n, a, &lda, &info);
	return info;
}

static int lapis_bench_dgeqrf(lapack_int m, lapack_int n, double *a, lapack_int lda,
		double *tau, double *work, lapack_int lwork) {
	lapack_int info = 0;
	LAPACK_dgeqrf(&m, &n, a, &lda, tau, work, &lwork, &info);
	return info;
}

static int lapis_bench_dgesdd(char jobz, lapack_int m, lapack_int n, double *a, lapack_int lda,
		double *s, double *u, lapack_int ldu, double *vt, lapack_int ldvt,
		double *work, lapack_int lwork, lapack_int *iwork) {
	lapack_int info = 0;
	LAPACK_dgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info);
	return info;
}

static int lapis_bench_dgesvd(char jobu, char jobvt, lapack_int m, lapack_int n, double *a, lapack_int lda,
		double *s, double *u, lapack_int ldu, double *vt, lapack_int ldvt,
		double *work, lapack_int lwork) {
	lapack_int info = 0;
	LAPACK_dgesvd(&jobu, &jobvt, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, &info);
	return info;
}

static int lapis_bench_dsyevd(char jobz, char uplo, lapack_int n, double *a, lapack_int lda,
		double *w, double *work, lapack_int lwork, lapack_int *iwork, lapack_int liwork) {
	lapack_int info = 0;
	LAPACK_dsyevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, &info);
	return info;
}
*/
import "C"

import "fmt"

// The C reference LAPACK driver: the Fortran routines of libopenblas
// called directly on column-major Go memory, as a careful C programmer
// would: workspace sized by a query (lwork = -1) once, up front, so that
// each timed call is exactly one LAPACK call. Square n x n matrices with
// leading dimension n. Only benchmarks and their tests use it.

// lapackInfoErr is a nonzero info from routine.
func lapackInfoErr(routine string, info C.int) error {
	if info == 0 {
		return nil
	}
	return fmt.Errorf("%s: info = %d", routine, int(info))
}

// dgesvRef solves a x = b in place: a (n x n) becomes its LU factors, b
// (n x nrhs) the solution.
type dgesvRef struct {
	n, nrhs int
	a, b    []float64
	ipiv    []int32
}

func newDgesvRef(n, nrhs int, a, b []float64) *dgesvRef {
	return &dgesvRef{n: n, nrhs: nrhs, a: a, b: b, ipiv: make([]int32, n)}
}

func (r *dgesvRef) call() error {
	return lapackInfoErr("dgesv", C.lapis_bench_dgesv(C.lapack_int(r.n), C.lapack_int(r.nrhs),
		(*C.double)(&r.a[0]), C.lapack_int(r.n), (*C.lapack_int)(&r.ipiv[0]),
		(*C.double)(&r.b[0]), C.lapack_int(r.n)))
}

// dpotrfRef factors the symmetric positive definite a in place: its lower
// triangle becomes L with a = L L^T.
type dpotrfRef struct {
	n int
	a []float64
}

func (r *dpotrfRef) call() error {
	return lapackInfoErr("dpotrf", C.lapis_bench_dpotrf('L', C.lapack_int(r.n), (*C.double)(&r.a[0]), C.lapack_int(r.n)))
}

// dgeqrfRef computes a = Q R in place (R above the diagonal, Householder
// vectors below, their scales in tau).
type dgeqrfRef struct {
	n         int
	a         []float64
	tau, work []float64
}

func newDgeqrfRef(n int, a []float64) *dgeqrfRef {
	r := &dgeqrfRef{n: n, a: a, tau: make([]float64, n)}
	var q C.double
	if err := lapackInfoErr("dgeqrf", C.lapis_bench_dgeqrf(C.lapack_int(n), C.lapack_int(n), (*C.double)(&a[0]), C.lapack_int(n),
		(*C.double)(&r.tau[0]), &q, -1)); err != nil {
		panic(err)
	}
	r.work = make([]float64, max(1, int(q)))
	return r
}

func (r *dgeqrfRef) call() error {
	return lapackInfoErr("dgeqrf", C.lapis_bench_dgeqrf(C.lapack_int(r.n), C.lapack_int(r.n), (*C.double)(&r.a[0]), C.lapack_int(r.n),
		(*C.double)(&r.tau[0]), (*C.double)(&r.work[0]), C.lapack_int(len(r.work))))
}

// dsvdRef is a = U diag(s) V^T with all vectors (jobz = 'A' for dgesdd,
// jobu = jobvt = 'A' for dgesvd); a is destroyed.
type dsvdRef struct {
	dc          bool // dgesdd (divide and conquer) rather than dgesvd
	n           int
	a, s, u, vt []float64
	work        []float64
	iwork       []int32 // dgesdd only
}

func newDsvdRef(dc bool, n int, a []float64) *dsvdRef {
	r := &dsvdRef{dc: dc, n: n, a: a, s: make([]float64, n), u: make([]float64, n*n), vt: make([]float64, n*n),
		work: make([]float64, 1), iwork: make([]int32, 8*n)}
	if err := r.run(-1); err != nil {
		panic(err)
	}
	r.work = make([]float64, max(1, int(r.work[0])))
	return r
}

func (r *dsvdRef) call() error { return r.run(len(r.work)) }

func (r *dsvdRef) run(lwork int) error {
	n := C.lapack_int(r.n)
	a, s, u, vt, work := (*C.double)(&r.a[0]), (*C.double)(&r.s[0]), (*C.double)(&r.u[0]), (*C.double)(&r.vt[0]), (*C.double)(&r.work[0])
	if r.dc {
		return lapackInfoErr("dgesdd", C.lapis_bench_dgesdd('A', n, n, a, n, s, u, n, vt, n,
			work, C.lapack_int(lwork), (*C.lapack_int)(&r.iwork[0])))
	}
	return lapackInfoErr("dgesvd", C.lapis_bench_dgesvd('A', 'A', n, n, a, n, s, u, n, vt, n, work, C.lapack_int(lwork)))
}

// dsyevdRef computes all eigenvalues w (ascending) and eigenvectors of the
// symmetric a from its lower triangle; a becomes the eigenvectors.
type dsyevdRef struct {
	n     int
	a, w  []float64
	work  []float64
	iwork []int32
}

func newDsyevdRef(n int, a []float64) *dsyevdRef {
	r := &dsyevdRef{n: n, a: a, w: make([]float64, n), work: make([]float64, 1), iwork: make([]int32, 1)}
	if err := r.run(-1, -1); err != nil {
		panic(err)
	}
	r.work = make([]float64, max(1, int(r.work[0])))
	r.iwork = make([]int32, max(1, int(r.iwork[0])))
	return r
}

func (r *dsyevdRef) call() error { return r.run(len(r.work), len(r.iwork)) }

func (r *dsyevdRef) run(lwork, liwork int) error {
	return lapackInfoErr("dsyevd", C.lapis_bench_dsyevd('V', 'L', C.lapack_int(r.n), (*C.double)(&r.a[0]), C.lapack_int(r.n),
		(*C.double)(&r.w[0]), (*C.double)(&r.work[0]), C.lapack_int(lwork), (*C.lapack_int)(&r.iwork[0]), C.lapack_int(liwork)))
}
