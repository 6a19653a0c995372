package views

import (
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
)

// View is a borrowed strided view: a slice, a layout.Layout that says where
// each element lives in it, and a lazy conjugation flag. Making and
// transforming views never copies or allocates (rank <= layout.MaxInline).
// The zero View is no view of anything: it has rank 0 but no data for its
// one element. Functions given one return an error matching
// layout.ErrBounds that says so (as FromSlice refuses a layout reaching
// past its data); transforms of it fail the same way, At and Set panic
// with that message, as a nil pointer would, and ToColMajor returns the
// zero Tensor, as copying a nil slice gives a nil slice. IsZero tells it.
// Use FromSlice, or a Tensor's View, to make views.
type View[T Scalar] struct {
	data []T
	l    layout.Layout
	conj bool
	gen  uint32    // own's generation when the view was made
	own  *pool.Gen // the generation of the pooled buffer data lies in; nil for other memory
}

// FromSlice returns the view of data described by l. It checks once that
// every offset l can reach lies inside data (errors match
// layout.ErrBounds); transforms of the view need no further checks.
func FromSlice[T Scalar](data []T, l layout.Layout) (View[T], error) {
	if lo, hi, ok := l.Span(); ok && (lo < 0 || hi >= len(data)) {
		return View[T]{}, layout.Errorf(layout.ErrBounds, "views.FromSlice", "l",
			"reachable offsets [%d, %d] of %s lie outside data of length %d", lo, hi, l.String(), len(data))
	}
	return View[T]{data: data, l: l}, nil
}

// noData reports whether v is the zero View: the only view whose layout
// reaches an element its data does not hold (FromSlice and every transform
// keep the reachable offsets inside data).
func (v *View[T]) noData() bool { return v.data == nil && v.l.Rank() == 0 }

// errNoData is the error for a zero View passed as arg to op.
func errNoData(op, arg string) error { return errop.ZeroView(op, arg) }

// IsZero reports whether v is the zero View (View[T]{}): no view of
// anything. Entry points given one return an error that says so, matching
// layout.ErrBounds.
func (v View[T]) IsZero() bool { return v.noData() }

const panicNoData = "views: " + errop.RuleZeroView

// released reports whether v is a view of a tensor released since the
// view was made (or made from a released tensor): one load and compare
// for a view of a pooled buffer, one nil test for any other.
func (v *View[T]) released() bool { return v.own != nil && v.own.Load() != v.gen }

// ruleReleased is the rule a view of a released tensor breaks.
const ruleReleased = "a view of a released tensor (Release was called; its buffer may belong to another tensor now)"

// errReleased is the error for a view of a released tensor passed as arg
// to op. It is not inlined, so that CheckLive is (in generic callers too).
//
//go:noinline
func errReleased(op, arg string) error {
	return layout.Errorf(pool.ErrReleased, op, arg, ruleReleased)
}

const panicReleasedView = "views: " + ruleReleased

// CheckLive returns nil when v may be used: a view of a live tensor, of
// a slice (FromSlice, the gonum and npy views) or the zero View. For a
// view of a tensor released since the view was made, or made from a
// released tensor, it returns an error naming op and arg that matches
// lapis.ErrReleased. It costs one load and compare; every entry point of
// cblas, lapack, batch, fortran, dist and npy calls it (or Matrix2 or
// Vector1, which make the same check) for each view it is given, before
// it reads or writes anything. Views of a tensor that adopted its data
// (FromColMajor) are flagged after that tensor's Release too; views made
// with FromSlice belong to no tensor and are never flagged.
func (v *View[T]) CheckLive(op, arg string) error {
	// Written for the inliner (cost 80, its budget): generic callers,
	// which call the shaped method, inline it only so.
	if v.own == nil || v.own.Load() == v.gen {
		return nil
	}
	return errReleased(op, arg)
}

// Layout returns the view's layout.
func (v View[T]) Layout() layout.Layout { return v.l }

// Matrix2 returns what a BLAS call needs to know about a rank-2 view: its
// layout's BLAS description (layout.Layout.Matrix), the address of its
// element (0, 0) in Data (nil when the view has no elements) and its
// conjugation flag. It reads v through the pointer and copies neither the
// view nor its layout, which calling a method of a View value does (even
// inlined); it is meant for hot paths such as small BLAS calls. ok is false
// when v is not of rank 2, its layout is General or v is a view of a
// released tensor (CheckLive's error); the other results are then zero.
func (v *View[T]) Matrix2() (m layout.Matrix, first *T, conj, ok bool) {
	// The check first, while v is in a register (the layout's Matrix2 is
	// a call), as two plain branches: a few instructions on the path of
	// every BLAS call.
	if g := v.own; g != nil && g.Load() != v.gen {
		return layout.Matrix{}, nil, false, false
	}
	m, off, ok := v.l.Matrix2()
	if !ok {
		return layout.Matrix{}, nil, false, false
	}
	if m.Rows > 0 && m.Cols > 0 {
		first = &v.data[off]
	}
	return m, first, v.conj, true
}

