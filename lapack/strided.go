package lapack

import (
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/cint"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// gesvSmall is the largest order gesvStrided solves with its own loop.
const gesvSmall = clib.GesvSmallMax

// gesvStrided solves a[:, :, t] x = b[:, :, t] for t = 0, ..., count-1 in
// place, as Gesv does for each (b receives x, a the LU factors): a
// [n, n, count] and b [n, nrhs, count] are rank-3 views whose axis 2 has
// any stride. It is what package batch solves with, in one C call for the
// whole run: systems of order n <= 16 with LAPACK's unblocked algorithm
// (getf2 and the two triangular solves, whose results equal gesv's within
// rounding) instead of a gesv call each, whose own overhead dominates at
// these sizes (about 0.8 us for 8x8 here); larger ones with gesv, system
// by system. A singular system does not stop the others: failed maps its
// index t to the error gesv would report (ErrSingular with the pivot's
// index), and its b is unchanged. Matrices that are not column-major are
// copied for the call (counted, refused in strict mode).
func gesvStrided[T Scalar](a, b views.View[T], opts ...lapis.Option) (failed map[int]*Error, err error) {
	const op = "lapack.GesvStrided"
	for _, x := range []struct {
		name string
		v    views.View[T]
	}{{"a", a}, {"b", b}} {
		if err := x.v.CheckLive(op, x.name); err != nil {
			return nil, err
		}
		switch l := x.v.Layout(); {
		case x.v.IsZero():
			return nil, errop.ZeroView(op, x.name)
		case l.Rank() != 3:
			return nil, layout.Errorf(layout.ErrShape, op, x.name, "rank %d, want 3 ([rows, cols, count])", l.Rank())
		case l.HasOverlap():
			return nil, layout.Errorf(layout.ErrOverlap, op, x.name, "%s has indices sharing an element; it is written", l.String())
		}
	}
	la, lb := a.Layout(), b.Layout()
	n, nrhs, count := la.Dim(0), lb.Dim(1), la.Dim(2)
	switch {
	case la.Dim(1) != n:
		return nil, layout.Errorf(layout.ErrShape, op, "a", "matrices %dx%d, want square ones", n, la.Dim(1))
	case lb.Dim(0) != n:
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's order %d", lb.Dim(0), n)
	case lb.Dim(2) != count:
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d systems, a has %d", lb.Dim(2), count)
	case views.Overlaps(a, b):
		return nil, layout.Errorf(layout.ErrOverlap, op, "b", "shares memory with a")
	}
	if count == 0 || n == 0 {
		return nil, nil
	}
	cfg := lapis.Configure(opts...)
	var ra, rb strided[T]
	err = ra.prepare(op, "a", a, cfg)
	if err == nil {
		err = rb.prepare(op, "b", b, cfg)
	}
	if err == nil {
		err = cint.LAPACK(op, "a", n, nrhs, ra.ld, rb.ld)
	}
	if err != nil {
		ra.release()
		rb.release()
		return nil, err
	}
	info := pool.Get[int32](count)
	defer pool.Put(info)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n+nrhs)) // each system decides alone
	if n <= gesvSmall && nrhs <= 1<<31-1 {                   // the small loop counts in C ints
		clib.GesvSmall[T](count, n, nrhs, ra.strided(), rb.strided(), info.Data)
	} else {
		ipiv := wspace.GetInts(n)
		clib.GesvLoop[T](count, n, nrhs, ra.strided(), rb.strided(), ipiv.Ptr(), info.Data)
		ipiv.Put()
	}
	th.End()
	ra.finish()
	rb.finish()
	routine := families["xgesv"].routines[scalar.Index[T]()]
	for t, x := range info.Data {
		if x != 0 {
			if failed == nil {
				failed = map[int]*Error{}
			}
			failed[t] = &Error{Op: op, Routine: routine, Info: int(x), Index: int(x) - 1, Rank: -1, kind: ErrSingular}
		}
	}
	return failed, nil
}

// strided is a run of matrices as the C loops take it: an operand (matrix
// 0 at ptr, column-major with leading dimension ld, or a compact copy of
// the whole run that finish writes back) and the stride between matrices.
type strided[T Scalar] struct {
	operand[T]
	stride int
}

// prepare reads the run v, which LAPACK reads and writes.
func (s *strided[T]) prepare(op, name string, v views.View[T], cfg lapis.Config) error {
	f, _ := v.Index(2, 0) // count >= 1
	s.mode = read | write
	if m, ok := f.Layout().Matrix(); ok && !m.Trans && !v.IsConj() {
		s.ld, s.stride = m.LD, v.Layout().Stride(2)
		if f.Len() > 0 {
			s.ptr = unsafe.Pointer(&f.Data()[f.Layout().Offset()])
		}
		return nil
	}
	if cfg.Strict {
		return layout.Errorf(lapis.ErrCopyRefused, op, name, "%s (matrices of class %v) needs a copy and strict mode is on", v.Layout().String(), f.Layout().Class())
	}
	if err := s.scratch(op, name, v, 0, true); err != nil {
		return err
	}
	l := s.tv.Layout()
	s.ld, s.stride = max(1, l.Dim(0)), l.Dim(0)*l.Dim(1)
	if s.tv.Len() > 0 {
		s.ptr = unsafe.Pointer(&s.buf.Data[0])
	}
	return nil
}

// strided is s as the C loops take it.
func (s *strided[T]) strided() clib.Strided {
	return clib.Strided{Ptr: s.ptr, LD: s.ld, Stride: s.stride}
}
