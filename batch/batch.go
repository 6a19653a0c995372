// Package batch runs BLAS and LAPACK over batches of matrices: tensors
// [M, N, B1, B2, ...] whose batch axes are on the right, so that each
// matrix of a compact column-major batch is one contiguous block BLAS and
// LAPACK take as it is, with no repacking.
//
// Gemm multiplies batches with Julia-style broadcasting of the batch axes.
// Its BLAS description of the matrices (flag, leading dimension) is
// derived once per call; the matrices are then run without a cgo call
// each: float64 products with every side up to 64 run the Go-assembly
// kernel of internal/kernel in a Go loop (on CPUs with AVX2 and FMA), other products one C loop per
// chunk (cblas per matrix, or a plain kernel for tiny ones), and a batch
// whose a (or b) is one matrix folds into a single gemm when the layouts
// allow.
//
// The LAPACK functions (Solve, LU, Inv, Cholesky, CholeskySolve, QR,
// LeastSquares, Det, LogDet, SVD, EigSym) work in place matrix by matrix
// through package lapack; small systems of Solve run in one C loop. One
// failing matrix does not stop the others: the call returns an *Error
// mapping batch indices to *lapack.Error.
//
// Chunks of a batch run on a bounded set of workers, each locked to its
// own OS thread (SetWorkers; default GOMAXPROCS), so that the number of
// OS threads calling OpenBLAS stays bounded; while small matrices run,
// OpenBLAS is set to one thread per call, so results do not depend on how
// the batch is split. That setting is OpenBLAS's, process-wide: other
// goroutines' BLAS calls meanwhile run on one thread too, and a
// cblas.SetThreads made during a batch is undone when it ends. Copies follow cblas's policy: none for batches of
// BLAS-addressable matrices, one per call (Gemm) or per matrix (LAPACK)
// otherwise, counted and refused in strict mode.
package batch

import "github.com/lapis-go/lapis/views"

// Scalar is the set of element types: views.Scalar.
type Scalar = views.Scalar
