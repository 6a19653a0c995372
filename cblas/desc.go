package cblas

/*
#include "lapis_cblas.h"
*/
import "C"

import (
	"unsafe"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// desc is a rank-2 operand reduced to what the BLAS call and the checks
// need, read from its view once: the hot path of small calls works on these
// few words instead of re-reading (and copying) views and layouts. The
// view itself is kept for the rare copy path.
type desc[T Scalar] struct {
	ptr        unsafe.Pointer // element (0, 0); nil when empty
	rows, cols int            // logical extents
	ld         int
	trans      bool // storage holds the transpose (a row-major view)
	conj       bool
	ok         bool    // layout.Matrix() describes it
	lo, hi     uintptr // addresses reached, [lo, hi); lo == hi when empty
	t          bool    // the operand is the transpose of *v (after orienting)
}

// describe reads v, a rank-2 view.
func describe[T Scalar](v *views.View[T]) (d desc[T]) {
	l := v.Layout()
	d.conj = v.IsConj()
	d.rows, d.cols = l.Dim(0), l.Dim(1)
	m, ok := l.Matrix()
	d.ok, d.ld, d.trans = ok, m.LD, m.Trans
	if lo, hi, nonEmpty := l.Span(); nonEmpty {
		base := unsafe.Pointer(unsafe.SliceData(v.Data()))
		var z T
		sz := unsafe.Sizeof(z)
		d.ptr = unsafe.Add(base, uintptr(l.Offset())*sz)
		d.lo, d.hi = uintptr(base)+uintptr(lo)*sz, uintptr(base)+uintptr(hi+1)*sz
	}
	return d
}

// transpose makes d describe its transpose (metadata only).
func (d *desc[T]) transpose() {
	d.rows, d.cols, d.trans, d.t = d.cols, d.rows, !d.trans, !d.t
}

func (d *desc[T]) overlaps(e *desc[T]) bool {
	return d.lo < d.hi && e.lo < e.hi && d.lo < e.hi && e.lo < d.hi
}

// view returns the operand as a view of v, the view d was read from (for
// the copy path).
func (d *desc[T]) view(v views.View[T]) views.View[T] {
	if d.t {
		v = t2(v)
	}
	if d.conj != v.IsConj() {
		v = v.Conj()
	}
	return v
}

// input turns d into a BLAS operand; an operand BLAS cannot take (General,
// or conjugated without a transpose) is copied. tmp is the copy, if any.
func (d *desc[T]) input(op, name string, v *views.View[T], cfg config) (m mat, tmp *views.Tensor[T], err error) {
	if !d.ok || (d.conj && !d.trans) {
		return matrixArg(op, name, d.view(*v), cfg)
	}
	m = mat{ptr: d.ptr, rows: d.rows, cols: d.cols, trans: C.CblasNoTrans}
	if d.trans {
		m.rows, m.cols, m.trans = d.cols, d.rows, C.CblasTrans
		if d.conj {
			m.trans = C.CblasConjTrans
		}
	}
	m.ld, err = blasInt(op, name, " leading dimension", d.ld)
	return m, nil, err
}

// output turns d (an output, oriented column-major and unconjugated where
// its layout allows) into a BLAS operand, or a temporary copied back by
// finish.
func (d *desc[T]) output(op, name string, v *views.View[T], load bool, cfg config) (o output[T], err error) {
	if !d.ok || d.trans || d.conj {
		return outputArg(op, name, d.view(*v), load, cfg)
	}
	o.ptr, o.rows, o.cols, o.trans = d.ptr, d.rows, d.cols, C.CblasNoTrans
	o.ld, err = blasInt(op, name, " leading dimension", d.ld)
	return o, err
}

// selfOverlap reports whether an output's indices may share elements. A
// layout that Matrix describes cannot; others are asked.
func (d *desc[T]) selfOverlap(v *views.View[T]) bool {
	return !d.ok && v.Layout().HasOverlap()
}

func rank2Err[T Scalar](op, name string, v *views.View[T]) error {
	return layout.Errorf(layout.ErrShape, op, name, "rank %d, want 2 (%s)", v.Rank(), v.Layout().String())
}
