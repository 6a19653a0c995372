package cblas

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
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
	d.read(v)
	return d
}

// read fills d from v and reports whether v is a live view of rank 2 (d is
// left empty otherwise; readErr says why). A BLAS-addressable view is read
// through views.Matrix2, which copies neither the view nor its layout and
// checks that the view is live; only a General one (or a wrong rank, or a
// released view) reads the layout itself.
func (d *desc[T]) read(v *views.View[T]) (ok bool) {
	m, first, conj, ok := v.Matrix2()
	if !ok {
		if v.Rank() != 2 || v.CheckLive("", "") != nil {
			return false
		}
		d.readGeneral(v)
		return true
	}
	// Field by field: a composite literal is built on the stack and copied,
	// which stalls on store forwarding.
	d.rows, d.cols, d.ld, d.trans, d.conj, d.ok, d.t = m.Rows, m.Cols, m.LD, m.Trans, conj, true, false
	d.ptr, d.lo, d.hi = nil, 0, 0
	if first != nil {
		// The stored matrix is r x c with leading dimension ld: its last
		// element is r-1 + (c-1)*ld elements past the first.
		r, c := m.Rows, m.Cols
		if m.Trans {
			r, c = c, r
		}
		d.ptr = unsafe.Pointer(first)
		d.lo = uintptr(d.ptr)
		d.hi = d.lo + uintptr(r+(c-1)*m.LD)*unsafe.Sizeof(*first)
	}
	return true
}

// readGeneral is read for a rank-2 view with no BLAS description.
func (d *desc[T]) readGeneral(v *views.View[T]) {
	l := v.Layout()
	*d = desc[T]{rows: l.Dim(0), cols: l.Dim(1), conj: v.IsConj()}
	if lo, hi, nonEmpty := l.Span(); nonEmpty {
		base := unsafe.Pointer(unsafe.SliceData(v.Data()))
		var z T
		sz := unsafe.Sizeof(z)
		d.ptr = unsafe.Add(base, uintptr(l.Offset())*sz)
		d.lo, d.hi = uintptr(base)+uintptr(lo)*sz, uintptr(base)+uintptr(hi+1)*sz
	}
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
		v = v.T()
	}
	if d.conj != v.IsConj() {
		v = v.Conj()
	}
	return v
}

// flag returns the transpose flag BLAS reads d with, if the routine takes
// it (allow: allowT, allowC; "N" is always allowed).
func (d *desc[T]) flag(allow int) (clib.Trans, bool) {
	switch {
	case !d.ok:
		return 0, false
	case !d.trans:
		return clib.NoTrans, !d.conj // BLAS has no "conjugate, no transpose"
	case !views.IsComplex[T]():
		return clib.DoTrans, allow != 0 // real: "T" and "C" are the same
	case d.conj:
		return clib.ConjTrans, allow&allowC != 0
	}
	return clib.DoTrans, allow&allowT != 0
}

// input turns d, read from v, into m, a BLAS operand with one of the
// allowed flags; an operand BLAS cannot take so is copied (tmp: release it
// after the call) or, in strict mode, refused. m is written field by
// field, in place: a mat built elsewhere and copied in stalls the small
// calls on store forwarding.
func (d *desc[T]) input(op, name string, v *views.View[T], allow int, cfg config, m *mat) (tmp *views.Tensor[T], err error) {
	if trans, ok := d.flag(allow); ok {
		m.ptr, m.rows, m.cols, m.trans = d.ptr, d.rows, d.cols, trans
		if d.trans { // the stored matrix is the transpose
			m.rows, m.cols = d.cols, d.rows
		}
		m.ld, err = blasInt(op, name, " leading dimension", d.ld)
		return nil, err
	}
	lv := d.view(*v)
	if cfg.Strict {
		why := "a layout this routine cannot take in place"
		if lv.Layout().Class() == layout.General {
			why = "a General layout"
		}
		return nil, refuse(op, name, lv.Layout(), why)
	}
	if err := copyFits[T](op, name, d.rows, d.cols); err != nil {
		return nil, err
	}
	tmp = lv.ToColMajor()
	policy.Copies.Add(1)
	m.ptr, m.rows, m.cols, m.trans = operand.ElemPtr(tmp.View()), d.rows, d.cols, clib.NoTrans
	m.ld, err = blasInt(op, name, " leading dimension", max(1, d.rows))
	if err != nil {
		tmp.Release()
		tmp = nil
	}
	return tmp, err
}

// output turns d, read from v (an output, oriented column-major and
// unconjugated where its layout allows), into o, a BLAS operand, or a
// temporary that finish copies back. o is written in place, as input's m.
func (d *desc[T]) output(op, name string, v *views.View[T], load bool, cfg config, o *output[T]) (err error) {
	if trans, ok := d.flag(0); ok && trans == clib.NoTrans {
		o.ptr, o.rows, o.cols, o.trans, o.back = d.ptr, d.rows, d.cols, clib.NoTrans, nil
		o.ld, err = blasInt(op, name, " leading dimension", d.ld)
		return err
	}
	lv := d.view(*v)
	if cfg.Strict {
		return refuse(op, name, lv.Layout(), "an output BLAS cannot write in place")
	}
	if err := copyFits[T](op, name, d.rows, d.cols); err != nil {
		return err
	}
	o.back = &operand.CopyBack[T]{Dst: lv}
	if load {
		o.back.Tmp = lv.ToColMajor()
	} else {
		o.back.Tmp, err = views.Zeros[T](d.rows, d.cols) // cannot fail: the shape is valid
		if err != nil {
			return err
		}
	}
	policy.Copies.Add(1)
	o.ptr, o.rows, o.cols, o.trans = operand.ElemPtr(o.back.Tmp.View()), d.rows, d.cols, clib.NoTrans
	o.ld, err = blasInt(op, name, " leading dimension", max(1, d.rows))
	if err != nil {
		o.back.Release()
	}
	return err
}

