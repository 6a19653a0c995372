package strided

import (
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Gesv solves a[:, :, t] x = b[:, :, t] for t = 0, ..., count-1 in place,
// as lapack.Gesv does for each (b receives x, a the LU factors): a [n, n,
// count] and b [n, nrhs, count] are rank-3 views whose axis 2 has any
// stride. It runs in one C call for the whole run: systems of order n <=
// clib.GesvSmallMax (16) with LAPACK's unblocked algorithm (getf2 and the
// two triangular solves, whose results equal gesv's within rounding)
// instead of a gesv call each, whose own overhead dominates at these
// sizes (about 0.8 us for 8x8 here); larger ones with gesv, system by
// system. A singular system does not stop the others: failed maps its
// index t to gesv's info (the 1-based position of the zero pivot), and
// its b is unchanged. Runs whose matrices are not column-major are
// copied for the call (counted, refused in strict mode).
//
// Errors name op: layout.ErrShape, layout.ErrOverlap (a or b overlapping
// itself or the other), layout.ErrOverflow, lapis.ErrCopyRefused.
func Gesv[T scalar.Type](op string, a, b views.View[T], opts ...lapis.Option) (failed map[int]int, err error) {
	if err := checkRuns(op, []string{"a", "b"}, a, b); err != nil {
		return nil, err
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
	}
	if err := operand.CheckOutput(op, "a", a, ""); err != nil {
		return nil, err
	}
	if err := operand.CheckOutput(op, "b", b, "a", a); err != nil {
		return nil, err
	}
	if count == 0 || n == 0 {
		return nil, nil
	}
	cfg := lapis.Configure(opts...)
	var ra, rb run[T]
	err = ra.output(op, "a", a, true, cfg)
	if err == nil {
		err = rb.output(op, "b", b, true, cfg)
	}
	if err == nil {
		err = operand.LAPACKInts(op, "a", n, nrhs, ra.LD, rb.LD)
	}
	if err != nil {
		ra.release()
		rb.release()
		return nil, err
	}
	info := pool.Get[int32](count)
	defer pool.Put(info)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, float64(n)*float64(n)*float64(n+nrhs)) // each system decides alone
	if n <= clib.GesvSmallMax && nrhs <= 1<<31-1 {                             // the small loop counts in C ints
		clib.GesvSmall[T](count, n, nrhs, ra.Strided, rb.Strided, info.Data)
	} else {
		gesvLoop[T](count, n, nrhs, ra.Strided, rb.Strided, info.Data)
	}
	th.End()
	ra.finish()
	rb.finish()
	for t, x := range info.Data {
		if x != 0 {
			if failed == nil {
				failed = map[int]int{}
			}
			failed[t] = int(x)
		}
	}
	return failed, nil
}

// gesvLoop is clib.GesvLoop with a pivot array of the LAPACK integer.
func gesvLoop[T scalar.Type](count, n, nrhs int, a, b clib.Strided, info []int32) {
	if clib.LAPACKIntBits == 32 {
		ipiv := pool.Get[int32](n)
		clib.GesvLoop[T](count, n, nrhs, a, b, unsafe.Pointer(&ipiv.Data[0]), info)
		pool.Put(ipiv)
		return
	}
	ipiv := pool.Get[int64](n)
	clib.GesvLoop[T](count, n, nrhs, a, b, unsafe.Pointer(&ipiv.Data[0]), info)
	pool.Put(ipiv)
}
