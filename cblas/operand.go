package cblas

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The one dispatch check. Every matrix operand is read into a desc
// (desc.go) whose input or output method decides, from layout.Matrix(),
// whether BLAS takes it in place and with which flag; matrixArg and
// outputArg are the entries for callers holding a view. Every vector goes
// through vectorArg. Anything BLAS cannot address is copied through the
// views copy engine into a pooled buffer, counted, or refused in strict
// mode.

// mat is a matrix operand as BLAS takes it.
type mat struct {
	ptr   unsafe.Pointer
	ld    int
	trans clib.Trans
	// The stored (column-major) matrix: rows x cols with leading dimension
	// ld; the pure-Go path needs the extent of its memory.
	rows, cols int
}

// span returns the number of elements the stored matrix reaches from ptr.
func (m mat) span() int {
	if m.rows == 0 || m.cols == 0 {
		return 0
	}
	return int(m.ld)*(m.cols-1) + m.rows
}

// checkRank checks that v is a live view (views.View.CheckLive: not a
// view of a released tensor) of the given rank. Every operand of every
// entry point goes through it or through desc.read and vdesc.read, which
// check the same in views' Matrix2 and Vector1.
func checkRank[T Scalar](op, name string, v views.View[T], rank int) error {
	if err := v.CheckLive(op, name); err != nil {
		return err
	}
	if v.Rank() != rank {
		if v.IsZero() {
			return errop.ZeroView(op, name)
		}
		return layout.Errorf(layout.ErrShape, op, name, "rank %d, want %d (%s)", v.Rank(), rank, v.Layout().String())
	}
	return nil
}

func refuse(op, name string, l layout.Layout, why string) error {
	return operand.Refused(op, name, l, why)
}

// Which transpose flags a routine accepts for an operand (besides "N").
const (
	allowT = 1 << iota
	allowC
	allowTC = allowT | allowC
)

// matrixArg describes the rank-2 input v to BLAS. tmp, when not nil, is a
// copy made for this call: release it after the call.
func matrixArg[T Scalar](op, name string, v views.View[T], cfg config) (m mat, tmp *views.Tensor[T], err error) {
	return matrixArgAllow(op, name, v, allowTC, cfg)
}

// matrixArgAllow is matrixArg for routines that take only some transpose
// flags: an operand that would need another one is copied.
func matrixArgAllow[T Scalar](op, name string, v views.View[T], allow int, cfg config) (m mat, tmp *views.Tensor[T], err error) {
	d := describe(&v)
	tmp, err = d.input(op, name, &v, allow, cfg, &m)
	return m, tmp, err
}

// output is a column-major matrix operand that BLAS writes: the view
// itself, or a compact temporary that finish copies back. The temporary's
// bookkeeping lives behind a pointer, so the in-place case stays a few
// words.
type output[T Scalar] struct {
	mat
	back *operand.CopyBack[T]
}

// outputArg describes the rank-2 output v, which the caller has already
// turned column-major and unconjugated where layouts allow. If BLAS cannot
// write v in place, a temporary is used; load says whether BLAS reads the
// output's old values (beta != 0), so they are copied in.
func outputArg[T Scalar](op, name string, v views.View[T], load bool, cfg config) (o output[T], err error) {
	d := describe(&v)
	err = d.output(op, name, &v, load, cfg, &o)
	return o, err
}

func (o *output[T]) finish()  { o.back.Finish() }
func (o *output[T]) release() { o.back.Release() }

// checkOutput refuses an output with self-overlap or one that overlaps an
// input (internal/operand: the one rule).
func checkOutput[T Scalar](op, name string, out views.View[T], inNames string, inputs ...views.View[T]) error {
	return operand.CheckOutput(op, name, out, inNames, inputs...)
}

// vec is a vector operand as BLAS takes it: pointer and increment.
type vec struct {
	ptr unsafe.Pointer
	inc int
	n   int
}

