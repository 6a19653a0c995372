package lapack

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/views"
)

// hilbertOf is the n x n Hilbert matrix, 1 / (i + j + 1).
func hilbertOf(n int) views.View[float64] {
	h := must(views.Zeros[float64](n, n))
	for j := range n {
		for i := range n {
			h.Set(1/float64(i+j+1), i, j)
		}
	}
	return h.View()
}

// The ill-conditioned error names what computed the reciprocal condition
// number: up to order 16 Solve computes it exactly in Go, so dgecon, which
// did not run, is not named; above, the estimate is dgecon's. Inv's is
// exact from the inverse at every order.
func TestIllConditionedNamesWhatRan(t *testing.T) {
	for _, c := range []struct {
		name    string
		n       int
		inv     bool
		routine string
		how     string
	}{
		{"Solve Hilbert(14)", 14, false, "exact rcond", "computed exactly in Go from the LU factors"},
		{"Solve Hilbert(24)", 24, false, "dgecon", "estimated from the LU factors as dgecon estimates it"},
		{"Inv Hilbert(14)", 14, true, "exact rcond", "computed exactly from the inverse"},
		{"Inv Hilbert(24)", 24, true, "exact rcond", "computed exactly from the inverse"},
	} {
		a := hilbertOf(c.n)
		op := "lapack.Solve"
		var err error
		if c.inv {
			op = "lapack.Inv"
			_, err = Inv(a)
		} else {
			_, err = Solve(a, must(views.Full[float64](1, c.n)).View())
		}
		var le *Error
		if !errors.Is(err, ErrIllConditioned) || !errors.As(err, &le) {
			t.Errorf("%s: %v, want ErrIllConditioned", c.name, err)
			continue
		}
		if le.Op != op || le.Routine != c.routine {
			t.Errorf("%s: Op %q, Routine %q; want %q, %q", c.name, le.Op, le.Routine, op, c.routine)
		}
		msg := err.Error()
		if want := op + ": " + c.routine + ": matrix is ill-conditioned: "; !strings.HasPrefix(msg, want) || !strings.Contains(msg, c.how) {
			t.Errorf("%s: %q, want it to start %q and say %q", c.name, msg, want, c.how)
		}
		if c.routine != "dgecon" && strings.Contains(msg, "gecon") {
			t.Errorf("%s: %q names gecon, which did not run", c.name, msg)
		}
		// The hint is a call that works.
		if !strings.Contains(msg, "lapis.NoConditionCheck()") {
			t.Errorf("%s: %q does not name lapis.NoConditionCheck()", c.name, msg)
		} else if c.inv {
			_, err = Inv(a, lapis.NoConditionCheck())
		} else {
			_, err = Solve(a, must(views.Full[float64](1, c.n)).View(), lapis.NoConditionCheck())
		}
		if err != nil {
			t.Errorf("%s with NoConditionCheck: %v", c.name, err)
		}
	}
}

// Every *Error of lapack names the function called first, then the routine
// that failed: the routines' own, and the helpers', which report the
// routines they run as their own.
func TestErrorPrefix(t *testing.T) {
	singular := must(views.FromColMajor([]float64{1, 2, 2, 4}, 2, 2)).View()
	notPD := must(views.FromColMajor([]float64{1, 2, 2, 1}, 2, 2)).View()
	nan := must(views.FromColMajor([]float64{1, 0, 0, 0}, 2, 2))
	nan.Set(math.NaN(), 1, 1)
	b := func() views.View[float64] { return must(views.Full[float64](1, 2, 1)).View() }
	copyOf := func(v views.View[float64]) views.View[float64] { return v.ToColMajor().View() }
	_, solveErr := Solve(singular, b())
	_, cholErr := Cholesky(notPD)
	_, invErr := Inv(singular)
	_, nanErr := Solve(nan.View(), b())
	_, detErr := LeastSquares(must(views.Zeros[float64](3, 2)).View(), must(views.Full[float64](1, 3)).View())
	for _, c := range []struct {
		what, prefix string
		err          error
	}{
		{"Getrf", "lapack.Getrf: dgetrf: matrix is singular: ", Getrf(copyOf(singular), make([]int32, 2))},
		{"Gesv", "lapack.Gesv: dgesv: matrix is singular: ", Gesv(copyOf(singular), b(), make([]int32, 2))},
		{"Potrf", "lapack.Potrf: dpotrf: matrix is not positive definite: ", Potrf(Lower, copyOf(notPD))},
		{"Solve", "lapack.Solve: dgetrf: matrix is singular: ", solveErr},
		{"Cholesky", "lapack.Cholesky: dpotrf: matrix is not positive definite: ", cholErr},
		{"Inv", "lapack.Inv: dgetrf: matrix is singular: ", invErr},
		{"Solve NaN", "lapack.Solve: not a finite number: a: ", nanErr},
		{"LeastSquares rank 0", "lapack.LeastSquares: dgelsd: matrix is rank deficient: ", detErr},
	} {
		if c.err == nil || !strings.HasPrefix(c.err.Error(), c.prefix) {
			t.Errorf("%s: %v, want it to start %q", c.what, c.err, c.prefix)
		}
		var le *Error
		if errors.As(c.err, &le) && le.Op != strings.SplitN(c.prefix, ":", 2)[0] {
			t.Errorf("%s: Op %q", c.what, le.Op)
		}
	}
}
