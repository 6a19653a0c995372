package batch

import (
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
)

// The enums and options batch takes, under batch's names: one definition
// (cblas's) behind cblas's, lapack's and these.
type (
	// Uplo says which triangle of each matrix is read: see cblas.Uplo.
	Uplo = cblas.Uplo
	// Option changes one call: Strict, lapack's options
	// (lapack.NoConditionCheck, ...), cblas's (cblas.ForceC, ...).
	Option = cblas.Option
)

const (
	Upper = cblas.Upper
	Lower = cblas.Lower
)

// Strict(true) refuses operand copies in this call (an error matching
// cblas.ErrCopyRefused names the operand), Strict(false) allows them,
// whatever cblas.SetStrict says for the process.
func Strict(on bool) Option { return cblas.Strict(on) }

// NoConditionCheck is lapack.NoConditionCheck: rank-deficient matrices of
// LeastSquares are not reported beyond LAPACK's exact test.
func NoConditionCheck() Option { return lapack.NoConditionCheck() }
