//go:build amd64 && !purego

package gemm

import "github.com/klauspost/cpuid/v2"

// Fast reports whether Dgemm runs the assembly kernel of dgemm_amd64.s
// and Lanes the tiles of lanes_amd64.s (AVX2 and FMA; cpuid also checks
// that the OS saves the YMM registers).
var Fast = cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3)

// dgemmNN computes c = alpha*a*b + beta*c for m, n, k >= 1 with a
// column-major m x k (unit row stride), c column-major m x n, and b read at
// byte offset p*bp + j*bj for op(b)'s element (p, j): b or b^T. lda and ldc
// are in bytes. c is not read when beta is 0 (or -0). It computes c in
// tiles of 8 rows by 4 columns, the row tail with masked loads and stores,
// so that it reads and writes nothing outside the matrices.
//
//go:noescape
func dgemmNN(m, n, k int, alpha float64, a *float64, lda int, b *float64, bp, bj int, beta float64, c *float64, ldc int)

// packLen is the size of the stack buffer a transposed a is packed into.
const packLen = 256

// dgemmAsm is Dgemm on dgemmNN for m, n, k >= 1 and alpha != 0. dgemmNN
// takes a only untransposed: a^T is packed, a block of at most packLen
// elements at a time (k blocks after the first accumulate into c).
func dgemmAsm(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int) {
	bp, bj := 8, 8*ldb
	if transB {
		bp, bj = bj, bp
	}
	if !transA {
		dgemmNN(m, n, k, alpha, &a[0], 8*lda, &b[0], bp, bj, beta, &c[0], 8*ldc)
		return
	}
	var buf [packLen]float64
	mc := min(m, packLen)
	kc := min(k, packLen/mc)
	for i0 := 0; i0 < m; i0 += mc {
		mm := min(mc, m-i0)
		be := beta
		for p0 := 0; p0 < k; p0 += kc {
			kk := min(kc, k-p0)
			// buf holds op(a)[i0:i0+mm, p0:p0+kk] column-major: element
			// (i, p) is a[p0+p + (i0+i)*lda].
			for i := 0; i < mm; i++ {
				row := a[(i0+i)*lda+p0 : (i0+i)*lda+p0+kk]
				for p, x := range row {
					buf[i+p*mm] = x
				}
			}
			pb := p0 * ldb // op(b)'s row p0
			if !transB {
				pb = p0
			}
			dgemmNN(mm, n, kk, alpha, &buf[0], 8*mm, &b[pb], bp, bj, be, &c[i0], 8*ldc)
			be = 1
		}
	}
}
