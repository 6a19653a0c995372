package dist

import (
	"errors"
	"testing"

	"github.com/lapis-go/lapis/lapack"
)

// An *Error's text starts with the function called, then the ScaLAPACK
// routine, as every lapis error's.
func TestErrorText(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{infoErr("dist.Gesv", "pdgesv", 2, lapack.ErrSingular), "dist.Gesv: pdgesv: matrix is singular: U(1, 1) is exactly zero (global, 0-based)"},
		{infoErr("dist.Potrf", "pzpotrf", 3, lapack.ErrNotPositiveDefinite), "dist.Potrf: pzpotrf: matrix is not positive definite: its leading minor of order 3 is not positive definite"},
		{infoErr("dist.Syevd", "pdsyevd", 4, lapack.ErrNoConvergence), "dist.Syevd: pdsyevd: algorithm did not converge (info 4)"},
	} {
		var de *Error
		if c.err.Error() != c.want || !errors.As(c.err, &de) || de.Op == "" {
			t.Errorf("%v, want %q", c.err, c.want)
		}
	}
}
