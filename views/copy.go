package views

import (
	"unsafe"

	"github.com/lapis-go/lapis/layout"
)

// ToColMajor returns a new compact column-major tensor with the view's
// elements (conjugated if the view is). It always copies.
func (v View[T]) ToColMajor() *Tensor[T] {
	l, err := layout.ColMajor(v.l.Shape()...)
	if err != nil {
		panic("views: a valid view's shape failed ColMajor: " + err.Error()) // cannot happen: same element count
	}
	t := &Tensor[T]{data: make([]T, l.Len()), l: l}
	copyElems(t.View(), v)
	return t
}

// Copy copies src into dst element by element (dst[i] = src[i] for every
// index i, conjugating where exactly one of the two views is conjugated).
// The shapes must be equal (layout.ErrShape). dst must not have two indices
// sharing an element, as a broadcast view does (layout.ErrOverlap). dst and
// src may share memory: then src is first copied aside, so the result is as
// if src had been read completely before dst was written. On error dst is
// untouched.
func Copy[T Scalar](dst, src View[T]) error {
	const op = "views.Copy"
	if !sameShape(dst.l, src.l) {
		return layout.Errorf(layout.ErrShape, op, "src", "shape %v differs from dst's %v", src.l.Shape(), dst.l.Shape())
	}
	if dst.l.HasOverlap() {
		return layout.Errorf(layout.ErrOverlap, op, "dst", "%s has indices that share an element (broadcast?); it cannot be written", dst.l.String())
	}
	if shareMemory(dst, src) {
		src = src.ToColMajor().View()
	}
	copyElems(dst, src)
	return nil
}

func sameShape(a, b layout.Layout) bool {
	if a.Rank() != b.Rank() {
		return false
	}
	for k := 0; k < a.Rank(); k++ {
		if a.Dim(k) != b.Dim(k) {
			return false
		}
	}
	return true
}

// shareMemory reports whether the element ranges the two views reach
// intersect in memory (conservatively: by address range).
func shareMemory[T Scalar](a, b View[T]) bool {
	alo, ahi, aok := a.l.Span()
	blo, bhi, bok := b.l.Span()
	if !aok || !bok {
		return false
	}
	pa0, pa1 := uintptr(unsafe.Pointer(&a.data[alo])), uintptr(unsafe.Pointer(&a.data[ahi]))
	pb0, pb1 := uintptr(unsafe.Pointer(&b.data[blo])), uintptr(unsafe.Pointer(&b.data[bhi]))
	return pa0 <= pb1 && pb0 <= pa1
}

// copyElems is the plain element-by-element copy: an odometer over the
// index box in column-major order with incremental offsets. It is the
// reference that any faster copy is tested against. Shapes are equal.
func copyElems[T Scalar](dst, src View[T]) {
	n := dst.l.Len()
	if n == 0 {
		return
	}
	var cf func(T) T
	if dst.conj != src.conj {
		cf = conjFunc[T]()
	}
	rank := dst.l.Rank()
	var idx [layout.MaxRank]int
	do, so := dst.l.Offset(), src.l.Offset()
	for range n {
		x := src.data[so]
		if cf != nil {
			x = cf(x)
		}
		dst.data[do] = x
		// Advance the odometer: axis 0 fastest.
		for k := 0; k < rank; k++ {
			idx[k]++
			do += dst.l.Stride(k)
			so += src.l.Stride(k)
			if idx[k] < dst.l.Dim(k) {
				break
			}
			do -= idx[k] * dst.l.Stride(k)
			so -= idx[k] * src.l.Stride(k)
			idx[k] = 0
		}
	}
}