// vectorArg describes the rank-1 view v. Any non-zero stride goes to BLAS
// as the increment, negative included (BLAS then starts from the other
// end, so the pointer is moved there). A stride of 0 with n > 1 (a
// broadcast) or a conjugated view the routine cannot take is copied.
func vectorArg[T Scalar](op, name string, v views.View[T], allowConj bool, cfg config) (x vec, tmp *views.Tensor[T], err error) {
	n, s := v.Layout().Dim(0), v.Layout().Stride(0)
	x.n = n
	if n <= 1 {
		s = 1
	}
	if s != 0 && (allowConj || !v.IsConj()) {
		x.ptr = operand.ElemPtr(v)
		if s < 0 && n > 0 {
			// BLAS walks a negative increment from the last element.
			x.ptr = unsafe.Pointer(&v.Data()[v.Layout().Offset()+(n-1)*s])
		}
		x.inc, err = blasInt(op, name, " increment", s)
		return x, nil, err
	}
	if cfg.Strict {
		return x, nil, refuse(op, name, v.Layout(), "a broadcast or conjugated vector")
	}
	if err := copyFits[T](op, name, n, 1); err != nil {
		return x, nil, err
	}
	tmp = v.ToColMajor()
	policy.Copies.Add(1)
	x.ptr, x.inc = operand.ElemPtr(tmp.View()), 1
	return x, tmp, nil
}

// copyFits checks, before a copy of a rows x cols operand is made, that
// its extents fit the BLAS integer and its buffer can be allocated: the
// errors BLAS would give after the copy, without making it.
func copyFits[T Scalar](op, name string, rows, cols int) error {
	if _, err := blasInt(op, name, " rows", rows); err != nil {
		return err
	}
	if _, err := blasInt(op, name, " columns", cols); err != nil {
		return err
	}
	return pool.Check[T](op, name, rows, cols)
}

func release[T Scalar](ts ...*views.Tensor[T]) {
	for _, t := range ts {
		if t != nil {
			t.Release()
		}
	}
}

// vout is a vector that BLAS writes: the view itself, or a temporary
// holding its logical values (for a conjugated view) that finish copies
// back.
type vout[T Scalar] struct {
	vec
	back *operand.CopyBack[T]
}

// outputVec describes the rank-1 output v (already checked by
// checkOutput: no stride 0 with n > 1).
func outputVec[T Scalar](op, name string, v views.View[T], cfg config) (o vout[T], err error) {
	if !v.IsConj() {
		o.vec, _, err = vectorArg(op, name, v, false, cfg)
		return o, err
	}
	if cfg.Strict {
		return o, refuse(op, name, v.Layout(), "a conjugated output vector")
	}
	o.back = &operand.CopyBack[T]{Dst: v, Tmp: v.ToColMajor()}
	policy.Copies.Add(1)
	o.vec = vec{ptr: operand.ElemPtr(o.back.Tmp.View()), inc: 1, n: v.Len()}
	return o, nil
}

func (o *vout[T]) finish()  { o.back.Finish() }
func (o *vout[T]) release() { o.back.Release() }

// checkSquare checks that v is a rank-2 n x n view and returns n.
func checkSquare[T Scalar](op, name string, v views.View[T]) (int, error) {
	if err := checkRank(op, name, v, 2); err != nil {
		return 0, err
	}
	if v.Layout().Dim(0) != v.Layout().Dim(1) {
		return 0, layout.Errorf(layout.ErrShape, op, name, "shape %v is not square", v.Shape())
	}
	return v.Layout().Dim(0), nil
}

func checkLen[T Scalar](op, name string, v views.View[T], n int) error {
	if err := checkRank(op, name, v, 1); err != nil {
		return err
	}
	if v.Len() != n {
		return layout.Errorf(layout.ErrShape, op, name, "length %d, want %d", v.Len(), n)
	}
	return nil
}

// isRowMajor reports whether the rank-2 view is read by BLAS transposed.
func isRowMajor[T Scalar](v views.View[T]) bool {
	d, ok := v.Layout().Matrix()
	return ok && d.Trans
}
