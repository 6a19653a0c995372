// Package lapis holds what is process-wide in lapis, the Go bridge to
// BLAS and LAPACK (OpenBLAS by default) with a pure-Go layout shim: the
// options every package's calls take, strict mode and the copy
// statistics, the thread settings, and the report of the linked library
// and its kernel set. It is pure Go; the packages that call the library
// are cblas (BLAS), lapack (LAPACK), batch (many small matrices at once),
// fortran (hand-off to Fortran code) and dist (ScaLAPACK over MPI), on
// the layout model of packages layout and views.
//
// # Options and settings
//
// Every call takes ...Option: Strict, ForceC, ForcePureGo,
// NoConditionCheck, QRIteration, UpperTriangle, LowerTriangle. A package
// ignores the options that do not concern it. Configure says what a list
// of options resolves to. The process-wide settings are SetStrict,
// SetThreads and SetWorkers; ReadStats counts C calls and operand copies;
// Info and KernelSet report the library, the CPU and the kernel set in
// use.
//
// # Names
//
// One rule names the operations of every package:
//
//   - LAPACK's names (Gesv, Getrf, Getri, Potrf, Potrs, Geqrf, Gels,
//     Gesdd, Syevd, ...) work in place, as LAPACK does: they overwrite
//     their matrix operands and return only an error (and what LAPACK
//     returns besides, such as a rank).
//   - Plain words (Solve, LU, Inv, Cholesky, CholeskySolve, QR, SVD,
//     EigSym, LeastSquares, Det, LogDet, Mul) leave their operands as
//     they are and return new results.
//   - A plain word with To (SolveTo, InvTo, CholeskyTo, ...) writes the
//     caller's destination, its first argument, without allocating.
//
// Routines for complex matrices keep the real name (Syevd, Orgqr, Ormqr
// take complex operands too); there are no per-type aliases.
//
// # Errors
//
// Bad input returns an error naming the call, the argument and the rule
// broken, matching a sentinel of package layout (ErrShape, ErrOverlap,
// ErrOverflow, ...) or of this package (ErrCopyRefused, ErrReleased,
// ErrUnsupported, ErrLibrary), and changes nothing.
//
// # Layouts and aliasing
//
// This package holds no data: its functions take no views. The rules
// every package follows for the operands it takes are one: an output
// that overlaps itself or an input is refused with layout.ErrOverlap
// (exact aliasing is allowed only where a function's documentation says
// so), and an operand BLAS or LAPACK cannot take as it is, as (pointer,
// leading dimension, transpose flag), is copied, counted in
// Stats.Copies, and refused in strict mode:
//
//	column-major [M, N], strides [1, LD]  ->  in place, "N"
//	row-major    [M, N], strides [LD, 1]  ->  in place, "T" (or "C")
//	anything else                         ->  a compact copy, counted
package lapis
