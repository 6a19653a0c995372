package fortran

/*
#cgo LDFLAGS: -lgfortran
#cgo noescape lapis_fcall
#cgo nocallback lapis_fcall
#cgo noescape lapis_fcall1
#cgo nocallback lapis_fcall1
#cgo noescape lapis_fdesc
#cgo nocallback lapis_fdesc
#include <stdlib.h>
#include "lapis_fortran.h"
*/
import "C"

import (
	"runtime"
	"slices"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
)

// MaxRank is the highest rank a C descriptor can have with the compiler
// lapis was built with (CFI_MAX_RANK: 15 for gfortran).
const MaxRank = int(C.CFI_MAX_RANK)

// argNames name the arguments of Call1 ... Call4 in errors.
var argNames = [4]string{"a", "b", "c", "d"}

// The C side reads a layout's extents and strides (Go ints) in place as
// CFI_index_t (ptrdiff_t): they must be the same size.
var _ [unsafe.Sizeof(C.CFI_index_t(0)) - unsafe.Sizeof(int(0))]struct{}
var _ [unsafe.Sizeof(int(0)) - unsafe.Sizeof(C.CFI_index_t(0))]struct{}

// handed is what lapis_fdesc reads to describe one argument: the address
// of its element 0, kind | rank<<2, and its extents and strides (strides
// nil: contiguous), pointing into the layout of the view the Arg points
// to (the copy In, Out or InOut made).
type handed struct {
	base     unsafe.Pointer
	kr       C.int
	ext, str *C.CFI_index_t
}

// plan returns what describes a to C: the view itself whenever a C
// descriptor can (its strides nonzero, its elements disjoint, not
// conjugated), else a copy sc (finish it after the call). A view that
// cannot be handed over returns the error. It reads the view's layout in
// place (Layout.Axes, Layout.Origin): a call of a Layout value method
// copies the layout, which costs more than the rest of the plan.
func (a *Arg) plan(op, def string, opts []lapis.Option) (h handed, sc scratch, err error) {
	if a.slice {
		return h, nil, layout.Errorf(lapis.ErrInvalid, op, a.nameOr(def), "a Slice is an explicit-shape array: pass it to Explicit or ExplicitN, or make a view of it (views.FromColMajor) for a descriptor")
	}
	data, _, l, conj := a.view()
	if isZero(data, l) { // view gives no layout for a view of a released tensor
		if err := a.live(op, a.nameOr(def)); err != nil {
			return h, nil, err
		}
		return h, nil, noData(op, a.nameOr(def))
	}
	shape, strides := l.Axes()
	if len(shape) > MaxRank {
		return h, nil, layout.Errorf(layout.ErrShape, op, a.nameOr(def), "rank %d is above the compiler's CFI_MAX_RANK (%d)", len(shape), MaxRank)
	}
	h.kr = C.int(int(a.kind) | len(shape)<<2)
	if len(shape) > 0 {
		h.ext = (*C.CFI_index_t)(unsafe.Pointer(&shape[0]))
	}
	if !conj {
		if ok, empty := disjoint(l, shape, strides); ok {
			if !empty && data != nil {
				h.base = unsafe.Add(data, l.Origin()*int(a.size))
			}
			if len(shape) > 0 {
				h.str = (*C.CFI_index_t)(unsafe.Pointer(&strides[0]))
			}
			return h, nil, nil
		}
		if a.intent&intentOut != 0 {
			return h, nil, overlapErr(op, a.nameOr(def), l)
		}
	}
	why := "a view whose elements share memory (broadcast)"
	if conj {
		why = "a conjugated view"
	}
	if sc, err = a.copyOf(op, a.nameOr(def), why, lapis.Configure(opts...)); err != nil {
		return h, nil, err
	}
	h.base = sc.ptr()
	return h, sc, nil
}

