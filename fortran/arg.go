package fortran

import (
	"strings"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Scalar is the set of element types a view handed to Fortran may hold:
// real(c_float), real(c_double), complex(c_float_complex) and
// complex(c_double_complex).
type Scalar = views.Scalar

// intent says whether Fortran reads an argument, writes it, or both; it
// decides which way a copy goes when one is needed.
type intent uint8

const (
	intentIn intent = 1 << iota
	intentOut
	intentInOut = intentIn | intentOut
)

// Element kinds, as the C layer numbers them (lapis_fortran.h) for the
// four Scalar types; the integer and logical kinds are explicit-shape
// only.
const (
	kindFloat32 = iota
	kindFloat64
	kindComplex64
	kindComplex128
	kindInt32
	kindInt64
	kindLogical
)

// kindNames name the kinds in messages.
var kindNames = [...]string{"float32", "float64", "complex64", "complex128", "int32", "int64", "fortran.Logical"}

// Logical is gfortran's default LOGICAL (4 bytes, the size of its
// default INTEGER): .FALSE. is 0 and .TRUE. is 1. LOGICAL(c_bool) and
// LOGICAL(1) are one byte and are not this type.
type Logical int32

// Elem is the set of element types an explicit-shape array may hold: the
// four Scalar types, INTEGER*4 (int32), INTEGER*8 (int64) and LOGICAL
// (Logical).
type Elem interface {
	Scalar | int32 | int64 | Logical
}

// Arg is a view (or a Go slice) with the intent of the dummy argument it
// is handed to. Make it with In, Out, InOut or Slice, as the argument of
// the call that uses it (fortran.Call1(f, fortran.InOut(v))); it does
// nothing until a call uses it.
//
// It is four words: the address of the view In, Out or InOut was given
// (their parameter, a copy of the caller's view; for Slice, of the
// slice), its element type and the intent in one, and the name Named
// gives it (errors take a copy of the name, so that the view does not
// escape through them). Nothing else is copied: the call reads the
// view's layout in place. Where In, Out and InOut are inlined (they are small enough to be
// everywhere the compiler inlines at all) that copy of the view stays on
// the caller's stack; an Arg kept beyond the call, or made where the
// compiler does not inline (a function of over 5,000 nodes inlines only
// the smallest callees), makes the compiler put the copy on the heap
// instead, one allocation of about 200 bytes.
type Arg struct {
	v      unsafe.Pointer // *views.View[T], or *[]T when slice, T the element type kind names
	kind   uint8
	size   uint8 // bytes per element
	intent intent
	slice  bool   // made by Slice: a Go slice, not a view
	name   string // set by Named: what errors call it
}

// Named returns a with a name, which errors about it use (the dummy
// argument's name, "resid", "iparam"), in place of its position.
func (a Arg) Named(name string) Arg {
	a.name = name
	return a
}

// nameOr returns a's name, or def when Named gave it none. The name is
// a copy, so that an error holding it does not make the compiler move
// the Arg, and the view it points to, to the heap.
func (a *Arg) nameOr(def string) string {
	if a.name != "" {
		return strings.Clone(a.name)
	}
	return def
}

// Slice is s as an explicit-shape array a(n) (n = len(s)) that Fortran
// reads and writes, in place: any Elem, the integer and logical arrays
// of F77 interfaces (iparam, ipntr, select) among them. It goes to
// Explicit and ExplicitN only (Call1 ... Call4 and Describe refuse it
// with lapis.ErrInvalid), never copied; an empty s is a nil pointer.
func Slice[T Elem](s []T) Arg {
	return Arg{v: unsafe.Pointer(&s), kind: elemKind[T](), size: uint8(unsafe.Sizeof(*new(T))), intent: intentInOut, slice: true}
}

// elemKind returns the kind of T.
func elemKind[T Elem]() uint8 {
	switch any(*new(T)).(type) {
	case float32:
		return kindFloat32
	case float64:
		return kindFloat64
	case complex64:
		return kindComplex64
	case complex128:
		return kindComplex128
	case int32:
		return kindInt32
	case int64:
		return kindInt64
	}
	return kindLogical
}

// In is v as an argument Fortran only reads (intent(in)). A view Fortran
// cannot address as it is goes as a copy, made before the call.
func In[T Scalar](v views.View[T]) Arg { return argOf(&v, intentIn) }

// Out is v as an argument Fortran only writes (intent(out)). A view
// Fortran cannot address as it is goes as a zeroed copy that is copied
// back into v after the call; a view whose elements share memory (a
// broadcast) is an error matching layout.ErrOverlap.
func Out[T Scalar](v views.View[T]) Arg { return argOf(&v, intentOut) }

// InOut is v as an argument Fortran reads and writes (intent(inout)), with
// Out's rules; a copy is loaded before the call and copied back after.
func InOut[T Scalar](v views.View[T]) Arg { return argOf(&v, intentInOut) }

func argOf[T Scalar](v *views.View[T], in intent) Arg {
	var z T
	return Arg{v: unsafe.Pointer(v), kind: kindOf(z), size: uint8(unsafe.Sizeof(z)), intent: in}
}

// kindOf returns the kind of T from its size and alignment alone, which
// tell the four apart (4/4 float32, 8/8 float64, 8/4 complex64, 16/8
// complex128) and are constants of each instantiation, so that In, Out
// and InOut stay small enough to inline.
func kindOf[T Scalar](z T) uint8 {
	return uint8(2*unsafe.Sizeof(z)/unsafe.Alignof(z) + unsafe.Alignof(z)/4 - 3)
}

// view returns a's view: the address of element 0 of its slice (nil for
// an empty slice) and the slice's length, its layout (the view's own,
// read in place: it must not be written) and its conjugation flag. The
// zero Arg returns a nil layout, and so does a view of a released tensor:
// the fast paths (direct, array) then leave it to plan and explicit,
// which report it (live) before anything is read or written.
func (a *Arg) view() (data unsafe.Pointer, n int, l *layout.Layout, conj bool) {
	if a.v == nil || a.slice {
		return nil, 0, nil, false
	}
	switch a.kind {
	case kindFloat32:
		return partsOf((*views.View[float32])(a.v))
	case kindFloat64:
		return partsOf((*views.View[float64])(a.v))
	case kindComplex64:
		return partsOf((*views.View[complex64])(a.v))
	}
	return partsOf((*views.View[complex128])(a.v))
}

func partsOf[T Scalar](v *views.View[T]) (unsafe.Pointer, int, *layout.Layout, bool) {
	if v.CheckLive("", "") != nil {
		return nil, 0, nil, false
	}
	d, l, conj := v.Ref()
	return unsafe.Pointer(unsafe.SliceData(d)), len(d), l, conj
}

// live returns the error for a's view when it is a view of a released
// tensor (views.View.CheckLive: lapis.ErrReleased, naming name), nil
// otherwise and for the zero Arg.
func (a *Arg) live(op, name string) error {
	switch {
	case a.v == nil, a.slice:
		return nil
	case a.kind == kindFloat32:
		return (*views.View[float32])(a.v).CheckLive(op, name)
	case a.kind == kindFloat64:
		return (*views.View[float64])(a.v).CheckLive(op, name)
	case a.kind == kindComplex64:
		return (*views.View[complex64])(a.v).CheckLive(op, name)
	}
	return (*views.View[complex128])(a.v).CheckLive(op, name)
}

// noData is the error for the zero View (and the zero Arg), which no call
// can take.
func noData(op, name string) error {
	return layout.Errorf(layout.ErrBounds, op, name, "the zero View has no data (make views with views.FromSlice or Tensor.View, and arguments with In, Out or InOut)")
}

// isZero reports whether data and l are the zero View's (or l is nil: the
// zero Arg).
func isZero(data unsafe.Pointer, l *layout.Layout) bool {
	if l == nil {
		return true
	}
	shape, _ := l.Axes()
	return data == nil && len(shape) == 0
}

// overlapErr is the error for an Out or InOut argument whose elements
// share memory.
func overlapErr(op, name string, l *layout.Layout) error {
	return layout.Errorf(layout.ErrOverlap, op, name, "%s has indices sharing an element (a broadcast view?); it is never handed to Fortran as writable", l.String())
}

// first returns the address of element 0 of the view of data and l (nil
// when the view has no elements).
func first(data unsafe.Pointer, l *layout.Layout, size uint8) unsafe.Pointer {
	// Through pointers only: a call of a Layout value method copies the
	// layout.
	shape, _ := l.Axes()
	for _, d := range shape {
		if d == 0 {
			return nil
		}
	}
	if data == nil {
		return nil
	}
	return unsafe.Add(data, l.Origin()*int(size))
}

// A scratch is a compact column-major copy standing in for an argument
// during a call: loaded before it (intent in), copied back after it
// (intent out), counted in policy.Copies.
type scratch interface {
	ptr() unsafe.Pointer // element 0 of the copy (nil when empty)
	finish()             // copy back (intent out) and release
}

// copyOf makes a's scratch copy, or refuses it in strict mode (why says
// what needs the copy).
func (a *Arg) copyOf(op, name, why string, cfg lapis.Config) (scratch, error) {
	data, n, l, conj := a.view()
	if cfg.Strict {
		return nil, layout.Errorf(lapis.ErrCopyRefused, op, name, "%s (%s, class %v) needs a copy and strict mode is on", why, l.String(), l.Class())
	}
	policy.Copies.Add(1)
	back := a.intent&intentOut != 0
	load := a.intent&intentIn != 0
	switch a.kind {
	case kindFloat32:
		return newCopy[float32](data, n, l, conj, load, back), nil
	case kindFloat64:
		return newCopy[float64](data, n, l, conj, load, back), nil
	case kindComplex64:
		return newCopy[complex64](data, n, l, conj, load, back), nil
	}
	return newCopy[complex128](data, n, l, conj, load, back), nil
}

type copyT[T Scalar] struct {
	dst  views.View[T]
	t    *views.Tensor[T]
	back bool
}

func newCopy[T Scalar](data unsafe.Pointer, n int, l *layout.Layout, conj, load, back bool) *copyT[T] {
	v, err := views.FromSlice(unsafe.Slice((*T)(data), n), *l)
	if err != nil {
		panic("fortran: an Arg's view no longer fits its data: " + err.Error()) // made from a valid view: cannot happen
	}
	if conj {
		v = v.Conj()
	}
	c := &copyT[T]{dst: v, back: back}
	if load {
		c.t = v.ToColMajor()
	} else {
		c.t, _ = views.Zeros[T](v.Shape()...) // the view's shape is valid
	}
	return c
}

func (c *copyT[T]) ptr() unsafe.Pointer {
	if c.t.Len() == 0 {
		return nil
	}
	return unsafe.Pointer(&c.t.Data()[0])
}

func (c *copyT[T]) finish() {
	if c.back {
		_ = views.Copy(c.dst, c.t.View()) // same shape; dst checked for overlap
	}
	c.t.Release()
}

// String names the intent as In, Out and InOut make it.
func (i intent) String() string {
	switch i {
	case intentIn:
		return "In"
	case intentOut:
		return "Out"
	}
	return "InOut"
}

// span returns the byte addresses of the first and last byte a's view
// can reach (ok false for the zero Arg and an empty view).
func (a *Arg) span() (lo, hi uintptr, ok bool) {
	if a.slice {
		s := (*[]byte)(a.v) // only the address and the length are read
		if len(*s) == 0 {
			return 0, 0, false
		}
		base := uintptr(unsafe.Pointer(unsafe.SliceData(*s)))
		return base, base + uintptr(len(*s))*uintptr(a.size) - 1, true
	}
	data, _, l, _ := a.view()
	if l == nil || data == nil || l.Len() == 0 {
		return 0, 0, false
	}
	first, last, _ := l.Span()
	size := uintptr(a.size)
	base := uintptr(data)
	return base + uintptr(first)*size, base + uintptr(last)*size + size - 1, true
}

// checkAliases refuses arguments that share memory when Fortran writes
// either (F2018 15.5.2.13 forbids it: gfortran's matmul, for one, zeroes
// its result before it has read an argument that aliases it), judged by
// address range as cblas judges it; errors call args[i] by its name, or
// def(i).
func checkAliases(op string, args []Arg, def func(i int) string) error {
	for i := range args {
		a := &args[i]
		alo, ahi, aok := a.span()
		for j := i + 1; j < len(args) && aok; j++ {
			b := &args[j]
			if a.intent&intentOut == 0 && b.intent&intentOut == 0 {
				continue
			}
			if blo, bhi, bok := b.span(); bok && alo <= bhi && blo <= ahi {
				ni, nj := a.nameOr(def(i)), b.nameOr(def(j))
				return layout.Errorf(layout.ErrOverlap, op, ni+", "+nj, "arguments %s (%s) and %s (%s) share memory, and Fortran writes one of them: Fortran forbids aliasing a written argument; pass separate memory", ni, a.intent, nj, b.intent)
			}
		}
	}
	return nil
}
