package layout

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/lapis-go/lapis/internal/test/oracle"
)

// ref is the brute-force oracle: a shape and the offset of every index,
// listed in column-major index order, computed by enumeration and never by
// the strides formula of the code under test.
type ref struct {
	shape []int
	offs  []int
}

// linear is the column-major position of idx in shape.
func linear(shape, idx []int) int {
	p, mul := 0, 1
	for k, e := range shape {
		p += idx[k] * mul
		mul *= e
	}
	return p
}

func refNew(shape, strides []int, offset int) ref {
	r := ref{shape: slices.Clone(shape)}
	oracle.ForEach(shape, func(idx []int) {
		off := offset
		for k := range idx {
			off += idx[k] * strides[k]
		}
		r.offs = append(r.offs, off)
	})
	return r
}

func (r ref) at(idx []int) int { return r.offs[linear(r.shape, idx)] }

// remap builds the ref of a view of r: old maps an index of the new shape
// to the index of r it shows.
func (r ref) remap(shape []int, old func(idx []int) []int) ref {
	out := ref{shape: slices.Clone(shape)}
	oracle.ForEach(shape, func(idx []int) { out.offs = append(out.offs, r.at(old(idx))) })
	return out
}

func (r ref) permute(axes []int) ref {
	shape := make([]int, len(axes))
	for k, a := range axes {
		shape[k] = r.shape[a]
	}
	return r.remap(shape, func(idx []int) []int {
		o := make([]int, len(idx))
		for k, a := range axes {
			o[a] = idx[k]
		}
		return o
	})
}

func (r ref) slice(axis, start, stop, step int) ref {
	var kept []int
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		kept = append(kept, i)
	}
	shape := slices.Clone(r.shape)
	shape[axis] = len(kept)
	return r.remap(shape, func(idx []int) []int {
		o := slices.Clone(idx)
		o[axis] = kept[idx[axis]]
		return o
	})
}

func (r ref) index(axis, i int) ref {
	shape := slices.Delete(slices.Clone(r.shape), axis, axis+1)
	return r.remap(shape, func(idx []int) []int { return slices.Insert(slices.Clone(idx), axis, i) })
}

func (r ref) reshape(shape []int) ref {
	out := ref{shape: slices.Clone(shape), offs: r.offs}
	return out
}

func (r ref) broadcast(shape []int) ref {
	return r.remap(shape, func(idx []int) []int {
		o := make([]int, len(r.shape))
		for k := range o {
			if r.shape[k] == shape[k] {
				o[k] = idx[k]
			}
		}
		return o
	})
}

// strided reports whether some strides and offset reproduce r's offsets.
func (r ref) strided() bool {
	if len(r.offs) == 0 {
		return true
	}
	base := r.offs[0]
	st := make([]int, len(r.shape))
	for k := range r.shape {
		if r.shape[k] > 1 {
			e := make([]int, len(r.shape))
			e[k] = 1
			st[k] = r.at(e) - base
		}
	}
	ok := true
	oracle.ForEach(r.shape, func(idx []int) {
		off := base
		for k := range idx {
			off += idx[k] * st[k]
		}
		ok = ok && off == r.at(idx)
	})
	return ok
}

