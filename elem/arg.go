package elem

import (
	"math"
	"unsafe"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// ArgMax returns the index along axis of the largest element of x, for
// each position of x's other axes in column-major order (len: the
// product of their extents): the first largest one, or the first NaN,
// as numpy's argmax. With axis -1 it returns the index of x's largest
// element (len: x's rank). Real types only; an empty axis is an error
// matching layout.ErrShape.
func ArgMax[T Scalar](x views.View[T], axis int) ([]int, error) {
	return arg("elem.ArgMax", &x, axis, true)
}

// ArgMin is ArgMax for the smallest element.
func ArgMin[T Scalar](x views.View[T], axis int) ([]int, error) {
	return arg("elem.ArgMin", &x, axis, false)
}

func arg[T Scalar](op string, x *views.View[T], axis int, largest bool) ([]int, error) {
	if err := realOnly[T](op); err != nil {
		return nil, err
	}
	if err := live(op, "x", x); err != nil {
		return nil, err
	}
	data, l, _ := x.Ref()
	shape, strides := l.Axes()
	if axis < -1 || axis >= len(shape) {
		return nil, layout.Errorf(layout.ErrShape, op, "axis", "axis %d out of range for x of rank %d (-1: all elements)", axis, len(shape))
	}
	if axis == -1 {
		// The whole of x as one axis, in column-major order: a compact
		// copy when x's elements do not form one.
		c := x.ToColMajor()
		defer c.Release()
		if c.Len() == 0 {
			return nil, layout.Errorf(layout.ErrShape, op, "x", "no elements (%s)", l.String())
		}
		k := argLine(unsafe.Pointer(&c.Data()[0]), c.Len(), 1, largest, *new(T))
		idx := make([]int, len(shape))
		for a, e := range shape {
			idx[a], k = k%e, k/e
		}
		return idx, nil
	}
	n, s := shape[axis], strides[axis]
	if n == 0 {
		return nil, layout.Errorf(layout.ErrShape, op, "x", "axis %d is empty (%s)", axis, l.String())
	}
	out := make([]int, 0, l.Len()/n)
	var idx [layout.MaxRank]int
	off := l.Origin()
	for {
		out = append(out, argLine(unsafe.Pointer(&data[off]), n, s, largest, *new(T)))
		// The odometer over the other axes, axis 0 fastest.
		a := 0
		for ; a < len(shape); a++ {
			if a == axis {
				continue
			}
			if idx[a]++; idx[a] < shape[a] {
				off += strides[a]
				break
			}
			off -= (shape[a] - 1) * strides[a]
			idx[a] = 0
		}
		if a == len(shape) {
			return out, nil
		}
	}
}

// argLine is the index of the largest (smallest) of the n elements at p,
// stride s elements apart; zero only tells T.
func argLine[T Scalar](p unsafe.Pointer, n, s int, largest bool, zero T) int {
	switch any(zero).(type) {
	case float32:
		return argReal[float32](p, n, s, largest)
	case float64:
		return argReal[float64](p, n, s, largest)
	}
	panic("elem: no order for complex values") // realOnly refused them
}

func argReal[F Real](p unsafe.Pointer, n, s int, largest bool) int {
	sz := int(unsafe.Sizeof(F(0)))
	at := func(i int) F { return *(*F)(unsafe.Add(p, i*s*sz)) }
	best, bv := 0, at(0)
	if math.IsNaN(float64(bv)) {
		return 0
	}
	for i := 1; i < n; i++ {
		v := at(i)
		switch {
		case math.IsNaN(float64(v)):
			return i
		case largest && v > bv, !largest && v < bv:
			best, bv = i, v
		}
	}
	return best
}
