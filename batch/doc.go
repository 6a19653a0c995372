// Package batch runs BLAS and LAPACK over batches of matrices: tensors
// [M, N, B1, B2, ...] whose batch axes are on the right, so that each
// matrix of a compact column-major batch is one contiguous block BLAS and
// LAPACK take as it is, with no repacking.
//
//	a [M, N, B]: each matrix one contiguous column-major block
//	  data: | a[:, :, 0] | a[:, :, 1] | ... | a[:, :, B-1] |
//	  strides [1, M, M*N]: a[i, j, t] at i + j*M + t*M*N
//	b [N, K] (no batch axes): one block that every matrix reads (stride 0
//	  along the batch axes, as b.BroadcastTo(N, K, B) gives)
//
// Gemm multiplies batches with Julia-style broadcasting of the batch axes.
// A batch whose a (or b) is one matrix folds into a single gemm when the
// layouts allow; otherwise the batch axes are merged where they step as
// one, and each run of matrices along the first one goes to cblas's
// strided product, which derives the BLAS description once and runs the
// products without a cgo call each (the Go-assembly kernel for small
// float64 products, one C loop otherwise).
//
// Mul returns the products as a new compact batch [M, N, B...] (from the
// pool; Release it when done), B... the broadcast of a's and b's batch
// axes: Gemm with alpha 1 and beta 0 into views.Zeros, its errors named
// batch.Mul.
//
// Names follow the rule of package lapis. The LAPACK names (Gesv, Getrf,
// Potrf, Potrs, Geqrf, Gels, Gesdd, Syevd) work in place matrix by matrix
// through package lapack; Gesv hands runs of systems to lapack's strided
// solve, one C loop each. One failing matrix does not stop the others:
// the call returns an *Error mapping batch indices to *lapack.Error.
//
// A matrix with a NaN or an infinity where the call reads is one of
// them: lapack's finite-input rule per matrix (finite.go). Every
// function, the LAPACK-named ones too, scans each matrix's inputs before
// the matrix reaches LAPACK, lapack's strided solve or the tiny kernels
// (O(n^2) against O(n^3)); such a matrix is not computed (in place its
// operands stay as they were) and its error matches lapis.ErrNotFinite
// and names the operand and the input's element.
//
// SolveTo, InvTo, CholeskyTo and CholeskySolveTo write a caller's
// destination, first as in copy(dst, src): the inputs are not modified
// and the destination receives, bit for bit, what the in-place function
// leaves in a copy of the input (SolveTo: Gesv on a compact copy of a
// and on x holding b; CholeskyTo's other strict triangle is zeroed, as
// numpy.linalg.cholesky returns it). On the tiny kernels a destination
// with its input's strides is written in the same pass, with no copy:
// each input read once, each result written once. For any other
// destination the workers make the copy themselves, a few hundred
// matrices at a time just before they work on them, so that it is split
// with the work and read from cache. Either is cheaper than a copy by
// the caller followed by the in-place function. A destination may be
// exactly the input it replaces (x and b, dst and a: the call runs in
// place; InvTo(a, a) inverts in place) but must not otherwise overlap an
// input (layout.ErrOverlap).
//
// The plain words (Solve, Inv, Cholesky, CholeskySolve, LeastSquares,
// Det, LogDet, Mul) return new compact batches and leave their operands
// as they are; Solve, Inv, Cholesky and CholeskySolve are their To forms
// into a new tensor.
//
// The functions that only read their right-hand sides b (Solve,
// SolveTo, CholeskySolve, CholeskySolveTo, LeastSquares) broadcast b
// over a's batch axes by Gemm's rule for its inputs: b [n, k], or the
// vector [n], holds the same right-hand sides for every matrix, and the
// result is [n, k, B...] ([n, B...]). The in-place forms write b, which
// must then have a's batch axes.
//
// A batch with enough work is split into chunks that run on a bounded set
// of workers, each locked to its own OS thread (lapis.SetWorkers; default
// GOMAXPROCS), so that the OS threads batch adds to those calling OpenBLAS
// stay bounded; a batch that is not split runs on the caller's goroutine.
// A tiny batch (orders 2 to 8, float32 and float64) runs on lane kernels
// that call no C; split, its chunks run on up to as many plain
// goroutines, not locked, which wait 200 us for more work before they
// park; each CPU takes the same matrices call after call (package
// internal/rt/split), so that a batch used again finds them in the caches
// of the core that last worked on them, in chunks that halve as the
// work runs out, so that the workers finish together.
// While small matrices run, the batch holds a one-thread section of
// cblas's thread policy (see "Threads" in package cblas): every call it
// makes runs on one OpenBLAS thread, so results do not depend on how the
// batch is split, and no other lapis call raises OpenBLAS's count until
// it ends. OpenBLAS's own setting is not touched: with a count fixed by
// lapis.SetThreads(n), n > 1, the batch's calls run on n threads and a
// batch is split over at most GOMAXPROCS/n workers.
//
// Sizes are decided before anything is allocated or copied: matrix
// extents beyond the LAPACK integer, and results or working copies beyond
// lapis's allocation bound (pool.MaxBytes: 128 TiB, or the machine's
// memory and swap when less, as a broadcast input of huge logical size
// asks), are errors matching layout.ErrOverflow.
//
// Copies follow cblas's policy: none for batches of BLAS-addressable
// matrices, one per run (Gemm, Gesv) or per matrix (other LAPACK)
// otherwise, counted and refused in strict mode.
//
// batch itself has no cgo: its C loops, the strided product and the
// strided solve, are internal/strided's over internal/clib, and its
// per-matrix rules (conditioning, finite input) are lapack's, from the
// internal packages lapack uses too.
//
// # Aliasing
//
// The LAPACK-named functions write their operands in place; those must
// not share memory with the other operands, and a written operand must
// not be a broadcast (indices sharing an element): layout.ErrOverlap,
// before any matrix is computed. The To forms read their inputs and
// write dst: dst may be exactly the input whose shape it has (the form
// then runs in place), any other sharing is layout.ErrOverlap. Inputs
// that are only read may share memory and may be broadcasts.
package batch