// check compares every observable of l against the oracle.
func check(t *testing.T, what string, l Layout, r ref) {
	t.Helper()
	if !slices.Equal(l.Shape(), r.shape) || l.Rank() != len(r.shape) || l.Len() != len(r.offs) {
		t.Fatalf("%s: shape %v rank %d len %d, oracle shape %v len %d", what, l.Shape(), l.Rank(), l.Len(), r.shape, len(r.offs))
	}
	for k := range r.shape {
		if l.Dim(k) != r.shape[k] || l.Stride(k) != l.Strides()[k] {
			t.Fatalf("%s: Dim/Stride(%d) disagree with Shape/Strides", what, k)
		}
	}
	oracle.ForEach(r.shape, func(idx []int) {
		if got, want := l.OffsetOf(idx...), r.at(idx); got != want {
			t.Fatalf("%s: OffsetOf%v = %d, oracle %d", what, idx, got, want)
		}
	})
	lo, hi, ok := l.Span()
	if ok != (len(r.offs) > 0) {
		t.Fatalf("%s: Span ok = %v with %d elements", what, ok, len(r.offs))
	}
	if ok && (lo != slices.Min(r.offs) || hi != slices.Max(r.offs)) {
		t.Fatalf("%s: Span = %d, %d, oracle %d, %d", what, lo, hi, slices.Min(r.offs), slices.Max(r.offs))
	}
	// Contiguity: offsets in column-major (row-major) index order are
	// consecutive.
	if got, want := l.IsColMajor(), consecutive(r.offs); got != want {
		t.Fatalf("%s: IsColMajor = %v, oracle %v", what, got, want)
	}
	rev := slices.Clone(r.shape)
	slices.Reverse(rev)
	var rowOffs []int
	oracle.ForEach(rev, func(idx []int) {
		o := slices.Clone(idx)
		slices.Reverse(o)
		rowOffs = append(rowOffs, r.at(o))
	})
	if got, want := l.IsRowMajor(), consecutive(rowOffs); got != want {
		t.Fatalf("%s: IsRowMajor = %v, oracle %v", what, got, want)
	}
	sorted := slices.Sorted(slices.Values(r.offs))
	dup := len(slices.Compact(sorted)) != len(r.offs)
	if dup && !l.HasOverlap() {
		t.Fatalf("%s: HasOverlap false but offsets repeat", what)
	}
	checkMatrix(t, what, l, r)
}

func consecutive(offs []int) bool {
	for i := range offs {
		if offs[i] != offs[0]+i {
			return false
		}
	}
	return true
}

// checkMatrix verifies Matrix/Class on the first matrix of the batch: a
// description that is given must reproduce every offset, and one must be
// given whenever a column-major or row-major reading exists.
func checkMatrix(t *testing.T, what string, l Layout, r ref) {
	t.Helper()
	m, n := 1, 1
	if len(r.shape) > 0 {
		m = r.shape[0]
	}
	if len(r.shape) > 1 {
		n = r.shape[1]
	}
	if len(r.offs) == 0 {
		return // an empty batch leaves the matrix strides unobserved
	}
	off := func(i, j int) int {
		idx := make([]int, len(r.shape))
		if len(idx) > 0 {
			idx[0] = i
		}
		if len(idx) > 1 {
			idx[1] = j
		}
		return r.at(idx)
	}
	fits := func(trans bool, ld int) bool {
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				want := i + j*ld
				if trans {
					want = j + i*ld
				}
				if off(i, j)-off(0, 0) != want {
					return false
				}
			}
		}
		return true
	}
	// Candidate ld for each reading, from the offsets alone.
	candidate := func(trans bool) (int, bool) {
		rows, cols := m, n
		if trans {
			rows, cols = n, m
		}
		ld := max(1, rows)
		if cols > 1 {
			if trans {
				ld = off(1, 0) - off(0, 0)
			} else {
				ld = off(0, 1) - off(0, 0)
			}
		}
		return ld, m*n == 0 || (ld >= max(1, rows) && fits(trans, ld))
	}
	colLD, colOK := candidate(false)
	rowLD, rowOK := candidate(true)
	got, ok := l.Matrix()
	cls := l.Class()
	// Matrix2 is Matrix and Offset on rank 2, nothing on other ranks.
	got2, off2, ok2 := l.Matrix2()
	if want := ok && l.Rank() == 2; ok2 != want || (ok2 && (got2 != got || off2 != l.Offset())) || (!ok2 && (got2 != Matrix{} || off2 != 0)) {
		t.Fatalf("%s: Matrix2 = %+v, %d, %v; Matrix %+v, %v, offset %d", what, got2, off2, ok2, got, ok, l.Offset())
	}
	// MatrixRef is Matrix; LeadingDim is its column-major reading.
	if gotR, okR := l.MatrixRef(); gotR != got || okR != ok {
		t.Fatalf("%s: MatrixRef = %+v, %v; Matrix %+v, %v", what, gotR, okR, got, ok)
	}
	rs, cs := 0, 0
	if l.Rank() > 0 {
		rs = l.Stride(0)
	}
	if l.Rank() > 1 {
		cs = l.Stride(1)
	}
	if ld, okL := LeadingDim(m, n, rs, cs); !ok && okL || ok && okL != !got.Trans || okL && ld != got.LD {
		t.Fatalf("%s: LeadingDim = %d, %v; Matrix %+v, %v", what, ld, okL, got, ok)
	}
	// Vector1 is Dim, Stride and Offset on rank 1, nothing on other ranks.
	if n1, s1, off1, ok1 := l.Vector1(); ok1 != (l.Rank() == 1) || (ok1 && (n1 != l.Dim(0) || s1 != l.Stride(0) || off1 != l.Offset())) || (!ok1 && (n1 != 0 || s1 != 0 || off1 != 0)) {
		t.Fatalf("%s: Vector1 = %d, %d, %d, %v", what, n1, s1, off1, ok1)
	}
	switch {
	case colOK:
		if !ok || got.Trans || got.LD != colLD || got.Rows != m || got.Cols != n {
			t.Fatalf("%s: Matrix = %+v, %v; oracle column-major ld %d", what, got, ok, colLD)
		}
		if want := map[bool]Class{true: ColMajorPacked, false: ColMajorStrided}[colLD == max(1, m)]; cls != want {
			t.Fatalf("%s: Class = %v, want %v", what, cls, want)
		}
	case rowOK:
		if !ok || !got.Trans || got.LD != rowLD || got.Rows != m || got.Cols != n {
			t.Fatalf("%s: Matrix = %+v, %v; oracle row-major ld %d", what, got, ok, rowLD)
		}
		if want := map[bool]Class{true: RowMajorPacked, false: RowMajorStrided}[rowLD == max(1, n)]; cls != want {
			t.Fatalf("%s: Class = %v, want %v", what, cls, want)
		}
	default:
		if ok || cls != General {
			t.Fatalf("%s: Matrix = %+v, %v, Class %v; oracle finds no BLAS reading", what, got, ok, cls)
		}
	}
}

