// Package cblas runs BLAS levels 1, 2 and 3 (OpenBLAS, through cgo) on
// lapis views, for float32, float64, complex64 and complex128.
//
// # One dispatch check
//
// Every matrix operand is described to BLAS by its layout alone
// (layout.Layout.Matrix): a column-major view goes as "N" with ld = its
// column stride, a row-major view as "T" (a conjugated one as "C") with
// ld = its row stride. The same storage seen both ways:
//
//	memory: a00 a10 a01 a11 a02 a12        (ld = 2)
//
//	view a   [2 3] strides [1 2]  -> BLAS "N", ld 2
//	view a.T [3 2] strides [2 1]  -> BLAS "T", ld 2   (no copy)
//	view a.H                      -> BLAS "C", ld 2   (no copy)
//
// A row-major output is handled by transposing the whole problem
// (C^T = B^T A^T for Gemm), a conjugated one by conjugating it, so every
// combination of column- and row-major operands runs in place. Vectors go
// with their stride as the increment, negative strides included. Only an
// operand with no such description (layout.General: a reversed or
// every-other-row view, say) or one whose flag the routine lacks (Symm has
// no transpose for B) is copied, through the views copy engine into a
// pooled buffer, and outputs are copied back. Copies and C calls are
// counted (lapis.ReadStats); strict mode (lapis.SetStrict, or the Strict option per
// call) refuses to copy and returns an error that names the operand.
//
// Transposition and conjugation are expressed only by the views (a.T(),
// a.H(), x.Conj()), never by flag arguments; Uplo and Side refer to the
// matrix as seen through its view.
//
// # New outputs
//
// Mul returns a*b as a new column-major tensor (from the pool; Release it
// when done): Gemm with alpha 1 and beta 0 into views.Zeros, for code that
// has no output to reuse. Its errors are Gemm's, named cblas.Mul.
//
//	c, err := cblas.Mul(a.View(), b.View())
//
// # Small problems
//
// Below a measured size a cgo call costs more than the arithmetic: Gemm
// with m*n*k below a threshold, and Dot, Axpy, Scal and Iamax on short
// vectors, run in pure Go (gonum's implementation, or a plain loop); Nrm2
// runs in Go at every length (faster than the library's, overflow-safe
// the same way). ForceC and ForcePureGo choose the path for tests and
// measurements.
//
// # Aliasing
//
// An output may not overlap any input in memory, and may not have two
// indices sharing an element (a broadcast view): both are errors matching
// layout.ErrOverlap. Inputs may overlap each other.
//
// # Errors
//
// Shapes that do not match (layout.ErrShape), overlap (layout.ErrOverlap),
// sizes, leading dimensions and increments that do not fit the BLAS
// integer (layout.ErrOverflow; never truncated), refused copies
// (lapis.ErrCopyRefused), routines CBLAS lacks for a type (lapis.ErrUnsupported) and an
// unusable library (lapis.ErrLibrary) are errors naming the operation and the
// argument. Nothing is written to an output when a call returns an error.
// Floating-point results follow BLAS: no check for singular triangular
// matrices, NaN and Inf propagate.
//
// # Threads
//
// One thread policy (internal/rt/threads) decides how many OpenBLAS threads
// every call of cblas, lapack and batch may use; OpenBLAS's own threads
// spin while they wait for each other, so a call on two threads while
// another goroutine keeps a core busy ran 10-1000x slower than on one
// (BenchmarkThreads in bench, docs/bench/threads.md). By default (auto):
//
//   - OpenBLAS is kept on one thread between calls, and every call runs on
//     one thread unless, as it starts, no other lapis call or batch is in
//     flight and either it is a level-3 call of m*n*k >= 768^3 (whatever
//     else runs), or it is a level-3 call of m*n*k >= 160^3 or a LAPACK
//     routine of about n >= 512 and the process and the machine have
//     idle cores: no other goroutine running or runnable
//     (runtime/metrics), and no other process's thread running now
//     (/proc/loadavg) that also kept a core busy on average over the
//     last 100 ms or more (/proc/stat less this process's CPU time; in a
//     process's first 100 ms, the one-minute load average at start), so
//     that a thread running for an instant does not count; a count that
//     finds other work is read again, up to three times, and the least
//     kept. The look costs about 1.5 us, only for calls above the sizes.
//   - A level-3 call of 768^3 or more takes the threads beside busy
//     goroutines or processes because two OpenBLAS threads in a large
//     gemm rarely wait for each other and, as two of the runnable
//     threads, get a larger share of the CPUs than one (gemm 1024 beside
//     two busy goroutines on 2 cores: 0.61-0.93x of one thread's time in
//     six of seven runs, 1.08x in the other).
//     That CPU is taken from the program's other goroutines (and other
//     processes), for the call and for up to about 0.1 s after it while
//     OpenBLAS's second thread spins; lapis.SetThreads(1) keeps every call on
//     one thread instead.
//   - A call given more gets up to lapis.Threads() threads (the library's count at
//     start, i.e. OPENBLAS_NUM_THREADS or the cores, capped by
//     GOMAXPROCS; fewer when some cores are busy) for its duration only.
//     OpenBLAS's count is process-wide in its pthreads build, so a lapis
//     call that starts meanwhile puts it back to one first: at most one
//     call runs with more than one thread, and a call given one thread
//     runs on one, which makes calls below the thresholds bit-for-bit
//     reproducible whatever else runs.
//   - With the OpenMP build every call first gives its OS thread the
//     count every call has (one), so that it never changes OpenBLAS's
//     process-wide count: changing that count while a call runs on more
//     threads frees buffers the call is using (OpenMathLib/OpenBLAS#5825).
//     The one call given more threads raises its own thread's count and
//     the process-wide one, as with pthreads only when it is alone.
//
// lapis.SetThreads(n) fixes every call at n threads instead (no decision per
// call, as OpenBLAS's own setting); lapis.SetThreads(lapis.AutoThreads) returns to the
// policy. Threads returns the most threads a call may use, lapis.ThreadPolicy
// the policy in force; Info reports both and the library's variant
// (pthreads, OpenMP, serial). Calls made to OpenBLAS directly (not
// through lapis) see the count lapis keeps: one, in auto mode.
//
// # Kernel sets
//
// A DYNAMIC_ARCH OpenBLAS (Debian's, Ubuntu's) carries one set of
// kernels per CPU family and picks one from the CPU's model number as it
// loads. CPUs newer than the release fall through its table: 0.3.20 to
// 0.3.24 give Intel family-6 models from 0xB0 up (Raptor Lake, Emerald
// Rapids, ...) the SSE3 Prescott set, 2-5x slower than the CPU allows.
// As cblas is initialised, before any BLAS call of the Go packages that
// import lapis, it moves OpenBLAS to the set for the CPU's x86-64 level
// (SkylakeX for v4, Haswell for v3, Sandybridge or Nehalem for v2) when
// OpenBLAS's own choice is of a lower level or has a known wrong-answer
// defect, and leaves it alone otherwise, for other libraries, for builds
// without DYNAMIC_ARCH and when OPENBLAS_CORETYPE is set.
// LAPIS_OPENBLAS_CORE=off keeps OpenBLAS's choice, =auto decides even
// over OPENBLAS_CORETYPE, =<name> runs a named set. KernelSet reports
// the choice and its reason, KernelSets the sets available; `lapis info`
// and `lapis check` print them. Defects of particular sets are worked
// around whichever set runs (real Symv in Go where ssymv over-reads, a
// Scal with a NaN alpha in Go): docs/kernels.md lists them.
//
// # The library
//
// Info reports the library's configuration, its integer width, the
// kernel set and the CPU's features and caches. The library is found with pkg-config
// (package openblas); another BLAS with the CBLAS interface links through
// CGO_LDFLAGS (docs/blas.md, "Other BLAS libraries").
package cblas
