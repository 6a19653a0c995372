package layout

// Class is the layout class of the matrix formed by axes 0 and 1 (rows and
// columns) of a layout. It is derived from the strides every time it is
// asked for, never stored, so it cannot disagree with them.
type Class int

const (
	// General: no (pointer, ld, transpose) description exists (a unit
	// stride is missing, a stride is negative or zero on a non-trivial axis,
	// or ld is too small); BLAS and LAPACK need a copy.
	General Class = iota
	// ColMajorPacked: s0 = 1, s1 = M. BLAS "N" with ld = M.
	ColMajorPacked
	// ColMajorStrided: s0 = 1, s1 > M. BLAS "N" with ld = s1.
	ColMajorStrided
	// RowMajorPacked: s1 = 1, s0 = N. BLAS "T" with ld = N.
	RowMajorPacked
	// RowMajorStrided: s1 = 1, s0 > N. BLAS "T" with ld = s0.
	RowMajorStrided
)

var classNames = [...]string{"General", "ColMajorPacked", "ColMajorStrided", "RowMajorPacked", "RowMajorStrided"}

func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return "Class(?)"
	}
	return classNames[c]
}

// Matrix describes axes 0 and 1 of a layout to BLAS and LAPACK. The view
// has Rows x Cols elements. With Trans false the storage is column-major
// (BLAS "N") with leading dimension LD >= max(1, Rows); with Trans true it
// is row-major, i.e. the column-major Cols x Rows matrix stored with LD >=
// max(1, Cols) is the transpose of the view (BLAS "T").
type Matrix struct {
	Rows, Cols int
	LD         int
	Trans      bool
}

// Matrix returns the BLAS description of axes 0 and 1 (a rank-1 layout is
// an M x 1 column, a rank-0 layout 1 x 1; batch axes 2, 3, ... are not
// looked at). ok is false for the General class.
//
// Degenerate extents are normalised: the stride of an axis of extent 0 or 1
// is ignored, column-major is preferred when both readings fit (a 1 x N row
// with unit stride, say), and LD is at least max(1, stored rows). Stride-0
// (broadcast) axes of extent > 1 and negative strides are never BLAS
// addressable.
func (l Layout) Matrix() (m Matrix, ok bool) { return l.matrix() }

// Matrix2 is Matrix and Offset for a rank-2 layout, read through a pointer.
// It exists for hot paths that describe a few small operands per call:
// calling a method of a Layout value copies the whole Layout (168 bytes),
// even when the call is inlined. ok is false when l is not of rank 2 or is
// General; m and offset are then zero.
func (l *Layout) Matrix2() (m Matrix, offset int, ok bool) {
	if l.rank != 2 {
		return Matrix{}, 0, false
	}
	if m, ok = l.matrix(); !ok {
		return Matrix{}, 0, false
	}
	return m, l.offset, true
}

// Vector1 is Dim(0), Stride(0) and Offset of a rank-1 layout, read through
// a pointer, for the same hot paths as Matrix2 (level-1 BLAS calls on short
// vectors). ok is false when l is not of rank 1; the other results are then
// zero.
func (l *Layout) Vector1() (n, stride, offset int, ok bool) {
	if l.rank != 1 {
		return 0, 0, 0, false
	}
	return l.inl[0][0], l.inl[1][0], l.offset, true // rank 1 <= MaxInline: inline
}

// Run reports whether l's elements are one compact run of memory in
// column-major or row-major order (every axis of extent above 1 strided
// by the product of the extents before it, or after it), n elements from
// offset. It reads l through the pointer, for the same hot paths as
// Matrix2 (element-wise operations on small tensors), and reports false
// for ranks above MaxInline (and may for an empty layout).
func (l *Layout) Run() (n, offset int, ok bool) {
	if l.rank > MaxInline {
		return 0, 0, false
	}
	if n, ok = l.run(0, 1); !ok {
		n, ok = l.run(l.rank-1, -1)
	}
	return n, l.offset, ok
}

// run is Run's test with the axes taken from first in steps of step.
func (l *Layout) run(first, step int) (n int, ok bool) {
	n = 1
	for i := first; i >= 0 && i < l.rank; i += step {
		d := l.inl[0][i]
		if d != 1 && l.inl[1][i] != n {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// Axes returns the shape and strides of l as slices into l's own storage,
// read through the pointer, for the same hot paths as Matrix2 (package
// fortran describes views of any rank with them). The caller must not
// modify them; they stay valid as long as *l does.
func (l *Layout) Axes() (shape, strides []int) { return l.dims(), l.strs() }

// Origin is Offset read through the pointer, for the same hot paths as
// Axes.
func (l *Layout) Origin() int { return l.offset }

// MatrixRef is Matrix read through the pointer (any rank; batch axes are
// not looked at), for the same hot paths as Axes: calling the Matrix
// method of a Layout value copies the layout.
func (l *Layout) MatrixRef() (m Matrix, ok bool) { return l.matrix() }

func (l *Layout) matrix() (m Matrix, ok bool) {
	m.Rows, m.Cols = 1, 1
	s0, s1 := 0, 0
	d, s := l.dims(), l.strs()
	if len(d) > 0 {
		m.Rows, s0 = d[0], s[0]
	}
	if len(d) > 1 {
		m.Cols, s1 = d[1], s[1]
	}
	if ld, ok := matrixLD(m.Rows, m.Cols, s0, s1); ok {
		m.LD = ld
		return m, true
	}
	if ld, ok := matrixLD(m.Cols, m.Rows, s1, s0); ok {
		m.LD, m.Trans = ld, true
		return m, true
	}
	return Matrix{}, false
}

// LeadingDim reports whether a rows x cols matrix with row stride rs and
// column stride cs is column-major (unit row stride, cs >= rows), and with
// which leading dimension, by the rules of Matrix (the first reading it
// tries): it is the part of Matrix that paths reading extents and strides
// in place (Axes) need, small enough to inline.
func LeadingDim(rows, cols, rs, cs int) (ld int, ok bool) { return matrixLD(rows, cols, rs, cs) }

// matrixLD reports whether a rows x cols matrix with row stride rs and
// column stride cs is column-major (unit row stride, cs >= rows), and with
// which leading dimension.
func matrixLD(rows, cols, rs, cs int) (int, bool) {
	minLD := max(1, rows)
	if rows == 0 || cols == 0 {
		return minLD, true
	}
	if rows > 1 && rs != 1 {
		return 0, false
	}
	if cols == 1 {
		return minLD, true
	}
	if cs < minLD {
		return 0, false
	}
	return cs, true
}

// Class returns the layout class of axes 0 and 1 (see Matrix).
func (l Layout) Class() Class {
	m, ok := l.Matrix()
	switch {
	case !ok:
		return General
	case !m.Trans && m.LD == max(1, m.Rows):
		return ColMajorPacked
	case !m.Trans:
		return ColMajorStrided
	case m.LD == max(1, m.Cols):
		return RowMajorPacked
	default:
		return RowMajorStrided
	}
}