// runChain builds a layout from src, applies a chain of transforms, and
// checks every step (result or error) against the oracle.
func runChain(t *testing.T, data []byte) {
	t.Helper()
	src := &oracle.Source{B: data}
	rank := src.In(0, 8)
	shape := make([]int, rank)
	strides := make([]int, rank)
	maxExt := 4
	if rank > 4 {
		maxExt = 2
	}
	for k := range shape {
		shape[k] = src.In(0, maxExt)
		strides[k] = src.In(-9, 9)
	}
	// Shift the offset so that the lowest reachable offset is >= 0.
	lo := 0
	for k := range shape {
		if shape[k] > 0 && strides[k] < 0 {
			lo += (shape[k] - 1) * strides[k]
		}
	}
	offset := -lo + src.In(0, 3)
	l, err := New(shape, strides, offset)
	if err != nil {
		t.Fatalf("New(%v, %v, %d): %v", shape, strides, offset, err)
	}
	r := refNew(shape, strides, offset)
	what := l.String()
	check(t, what, l, r)

	for step := 0; step < 6 && src.Left(); step++ {
		var (
			nl      Layout
			nr      ref
			err     error
			wantErr error // the sentinel the oracle predicts, nil for success
		)
		rank := l.Rank()
		axis := src.In(-1, rank) // sometimes out of range
		axisOK := axis >= 0 && axis < rank
		switch op := src.Next() % 8; op {
		case 0: // Permute
			axes := src.Perm(rank)
			if rank > 0 && src.Next()%8 == 0 {
				axes[0] = axes[rank-1] // not a permutation (if rank > 1)
			}
			if rank > 1 && axes[0] == axes[rank-1] {
				wantErr = ErrAxis
			} else {
				nr = r.permute(axes)
			}
			what += fmt.Sprintf(" | Permute%v", axes)
			nl, err = l.Permute(axes...)
		case 1: // Transpose / T
			b := src.In(-1, rank)
			if src.Next()%2 == 0 {
				axis, b = 0, 1
				axisOK = rank >= 2
				what += " | T"
				nl, err = l.T()
			} else {
				what += fmt.Sprintf(" | Transpose(%d,%d)", axis, b)
				nl, err = l.Transpose(axis, b)
			}
			if !axisOK || b < 0 || b >= rank {
				wantErr = ErrAxis
			} else {
				axes := make([]int, rank)
				for i := range axes {
					axes[i] = i
				}
				axes[axis], axes[b] = b, axis
				nr = r.permute(axes)
			}
		case 2, 3: // Slice
			n := 0
			if axisOK {
				n = l.Dim(axis)
			}
			step := src.In(-3, 3)
			start, stop := src.In(-2, n+1), src.In(-2, n+1)
			lo, hi := 0, n
			if step < 0 {
				lo, hi = -1, n-1
			}
			switch {
			case !axisOK:
				wantErr = ErrAxis
			case step == 0:
				wantErr = ErrShape
			case start < lo || start > hi || stop < lo || stop > hi:
				wantErr = ErrBounds
			default:
				nr = r.slice(axis, start, stop, step)
			}
			what += fmt.Sprintf(" | Slice(%d,%d,%d,%d)", axis, start, stop, step)
			nl, err = l.Slice(axis, start, stop, step)
		case 4: // Reverse
			if !axisOK {
				wantErr = ErrAxis
			} else {
				nr = r.slice(axis, l.Dim(axis)-1, -1, -1)
			}
			what += fmt.Sprintf(" | Reverse(%d)", axis)
			nl, err = l.Reverse(axis)
		case 5: // Index
			i := 0
			if axisOK {
				i = src.In(-1, l.Dim(axis))
			}
			switch {
			case !axisOK:
				wantErr = ErrAxis
			case i < 0 || i >= l.Dim(axis):
				wantErr = ErrBounds
			default:
				nr = r.index(axis, i)
			}
			what += fmt.Sprintf(" | Index(%d,%d)", axis, i)
			nl, err = l.Index(axis, i)
		case 6: // Reshape
			shape := randomShapeOf(src, l.Len())
			nr = r.reshape(shape)
			switch {
			case oracle.Count(shape) != l.Len():
				wantErr = ErrShape
			case !nr.strided():
				wantErr = ErrReshape
			}
			what += fmt.Sprintf(" | Reshape%v", shape)
			nl, err = l.Reshape(shape...)
		case 7: // BroadcastTo
			shape := l.Shape()
			valid := true
			for k := range shape {
				if shape[k] == 1 && src.Next()%2 == 0 {
					shape[k] = src.In(0, 3)
				} else if src.Next()%16 == 0 {
					shape[k]++ // not broadcastable unless it was 1... or 0
					valid = valid && l.Dim(k) == 1
				}
			}
			for extra := src.In(0, 2); extra > 0 && len(shape) < 8; extra-- {
				shape = append(shape, src.In(1, 3))
			}
			if oracle.Count(shape) > 4096 {
				continue
			}
			if valid {
				nr = r.broadcast(shape)
			} else {
				wantErr = ErrShape
			}
			what += fmt.Sprintf(" | BroadcastTo%v", shape)
			nl, err = l.BroadcastTo(shape...)
		}
		if wantErr != nil {
			if !errors.Is(err, wantErr) {
				t.Fatalf("%s: err = %v, want %v", what, err, wantErr)
			}
			var le *Error
			if !errors.As(err, &le) || le.Op == "" || le.Arg == "" || le.Rule == "" {
				t.Fatalf("%s: error %v does not name op, argument and rule", what, err)
			}
			continue // the chain goes on from the last good layout
		}
		if err != nil {
			t.Fatalf("%s: unexpected error %v", what, err)
		}
		check(t, what, nl, nr)
		l, r = nl, nr
	}
}

// randomShapeOf returns a shape with n elements, split into up to 5 factors
// with some extent-1 axes; sometimes one with a different count.
func randomShapeOf(src *oracle.Source, n int) []int {
	var shape []int
	rest := n
	for len(shape) < 5 && src.Next()%4 != 0 {
		if src.Next()%4 == 0 {
			shape = append(shape, 1)
			continue
		}
		f := 1
		for d := 2; d <= rest; d++ {
			if rest%d == 0 && src.Next()%2 == 0 {
				f = d
				break
			}
		}
		shape = append(shape, f)
		if f > 0 {
			rest /= f
		}
	}
	if rest != 1 || n == 0 {
		shape = append(shape, rest)
	}
	if src.Next()%16 == 0 {
		shape = append(shape, 2) // wrong count (unless n == 0)
	}
	return shape
}
