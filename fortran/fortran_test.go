package fortran_test

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/fortran/internal/ftest"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// operand is a view over a buffer padded with NaN on both sides and in
// every gap, its elements set to distinct values.
type operand[T views.Scalar] struct {
	buf []T
	v   views.View[T]
}

const pad = 5

func nan[T views.Scalar]() T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(math.NaN())
	case *float64:
		*p = math.NaN()
	case *complex64:
		*p = complex64(cmplx.NaN())
	case *complex128:
		*p = cmplx.NaN()
	}
	return z
}

func isNaN[T views.Scalar](x T) bool {
	c := scalar.Complex128(x)
	return math.IsNaN(real(c)) || math.IsNaN(imag(c))
}

func fromC[T views.Scalar](c complex128) T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(real(c))
	case *float64:
		*p = real(c)
	case *complex64:
		*p = complex64(c)
	case *complex128:
		*p = c
	}
	return z
}

// newOperand returns a view of shape and strides over a NaN-padded buffer;
// the element at column-major position k of the base is k+1 (+ i(k+1)/2).
func newOperand[T views.Scalar](shape, strides []int) operand[T] {
	l, err := layout.New(shape, strides, 0)
	if err != nil {
		panic(err)
	}
	lo, hi, ok := l.Span()
	if !ok {
		lo, hi = 0, -1
	}
	if l, err = layout.New(shape, strides, pad-lo); err != nil {
		panic(err)
	}
	buf := make([]T, hi-lo+1+2*pad)
	for i := range buf {
		buf[i] = nan[T]()
	}
	v, err := views.FromSlice(buf, l)
	if err != nil {
		panic(err)
	}
	k := 0
	eachIndex(shape, func(idx []int) {
		k++
		v.Set(fromC[T](complex(float64(k), float64(k)/2)), idx...)
	})
	return operand[T]{buf: buf, v: v}
}

