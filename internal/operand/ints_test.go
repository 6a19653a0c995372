package operand

import (
	"errors"
	"testing"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/layout"
)

// TestLAPACKInts: integers beyond LAPACK's are errors, never truncated.
func TestLAPACKInts(t *testing.T) {
	err := LAPACKInts("op", "a", 3, 1<<31)
	if clib.LAPACKIntBits == 32 && !errors.Is(err, layout.ErrOverflow) {
		t.Fatalf("2^31 with 32-bit LAPACK integers: %v", err)
	}
	if clib.LAPACKIntBits == 64 && err != nil {
		t.Fatalf("2^31 with 64-bit LAPACK integers: %v", err)
	}
	if err := LAPACKInts("op", "a", 1<<31-1, -1<<31); err != nil {
		t.Fatal(err)
	}
}
