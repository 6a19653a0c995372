// Package npy reads and writes numpy's .npy and .npz files, and maps .npy
// files into memory, without reordering copies. It is pure Go (no cgo) and
// reads the four lapis element types: float32, float64, complex64 and
// complex128 (descr <f4, <f8, <c8, <c16; big-endian >... forms are
// byte-swapped on read; '=' and '|' mean this machine's order).
//
// # Views, not reorders
//
// A .npy file is a header (dtype, shape, fortran_order) and the elements
// in one order. Read, ReadFile, ReadMember and Map return a views.View over
// the elements exactly as stored, with the strides that order implies:
//
//	numpy a of shape (2, 3)        fortran_order True     fortran_order False (C)
//	[[a b c]                       data: a d b e c f      data: a b c d e f
//	 [d e f]]                      strides [1, 2]         strides [3, 1]
//	                               (column-major)         (row-major)
//
// Either way v.At(i, j) is numpy's a[i, j]: the shape and axis order are
// numpy's. A C-order file is not reordered into column-major on the way
// in, because nothing needs it: views hold row-major strides, BLAS takes
// row-major matrices with "T", batch takes them as they are, and the copy
// engine reorders when an operation really needs compact column-major
// data. Reordering on read would cost a full transposing pass and twice
// the memory for every file, and would make Map impossible: a mapped file
// cannot be reordered without copying it. So Read and Map return the same
// view of the same bytes, and whoever wants a compact column-major tensor
// asks for it: ReadTensor (which adopts a Fortran-order file's data and
// reorders a C-order one once) or View.ToColMajor.
//
// # numpy batches
//
// numpy keeps a stack of matrices as (B, n, n), C order: matrix b is the
// n*n elements from b*n*n on, row by row. lapis wants the batch axis on
// the right, [n, n, B]. The view Read returns has strides [n*n, n, 1];
// Permute(1, 2, 0) makes axis 0 numpy's i, axis 1 its j and axis 2 its b,
// strides [n, 1, n*n]:
//
//	v, _ := npy.ReadFile[float64]("a.npy") // shape [B n n], numpy's a[b, i, j] = v.At(b, i, j)
//	m, _ := v.Permute(1, 2, 0)             // shape [n n B], m.At(i, j, b) = numpy's a[b, i, j]
//
// Each matrix of m is row-major and contiguous (layout class
// RowMajorPacked), one block per matrix as a batch wants it, and nothing
// was copied: hand m to batch.Solve as it is. For (B1, ..., Bk, m, n) the
// permutation is (k, k+1, 0, 1, ..., k-1).
//
// # Writing
//
// Write and WriteNPZ follow numpy's np.save: data that is contiguous in
// row-major order is written as it is with fortran_order False, data that
// is contiguous column-major (every owned Tensor) as it is with
// fortran_order True, and anything else (strided, permuted, conjugated
// views) is copied once into column-major order and written with
// fortran_order True. The shape written is the view's, so np.load gives
// back v's element [i0, i1, ...] at the same index. To hand numpy a lapis
// batch [n, n, B] as its (B, n, n) stack, write m.Permute(2, 0, 1): for a
// batch of row-major matrices (as read above) that is the row-major view
// again and writes with no copy.
//
// # Memory-mapped files
//
// Map maps a .npy file and returns its view in place: nothing is read
// until an element is touched, then only the pages touched. The mapping
// is private copy-on-write: writes through the view never reach the file.
// A mapped view's memory belongs to the Mapped value: Close releases
// every view made from it (lapis's entry points then return an error
// matching lapis.ErrReleased, and At and Set panic), but a slice taken
// with Data is not caught: touching one after Close kills the program
// with a fault Go cannot recover from. Keep the Mapped value open for as
// long as any view of it is in use. Map needs the data in this
// machine's byte order and at an offset aligned for T (numpy writes 64-byte
// aligned data; ErrUnaligned otherwise).
//
// # Aliasing
//
// Read and ReadMember return views over slices of their own, shared with
// nothing. Map's views share the mapping (and with it the page cache, not
// the file). Write never keeps v.
//
// # Errors
//
// Nothing in a file can make this package panic. A file that is not .npy,
// or whose header lies (missing or extra keys, a bad Python literal,
// negative extents, a header length past the end of the file) is an error
// matching ErrFormat; one that ends before its data does, ErrTruncated
// (which matches ErrFormat too); a dtype other than the four, or a file
// read as the wrong T, ErrDtype (the error names the dtype; nothing is
// converted); a shape whose size overflows an int, layout.ErrOverflow.
// Every such error is a *layout.Error naming the operation, the argument
// (for .npz files, the member) and what is wrong.
package npy
