package guard

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/lapis-go/lapis/views"
)

// TestPlace checks that the extremes of a view sit against the guard: a
// read one element beyond faults, on either side, for negative strides
// too.
func TestPlace(t *testing.T) {
	if !Supported {
		t.Skip("guard pages need Linux")
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for _, side := range Sides {
		for _, strides := range [][]int{{1, 5}, {-2, -9}, {7, 1}} {
			a := NewArena(side)
			v := View[complex128](a, "x", []int{4, 3}, strides)
			lo, hi, _ := v.Layout().Span()
			if lo != 0 || hi != len(v.Data())-1 {
				t.Fatalf("%v %v: span [%d, %d] of %d elements", side, strides, lo, hi, len(v.Data()))
			}
			p := unsafe.Pointer(unsafe.SliceData(v.Data()))
			beyond := unsafe.Add(p, -16)
			if side == High {
				beyond = unsafe.Add(p, 16*len(v.Data()))
			}
			err := func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("%v", r)
					}
				}()
				sinkC = *(*complex128)(beyond)
				return nil
			}()
			if err == nil {
				t.Fatalf("%v %v: reading beyond the view did not fault", side, strides)
			}
			a.Free()
		}
	}
}

// sink and sinkC keep the compiler from dropping test reads.
var (
	sink  float64
	sinkC complex128
)

// fake records what parent reports.
type fake struct {
	name string
	errs []string
}

func (f *fake) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *fake) Fatalf(format string, args ...any) {
	f.errs = append(f.errs, "FATAL "+fmt.Sprintf(format, args...))
	panic(f)
}
func (f *fake) Logf(format string, args ...any) {}
func (f *fake) Name() string                    { return f.name }
func (f *fake) Deadline() (time.Time, bool)     { return time.Time{}, false }

func selfGroup() Group {
	read := func(a *Arena, past int) {
		x := Slice[float64](a, "x", 3)
		p := unsafe.Pointer(unsafe.SliceData(x))
		sink = *(*float64)(unsafe.Add(p, 8*past))
	}
	return Group{Name: "self", Full: true, Cases: []Case{
		{Name: "ok", Run: func(a *Arena) error { read(a, 2); return nil }},
		{Name: "wrong", Run: func(a *Arena) error { return errors.New("wrong value") }},
		{Name: "gofault", Side: High, Run: func(a *Arena) error { read(a, 3); return nil }},
		{Name: "crash", Side: High, Known: "a test", Run: func(a *Arena) error {
			done := make(chan bool)
			go func() { read(a, 4); close(done) }() // not recovered: the child dies
			<-done
			return nil
		}},
		{Name: "after", Run: func(a *Arena) error { read(a, 0); return nil }},
	}}
}

// TestRunner runs a group whose cases pass, fail, fault in Go (recovered
// in the child) and crash the child, and checks what the parent reports.
func TestRunner(t *testing.T) {
	if !Supported {
		t.Skip("guard pages need Linux")
	}
	if _, ok := os.LookupEnv(envGroup); ok {
		Run(t, selfGroup())
		return
	}
	f := &fake{name: t.Name()}
	parent(f, selfGroup())
	got := strings.Join(f.errs, "\n")
	for _, want := range []string{
		"case wrong: wrong value",
		"case gofault: fault at ",
		"0 bytes past the end of x",
		"case crash: crashed the process: SIGSEGV at ",
		"8 bytes past the end of x (element 2 after its last",
		"known bug: a test",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("reports lack %q:\n%s", want, got)
		}
	}
	if len(f.errs) != 3 {
		t.Errorf("%d reports, want 3:\n%s", len(f.errs), got)
	}
}

// Vector operands compare up to a unit factor per column: a real column
// of the other sign, a complex one times i, across a batch axis too; a
// column that differs otherwise still fails.
func TestVectorsUpToPhase(t *testing.T) {
	want := []complex128{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	for _, c := range []struct {
		name string
		f    [4]complex128 // the factor of each column of got
		ok   bool
	}{
		{"same", [4]complex128{1, 1, 1, 1}, true},
		{"signs", [4]complex128{-1, 1, -1, -1}, true},
		{"phases", [4]complex128{1i, -1i, complex(0.6, 0.8), -1}, true},
		{"scaled", [4]complex128{2, 1, 1, 1}, false},
	} {
		got := make([]complex128, len(want))
		for i := range got {
			got[i] = want[i] * c.f[i/3]
		}
		// [3 2 2]: columns of 3 elements, 2 x 2 of them.
		mk := func(x []complex128) views.View[complex128] {
			v, err := views.FromColMajor(x, 3, 2, 2)
			if err != nil {
				t.Fatal(err)
			}
			return v.View()
		}
		g, w := mk(got), mk(want)
		alignColumns(g, w)
		err := closeEnough("x", g.Data(), w.Data(), 1e-12)
		if (err == nil) != c.ok {
			t.Errorf("%s: alignColumns then compare: %v; want ok %v", c.name, err, c.ok)
		}
		cg, cw := Canonical(mk(slices.Clone(got))), Canonical(mk(slices.Clone(want)))
		err = closeEnough("x", cg.Data(), cw.Data(), 1e-12)
		if (err == nil) != c.ok {
			t.Errorf("%s: Canonical then compare: %v; want ok %v", c.name, err, c.ok)
		}
	}
}
