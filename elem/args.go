package elem

import (
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Scalar is the set of element types: views.Scalar.
type Scalar = views.Scalar

// Real is the set of real element types, for the operations that order
// values (Maximum, Minimum, Max, Min).
type Real interface{ float32 | float64 }

// live checks that v is a view with data of a live tensor.
func live[T Scalar](op, name string, v *views.View[T]) error {
	if v.IsZero() {
		return errop.ZeroView(op, name)
	}
	return v.CheckLive(op, name)
}

// output checks the destination dst: live, and writable (no two indices
// sharing an element, as in a broadcast view).
func output[T Scalar](op string, dst *views.View[T]) error {
	if err := live(op, "dst", dst); err != nil {
		return err
	}
	_, l, _ := dst.Ref()
	if l.HasOverlap() {
		return layout.Errorf(layout.ErrOverlap, op, "dst", "%s has indices sharing an element (a broadcast view?); it cannot be written", l.String())
	}
	return nil
}

// input checks the source x (argument name) of an element-wise operation
// writing dst and returns its layout broadcast to dst's shape (leading
// axes align; a missing trailing axis or an extent 1 repeats). x may be
// dst itself, element for element (exact aliasing: the result is defined
// element by element); any other sharing of memory with dst is refused.
func input[T Scalar](op, name string, dst, x *views.View[T]) (layout.Layout, error) {
	if err := live(op, name, x); err != nil {
		return layout.Layout{}, err
	}
	_, dl, _ := dst.Ref()
	_, xl, _ := x.Ref()
	ds, _ := dl.Axes() // not Shape(): no copy
	b, err := xl.BroadcastTo(ds...)
	if err != nil {
		return b, layout.Errorf(layout.ErrShape, op, name, "shape %v does not broadcast to dst's %v (leading axes align; a missing trailing axis or an extent 1 repeats)", xl.Shape(), dl.Shape())
	}
	if views.Overlaps(*dst, *x) && !same(dst, x, &b) {
		return b, layout.Errorf(layout.ErrOverlap, op, name, "shares memory with dst other than element for element; write the result to other memory")
	}
	return b, nil
}

// same reports whether x, read through its layout b (dst's shape),
// addresses exactly dst's elements index by index: the same first
// element and the same strides along every axis of extent 2 or more (the
// stride of an extent-1 axis is never used).
func same[T Scalar](dst, x *views.View[T], b *layout.Layout) bool {
	dd, dl, _ := dst.Ref()
	xd, _, _ := x.Ref()
	if elemAddr(dd, dl.Offset()) != elemAddr(xd, b.Offset()) {
		return false
	}
	shape, ds := dl.Axes()
	_, bs := b.Axes()
	for k, e := range shape {
		if e > 1 && ds[k] != bs[k] {
			return false
		}
	}
	return true
}

func elemAddr[T Scalar](data []T, off int) uintptr {
	return uintptr(unsafe.Pointer(unsafe.SliceData(data))) + uintptr(off)*unsafe.Sizeof(*new(T))
}

// broadcastShape returns the shape of the result of an operation on
// views of the given shapes: the longest rank, each axis the common
// extent, where an extent 1 or a missing trailing axis repeats.
func broadcastShape(op string, names []string, shapes ...[]int) ([]int, error) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make([]int, rank)
	for k := range out {
		out[k] = 1
		for i, s := range shapes {
			switch {
			case k >= len(s) || s[k] == 1 || s[k] == out[k]:
			case out[k] == 1:
				out[k] = s[k]
			default:
				return nil, layout.Errorf(layout.ErrShape, op, names[i], "extent %d of axis %d does not broadcast against %d (shapes %v)", s[k], k, out[k], shapes)
			}
		}
	}
	return out, nil
}

// realOnly refuses complex T for an operation that orders values.
func realOnly[T Scalar](op string) error {
	if scalar.IsComplex[T]() {
		return layout.Errorf(lapis.ErrInvalid, op, "T", "complex values have no order; %s takes float32 or float64", op)
	}
	return nil
}
