package fortran_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/fortran/internal/ftest"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// mixedArgs returns the integer, integer*8 and logical arrays of
// ftest.Mixed, n = 5: total over l is (1+10) + (3+30) + (4+40) = 88.
func mixedArgs() ([]int32, []int64, []fortran.Logical) {
	return []int32{1, 2, 3, 4, 5}, []int64{10, 20, 30, 40, 50}, []fortran.Logical{1, 0, 1, 1, 0}
}

// TestExplicitN hands ftest.Mixed int32, int64 and logical slices, a
// matrix view and scalars by reference in one call, for each layout
// class of the view: in place (ld > rows), a transpose and a batch with
// gaps (each a counted copy, copied back), and checks what Fortran
// computed, that it wrote only the view's elements, and the CHARACTER
// argument's hidden length.
func TestExplicitN(t *testing.T) {
	for _, c := range []struct {
		name           string
		shape, strides []int
		copies         int64
	}{
		{"ld > rows", []int{3, 2}, []int{1, 4}, 0},
		{"transpose", []int{3, 2}, []int{2, 1}, 1},
		{"batch with gaps", []int{2, 2, 2}, []int{1, 2, 5}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newOperand[float64](c.shape, c.strides)
			before := slices.Clone(o.buf)
			ia, ja, l := mixedArgs()
			var total float64
			var info int32
			n0 := copies()
			err := fortran.ExplicitN([]fortran.Arg{fortran.Slice(ia).Named("ia"), fortran.Slice(ja).Named("ja"),
				fortran.Slice(l).Named("l"), fortran.InOut(o.v).Named("a")}, func(x []fortran.Array) {
				if x[0].Rows != 5 || x[0].Cols != 1 || x[0].LD != 5 || x[0].Count != 1 {
					t.Errorf("Slice of 5: Array %+v", x[0])
				}
				total, info = ftest.Mixed("hello", x)
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := copies() - n0; got != c.copies {
				t.Errorf("copies %d, want %d", got, c.copies)
			}
			if total != 88 || info != 5 {
				t.Errorf("total %v, len(mode) %d; want 88, 5", total, info)
			}
			if !slices.Equal(ja, []int64{-10, -20, -30, -40, -50}) || !slices.Equal(l, []fortran.Logical{0, 1, 0, 0, 1}) {
				t.Errorf("Fortran wrote ja = %v, l = %v", ja, l)
			}
			in := reached(o.v)
			for i, x := range o.buf {
				switch {
				case in[i] && x != before[i]+88:
					t.Errorf("element at %d: %v, want %v", i, x, before[i]+88)
				case !in[i] && !(isNaN(x) && isNaN(before[i])) && x != before[i]:
					t.Errorf("outside the view, at %d: %v written", i, x)
				}
			}
		})
	}
}

// TestExplicitNErrors: each error names its argument (Named, or
// args[i]), comes before the routine runs, and leaves every argument as
// it was.
func TestExplicitNErrors(t *testing.T) {
	var zero views.View[float64]
	o := newOperand[float64]([]int{3, 2}, []int{2, 1}) // a transpose: needs a copy
	before := slices.Clone(o.buf)
	ia, ja, l := mixedArgs()
	never := func([]fortran.Array) { t.Error("the routine ran") }
	buf := make([]float64, 6)
	whole, _ := views.FromColMajor(buf, 3, 2)
	part, _ := views.FromSlice(buf[2:4], must(layout.ColMajor(2)))
	bc := must(must(views.FromColMajor([]float64{1}, 1)).View().BroadcastTo(1, 3)) // one element, three times
	for _, c := range []struct {
		name     string
		args     []fortran.Arg
		opts     []lapis.Option
		sentinel error
		arg      string
	}{
		{"zero View", []fortran.Arg{fortran.Slice(ia), fortran.In(zero).Named("resid")}, nil, layout.ErrBounds, "resid"},
		{"zero View unnamed", []fortran.Arg{fortran.Slice(ia), fortran.In(zero)}, nil, layout.ErrBounds, "args[1]"},
		{"zero Arg", []fortran.Arg{{}}, nil, layout.ErrBounds, "args[0]"},
		{"broadcast written", []fortran.Arg{fortran.Out(bc).Named("z")}, nil, layout.ErrOverlap, "z"},
		{"aliased views", []fortran.Arg{fortran.InOut(whole.View()).Named("v"), fortran.In(part).Named("resid")}, nil, layout.ErrOverlap, "v, resid"},
		{"slice and its view", []fortran.Arg{fortran.Slice(buf).Named("workd"), fortran.In(part).Named("x")}, nil, layout.ErrOverlap, "workd, x"},
		{"slice twice", []fortran.Arg{fortran.Slice(ia).Named("iparam"), fortran.Slice(ia[3:]).Named("ipntr")}, nil, layout.ErrOverlap, "iparam, ipntr"},
		{"strict", []fortran.Arg{fortran.Slice(ia), fortran.InOut(o.v).Named("v")}, []lapis.Option{lapis.Strict(true)}, lapis.ErrCopyRefused, "v"},
	} {
		n0 := copies()
		err := fortran.ExplicitN(c.args, never, c.opts...)
		var le *layout.Error
		if !errors.Is(err, c.sentinel) || !errors.As(err, &le) || le.Op != "fortran.ExplicitN" || le.Arg != c.arg {
			t.Errorf("%s: %v, want %v naming fortran.ExplicitN and %s", c.name, err, c.sentinel, c.arg)
		}
		if copies() != n0 {
			t.Errorf("%s: copied before refusing", c.name)
		}
	}
	if err := fortran.ExplicitN([]fortran.Arg{fortran.Slice(ja)}, nil); !errors.Is(err, lapis.ErrInvalid) {
		t.Errorf("ExplicitN(args, nil): %v, want lapis.ErrInvalid", err)
	}
	if !slices.EqualFunc(o.buf, before, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
		t.Errorf("a refused call wrote the view")
	}
	if !slices.Equal(ia, []int32{1, 2, 3, 4, 5}) || !slices.Equal(l, []fortran.Logical{1, 0, 1, 1, 0}) {
		t.Errorf("a refused call wrote the slices")
	}

	// A Slice is explicit-shape only: descriptors refuse it, naming it.
	err := fortran.Call1(ftest.EmptyDesc3, fortran.Slice(buf).Named("workd"))
	var le *layout.Error
	if !errors.Is(err, lapis.ErrInvalid) || !errors.As(err, &le) || le.Arg != "workd" {
		t.Errorf("Call1 of a Slice: %v, want lapis.ErrInvalid naming workd", err)
	}
	if _, err := fortran.Describe(fortran.Slice(ia)); !errors.Is(err, lapis.ErrInvalid) {
		t.Errorf("Describe of a Slice: %v, want lapis.ErrInvalid", err)
	}
	// Call2's aliasing error uses the names too.
	a, _ := views.FromSlice(buf, must(layout.ColMajor(3, 2)))
	if err := fortran.Call2(ftest.Sum, fortran.In(a).Named("x"), fortran.Out(part).Named("s")); !errors.As(err, &le) || le.Arg != "x, s" {
		t.Errorf("Call2 of named aliased arguments: %v, want naming x, s", err)
	}
}

// TestArrayAccessors: each accessor returns the address of its element
// type and panics on another (a float32 array never becomes a double *),
// Explicit takes a Slice as it is, and an empty Slice is a nil address.
func TestArrayAccessors(t *testing.T) {
	f32 := []float32{1, 2}
	err := fortran.Explicit(fortran.Slice(f32), func(a fortran.Array) {
		if a.Float32() != &f32[0] || a.Rows != 2 {
			t.Errorf("Float32 of a Slice: %p, rows %d; want %p, 2", a.Float32(), a.Rows, &f32[0])
		}
		defer func() {
			msg, _ := recover().(string)
			if !strings.Contains(msg, "float64 accessor of an Array of float32") {
				t.Errorf("Float64 of a float32 array: panic %q", msg)
			}
		}()
		_ = a.Float64()
		t.Error("Float64 of a float32 array did not panic")
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		arg  fortran.Arg
		get  func(fortran.Array) bool
		name string
	}{
		{fortran.Slice([]float64{1}), func(a fortran.Array) bool { return *a.Float64() == 1 }, "Float64"},
		{fortran.Slice([]complex64{1i}), func(a fortran.Array) bool { return *a.Complex64() == 1i }, "Complex64"},
		{fortran.Slice([]complex128{2i}), func(a fortran.Array) bool { return *a.Complex128() == 2i }, "Complex128"},
		{fortran.Slice([]int32{3}), func(a fortran.Array) bool { return *a.Int32() == 3 }, "Int32"},
		{fortran.Slice([]int64{4}), func(a fortran.Array) bool { return *a.Int64() == 4 }, "Int64"},
		{fortran.Slice([]fortran.Logical{1}), func(a fortran.Array) bool { return *a.Logical() == 1 }, "Logical"},
		{fortran.In(must(views.FromColMajor([]float64{5}, 1)).View()), func(a fortran.Array) bool { return *a.Float64() == 5 }, "Float64 of a view"},
	} {
		ok := false
		if err := fortran.Explicit(c.arg, func(a fortran.Array) { ok = c.get(a) }); err != nil || !ok {
			t.Errorf("%s: %v, value read %v", c.name, err, ok)
		}
	}
	if err := fortran.Explicit(fortran.Slice([]int32{}), func(a fortran.Array) {
		if a.Int32() != nil || a.Rows != 0 || a.LD != 1 {
			t.Errorf("empty Slice: %p, rows %d, ld %d", a.Int32(), a.Rows, a.LD)
		}
	}); err != nil {
		t.Error(err)
	}
}

// TestCallback: an F77 routine with an EXTERNAL procedure argument
// (ftest's apply) calls back into Go (an //export function) from inside
// Explicit's closure, once per column, with every argument by address.
func TestCallback(t *testing.T) {
	o := newOperand[float64]([]int{3, 2}, []int{1, 4}) // ld 4 > 3 rows
	before := slices.Clone(o.buf)
	if err := fortran.Explicit(fortran.InOut(o.v), func(a fortran.Array) { ftest.Apply(a, 3) }); err != nil {
		t.Fatal(err)
	}
	in := reached(o.v)
	for i, x := range o.buf {
		switch {
		case in[i] && x != 3*before[i]:
			t.Errorf("element at %d: %v, want %v", i, x, 3*before[i])
		case !in[i] && !(isNaN(x) && isNaN(before[i])) && x != before[i]:
			t.Errorf("outside the view, at %d: %v written", i, x)
		}
	}
}
