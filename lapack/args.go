package lapack

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/layout"
)

// lapis.Option characters and checks shared by the routines.

// uploChar is LAPACK's uplo for the triangle u of the view o was read
// from: a view that went in transposed has its triangles swapped.
func uploChar[T Scalar](u cblas.Uplo, o *arg[T]) byte {
	if (u == cblas.Lower) == (o.trans == 'N') {
		return 'L'
	}
	return 'U'
}

func diagChar(d cblas.Diag) byte {
	if d == cblas.Unit {
		return 'U'
	}
	return 'N'
}

func checkUplo(op string, u cblas.Uplo) error {
	if u != cblas.Upper && u != cblas.Lower {
		return layout.Errorf(lapis.ErrInvalid, op, "uplo", "value %d is neither cblas.Upper nor cblas.Lower", u)
	}
	return nil
}

// square checks that the view o was read from is n x n and returns n.
func square[T Scalar](op, name string, o *arg[T]) (int, error) {
	r, c := o.viewShape()
	if r != c {
		return 0, layout.Errorf(layout.ErrShape, op, name, "shape [%d %d], want a square matrix", r, c)
	}
	return r, nil
}

// rowsMatch checks that the view o was read from has n rows.
func rowsMatch[T Scalar](op, name string, o *arg[T], n int, of string) error {
	if r, _ := o.viewShape(); r != n {
		return layout.Errorf(layout.ErrShape, op, name, "%d rows, want %d (%s)", r, n, of)
	}
	return nil
}

// releaseAll drops every operand's copy without writing it back (the
// error path before LAPACK ran).
func releaseAll[T Scalar](ops ...*arg[T]) {
	for _, o := range ops {
		o.release()
	}
}

// finishAll writes back and releases every operand.
func finishAll[T Scalar](ops ...*arg[T]) {
	for _, o := range ops {
		o.finish()
	}
}

// Op is LAPACK's trans argument, for routines that apply an operator that
// is not a view of their matrix argument's elements (Getrs: the matrix
// whose LU factors it holds; Ormqr: the Q its reflectors define). Where the
// matrix is the operand itself, transposes are views (a.T(), a.H()).
type Op byte

const (
	NoTrans   Op = 'N' // op(A) = A
	Trans     Op = 'T' // op(A) = A^T
	ConjTrans Op = 'C' // op(A) = A^H (A^T for real types)
)

func checkOp(op string, t Op) error {
	if t != NoTrans && t != Trans && t != ConjTrans {
		return layout.Errorf(lapis.ErrInvalid, op, "trans", "value %q is not NoTrans, Trans or ConjTrans", byte(t))
	}
	return nil
}
