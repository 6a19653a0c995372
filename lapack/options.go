package lapack

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
)

// The enums lapack takes are cblas's, under lapack's names:
// one definition behind both, so that a value made in either package is
// accepted by the other (lapack.Upper == cblas.Upper).
type (
	// Uplo says which triangle of a symmetric, Hermitian or triangular
	// matrix is read, as seen through the view passed: see cblas.Uplo.
	Uplo = cblas.Uplo
	// Diag says whether a triangular matrix has an implicit unit diagonal.
	Diag = cblas.Diag
	// Side says from which side a matrix multiplies (Ormqr).
	Side = cblas.Side
)

const (
	Upper   = cblas.Upper
	Lower   = cblas.Lower
	NonUnit = cblas.NonUnit
	Unit    = cblas.Unit
	Left    = cblas.Left
	Right   = cblas.Right
)

// triangleOf is the triangle the options ask a helper to read (default
// Lower).
func triangleOf(opts []lapis.Option) Uplo {
	if lapis.Configure(opts...).UpperTriangle {
		return Upper
	}
	return Lower
}
