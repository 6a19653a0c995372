package bench

import "github.com/lapis-go/lapis/internal/clib"

// OpenBLAS's thread count and configuration, for the benchmarks that fix
// one thread and print the kernel set they ran on, through lapis's one C
// layer. The C reference gemm (and every other C reference) is package
// bench/cref's.

// setBLASThreads sets OpenBLAS's thread count and returns the previous one.
func setBLASThreads(n int) int {
	prev := clib.Threads()
	clib.SetThreads(n)
	return prev
}

// blasConfig returns OpenBLAS's build configuration and the core it chose.
func blasConfig() (config, core string) { return clib.Config(), clib.Core() }
