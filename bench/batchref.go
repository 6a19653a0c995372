package bench

/*
#cgo pkg-config: openblas
#include <cblas.h>

#cgo noescape lapis_bench_kernel_loop
#cgo nocallback lapis_bench_kernel_loop
#cgo noescape lapis_bench_blas_loop
#cgo nocallback lapis_bench_blas_loop

// The C references for batched products of count n x n matrices stored one
// after another (compact column-major batches): a plain triple-loop
// kernel, as a C programmer would write it, in one loop; and a loop of
// cblas_dgemm calls.
static void lapis_bench_kernel_loop(int count, int n, const double *a, const double *b, double *c) {
	long long nn = (long long)n * n;
	for (int t = 0; t < count; t++) {
		const double *A = a + t * nn, *B = b + t * nn;
		double *Cm = c + t * nn;
		for (int j = 0; j < n; j++) {
			for (int i = 0; i < n; i++) {
				double s = 0;
				for (int p = 0; p < n; p++) {
					s += A[i + p * n] * B[p + j * n];
				}
				Cm[i + j * n] = s;
			}
		}
	}
}

static void lapis_bench_blas_loop(int count, int n, const double *a, const double *b, double *c) {
	long long nn = (long long)n * n;
	for (int t = 0; t < count; t++) {
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a + t * nn, n,
			b + t * nn, n, 0.0, c + t * nn, n);
	}
}
*/
import "C"

// batchKernelLoop and batchBLASLoop run the C references on count n x n
// matrices of a, b into c (one cgo call each).
func batchKernelLoop(count, n int, a, b, c []float64) {
	C.lapis_bench_kernel_loop(C.int(count), C.int(n), (*C.double)(&a[0]), (*C.double)(&b[0]), (*C.double)(&c[0]))
}

func batchBLASLoop(count, n int, a, b, c []float64) {
	C.lapis_bench_blas_loop(C.int(count), C.int(n), (*C.double)(&a[0]), (*C.double)(&b[0]), (*C.double)(&c[0]))
}
