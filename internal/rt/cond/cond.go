// Package cond computes, in Go, the one or infinity norm of a small dense
// matrix and of its inverse from its LU factors: the exact reciprocal
// condition number that the conditioning check of lapack.Solve and batch's Solve and Inv
// use for orders up to Max, where a call of LAPACK's gecon costs more
// than the whole computation. Matrices are read in place through their
// strides, into a fixed-size array on the caller's stack.
package cond

import (
	"math"
	"math/cmplx"
	"unsafe"

	"github.com/lapis-go/lapis/internal/scalar"
)

// Max is the largest order computed here.
const Max = 16

// Matrix is an n x n matrix (n <= Max), column-major in A.
type Matrix[T scalar.Type] struct {
	A [Max * Max]T
	N int
}

// Load reads the n x n matrix whose element (i, j) is at base +
// (off + i*s0 + j*s1) elements.
func (m *Matrix[T]) Load(base unsafe.Pointer, off, s0, s1, n int) {
	var z T
	sz := int(unsafe.Sizeof(z))
	m.N = n
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			m.A[i+j*n] = *(*T)(unsafe.Add(base, (off+i*s0+j*s1)*sz))
		}
	}
}

// Norm is the one norm (inf false) or infinity norm of m.
func (m *Matrix[T]) Norm(inf bool) float64 {
	n := m.N
	var rows [Max]float64
	best := 0.0
	abs := AbsFunc[T]()
	for j := 0; j < n; j++ {
		sum := 0.0
		for i := 0; i < n; i++ {
			a := abs(m.A[i+j*n])
			sum += a
			rows[i] += a
		}
		best = max(best, sum)
	}
	if inf {
		best = 0
		for i := 0; i < n; i++ {
			best = max(best, rows[i])
		}
	}
	return best
}

// InvNorm is the norm (as Norm) of A^-1 for A = P L U with the factors L
// (unit lower) and U in m, as LAPACK's getrf leaves them. A^-1 =
// U^-1 L^-1 P^T is U^-1 L^-1 with its columns permuted, which changes
// neither norm, so the pivots are not needed.
func (m *Matrix[T]) InvNorm(inf bool) float64 {
	n := m.N
	var inv Matrix[T]
	inv.N = n
	for j := 0; j < n; j++ {
		col := inv.A[j*n : j*n+n]
		col[j] = 1
		for k := j; k < n; k++ {
			for i := k + 1; i < n; i++ {
				col[i] -= m.A[i+k*n] * col[k]
			}
		}
		for k := n - 1; k >= 0; k-- {
			col[k] /= m.A[k+k*n]
			for i := 0; i < k; i++ {
				col[i] -= m.A[i+k*n] * col[k]
			}
		}
	}
	return inv.Norm(inf)
}

// AbsFunc returns |x| for T, chosen once per call rather than by a type
// switch per element. A complex64 modulus is sqrt(re^2 + im^2) in
// float64, where float32 parts can neither overflow nor underflow.
func AbsFunc[T scalar.Type]() func(T) float64 {
	var f any
	switch any(*new(T)).(type) {
	case float32:
		f = func(x float32) float64 { return math.Abs(float64(x)) }
	case float64:
		f = math.Abs
	case complex64:
		f = func(x complex64) float64 {
			re, im := float64(real(x)), float64(imag(x))
			return math.Sqrt(re*re + im*im)
		}
	default:
		f = cmplx.Abs
	}
	return f.(func(T) float64)
}

// Abs is |x|.
func Abs[T scalar.Type](x T) float64 { return AbsFunc[T]()(x) }
