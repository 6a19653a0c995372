// Package batch runs BLAS and LAPACK over batches of matrices: tensors
// [M, N, B1, B2, ...] whose batch axes are on the right, so that each
// matrix of a compact column-major batch is one contiguous block BLAS and
// LAPACK take as it is, with no repacking.
package batch

import "github.com/lapis-go/lapis/views"

// Scalar is the set of element types: views.Scalar.
type Scalar = views.Scalar
