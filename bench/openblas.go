package bench

/*
#cgo pkg-config: openblas
#include <cblas.h>
*/
import "C"

// OpenBLAS's thread count and configuration, for the benchmarks that fix
// one thread and print the kernel set they ran on. The C reference gemm
// (and every other C reference) is package bench/cref's.

// setBLASThreads sets OpenBLAS's thread count and returns the previous one.
func setBLASThreads(n int) int {
	prev := int(C.openblas_get_num_threads())
	C.openblas_set_num_threads(C.int(n))
	return prev
}

// blasConfig returns OpenBLAS's build configuration and the core it chose.
func blasConfig() (config, core string) {
	return C.GoString(C.openblas_get_config()), C.GoString(C.openblas_get_corename())
}
