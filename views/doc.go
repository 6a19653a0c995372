// Package views pairs data with a layout.Layout: Tensor[T] owns compact
// column-major data, View[T] borrows any strided slice of it (or of any Go
// slice). It is pure Go (no cgo) and generic over the four BLAS element
// types (Scalar).
//
// # Storage
//
// An owned Tensor of shape [M, N, B] stores its batch of B matrices one
// after the other, each column-major, each one contiguous block that BLAS and
// LAPACK take as it is (shape [2, 3, 2] here):
//
//	data: a00 a10 a01 a11 a02 a12 | b00 b10 b01 b11 b02 b12
//	      \______ matrix 0 _____/   \______ matrix 1 _____/
//	strides [1, 2, 6]: down a column +1, across a row +2, next matrix +6
//
// Views change only the layout: T swaps the matrix axes (strides [2, 1, 6],
// a row-major reading of the same memory), Slice with a negative step or
// Reverse walks backwards (negative strides), Index(2, b) borrows matrix b
// (offset 6*b), Reshape re-views column-major order with another shape,
// BroadcastTo repeats with stride 0. None copies; for rank <= 8 none
// allocates.
//
// # Making tensors
//
// Zeros, Full (every element one value) and Eye (the identity) make new
// tensors; FromRows copies a matrix written as Go writes it, [][]T row by
// row, into column-major order (ragged rows are an error naming the row);
// FromRowMajor and FromColMajor take flat data in the order they name.
// Their buffers come from the pool (see Copies) except FromColMajor's,
// which adopts its data.
//
//	a, _ := views.FromRows([][]float64{{1, 2, 3}, {4, 5, 6}})
//	fmt.Println(a)
//
// prints
//
//	Tensor[float64] shape [2 3]
//	[[1 2 3]
//	 [4 5 6]]
//
// # Printing
//
// Tensors and views format as their values (fmt.Formatter; String gives
// the same text): a line with the element type and shape, then a scalar,
// a vector on one line, a matrix one row per line with columns aligned, or
// for rank >= 3 a stack of matrices in storage order, each headed by its
// batch index as Julia prints them but from 0 ("[:, :, 1] ="). Conjugated
// views print conjugated values. Above 1000 elements every axis longer
// than 6 shows 3 entries at each end around "..." (numpy's rule), so
// printing a large tensor costs only what it shows. Elements print as fmt
// prints them with %v; float verbs (%.3f, %g, %e, ... with their flags)
// apply to every element. %+v (and %#v) print the layout instead, e.g.
// View[float64]{shape [2 3] strides [3 1] offset 0 data len 6}; the zero
// View prints as View[float64]{zero: no data}, a released tensor as
// Tensor[float64]{shape [2 3]: no data (released)}.
//
// # Row-major data
//
// Data is never taken without its order. FromColMajor adopts column-major
// data; row-major data comes in through FromRowMajor (one reordering copy),
// as a view with row-major strides (FromSlice with layout.RowMajor, no
// copy), or as the transpose of a column-major view of the reversed shape
// (no copy). Handing row-major data to FromColMajor is not detectable and
// gives a different tensor: a 2 x 3 matrix [[1 2 3] [4 5 6]] read that way
// is [[1 3 5] [2 4 6]].
//
// # Aliasing
//
// Views share memory with whatever they were made from: writes through one
// are seen through all. A view in which two indices reach the same element
// (layout.HasOverlap; a broadcast view, say) is read-only: Set panics and
// Copy into it returns layout.ErrOverlap. Copy is correct when source and
// destination share memory (it copies the source aside first). AsSlice
// returns a sub-slice of the view's own data, no copy.
//
// # Copies
//
// Every copy goes through one engine: Copy, ToColMajor, FromRowMajor, the
// gonum conversions, and the copy-in/copy-out of the BLAS and LAPACK
// packages. It orders the loops by the destination's strides, fuses axes
// that are contiguous in both operands (a compact copy is one memmove),
// and cuts the transpose case (the source's contiguous axis is not the
// destination's) into cache blocks sized from the CPU's L1 and L2 (read
// with github.com/klauspost/cpuid/v2) walked by a 4 x 4 register kernel.
// For 8-byte elements (float64, complex64) on CPUs with AVX2 the transpose
// runs in assembly kernels that move 8 x 8 blocks through registers, with
// non-temporal stores for destinations of 4 MiB and more and software
// prefetch of the destination otherwise (transpose_amd64.s; build with
// -tags purego to use only Go).
// Copies of more than 256Ki elements per goroutine are split across up to
// CopyThreads goroutines (GOMAXPROCS unless SetCopyThreads lowers it);
// smaller ones never start a goroutine. Results do not depend on the split.
// The loop planner (internal/loop) and this setting are shared with the
// element-wise operations and reductions of package elem.
//
// Tensors made by ToColMajor, FromRowMajor, FromRows, Zeros, Full and Eye
// take their buffers from a size-classed pool; Release gives a buffer
// back, so a loop that copies and releases allocates nothing in steady
// state.
//
// # Release
//
// A tensor's data carries a generation (a pooled buffer's, or the
// tensor's own for adopted data); Tensor.View records it in the view
// (transforms keep it) and Release advances it, so a view of a released
// tensor, whose buffer the next tensor may hold, is caught
// wherever it is used: Copy, AsSlice, the fallible transforms, the To*
// functions and every entry point of cblas, lapack, batch, fortran, dist
// and npy return an error matching lapis.ErrReleased that names the
// argument (View.CheckLive, one load and compare), and At, Set and
// ToColMajor panic. Views of slices (FromSlice) are never flagged.
// Slices taken with Data before Release are not caught: they still
// address the buffer, so once the pool hands it to another tensor they
// show (and change) that tensor's values; SetReleaseCheck fills released
// buffers with NaN, so that a stale read before reuse shows NaN. Do not
// keep such a slice past Release.
//
// A second Release does nothing (Release is idempotent: a deferred
// Release may follow an early one); it never gives a buffer back twice.
// It is not an error: Release returns none, and the only harm a double
// release could do, two tensors sharing one buffer, cannot happen.
//
// # gonum
//
// gonum matrices are row-major; FromDense, FromGeneral (and the float32 and
// complex variants) view their data without copying, with strides
// [Stride, 1], a layout BLAS addresses directly ("T"). ToDense and the
// other To* functions copy once, through the engine, into gonum's order.
//
// # Conjugation
//
// Conj (and H, the conjugate transpose) flip a flag: reads and writes
// through the view are conjugated, nothing is copied. For real types they
// do nothing.
//
// # Errors
//
// Errors come from package layout's sentinels (ErrShape, ErrBounds,
// ErrReshape, ErrOverlap, ...), and lapis.ErrReleased for views of
// released tensors, and name the operation and argument. At, Set and
// Tensor.At/Set panic on a bad index, as a Go slice does.
package views
