package views

import (
	"errors"
	"strings"
	"testing"

	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
)

// TestTooLarge: constructors and copies beyond the allocation bound
// return (ToColMajor: panic with) an error matching pool.ErrTooLarge
// (lapis.ErrTooLarge) that names the call, the argument, the shape and
// the bytes, before allocating (Zeros and Eye of 8 TiB died with Go's
// fatal "out of memory" in fromPool).
func TestTooLarge(t *testing.T) {
	for name, f := range map[string]func() error{
		"views.Zeros: shape: [1048576 1048576] float64 elements take 8 TiB": func() error {
			_, err := Zeros[float64](1<<20, 1<<20)
			return err
		},
		"views.Full: shape: [1048576 1048576] float64 elements take 8 TiB": func() error {
			_, err := Full(1.0, 1<<20, 1<<20)
			return err
		},
		"views.Eye: n: [1048576 1048576] complex128 elements take 16 TiB": func() error {
			_, err := Eye[complex128](1 << 20)
			return err
		},
	} {
		err := f()
		if !errors.Is(err, pool.ErrTooLarge) || !strings.HasPrefix(err.Error(), name) || !strings.HasSuffix(err.Error(), "(too large for this machine's memory)") {
			t.Errorf("%v, want pool.ErrTooLarge starting %q", err, name)
		}
	}
	// An extent product beyond an int is still ErrOverflow.
	if _, err := Zeros[float64](1<<40, 1<<40); !errors.Is(err, layout.ErrOverflow) {
		t.Errorf("Zeros(2^40, 2^40): %v, want layout.ErrOverflow", err)
	}
	if _, err := Eye[float64](1 << 40); !errors.Is(err, layout.ErrOverflow) {
		t.Errorf("Eye(2^40): %v, want layout.ErrOverflow", err)
	}

	one, _ := Full(1.0, 1, 1)
	huge, _ := one.View().BroadcastTo(1<<20, 1<<20)
	func() {
		defer func() {
			err, _ := recover().(error)
			if !errors.Is(err, pool.ErrTooLarge) || !strings.HasPrefix(err.Error(), "views.View.ToColMajor: v: ") {
				t.Errorf("ToColMajor of an 8 TiB broadcast panicked with %v, want pool.ErrTooLarge", err)
			}
		}()
		huge.ToColMajor()
	}()
	// The error form: Zeros, then Copy.
	if _, err := Zeros[float64](huge.Shape()...); !errors.Is(err, pool.ErrTooLarge) {
		t.Errorf("Zeros of the broadcast's shape: %v", err)
	}
}