// direct is plan's common case, in a few instructions: it returns h and
// true when a's view is unconjugated, of rank at most MaxRank, not empty,
// and proved disjoint by disjoint's one pass (columnOrder)
// (axes in column-major order of |stride|: compact, ld > rows, slices,
// steps, reversed axes, batches). Otherwise it returns false and plan
// decides (permuted axes, broadcasts, conjugated, empty and zero views,
// errors).
func (a *Arg) direct() (h handed, ok bool) {
	data, _, l, conj := a.view()
	if l == nil || conj || data == nil {
		return h, false
	}
	shape, strides := l.Axes()
	if len(shape) > MaxRank || len(strides) != len(shape) {
		return h, false
	}
	if columnOrder(shape, strides) != len(shape) {
		return h, false
	}
	h.base = unsafe.Add(data, l.Origin()*int(a.size))
	h.kr = C.int(int(a.kind) | len(shape)<<2)
	if len(shape) > 0 {
		h.ext = (*C.CFI_index_t)(unsafe.Pointer(&shape[0]))
		h.str = (*C.CFI_index_t)(unsafe.Pointer(&strides[0]))
	}
	return h, true
}

// disjoint reports whether no two indices of the view l (extents shape,
// strides strides) share an element, and whether it has no elements. The
// common views (axes in column-major order: compact, ld > rows, slices,
// steps, reversed axes, batches) are proved disjoint in one pass over the
// axes in their own order, each |stride| stepping past everything the
// earlier axes reach; the others (permuted axes, broadcasts) go to
// l.HasOverlap, which sorts the axes first. The sum cannot overflow: it
// is at most the distance between the view's lowest and highest element,
// both inside its slice (views.FromSlice checks that of every non-empty
// view); an empty one (an extent 0) ends the loop as soon as it is seen.
func disjoint(l *layout.Layout, shape, strides []int) (ok, empty bool) {
	switch k := columnOrder(shape, strides); {
	case k == len(shape):
		return true, false
	case shape[k] == 0:
		return true, true
	default:
		return !l.HasOverlap(), slices.Contains(shape[k:], 0)
	}
}

// columnOrder is disjoint's one pass: it returns len(shape) when every
// axis of extent above one steps, by |stride|, past everything the axes
// before it reach (the elements are disjoint), else the axis where the
// pass stops: an extent 0 (the view is empty) or a stride that does not
// step past.
func columnOrder(shape, strides []int) int {
	reach := 0 // largest offset difference the axes so far reach
	for k, d := range shape {
		if d <= 1 {
			if d == 0 {
				return k
			}
			continue
		}
		s := strides[k]
		if s < 0 {
			s = -s
		}
		if s <= reach {
			return k
		}
		reach += (d - 1) * s
	}
	return len(shape)
}

// Call1 calls the bind(C) routine fn with a C descriptor of a, for an
// assumed-shape (or assumed-rank) dummy argument:
//
//	subroutine f(a) bind(C)           ! void f(CFI_cdesc_t *a);
//	  real(c_double), intent(inout) :: a(:,:,:)
//
//	err := fortran.Call1(unsafe.Pointer(C.f), fortran.InOut(v))
//
// The descriptor is built in C, on the C stack, in the same cgo call that
// calls fn, from the view's own extents and strides (read in place, see
// the package docs for how it is filled), so the hand-off costs one cgo
// call and no allocation, and no Go pointer outlives the call. fn must not call back into Go (the call is
// made with cgo's nocallback; use Describe for routines that do, or that
// take other arguments).
//
// Zero copies for every view whose strides are nonzero and whose elements
// do not overlap: packed, ld > rows, row-major (a transpose), permuted,
// sliced with any step, reversed (negative strides), batches. Broadcast
// (stride 0) and other overlapping views, In only, and conjugated views
// are copied into compact column-major scratch arrays (loaded for In and
// InOut, copied back for Out and InOut), counted in
// lapis.ReadStats().Copies, or refused in strict mode.
//
// Errors, before fn runs, naming the argument (a ... d, or its Named
// name): a nil fn or a Slice argument (lapis.ErrInvalid), the zero View
// (layout.ErrBounds), an Out or InOut view whose elements share memory,
// or (Call2 to Call4) arguments that share memory when one is Out or
// InOut, which Fortran forbids (layout.ErrOverlap, naming both), a rank above
// MaxRank (layout.ErrShape), a copy refused in strict mode
// (lapis.ErrCopyRefused), and a descriptor the Fortran runtime's CFI functions
// refuse (layout.ErrShape, with their error code).
func Call1(fn unsafe.Pointer, a Arg, opts ...lapis.Option) error {
	// Small enough to inline.
	return call1(fn, &a, opts)
}

