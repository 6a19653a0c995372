// Package operand holds what cblas, lapack and internal/strided (batch's
// runs) share about a view they hand to C, so that each rule and its error
// text exist once: the description of a matrix argument (Matrix, read
// once from its view) and the addresses an argument reaches (Span, with
// the one overlap test); an output that overlaps itself or an input is
// refused; an operand that would need a copy is refused in strict mode;
// and a copy that does stand in for a view during a call (CopyBack) is
// written back and freed one way; and the integers handed to C fit the
// library's (ints.go).
package operand

import (
	"strings"
	"unsafe"

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
	so := ViewSpan(out)
	for i, in := range inputs {
		if so.Overlaps(ViewSpan(in)) {
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

// CopyBack is a compact temporary, Tmp, standing in for the view Dst
// during a call into C. A nil *CopyBack (no temporary) does nothing.
type CopyBack[T scalar.Type] struct {
	Dst views.View[T]
	Tmp *views.Tensor[T]
}

// Finish copies the temporary back into Dst and frees it.
func (b *CopyBack[T]) Finish() {
	if b != nil && b.Tmp != nil {
		_ = views.Copy(b.Dst, b.Tmp.View()) // shapes equal, Dst checked for self-overlap
		b.Release()
	}
}

// Release frees the temporary without copying it back (inputs; errors).
func (b *CopyBack[T]) Release() {
	if b != nil && b.Tmp != nil {
		b.Tmp.Release()
		b.Tmp = nil
	}
}

// ElemPtr returns the address of v's element 0, or nil for an empty view.
func ElemPtr[T scalar.Type](v views.View[T]) unsafe.Pointer {
	if v.Len() == 0 {
		return nil
	}
	return unsafe.Pointer(&v.Data()[v.Layout().Offset()])
}
