//go:build !amd64 || purego

package kernel

// Fast reports whether Dgemm runs an assembly kernel; without the amd64
// assembly it runs dgemmGo.
const Fast = false

func dgemmAsm(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int) {
	panic("unreachable")
}

func dgemmNN(m, n, k int, alpha float64, a *float64, lda int, b *float64, bp, bj int, beta float64, c *float64, ldc int) {
	panic("unreachable")
}

// tinyAsm, tinyAsm512 and tinyAsm512NoScatter have no kernels without
// the amd64 assembly.
var (
	tinyAsm             [2][nTinyOps][maxTiny + 1]func(*tinyArgs) int
	tinyAsm512          [2][nTinyOps][maxTiny + 1]func(*tinyArgs) int
	tinyAsm512NoScatter [2][nTinyOps][maxTiny + 1]func(*tinyArgs) int
)

// Wide reports whether the AVX-512 tiny kernels run: never without the
// amd64 assembly.
const Wide = false

// slowScatter does not matter without the amd64 assembly.
const slowScatter = false
