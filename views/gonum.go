package views

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/blas/cblas64"
	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis/layout"
)

// Interop with gonum. gonum stores matrices row-major: element (i, j) of a
// General (and of a mat.Dense) is Data[i*Stride + j]. To lapis that is a
// strided view with strides [Stride, 1], a layout BLAS takes as it is (the
// "T" reading, layout.RowMajorPacked or RowMajorStrided), so gonum -> lapis
// is zero-copy: the view aliases gonum's data. The other direction has to
// produce row-major storage from lapis's column-major tensors, so
// lapis -> gonum is one copy through the copy engine (the transposing copy
// it is built for).

// FromDense returns a view of m's data, without copying: shape [r, c],
// strides [stride, 1]. Writes through the view change m.
func FromDense(m *mat.Dense) View[float64] {
	g := m.RawMatrix()
	v, err := fromGeneral("views.FromDense", g.Rows, g.Cols, g.Stride, g.Data)
	if err != nil {
		panic("views: mat.Dense broke its own invariants: " + err.Error()) // gonum guarantees them
	}
	return v
}

// FromCDense is FromDense for complex128 matrices.
func FromCDense(m *mat.CDense) View[complex128] {
	g := m.RawCMatrix()
	v, err := fromGeneral("views.FromCDense", g.Rows, g.Cols, g.Stride, g.Data)
	if err != nil {
		panic("views: mat.CDense broke its own invariants: " + err.Error())
	}
	return v
}

// FromGeneral returns a view of g's data, without copying: shape
// [Rows, Cols], strides [Stride, 1]. g is checked: Rows, Cols >= 0,
// Stride >= max(1, Cols), and Data long enough (errors match
// layout.ErrShape and layout.ErrBounds).
func FromGeneral(g blas64.General) (View[float64], error) {
	return fromGeneral("views.FromGeneral", g.Rows, g.Cols, g.Stride, g.Data)
}

// FromGeneral32 is FromGeneral for float32.
func FromGeneral32(g blas32.General) (View[float32], error) {
	return fromGeneral("views.FromGeneral32", g.Rows, g.Cols, g.Stride, g.Data)
}

// FromCGeneral64 is FromGeneral for complex64.
func FromCGeneral64(g cblas64.General) (View[complex64], error) {
	return fromGeneral("views.FromCGeneral64", g.Rows, g.Cols, g.Stride, g.Data)
}

// FromCGeneral is FromGeneral for complex128.
func FromCGeneral(g cblas128.General) (View[complex128], error) {
	return fromGeneral("views.FromCGeneral", g.Rows, g.Cols, g.Stride, g.Data)
}

func fromGeneral[T Scalar](op string, rows, cols, stride int, data []T) (View[T], error) {
	// An empty matrix may have stride 0 (gonum's zero Dense does).
	if stride < 0 || (rows > 0 && cols > 0 && stride < max(1, cols)) {
		return View[T]{}, layout.Errorf(layout.ErrShape, op, "Stride", "stride %d is less than max(1, Cols = %d)", stride, cols)
	}
	l, err := layout.New([]int{rows, cols}, []int{stride, 1}, 0)
	if err != nil {
		return View[T]{}, err
	}
	return FromSlice(data, l)
}

// ToDense returns a new mat.Dense holding v, a rank-2 view, in gonum's
// row-major order: one copy through the copy engine. A view with no
// elements gives an empty mat.Dense (gonum has no 0 x n matrices). Errors
// match layout.ErrShape when v is not rank 2, lapis.ErrReleased when it
// is a view of a released tensor (as for the other To* functions).
func ToDense(v View[float64]) (*mat.Dense, error) {
	g, err := toGeneral("views.ToDense", v)
	if err != nil || g.rows == 0 || g.cols == 0 {
		return &mat.Dense{}, err
	}
	return mat.NewDense(g.rows, g.cols, g.data), nil
}

// ToCDense is ToDense for complex128.
func ToCDense(v View[complex128]) (*mat.CDense, error) {
	g, err := toGeneral("views.ToCDense", v)
	if err != nil || g.rows == 0 || g.cols == 0 {
		return &mat.CDense{}, err
	}
	return mat.NewCDense(g.rows, g.cols, g.data), nil
}

// ToGeneral32 returns a new row-major blas32.General holding v (rank 2):
// one copy through the copy engine.
func ToGeneral32(v View[float32]) (blas32.General, error) {
	g, err := toGeneral("views.ToGeneral32", v)
	return blas32.General{Rows: g.rows, Cols: g.cols, Stride: max(1, g.cols), Data: g.data}, err
}

// ToCGeneral64 returns a new row-major cblas64.General holding v (rank 2):
// one copy through the copy engine.
func ToCGeneral64(v View[complex64]) (cblas64.General, error) {
	g, err := toGeneral("views.ToCGeneral64", v)
	return cblas64.General{Rows: g.rows, Cols: g.cols, Stride: max(1, g.cols), Data: g.data}, err
}

type general[T Scalar] struct {
	rows, cols int
	data       []T
}

// toGeneral copies a rank-2 view into new compact row-major storage.
func toGeneral[T Scalar](op string, v View[T]) (general[T], error) {
	if v.released() {
		return general[T]{}, errReleased(op, "v")
	}
	if v.Rank() != 2 {
		return general[T]{}, layout.Errorf(layout.ErrShape, op, "v", "rank %d; a gonum matrix needs rank 2", v.Rank())
	}
	r, c := v.l.Dim(0), v.l.Dim(1)
	l, err := layout.RowMajor(r, c)
	if err != nil {
		return general[T]{}, err
	}
	data := make([]T, r*c)
	dst, err := FromSlice(data, l)
	if err == nil {
		err = Copy(dst, v)
	}
	return general[T]{rows: r, cols: c, data: data}, err
}
