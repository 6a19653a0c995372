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

// desc is a rank-2 operand as cblas reads it: the shared description
// (operand.Matrix) and whether Gemm's orientation swapped it for its
// transpose. The view itself is kept by the caller for the rare copy path.
type desc[T Scalar] struct {
	operand.Matrix[T]
	t bool // the operand is the transpose of *v (after orienting)
}

// describe reads v, a rank-2 view.
func describe[T Scalar](v *views.View[T]) (d desc[T]) {
	d.read(v)
	return d
}

// read fills d from v and reports whether v is a live view of rank 2
// (readErr says why not).
func (d *desc[T]) read(v *views.View[T]) bool {
	d.t = false
	return d.Read(v)
}

// transpose makes d describe its transpose (metadata only).
func (d *desc[T]) transpose() {
	d.Transpose()
	d.t = !d.t
}

func (d *desc[T]) overlaps(e *desc[T]) bool { return d.Span.Overlaps(e.Span) }

// view returns the operand as a view of v, the view d was read from (for
// the copy path).
func (d *desc[T]) view(v views.View[T]) views.View[T] {
	if d.t {
		v = v.T()
	}
	if d.Conj != v.IsConj() {
		v = v.Conj()
	}
	return v
}

// flag returns the transpose flag BLAS reads d with, if the routine takes
// it (allow: allowT, allowC; "N" is always allowed).
func (d *desc[T]) flag(allow int) (clib.Trans, bool) {
	switch {
	case !d.BLAS:
		return 0, false
	case !d.Trans:
		return clib.NoTrans, !d.Conj // BLAS has no "conjugate, no transpose"
	case !views.IsComplex[T]():
		return clib.DoTrans, allow != 0 // real: "T" and "C" are the same
	case d.Conj:
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
		m.ptr, m.rows, m.cols, m.trans = d.Ptr, d.Rows, d.Cols, trans
		if d.Trans { // the stored matrix is the transpose
			m.rows, m.cols = d.Cols, d.Rows
		}
		m.ld, err = blasInt(op, name, " leading dimension", d.LD)
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
	if err := copyFits[T](op, name, d.Rows, d.Cols); err != nil {
		return nil, err
	}
	tmp = lv.ToColMajor()
	policy.Copies.Add(1)
	m.ptr, m.rows, m.cols, m.trans = operand.ElemPtr(tmp.View()), d.Rows, d.Cols, clib.NoTrans
	m.ld, err = blasInt(op, name, " leading dimension", max(1, d.Rows))
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
		o.ptr, o.rows, o.cols, o.trans, o.back = d.Ptr, d.Rows, d.Cols, clib.NoTrans, nil
		o.ld, err = blasInt(op, name, " leading dimension", d.LD)
		return err
	}
	lv := d.view(*v)
	if cfg.Strict {
		return refuse(op, name, lv.Layout(), "an output BLAS cannot write in place")
	}
	if err := copyFits[T](op, name, d.Rows, d.Cols); err != nil {
		return err
	}
	o.back = &operand.CopyBack[T]{Dst: lv}
	if load {
		o.back.Tmp = lv.ToColMajor()
	} else {
		o.back.Tmp, err = views.Zeros[T](d.Rows, d.Cols) // cannot fail: the shape is valid
		if err != nil {
			return err
		}
	}
	policy.Copies.Add(1)
	o.ptr, o.rows, o.cols, o.trans = operand.ElemPtr(o.back.Tmp.View()), d.Rows, d.Cols, clib.NoTrans
	o.ld, err = blasInt(op, name, " leading dimension", max(1, d.Rows))
	if err != nil {
		o.back.Release()
	}
	return err
}

// selfOverlap reports whether an output's indices may share elements. A
// layout that Matrix describes cannot; others are asked.
func (d *desc[T]) selfOverlap(v *views.View[T]) bool {
	return !d.BLAS && v.Layout().HasOverlap()
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

// span returns the addresses of d's elements.
func (d *vdesc[T]) span() operand.Span {
	if d.n == 0 {
		return operand.Span{}
	}
	sz := unsafe.Sizeof(*new(T))
	lo, hi := uintptr(d.p), uintptr(unsafe.Add(d.p, (d.n-1)*d.inc*int(sz)))
	if d.inc < 0 {
		lo, hi = hi, lo
	}
	return operand.Span{Lo: lo, Hi: hi + sz}
}

// overlaps reports whether d and e share memory.
func (d *vdesc[T]) overlaps(e *vdesc[T]) bool { return d.span().Overlaps(e.span()) }

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