// eachIndex calls f with every index of shape in column-major order.
func eachIndex(shape []int, f func(idx []int)) {
	for _, e := range shape {
		if e == 0 {
			return
		}
	}
	idx := make([]int, len(shape))
	for {
		f(idx)
		k := 0
		for ; k < len(shape); k++ {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k == len(shape) {
			return
		}
	}
}

func values[T views.Scalar](v views.View[T]) []T {
	var out []T
	eachIndex(v.Shape(), func(idx []int) { out = append(out, v.At(idx...)) })
	return out
}

// reached marks the buffer positions v reaches.
func reached[T views.Scalar](v views.View[T]) map[int]bool {
	m := map[int]bool{}
	l := v.Layout()
	eachIndex(v.Shape(), func(idx []int) { m[l.OffsetOf(idx...)] = true })
	return m
}

// cases returns the layout cases for T.
func cases[T views.Scalar]() []struct {
	name               string
	v                  func() operand[T]
	descCopy, explCopy bool
	readOnly           bool
} {
	type c = struct {
		name               string
		v                  func() operand[T]
		descCopy, explCopy bool
		readOnly           bool
	}
	mk := func(shape, strides []int) func() operand[T] {
		return func() operand[T] { return newOperand[T](shape, strides) }
	}
	with := func(f func() operand[T], g func(views.View[T]) (views.View[T], error)) func() operand[T] {
		return func() operand[T] {
			o := f()
			v, err := g(o.v)
			if err != nil {
				panic(err)
			}
			o.v = v
			in := reached(v)
			for i := range o.buf {
				if !in[i] {
					o.buf[i] = nan[T]()
				}
			}
			return o
		}
	}
	cs := []c{
		{name: "packed", v: mk([]int{4, 3}, []int{1, 4})},
		{name: "ld>rows", v: mk([]int{4, 3}, []int{1, 7})},
		{name: "column-slice", v: with(mk([]int{4, 6}, []int{1, 4}), func(v views.View[T]) (views.View[T], error) { return v.Slice(1, 1, 4, 1) })},
		{name: "every-other-column", v: with(mk([]int{4, 6}, []int{1, 4}), func(v views.View[T]) (views.View[T], error) { return v.Slice(1, 0, 6, 2) })},
		{name: "row-major", v: mk([]int{4, 3}, []int{3, 1}), explCopy: true},
		{name: "transpose", v: with(mk([]int{3, 4}, []int{1, 5}), func(v views.View[T]) (views.View[T], error) { return v.T(), nil }), explCopy: true},
		{name: "reversed-columns", v: with(mk([]int{4, 3}, []int{1, 4}), func(v views.View[T]) (views.View[T], error) { return v.Reverse(1) }), explCopy: true},
		{name: "reversed-rows", v: with(mk([]int{4, 3}, []int{1, 6}), func(v views.View[T]) (views.View[T], error) { return v.Reverse(0) }), explCopy: true},
		{name: "every-other-row", v: mk([]int{3, 4}, []int{2, 7}), explCopy: true},
		{name: "vector-stride-3", v: mk([]int{5}, []int{3}), explCopy: true},
		{name: "vector-reversed", v: mk([]int{5}, []int{-1}), explCopy: true},
		{name: "batch", v: mk([]int{3, 2, 4}, []int{1, 3, 6})},
		{name: "batch-ld>rows-gap", v: mk([]int{3, 2, 4}, []int{1, 5, 13})},
		{name: "batch-one-matrix", v: with(mk([]int{3, 2, 4}, []int{1, 3, 6}), func(v views.View[T]) (views.View[T], error) { return v.Index(2, 2) })},
		{name: "batch-reversed", v: with(mk([]int{3, 2, 4}, []int{1, 3, 6}), func(v views.View[T]) (views.View[T], error) { return v.Reverse(2) })},
		{name: "permuted-General", v: with(mk([]int{2, 3, 4}, []int{1, 2, 6}), func(v views.View[T]) (views.View[T], error) { return v.Permute(2, 0, 1) }), explCopy: true},
		{name: "broadcast", v: with(mk([]int{4, 1}, []int{1, 4}), func(v views.View[T]) (views.View[T], error) { return v.BroadcastTo(4, 3) }), descCopy: true, explCopy: true, readOnly: true},
		{name: "empty", v: mk([]int{0, 3}, []int{1, 1})},
	}
	if views.IsComplex[T]() {
		cs = append(cs, c{name: "conjugated", v: with(mk([]int{4, 3}, []int{1, 5}), func(v views.View[T]) (views.View[T], error) { return v.Conj(), nil }), descCopy: true, explCopy: true})
	}
	return cs
}

func copies() int64 { return lapis.ReadStats().Copies }

func addr[T views.Scalar](v views.View[T]) float64 {
	if v.Len() == 0 {
		return -1
	}
	return float64(uintptr(unsafe.Pointer(&v.Data()[v.Layout().Offset()])))
}

// checkSeen calls Fortran's check routine on v through call and compares
// what it saw with the view.
func checkSeen[T views.Scalar](t *testing.T, v views.View[T], wantCopy bool, call func(a, vals, info fortran.Arg) error) {
	t.Helper()
	n := max(1, v.Len())
	vals := make([]T, n)
	info := make([]float64, 5+3*v.Rank())
	vv, _ := views.FromSlice(vals, mustCol(n))
	iv, _ := views.FromSlice(info, mustCol(len(info)))
	before := copies()
	if err := call(fortran.In(v), fortran.Out(vv), fortran.Out(iv)); err != nil {
		t.Fatal(err)
	}
	if got := copies() - before; got != b2i(wantCopy) {
		t.Errorf("copies %d, want %d", got, b2i(wantCopy))
	}
	r := v.Rank()
	if int(info[0]) != r {
		t.Fatalf("Fortran sees rank %v, want %d", info[0], r)
	}
	for k, e := range v.Shape() {
		if int(info[4+k]) != e || info[4+r+k] != 1 || int(info[4+2*r+k]) != e {
			t.Errorf("axis %d: Fortran sees shape %v lbound %v ubound %v, want %d, 1, %d", k, info[4+k], info[4+r+k], info[4+2*r+k], e, e)
		}
	}
	if !wantCopy && v.Len() > 0 {
		if info[2] != addr(v) || info[3] != addr(v) {
			t.Errorf("Fortran's c_loc %x (first element %x), Go's element 0 %x: not the same memory", uint64(info[2]), uint64(info[3]), uint64(addr(v)))
		}
		contiguous := v.Layout().IsColMajor()
		if (info[1] == 1) != contiguous {
			t.Errorf("Fortran's is_contiguous %v, the layout's IsColMajor %v", info[1], contiguous)
		}
	}
	if wantCopy && info[1] != 1 {
		t.Errorf("a copy is not contiguous for Fortran")
	}
	want := values(v)
	for k, x := range want {
		if vals[k] != x {
			t.Fatalf("element %d in Fortran's order: %v, want %v", k, vals[k], x)
		}
	}
}

func mustCol(n ...int) layout.Layout {
	l, err := layout.ColMajor(n...)
	if err != nil {
		panic(err)
	}
	return l
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// checkTwice checks that every element of o's view became 2x+1 and that
// the rest of the buffer is still NaN.
func checkTwice[T views.Scalar](t *testing.T, o operand[T], before []T) {
	t.Helper()
	after := values(o.v)
	for k := range after {
		if want := 2*before[k] + 1; after[k] != want {
			t.Fatalf("element %d: %v, want %v", k, after[k], want)
		}
	}
	in := reached(o.v)
	for i, x := range o.buf {
		if !in[i] && !isNaN(x) {
			t.Fatalf("buffer[%d] = %v outside the view was written (NaN padding)", i, x)
		}
	}
}

func testType[T views.Scalar](t *testing.T) {
	for _, c := range cases[T]() {
		t.Run(c.name, func(t *testing.T) {
			t.Run("Call3/check", func(t *testing.T) {
				checkSeen(t, c.v().v, c.descCopy, func(a, v, i fortran.Arg) error { return fortran.Call3(ftest.Check[T](), a, v, i) })
			})
			t.Run("Describe/check", func(t *testing.T) {
				checkSeen(t, c.v().v, c.descCopy, func(a, v, i fortran.Arg) error {
					da, err := fortran.Describe(a)
					if err != nil {
						return err
					}
					dv, _ := fortran.Describe(v)
					di, _ := fortran.Describe(i)
					ftest.Call3(ftest.Check[T](), da.Ptr(), dv.Ptr(), di.Ptr())
					da.Done()
					dv.Done()
					di.Done()
					return nil
				})
			})
			t.Run("Call1/twice", func(t *testing.T) {
				o := c.v()
				before := values(o.v)
				n0 := copies()
				err := fortran.Call1(ftest.Twice[T](), fortran.InOut(o.v))
				if c.readOnly {
					if !errors.Is(err, layout.ErrOverlap) {
						t.Fatalf("InOut of a broadcast view: %v, want ErrOverlap", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := copies() - n0; got != b2i(c.descCopy) {
					t.Errorf("copies %d, want %d", got, b2i(c.descCopy))
				}
				checkTwice(t, o, before)
			})
			t.Run("Explicit/xtwice", func(t *testing.T) {
				o := c.v()
				before := values(o.v)
				n0 := copies()
				err := fortran.Explicit(fortran.InOut(o.v), func(a fortran.Array) {
					if p := ftest.Addr[T](a); !c.explCopy && p != nil && uintptr(p) < uintptr(unsafe.Pointer(&o.buf[0])) {
						t.Errorf("explicit-shape array outside the buffer")
					}
					ftest.XTwice[T](a)
				})
				if c.readOnly {
					if !errors.Is(err, layout.ErrOverlap) {
						t.Fatalf("InOut of a broadcast view: %v, want ErrOverlap", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := copies() - n0; got != b2i(c.explCopy) {
					t.Errorf("copies %d, want %d", got, b2i(c.explCopy))
				}
				checkTwice(t, o, before)
			})
			t.Run("strict", func(t *testing.T) {
				o := c.v()
				err := fortran.Call1(ftest.Twice[T](), fortran.In(o.v), lapis.Strict(true))
				if c.descCopy != errors.Is(err, lapis.ErrCopyRefused) || (err != nil && !c.descCopy) {
					t.Errorf("Call1 strict: %v (needs a copy: %v)", err, c.descCopy)
				}
				err = fortran.Explicit(fortran.In(o.v), func(fortran.Array) {}, lapis.Strict(true))
				if c.explCopy != errors.Is(err, lapis.ErrCopyRefused) || (err != nil && !c.explCopy) {
					t.Errorf("Explicit strict: %v (needs a copy: %v)", err, c.explCopy)
				}
			})
		})
	}
}

func TestLayouts(t *testing.T) {
	t.Run("float32", testType[float32])
	t.Run("float64", testType[float64])
	t.Run("complex64", testType[complex64])
	t.Run("complex128", testType[complex128])
}

// TestRanks hands descriptors of ranks 0 to 7 (compact, reversed on the
// last axis, every other element of axis 0, permuted) to Fortran.
func TestRanks(t *testing.T) {
	ranks[float32](t)
	ranks[float64](t)
	ranks[complex64](t)
	ranks[complex128](t)
}

func ranks[T views.Scalar](t *testing.T) {
	for r := 0; r <= 7; r++ {
		shape := make([]int, r)
		for k := range shape {
			shape[k] = []int{3, 2, 1, 2}[k%4]
		}
		l := mustCol(shape...)
		strides := l.Strides()
		for k := range strides {
			strides[k] *= 2 // every other element of axis 0, gaps of NaN
		}
		for _, variant := range []string{"compact", "step2", "reversed", "permuted"} {
			t.Run(fmt.Sprintf("%s/rank=%d/%s", guardName[T](), r, variant), func(t *testing.T) {
				var o operand[T]
				switch variant {
				case "compact":
					o = newOperand[T](shape, l.Strides())
				default:
					o = newOperand[T](shape, strides)
				}
				var err error
				if variant == "reversed" && r > 0 {
					o.v, err = o.v.Reverse(r - 1)
				}
				if variant == "permuted" && r > 1 {
					axes := make([]int, r)
					for k := range axes {
						axes[k] = r - 1 - k
					}
					o.v, err = o.v.Permute(axes...)
				}
				if err != nil {
					t.Fatal(err)
				}
				checkSeen(t, o.v, false, func(a, v, i fortran.Arg) error { return fortran.Call3(ftest.Check[T](), a, v, i) })
				before := values(o.v)
				if err := fortran.Call1(ftest.Twice[T](), fortran.InOut(o.v)); err != nil {
					t.Fatal(err)
				}
				checkTwice(t, o, before)
			})
		}
	}
}

func guardName[T views.Scalar]() string { return fmt.Sprintf("%T", *new(T)) }

// TestStrictProcessWide: lapis.SetStrict refuses fortran's copies too.
func TestStrictProcessWide(t *testing.T) {
	prev := lapis.SetStrict(true)
	defer lapis.SetStrict(prev)
	o := newOperand[float64]([]int{3, 4}, []int{4, 1})
	err := fortran.Explicit(fortran.In(o.v), func(fortran.Array) {})
	if !errors.Is(err, lapis.ErrCopyRefused) {
		t.Fatalf("Explicit of a row-major view under lapis.SetStrict(true): %v", err)
	}
	var le *layout.Error
	if !errors.As(err, &le) || le.Op != "fortran.Explicit" || le.Arg != "a" {
		t.Errorf("error %v does not name fortran.Explicit and a", err)
	}
	if err := fortran.Explicit(fortran.In(o.v), func(fortran.Array) {}, lapis.Strict(false)); err != nil {
		t.Errorf("lapis.Strict(false) overrides lapis.SetStrict: %v", err)
	}
	s := newOperand[float64]([]int{1}, []int{1})
	err = fortran.Call2(ftest.Sum, fortran.In(o.v), fortran.Out(s.v.Conj()))
	if err != nil {
		t.Errorf("Call2 of views that need no copy under lapis.SetStrict(true): %v", err)
	}
}

func TestErrors(t *testing.T) {
	var zero views.View[float64]
	if err := fortran.Call1(ftest.EmptyDesc3, fortran.In(zero)); !errors.Is(err, layout.ErrBounds) {
		t.Errorf("the zero View: %v", err)
	}
	o := newOperand[float64]([]int{2, 2}, []int{1, 2})
	err := fortran.Call2(ftest.Sum, fortran.In(o.v), fortran.Out(zero))
	var le *layout.Error
	if !errors.As(err, &le) || le.Op != "fortran.Call2" || le.Arg != "b" {
		t.Errorf("error %v does not name fortran.Call2 and b", err)
	}
	b, _ := o.v.BroadcastTo(2, 2, 3)
	if _, err := fortran.Describe(fortran.Out(b)); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Describe of a writable broadcast view: %v", err)
	}
	if err := fortran.Explicit(fortran.InOut(zero), func(fortran.Array) { t.Error("Explicit called back with the zero View") }); !errors.Is(err, layout.ErrBounds) {
		t.Errorf("Explicit of the zero View: %v", err)
	}
	// The zero Arg (not made by In, Out or InOut) is refused as the zero
	// View is, by every entry point.
	var za fortran.Arg
	if err := fortran.Call1(ftest.EmptyDesc3, za); !errors.Is(err, layout.ErrBounds) {
		t.Errorf("Call1 of the zero Arg: %v", err)
	}
	if err := fortran.Call2(ftest.Sum, fortran.In(o.v), za); !errors.Is(err, layout.ErrBounds) {
		t.Errorf("Call2 of the zero Arg: %v", err)
	}
	if err := fortran.Explicit(za, func(fortran.Array) { t.Error("Explicit called back with the zero Arg") }); !errors.Is(err, layout.ErrBounds) {
		t.Errorf("Explicit of the zero Arg: %v", err)
	}
	if _, err := fortran.Describe(za); !errors.Is(err, layout.ErrBounds) {
		t.Errorf("Describe of the zero Arg: %v", err)
	}
}

// TestAliasing: arguments that share memory are refused when Fortran
// writes one of them (F2018 15.5.2.13), naming both, before the routine
// runs; disjoint parts of one buffer and read-only sharing are not; a nil
// routine is an error, not a jump to address 0.
func TestAliasing(t *testing.T) {
	buf := make([]float64, 10)
	for i := range buf {
		buf[i] = float64(i + 1)
	}
	a, _ := views.FromSlice(buf, must(layout.ColMajor(3, 3)))
	s, _ := views.FromSlice(buf[4:5], must(layout.ColMajor(1))) // inside a
	apart, _ := views.FromSlice(buf[9:], must(layout.ColMajor(1)))
	before := slices.Clone(buf)
	err := fortran.Call2(ftest.Sum, fortran.In(a), fortran.Out(s))
	var le *layout.Error
	if !errors.Is(err, layout.ErrOverlap) || !errors.As(err, &le) || le.Op != "fortran.Call2" || le.Arg != "a, b" {
		t.Errorf("Call2(Sum, In(a), Out(an element of a)): %v, want ErrOverlap naming a, b", err)
	}
	if !slices.Equal(buf, before) {
		t.Errorf("the refused call wrote: %v", buf)
	}
	if err := fortran.Call2(ftest.Sum, fortran.InOut(a), fortran.In(s)); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Call2(Sum, InOut(a), In(part of a)): %v, want ErrOverlap", err)
	}
	if err := fortran.Call2(ftest.Sum, fortran.In(a), fortran.Out(apart)); err != nil || buf[9] != 45 {
		t.Errorf("Out apart from a in one buffer: %v, s = %v (want 45)", err, buf[9])
	}
	// Both In: lapis does not refuse (Sum does write its second argument,
	// which its caller declared In: that is the caller's word).
	if err := fortran.Call2(ftest.Sum, fortran.In(a), fortran.In(s)); err != nil {
		t.Errorf("two In arguments sharing memory: %v", err)
	}
	if err := fortran.Call1(nil, fortran.In(a)); !errors.Is(err, lapis.ErrInvalid) {
		t.Errorf("Call1(nil, ...): %v, want lapis.ErrInvalid", err)
	}
	if err := fortran.Call2(nil, fortran.In(a), fortran.Out(apart)); !errors.Is(err, lapis.ErrInvalid) {
		t.Errorf("Call2(nil, ...): %v, want lapis.ErrInvalid", err)
	}
}

// TestNoAllocs checks that a call allocates nothing where no copy is
// made: In, Out and InOut, inlined, keep their copy of the view on the
// caller's stack, and the call reads it in place (one allocation per call
// here would mean the copy moved to the heap). It is skipped when
// coverage instrumentation may change what the compiler inlines.
func TestNoAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation changes inlining")
	}
	col := newOperand[float64]([]int{4, 3, 2}, []int{1, 5, 15})
	rev, _ := col.v.Reverse(1)
	perm, _ := col.v.Permute(2, 0, 1)
	s, _ := views.Zeros[float64](1)
	sv := s.View()
	cols, _ := col.v.Slice(1, 0, 2, 1) // [4, 2, 2], strides [1, 5, 15]: a batch with gaps
	mrev, _ := newOperand[float64]([]int{4, 3}, []int{1, 5}).v.Reverse(1)
	f32 := newOperand[float32]([]int{3, 3}, []int{1, 4})
	z := newOperand[complex128]([]int{3, 3}, []int{1, 4})
	cases := []struct {
		name string
		f    func() error
	}{
		{"Call1 InOut packed", func() error { return fortran.Call1(ftest.EmptyDesc3, fortran.InOut(col.v)) }},
		{"Call1 InOut reversed", func() error { return fortran.Call1(ftest.EmptyDesc3, fortran.InOut(rev)) }},
		{"Call1 InOut permuted", func() error { return fortran.Call1(ftest.EmptyDesc3, fortran.InOut(perm)) }},
		{"Call2 In, Out", func() error { return fortran.Call2(ftest.Sum, fortran.In(mrev), fortran.Out(sv)) }},
		{"Call1 float32", func() error { return fortran.Call1(ftest.Twice[float32](), fortran.InOut(f32.v)) }},
		{"Call1 complex128", func() error { return fortran.Call1(ftest.Twice[complex128](), fortran.InOut(z.v)) }},
		{"Explicit InOut", func() error { return fortran.Explicit(fortran.InOut(col.v), ftest.EmptyF77) }},
		{"Explicit In, one call per matrix", func() error {
			return fortran.Explicit(fortran.In(cols), func(fortran.Array) {})
		}},
	}
	for _, c := range cases {
		if err := c.f(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n := testing.AllocsPerRun(50, func() { _ = c.f() }); n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", c.name, n)
		}
	}
}

// TestConcurrent calls Fortran from many goroutines at once, each on its
// own views and all on one shared read-only view (run it with -race).
func TestConcurrent(t *testing.T) {
	shared := newOperand[float64]([]int{5, 4}, []int{1, 7})
	want := values(shared.v)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := newOperand[float64]([]int{4, 3, 2}, []int{1, 5, 17})
			rev, _ := mine.v.Reverse(1)
			for range 50 {
				vals := make([]float64, 20)
				info := make([]float64, 20)
				vv, _ := views.FromSlice(vals, mustCol(20))
				iv, _ := views.FromSlice(info, mustCol(20))
				if err := fortran.Call3(ftest.Check[float64](), fortran.In(shared.v), fortran.Out(vv), fortran.Out(iv)); err != nil {
					errs <- err
					return
				}
				for k := range want {
					if vals[k] != want[k] {
						errs <- fmt.Errorf("goroutine %d: element %d %v, want %v", g, k, vals[k], want[k])
						return
					}
				}
				if err := fortran.Call1(ftest.Twice[float64](), fortran.InOut(rev)); err != nil {
					errs <- err
					return
				}
				if err := fortran.Explicit(fortran.InOut(mine.v), ftest.XTwice[float64]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCTensor: a tensor in C memory goes to Fortran without pinning or
// copies, and is usable as a views tensor.
func TestCTensor(t *testing.T) {
	c, err := fortran.NewC[complex128](3, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	c.Set(1+2i, 2, 3, 1)
	m, _ := c.View().Index(2, 1)
	n0 := copies()
	if err := fortran.Call1(ftest.Twice[complex128](), fortran.InOut(m)); err != nil {
		t.Fatal(err)
	}
	d, err := fortran.Describe(fortran.InOut(c.View()))
	if err != nil {
		t.Fatal(err)
	}
	ftest.Call1(ftest.Twice[complex128](), d.Ptr())
	d.Done()
	if copies() != n0 {
		t.Errorf("copies of a C-memory tensor")
	}
	if got := c.At(2, 3, 1); got != 2*(2*(1+2i)+1)+1 {
		t.Errorf("element %v", got)
	}
	if got := c.At(0, 0, 0); got != 1 {
		t.Errorf("element (0,0,0) %v, want 1 (once through Twice)", got)
	}
	if _, err := fortran.NewC[float64](-1); !errors.Is(err, layout.ErrShape) {
		t.Errorf("NewC(-1): %v", err)
	}
	// A view taken before Free is released: an error, not a read of freed
	// C memory.
	f, _ := fortran.NewC[float64](4)
	fv := f.View()
	f.Free()
	if err := fortran.Call1(ftest.Twice[float64](), fortran.InOut(fv)); !errors.Is(err, lapis.ErrReleased) {
		t.Errorf("Call1 on a view of a freed CTensor: %v, want lapis.ErrReleased", err)
	}
}

// TestSectionDescriptor checks that the descriptor lapis fills for a
// section of an array (slices, steps, reversed axes, one matrix of a
// batch) is, member by member, the one the standard's route makes:
// CFI_establish of the parent array, then CFI_section.
func TestSectionDescriptor(t *testing.T) {
	ext := []int{5, 6, 4}
	for _, c := range []struct {
		name       string
		lo, hi, st []int
	}{
		{"whole", []int{0, 0, 0}, []int{4, 5, 3}, []int{1, 1, 1}},
		{"column-slice", []int{0, 1, 0}, []int{4, 3, 3}, []int{1, 1, 1}},
		{"rows-and-steps", []int{1, 0, 1}, []int{3, 5, 3}, []int{2, 3, 1}},
		{"reversed-columns", []int{0, 5, 0}, []int{4, 0, 3}, []int{1, -1, 1}},
		{"reversed-rows-stepped", []int{4, 0, 0}, []int{0, 5, 3}, []int{-2, 1, 1}},
		{"reversed-batch", []int{0, 0, 3}, []int{4, 5, 0}, []int{1, 1, -1}},
		{"all-reversed", []int{4, 5, 3}, []int{0, 0, 0}, []int{-1, -2, -3}},
		{"one-matrix", []int{0, 0, 2}, []int{4, 5, 2}, []int{1, 1, 1}},
		{"one-row", []int{2, 0, 0}, []int{2, 5, 3}, []int{1, 1, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sectionCase[float64](t, ext, c.lo, c.hi, c.st)
			sectionCase[complex128](t, ext, c.lo, c.hi, c.st)
		})
	}
}

// sectionCase builds the lapis view of the section (lo, hi, st) of a
// compact array of extents ext, describes it, and compares.
func sectionCase[T views.Scalar](t *testing.T, ext, lo, hi, st []int) {
	parent, err := views.Zeros[T](ext...)
	if err != nil {
		t.Fatal(err)
	}
	defer parent.Release()
	shape, strides := make([]int, len(ext)), make([]int, len(ext))
	off, ps := 0, 1 // offset of the section's first element; the parent's stride
	for k := range ext {
		shape[k] = (hi[k]-lo[k])/st[k] + 1
		strides[k] = st[k] * ps
		off += lo[k] * ps
		ps *= ext[k]
	}
	l, err := layout.New(shape, strides, off)
	if err != nil {
		t.Fatal(err)
	}
	v, err := views.FromSlice(parent.Data(), l)
	if err != nil {
		t.Fatal(err)
	}
	n0 := copies()
	d, err := fortran.Describe(fortran.In(v), lapis.Strict(true))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Done()
	if copies() != n0 {
		t.Fatalf("%v: a copy was made", l)
	}
	if diff := ftest.SectionDiff(d.Ptr(), unsafe.Pointer(&parent.Data()[0]), views.IsComplex[T](), ext, lo, hi, st); diff != 0 {
		t.Errorf("%T %v: the descriptor differs from CFI_section's (code %d)", *new(T), l, diff)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
