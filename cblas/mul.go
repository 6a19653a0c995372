package cblas

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Mul returns the product a*b of rank-2 views a (m x k) and b (k x n) as a
// new m x n column-major tensor. The tensor comes from the pool
// (views.Zeros): Release it when done with it. Mul is Gemm with alpha 1
// and beta 0 into that tensor: a and b may have any layout Gemm takes,
// transposed and conjugated ones included, with the same copies (counted,
// refused in strict mode) and the same options.
//
// Errors are Gemm's, named cblas.Mul: layout.ErrShape for ranks or extents
// that do not match, lapis.ErrTooLarge for a product larger than this
// machine's memory (an outer product of two long vectors), layout.ErrOverflow
// for sizes beyond the BLAS integer, lapis.ErrCopyRefused in strict mode. On error
// Mul returns nil and keeps nothing it allocated.
func Mul[T Scalar](a, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "cblas.Mul"
	if a.Rank() != 2 {
		return nil, readErr(op, "a", &a)
	}
	if b.Rank() != 2 {
		return nil, readErr(op, "b", &b)
	}
	la, lb := a.Layout(), b.Layout()
	m, k, n := la.Dim(0), la.Dim(1), lb.Dim(1)
	if lb.Dim(0) != k {
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d columns", lb.Dim(0), k)
	}
	if err := pool.Check[T](op, "the result", m, n); err != nil {
		return nil, err // before the Zeros: an m*n beyond an int is this error too
	}
	c, err := views.Zeros[T](m, n)
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	if err := Gemm(1, a, b, 0, c.View(), opts...); err != nil {
		c.Release()
		return nil, errop.Rename(err, op)
	}
	return c, nil
}
