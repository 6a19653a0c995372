// Package layout describes strided tensors: shape, strides and offset, all
// in elements, with pure integer math and no data. It is the metadata half
// of lapis; views pairs a Layout with a slice, and the BLAS/LAPACK packages
// ask a Layout how to hand its matrices to Fortran.
//
// # The model
//
// Element (i0, i1, ..., ik) of a layout is at
//
//	Offset() + i0*Stride(0) + i1*Stride(1) + ... + ik*Stride(k)
//
// Owned lapis tensors are compact column-major (ColMajor): axis 0 is the
// fastest, strides [1, d0, d0*d1, ...], offset 0. Matrices are axes 0 and 1
// and batch axes go on the right, so every matrix of a batch [M, N, B] is one
// contiguous block of M*N elements that BLAS and LAPACK take as it is:
//
//	shape [2, 3, 2], strides [1, 2, 6]
//
//	          batch b=0                 batch b=1
//	        col0 col1 col2            col0 col1 col2
//	row0  [  0    2    4  ]   row0  [  6    8   10  ]
//	row1  [  1    3    5  ]   row1  [  7    9   11  ]
//
//	memory: |0 1|2 3|4 5|6 7|8 9|10 11|
//	        \__ b=0 ___/ \___ b=1 ___/
//
// (each number is the offset of that element).
//
// # Views are metadata
//
// Permute, Transpose, T, Slice, Reverse, Index, Reshape and BroadcastTo
// return a new Layout and never touch data; for rank <= MaxInline they do
// not allocate. Strides may be negative (Reverse, Slice with step < 0) or 0
// (BroadcastTo). Reshape follows column-major element order and succeeds
// whenever strides can express the result; otherwise it fails with
// ErrReshape, and the caller copies first.
//
// # Matrix class
//
// Class and Matrix derive, from the strides of axes 0 and 1, how BLAS can
// address the matrix: column-major (BLAS "N", ld = Stride(1)), row-major
// (BLAS "T", ld = Stride(0)), or General (needs a copy). The class is never
// stored, so it cannot go stale. Strides of extent-0 and extent-1 axes
// carry no information and are ignored.
//
// # Aliasing
//
// Two indices of a layout may share an offset (a broadcast axis has stride
// 0). HasOverlap reports it, conservatively; views refuse to write through
// such layouts.
//
// # Errors
//
// Every error is an *Error naming the operation, the argument and the rule
// broken, and wraps one of ErrShape, ErrAxis, ErrBounds, ErrOverflow,
// ErrReshape, ErrOverlap for errors.Is. All integer arithmetic on extents,
// strides and offsets is overflow-checked. Only OffsetOf (and Dim/Stride
// with a bad axis) panic, as indexing a Go slice out of range does.
package layout
