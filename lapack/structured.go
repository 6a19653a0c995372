package lapack

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// gonum's structured matrices, viewed in place. gonum stores one triangle
// of a SymDense or TriDense, row-major; lapis's helpers read the lower
// triangle of a symmetric matrix by default. The conversions below keep
// the stored triangle where the reader will look, so that no lapis
// function can read the triangle gonum did not store by default.

// FromSymDense returns a view of s's storage, without copying, whose LOWER
// triangle is the triangle s stores (gonum's SymDense stores its upper
// one): a symmetric matrix equals its transpose, so the transposed reading
// of an upper-stored row-major array is the same matrix with the data in
// its lower triangle, column-major with leading dimension s's stride, as
// LAPACK takes it in place. Pass it to Cholesky, EigSym, Potrf(Lower, ...)
// and the other lower-triangle readers. The other triangle of the view
// holds whatever s's unused storage holds (zeros for SymDense); do not
// read it. Writes through the view change s.
func FromSymDense(s *mat.SymDense) views.View[float64] {
	r := s.RawSymmetric()
	if r.N == 0 {
		v, _ := views.FromSlice([]float64{}, must2(layout.ColMajor(0, 0)))
		return v
	}
	// Element (i, j) of the row-major storage is data[i*stride + j].
	strides := []int{r.Stride, 1} // row-major: upper stored in the upper triangle
	if r.Uplo == blas.Upper {
		strides = []int{1, r.Stride} // its transpose: the stored triangle is the lower one
	}
	l, err := layout.New([]int{r.N, r.N}, strides, 0)
	if err != nil {
		panic(err) // gonum's own sizes always fit
	}
	v, err := views.FromSlice(r.Data, l)
	if err != nil {
		panic(err)
	}
	return v
}

// FromTriDense returns a view of t's storage, without copying (row-major,
// as gonum stores it), with the triangle it stores and whether its
// diagonal is implicitly one, as Trtrs and cblas's triangular routines
// take them (v, uplo, diag := FromTriDense(t); Trtrs(uplo, diag, v, b)
// reads only what t stores).
// Writes through the view change t.
func FromTriDense(t *mat.TriDense) (v views.View[float64], uplo Uplo, diag Diag) {
	r := t.RawTriangular()
	uplo, diag = Upper, NonUnit
	if r.Uplo == blas.Lower {
		uplo = Lower
	}
	if r.Diag == blas.Unit {
		diag = Unit
	}
	if r.N == 0 {
		v, _ = views.FromSlice([]float64{}, must2(layout.ColMajor(0, 0)))
		return v, uplo, diag
	}
	l, err := layout.New([]int{r.N, r.N}, []int{r.Stride, 1}, 0)
	if err != nil {
		panic(err)
	}
	if v, err = views.FromSlice(r.Data, l); err != nil {
		panic(err)
	}
	return v, uplo, diag
}

func must2(l layout.Layout, err error) layout.Layout {
	if err != nil {
		panic(err)
	}
	return l
}
