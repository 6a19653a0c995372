package lapack

import (
	"errors"
	"testing"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestSizesBeforeCopies: a broadcast matrix too large for the LAPACK
// integer, or whose working copy could not be allocated, is an
// ErrOverflow error before any copy (Solve panicked in make: "len out of
// range").
func TestSizesBeforeCopies(t *testing.T) {
	n := 1<<31 + 5
	if IntBits == 64 {
		n = 1 << 23 // n^2 float64: 512 TiB
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
		if err := f(); !errors.Is(err, layout.ErrOverflow) {
			t.Errorf("%s of a %d x %d broadcast: %v, want ErrOverflow", name, n, n, err)
		}
	}
	// A routine that writes it refuses the broadcast before anything.
	if err := Getrf(a, make([]int32, 1)); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Getrf of a broadcast: %v, want ErrOverlap", err)
	}
}
