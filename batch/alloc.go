package batch

import (
	"errors"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The allocating forms: each returns its result in a new compact
// column-major tensor and leaves its operands as they are. When some
// matrices fail (a *Error), the tensor is returned with the error, the
// failed matrices' places holding what the To form leaves there; on any
// other error the tensor is nil.

// Solve returns x with a[:, :, t] x[:, :, t] = b[:, :, t] for every matrix
// of the batches a ([n, n, B...]) and b ([n, nrhs, B...]): SolveTo into a
// new tensor of b's shape. A b with fewer batch axes is broadcast over
// a's, as SolveTo says: Solve(a, b) with b [n, nrhs] (or the vector [n])
// solves every matrix for the same right-hand sides and returns [n,
// nrhs, B...] ([n, B...]).
func Solve[T Scalar](a, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "batch.Solve"
	bm, vector, err := rhs(op, a, b)
	if err != nil {
		return nil, err
	}
	return allocated(op, []string{"a", "b"}, []views.View[T]{a, bm}, 1, rhsShape(bm, vector), func(x views.View[T]) error { return SolveTo(x, a, b, opts...) })
}

// Inv returns the inverses of the matrices of the batch a ([n, n, B...]):
// InvTo into a new tensor of a's shape. InvTo(a, a) inverts in place.
func Inv[T Scalar](a views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	return allocated("batch.Inv", []string{"a"}, []views.View[T]{a}, 0, a.Shape(), func(dst views.View[T]) error { return InvTo(dst, a, opts...) })
}

// Cholesky returns the Cholesky factors of the positive definite
// matrices of the batch a ([n, n, B...], of which the uplo triangle is
// read), zeros in their other triangles: CholeskyTo into a new tensor of
// a's shape.
func Cholesky[T Scalar](uplo Uplo, a views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	return allocated("batch.Cholesky", []string{"a"}, []views.View[T]{a}, 0, a.Shape(), func(dst views.View[T]) error { return CholeskyTo(uplo, dst, a, opts...) })
}

// CholeskySolve returns x with a x = b for every matrix, from the
// Cholesky factors in the uplo triangles of f ([n, n, B...]) and b ([n,
// nrhs, B...]): CholeskySolveTo into a new tensor of b's shape. A b with
// fewer batch axes is broadcast over f's, as in Solve.
func CholeskySolve[T Scalar](uplo Uplo, f, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "batch.CholeskySolve"
	bm, vector, err := rhs(op, f, b)
	if err != nil {
		return nil, err
	}
	return allocated(op, []string{"f", "b"}, []views.View[T]{f, bm}, 1, rhsShape(bm, vector), func(x views.View[T]) error { return CholeskySolveTo(uplo, x, f, b, opts...) })
}

// LeastSquares returns x ([n, nrhs, B...]) minimising |a x - b| (or the
// minimum-norm solution of a x = b when m < n) for every full-rank matrix
// of the batch a ([m, n, B...]) and b ([m, nrhs, B...]): Gels on copies of
// a and b, the first n rows of b's copy. A b with fewer batch axes is
// broadcast over a's, as in Solve: b [m, nrhs] (or the vector [m]) gives
// x [n, nrhs, B...] ([n, B...]). Rank-deficient matrices are reported in
// the *Error, their x what gels computed.
func LeastSquares[T Scalar](a, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "batch.LeastSquares"
	b, vector, err := rhs(op, a, b)
	if err != nil {
		return nil, err
	}
	if _, err := checkOperands(op, []string{"a", "b"}, []views.View[T]{a, b}, false); err != nil {
		return nil, err
	}
	m, n := dims(a)
	if r, _ := dims(b); r != m {
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d", r, m)
	}
	bs := append([]int{max(m, n)}, b.Shape()[1:]...)
	if err := buffer[T](op, "a", "a copy of a", a.Shape()...); err != nil {
		return nil, err
	}
	if err := buffer[T](op, "b", "a copy of b with max(m, n) rows", bs...); err != nil {
		return nil, err
	}
	ac := a.ToColMajor()
	defer ac.Release()
	bc, err := views.Zeros[T](bs...)
	if err != nil {
		return nil, err
	}
	defer bc.Release()
	top, err := bc.View().Slice(0, 0, m, 1)
	if err == nil {
		err = views.Copy(top, b)
	}
	if err != nil {
		return nil, err
	}
	// Gels on the copies; the finite-input rule reads the caller's a and b.
	shape := a.Shape()[2:]
	gerr := gels(op, shape, ac.View(), bc.View(), opts, newRule(op, shape, source[T]{Name: "a", V: a}, source[T]{Name: "b", V: b}))
	var perMatrix *Error
	if gerr != nil && !errors.As(gerr, &perMatrix) {
		return nil, gerr
	}
	xv, err := bc.View().Slice(0, 0, n, 1)
	if err == nil && vector {
		xv, err = xv.Reshape(rhsShape(xv, true)...) // the column axis of extent 1 dropped
	}
	if err != nil {
		return nil, err
	}
	return xv.ToColMajor(), gerr
}

// allocated is an allocating form: it checks the operands vs (named
// names) for extents and the result (of shape shape: vs[res]'s, without
// its column axis for a vector b) for the allocation bound before
// allocating anything, runs to on a new zero tensor of that shape and
// returns it as the allocating forms promise, its errors naming op (the
// function the user called, not the To form it runs).
func allocated[T Scalar](op string, names []string, vs []views.View[T], res int, shape []int, to func(dst views.View[T]) error) (*views.Tensor[T], error) {
	if err := extents(op, names, vs...); err != nil {
		return nil, err
	}
	if err := buffer[T](op, names[res], "the result ("+names[res]+"'s shape)", shape...); err != nil {
		return nil, err
	}
	dst, err := views.Zeros[T](shape...)
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	err = errop.Rename(to(dst.View()), op)
	var perMatrix *Error
	if errors.As(err, &perMatrix) {
		return dst, err
	}
	if err != nil {
		dst.Release()
		return nil, err
	}
	return dst, nil
}
