// Package kernel holds small dense kernels for lapis's pure-Go paths: plain
// Go everywhere, and amd64 assembly (AVX2 and FMA, chosen at run time) where
// it pays. It does not use cgo, so that the assembly is Go assembly; cblas
// calls it for products too small to be worth crossing into C, and batched
// products of tiny matrices are meant to share it.
//
// Matrices are column-major float64 slices with a leading dimension, as in
// BLAS:
//
//	a (m x k, lda >= m)      element (i, p) at a[i + p*lda]
//	+-----------+ . . .      columns are contiguous; rows m..lda-1 of
//	| a00 a01 . |            each column are padding, never read
//	| a10 a11 . |
//	+-----------+ . . .
//
// A transpose is a flag (op(x) is x or x^T), never a copy the caller makes.
//
// Lanes multiplies batches whose batch index is the innermost, of stride
// 1 (each SIMD lane another matrix), which BLAS cannot take.
//
// Aliasing: c must not share memory with a or b; a and b may alias each
// other.
package gemm

import "unsafe"

// Dgemm computes c = alpha*op(a)*op(b) + beta*c, with op(a) m x k, op(b)
// k x n and c m x n, all column-major with leading dimensions lda, ldb, ldc;
// op(x) is x^T when transX is set (a is then stored k x m, b n x k). As in
// reference BLAS, c is not read when beta is 0 (NaN there does not
// propagate), a and b are not read when alpha is 0 or k is 0, and nothing
// outside the m x n window of c is written.
//
// Dgemm panics, before touching c, on a negative size, a leading dimension
// below max(1, stored rows) or a slice too short for its matrix.
func Dgemm(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int) {
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	if m < 0 || n < 0 || k < 0 {
		panic("kernel: Dgemm with a negative size")
	}
	checkMatrix("a", ar, ac, a, lda)
	checkMatrix("b", br, bc, b, ldb)
	checkMatrix("c", m, n, c, ldc)
	DgemmUnchecked(m, n, k, alpha, a, lda, transA, b, ldb, transB, beta, c, ldc)
}

// DgemmUnchecked is Dgemm without its argument checks, for a caller that
// has checked the arguments of many calls at once (package batch checks a
// whole batch of products, then runs each): sizes must not be negative,
// leading dimensions at least max(1, stored rows), and each slice must
// hold its matrix, or the kernel reads and writes out of bounds.
func DgemmUnchecked(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int) {
	switch {
	case m == 0 || n == 0:
	case alpha == 0 || k == 0:
		scale(m, n, beta, c, ldc)
	case Fast:
		dgemmAsm(m, n, k, alpha, a, lda, transA, b, ldb, transB, beta, c, ldc)
	default:
		dgemmGo(m, n, k, alpha, a, lda, transA, b, ldb, transB, beta, c, ldc)
	}
}

// checkMatrix panics unless s holds a rows x cols matrix with leading
// dimension ld.
func checkMatrix(name string, rows, cols int, s []float64, ld int) {
	if ld < max(1, rows) {
		panic("kernel: leading dimension of " + name + " below its row count")
	}
	if rows > 0 && cols > 0 && len(s) < ld*(cols-1)+rows {
		panic("kernel: slice " + name + " too short for its matrix")
	}
}

// scale sets c = beta*c, without reading c when beta is 0.
func scale(m, n int, beta float64, c []float64, ldc int) {
	for j := 0; j < n; j++ {
		col := c[j*ldc : j*ldc+m]
		if beta == 0 {
			clear(col)
			continue
		}
		for i := range col {
			col[i] *= beta
		}
	}
}

// dgemmGo is Dgemm in plain Go for m, n, k >= 1 and alpha != 0: a dot
// product per element of c, four rows at a time so that the four sums do
// not wait on each other.
func dgemmGo(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int) {
	// Strides of op(a) along i and p, of op(b) along p and j.
	ai, ap := 1, lda
	if transA {
		ai, ap = lda, 1
	}
	bp, bj := 1, ldb
	if transB {
		bp, bj = ldb, 1
	}
	store := func(x *float64, s float64) {
		if beta == 0 {
			*x = alpha * s
		} else {
			*x = alpha*s + beta**x
		}
	}
	for j := 0; j < n; j++ {
		cj := c[j*ldc : j*ldc+m]
		i := 0
		for ; i+4 <= m; i += 4 {
			var s0, s1, s2, s3 float64
			for p := 0; p < k; p++ {
				x := b[p*bp+j*bj]
				q := i*ai + p*ap
				s0 += a[q] * x
				s1 += a[q+ai] * x
				s2 += a[q+2*ai] * x
				s3 += a[q+3*ai] * x
			}
			store(&cj[i], s0)
			store(&cj[i+1], s1)
			store(&cj[i+2], s2)
			store(&cj[i+3], s3)
		}
		for ; i < m; i++ {
			var s float64
			for p := 0; p < k; p++ {
				s += a[i*ai+p*ap] * b[p*bp+j*bj]
			}
			store(&cj[i], s)
		}
	}
}

// DgemmStrided runs count products c_t = alpha*op(a_t)*op(b_t) + beta*c_t,
// t = 0, ..., count-1, where matrix t of each operand starts t*stride
// elements after its first (strides may be negative, or 0 to repeat a
// matrix). It is for package batch, which has checked every matrix of the
// batch: like DgemmUnchecked it trusts its arguments, and it needs only
// the pointers. With the assembly kernel and an untransposed a it calls
// the kernel directly, without building slices.
func DgemmStrided(count, m, n, k int, alpha float64, a unsafe.Pointer, lda, sa int, transA bool,
	b unsafe.Pointer, ldb, sb int, transB bool, beta float64, c unsafe.Pointer, ldc, sc int) {
	if count <= 0 || m == 0 || n == 0 {
		return
	}
	if Fast && !transA && k > 0 && alpha != 0 {
		bp, bj := 8, 8*ldb
		if transB {
			bp, bj = bj, bp
		}
		for t := range count {
			dgemmNN(m, n, k, alpha, (*float64)(unsafe.Add(a, 8*t*sa)), 8*lda, (*float64)(unsafe.Add(b, 8*t*sb)), bp, bj,
				beta, (*float64)(unsafe.Add(c, 8*t*sc)), 8*ldc)
		}
		return
	}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	la, lb, lc := span(ar, ac, lda), span(br, bc, ldb), span(m, n, ldc)
	for t := range count {
		DgemmUnchecked(m, n, k, alpha, floats(a, t*sa, la), lda, transA, floats(b, t*sb, lb), ldb, transB,
			beta, floats(c, t*sc, lc), ldc)
	}
}

// span is the number of elements a rows x cols column-major matrix with
// leading dimension ld reaches.
func span(rows, cols, ld int) int {
	if rows == 0 || cols == 0 {
		return 0
	}
	return ld*(cols-1) + rows
}

// floats returns the n float64s at element offset off from p.
func floats(p unsafe.Pointer, off, n int) []float64 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Add(p, off*8)), n)
}
