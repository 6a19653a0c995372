package fortran

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/policy"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Scalar is the set of element types a view handed to Fortran may hold:
// real(c_float), real(c_double), complex(c_float_complex) and
// complex(c_double_complex).
type Scalar = views.Scalar

// Option changes one call: it is the same type as cblas.Option and
// lapack.Option.
type Option = policy.Option

// Strict(true) refuses copies in this call (the error matches
// cblas.ErrCopyRefused and names the argument), Strict(false) allows them,
// whatever cblas.SetStrict says for the process.
func Strict(on bool) Option { return policy.Strict(on) }

// ErrCopyRefused is matched by the error a call returns in strict mode
// when an argument would need a copy. It is cblas.ErrCopyRefused (the same
// value).
var ErrCopyRefused = policy.ErrCopyRefused

// intent says whether Fortran reads an argument, writes it, or both; it
// decides which way a copy goes when one is needed.
type intent uint8

const (
	intentIn intent = 1 << iota
	intentOut
	intentInOut = intentIn | intentOut
)

// Element kinds, as the C layer numbers them (lapis_fortran.h).
const (
	kindFloat32 = iota
	kindFloat64
	kindComplex64
	kindComplex128
)

// Arg is a view with the intent of the dummy argument it is handed to.
// Make it with In, Out or InOut; it holds the view (a few words and its
// layout) and does nothing until a call uses it.
type Arg struct {
	data   unsafe.Pointer // element 0 of the view's slice (nil: empty slice)
	n      int            // the slice's length
	l      layout.Layout
	conj   bool
	kind   uint8
	size   uint8 // bytes per element
	intent intent
	zero   bool // the zero views.View
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

func argOf[T Scalar](v *views.View[T], in intent) (a Arg) {
	// Through the pointer, the layout copied once: a View is about 200
	// bytes, and each copy of it (a call of a View method) costs about a
	// tenth of the C call.
	d, conj := v.Parts(&a.l)
	a.conj = conj
	a.data, a.n, a.intent = unsafe.Pointer(unsafe.SliceData(d)), len(d), in
	var z T
	a.size = uint8(unsafe.Sizeof(z))
	switch any(z).(type) {
	case float32:
		a.kind = kindFloat32
	case float64:
		a.kind = kindFloat64
	case complex64:
		a.kind = kindComplex64
	default:
		a.kind = kindComplex128
	}
	shape, _ := a.l.Axes()
	a.zero = d == nil && len(shape) == 0
	return a
}

// check returns the error for the zero View, which no call can take.
func (a *Arg) check(op, name string) error {
	if a.zero {
		return layout.Errorf(layout.ErrBounds, op, name, "the zero View has no data (make views with views.FromSlice or Tensor.View)")
	}
	return nil
}

// overlapErr is the error for an Out or InOut argument whose elements
// share memory.
func (a *Arg) overlapErr(op, name string) error {
	return layout.Errorf(layout.ErrOverlap, op, name, "%s has indices sharing an element (a broadcast view?); it is never handed to Fortran as writable", a.l.String())
}

// first returns the address of the view's element 0 (nil when the view
// has no elements).
func (a *Arg) first() unsafe.Pointer {
	// Through pointers only: a call of a Layout value method copies the
	// layout.
	shape, _ := a.l.Axes()
	for _, d := range shape {
		if d == 0 {
			return nil
		}
	}
	if a.data == nil {
		return nil
	}
	return unsafe.Add(a.data, a.l.Origin()*int(a.size))
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
func (a *Arg) copyOf(op, name, why string, cfg policy.Config) (scratch, error) {
	if cfg.Strict {
		return nil, layout.Errorf(ErrCopyRefused, op, name, "%s (%s, class %v) needs a copy and strict mode is on", why, a.l.String(), a.l.Class())
	}
	policy.Copies.Add(1)
	switch a.kind {
	case kindFloat32:
		return newCopy[float32](a), nil
	case kindFloat64:
		return newCopy[float64](a), nil
	case kindComplex64:
		return newCopy[complex64](a), nil
	}
	return newCopy[complex128](a), nil
}

type copyT[T Scalar] struct {
	dst  views.View[T]
	t    *views.Tensor[T]
	back bool
}

func newCopy[T Scalar](a *Arg) *copyT[T] {
	v, err := views.FromSlice(unsafe.Slice((*T)(a.data), a.n), a.l)
	if err != nil {
		panic("fortran: an Arg's view no longer fits its data: " + err.Error()) // made from a valid view: cannot happen
	}
	if a.conj {
		v = v.Conj()
	}
	c := &copyT[T]{dst: v, back: a.intent&intentOut != 0}
	if a.intent&intentIn != 0 {
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
