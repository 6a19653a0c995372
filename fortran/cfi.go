package fortran

/*
#cgo LDFLAGS: -lgfortran
#cgo noescape lapis_fcall
#cgo nocallback lapis_fcall
#include <stdlib.h>
#include "lapis_fortran.h"
*/
import "C"

import (
	"runtime"
	"unsafe"

	"github.com/lapis-go/lapis/internal/policy"
	"github.com/lapis-go/lapis/layout"
)

// MaxRank is the highest rank a C descriptor can have with the compiler
// lapis was built with (CFI_MAX_RANK: 15 for gfortran).
const MaxRank = int(C.CFI_MAX_RANK)

// argNames name the arguments of Call1 ... Call4 in errors.
var argNames = [4]string{"a", "b", "c", "d"}

// plan fills s to describe a, in place when a C descriptor can, and
// returns the address to hand with it. A view that needs a copy returns
// sc (its scratch copy: finish it after the call); one that cannot be
// handed over returns the error.
func (a *Arg) plan(op, name string, s *C.lapis_fspec, cfg policy.Config) (base unsafe.Pointer, sc scratch, err error) {
	if err := a.check(op, name); err != nil {
		return nil, nil, err
	}
	shape, strides := a.l.Axes()
	if len(shape) > MaxRank {
		return nil, nil, layout.Errorf(layout.ErrShape, op, name, "rank %d is above the compiler's CFI_MAX_RANK (%d)", len(shape), MaxRank)
	}
	s.kind, s.rank = C.int(a.kind), C.int(len(shape))
	if !a.conj {
		if base, ok := a.section(s, shape, strides); ok {
			return base, nil, nil
		}
		// Axes in an order a section cannot produce (permuted), or no
		// elements: the descriptor is filled with the view's own strides.
		overlap := a.l.HasOverlap()
		if overlap && a.intent&intentOut != 0 {
			return nil, nil, a.overlapErr(op, name)
		}
		if !overlap {
			s.mode = C.LAPIS_FILL
			for k := range shape {
				s.ext[k], s.str[k] = C.CFI_index_t(shape[k]), C.CFI_index_t(strides[k])
			}
			return a.first(), nil, nil
		}
	}
	why := "a view whose elements share memory (broadcast)"
	if a.conj {
		why = "a conjugated view"
	}
	if sc, err = a.copyOf(op, name, why, cfg); err != nil {
		return nil, nil, err
	}
	s.mode = C.LAPIS_COMPACT
	for k := range shape {
		s.ext[k] = C.CFI_index_t(shape[k])
	}
	return sc.ptr(), sc, nil
}

