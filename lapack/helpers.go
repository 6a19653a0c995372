package lapack

import (
	"errors"

	"github.com/lapis-go/lapis/internal/rt/cint"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The working copies of the helpers users reach for first (Solve, Inv,
// Det, LU and Cholesky in solve.go, QR and LeastSquares in qr.go, SVD in
// svd.go, EigSym and Eig in eig.go). They never modify their arguments:
// each works on one compact copy of its input (its working copy, not
// counted in lapis.Stats.Copies: the call would need it whatever the
// layout) and returns new tensors, compact column-major, whose buffers
// come from the pool (Release them to reuse). Where a LAPACK routine takes
// a transpose argument (Solve, Det), the working copy of a row-major input
// is a plain copy of its storage, solved with "T": no transposing copy.

// storageCopy returns a compact copy of the square matrix a's storage and
// how LAPACK must read it to mean a: "N" for a column-major view (or any
// view that is not row-major), "T" for a row-major one (the copy is a^T),
// "C" for a conjugated row-major one (the copy is a^H).
func storageCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], Op, int, error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, NoTrans, 0, err
	}
	if a.Rank() != 2 {
		return nil, NoTrans, 0, rankErr(op, "a", a, "2")
	}
	n := a.Layout().Dim(0)
	if a.Layout().Dim(1) != n {
		return nil, NoTrans, 0, layout.Errorf(layout.ErrShape, op, "a", "shape %v, want a square matrix", a.Shape())
	}
	if err := copyFits[T](op, "a", n, n); err != nil {
		return nil, NoTrans, 0, err
	}
	if m, ok := a.Layout().Matrix(); ok && m.Trans {
		s := a.T()
		trans := Trans
		if a.IsConj() {
			s, trans = s.Conj(), ConjTrans
		}
		return s.ToColMajor(), trans, n, nil
	}
	return a.ToColMajor(), NoTrans, n, nil
}

// squareCopy is workCopy for a square a: it checks the shape first and
// returns the copy and the order.
func squareCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], int, error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, 0, err
	}
	if a.Rank() == 2 && a.Layout().Dim(0) != a.Layout().Dim(1) {
		return nil, 0, layout.Errorf(layout.ErrShape, op, "a", "shape %v, want a square matrix", a.Shape())
	}
	t, err := workCopy(op, a)
	if err != nil {
		return nil, 0, err
	}
	return t, a.Layout().Dim(0), nil
}

// workCopy returns a compact column-major copy of the rank-2 view a.
func workCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, err
	}
	if a.Rank() != 2 {
		return nil, rankErr(op, "a", a, "2")
	}
	rows, cols := a.Layout().Dim(0), a.Layout().Dim(1)
	if err := copyFits[T](op, "a", rows, cols+1); err != nil {
		return nil, err
	}
	t := spareZeros[T](rows, cols)
	_ = views.Copy(t.View(), a) // same shape, fresh memory
	return t, nil
}

// spareZeros returns a zero rows x cols column-major tensor whose slice
// has one column of capacity after it: room for the over-read of
// OpenBLAS's complex LAPACK (hasSpare), so that the helpers' own buffers
// go to LAPACK in place, with no copy their design does not need.
func spareZeros[T Scalar](rows, cols int) *views.Tensor[T] {
	buf := pool.Make[T](rows*cols, rows*(cols+1))
	t, _ := views.FromColMajor(buf, rows, cols) // the length is the product
	return t
}

// copyFits checks, before a working copy of a rows x cols matrix is made,
// that its extents fit the LAPACK integer and its buffer can be allocated.
func copyFits[T Scalar](op, name string, rows, cols int) error {
	if err := cint.LAPACK(op, name, rows, cols); err != nil {
		return err
	}
	return pool.Check[T](op, name, rows, cols)
}

// asMatrix returns b as a matrix: a rank-1 view is one column.
func asMatrix[T Scalar](op string, b views.View[T]) (views.View[T], error) {
	if err := b.CheckLive(op, "b"); err != nil {
		return b, err
	}
	switch b.Rank() {
	case 1:
		return b.Reshape(b.Layout().Dim(0), 1) // a rank-1 view always reshapes
	case 2:
		return b, nil
	}
	return b, rankErr(op, "b", b, "1 or 2")
}

func errorsIsSingular(err error) bool { return errors.Is(err, ErrSingular) }

// toFloat returns the real part of x as float64.
func toFloat[T Scalar](x T) float64 { return real(scalar.Complex128(x)) }
