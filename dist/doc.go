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
// Life cycle. Init starts MPI with MPI_THREAD_FUNNELED on a goroutine
// locked to its OS thread, and every MPI, BLACS and ScaLAPACK call of the
// package runs on that thread (so any goroutine may call dist; calls are
// serialised, as the BLACS need). Finalize leaves the BLACS with
// Cblacs_exit(1), so that they do not finalise MPI behind Go's back, then
// finalises MPI. Go's signal handlers survive MPI_Init (Open MPI does not
// replace handlers already installed): a nil dereference still panics
// with a Go stack trace (see Init, SignalReport).
//
// Collective calls. NewGrid, New, Wrap, Scatter, Gather, Redistribute and
// the routines are collective over every rank of the job and must be
// called in the same order on all; ranks outside a grid take part with
// empty local pieces. Argument checks depend only on what every rank
// knows alike (global shapes, block sizes, grids), so an argument error
// is returned on every rank and none is left waiting; a root's check of
// its own Scatter/Gather operand is shared with one MPI_Allreduce.
//
// Routines, each for float64 and complex128 (ScaLAPACK's d and z):
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
// over the grid's ranks) and taken from lapis's pool. float32 and
// complex64 (ScaLAPACK's s and c) are not offered.
//
// Hosts. Across machines mpirun starts the same program on each (a
// hostfile, ssh between them; see the README's "Beyond one machine").
// scripts/dist-docker.sh runs the tests with one rank in each of four
// containers and checks that a host lost mid-job ends the job with an
// error instead of a hang (Open MPI's keepalive settings are in
// docker/Dockerfile.dist).
//
// Copies and aliasing. Local pieces are never copied: ScaLAPACK gets their
// address and LLD. Scatter, Gather and Redistribute are pdgemr2d calls
// from one distribution straight into another's memory; the root's matrix
// of Scatter and Gather goes in place when it is column-major (any
// leading dimension) and through one counted copy otherwise (refused in
// strict mode). Operands of one call must not share memory.
package dist
