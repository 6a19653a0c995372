package fortran

import (
	"runtime"
	"strconv"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
)

// Array is an explicit-shape argument as an F77 routine declares it:
// a(LD, Cols) (Count 1) or a(LD, Cols, Count), the matrices one after
// another LD*Cols elements apart, each Rows x Cols with leading dimension
// LD >= max(1, Rows). A rank-0 view is 1 x 1, a rank-1 view or a Slice of
// length n is n x 1, and the batch axes of a rank >= 3 view [M, N, B...]
// make Count the product of B....
//
// Its address, element (1, 1, 1), is read with the accessor of its
// element type: Float32, Float64, Complex64, Complex128, Int32, Int64 or
// Logical, each a typed Go pointer that converts to the matching C
// pointer type with a plain conversion, no unsafe.Pointer:
//
//	(*C.double)(a.Float64())    // C.double is float64 underneath
//	(*C.int)(a.Int32())         // C.int is int32
//	(*C.double)(a.Float32())    // does not compile
//
// The accessor of another element type panics, as a failed type
// assertion does. The address is the argument's own memory whenever
// Fortran can address it as it is, else a copy's (see Explicit); nil when
// the array has no elements. It is valid during the call it is handed to
// only: Fortran must not keep it (see the package docs for memory that
// outlives a call). The extents are Go ints; converting them to the
// routine's integer kind (integer*4 for gfortran's default integer) is
// the caller's, as is checking that they fit.
type Array struct {
	Rows, Cols, LD int
	Count          int
	ptr            unsafe.Pointer
	kind           uint8
}

// Float32 returns the address of a's element (1, 1, 1), a real(c_float)
// array's; it panics when a holds another element type.
func (a Array) Float32() *float32 { return ptrOf[float32](a, kindFloat32) }

// Float64 returns the address of a's element (1, 1, 1), a
// double precision array's; it panics when a holds another element type.
func (a Array) Float64() *float64 { return ptrOf[float64](a, kindFloat64) }

// Complex64 returns the address of a's element (1, 1, 1), a complex
// array's; it panics when a holds another element type.
func (a Array) Complex64() *complex64 { return ptrOf[complex64](a, kindComplex64) }

// Complex128 returns the address of a's element (1, 1, 1), a complex*16
// array's; it panics when a holds another element type.
func (a Array) Complex128() *complex128 { return ptrOf[complex128](a, kindComplex128) }

// Int32 returns the address of a's element (1, 1, 1), an integer*4 array's
// (gfortran's default INTEGER); it panics when a holds another element
// type.
func (a Array) Int32() *int32 { return ptrOf[int32](a, kindInt32) }

// Int64 returns the address of a's element (1, 1, 1), an integer*8
// array's; it panics when a holds another element type.
func (a Array) Int64() *int64 { return ptrOf[int64](a, kindInt64) }

// Logical returns the address of a's element (1, 1, 1), a default LOGICAL
// array's; it panics when a holds another element type.
func (a Array) Logical() *Logical { return ptrOf[Logical](a, kindLogical) }

