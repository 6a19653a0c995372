package elem

import (
	"math"
	"unsafe"

	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
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
		return argAll[T](op, data, l, largest)
	}
	n, s := shape[axis], strides[axis]
	if n == 0 {
		return nil, layout.Errorf(layout.ErrShape, op, "x", "axis %d is empty (%s)", axis, l.String())
	}
	if l.Len() == 0 { // another axis is empty: no lines, no indices
		return []int{}, nil
	}
	if err := pool.Check[int64](op, "x", l.Len()/n); err != nil {
		return nil, err // a broadcast view too large to index
	}
	out := make([]int, 0, l.Len()/n)
	lines(shape, strides, axis, l.Origin(), func(off int) {
		out = append(out, argLine(unsafe.Pointer(&data[off]), n, s, largest, *new(T)))
	})
	return out, nil
}

// lines calls f with the offset of the first element of each line along
// axis, the other axes in column-major order (axis 0 fastest).
func lines(shape, strides []int, axis, off int, f func(off int)) {
	var idx [layout.MaxRank]int
	for {
		f(off)
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
			return
		}
	}
}

// argAll is ArgMax (largest) or ArgMin over all of x, line by line along
// axis 0 without a copy: the first extreme in column-major order, or the
// first NaN.
func argAll[T Scalar](op string, data []T, l *layout.Layout, largest bool) ([]int, error) {
	full, strides := l.Axes()
	if l.Len() == 0 {
		return nil, layout.Errorf(layout.ErrShape, op, "x", "no elements (%s)", l.String())
	}
	if len(full) == 0 {
		return []int{}, nil
	}
	// Along a repeated axis (stride 0: a broadcast) every element is the
	// first one's: only index 0 is scanned there.
	var sh [layout.MaxRank]int
	shape := sh[:len(full)]
	for a, e := range full {
		shape[a] = e
		if strides[a] == 0 {
			shape[a] = 1
		}
	}
	n, s := shape[0], strides[0]
	best, bestLine, line := -1, 0, 0
	var bv float64
	lines(shape, strides, 0, l.Origin(), func(off int) {
		defer func() { line++ }()
		if best >= 0 && math.IsNaN(bv) {
			return
		}
		p := unsafe.Pointer(&data[off])
		i := argLine(p, n, s, largest, *new(T))
		v := real(scalar.Complex128(*(*T)(unsafe.Add(p, i*s*int(unsafe.Sizeof(*new(T)))))))
		if best < 0 || math.IsNaN(v) || largest && v > bv || !largest && v < bv {
			best, bestLine, bv = i, line, v
		}
	})
	idx := make([]int, len(shape))
	idx[0] = best
	for a, k := 1, bestLine; a < len(shape); a++ {
		idx[a], k = k%shape[a], k/shape[a]
	}
	return idx, nil
}

// argLine is the index of the largest (smallest) of the n elements at p,
// stride s elements apart; zero only tells T.
func argLine[T Scalar](p unsafe.Pointer, n, s int, largest bool, zero T) int {
	if s == 0 {
		return 0 // a repeated element (a broadcast axis): the first is the first extreme
	}
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
