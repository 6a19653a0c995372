// Package argcheck holds the checks every package that hands views to C
// makes of them (cblas, and batch through internal/strided), so that each
// rule and its error text exist once: an output that overlaps itself or
// an input, and an operand that would need a copy in strict mode. The
// integer checks are internal/rt/cint's.
package argcheck

import (
	"strings"

	"github.com/lapis-go/lapis"
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
