// Package argcheck holds the checks every package that hands views to C
// makes of them (cblas, lapack, and batch through internal/strided), so
// that each rule and its error text exist once: an output that overlaps
// itself or an input, an operand that would need a copy in strict mode,
// and a size that does not fit the library's integer.
package argcheck

import (
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// CheckOutput refuses an output with self-overlap or one that overlaps an
// input; inNames names the inputs, separated by spaces ("a x"). Errors
// match layout.ErrOverlap.
func CheckOutput[T scalar.Type](op, name string, out views.View[T], inNames string, inputs ...views.View[T]) error {
	if out.Layout().HasOverlap() {
		return layout.Errorf(layout.ErrOverlap, op, name, "%s has indices sharing an element; it cannot be written", out.Layout().String())
	}
	for i, in := range inputs {
		if views.Overlaps(out, in) {
			return Overlap(op, name, strings.Fields(inNames)[i])
		}
	}
	return nil
}

// Overlap is the error for an output out that shares memory with the
// input in.
func Overlap(op, out, in string) error {
	return layout.Errorf(layout.ErrOverlap, op, out, "the output shares memory with the input %s; write the result to other memory", in)
}

// Refused is the error for the operand name, of layout l, that needs a
// copy (why says what BLAS or LAPACK cannot take) when strict mode is on:
// it matches lapis.ErrCopyRefused.
func Refused(op, name string, l layout.Layout, why string) error {
	return layout.Errorf(lapis.ErrCopyRefused, op, name, "%s (%s, class %v) needs a copy and strict mode is on", why, l.String(), l.Class())
}

// FitsBLAS checks that every value fits the BLAS integer (clib.Fits);
// names[i] names vals[i] in the error, which matches layout.ErrOverflow,
// or lapis.ErrLibrary when the library's integer is not the one lapis was
// compiled for.
func FitsBLAS(op string, names []string, vals ...int) error {
	for i, v := range vals {
		if !clib.Fits(v) {
			return IntErr(op, names[i], "BLAS", clib.IntBits, v)
		}
	}
	return nil
}

// FitsLAPACK checks that every value fits the LAPACK integer
// (clib.FitsLAPACK); name names them all in the error, as FitsBLAS.
func FitsLAPACK(op, name string, vals ...int) error {
	for _, v := range vals {
		if !clib.FitsLAPACK(v) {
			return IntErr(op, name, "LAPACK", clib.LAPACKIntBits, v)
		}
	}
	if clib.LibraryIntBits != clib.LAPACKIntBits { // also with no values
		return IntErr(op, name, "LAPACK", clib.LAPACKIntBits, 0)
	}
	return nil
}

// IntErr is the error for the value v of the argument name that the
// library's integer (lib: "BLAS" or "LAPACK", bits wide as lapis was
// compiled) cannot take.
func IntErr(op, name, lib string, bits, v int) error {
	if clib.LibraryIntBits != bits {
		return layout.Errorf(lapis.ErrLibrary, op, name, "lapis was compiled for %d-bit %s integers but the library uses %d-bit ones", bits, lib, clib.LibraryIntBits)
	}
	return layout.Errorf(layout.ErrOverflow, op, name, "%d does not fit the %s library's %d-bit integer", v, lib, bits)
}
