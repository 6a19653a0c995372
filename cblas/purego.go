package cblas

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/kernel/gemm"
)

// The pure-Go path for small problems: below a few hundred flops, the cost
// of crossing into C and of OpenBLAS's own dispatch exceeds the work, and
// gonum's pure-Go implementation is faster (thresholds and how they were
// measured: docs/blas.md, "Small problems"). gonum is row-major; a
// column-major matrix with leading dimension ld is the row-major transpose
// with the same ld, so C = op(A) op(B) is computed as C^T = op(B)^T
// op(A)^T with the same flags.

var impl gonum.Implementation

// gemmSmallFlops is the largest m*n*k that goes to the pure-Go gemm.
// For float64, when the assembly kernel of internal/kernel/gemm runs
// (gemm.Fast), products up to gemmKernelFlops with no side beyond
// gemmKernelDim go to it instead: it beats the C call up to there
// (BenchmarkThreshold; internal/kernel/gemm's BenchmarkDgemm for the kernel
// alone), and a long side alone (a dot product in disguise) is left to
// OpenBLAS.
var (
	gemmSmallFlops  = 4 * 4 * 4
	gemmKernelFlops = 32 * 32 * 32
	gemmKernelDim   = 64
)

// goGemmSmall reports whether Gemm sends an m x n x k product of T to the
// pure-Go path by default.
func goGemmSmall[T Scalar](m, n, k int) bool {
	if useKernel[T]() {
		d := gemmKernelDim
		return m <= d && n <= d && k <= d && m*n*k <= gemmKernelFlops
	}
	d := gemmSmallFlops
	return m <= d && n <= d && k <= d && m*n*k <= d // no overflow
}

// useKernel reports whether goGemm runs gemm.Dgemm for T.
func useKernel[T Scalar]() bool {
	var z T
	_, f64 := any(z).(float64)
	return f64 && gemm.Fast
}

func gonumTrans(t clib.Trans) blas.Transpose {
	switch t {
	case clib.DoTrans:
		return blas.Trans
	case clib.ConjTrans:
		return blas.ConjTrans
	}
	return blas.NoTrans
}

func slice[T Scalar](m *mat) []T {
	if m.ptr == nil {
		return nil
	}
	return unsafe.Slice((*T)(m.ptr), m.span())
}

// goGemm is xgemm on the pure-Go path: for float64, the assembly kernel
// when it runs (real types never carry a conjugating flag), up to
// gemmKernelFlops; otherwise a plain kernel for tiny products without
// conjugation (the ones this path exists for), gonum's beyond.
func goGemm[T Scalar](a, b *mat, m, n, k int, alpha, beta T, c *mat) {
	if useKernel[T]() && goGemmSmall[T](m, n, k) {
		gemm.Dgemm(m, n, k, any(alpha).(float64), slice[float64](a), int(a.ld), a.trans != clib.NoTrans,
			slice[float64](b), int(b.ld), b.trans != clib.NoTrans, any(beta).(float64), slice[float64](c), int(c.ld))
		return
	}
	if a.trans != clib.ConjTrans && b.trans != clib.ConjTrans && m*n*k <= 16*16*16 {
		smallGemm(a, b, m, n, k, alpha, beta, c)
		return
	}
	ta, tb := gonumTrans(a.trans), gonumTrans(b.trans)
	as, bs, cs := slice[T](a), slice[T](b), slice[T](c)
	lda, ldb, ldc := int(a.ld), int(b.ld), int(c.ld)
	switch any(alpha).(type) {
	case float32:
		impl.Sgemm(tb, ta, n, m, k, any(alpha).(float32), any(bs).([]float32), ldb, any(as).([]float32), lda, any(beta).(float32), any(cs).([]float32), ldc)
	case float64:
		impl.Dgemm(tb, ta, n, m, k, any(alpha).(float64), any(bs).([]float64), ldb, any(as).([]float64), lda, any(beta).(float64), any(cs).([]float64), ldc)
	case complex64:
		impl.Cgemm(tb, ta, n, m, k, any(alpha).(complex64), any(bs).([]complex64), ldb, any(as).([]complex64), lda, any(beta).(complex64), any(cs).([]complex64), ldc)
	case complex128:
		impl.Zgemm(tb, ta, n, m, k, any(alpha).(complex128), any(bs).([]complex128), ldb, any(as).([]complex128), lda, any(beta).(complex128), any(cs).([]complex128), ldc)
	}
}

