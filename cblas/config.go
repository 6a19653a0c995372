package cblas

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/layout"
)

// config is what a call's options resolve to.
type config = lapis.Config

func configure(opts []lapis.Option) config { return lapis.Configure(opts...) }

// IntBits is the width in bits of the BLAS integer lapis was compiled
// for.
const IntBits = clib.IntBits

// blasInt converts v for C, refusing values that do not fit (never
// truncating): operand.BLASInt, which the gonum adapters share.
// Errors match layout.ErrOverflow and name the argument as arg+what.
func blasInt(op, arg, what string, v int) (int, error) { return operand.BLASInt(op, arg, what, v) }

// blasInt2 converts two extents with blasInt.
func blasInt2(op, an string, a int, bn string, b int) (A, B int, err error) {
	if A, err = blasInt(op, an, "", a); err == nil {
		B, err = blasInt(op, bn, "", b)
	}
	return A, B, err
}

func layoutErr(op, arg string, v int) error {
	return layout.Errorf(lapis.ErrInvalid, op, arg, "value %d is not one of the defined constants", v)
}
