package cblas

import (
	"errors"
	"runtime"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestSizesBeforeCopies: a broadcast operand too long for the BLAS
// integer is an ErrOverflow error, one whose copy could not be allocated
// an ErrTooLarge error, before anything is copied (it was a 16 GiB copy
// and a fatal OOM, or a panic in make). The heap does not grow by the
// operand's size.
func TestSizesBeforeCopies(t *testing.T) {
	n, want := 1<<31+5, layout.ErrOverflow // beyond a 32-bit BLAS integer
	if IntBits == 64 {
		n, want = 1<<45, lapis.ErrTooLarge // a copy of 256 TiB: beyond what lapis allocates
	}
	one, _ := views.Full(1.0, 1)
	x, err := one.View().BroadcastTo(n)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Dot(x, x); !errors.Is(err, want) {
		t.Errorf("Dot of a broadcast of %d: %v, want %v", n, err, want)
	}
	if _, err := Asum(x); !errors.Is(err, want) {
		t.Errorf("Asum of a broadcast of %d: %v, want %v", n, err, want)
	}
	y, _ := views.Zeros[float64](1)
	row, _ := one.View().Reshape(1, 1)
	a, _ := row.BroadcastTo(1, n)
	if err := Gemv(1.0, a, x, 0.0, y.View()); !errors.Is(err, want) {
		t.Errorf("Gemv with a 1 x %d broadcast: %v, want %v", n, err, want)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("the refused calls allocated %d bytes", grew)
	}
}
