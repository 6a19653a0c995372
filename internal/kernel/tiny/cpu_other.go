//go:build !amd64 || purego

package tiny

// Fast reports whether the tiny kernels run: never without the amd64
// assembly.
const Fast = false

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
