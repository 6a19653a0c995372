package operand

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// Span is the range of addresses [Lo, Hi) an operand reaches in its
// caller's memory; Lo == Hi when it reaches none.
type Span struct{ Lo, Hi uintptr }

// Overlaps reports whether s and t reach common addresses: the one overlap
// test of the packages that hand views to C. It compares ranges, so it is
// conservative for operands whose elements interleave without sharing any
// (two row slices of one column-major matrix), which are refused too.
func (s Span) Overlaps(t Span) bool {
	return s.Lo < s.Hi && t.Lo < t.Hi && s.Lo < t.Hi && t.Lo < s.Hi
}

// SliceSpan returns the addresses of s's elements.
func SliceSpan[E any](s []E) Span {
	if len(s) == 0 {
		return Span{}
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return Span{lo, lo + uintptr(len(s))*unsafe.Sizeof(s[0])}
}

// ViewSpan returns the addresses v's elements reach, of any layout (none
// for a view of a released tensor).
func ViewSpan[T scalar.Type](v views.View[T]) Span {
	lo, hi, ok := v.Layout().Span()
	if !ok || len(v.Data()) == 0 || v.CheckLive("", "") != nil {
		return Span{}
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(v.Data())))
	sz := unsafe.Sizeof(*new(T))
	return Span{base + uintptr(lo)*sz, base + uintptr(hi+1)*sz}
}

// Matrix is a rank-2 view reduced to what a BLAS or LAPACK call and its
// checks need, read from the view once: cblas's small calls work on these
// few words instead of re-reading views and layouts, and lapack starts
// each argument from it. When BLAS is true, the view is the matrix at Ptr
// with leading dimension LD, stored transposed when Trans (a row-major
// view); otherwise (a General layout) Ptr is element (0, 0) and the view
// must be copied before C can take it.
type Matrix[T scalar.Type] struct {
	Ptr        unsafe.Pointer // element (0, 0); nil when empty
	Rows, Cols int            // the view's extents
	LD         int
	Trans      bool // the storage holds the transpose (a row-major view)
	Conj       bool
	BLAS       bool // layout.Matrix describes it
	Span
}

// Read fills d from v and reports whether v is a live view of rank 2 (d
// is left empty otherwise; the caller says why). A BLAS-addressable view
// is read through views.View.Matrix2, which copies neither the view nor
// its layout and checks that the view is live; only a General one (or a
// wrong rank, or a released view) reads the layout itself.
func (d *Matrix[T]) Read(v *views.View[T]) bool {
	m, first, conj, ok := v.Matrix2()
	if !ok {
		if v.Rank() != 2 || v.CheckLive("", "") != nil {
			*d = Matrix[T]{}
			return false
		}
		d.readGeneral(v)
		return true
	}
	// Field by field: a composite literal is built on the stack and copied,
	// which stalls small calls on store forwarding.
	d.Rows, d.Cols, d.LD, d.Trans, d.Conj, d.BLAS = m.Rows, m.Cols, m.LD, m.Trans, conj, true
	d.Ptr, d.Lo, d.Hi = nil, 0, 0
	if first != nil {
		// The stored matrix is r x c with leading dimension ld: its last
		// element is r-1 + (c-1)*ld elements past the first.
		r, c := m.Rows, m.Cols
		if m.Trans {
			r, c = c, r
		}
		d.Ptr = unsafe.Pointer(first)
		d.Lo = uintptr(d.Ptr)
		d.Hi = d.Lo + uintptr(r+(c-1)*m.LD)*unsafe.Sizeof(*first)
	}
	return true
}

// readGeneral is Read for a rank-2 view with no BLAS description.
func (d *Matrix[T]) readGeneral(v *views.View[T]) {
	l := v.Layout()
	*d = Matrix[T]{Rows: l.Dim(0), Cols: l.Dim(1), Conj: v.IsConj(), Span: ViewSpan(*v)}
	if d.Lo < d.Hi {
		d.Ptr = unsafe.Pointer(&v.Data()[l.Offset()])
	}
}

// Transpose makes d describe its transpose (metadata only).
func (d *Matrix[T]) Transpose() {
	d.Rows, d.Cols, d.Trans = d.Cols, d.Rows, !d.Trans
}