// call1 is Call1 without call's loops and arrays: one argument, the
// common case.
func call1(fn unsafe.Pointer, a *Arg, opts []lapis.Option) (err error) {
	const op = "fortran.Call1"
	if fn == nil {
		return nilFn(op)
	}
	var sc scratch
	h, ok := a.direct()
	if !ok {
		if h, sc, err = a.plan(op, "a", opts); err != nil {
			return err
		}
	}
	var rc C.int
	C.lapis_fcall1(C.uintptr_t(uintptr(fn)), h.kr, (*C.char)(h.base), h.ext, h.str, &rc)
	runtime.KeepAlive(a.v)
	if rc != 0 {
		err = cfiErr(op, a.nameOr("a"), int(rc/8))
	}
	if sc != nil {
		finish(sc, err)
	}
	return err
}

// Call2 is Call1 for void fn(CFI_cdesc_t *a, CFI_cdesc_t *b).
func Call2(fn unsafe.Pointer, a, b Arg, opts ...lapis.Option) error {
	return call("fortran.Call2", fn, [4]*Arg{&a, &b}, 2, opts)
}

// Call3 is Call1 for three descriptors.
func Call3(fn unsafe.Pointer, a, b, c Arg, opts ...lapis.Option) error {
	return call("fortran.Call3", fn, [4]*Arg{&a, &b, &c}, 3, opts)
}

// Call4 is Call1 for four descriptors.
func Call4(fn unsafe.Pointer, a, b, c, d Arg, opts ...lapis.Option) error {
	return call("fortran.Call4", fn, [4]*Arg{&a, &b, &c, &d}, 4, opts)
}

// call hands args[:n] to fn in one cgo call.
func call(op string, fn unsafe.Pointer, args [4]*Arg, n int, opts []lapis.Option) (err error) {
	if fn == nil {
		return nilFn(op)
	}
	var vals [4]Arg // copies of the four words: a slice of the pointers would move the views to the heap
	for i, a := range args[:n] {
		vals[i] = *a
	}
	if err := checkAliases(op, vals[:n], func(i int) string { return argNames[i] }); err != nil {
		return err
	}
	var h [4]handed
	var sc [4]scratch
	i := 0
	for ; i < n; i++ {
		var ok bool
		if h[i], ok = args[i].direct(); ok {
			continue
		}
		if h[i], sc[i], err = args[i].plan(op, argNames[i], opts); err != nil {
			break
		}
	}
	if err == nil {
		rc := C.lapis_fcall(C.int(n), C.uintptr_t(uintptr(fn)),
			h[0].kr, (*C.char)(h[0].base), h[0].ext, h[0].str,
			h[1].kr, (*C.char)(h[1].base), h[1].ext, h[1].str,
			h[2].kr, (*C.char)(h[2].base), h[2].ext, h[2].str,
			h[3].kr, (*C.char)(h[3].base), h[3].ext, h[3].str)
		for _, a := range args[:n] {
			runtime.KeepAlive(a.v)
		}
		if rc != 0 {
			err = cfiErr(op, args[rc%8].nameOr(argNames[rc%8]), int(rc/8))
		}
	}
	for _, c := range sc[:i] {
		if c != nil {
			finish(c, err)
		}
	}
	return err
}

