// Package errop renames the operation in errors that a convenience
// function passes on from the function it calls: cblas.Mul reports
// cblas.Gemm's errors as its own, batch.Mul batch.Gemm's. The errors keep
// their argument, rule and sentinel; only layout.Error.Op changes, so the
// message names the function the user called.
package errop

import (
	"errors"

	"github.com/lapis-go/lapis/layout"
)

// Rename returns err with op as the Op of every *layout.Error in it: err
// itself, or the errors of a join (errors.Join) at any depth. Other errors
// are returned as they are. The errors are copied, never changed in place.
func Rename(err error, op string) error {
	switch e := err.(type) {
	case nil:
		return nil
	case *layout.Error:
		c := *e
		c.Op = op
		return &c
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