// Vector1 is Matrix2 for a rank-1 view: its length, its stride, the
// address of its element 0 in Data (nil when the view is empty) and its
// conjugation flag, read through the pointer without copying the view or
// its layout. ok is false when v is not of rank 1 or is a view of a
// released tensor (CheckLive's error); the other results are then zero.
func (v *View[T]) Vector1() (n, stride int, first *T, conj, ok bool) {
	if g := v.own; g != nil && g.Load() != v.gen {
		return 0, 0, nil, false, false
	}
	n, stride, off, ok := v.l.Vector1()
	if !ok {
		return 0, 0, nil, false, false
	}
	if n > 0 {
		first = &v.data[off]
	}
	return n, stride, first, v.conj, true
}

// Run reports whether v is a live, unconjugated view (not the zero View)
// whose elements are one compact run (layout.Layout.Run) and returns the address
// of its first element (nil when it is empty) and their number, read
// through the pointer as Matrix2 is.
func (v *View[T]) Run() (first *T, n int, ok bool) {
	if v.released() || v.conj || v.noData() {
		return nil, 0, false
	}
	n, off, ok := v.l.Run()
	if !ok {
		return nil, 0, false
	}
	if n > 0 {
		first = &v.data[off]
	}
	return first, n, true
}

// Parts returns the view's slice (as Data) and conjugation flag and sets
// *l to its layout, read through the pointer: the layout is copied once,
// straight into *l, and the view not at all (calling a method of a View
// value copies the view, even inlined, and a returned Layout is copied
// again by the caller). Like Matrix2, it is meant for hot paths that need
// the whole layout, such as handing a view to Fortran.
func (v *View[T]) Parts(l *layout.Layout) (data []T, conj bool) {
	*l = v.l
	return v.data, v.conj
}

// Ref returns the view's slice (as Data), a pointer to its own layout (not
// a copy) and its conjugation flag, read through the pointer: nothing is
// copied. It is Parts for the hottest paths (package fortran keeps the
// pointer for the length of one call). The layout must only be read: its
// pointer methods (Axes) give slices into it, and writing through them
// would void the bounds check FromSlice made. It stays valid as long as
// *v does.
func (v *View[T]) Ref() (data []T, l *layout.Layout, conj bool) {
	return v.data, &v.l, v.conj
}

// Data returns the whole underlying slice (not only the elements the view
// reaches); Layout().OffsetOf gives positions in it. It does not check
// that the view is live (CheckLive): a slice of a released tensor's
// buffer reads whatever its next owner wrote.
func (v View[T]) Data() []T { return v.data }

// Shape returns a copy of the view's extents.
func (v View[T]) Shape() []int { return v.l.Shape() }

// Rank returns the number of axes.
func (v View[T]) Rank() int { return v.l.Rank() }

// Len returns the number of elements: 0 for the zero View, which has no
// data (a rank-0 view made from data has one).
func (v View[T]) Len() int {
	if v.noData() {
		return 0
	}
	return v.l.Len()
}

// IsConj reports whether reads and writes through the view are conjugated.
// It is always false for real element types.
func (v View[T]) IsConj() bool { return v.conj }

// At returns the element at idx (conjugated if the view is). Like indexing a
// Go slice it panics on a wrong number of indices or an index out of range;
// like Tensor.At after Release, it panics on a view of a released tensor.
func (v View[T]) At(idx ...int) T {
	if v.noData() {
		panic(panicNoData)
	}
	if v.released() {
		panic(panicReleasedView)
	}
	x := v.data[v.l.OffsetOf(idx...)]
	if v.conj {
		x = conjFunc[T]()(x)
	}
	return x
}

// Set stores x at idx (conjugated if the view is). It panics on a bad index,
// on a view of a released tensor (as At), and on a view in which two
// indices can share an element (HasOverlap, e.g. a broadcast view): such
// views are read-only.
func (v View[T]) Set(x T, idx ...int) {
	if v.l.HasOverlap() {
		panic("views: Set on a view with overlapping elements (" + v.l.String() + ") is not allowed; it is read-only")
	}
	if v.noData() {
		panic(panicNoData)
	}
	if v.released() {
		panic(panicReleasedView)
	}
	if v.conj {
		x = conjFunc[T]()(x)
	}
	v.data[v.l.OffsetOf(idx...)] = x
}

