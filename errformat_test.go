package lapis_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/npy"
	"github.com/lapis-go/lapis/views"
)

// errPrefix is the start of every lapis error: the function the caller
// called, as package.Func or package.Type.Method, then ": ".
var errPrefix = regexp.MustCompile(`^(lapis|layout|views|cblas|lapack|batch|npy|fortran|dist)\.[A-Z]\w*(\.[A-Z]\w*)?: `)

// TestErrorPrefix: errors of every public package, of each error type
// (layout.Error, lapack.Error, batch.Error, npy's wrapped I/O errors,
// dist's before Init), start with the function called, in one format.
// dist.Error's own text is checked in package dist.
func TestErrorPrefix(t *testing.T) {
	singular := func() views.View[float64] {
		return must(views.FromColMajor([]float64{1, 2, 2, 4}, 2, 2)).View()
	}
	batchSingular := func() views.View[float64] {
		return must(views.FromColMajor([]float64{1, 0, 0, 1, 1, 2, 2, 4}, 2, 2, 2)).View()
	}
	_, layoutErr := layout.New([]int{-1}, []int{1}, 0)
	_, zerosErr := views.Zeros[float64](-1)
	_, sliceErr := colMajor(2, 2).Slice(0, 0, 2, 0)
	_, solveErr := lapack.Solve(singular(), ones(2))
	_, rankErr := lapack.Solve(eyes(2, 2), ones(2))
	_, illErr := lapack.Inv(hilbert(14))
	_, batchSolveErr := batch.Solve(batchSingular(), ones(2))
	_, readErr := npy.ReadFile[float64](filepath.Join(t.TempDir(), "none.npy"))
	_, magicErr := npy.Read[float64](bytes.NewReader([]byte("not a numpy file")))
	_, workersErr := lapis.SetWorkers(-1)
	_, gridErr := dist.NewGrid(1, 1)
	for _, c := range []struct {
		pkg string
		err error
	}{
		{"layout", layoutErr},
		{"views", zerosErr},
		{"views", sliceErr},
		{"cblas", cblas.Gemm(1, colMajor(2, 3), colMajor(2, 3), 0, colMajor(2, 3))},
		{"lapack", lapack.Getrf(singular(), make([]int32, 2))},
		{"lapack", solveErr},
		{"lapack", rankErr},
		{"lapack", illErr},
		{"batch", batch.Gesv(batchSingular(), ones(2, 1, 2))},
		{"batch", batchSolveErr},
		{"batch", batch.Gesv(eyes(2, 3), ones(2, 1))},
		{"npy", readErr},
		{"npy", magicErr},
		{"fortran", fortran.Explicit(fortran.In(views.View[float64]{}), func(fortran.Array) {})},
		{"lapis", workersErr},
		{"dist", gridErr},
	} {
		if c.err == nil {
			t.Errorf("%s: no error", c.pkg)
			continue
		}
		if m := errPrefix.FindStringSubmatch(c.err.Error()); m == nil || m[1] != c.pkg {
			t.Errorf("%s: %q does not start with %s.Func: ", c.pkg, c.err, c.pkg)
		}
	}
}
