package bench

/*
#cgo pkg-config: openblas
#cgo LDFLAGS: -llapacke
#include <lapacke.h>

#cgo noescape lapis_bench_potrf_fortran
#cgo nocallback lapis_bench_potrf_fortran
#cgo noescape lapis_bench_potrf_lapacke
#cgo nocallback lapis_bench_potrf_lapacke

// The two ways lapack could call LAPACK, on the same routine: the Fortran
// symbol (what package lapack does) and LAPACKE's column-major _work
// function (which checks its layout argument and forwards to the same
// symbol).
static int lapis_bench_potrf_fortran(lapack_int n, double *a, lapack_int lda) {
	lapack_int info = 0;
	char uplo = 'L';
	LAPACK_dpotrf(&uplo, &n, a, &lda, &info);
	return info;
}

static int lapis_bench_potrf_lapacke(lapack_int n, double *a, lapack_int lda) {
	return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a, lda);
}
*/
import "C"

import "unsafe"

// potrfBinding calls dpotrf on the n x n column-major a through the
// Fortran symbol or through LAPACKE_dpotrf_work, and returns LAPACK's info.
func potrfBinding(lapacke bool, n int, a []float64) int {
	p := (*C.double)(unsafe.Pointer(&a[0]))
	if lapacke {
		return int(C.lapis_bench_potrf_lapacke(C.lapack_int(n), p, C.lapack_int(n)))
	}
	return int(C.lapis_bench_potrf_fortran(C.lapack_int(n), p, C.lapack_int(n)))
}
