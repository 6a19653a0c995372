package cblas

/*
#include "lapis_cblas.h"
*/
import "C"

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/policy"
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

// flag returns the transpose flag BLAS reads d with, if the routine takes
// it (allow: allowT, allowC; "N" is always allowed).
func (d *desc[T]) flag(allow int) (C.enum_CBLAS_TRANSPOSE, bool) {
	switch {
	case !d.ok:
		return 0, false
	case !d.trans:
		return C.CblasNoTrans, !d.conj // BLAS has no "conjugate, no transpose"
	case !views.IsComplex[T]():
		return C.CblasTrans, allow != 0 // real: "T" and "C" are the same
	case d.conj:
		return C.CblasConjTrans, allow&allowC != 0
	}
	return C.CblasTrans, allow&allowT != 0
}

// input turns d, read from v, into a BLAS operand with one of the allowed
// flags; an operand BLAS cannot take so is copied (tmp: release it after
// the call) or, in strict mode, refused.
func (d *desc[T]) input(op, name string, v *views.View[T], allow int, cfg config) (m mat, tmp *views.Tensor[T], err error) {
	if trans, ok := d.flag(allow); ok {
		m = mat{ptr: d.ptr, rows: d.rows, cols: d.cols, trans: trans}
		if d.trans { // the stored matrix is the transpose
			m.rows, m.cols = d.cols, d.rows
		}
		m.ld, err = blasInt(op, name, " leading dimension", d.ld)
		return m, nil, err
	}
	lv := d.view(*v)
	if cfg.Strict {
		why := "a layout this routine cannot take in place"
		if lv.Layout().Class() == layout.General {
			why = "a General layout"
		}
		return m, nil, refuse(op, name, lv.Layout(), why)
	}
	tmp = lv.ToColMajor()
	policy.Copies.Add(1)
	m = mat{ptr: elemPtr(tmp.View()), rows: d.rows, cols: d.cols, trans: C.CblasNoTrans}
	m.ld, err = blasInt(op, name, " leading dimension", max(1, d.rows))
	if err != nil {
		tmp.Release()
		tmp = nil
	}
	return m, tmp, err
}

// output turns d, read from v (an output, oriented column-major and
// unconjugated where its layout allows), into a BLAS operand, or a
// temporary that finish copies back.
func (d *desc[T]) output(op, name string, v *views.View[T], load bool, cfg config) (o output[T], err error) {
	if trans, ok := d.flag(0); ok && trans == C.CblasNoTrans {
		o.ptr, o.rows, o.cols, o.trans = d.ptr, d.rows, d.cols, C.CblasNoTrans
		o.ld, err = blasInt(op, name, " leading dimension", d.ld)
		return o, err
	}
	lv := d.view(*v)
	if cfg.Strict {
		return o, refuse(op, name, lv.Layout(), "an output BLAS cannot write in place")
	}
	o.back = &copyBack[T]{dst: lv}
	if load {
		o.back.tmp = lv.ToColMajor()
	} else {
		o.back.tmp, err = views.Zeros[T](d.rows, d.cols) // cannot fail: the shape is valid
		if err != nil {
			return o, err
		}
	}
	policy.Copies.Add(1)
	o.ptr, o.rows, o.cols, o.trans = elemPtr(o.back.tmp.View()), d.rows, d.cols, C.CblasNoTrans
	o.ld, err = blasInt(op, name, " leading dimension", max(1, d.rows))
	if err != nil {
		o.back.release()
	}
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
