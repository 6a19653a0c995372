package cblas

import "github.com/lapis-go/lapis/views"

// Test operands come from internal/test/testmat; the references here work on
// plain values.

// snapshot returns the values of a rank-2 view, row by row.
func snapshot[T views.Scalar](v views.View[T]) [][]T {
	out := make([][]T, v.Layout().Dim(0))
	for i := range out {
		out[i] = make([]T, v.Layout().Dim(1))
		for j := range out[i] {
			out[i][j] = v.At(i, j)
		}
	}
	return out
}
