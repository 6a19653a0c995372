// Package gonumblas implements gonum's BLAS interfaces (blas.Float32,
// blas.Float64, blas.Complex64, blas.Complex128) on the BLAS library lapis
// links (OpenBLAS by default), so that
//
//	blas64.Use(gonumblas.Implementation{})
//	cblas128.Use(gonumblas.Implementation{})
//
// make gonum/mat, and anything else written against gonum.org/v1/gonum/
// blas, run on it. Package gonumlapack does the same for gonum's LAPACK.
//
// # Layout
//
// gonum's matrices are row-major: element (i, j) of an m x n matrix with
// leading dimension lda is a[i*lda+j]. Nothing is copied: read in
// column-major order, the same memory is the n x m transpose with the
// same lda, so every call becomes the column-major call on the
// transposes (the table is in gonumblas.go, beside the one function per
// flag that applies it):
//
//	a (row-major, m x n, lda)       the same memory, column-major (n x m, lda)
//	+----+----+----+-- pad          +----+----+----+-- pad
//	| a00| a01| a02|                | s00| s10| s20|     s = a^T
//	+----+----+----+--              +----+----+----+--
//	| a10| a11| a12|                | s01| s11| s21|
//	+----+----+----+--              +----+----+----+--
//
//	row-major C = op(A) op(B)  is  column-major C^T = op(B)^T op(A)^T
//	symmetric and triangular:  Upper <-> Lower;  symm, trmm, trsm: Left <-> Right
//	gemv, gbmv, trmv, ...:     NoTrans <-> Trans (band widths kL <-> kU)
//	syrk, syr2k:               NoTrans <-> Trans;  herk, her2k: NoTrans <-> ConjTrans
//
// The complex cases that column-major CBLAS cannot express without
// conjugating data (op(A) = A^H in gemv, gbmv, trmv, trsv, tbmv, tbsv,
// tpmv and tpsv; gerc; and every Hermitian Level 2 routine, hemv, hbmv,
// hpmv, her, hpr, her2 and hpr2, since a Hermitian matrix's transpose is
// its conjugate) go to CBLAS's row-major entry points instead, which
// OpenBLAS serves with conjugating kernels, again without copies. Level 3
// needs no such case.
//
// # Arguments and errors
//
// Arguments are checked as gonum's own implementation
// (gonum.org/v1/gonum/blas/gonum) checks them, in the same order, and bad
// ones panic with gonum's messages ("blas: n < 0", "blas: insufficient
// length of x", ...). gonum's interfaces have no error results, so a size,
// increment or leading dimension that does not fit the BLAS library's
// integer (cblas.IntBits) panics too, with an error matching
// layout.ErrOverflow (lapis.ErrLibrary when the library's integer is not
// the one lapis was compiled for). Empty problems return without calling
// C; every call into C counts in lapis.ReadStats().Calls, and what lapis
// computes in Go instead in Small.
//
// Results agree with gonum's up to rounding: gonum's testblas suite runs
// against Implementation in this package's tests, in full. lapis's rules
// about the library hold here as in package cblas (docs/defects.md):
// complex dots with a non-unit increment are computed in Go (OpenBLAS
// reads past such vectors), complex64 ?asum in Go on the kernel sets that
// add the wrong elements, i?amax over a NaN by the reference rule, real
// ?symv in gonum's Go on the kernel sets that read past its operands,
// and complex Level 2 vectors go to the library in padded buffers where
// its kernels read past them. Drotg and Srotg are computed in Go by
// gonum's safely scaled reference whatever library is linked (OpenBLAS
// 0.3.21's ?rotg overflows near the ends of the floating-point range:
// OpenMathLib/OpenBLAS#4130).
//
// # Aliasing
//
// As in BLAS, outputs may not overlap inputs except as the routine
// allows: y of axpy may be x itself (the same slice and increment; lapis
// computes that case in Go, as OpenBLAS's complex kernels store y before
// they read x), and the vector x of trmv, trsv and their band and packed
// forms is both input and output. Any other overlap gives undefined
// results, as it does in gonum.
//
// Implementation holds no state; its methods may be called concurrently.
// They are generated from gonum's interfaces (zmethods.go, by
// internal/gen), each a call of this package's one generic implementation
// of its routine family (gemm for Sgemm, Dgemm, Cgemm and Zgemm).
package gonumblas