// selfOverlap reports whether an output's indices may share elements. A
// layout that Matrix describes cannot; others are asked.
func (d *desc[T]) selfOverlap(v *views.View[T]) bool {
	return !d.ok && v.Layout().HasOverlap()
}

// readErr is the error for the operand v that desc.read refused: a view
// of a released tensor, or not of rank 2.
func readErr[T Scalar](op, name string, v *views.View[T]) error {
	if err := v.CheckLive(op, name); err != nil {
		return err
	}
	if v.IsZero() {
		return errop.ZeroView(op, name)
	}
	return layout.Errorf(layout.ErrShape, op, name, "rank %d, want 2 (%s)", v.Rank(), v.Layout().String())
}

// vdesc is a rank-1 operand reduced to what the level-1 routines need,
// read from its view once through views.View.Vector1 (no copy of the view
// or its 168-byte layout, as desc for matrices). The view itself is used
// only on the rare copy path.
type vdesc[T Scalar] struct {
	p    unsafe.Pointer // element 0; nil when empty
	n    int
	inc  int // stride in elements, any sign (0: broadcast)
	conj bool
}

// read fills d from v and reports whether v is a live view of rank 1
// (views.View.Vector1 checks both; checkRank says which failed).
func (d *vdesc[T]) read(v *views.View[T]) bool {
	n, inc, first, conj, ok := v.Vector1()
	d.p, d.n, d.inc, d.conj = unsafe.Pointer(first), n, inc, conj
	return ok
}

// flip conjugates d (metadata only; a no-op for real types, as View.Conj).
func (d *vdesc[T]) flip() {
	if views.IsComplex[T]() {
		d.conj = !d.conj
	}
}

// span returns the lowest and highest address of d's elements; ok is false
// when d is empty.
func (d *vdesc[T]) span() (lo, hi uintptr, ok bool) {
	if d.n == 0 {
		return 0, 0, false
	}
	var z T
	lo, hi = uintptr(d.p), uintptr(unsafe.Add(d.p, (d.n-1)*d.inc*int(unsafe.Sizeof(z))))
	if d.inc < 0 {
		lo, hi = hi, lo
	}
	return lo, hi, true
}

// overlaps reports whether d and e share memory (as views.Overlaps: their
// address ranges intersect).
func (d *vdesc[T]) overlaps(e *vdesc[T]) bool {
	alo, ahi, aok := d.span()
	blo, bhi, bok := e.span()
	return aok && bok && alo <= bhi && blo <= ahi
}

// same reports whether d and e address the same elements in the same
// order (exact aliasing; conjugation aside).
func (d *vdesc[T]) same(e *vdesc[T]) bool { return d.p == e.p && d.inc == e.inc && d.n == e.n }

// broadcast reports whether d's elements share memory (stride 0, n > 1).
func (d *vdesc[T]) broadcast() bool { return d.inc == 0 && d.n > 1 }

// readVectors reads the rank-1 operands x and y of equal length, as
// checkVectors checks them.
func readVectors[T Scalar](op string, x, y *views.View[T], xd, yd *vdesc[T]) error {
	if !xd.read(x) || !yd.read(y) {
		return checkVectors(op, *x, *y)
	}
	if xd.n != yd.n {
		return layout.Errorf(layout.ErrShape, op, "y", "length %d differs from x's %d", yd.n, xd.n)
	}
	return nil
}

// outErr is the error for the output d, read from v, when it is broadcast
// or shares memory with in (nil: no input), as checkOutput's for views; nil
// when it is neither. Callers test broadcast and overlaps first, inline.
func (d *vdesc[T]) outErr(op, name string, v *views.View[T], in *vdesc[T], inName string) error {
	if d.broadcast() {
		return layout.Errorf(layout.ErrOverlap, op, name, "%s has indices sharing an element; it cannot be written", v.Layout().String())
	}
	if in != nil && d.overlaps(in) {
		return operand.Overlap(op, name, inName)
	}
	return nil
}

// arg describes d, read from v, to BLAS as vectorArg does: any non-zero
// stride is the increment (the pointer moved to the lowest address for a
// negative one); a broadcast, or a conjugated d when the routine cannot
// take one, goes through vectorArg's copy (tmp: release it after the
// call).
func (d *vdesc[T]) arg(op, name string, v *views.View[T], allowConj bool, cfg config) (x vec, tmp *views.Tensor[T], err error) {
	if d.broadcast() || (d.conj && !allowConj) {
		lv := *v
		if lv.IsConj() != d.conj {
			lv = lv.Conj()
		}
		return vectorArg(op, name, lv, allowConj, cfg)
	}
	x.n, x.ptr = d.n, d.p
	inc := d.inc
	if d.n <= 1 {
		inc = 1
	}
	if inc < 0 { // BLAS walks a negative increment from the lowest address
		var z T
		x.ptr = unsafe.Add(d.p, (d.n-1)*inc*int(unsafe.Sizeof(z)))
	}
	x.inc, err = blasInt(op, name, " increment", inc)
	return x, nil, err
}