// finish ends a copy made for a call: copied back (Out, InOut) and
// released, or only released when the call failed (err != nil) and did
// not run.
func finish(sc scratch, err error) {
	if err != nil {
		sc = dropBack(sc)
	}
	sc.finish()
}

// dropBack returns sc set not to copy back (the call did not happen).
func dropBack(sc scratch) scratch {
	type backer interface{ noBack() }
	if b, ok := sc.(backer); ok {
		b.noBack()
	}
	return sc
}

func (c *copyT[T]) noBack() { c.back = false }

// nilFn is the error for a nil routine: calling it would jump to address 0.
func nilFn(op string) error {
	return layout.Errorf(lapis.ErrInvalid, op, "fn", "nil routine (take its address with C's &name, or dlsym)")
}

func cfiErr(op, name string, rc int) error {
	return layout.Errorf(layout.ErrShape, op, name, "the Fortran runtime refused the C descriptor (CFI error code %d)", rc)
}

// Desc is a C descriptor (CFI_cdesc_t) of a view, in C memory, for
// routines Call1 ... Call4 do not fit: other arguments besides the
// descriptors, or routines that call back into Go. Its memory and the
// view's stay valid, the view's pinned (runtime.Pinner), until Done.
type Desc struct {
	p   unsafe.Pointer // C memory holding a CFI_CDESC_T(CFI_MAX_RANK)
	pin runtime.Pinner
	sc  scratch
	// mem keeps the view's memory (or the copy's) reachable, and makes
	// it escape: lapis_fdesc is noescape (its extents and strides point
	// into the view's layout on the stack and are read during the call
	// only), but the descriptor it fills keeps base after it returns, so
	// base must be heap memory, which storing it here ensures.
	mem unsafe.Pointer
}

// Describe returns a C descriptor of a, made as Call1 makes it (zero
// copies and copies by the same rules, with the same errors, named
// fortran.Describe), in C memory, with the memory it points to pinned
// until Done:
//
//	d, err := fortran.Describe(fortran.In(v))
//	if err != nil { ... }
//	C.f((*C.CFI_cdesc_t)(d.Ptr()), &n)
//	d.Done()
//
// It costs a C allocation and a pin more than Call1 (docs/bench/fortran.md,
// "The hand-off").
func Describe(a Arg, opts ...lapis.Option) (*Desc, error) {
	const op = "fortran.Describe"
	h, sc, err := a.plan(op, "a", opts)
	if err != nil {
		return nil, err
	}
	d := &Desc{sc: sc, mem: h.base}
	if h.base != nil {
		d.pin.Pin(h.base) // does nothing for C memory (CTensor)
	}
	d.p = C.malloc(C.size_t(unsafe.Sizeof(C.lapis_fdesc_t{})))
	if rc := C.lapis_fdesc((*C.CFI_cdesc_t)(d.p), h.base, h.kr, h.ext, h.str); rc != 0 {
		d.free(false)
		return nil, cfiErr(op, a.nameOr("a"), int(rc))
	}
	return d, nil
}

// Ptr returns the descriptor's address, a CFI_cdesc_t * for C
// ((*C.CFI_cdesc_t)(d.Ptr()) in the caller's cgo code). It is valid until
// Done.
func (d *Desc) Ptr() unsafe.Pointer { return d.p }

// Done ends the descriptor's life: a copy is written back to the view
// (Out, InOut) and released, the view is unpinned and the descriptor's C
// memory freed. A second Done does nothing.
func (d *Desc) Done() { d.free(true) }

func (d *Desc) free(back bool) {
	if d.p == nil {
		return
	}
	C.free(d.p)
	d.p = nil
	d.pin.Unpin()
	if d.sc != nil {
		if !back {
			d.sc = dropBack(d.sc)
		}
		d.sc.finish()
		d.sc = nil
	}
}