// Conj returns the view with the conjugation flag flipped: reads and writes
// through it are conjugated, nothing is copied. For real types it returns v.
func (v View[T]) Conj() View[T] {
	if IsComplex[T]() {
		v.conj = !v.conj
	}
	return v
}

// H returns the conjugate transpose, v.T().Conj().
func (v View[T]) H() View[T] { return v.T().Conj() }

// AsSlice returns the view's elements as a sub-slice of its data, in
// column-major order, without copying. It works only when the elements form
// one contiguous column-major run (layout.IsColMajor) and are not
// conjugated; otherwise it returns an error that says to copy first
// (ToColMajor). The slice aliases the view's memory. A view of a released
// tensor is an error matching lapis.ErrReleased.
func (v View[T]) AsSlice() ([]T, error) {
	const op = "views.AsSlice"
	if v.noData() {
		return nil, errNoData(op, "v")
	}
	if v.released() {
		return nil, errReleased(op, "v")
	}
	if v.conj {
		return nil, layout.Errorf(layout.ErrReshape, op, "v", "a conjugated view is not plain memory: copy first (ToColMajor)")
	}
	if !v.l.IsColMajor() {
		return nil, layout.Errorf(layout.ErrReshape, op, "v", "%s is not one contiguous column-major run: copy first (ToColMajor)", v.l.String())
	}
	lo, hi, ok := v.l.Span()
	if !ok {
		return v.data[:0:0], nil
	}
	return v.data[lo : hi+1 : hi+1], nil
}

// with returns v with layout l, or the error of the transform that made l.
// Errors name op, the method the caller called. A view of a released
// tensor is an error (lapis.ErrReleased): transforms are where a stale
// view is caught first. T, H and Conj cannot fail; their results keep the
// generation and fail where they are used.
func (v View[T]) with(op string, l layout.Layout, err error) (View[T], error) {
	if v.released() {
		return View[T]{}, errReleased(op, "v")
	}
	if v.noData() {
		return View[T]{}, errNoData(op, "v")
	}
	if err != nil {
		return View[T]{}, errop.Rename(err, op)
	}
	v.l = l
	return v, nil
}

// Permute: see layout.Layout.Permute.
func (v View[T]) Permute(axes ...int) (View[T], error) {
	l, err := v.l.Permute(axes...)
	return v.with("views.View.Permute", l, err)
}

// T returns the matrix transpose (axes 0 and 1 swapped, metadata only:
// see layout.Layout.T). It cannot fail, so it returns no error: a view of
// rank 0 or 1 is its own transpose, as in numpy, and T returns it as it
// is (so does the zero View).
func (v View[T]) T() View[T] {
	if v.l.Rank() < 2 {
		return v
	}
	l, err := v.l.Transpose(0, 1)
	if err != nil {
		panic("views: transposing axes 0 and 1 of a rank >= 2 layout failed: " + err.Error()) // unreachable
	}
	v.l = l
	return v
}

// Transpose swaps axes a and b: see layout.Layout.Transpose.
func (v View[T]) Transpose(a, b int) (View[T], error) {
	l, err := v.l.Transpose(a, b)
	return v.with("views.View.Transpose", l, err)
}

// Slice keeps start, start+step, ... of axis: see layout.Layout.Slice.
func (v View[T]) Slice(axis, start, stop, step int) (View[T], error) {
	l, err := v.l.Slice(axis, start, stop, step)
	return v.with("views.View.Slice", l, err)
}

// Reverse walks axis backwards: see layout.Layout.Reverse.
func (v View[T]) Reverse(axis int) (View[T], error) {
	l, err := v.l.Reverse(axis)
	return v.with("views.View.Reverse", l, err)
}

// Index fixes axis at i and drops it: see layout.Layout.Index.
func (v View[T]) Index(axis, i int) (View[T], error) {
	l, err := v.l.Index(axis, i)
	return v.with("views.View.Index", l, err)
}

// Reshape re-views the elements in column-major order with a new shape, or
// fails with layout.ErrReshape when that needs a copy: see
// layout.Layout.Reshape.
func (v View[T]) Reshape(shape ...int) (View[T], error) {
	l, err := v.l.Reshape(shape...)
	return v.with("views.View.Reshape", l, err)
}

// BroadcastTo repeats the view Julia-style (stride 0 axes); the result is
// read-only: see layout.Layout.BroadcastTo.
func (v View[T]) BroadcastTo(shape ...int) (View[T], error) {
	l, err := v.l.BroadcastTo(shape...)
	return v.with("views.View.BroadcastTo", l, err)
}

func typeName[T Scalar]() string {
	switch any(*new(T)).(type) {
	case float32:
		return "float32"
	case float64:
		return "float64"
	case complex64:
		return "complex64"
	}
	return "complex128"
}
