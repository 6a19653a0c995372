//go:build !amd64 || purego

package gemm

// Fast reports whether Dgemm runs an assembly kernel; without the amd64
// assembly it runs dgemmGo.
const Fast = false

func dgemmAsm(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int) {
	panic("unreachable")
}

func dgemmNN(m, n, k int, alpha float64, a *float64, lda int, b *float64, bp, bj int, beta float64, c *float64, ldc int) {
	panic("unreachable")
}
