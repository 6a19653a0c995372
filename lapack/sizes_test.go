package lapack

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestSizesBeforeCopies: a broadcast matrix too large for the LAPACK
// integer, or whose working copy could not be allocated, is an
// ErrOverflow (ErrTooLarge) error before any copy (Solve panicked in make: "len out of
// range").
func TestSizesBeforeCopies(t *testing.T) {
	n, want := 1<<31+5, layout.ErrOverflow
	if IntBits == 64 {
		n, want = 1<<23, lapis.ErrTooLarge // n^2 float64: 512 TiB
	}
	one, _ := views.Full(1.0, 1, 1)
	a, err := one.View().BroadcastTo(n, n)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := views.Full(1.0, 1)
	bb, _ := b.View().BroadcastTo(n)
	for name, f := range map[string]func() error{
		"Solve":    func() error { _, err := Solve(a, bb); return err },
		"Inv":      func() error { _, err := Inv(a); return err },
		"Det":      func() error { _, err := Det(a); return err },
		"Cholesky": func() error { _, err := Cholesky(a); return err },
	} {
		if err := f(); !errors.Is(err, want) {
			t.Errorf("%s of a %d x %d broadcast: %v, want %v", name, n, n, err, want)
		}
	}
	// A routine that writes it refuses the broadcast before anything.
	if err := Getrf(a, make([]int32, 1)); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Getrf of a broadcast: %v, want ErrOverlap", err)
	}
}

// TestRightHandSidesTooLarge: a broadcast b whose copy (the solution's
// storage) is beyond the allocation bound is lapis.ErrTooLarge naming b,
// before a is factored or anything allocated (Solve, CholeskySolve and
// LeastSquares died with Go's fatal "out of memory"). The bound is
// lowered to 1 GiB for the test, so the extents stay within the LAPACK
// integer on every machine.
func TestRightHandSidesTooLarge(t *testing.T) {
	defer func(m uint64) { pool.MaxBytes = m }(pool.MaxBytes)
	pool.MaxBytes = 1 << 30
	a, _ := views.FromRows([][]float64{{4, 1, 1}, {1, 4, 1}, {1, 1, 4}})
	one, _ := views.Full(1.0, 1, 1)
	b, err := one.View().BroadcastTo(3, 1<<26) // 1.5 GiB as a copy
	if err != nil {
		t.Fatal(err)
	}
	before := a.View().ToColMajor()
	for name, f := range map[string]func() error{
		"lapack.Solve":         func() error { _, err := Solve(a.View(), b); return err },
		"lapack.CholeskySolve": func() error { _, err := CholeskySolve(a.View(), b); return err },
		"lapack.LeastSquares":  func() error { _, err := LeastSquares(a.View(), b); return err },
	} {
		err := f()
		if !errors.Is(err, lapis.ErrTooLarge) || !strings.HasPrefix(err.Error(), name+": b: ") {
			t.Errorf("%s with a 3 x 2^26 broadcast b: %v, want lapis.ErrTooLarge naming b", name, err)
		}
	}
	if !slices.Equal(a.Data(), before.Data()) {
		t.Error("a was changed by a refused call")
	}
}
