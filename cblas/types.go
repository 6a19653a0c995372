package cblas

import "github.com/lapis-go/lapis/internal/clib"

// Uplo says which triangle of a symmetric, Hermitian or triangular matrix
// is referenced, as seen through the view passed (not as stored: a
// transposed view's upper triangle is its storage's lower one, and lapis
// tells BLAS so).
type Uplo int

const (
	Upper Uplo = iota
	Lower
)

func (u Uplo) flip() Uplo { return 1 - u }

func (u Uplo) c() clib.Uplo {
	if u == Lower {
		return clib.Lower
	}
	return clib.Upper
}

// Diag says whether a triangular matrix has an implicit unit diagonal.
type Diag int

const (
	NonUnit Diag = iota
	Unit
)

func (d Diag) c() clib.Diag {
	if d == Unit {
		return clib.Unit
	}
	return clib.NonUnit
}

// Side says whether the special matrix multiplies from the left or right.
type Side int

const (
	Left Side = iota
	Right
)

func (s Side) flip() Side { return 1 - s }

func (s Side) c() clib.Side {
	if s == Right {
		return clib.Right
	}
	return clib.Left
}

func checkEnum(op, arg string, v, n int) error {
	if v < 0 || v >= n {
		return layoutErr(op, arg, v)
	}
	return nil
}
