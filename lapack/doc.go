// Package lapack is LAPACK over views: the Fortran routines inside the
// linked OpenBLAS (dgesv_, ...), called in column-major order through cgo,
// for float32, float64, complex64 and complex128.
//
// # Two layers
//
// The layers are named by the rule of package lapis. The routines named as
// LAPACK without the type prefix (Gesv, Getrf, Getrs, Getri, Posv, Potrf,
// Potrs, Potri, Sysv, Hesv, Trtrs, Geqrf, Gelqf, Orgqr, Ormqr, Gels,
// Gelsd, Gesdd, Gesvd, Syevd, Syevr, Geev, Gecon, Pocon, Lange) work in
// place on the caller's views, as LAPACK documents; the real name serves
// complex types too (Syevd is cheevd/zheevd for complex64/complex128,
// Orgqr cungqr/zungqr). The helpers (Solve, Inv, Det, LogDet, Cholesky,
// CholeskySolve, LU, QR, LeastSquares, SVD, EigSym, Eig, Expm; Cond
// returns a number) never modify their arguments and return new tensors.
//
// # Arguments
//
// Right-hand sides b are n x nrhs views, or rank-1 views of n
// elements taken as one column (any stride). The enums (Upper, Lower,
// Unit, NonUnit, Left, Right) are cblas's values under lapack's names, so
// either package's spelling is accepted by both; the options are package
// lapis's (lapis.Strict, lapis.NoConditionCheck, lapis.QRIteration,
// lapis.UpperTriangle).
//
// # Layouts
//
// A matrix argument is (pointer, leading dimension, transpose flag),
// derived from the view's strides every call (layout.Layout.Matrix):
//
//	a 3 x 2 column-major view, ld 4       a.T(): the same memory, 2 x 3
//	  data: a00 a10 a20 .  a01 a11 a21 .     strides [4, 1]: row-major
//	        \__ column 0 _/ \_ column 1 _/   -> (&a00, 4, "T") where the
//	  strides [1, 4] -> (&a00, 4, "N")          routine has a trans argument
//
// A column-major view (layout.Matrix, any leading dimension) goes
// to LAPACK in place. A row-major view goes in place as the transposed
// storage where LAPACK has a transpose argument for it: the matrix of
// Trtrs (a.T() and a.H() of a column-major view cost nothing) and of Gels
// (a.H(), and a.T() for real types: LAPACK's complex gels has no "T"),
// and the working copies of Solve and Det. The Cholesky routines take a
// row-major view in place too, as its storage with the triangle swapped:
// that storage holds the same Hermitian matrix or its conjugate, and the
// factor or inverse LAPACK writes there reads back correctly through the
// view (Potrf, Potri, Pocon: any row-major view; Potrs, Posv: real, or
// conjugated complex, since an unconjugated complex one would solve with
// the conjugate). Getrs and Ormqr
// take LAPACK's own trans argument (Op), because the operator they apply
// is not a view of their matrix argument's elements. Every other operand
// (General views, conjugated column-major views, row-major views of
// routines without a transpose argument) is copied into a pooled compact
// buffer and, if LAPACK writes it, copied back; each such copy is counted
// in lapis.ReadStats().Copies and refused, with an error naming the
// operand, in strict mode (lapis.SetStrict, lapis.Strict).
//
// # Aliasing
//
// A routine that works in place reads and writes the same argument (a of
// Getrf, b of Gesv and Getrs). Its arguments must not share memory with
// each other, and an argument it writes must not have two indices
// sharing an element (a broadcast): both are layout.ErrOverlap, naming
// the later argument, before anything is written. Overlap is decided from
// address ranges, so two disjoint views whose elements interleave are
// refused too. The helpers only read their arguments (they work on their
// own copies), so Solve(a, a) or a broadcast b is fine.
//
// # Threads
//
// Every routine runs under cblas's thread policy (see "Threads"
// in package cblas): on one OpenBLAS thread unless it is large (about
// n >= 512), alone among lapis calls, and finds idle cores (unlike a
// large gemm, a LAPACK routine never takes threads beside busy
// goroutines: its threads meet at every panel and collapse when a core
// is busy); lapis.SetThreads fixes the count instead.
//
// # Workspaces
//
// Each routine asks LAPACK for its workspace size once per
// (routine, type, shape, options), remembers the answer, and takes its
// buffers from internal/rt/pool: a call in steady state allocates nothing.
//
// # Errors
//
// Arguments are checked before LAPACK runs (shapes, lengths,
// overlap between operands, integers that do not fit LAPACK's, pivots that
// are not rows); such errors are *layout.Error values and nothing is
// written. LAPACK's info is kept in an *Error that matches ErrSingular,
// ErrNotPositiveDefinite or ErrNoConvergence with errors.Is and says where
// (Error.Index). Two checks LAPACK does not make keep wrong answers from
// being silent: a numerically rank-deficient matrix in Gels or
// LeastSquares gives ErrRankDeficient (lapis.NoConditionCheck() turns it off), and
// Potrs, Potri and Pocon refuse a factor Potrf did not complete. Pivots are LAPACK's: []int32, 1-based, row i swapped with
// row ipiv[i]-1 in order; Perm turns them into a permutation.
//
// # NaN and Inf
//
// LAPACK does not define what its routines do with a NaN
// or an infinity in their input (reference LAPACK returns garbage or
// iterates on; dgebal and MKL's dgelsd reject the argument; MKL's dgeev
// crashed the process), so lapis looks before it calls, never after:
//
//   - The helpers (Solve, Inv, Det, LogDet, Cholesky, CholeskySolve, LU,
//     QR, LeastSquares, SVD, EigSym, Eig) scan what they read before any
//     LAPACK call: O(n^2) against the routine's O(n^3), one pass along
//     the contiguous axis that stops at the first column holding one
//     (1-3% of Solve and Cholesky at n = 4 to 1000: docs/bench/nan-scan.md).
//     A NaN or an infinity is an error matching lapis.ErrNotFinite that
//     names the operand and its first such element (column-major order),
//     and no result is returned. Only the triangle a helper reads counts
//     (Cholesky, CholeskySolve's l, EigSym). A result that comes out with
//     a NaN from finite input (an overflow inside LAPACK) gives one naming
//     "result" (Solve, Inv, Det, LogDet, Cholesky, CholeskySolve, LU, QR,
//     LeastSquares; the routines of SVD, EigSym and Eig scale their input
//     into range and their results are not looked at).
//   - The in-place routines that iterate to convergence, Syevd, Syevr,
//     Geev, Gesdd, Gesvd and Gelsd (which runs an SVD), scan what they
//     read in the same way (under 2% of them), return the same error and
//     write nothing.
//   - The other in-place routines (Gesv, Getrf, Getrs, Getri, Posv,
//     Potrf, Potrs, Potri, Sysv, Hesv, Trtrs, Geqrf, Gelqf, Orgqr, Ormqr,
//     Gels, Gecon, Pocon, Lange) pass their operands to LAPACK as they
//     are, as LAPACK's own interface does: with a NaN or an infinity in
//     what they read, their results are undefined (in practice the NaN
//     spreads through the output with info 0; MKL's dgels rejects the
//     argument, an error matching ErrArgument; Lange returns NaN). They
//     are the direct methods a hot loop calls in place, and the scan
//     would add 2-9% to a factorisation and as much as the work itself
//     to a triangular solve: scan first (or call a helper) where the
//     input may not be finite.
//
// # Conditioning
//
// Solve and Inv (and batch's) return their result together
// with an error matching ErrIllConditioned (and ErrSingular), carrying
// Error.Rcond, when the reciprocal condition number in the one norm is
// below machine epsilon (as LAPACK counts it, eps/2); NoConditionCheck
// turns the check off. The norm of a is taken before the factorisation.
// Inv then has a^-1 and takes rcond = 1 / (||a|| ||a^-1||) exactly
// (checkInverse). Solve estimates ||a^-1|| from the LU factors
// (checkCondition): exactly in Go up to order 16, above by the iteration
// of LAPACK's ?lacn2 (Hager's method with Higham's refinements, what
// ?gecon runs) on plain ?trsv solves instead of gecon's scaled ?latrs,
// with ?gecon itself when a solve over- or underflows. The estimate is a
// lower bound on ||a^-1|| (an upper bound on rcond), tested to lie within
// 10x of the exact value on matrices of condition 1 to 1e20 in every type
// and never to be less than gecon's. It costs 1.1-3x less than gecon
// but still about five products by a^-1 or a^-H: the check adds 10-50%
// to Solve for n = 1000 down to 100 (docs/bench/lapack.md#the-conditioning-check).
//
// # gonum
//
// Package gonumlapack implements gonum's lapack.Float64 (row-major,
// zero-based pivots, gonum's panics and workspace queries) on the same
// LAPACK; with package gonumblas for BLAS, two lines put an existing
// gonum/mat program on OpenBLAS:
//
//	blas64.Use(gonumblas.Implementation{})
//	lapack64.Use(gonumlapack.Implementation{})
//
// Its documentation lists, per method, the identity that lets LAPACK
// take gonum's row-major storage in place, or the copy made where LAPACK
// has none.
package lapack
