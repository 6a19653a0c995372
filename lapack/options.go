package lapack

import (
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/policy"
)

// The enums and options lapack takes are cblas's, under lapack's names:
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
	// Option changes one call: Strict, NoConditionCheck, QRIteration, and
	// cblas's options (cblas.ForceC, ...).
	Option = cblas.Option
)

const (
	Upper   = cblas.Upper
	Lower   = cblas.Lower
	NonUnit = cblas.NonUnit
	Unit    = cblas.Unit
	Left    = cblas.Left
	Right   = cblas.Right
)

// Strict(true) refuses operand copies in this call (an error matching
// cblas.ErrCopyRefused names the operand), Strict(false) allows them,
// whatever cblas.SetStrict says for the process.
func Strict(on bool) Option { return cblas.Strict(on) }

// Triangle makes a helper that reads one triangle of a symmetric or
// Hermitian matrix (Cholesky, EigSym) read uplo's (Upper or Lower) instead
// of the default, the lower one (as seen through the view passed).
// FromSymDense returns views whose lower triangle is the stored one, so
// the default reads what gonum stored.
func Triangle(uplo Uplo) Option { return policy.Triangle(uplo == Upper) }

// triangleOf is the triangle the options ask a helper to read (default
// Lower).
func triangleOf(opts []Option) Uplo {
	if policy.Configure(opts).Triangle == 1 {
		return Upper
	}
	return Lower
}
