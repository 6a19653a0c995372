package layout

import (
	"slices"
	"strconv"
	"strings"
)

// MaxInline is the highest rank whose shape and strides are stored inside
// the Layout value itself: every view transform of such a layout allocates
// nothing. Higher ranks (up to MaxRank) work and may allocate.
const MaxInline = 8

// MaxRank is the highest rank a Layout can have.
const MaxRank = 64

// Layout describes where the elements of a strided tensor live in a flat
// buffer: element (i0, i1, ...) is at Offset() + i0*Stride(0) + i1*Stride(1) + ...
// All quantities are in elements; strides are signed.
//
// A Layout is a small value: copy it freely. The zero Layout is the rank-0
// scalar at offset 0. A Layout made by this package always satisfies:
// every extent >= 0, and Len() and the reachable offsets (Span) fit in an int.
type Layout struct {
	rank   int
	offset int
	inl    [2][MaxInline]int // shape, strides for rank <= MaxInline
	ext    []int             // shape then strides for rank > MaxInline; never shared mutably
}

// withRank returns a Layout of the given rank with zero shape and strides.
func withRank(r int) Layout {
	var l Layout
	l.rank = r
	if r > MaxInline {
		l.ext = make([]int, 2*r)
	}
	return l
}

// dims and strs give the shape and strides as slices into l's own storage.
// They are for use on a Layout that the caller owns (a local copy).
func (l *Layout) dims() []int {
	if l.ext != nil {
		return l.ext[:l.rank:l.rank]
	}
	return l.inl[0][:l.rank:l.rank]
}

func (l *Layout) strs() []int {
	if l.ext != nil {
		return l.ext[l.rank : 2*l.rank : 2*l.rank]
	}
	return l.inl[1][:l.rank:l.rank]
}

// New returns the layout with the given shape, strides and offset. The shape
// and strides must have equal length (the rank, at most MaxRank), extents
// must be >= 0, and the number of elements and every reachable offset must
// fit in an int. Errors match ErrShape or ErrOverflow.
func New(shape, strides []int, offset int) (Layout, error) {
	const op = "layout.New"
	if len(shape) != len(strides) {
		return Layout{}, Errorf(ErrShape, op, "strides", "length %d does not match the shape's rank %d", len(strides), len(shape))
	}
	if len(shape) > MaxRank {
		return Layout{}, Errorf(ErrShape, op, "shape", "rank %d exceeds MaxRank %d", len(shape), MaxRank)
	}
	l := withRank(len(shape))
	l.offset = offset
	copy(l.dims(), shape)
	copy(l.strs(), strides)
	if err := l.validate(op); err != nil {
		return Layout{}, err
	}
	return l, nil
}

// ColMajor returns the compact column-major (Fortran-order) layout of shape:
// strides [1, d0, d0*d1, ...], offset 0. This is the layout of every owned
// lapis tensor. Errors match ErrShape or ErrOverflow.
func ColMajor(shape ...int) (Layout, error) {
	return compact("layout.ColMajor", shape, false)
}

// RowMajor returns the compact row-major (C-order) layout of shape: the last
// axis has stride 1. Errors match ErrShape or ErrOverflow.
func RowMajor(shape ...int) (Layout, error) {
	return compact("layout.RowMajor", shape, true)
}

func compact(op string, shape []int, rowMajor bool) (Layout, error) {
	if len(shape) > MaxRank {
		return Layout{}, Errorf(ErrShape, op, "shape", "rank %d exceeds MaxRank %d", len(shape), MaxRank)
	}
	l := withRank(len(shape))
	d, s := l.dims(), l.strs()
	copy(d, shape)
	if err := checkExtents(op, d); err != nil {
		return Layout{}, err
	}
	if _, err := fillCompact(op, d, s, rowMajor); err != nil {
		return Layout{}, err
	}
	return l, nil
}

// fillCompact writes compact strides for dims into s and returns the
// element count.
func fillCompact(op string, d, s []int, rowMajor bool) (int, error) {
	stride := 1
	for k := range d {
		i := k
		if rowMajor {
			i = len(d) - 1 - k
		}
		s[i] = stride
		var ok bool
		if stride, ok = mulOK(stride, d[i]); !ok {
			return 0, Errorf(ErrOverflow, op, "shape", "element count of %s does not fit in an int", fmtInts(d))
		}
	}
	return stride, nil
}

func checkExtents(op string, d []int) error {
	for i, n := range d {
		if n < 0 {
			return Errorf(ErrShape, op, "shape", "extent %d of axis %d is negative", n, i)
		}
	}
	return nil
}

// validate checks the invariants: extents >= 0, Len and span fit in an int.
func (l *Layout) validate(op string) error {
	d, s := l.dims(), l.strs()
	if err := checkExtents(op, d); err != nil {
		return err
	}
	n := 1
	for _, e := range d {
		var ok bool
		if n, ok = mulOK(n, e); !ok {
			return Errorf(ErrOverflow, op, "shape", "element count of %s does not fit in an int", fmtInts(d))
		}
	}
	if n == 0 {
		return nil
	}
	lo, hi := l.offset, l.offset
	for i, e := range d {
		reach, ok := mulOK(e-1, s[i])
		if ok {
			if reach < 0 {
				lo, ok = addOK(lo, reach)
			} else {
				hi, ok = addOK(hi, reach)
			}
		}
		if !ok {
			return Errorf(ErrOverflow, op, "strides", "offsets reachable with strides %s over shape %s and offset %d do not fit in an int", fmtInts(s), fmtInts(d), l.offset)
		}
	}
	return nil
}

// Rank returns the number of axes.
func (l Layout) Rank() int { return l.rank }

