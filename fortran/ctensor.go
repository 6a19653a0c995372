package fortran

/*
#include <stdlib.h>
*/
import "C"

import (
	"math/bits"
	"unsafe"

	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// CTensor is a compact column-major tensor whose buffer lives in C memory
// (calloc), for Fortran that keeps a pointer after a call returns (a
// module pointer, asynchronous work): C memory does not move, is not
// collected, and may be held by C across calls under cgo's rules. It
// embeds the *views.Tensor that adopts the buffer, so it is used wherever
// a views tensor is (t.View(), t.At, t.Tensor passed to cblas, lapack,
// batch, Call1, Explicit, ...). Free it when Fortran no longer holds it;
// Release (of the embedded tensor) only detaches it and would leak the
// memory.
type CTensor[T Scalar] struct {
	*views.Tensor[T]
	p unsafe.Pointer
}

// NewC returns a zeroed tensor of the given shape in C memory. Errors
// match layout.ErrShape (a negative extent) or layout.ErrOverflow (a size
// that does not fit), named fortran.NewC.
func NewC[T Scalar](shape ...int) (*CTensor[T], error) {
	const op = "fortran.NewC"
	l, err := layout.ColMajor(shape...)
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	var z T
	hi, bytes := bits.Mul(uint(l.Len()), uint(unsafe.Sizeof(z)))
	if hi != 0 || bytes > 1<<62 {
		return nil, layout.Errorf(layout.ErrOverflow, op, "shape", "%v elements of %d bytes do not fit in memory", shape, unsafe.Sizeof(z))
	}
	t := &CTensor[T]{}
	var data []T
	if l.Len() > 0 {
		t.p = C.calloc(C.size_t(l.Len()), C.size_t(unsafe.Sizeof(z)))
		if t.p == nil {
			return nil, layout.Errorf(layout.ErrOverflow, op, "shape", "calloc of %d bytes failed", bytes)
		}
		data = unsafe.Slice((*T)(t.p), l.Len())
	}
	t.Tensor, err = views.FromColMajor(data, shape...)
	if err != nil { // cannot happen: the length is the shape's
		t.Free()
		return nil, errop.Rename(err, op)
	}
	return t, nil
}

// Free releases the C memory and detaches the tensor (as Release: its
// At, Set and Data panic afterwards). Views taken before are views of a
// released tensor (every entry point returns an error matching
// lapis.ErrReleased); pointers Fortran kept and slices taken with Data
// must not be used after it. A second Free does nothing.
func (t *CTensor[T]) Free() {
	if t.p != nil {
		C.free(t.p)
		t.p = nil
	}
	if t.Tensor != nil {
		t.Tensor.Release()
	}
}
