package elem

import (
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/views"
)

// Element-wise operations. Each comes in two forms: the plain word
// allocates a compact column-major result of the operands' broadcast
// shape (Release it to return its buffer to the pool), and ...To writes a
// destination of any layout, to which the operands broadcast. A
// destination may be one of the operands element for element (in place:
// AddTo(a, a, b)); see the package documentation for the rules.

// Add returns a + b.
func Add[T Scalar](a, b views.View[T]) (*views.Tensor[T], error) {
	return binary("elem.Add", &kern[T]{op: opAdd}, &a, &b)
}

// AddTo sets dst = a + b.
func AddTo[T Scalar](dst, a, b views.View[T]) error {
	return binaryTo("elem.AddTo", &kern[T]{op: opAdd}, &dst, &a, &b)
}

// Sub returns a - b.
func Sub[T Scalar](a, b views.View[T]) (*views.Tensor[T], error) {
	return binary("elem.Sub", &kern[T]{op: opSub}, &a, &b)
}

// SubTo sets dst = a - b.
func SubTo[T Scalar](dst, a, b views.View[T]) error {
	return binaryTo("elem.SubTo", &kern[T]{op: opSub}, &dst, &a, &b)
}

// Mul returns the element-wise product a * b.
func Mul[T Scalar](a, b views.View[T]) (*views.Tensor[T], error) {
	return binary("elem.Mul", &kern[T]{op: opMul}, &a, &b)
}

// MulTo sets dst = a * b, element by element.
func MulTo[T Scalar](dst, a, b views.View[T]) error {
	return binaryTo("elem.MulTo", &kern[T]{op: opMul}, &dst, &a, &b)
}

// Div returns the element-wise quotient a / b (IEEE: x/0 is ±Inf or NaN).
func Div[T Scalar](a, b views.View[T]) (*views.Tensor[T], error) {
	return binary("elem.Div", &kern[T]{op: opDiv}, &a, &b)
}

// DivTo sets dst = a / b, element by element.
func DivTo[T Scalar](dst, a, b views.View[T]) error {
	return binaryTo("elem.DivTo", &kern[T]{op: opDiv}, &dst, &a, &b)
}

// Maximum returns the element-wise maximum of a and b; a NaN in either
// gives NaN (numpy's maximum). Real types only: complex values have no order
// (lapis.ErrInvalid).
func Maximum[T Scalar](a, b views.View[T]) (*views.Tensor[T], error) {
	return binary("elem.Maximum", &kern[T]{op: opMax}, &a, &b)
}

// MaximumTo sets dst to the element-wise maximum of a and b (as Maximum).
func MaximumTo[T Scalar](dst, a, b views.View[T]) error {
	return binaryTo("elem.MaximumTo", &kern[T]{op: opMax}, &dst, &a, &b)
}

// Minimum returns the element-wise minimum of a and b (as Maximum).
func Minimum[T Scalar](a, b views.View[T]) (*views.Tensor[T], error) {
	return binary("elem.Minimum", &kern[T]{op: opMin}, &a, &b)
}

// MinimumTo sets dst to the element-wise minimum of a and b (as Maximum).
func MinimumTo[T Scalar](dst, a, b views.View[T]) error {
	return binaryTo("elem.MinimumTo", &kern[T]{op: opMin}, &dst, &a, &b)
}

// Axpby returns alpha*x + beta*y.
func Axpby[T Scalar](alpha T, x views.View[T], beta T, y views.View[T]) (*views.Tensor[T], error) {
	return binary("elem.Axpby", &kern[T]{op: opAxpby, alpha: alpha, beta: beta}, &x, &y, "x", "y")
}

// AxpbyTo sets dst = alpha*x + beta*y; AxpbyTo(y, alpha, x, beta, y) is
// BLAS's axpby, in place in y.
func AxpbyTo[T Scalar](dst views.View[T], alpha T, x views.View[T], beta T, y views.View[T]) error {
	return binaryTo("elem.AxpbyTo", &kern[T]{op: opAxpby, alpha: alpha, beta: beta}, &dst, &x, &y, "x", "y")
}

// Zip returns f(a, b), element by element.
func Zip[T Scalar](a, b views.View[T], f func(x, y T) T) (*views.Tensor[T], error) {
	return binary("elem.Zip", &kern[T]{op: opZip, f2: f}, &a, &b)
}

// ZipTo sets dst = f(a, b), element by element.
func ZipTo[T Scalar](dst, a, b views.View[T], f func(x, y T) T) error {
	return binaryTo("elem.ZipTo", &kern[T]{op: opZip, f2: f}, &dst, &a, &b)
}

// Scale returns alpha*x.
func Scale[T Scalar](alpha T, x views.View[T]) (*views.Tensor[T], error) {
	return unary("elem.Scale", &kern[T]{op: opScale, alpha: alpha}, &x)
}

// ScaleTo sets dst = alpha*x; ScaleTo(x, alpha, x) scales x in place.
func ScaleTo[T Scalar](dst views.View[T], alpha T, x views.View[T]) error {
	return unaryTo("elem.ScaleTo", &kern[T]{op: opScale, alpha: alpha}, &dst, &x)
}

// Neg returns -x.
func Neg[T Scalar](x views.View[T]) (*views.Tensor[T], error) {
	return unary("elem.Neg", &kern[T]{op: opNeg}, &x)
}

