// Package dist is distributed dense linear algebra for lapis: ScaLAPACK
// (with its BLACS and PBLAS) over MPI, Debian's libscalapack-openmpi on
// Open MPI, for matrices distributed 2-D block-cyclically over a P x Q
// grid of processes. Every rank runs the same program under mpirun:
//
//	mpirun --oversubscribe -np 4 ./prog        (as root: --allow-run-as-root)
//
// A Matrix's local piece on each rank is a column-major lapis view
// (numroc rows x numroc columns, leading dimension LLD), which cblas,
// lapack and batch take as it is:
//
//	global 6 x 6 in 2 x 2 blocks, 2 x 2 grid      rank 0's local piece
//	   [ A00 A01 A02 ]                            [ A00 A02 ]  4 x 4,
//	   [ A10 A11 A12 ]   block (I, J) lives on    [ A20 A22 ]  LLD 4
//	   [ A20 A21 A22 ]   grid (I mod 2, J mod 2)
//
// # Life cycle
//
// Init starts MPI with MPI_THREAD_FUNNELED on a goroutine
// locked to its OS thread, and every MPI, BLACS and ScaLAPACK call of the
// package runs on that thread (so any goroutine may call dist; calls are
// serialised, as the BLACS need). Finalize leaves the BLACS with
// Cblacs_exit(1), so that they do not finalise MPI behind Go's back, then
// finalises MPI. Go's signal handlers survive MPI_Init (Open MPI does not
// replace handlers already installed): a nil dereference still panics
// with a Go stack trace (see Init, SignalReport).
//
// # Collective calls
//
// NewGrid, New, Wrap, Scatter, Gather, Redistribute and
// the routines are collective over every rank of the job and must be
// called in the same order on all; ranks outside a grid take part with
// empty local pieces.
//
// # Arguments agreed on
//
// An argument can be wrong on one rank only (Wrap's
// local piece, Syevd's w, a Scatter root's src). So every entry point
// that communicates checks its arguments on each rank and then, before
// anything else is sent, takes part in one MPI_Allreduce in which every
// rank learns whether any rank's check failed and whether all ranks
// called the same entry point with the same global arguments (a hash of
// shapes, block sizes, grid, uplo, op):
//
//	rank 0: ok        \
//	rank 1: w bad      > allreduce -> rank 1: its own error ("w: length 7 ...")
//	rank 2: ok        /              ranks 0, 2: "w: on rank 1: length 7 ..."
//
// The lowest failing rank's error (sentinel, argument, rule) is then
// broadcast, and every rank returns an error with that sentinel and
// argument: the failing rank its own, the others one whose rule starts
// "on rank R:". Ranks whose global arguments differ all get an error
// matching lapis.ErrInvalid naming "arguments". Nothing has been written
// when such an error returns. A call costs that one allreduce of three
// integers more: 13-15 us a call on 2 ranks of a shared 2-core machine,
// against 0.11 ms for Gesv at n = 64 and seconds at n = 4000
// (docs/bench/dist.md, "Validation").
//
// # NaN and Inf
//
// dist follows lapack's rule for routines that work in place: nothing is
// scanned before the call, except by Syevd (pdsyevd can hang on a NaN:
// ranks take different branches and wait for each other). Gesv, Potrs and
// Gels look for a NaN in b after the call, Syevd in w, Gesvd in s, Potrf
// on its factor's diagonal (O(n nrhs / p) or O(n)), agreed on with info.
// When the routine failed or a result holds a NaN, every rank scans its
// pieces of what the routine read (one triangle where only one is read)
// and one MPI_Allreduce finds the first NaN or infinity in global
// column-major order: an *Error matching lapis.ErrNotFinite whose Arg
// names the operand, the same on every rank. The routines overwrite their
// operands, so the element named is the first left non-finite after the
// call: the input's, or where ScaLAPACK spread it. A NaN result with
// finite operands names "result". A singular (Gesv) or rank-deficient
// (Gels) a is reported as such whatever b holds. ScaLAPACK may print
// "illegal value" lines of its own (DLASCL, DSTEQR) on such input first.
// Gemm follows BLAS (a NaN propagates; no error), as cblas does.
//
// # Routines
//
// The routines, each for float64 and complex128 (ScaLAPACK's d and z):
//
//	Gemm    p?gemm    c = alpha op(a) op(b) + beta c     (a, b kept)
//	Gesv    p?gesv    a x = b by LU                      (a: LU, b: x)
//	Potrf   p?potrf   Cholesky, triangle uplo            (that triangle: factor)
//	Potrs   p?potrs   a x = b with Potrf's factor        (b: x)
//	Syevd   pdsyevd / pzheevd   a z = z diag(w), uplo    (that triangle destroyed)
//	Gesvd   p?gesvd   a = u diag(s) vt, tall or wide     (a destroyed)
//	Gels    p?gels    least squares / minimum norm       (a: QR or LQ, b: x)
//
// They work in place, as ScaLAPACK does; each routine's comment says
// which operands it overwrites. uplo is lapack.Upper or lapack.Lower, the
// values lapack.Potrf, lapack.Syevd and lapack.Triangle take, naming a
// triangle of the global matrix. ScaLAPACK's info is agreed on by every
// rank (one MPI_Allreduce) and returned as an *Error matching lapack's
// sentinels (lapack.ErrSingular, lapack.ErrNotPositiveDefinite,
// lapack.ErrNoConvergence, lapack.ErrRankDeficient: Gels checks the rank
// as lapack.Gels does, exactly and by p?trcon), with the global index it
// points at. Workspaces are asked once per shape and grid (the largest
// over the grid's ranks) and taken from lapis's pool.
//
// float32 and complex64 (ScaLAPACK's s and c routines) are not offered
// yet, though Debian's library has every one needed (psgesv_, pcheevd_,
// psgemr2d_, ...): the bindings here are hand-written d/z pairs, so the
// two types mean generating them as cblas's are, and Syevd's w and
// Gesvd's s would become []float32 for them (a change of those two
// signatures). Convert to float64 or complex128 meanwhile.
//
// # Hosts
//
// Across machines mpirun starts the same program on each (a hostfile,
// ssh between them: docs/dist.md, "Running").
// scripts/dist-docker.sh runs the tests with one rank in each of four
// containers and checks that a host lost mid-job ends the job with an
// error instead of a hang (Open MPI's keepalive settings are in
// docker/Dockerfile.dist).
//
// # Copies and aliasing
//
// Local pieces are never copied: ScaLAPACK gets their
// address and LLD. Scatter, Gather and Redistribute are pdgemr2d calls
// from one distribution straight into another's memory; the root's matrix
// of Scatter and Gather goes in place when it is column-major (any
// leading dimension) and through one counted copy otherwise (refused in
// strict mode). Operands of one call must not share memory.
package dist
