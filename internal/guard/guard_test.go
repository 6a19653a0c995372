package guard

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"
	"unsafe"
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