// NegTo sets dst = -x.
func NegTo[T Scalar](dst, x views.View[T]) error {
	return unaryTo("elem.NegTo", &kern[T]{op: opNeg}, &dst, &x)
}

// Abs returns |x| element by element (for complex types, the modulus
// with a zero imaginary part).
func Abs[T Scalar](x views.View[T]) (*views.Tensor[T], error) {
	return unary("elem.Abs", &kern[T]{op: opAbs}, &x)
}

// AbsTo sets dst = |x| element by element (as Abs).
func AbsTo[T Scalar](dst, x views.View[T]) error {
	return unaryTo("elem.AbsTo", &kern[T]{op: opAbs}, &dst, &x)
}

// Conj returns the complex conjugate of x's values, compact (a copy of
// real x). x.Conj() is the same as a view, without a copy.
func Conj[T Scalar](x views.View[T]) (*views.Tensor[T], error) {
	xc := conjOf(x)
	return unary("elem.Conj", &kern[T]{op: opScale, alpha: 1}, &xc)
}

// ConjTo sets dst to the complex conjugate of x.
func ConjTo[T Scalar](dst, x views.View[T]) error {
	xc := conjOf(x)
	return unaryTo("elem.ConjTo", &kern[T]{op: opScale, alpha: 1}, &dst, &xc)
}

// conjOf is x.Conj(), and the zero View for the zero View (whose error
// the checks report).
func conjOf[T Scalar](x views.View[T]) views.View[T] {
	if x.IsZero() {
		return x
	}
	return x.Conj()
}

// Map returns f(x), element by element.
func Map[T Scalar](x views.View[T], f func(T) T) (*views.Tensor[T], error) {
	return unary("elem.Map", &kern[T]{op: opMap, f1: f}, &x)
}

// MapTo sets dst = f(x), element by element.
func MapTo[T Scalar](dst, x views.View[T], f func(T) T) error {
	return unaryTo("elem.MapTo", &kern[T]{op: opMap, f1: f}, &dst, &x)
}

// Fill sets every element of dst to x.
func Fill[T Scalar](dst views.View[T], x T) error {
	const op = "elem.Fill"
	k := kern[T]{op: opFill, alpha: x}
	if n, p, ok := flatArgs(&dst, nil, nil, 0); ok {
		runFlat(&k, n, &p)
		return nil
	}
	if err := output(op, &dst); err != nil {
		return err
	}
	apply(&k, &dst, nil, nil, nil, nil)
	return nil
}

// binaryTo checks and runs the two-source kernel k into dst.
func binaryTo[T Scalar](op string, k *kern[T], dst, a, b *views.View[T], names ...string) error {
	if k.op == opMax || k.op == opMin {
		if err := realOnly[T](op); err != nil {
			return err
		}
	}
	if n, p, ok := flatArgs(dst, a, b, 2); ok {
		runFlat(k, n, &p)
		return nil
	}
	if err := output(op, dst); err != nil {
		return err
	}
	an, bn := argNames(names)
	la, err := input(op, an, dst, a)
	if err != nil {
		return err
	}
	lb, err := input(op, bn, dst, b)
	if err != nil {
		return err
	}
	apply(k, dst, a, b, &la, &lb)
	return nil
}

// binary runs k into a new tensor of a's and b's broadcast shape.
func binary[T Scalar](op string, k *kern[T], a, b *views.View[T], names ...string) (*views.Tensor[T], error) {
	an, bn := argNames(names)
	if err := live(op, an, a); err != nil {
		return nil, err
	}
	if err := live(op, bn, b); err != nil {
		return nil, err
	}
	shape, err := broadcastShape(op, []string{an, bn}, a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	t, err := result[T](op, shape)
	if err != nil {
		return nil, err
	}
	dst := t.View()
	if err := binaryTo(op, k, &dst, a, b, an, bn); err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// unaryTo checks and runs the one-source kernel k into dst.
func unaryTo[T Scalar](op string, k *kern[T], dst, x *views.View[T]) error {
	if n, p, ok := flatArgs(dst, x, nil, 1); ok && !k.conjugated() {
		runFlat(k, n, &p)
		return nil
	}
	if err := output(op, dst); err != nil {
		return err
	}
	lx, err := input(op, "x", dst, x)
	if err != nil {
		return err
	}
	apply(k, dst, x, nil, &lx, nil)
	return nil
}

// unary runs k into a new tensor of x's shape.
func unary[T Scalar](op string, k *kern[T], x *views.View[T]) (*views.Tensor[T], error) {
	if err := live(op, "x", x); err != nil {
		return nil, err
	}
	t, err := result[T](op, x.Shape())
	if err != nil {
		return nil, err
	}
	dst := t.View()
	if err := unaryTo(op, k, &dst, x); err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// argNames returns the names of a two-source operation's operands: "a"
// and "b" unless given.
func argNames(names []string) (string, string) {
	if len(names) == 2 {
		return names[0], names[1]
	}
	return "a", "b"
}

// result allocates the compact column-major result of the given shape,
// or says why it cannot (lapis.ErrTooLarge).
func result[T Scalar](op string, shape []int) (*views.Tensor[T], error) {
	t, err := views.Zeros[T](shape...)
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	return t, nil
}
