package views

import (
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
)

// Tensor is an owned tensor: its data is always compact column-major with
// offset 0 (layout.ColMajor), so every matrix of a batch [M, N, B...] is one
// contiguous block of M*N elements. Views of it are made with View.
type Tensor[T Scalar] struct {
	data     []T
	l        layout.Layout
	buf      *pool.Buf[T] // where data came from; nil for adopted data
	own      *pool.Gen    // what views record: &buf.Gen or &adopted, pool.Dead once released
	gen      uint32       // own's generation while the tensor holds data
	adopted  pool.Gen     // adopted data's generation, advanced by Release
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
// buffer comes from the pool (see Release). Errors match layout.ErrShape
// (a negative extent), layout.ErrOverflow (a product beyond an int) or
// lapis.ErrTooLarge (more bytes than this machine's memory: see
// docs/errors.md#allocation).
func Zeros[T Scalar](shape ...int) (*Tensor[T], error) {
	t, err := alloc[T]("views.Zeros", "shape", shape)
	if err != nil {
		return nil, err
	}
	clear(t.data)
	return t, nil
}

// alloc returns a tensor of the compact column-major layout of shape
// whose buffer comes from the pool, holding whatever it held: the caller
// writes every element. The layout's errors and the allocation gate's
// (pool.Check) name op and arg; nothing is allocated on error.
func alloc[T Scalar](op, arg string, shape []int) (*Tensor[T], error) {
	l, err := layout.ColMajor(shape...)
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	if !pool.CanHold[T](l.Len()) { // l.Len fits an int: one compare, the product once
		return nil, pool.Check[T](op, arg, shape...)
	}
	return fromPool[T](l), nil
}

// fromPool returns a tensor of layout l (compact column-major) whose
// buffer comes from the pool, holding whatever it held: the caller has
// passed l's size through the allocation gate.
func fromPool[T Scalar](l layout.Layout) *Tensor[T] {
	t := &Tensor[T]{l: l}
	t.take(pool.Get[T](l.Len()))
	return t
}

// take makes b the tensor's buffer.
func (t *Tensor[T]) take(b *pool.Buf[T]) {
	t.buf, t.data, t.own, t.gen = b, b.Data, &b.Gen, b.Gen.Load()
}

// Full returns a new tensor of the given shape with every element x; its
// buffer comes from the pool (see Release). Errors, named views.Full, match
// layout.ErrShape, layout.ErrOverflow or lapis.ErrTooLarge, as Zeros'.
func Full[T Scalar](x T, shape ...int) (*Tensor[T], error) {
	t, err := alloc[T]("views.Full", "shape", shape)
	if err != nil {
		return nil, err
	}
	for i := range t.data {
		t.data[i] = x
	}
	return t, nil
}

// Eye returns the n x n identity matrix, a new tensor whose buffer comes
// from the pool (see Release). A negative n is an error matching
// layout.ErrShape, an n*n beyond an int one matching layout.ErrOverflow,
// one beyond this machine's memory one matching lapis.ErrTooLarge.
func Eye[T Scalar](n int) (*Tensor[T], error) {
	const op = "views.Eye"
	if n < 0 {
		return nil, layout.Errorf(layout.ErrShape, op, "n", "%d is negative", n)
	}
	if _, err := layout.ColMajor(n, n); err != nil {
		return nil, layout.Errorf(layout.ErrOverflow, op, "n", "%d x %d elements do not fit in an int", n, n)
	}
	t, err := alloc[T](op, "n", []int{n, n})
	if err != nil {
		return nil, err
	}
	clear(t.data)
	for i := 0; i < n; i++ {
		t.data[i*(n+1)] = 1
	}
	return t, nil
}

// FromRows returns a new column-major tensor holding the matrix whose rows
// are rows, as Go writes a matrix literal: len(rows) x len(rows[0]),
// element (i, j) = rows[i][j]. It copies once; rows is not retained. The
// buffer comes from the pool (see Release). Every row must have the length
// of row 0: otherwise the error, matching layout.ErrShape, names the first
// row that does not and its length. No rows give a 0 x 0 tensor; rows of
// length 0 an m x 0 one.
func FromRows[T Scalar](rows [][]T) (*Tensor[T], error) {
	const op = "views.FromRows"
	m, n := len(rows), 0
	if m > 0 {
		n = len(rows[0])
	}
	for i, r := range rows {
		if len(r) != n {
			return nil, layout.Errorf(layout.ErrShape, op, "rows", "row %d has length %d, want %d (the length of row 0)", i, len(r), n)
		}
	}
	t, err := alloc[T](op, "rows", []int{m, n}) // too large only with rows sharing memory
	if err != nil {
		return nil, err
	}
	// Blocks of rows, so that each column is written in runs of up to
	// 16 elements while every row is read in order.
	const block = 16
	d := t.data
	for i0 := 0; i0 < m; i0 += block {
		rs := rows[i0:min(i0+block, m)]
		for j := range n {
			col := d[j*m+i0 : j*m+i0+len(rs)]
			for i, r := range rs {
				col[i] = r[j]
			}
		}
	}
	return t, nil
}

// Release ends the tensor's life: a buffer that lapis allocated goes back
// to the pool for reuse (adopted data, from FromColMajor, is only let go).
// The tensor is detached: its At, Set and Data panic with a message naming
// Release, and its View is a view of a released tensor.
//
// Views taken before Release are caught wherever they are used: the
// generation they recorded (the pooled buffer's, or the tensor's own for
// adopted data) advances, so every entry point of
// cblas, lapack, batch, fortran, dist and npy, views' own Copy, AsSlice
// and fallible transforms return an error matching lapis.ErrReleased
// that names the argument (before anything is read or written), and At,
// Set and ToColMajor panic (View.CheckLive). That holds for adopted data
// too, whose memory lapis does not reuse but its owner may: the views of
// an npy.Mapped after Close (unmapped) or of a fortran.CTensor after Free
// (freed C memory) are errors, not a fault.
//
// Slices taken with Data (the tensor's or a view's) before Release are
// not caught: a slice is plain memory, and it still addresses the buffer,
// which the pool hands to the next tensor of its size class. Read after
// Release, such a slice shows that tensor's values, and writes through it
// change them. Do not keep one past Release. With SetReleaseCheck on (the
// default under the race detector) the buffer is filled with NaN on its
// way back to the pool, so that a stale slice read before the buffer is
// reused shows NaN rather than numbers that look right.
//
// A second Release (and any later one) does nothing: Release is
// idempotent, so a deferred Release may follow an early one. The first
// call detaches the tensor from its buffer, so a later call cannot give
// the buffer back to the pool twice (two tensors would then share it).
func (t *Tensor[T]) Release() {
	if t.buf != nil {
		pool.Return(t.buf) // advances the generation the views recorded
	} else if t.own == &t.adopted {
		t.adopted.Advance()
	}
	t.buf, t.data, t.own, t.gen, t.released = nil, nil, pool.Dead, 0, true
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
	t := &Tensor[T]{data: data, l: l}
	t.own = &t.adopted
	return t, nil
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
	if err := pool.Check[T]("views.FromRowMajor", "data", shape...); err != nil {
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

// View returns a view of the whole tensor (sharing its data). The view
// records the generation of the tensor's pooled buffer, so that it is
// caught if used after Release (see Release). View of a released tensor
// returns a view with the tensor's shape and no data that every entry
// point refuses with an error matching lapis.ErrReleased.
func (t *Tensor[T]) View() View[T] {
	return View[T]{data: t.data, l: t.l, own: t.own, gen: t.gen}
}

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