func ptrOf[T Elem](a Array, k uint8) *T {
	if a.kind != k {
		panic("fortran: the " + kindNames[k] + " accessor of an Array of " + kindNames[a.kind])
	}
	return (*T)(a.ptr)
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
// counted in lapis.ReadStats().Copies; call is then called once. A Slice
// goes as it is. Routines with several array arguments take ExplicitN.
//
// Errors, before call runs, naming the argument ("a", or its Named
// name): the zero View (layout.ErrBounds), a view of a released tensor
// (lapis.ErrReleased), a written view whose elements share memory
// (layout.ErrOverlap), a copy refused in strict mode
// (lapis.ErrCopyRefused, naming the layout).
func Explicit(a Arg, call func(Array), opts ...lapis.Option) error {
	// Small enough to inline: where call is a known function, the compiler
	// then calls it directly.
	if p, rows, cols, ld, count := a.array(); ld > 0 {
		call(Array{ptr: p, Rows: rows, Cols: cols, LD: ld, Count: count, kind: a.kind})
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

// explicit is Explicit for every argument: the copies, the errors, and
// the batches called matrix by matrix.
func explicit(a *Arg, call func(Array), opts []lapis.Option) error {
	const op = "fortran.Explicit"
	arr, each, why, err := a.f77(op, "a", true)
	switch {
	case err != nil:
		return err
	case each:
		_, _, l, _ := a.view()
		shape, strides := l.Axes()
		size := int(a.size)
		p := arr.ptr
		eachMatrix(shape[2:], strides[2:], func(off int) {
			arr.ptr = unsafe.Add(p, off*size)
			call(arr)
		})
		return nil
	case why == "":
		call(arr)
		return nil
	}
	sc, err := a.copyOf(op, a.nameOr("a"), why, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	arr.ptr = sc.ptr()
	call(arr)
	sc.finish()
	return nil
}

// f77 decides how a goes to an F77 routine, an argument of op. It returns a's Array when Fortran can address a as it is (a
// Slice, or a view whose batch axes, if any, are LD*Cols elements
// apart). A view Fortran addresses matrix by matrix (a batch with gaps)
// returns each true and the first matrix's Array (Count 1) when batches
// is set; otherwise such a view, and any view Fortran cannot address,
// returns why it needs a copy and the Array of that compact copy, its
// address left for the caller to fill. Errors (naming a by its name, or
// def): the zero View
// (layout.ErrBounds) and a written view whose elements share memory
// (layout.ErrOverlap).
func (a *Arg) f77(op, def string, batches bool) (arr Array, each bool, why string, err error) {
	arr = Array{Rows: 1, Cols: 1, LD: 1, Count: 1, kind: a.kind}
	if a.slice {
		s := (*[]byte)(a.v) // only the address and the length are read
		arr.Rows, arr.LD = len(*s), max(1, len(*s))
		if len(*s) > 0 {
			arr.ptr = unsafe.Pointer(unsafe.SliceData(*s))
		}
		return arr, false, "", nil
	}
	data, _, l, conj := a.view()
	if isZero(data, l) { // view gives no layout for a view of a released tensor
		if err := a.live(op, a.nameOr(def)); err != nil {
			return arr, false, "", err
		}
		return arr, false, "", noData(op, a.nameOr(def))
	}
	// The layout is read in place (Axes, MatrixRef): a call of a Layout
	// value method copies it.
	shape, strides := l.Axes()
	if a.intent&intentOut != 0 {
		if ok, _ := disjoint(l, shape, strides); !ok {
			return arr, false, "", overlapErr(op, a.nameOr(def), l)
		}
	}
	for _, e := range shape[min(2, len(shape)):] {
		arr.Count *= e
	}
	m, ok := l.MatrixRef()
	if ok && !m.Trans && !conj {
		arr.ptr = first(data, l, a.size)
		arr.Rows, arr.Cols, arr.LD = m.Rows, m.Cols, m.LD
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
		switch {
		case whole >= 0 || arr.ptr == nil:
			return arr, false, "", nil
		case batches:
			arr.Count = 1
			return arr, true, "", nil
		}
		why = "a batch whose matrices are not LD*Cols elements apart (ExplicitN calls the routine once)"
	} else {
		why = "a row-major or General view (Fortran reads columns)"
		if conj {
			why = "a conjugated view"
		}
	}
	arr.ptr = nil
	if len(shape) > 0 {
		arr.Rows = shape[0]
	}
	if len(shape) > 1 {
		arr.Cols = shape[1]
	}
	arr.LD = max(1, arr.Rows)
	return arr, false, why, nil
}

// ExplicitN calls call once with every argument of args as an
// explicit-shape array, x[i] for args[i], for routines with several array
// arguments (name them with Named: errors use the name, else "args[i]"):
//
//	err := fortran.ExplicitN([]fortran.Arg{
//		fortran.InOut(v).Named("v"), fortran.Slice(iparam).Named("iparam"),
//	}, func(x []fortran.Array) {
//		C.f_((*C.double)(x[0].Float64()), &ldv, (*C.int)(x[1].Int32()))
//	})
//
// Each argument goes as Explicit hands it over, in place or as a counted
// compact copy, with one difference: a batch whose matrices are not
// LD*Cols elements apart is copied too (call runs once for all
// arguments). Copies are loaded before call (In, InOut) and copied back
// after it (Out, InOut), in the order of args. The checks run once per
// call, however many routines call calls: a whole reverse-communication
// solve can run in one closure (examples/arpack). A call that copies
// nothing allocates once (the Arrays).
//
// Errors, each naming its argument, before call runs and before anything
// is copied back (nothing the caller handed in is written): a nil call
// (lapis.ErrInvalid), the zero View (layout.ErrBounds), a written view
// whose elements share memory, or two arguments that share memory when
// Fortran writes one (layout.ErrOverlap, naming both), a copy refused in
// strict mode (lapis.ErrCopyRefused, naming the layout).
func ExplicitN(args []Arg, call func(x []Array), opts ...lapis.Option) error {
	const op = "fortran.ExplicitN"
	if call == nil {
		return layout.Errorf(lapis.ErrInvalid, op, "call", "nil function")
	}
	n := len(args)
	x := make([]Array, n) // the only allocation when nothing is copied
	var whys [8]string
	var scs [8]scratch
	why, sc := whys[:], scs[:]
	if n > len(whys) {
		why, sc = make([]string, n), make([]scratch, n)
	}
	for i := range args {
		var err error
		if x[i], _, why[i], err = args[i].f77(op, nthArg(i), false); err != nil {
			return err
		}
	}
	if err := checkAliases(op, args, nthArg); err != nil {
		return err
	}
	for i, w := range why[:n] {
		if w == "" {
			continue
		}
		c, err := args[i].copyOf(op, args[i].nameOr(nthArg(i)), w, lapis.Configure(opts...))
		if err != nil {
			for _, c := range sc[:n] {
				if c != nil {
					finish(c, err)
				}
			}
			return err
		}
		sc[i], x[i].ptr = c, c.ptr()
	}
	call(x)
	runtime.KeepAlive(args)
	for _, c := range sc[:n] {
		if c != nil {
			c.finish()
		}
	}
	return nil
}

// argsNames are ExplicitN's names for its first arguments, made once.
var argsNames = func() (s [16]string) {
	for i := range s {
		s[i] = "args[" + strconv.Itoa(i) + "]"
	}
	return s
}()

// nthArg is ExplicitN's name for args[i] when Named gave it none.
func nthArg(i int) string {
	if i < len(argsNames) {
		return argsNames[i]
	}
	return "args[" + strconv.Itoa(i) + "]"
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
