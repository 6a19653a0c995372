package lapack

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/views"
)

// TestNotFinite: every helper given a NaN or an infinity in what it reads
// returns an error matching lapis.ErrNotFinite that names the operand and
// the element (they returned NaN results with nil errors, or LAPACK's
// misleading "did not converge" / "rejected an argument"); a NaN in the
// triangle Cholesky and EigSym do not read changes nothing.
func TestNotFinite(t *testing.T) {
	spd := func(bad float64, i, j int) views.View[float64] {
		a, _ := views.FromRows([][]float64{{4, 1, 0}, {1, 3, 1}, {0, 1, 2}})
		if i >= 0 {
			a.Set(bad, i, j)
		}
		return a.View()
	}
	b, _ := views.FromColMajor([]float64{1, 2, 3}, 3)
	badB, _ := views.FromColMajor([]float64{1, math.Inf(1), 3}, 3)
	nan, inf := math.NaN(), math.Inf(-1)
	type tc struct {
		name, arg, where string
		err              error
	}
	second := func(_ any, err error) error { return err }
	third := func(_, _ any, err error) error { return err }
	fourth := func(_, _, _ any, err error) error { return err }
	cases := []tc{
		{"Solve NaN a", "a", "(1, 2)", second(Solve(spd(nan, 1, 2), b.View()))},
		{"Solve Inf b", "b", "element 1", second(Solve(spd(0, -1, 0), badB.View()))},
		{"Inv", "a", "(0, 0)", second(Inv(spd(nan, 0, 0)))},
		{"Det", "a", "(2, 1)", second(Det(spd(inf, 2, 1)))},
		{"LogDet", "a", "(2, 1)", third(LogDet(spd(nan, 2, 1)))},
		{"Cholesky", "a", "(2, 1)", second(Cholesky(spd(nan, 2, 1)))},
		{"Cholesky upper", "a", "(0, 1)", second(Cholesky(spd(nan, 0, 1), lapis.UpperTriangle()))},
		{"LU", "a", "(1, 0)", fourth(LU(spd(nan, 1, 0)))},
		{"QR", "a", "(1, 1)", third(QR(spd(inf, 1, 1)))},
		{"LeastSquares", "a", "(2, 0)", second(LeastSquares(spd(nan, 2, 0), b.View()))},
		{"SVD NaN", "a", "(0, 2)", fourth(SVD(spd(nan, 0, 2)))},
		{"SVD Inf", "a", "(1, 1)", fourth(SVD(spd(math.Inf(1), 1, 1)))},
		{"EigSym", "a", "(2, 1)", third(EigSym(spd(nan, 2, 1)))},
		{"Eig", "a", "(0, 1)", third(Eig(spd(nan, 0, 1)))},
	}
	for _, c := range cases {
		var le *Error
		if !errors.Is(c.err, lapis.ErrNotFinite) || !errors.As(c.err, &le) || le.Arg != c.arg || !strings.Contains(c.err.Error(), c.where) {
			t.Errorf("%s: %v, want lapis.ErrNotFinite naming %s %s", c.name, c.err, c.arg, c.where)
		}
	}
	// NaN in the triangle not read: no error, the same factor.
	want, err := Cholesky(spd(0, -1, 0))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Cholesky(spd(nan, 0, 2))
	if err != nil || !equalData(got.Data(), want.Data()) {
		t.Errorf("Cholesky with a NaN above the diagonal (not read): %v", err)
	}
	if _, _, err := EigSym(spd(nan, 0, 2)); err != nil {
		t.Errorf("EigSym with a NaN above the diagonal (not read): %v", err)
	}
}

func equalData(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
