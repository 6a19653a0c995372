package guard

import (
	"fmt"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Place returns memory holding exactly the elements that a view of shape
// and strides (any signs) reaches, and the layout of that view in it: its
// lowest reachable element is the slice's first and its highest the last,
// so that from a non-nil arena one of the two is flush against the guard
// page. Unreached elements between them (ld > rows, strides > 1) are
// zero. It panics on a shape and strides layout.New rejects.
func Place[E any](a *Arena, name string, shape, strides []int) ([]E, layout.Layout) {
	l, err := layout.New(shape, strides, 0)
	if err != nil {
		panic(fmt.Sprintf("guard: operand %s: %v", name, err))
	}
	lo, hi, ok := l.Span()
	if !ok {
		return nil, l
	}
	if l, err = layout.New(shape, strides, -lo); err != nil {
		panic(fmt.Sprintf("guard: operand %s: %v", name, err))
	}
	return Slice[E](a, name, hi-lo+1), l
}

// View is Place as a view.
func View[T views.Scalar](a *Arena, name string, shape, strides []int) views.View[T] {
	data, l := Place[T](a, name, shape, strides)
	v, err := views.FromSlice(data, l)
	if err != nil {
		panic(fmt.Sprintf("guard: operand %s: %v", name, err))
	}
	return v
}
