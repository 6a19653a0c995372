// Package errop renames the operation in errors that a convenience
// function passes on from the function it calls: cblas.Mul reports
// cblas.Gemm's errors as its own, batch.Mul batch.Gemm's, lapack.Solve
// lapack.Getrf's. The errors keep their argument, rule and sentinel;
// only the operation changes (layout.Error.Op, or the Op of an error of
// a package above: lapack.Error, batch.Error, through their WithOp
// method), so the message names the function the user called.
package errop

import (
	"errors"

	"github.com/lapis-go/lapis/layout"
)

// renamer is an error type of a package above this one that names the
// operation: WithOp returns a copy of it naming op (lapack.Error,
// batch.Error).
type renamer interface{ WithOp(op string) error }

// Rename returns err with op as the Op of every *layout.Error and
// renamer in it: err itself, or the errors of a join (errors.Join) at any
// depth. Other errors are returned as they are. The errors are copied,
// never changed in place.
func Rename(err error, op string) error {
	switch e := err.(type) {
	case nil:
		return nil
	case *layout.Error:
		c := *e
		c.Op = op
		return &c
	case renamer: // before the join: a batch.Error unwraps to many
		return e.WithOp(op)
	case interface{ Unwrap() []error }:
		errs := e.Unwrap()
		out := make([]error, len(errs))
		for i, x := range errs {
			out[i] = Rename(x, op)
		}
		return errors.Join(out...)
	}
	return err
}

// RuleZeroView is what an error for the zero View (views.View[T]{}) says.
const RuleZeroView = "the zero View has no data (make views with FromSlice or Tensor.View)"

// ZeroView is the error of op given the zero View as arg, in every
// package: it matches layout.ErrBounds, as a view reaching past its data
// does.
func ZeroView(op, arg string) error {
	return layout.Errorf(layout.ErrBounds, op, arg, RuleZeroView)
}
