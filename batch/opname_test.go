package batch

import (
	"errors"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestStridedErrorsNameBatch: an error from the strided loops batch runs
// on (cblas's product, through internal/link) names the batch call, not
// the internal function.
func TestStridedErrorsNameBatch(t *testing.T) {
	buf := make([]float64, 2*4*4*3)
	l, _ := layout.New([]int{4, 4, 3}, []int{2, 8, 32}, 0) // General matrices
	a, _ := views.FromSlice(buf, l)
	b, _ := views.Zeros[float64](4, 4, 3)
	c, _ := views.Zeros[float64](4, 4, 3)
	err := Gemm(1.0, a, b.View(), 0.0, c.View(), lapis.Strict(true))
	var le *layout.Error
	if !errors.Is(err, lapis.ErrCopyRefused) || !errors.As(err, &le) || le.Op != "batch.Gemm" {
		t.Fatalf("strict Gemm of General matrices: %v, want ErrCopyRefused from batch.Gemm", err)
	}
}