// smallGemm computes c = alpha op(a) op(b) + beta c (op: identity or
// transpose) with a dot product per element of c, four rows of c at a time
// so that the four sums do not wait on each other; c is not read when beta
// is 0. It is meant for the tiny sizes below gemmSmallFlops.
func smallGemm[T Scalar](a, b *mat, m, n, k int, alpha, beta T, c *mat) {
	var z T
	sz := int(unsafe.Sizeof(z))
	// Byte strides of op(a) along i (rows) and p, of op(b) along p and j.
	ai, ap := sz, int(a.ld)*sz
	if a.trans != clib.NoTrans {
		ai, ap = ap, ai
	}
	bp, bj := sz, int(b.ld)*sz
	if b.trans != clib.NoTrans {
		bp, bj = bj, bp
	}
	ldc := int(c.ld) * sz
	store := func(i, j int, s T) {
		pc := (*T)(unsafe.Add(c.ptr, i*sz+j*ldc))
		if beta == 0 {
			*pc = alpha * s
		} else {
			*pc = alpha*s + beta**pc
		}
	}
	for j := 0; j < n; j++ {
		pb := unsafe.Add(b.ptr, j*bj)
		i := 0
		for ; i+4 <= m; i += 4 {
			pa := unsafe.Add(a.ptr, i*ai)
			var s0, s1, s2, s3 T
			for p := 0; p < k; p++ {
				x := *(*T)(unsafe.Add(pb, p*bp))
				q := unsafe.Add(pa, p*ap)
				s0 += *(*T)(q) * x
				s1 += *(*T)(unsafe.Add(q, ai)) * x
				s2 += *(*T)(unsafe.Add(q, 2*ai)) * x
				s3 += *(*T)(unsafe.Add(q, 3*ai)) * x
			}
			store(i, j, s0)
			store(i+1, j, s1)
			store(i+2, j, s2)
			store(i+3, j, s3)
		}
		for ; i < m; i++ {
			pa := unsafe.Add(a.ptr, i*ai)
			var s T
			for p := 0; p < k; p++ {
				s += *(*T)(unsafe.Add(pa, p*ap)) * *(*T)(unsafe.Add(pb, p*bp))
			}
			store(i, j, s)
		}
	}
}

// scaleGo sets the column-major matrix c (m x n) to beta*c, without
// reading it when beta is 0 and without touching it when beta is 1.
func scaleGo[T Scalar](m, n int, beta T, c *mat) {
	if beta == 1 || m == 0 || n == 0 {
		return
	}
	for j := 0; j < n; j++ {
		col := unsafe.Slice((*T)(unsafe.Add(c.ptr, j*int(c.ld)*int(unsafe.Sizeof(beta)))), m)
		if beta == 0 {
			clear(col)
			continue
		}
		for i := range col {
			col[i] *= beta
		}
	}
}

// vslice is the memory of the BLAS vector v of n elements, from its
// lowest address (where BLAS starts a negative increment from the end).
func vslice[T Scalar](v vec, n int) []T {
	inc := int(v.inc)
	if inc < 0 {
		inc = -inc
	}
	return unsafe.Slice((*T)(v.ptr), (n-1)*inc+1)
}

// goSymv is xsymv for real T in gonum: y = alpha a x + beta y with a's
// uplo triangle column-major, which row-major gonum reads as the other
// triangle of a^T = a.
func goSymv[T Scalar](uplo Uplo, n int, alpha T, a *mat, x vec, beta T, y vec) {
	ul := blas.Lower
	if uplo == Lower {
		ul = blas.Upper
	}
	as, xs, ys := slice[T](a), vslice[T](x, n), vslice[T](y, n)
	switch al := any(alpha).(type) {
	case float32:
		impl.Ssymv(ul, n, al, any(as).([]float32), int(a.ld), any(xs).([]float32), int(x.inc), any(beta).(float32), any(ys).([]float32), int(y.inc))
	case float64:
		impl.Dsymv(ul, n, al, any(as).([]float64), int(a.ld), any(xs).([]float64), int(x.inc), any(beta).(float64), any(ys).([]float64), int(y.inc))
	}
}
