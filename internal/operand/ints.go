package operand

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/layout"
)

// The integers lapis hands to BLAS and LAPACK: a
// size, increment or leading dimension that does not fit the library's
// integer is an error, never truncated, and so is every value when the
// library's integer is not the one lapis was compiled for (clib.IntBits,
// clib.LAPACKIntBits against clib.LibraryIntBits). cblas and lapack
// return these errors; the gonum adapters, whose interfaces have no error
// results, panic with them.

// BLASInt converts v for a BLAS call, refusing a value that does not fit
// (clib.Fits). The error matches layout.ErrOverflow, or lapis.ErrLibrary
// when the library's integer width is not clib.IntBits, and names the
// argument as arg+what (joined only on error, so that the call does not
// allocate).
func BLASInt(op, arg, what string, v int) (int, error) {
	if clib.Fits(v) {
		return v, nil // inlined: the common case costs a compare
	}
	return 0, blasErr(op, arg, what, v)
}

// blasErr is BLASInt's error for v.
func blasErr(op, arg, what string, v int) error {
	if clib.LibraryIntBits != clib.IntBits {
		return layout.Errorf(lapis.ErrLibrary, op, arg+what, "lapis was compiled for %d-bit BLAS integers but the library uses %d-bit ones", clib.IntBits, clib.LibraryIntBits)
	}
	return layout.Errorf(layout.ErrOverflow, op, arg+what, "%d does not fit the BLAS library's %d-bit integer", v, clib.IntBits)
}

// LAPACKInts checks that every value fits the LAPACK integer and that the
// library's integer is the one lapis was compiled for. Errors match
// layout.ErrOverflow or lapis.ErrLibrary and name the argument.
func LAPACKInts(op, name string, vals ...int) error {
	if clib.LibraryIntBits != clib.LAPACKIntBits {
		return layout.Errorf(lapis.ErrLibrary, op, name, "lapis was compiled for %d-bit LAPACK integers but the library uses %d-bit ones", clib.LAPACKIntBits, clib.LibraryIntBits)
	}
	for _, v := range vals {
		if !clib.FitsLAPACK(v) {
			return layout.Errorf(layout.ErrOverflow, op, name, "%d does not fit the LAPACK library's %d-bit integer", v, clib.LAPACKIntBits)
		}
	}
	return nil
}
