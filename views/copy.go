package views

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
)

// ToColMajor returns a new compact column-major tensor with the view's
// elements (conjugated if the view is). It always copies, through the copy
// engine, into a buffer from the pool: Release the tensor when done with it
// and a loop of ToColMajor/Release allocates nothing in steady state.
//
// ToColMajor of the zero View returns the zero Tensor (no data, Len 0),
// as copying a nil slice gives a nil slice. ToColMajor of a view of a
// released tensor panics, as At does (View.CheckLive), and so does a copy
// larger than this machine's memory (a broadcast of huge logical size):
// the panic's value is an error matching lapis.ErrTooLarge, as make
// panics on a length out of range. To get that as an error instead,
// allocate with Zeros and fill with Copy.
func (v View[T]) ToColMajor() *Tensor[T] {
	t := new(Tensor[T]) // small enough to inline: t may live on the caller's stack
	v.copyInto(t)
	return t
}

// copyInto makes t a compact column-major copy of v.
func (v View[T]) copyInto(t *Tensor[T]) {
	if v.noData() {
		return // the zero View copies to the zero Tensor: no data, Len 0
	}
	if v.released() {
		panic(panicReleasedView)
	}
	if !pool.CanHold[T](v.l.Len()) {
		panic(pool.Check[T]("views.View.ToColMajor", "v", v.l.Shape()...))
	}
	t.l = v.l.Compact()
	t.take(pool.Get[T](v.l.Len()))
	var cf func(T) T
	if v.conj {
		cf = conjFunc[T]()
	}
	engineCopy(t.View(), v, cf)
}

// Copy copies src into dst element by element (dst[i] = src[i] for every
// index i, conjugating where exactly one of the two views is conjugated).
// The shapes must be equal (layout.ErrShape). dst must not have two indices
// sharing an element, as a broadcast view does (layout.ErrOverlap). dst and
// src may share memory: then src is first copied aside, so the result is as
// if src had been read completely before dst was written. A view of a
// released tensor is an error matching lapis.ErrReleased. On error dst is
// untouched.
func Copy[T Scalar](dst, src View[T]) error {
	const op = "views.Copy"
	if dst.noData() {
		return errNoData(op, "dst")
	}
	if src.noData() {
		return errNoData(op, "src")
	}
	if dst.released() {
		return errReleased(op, "dst")
	}
	if src.released() {
		return errReleased(op, "src")
	}
	if !dst.l.SameShape(src.l) {
		return layout.Errorf(layout.ErrShape, op, "src", "shape %v differs from dst's %v", src.l.Shape(), dst.l.Shape())
	}
	if dst.l.HasOverlap() {
		return layout.Errorf(layout.ErrOverlap, op, "dst", "%s has indices that share an element (broadcast?); it cannot be written", dst.l.String())
	}
	var cf func(T) T
	if dst.conj != src.conj {
		cf = conjFunc[T]()
	}
	if Overlaps(dst, src) {
		if !pool.CanHold[T](src.l.Len()) { // a copy aside of more than half this machine's memory
			return pool.Check[T](op, "src", src.l.Shape()...)
		}
		aside := src.ToColMajor()
		defer aside.Release()
		src = aside.View()
		cf = nil
		if dst.conj {
			cf = conjFunc[T]()
		}
	}
	engineCopy(dst, src, cf)
	return nil
}

// Overlaps reports whether the memory the two views reach intersects,
// judged by address range (conservative: two interleaved views that never
// share an element still overlap). Views with no elements, and the zero
// View, overlap nothing; neither do views of a released tensor (which
// every call refuses, see View.CheckLive).
func Overlaps[T Scalar](a, b View[T]) bool {
	alo, ahi, aok := a.l.Span()
	blo, bhi, bok := b.l.Span()
	if !aok || !bok || a.noData() || b.noData() || a.released() || b.released() {
		return false
	}
	pa0, pa1 := uintptr(unsafe.Pointer(&a.data[alo])), uintptr(unsafe.Pointer(&a.data[ahi]))
	pb0, pb1 := uintptr(unsafe.Pointer(&b.data[blo])), uintptr(unsafe.Pointer(&b.data[bhi]))
	return pa0 <= pb1 && pb0 <= pa1
}