// section fills s when a's view is compact column-major (LAPIS_COMPACT),
// or a section of a compact column-major parent array with its axes in
// the same order (LAPIS_SECTION): every stride a multiple of the previous
// non-trivial axis's parent extent, any sign. It returns the address the
// descriptor starts from: the view's element 0, or the parent's, its
// lowest address.
func (a *Arg) section(s *C.lapis_fspec, shape, strides []int) (base unsafe.Pointer, ok bool) {
	if a.data == nil || a.l.Len() == 0 {
		return nil, false
	}
	compact, want := true, 1 // compact column-major so far; the stride it needs next
	p := 1                   // product of the parent's extents before the current axis
	prev, prevStep := -1, 0  // the previous axis of extent > 1 and its step in the parent
	lowest := a.l.Offset()   // offset of the lowest element
	for k, d := range shape {
		s.ext[k], s.lo[k], s.hi[k], s.st[k] = 1, 0, 0, 1
		if d == 1 {
			continue
		}
		st := strides[k]
		as := st
		if st < 0 {
			as = -st
			lowest += (d - 1) * st
		}
		compact = compact && st == want
		want *= d
		if prev >= 0 {
			// prev's parent extent makes the parent's stride of axis k |st|.
			if as%p != 0 || as/p < (shape[prev]-1)*prevStep+1 {
				return nil, false
			}
			s.ext[prev] = C.CFI_index_t(as / p)
			p = as
		}
		if as == 0 || as%p != 0 {
			return nil, false
		}
		step := as / p
		s.st[k] = C.CFI_index_t(step)
		if st < 0 {
			s.lo[k], s.st[k] = C.CFI_index_t((d-1)*step), C.CFI_index_t(-step)
		} else {
			s.hi[k] = C.CFI_index_t((d - 1) * step)
		}
		prev, prevStep = k, step
	}
	if prev >= 0 {
		s.ext[prev] = C.CFI_index_t((shape[prev]-1)*prevStep + 1)
	}
	if compact {
		s.mode = C.LAPIS_COMPACT
		for k, d := range shape {
			s.ext[k] = C.CFI_index_t(d)
		}
		return a.first(), true
	}
	s.mode = C.LAPIS_SECTION
	return unsafe.Add(a.data, lowest*int(a.size)), true
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
// calls fn (CFI_establish, and CFI_section for slices, steps and reversed
// axes), so the hand-off costs one cgo call and no allocation, and no Go
// pointer outlives the call. fn must not call back into Go (the call is
// made with cgo's nocallback; use Describe for routines that do, or that
// take other arguments).
//
// Zero copies for every view whose strides are nonzero and whose elements
// do not overlap: packed, ld > rows, row-major (a transpose), permuted,
// sliced with any step, reversed (negative strides), batches. Broadcast
// (stride 0) and other overlapping views, In only, and conjugated views
// are copied into compact column-major scratch arrays (loaded for In and
// InOut, copied back for Out and InOut), counted in
// cblas.ReadStats().Copies, or refused in strict mode.
//
// Errors, before fn runs: the zero View (layout.ErrBounds), an Out or
// InOut view whose elements share memory (layout.ErrOverlap), a rank above
// MaxRank (layout.ErrShape), a copy refused in strict mode
// (ErrCopyRefused), and a descriptor the Fortran runtime's CFI functions
// refuse (layout.ErrShape, with their error code).
func Call1(fn unsafe.Pointer, a Arg, opts ...Option) error {
	var s [1]C.lapis_fspec
	args := [1]*Arg{&a}
	return call("fortran.Call1", fn, args[:], s[:], opts)
}

// Call2 is Call1 for void fn(CFI_cdesc_t *a, CFI_cdesc_t *b).
func Call2(fn unsafe.Pointer, a, b Arg, opts ...Option) error {
	var s [2]C.lapis_fspec
	args := [2]*Arg{&a, &b}
	return call("fortran.Call2", fn, args[:], s[:], opts)
}

// Call3 is Call1 for three descriptors.
func Call3(fn unsafe.Pointer, a, b, c Arg, opts ...Option) error {
	var s [3]C.lapis_fspec
	args := [3]*Arg{&a, &b, &c}
	return call("fortran.Call3", fn, args[:], s[:], opts)
}

// Call4 is Call1 for four descriptors.
func Call4(fn unsafe.Pointer, a, b, c, d Arg, opts ...Option) error {
	var s [4]C.lapis_fspec
	args := [4]*Arg{&a, &b, &c, &d}
	return call("fortran.Call4", fn, args[:], s[:], opts)
}

func call(op string, fn unsafe.Pointer, args []*Arg, s []C.lapis_fspec, opts []Option) error {
	cfg := policy.Configure(opts)
	var base [4]unsafe.Pointer
	var sc [4]scratch
	release := func() {
		for _, c := range sc {
			if c != nil {
				c.finish()
			}
		}
	}
	for i, a := range args {
		var err error
		base[i], sc[i], err = a.plan(op, argNames[i], &s[i], cfg)
		if err != nil {
			for j := range i {
				if sc[j] != nil {
					sc[j] = dropBack(sc[j])
				}
			}
			release()
			return err
		}
	}
	rc := C.lapis_fcall(C.int(len(args)), C.uintptr_t(uintptr(fn)), &s[0], (*C.char)(base[0]), (*C.char)(base[1]), (*C.char)(base[2]), (*C.char)(base[3]))
	for _, a := range args {
		runtime.KeepAlive(a.data)
	}
	if rc != 0 {
		for j := range sc {
			if sc[j] != nil {
				sc[j] = dropBack(sc[j])
			}
		}
		release()
		return cfiErr(op, argNames[rc%8], int(rc/8))
	}
	release()
	return nil
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
	arg Arg // keeps the view's memory reachable
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
// It costs a C allocation and a pin more than Call1 (see the README's
// measurements).
func Describe(a Arg, opts ...Option) (*Desc, error) {
	const op = "fortran.Describe"
	var s C.lapis_fspec
	d := &Desc{arg: a}
	base, sc, err := d.arg.plan(op, "a", &s, policy.Configure(opts))
	if err != nil {
		return nil, err
	}
	d.sc = sc
	if base != nil {
		d.pin.Pin(base) // does nothing for C memory (CTensor)
	}
	d.p = C.malloc(C.size_t(unsafe.Sizeof(C.lapis_fdesc_t{})))
	if rc := C.lapis_fdesc((*C.CFI_cdesc_t)(d.p), base, &s); rc != 0 {
		d.free(false)
		return nil, cfiErr(op, "a", int(rc))
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
