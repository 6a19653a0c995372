package batch

import (
	"github.com/lapis-go/lapis/cblas"
)

// The enums batch takes, under batch's names: one definition
// (cblas's) behind cblas's, lapack's and these.
type (
	// Uplo says which triangle of each matrix is read: see cblas.Uplo.
	Uplo = cblas.Uplo
)

const (
	Upper = cblas.Upper
	Lower = cblas.Lower
)
