package views

import (
	"github.com/lapis-go/lapis/internal/pool"
	"github.com/lapis-go/lapis/layout"
)

// Tensor is an owned tensor: its data is always compact column-major with
// offset 0 (layout.ColMajor), so every matrix of a batch [M, N, B...] is one
// contiguous block of M*N elements. Views of it are made with View.
type Tensor[T Scalar] struct {
	data     []T
	l        layout.Layout
	buf      *pool.Buf[T] // where data came from; nil for adopted data
	released bool
}

const panicReleased = "views: Tensor used after Release (its buffer may belong to another tensor now)"

// live panics if t was released.
func (t *Tensor[T]) live() {
	if t.released {
		panic(panicReleased)
	}
}

// Zeros returns a new tensor of the given shape filled with zeros; its
// buffer comes from the pool (see Release). Errors match layout.ErrShape or
// layout.ErrOverflow.
func Zeros[T Scalar](shape ...int) (*Tensor[T], error) {
	l, err := layout.ColMajor(shape...)
	if err != nil {
		return nil, err
	}
	t := &Tensor[T]{l: l, buf: pool.Get[T](l.Len())}
	t.data = t.buf.Data
	clear(t.data)
	return t, nil
}

// Release ends the tensor's life: a buffer that lapis allocated goes back
// to the pool for reuse (adopted data, from FromColMajor, is only let go).
// The tensor is detached: its At, Set, View and Data panic with a message
// naming Release. Views and slices taken before must not be used either:
// nothing can catch them, but with SetReleaseCheck on (the default under
// the race detector) the buffer is filled with NaN on its way back to the
// pool, so a stale view reads NaN rather than another tensor's values. A
// second Release does nothing.
func (t *Tensor[T]) Release() {
	if t.buf != nil {
		pool.Put(t.buf)
	}
	t.buf, t.data, t.released = nil, nil, true
}

// SetReleaseCheck turns on (or off) filling released buffers with NaN
// before the pool hands them out again (see Tensor.Release), and returns
// the previous setting. It is on by default in builds with -race, off
// otherwise: filling costs a pass over each released buffer.
func SetReleaseCheck(on bool) bool { return pool.Poison.Swap(on) }

// FromColMajor adopts data, which must hold the tensor in column-major
// order (axis 0 fastest), without copying: the tensor aliases data. Its
// length must equal the product of shape (layout.ErrShape otherwise).
//
// Data in row-major (C) order must not come through here: it would be read
// as a different tensor, silently. Use FromRowMajor, or a view with
// row-major strides (layout.RowMajor) over it.
func FromColMajor[T Scalar](data []T, shape ...int) (*Tensor[T], error) {
	l, err := adopt("views.FromColMajor", len(data), shape, layout.ColMajor)
	if err != nil {
		return nil, err
	}
	return &Tensor[T]{data: data, l: l}, nil
}

// FromRowMajor returns a new column-major tensor holding data, which is in
// row-major (C) order: the last axis fastest, as Go's [][]T or numpy's
// default. It copies once, reordering, through the copy engine (the cost of
// one transposing copy); data is not retained. The buffer comes from the
// pool (see Release). Its length
// must equal the product of shape (layout.ErrShape otherwise).
func FromRowMajor[T Scalar](data []T, shape ...int) (*Tensor[T], error) {
	l, err := adopt("views.FromRowMajor", len(data), shape, layout.RowMajor)
	if err != nil {
		return nil, err
	}
	src, err := FromSlice(data, l)
	if err != nil {
		return nil, err
	}
	return src.ToColMajor(), nil
}

// adopt makes the compact layout of shape and checks it covers n elements.
func adopt(op string, n int, shape []int, compact func(...int) (layout.Layout, error)) (layout.Layout, error) {
	l, err := compact(shape...)
	if err != nil {
		return layout.Layout{}, err
	}
	if l.Len() != n {
		return layout.Layout{}, layout.Errorf(layout.ErrShape, op, "data", "length %d does not match the %d elements of shape %v", n, l.Len(), shape)
	}
	return l, nil
}

// Data returns the tensor's elements in column-major order. The slice
// aliases the tensor.
func (t *Tensor[T]) Data() []T { t.live(); return t.data }

// Layout returns the tensor's layout: compact column-major, offset 0.
func (t *Tensor[T]) Layout() layout.Layout { return t.l }

// View returns a view of the whole tensor (sharing its data).
func (t *Tensor[T]) View() View[T] { t.live(); return View[T]{data: t.data, l: t.l} }

// Shape returns a copy of the extents.
func (t *Tensor[T]) Shape() []int { return t.l.Shape() }

// Rank returns the number of axes.
func (t *Tensor[T]) Rank() int { return t.l.Rank() }

// Len returns the number of elements.
func (t *Tensor[T]) Len() int { return len(t.data) }

// At returns the element at idx; it panics on a bad index like a Go slice.
func (t *Tensor[T]) At(idx ...int) T { t.live(); return t.data[t.l.OffsetOf(idx...)] }

// Set stores x at idx; it panics on a bad index like a Go slice.
func (t *Tensor[T]) Set(x T, idx ...int) { t.live(); t.data[t.l.OffsetOf(idx...)] = x }
