package batch

import (
	"errors"
	"strings"
	"testing"

	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// A batch's errors name the function called: the *Error's text starts with
// it and does not repeat it per matrix, and each matrix's *lapack.Error
// names it too (Op), not the lapack routine run per matrix, whose name
// stays in Routine.
func TestErrorNamesTheCall(t *testing.T) {
	// Three 2x2 matrices, the second singular.
	sing := func() views.View[float64] {
		return must2(views.FromColMajor([]float64{2, 0, 0, 2, 1, 2, 2, 4, 3, 0, 0, 3}, 2, 2, 3)).View()
	}
	b := func() views.View[float64] { return must2(views.Full[float64](1, 2, 1, 3)).View() }
	_, solveErr := Solve(sing(), b())
	_, invErr := Inv(sing())
	_, lsErr := LeastSquares(sing(), b())
	for _, c := range []struct {
		op, routine string
		err         error
	}{
		{"batch.Gesv", "dgesv", Gesv(sing(), b())},
		{"batch.Getrf", "dgetrf", Getrf(sing(), make([]int32, 6))},
		{"batch.Solve", "dgesv", solveErr},
		{"batch.Inv", "dgetrf", invErr},
		{"batch.LeastSquares", "dgels", lsErr},
	} {
		var be *Error
		var le *lapack.Error
		if !errors.As(c.err, &be) || !errors.As(c.err, &le) {
			t.Errorf("%s: %v, want a *batch.Error", c.op, c.err)
			continue
		}
		msg := c.err.Error()
		if !strings.HasPrefix(msg, c.op+": 1 of 3 matrices failed: [1]: ") || strings.Count(msg, c.op) != 1 {
			t.Errorf("%s: %q, want it to start %q and name the call once", c.op, msg, c.op+": 1 of 3 matrices failed: [1]: ")
		}
		if be.Op != c.op || le.Op != c.op || !strings.HasPrefix(le.Routine, c.routine[1:]) && le.Routine != c.routine {
			t.Errorf("%s: Op %q, matrix Op %q, Routine %q", c.op, be.Op, le.Op, le.Routine)
		}
		if !strings.HasPrefix(le.Error(), c.op+": ") {
			t.Errorf("%s: the matrix's error %q does not start with the call", c.op, le)
		}
	}
}

// Solve's ill-conditioned matrices name what computed the reciprocal
// condition number, as lapack.Solve's do: exactly, in Go, up to order 16
// (on the tiny kernels' path and on the per-matrix one).
func TestBatchIllConditionedNamesWhatRan(t *testing.T) {
	near := must2(views.FromColMajor([]float64{1, 1, 1, 1 + 0x1p-52, 1, 1, 1, 1 + 0x1p-52}, 2, 2, 2))
	hilbert := must2(views.Zeros[float64](14, 14, 2))
	for k := range 2 {
		for j := range 14 {
			for i := range 14 {
				hilbert.Set(1/float64(i+j+1), i, j, k)
			}
		}
	}
	for _, a := range []*views.Tensor[float64]{near, hilbert} {
		n := a.Shape()[0]
		_, err := Solve(a.View(), must2(views.Full[float64](1, n)).View())
		var le *lapack.Error
		if !errors.Is(err, lapack.ErrIllConditioned) || !errors.As(err, &le) {
			t.Errorf("order %d: %v, want ErrIllConditioned", n, err)
			continue
		}
		if le.Op != "batch.Solve" || le.Routine != "exact rcond" || strings.Contains(err.Error(), "gecon") {
			t.Errorf("order %d: Op %q, Routine %q: %v", n, le.Op, le.Routine, err)
		}
	}
}
