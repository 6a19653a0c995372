package cblas

import (
	"errors"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/views"
)

// TestMulTooLarge: the outer product of a broadcast column of 2^20
// elements with its transpose is 8 TiB; Mul returns lapis.ErrTooLarge
// naming the result before allocating it (it died with Go's fatal "out of
// memory").
func TestMulTooLarge(t *testing.T) {
	one, _ := views.Full(1.0, 1, 1)
	x, err := one.View().BroadcastTo(1<<20, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Mul(x, x.T())
	if c != nil || !errors.Is(err, lapis.ErrTooLarge) {
		t.Fatalf("Mul of an 8 TiB outer product: %v, %v; want lapis.ErrTooLarge", c, err)
	}
	for _, want := range []string{"cblas.Mul: the result: ", "[1048576 1048576] float64", "8 TiB", "too large for this machine's memory"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
