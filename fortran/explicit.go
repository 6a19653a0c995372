package fortran

import (
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
)

// Array is an explicit-shape argument as an F77 routine declares it:
// a(LD, Cols) (Count 1) or a(LD, Cols, Count), the matrices one after
// another LD*Cols elements apart, each Rows x Cols with leading dimension
// LD >= max(1, Rows). A rank-0 view is 1 x 1, a rank-1 view of length n is
// n x 1, and the batch axes of a rank >= 3 view [M, N, B...] make Count
// the product of B....
//
// Ptr is element (1, 1, 1): the view's own memory whenever Fortran can
// address it as it is, else a copy (see Explicit); nil when the array has
// no elements. It is valid during the call it is handed to only: Fortran
// must not keep it (see the package docs for memory that outlives a call).
// The extents are Go ints; converting them to the routine's integer kind
// (integer*4 for gfortran's default integer) is the caller's, as is
// checking that they fit.
type Array struct {
	Ptr            unsafe.Pointer
	Rows, Cols, LD int
	Count          int
}

// Explicit calls call with a as explicit-shape arrays, so that the call
// site of an F77 routine is one line:
//
//	err := fortran.Explicit(fortran.InOut(v), func(a fortran.Array) { C.scale_(...) })
//
// Zero copies when Fortran can address the view as it is: its matrices
// column-major with any leading dimension (packed, ld > rows, a column
// slice, one matrix of a batch), unconjugated. A batch goes as one
// a(LD, Cols, Count) when every matrix follows the previous one LD*Cols
// elements on (in column-major order of the batch axes), otherwise call is
// called once per matrix, in column-major order of the batch indices,
// each with Count 1 (a broadcast batch axis, read-only, hands the same
// matrix more than once). Any other view (row-major, reversed, General,
// conjugated) is copied into a compact column-major scratch array: loaded
// before call for In and InOut, copied back after it for Out and InOut,
// counted in lapis.ReadStats().Copies; call is then called once.
//
// Errors, before call runs: the zero View (layout.ErrBounds), a view of a
// released tensor (lapis.ErrReleased), a written
// view whose elements share memory (layout.ErrOverlap), a copy refused in
// strict mode (lapis.ErrCopyRefused, naming the layout).
func Explicit(a Arg, call func(Array), opts ...lapis.Option) error {
	// Small enough to inline: where call is a known function, the compiler
	// then calls it directly.
	if p, rows, cols, ld, count := a.array(); ld > 0 {
		call(Array{Ptr: p, Rows: rows, Cols: cols, LD: ld, Count: count})
		return nil
	}
	return explicit(&a, call, opts)
}

// array is Explicit's common case, without calls: for a view that is
// unconjugated, not empty, column-major (any leading dimension) and whose
// batch axes follow each other LD*Cols elements apart, it returns the
// fields of its one Array; otherwise ld 0, and explicit decides. Such a
// view's elements cannot overlap (each axis steps past all the earlier
// ones reach), so an Out or InOut view needs no further check. (Separate
// results, not an Array and a bool: the compiler would store those to
// memory and copy them with wider loads, which stall.)
func (a *Arg) array() (p unsafe.Pointer, rows, cols, ld, count int) {
	data, _, l, conj := a.view()
	if l == nil || conj || data == nil {
		return nil, 0, 0, 0, 0
	}
	shape, strides := l.Axes()
	if len(strides) != len(shape) {
		return nil, 0, 0, 0, 0
	}
	rows, cols = 1, 1
	s0, s1 := 0, 0
	if len(shape) > 0 {
		rows, s0 = shape[0], strides[0]
	}
	if len(shape) > 1 {
		cols, s1 = shape[1], strides[1]
	}
	if rows == 0 || cols == 0 {
		return nil, 0, 0, 0, 0
	}
	ld, ok := layout.LeadingDim(rows, cols, s0, s1)
	if !ok {
		return nil, 0, 0, 0, 0
	}
	whole := ld * cols // the stride the next batch axis must have
	count = 1
	for k := 2; k < len(shape); k++ {
		d := shape[k]
		if d == 1 {
			continue
		}
		if d == 0 || strides[k] != whole {
			return nil, 0, 0, 0, 0
		}
		whole *= d
		count *= d
	}
	return unsafe.Add(data, l.Origin()*int(a.size)), rows, cols, ld, count
}

// explicit is Explicit for every view: the copies, the errors, and the
// batches called matrix by matrix.
func explicit(a *Arg, call func(Array), opts []lapis.Option) error {
	const op = "fortran.Explicit"
	if err := a.live(op, "a"); err != nil {
		return err
	}
	data, _, l, conj := a.view()
	if isZero(data, l) {
		return noData(op, "a")
	}
	// The layout is read in place (Axes, MatrixRef): a call of a Layout
	// value method copies it.
	shape, strides := l.Axes()
	if a.intent&intentOut != 0 {
		if ok, _ := disjoint(l, shape, strides); !ok {
			return overlapErr(op, "a", l)
		}
	}
	m, ok := l.MatrixRef()
	count := 1
	for _, e := range shape[min(2, len(shape)):] {
		count *= e
	}
	if ok && !m.Trans && !conj {
		p := first(data, l, a.size)
		whole := m.LD * m.Cols // the stride a contiguous batch axis has
		for k := 2; k < len(shape); k++ {
			if shape[k] == 1 {
				continue
			}
			if strides[k] != whole {
				whole = -1
				break
			}
			whole *= shape[k]
		}
		if whole >= 0 || p == nil {
			call(Array{Ptr: p, Rows: m.Rows, Cols: m.Cols, LD: m.LD, Count: count})
			return nil
		}
		size := int(a.size)
		eachMatrix(shape[2:], strides[2:], func(off int) {
			call(Array{Ptr: unsafe.Add(p, off*size), Rows: m.Rows, Cols: m.Cols, LD: m.LD, Count: 1})
		})
		return nil
	}
	why := "a row-major or General view (Fortran reads columns)"
	if conj {
		why = "a conjugated view"
	}
	sc, err := a.copyOf(op, "a", why, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	rows, cols := 1, 1
	if len(shape) > 0 {
		rows = shape[0]
	}
	if len(shape) > 1 {
		cols = shape[1]
	}
	call(Array{Ptr: sc.ptr(), Rows: rows, Cols: cols, LD: max(1, rows), Count: count})
	sc.finish()
	return nil
}

// eachMatrix calls f with the offset (in elements, from the first) of
// every index of the batch axes (extents shape, strides strides), in
// column-major order. Every extent is > 0.
func eachMatrix(shape, strides []int, f func(off int)) {
	var idx [64]int
	off := 0
	for {
		f(off)
		k := 0
		for ; k < len(shape); k++ {
			idx[k]++
			off += strides[k]
			if idx[k] < shape[k] {
				break
			}
			off -= idx[k] * strides[k]
			idx[k] = 0
		}
		if k == len(shape) {
			return
		}
	}
}
