//go:build !amd64 || purego

package gemm

// Fast reports whether Dgemm (and Lanes) run assembly kernels; without
// the amd64 assembly they run in Go.
const Fast = false

func dgemmAsm(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int) {
	panic("unreachable")
}

func dgemmNN(m, n, k int, alpha float64, a *float64, lda int, b *float64, bp, bj int, beta float64, c *float64, ldc int) {
	panic("unreachable")
}

func lanesTile() (lanes, rows int) { return 0, 0 }

func lanePack(sub int, dst, src *float64, n0, s0, n1, s1, dp, gp int) { panic("unreachable") }

func laneTile(k int, a *float64, as0, as1 int, b *float64, bs0, bs1 int, c *float64, cs0, cs1 int, alpha, beta float64) {
	panic("unreachable")
}

var lanesWide, lanesAVX512 bool