// Dim returns the extent of axis. It panics if axis is out of range.
func (l Layout) Dim(axis int) int { return l.dims()[axis] }

// Stride returns the stride of axis in elements. It panics if axis is out
// of range.
func (l Layout) Stride(axis int) int { return l.strs()[axis] }

// Offset returns the offset of element (0, 0, ...).
func (l Layout) Offset() int { return l.offset }

// Shape returns a copy of the extents.
func (l Layout) Shape() []int { return append([]int(nil), l.dims()...) }

// Strides returns a copy of the strides.
func (l Layout) Strides() []int { return append([]int(nil), l.strs()...) }

// SameShape reports whether l and m have the same extents (ranks
// included), and SameStrides the same strides, without copying them.
func (l Layout) SameShape(m Layout) bool { return slices.Equal(l.dims(), m.dims()) }

// SameStrides: see SameShape.
func (l Layout) SameStrides(m Layout) bool { return slices.Equal(l.strs(), m.strs()) }

// Len returns the number of elements (1 for rank 0).
func (l Layout) Len() int {
	n := 1
	for _, e := range l.dims() {
		n *= e // cannot overflow: checked when the layout was made
	}
	return n
}

// OffsetOf returns the offset of the element at idx. Like indexing a Go
// slice, it panics if the number of indices is not the rank or an index is
// out of range.
func (l Layout) OffsetOf(idx ...int) int {
	d, s := l.dims(), l.strs()
	if len(idx) != len(d) {
		panic("layout: OffsetOf with " + strconv.Itoa(len(idx)) + " indices on a rank-" + strconv.Itoa(len(d)) + " layout")
	}
	off := l.offset
	for i, x := range idx {
		if uint(x) >= uint(d[i]) {
			panic("layout: index " + strconv.Itoa(x) + " out of range for axis " + strconv.Itoa(i) + " of extent " + strconv.Itoa(d[i]))
		}
		off += x * s[i]
	}
	return off
}

// Span returns the smallest and largest reachable offset. ok is false when
// the layout has no elements.
func (l Layout) Span() (lo, hi int, ok bool) {
	d, s := l.dims(), l.strs()
	lo, hi = l.offset, l.offset
	for i, e := range d {
		if e == 0 {
			return 0, 0, false
		}
		if r := (e - 1) * s[i]; r < 0 { // cannot overflow: checked when made
			lo += r
		} else {
			hi += r
		}
	}
	return lo, hi, true
}

// IsColMajor reports whether the elements occupy one contiguous run of
// memory in column-major order (axis 0 fastest, stride 1). Strides of
// extent-1 axes are ignored, the offset may be anything, and a layout with
// no elements is contiguous.
func (l Layout) IsColMajor() bool { return l.contiguous(false) }

// IsRowMajor reports whether the elements occupy one contiguous run of
// memory in row-major order (last axis fastest, stride 1), under the same
// rules as IsColMajor.
func (l Layout) IsRowMajor() bool { return l.contiguous(true) }

func (l Layout) contiguous(rowMajor bool) bool {
	d, s := l.dims(), l.strs()
	if l.Len() == 0 {
		return true
	}
	want := 1
	for k := range d {
		i := k
		if rowMajor {
			i = len(d) - 1 - k
		}
		if d[i] == 1 {
			continue
		}
		if s[i] != want {
			return false
		}
		want *= d[i]
	}
	return true
}

// HasOverlap reports whether two different indices may share an offset. It
// is conservative: false means no two indices share an offset; true means
// they do, or that a simple proof that they do not was not found. Any axis
// of extent > 1 with stride 0 (a broadcast axis) overlaps.
func (l Layout) HasOverlap() bool {
	d, s := l.dims(), l.strs()
	if l.Len() <= 1 {
		return false
	}
	// Sort the non-trivial axes by |stride| and require each stride to
	// step past everything the smaller ones can reach.
	var abs, ext [MaxRank]int
	n := 0
	for i, e := range d {
		if e == 1 {
			continue
		}
		a := s[i]
		if a < 0 {
			a = -a
		}
		j := n
		for j > 0 && abs[j-1] > a {
			abs[j], ext[j] = abs[j-1], ext[j-1]
			j--
		}
		abs[j], ext[j] = a, e
		n++
	}
	reach := 0 // largest offset difference reachable with the axes so far
	for k := 0; k < n; k++ {
		if abs[k] <= reach {
			return true
		}
		// The span's ends fit in an int but their distance may not: on
		// overflow, answer conservatively.
		step, ok := mulOK(ext[k]-1, abs[k])
		if ok {
			reach, ok = addOK(reach, step)
		}
		if !ok {
			return true
		}
	}
	return false
}

// String formats the layout as "shape [2 3] strides [1 2] offset 0".
func (l Layout) String() string {
	var b strings.Builder
	b.WriteString("shape ")
	writeInts(&b, l.dims())
	b.WriteString(" strides ")
	writeInts(&b, l.strs())
	b.WriteString(" offset ")
	b.WriteString(strconv.Itoa(l.offset))
	return b.String()
}

// fmtInts formats v like fmt's %v without letting v escape (error paths
// format slices that alias a Layout on the stack).
func fmtInts(v []int) string {
	var b strings.Builder
	writeInts(&b, v)
	return b.String()
}

func writeInts(b *strings.Builder, v []int) {
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
}

// Compact returns the compact column-major layout of l's shape, offset 0:
// what ColMajor(l.Shape()...) returns, without the error (l's shape is
// known to be valid) and without allocating for rank <= MaxInline.
func (l Layout) Compact() Layout {
	out := withRank(l.rank)
	d := out.dims()
	copy(d, l.dims())
	fillCompact("layout.Compact", d, out.strs(), false) // cannot fail: l is valid
	return out
}
