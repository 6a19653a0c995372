package lapack

import (
	"errors"
	"strings"
	"testing"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Errors name the function the caller called and say how to fix the
// call.
func TestErrorsNameTheCall(t *testing.T) {
	sq := must(views.Zeros[float64](3, 3))
	rect := must(views.Zeros[float64](2, 3))
	batch := must(views.Zeros[float64](3, 3, 5))
	_, zerosErr := views.Zeros[float64](-1, 3)
	_, sliceErr := sq.View().Slice(0, 0, 3, 0)
	_, detErr := Det(rect.View())
	_, solveErr := Solve(batch.View(), must(views.Zeros[float64](3, 5)).View())
	gesvErr := Gesv(batch.View(), must(views.Zeros[float64](3, 1, 5)).View(), make([]int32, 3))
	gemmErr := cblas.Gemm(1, sq.View(), must(views.Zeros[float64](3, 3)).View(), 0, sq.View())
	for _, c := range []struct {
		what string
		err  error
		want []string
	}{
		{"views.Zeros(-1, 3)", zerosErr, []string{"views.Zeros"}},
		{"Slice step 0", sliceErr, []string{"views.View.Slice", "step 0", "bad shape"}},
		{"Det of a 2x3", detErr, []string{"lapack.Det"}},
		{"Solve of a batch", solveErr, []string{"lapack.Solve", "package batch"}},
		{"Gesv of a batch", gesvErr, []string{"lapack.Gesv", "package batch"}},
		{"Gemm c = a", gemmErr, []string{"cblas.Gemm", "input a"}},
	} {
		if c.err == nil {
			t.Errorf("%s: no error", c.what)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.what, c.err, w)
			}
		}
	}
}

// Error.Index of Solve does not depend on a's layout: the second column is
// zero, so a's own LU stops at pivot 1; the transposed storage's
// factorisation would stop at 2.
func TestSolveIndexLayout(t *testing.T) {
	rows := []float64{1, 0, 2, 3, 0, 4, 5, 0, 7}
	colMajor := must(views.FromRowMajor(rows, 3, 3)).View()
	rowMajor, _ := views.FromSlice(rows, must(layout.RowMajor(3, 3)))
	b := must(views.Zeros[float64](3))
	for name, a := range map[string]views.View[float64]{"column-major": colMajor, "row-major": rowMajor} {
		_, err := Solve(a, b.View())
		var le *Error
		if !errors.As(err, &le) || le.Index != 1 {
			t.Errorf("%s: Solve: %v, want index 1", name, err)
		}
	}
}
