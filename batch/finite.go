package batch

import (
	"slices"
	"unsafe"

	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// NaN and Inf, per matrix: package lapack's finite-input rule
// (lapack/errors.go; "NaN and Inf" in package lapack),
// applied to each matrix of a batch. Before a matrix reaches LAPACK or
// lapack's strided solve, what the call will read of it (each source
// below, its triangle where only one is read) is scanned
// (scalar.MatrixFinite: O(n^2) against the routine's O(n^3); a run of
// matrices that is one block of memory in one pass of
// scalar.AllFinite). The tiny kernels apply the rule in their own pass
// over the data: they flag such a matrix, which then goes to the
// per-matrix path and its scan. A NaN or an infinity there is that
// matrix's error in the *Error, matching lapis.ErrNotFinite, naming the
// operand and the input's element (internal/finite, lapack's scan too);
// the matrix is not computed (in place, its operands
// keep their input; a To form's destination holds what it holds for any
// failed matrix, the copy of its input) and the others are.
//
// Results: a solution, an inverse or LU, QR and Cholesky factors that
// come out with a NaN from inputs the scan found finite (an overflow
// inside LAPACK) give an error naming "result", as lapack's helpers do
// (O(n nrhs) for a solution, O(n) for a Cholesky factor's diagonal,
// which every NaN of the factor reaches, O(n^2) for the others).

// source is an input of a batch call for the rule: the batch holding it
// (the caller's view when the call works on a copy of it) and the
// triangle read ('L', 'U', or 0 for all).
type source[T Scalar] = finite.Input[T]

// rule is the finite-input rule of one batch call, whose inputs are
// srcs, each of batch shape shape. A nil rule does nothing.
type rule[T Scalar] struct {
	op     string
	shape  []int
	srcs   []source[T]
	mshape []int     // shape with axes merged where every source steps as one
	scans  []scan[T] // per source, where the scan reads it
}

// scan is where the rule reads one source: matrix t's element (i, j) is
// data[off + flatOffset(t, mshape, bs) + i*s0 + j*s1].
type scan[T Scalar] struct {
	data                    []T
	off, s0, s1, rows, cols int
	bs                      []int
	tri                     byte
}

func newRule[T Scalar](op string, shape []int, srcs ...source[T]) *rule[T] {
	r := &rule[T]{op: op, shape: shape, srcs: srcs, scans: make([]scan[T], len(srcs))}
	strides := make([][]int, len(srcs))
	for i, s := range srcs {
		strides[i] = batchStrides(s.V.Layout(), nil)
	}
	var mst [][]int
	r.mshape, mst = merge(shape, strides...)
	for i, s := range srcs {
		l := s.V.Layout()
		r.scans[i] = scan[T]{data: s.V.Data(), off: l.Offset(), s0: l.Stride(0), s1: l.Stride(1),
			rows: l.Dim(0), cols: l.Dim(1), bs: mst[i], tri: s.Tri}
	}
	return r
}

// triangle is the source tri of a Cholesky triangle uplo.
func triangle(uplo Uplo) byte {
	if uplo == Upper {
		return 'U'
	}
	return 'L'
}

// check is the rule for matrix t, before it is computed: nil when what
// the call reads of it is finite, else its error (naming the operand and
// the element). A nil rule returns nil.
func (r *rule[T]) check(t int) error {
	if r.finite(t) {
		return nil
	}
	return r.notFinite(t)
}

// finite reports whether what the call reads of matrix t is finite (a
// nil rule: true).
func (r *rule[T]) finite(t int) bool {
	if r == nil {
		return true
	}
	for i := range r.scans {
		s := &r.scans[i]
		if !scalar.MatrixFinite(s.data, s.off+flatOffset(t, r.mshape, s.bs), s.s0, s.s1, s.rows, s.cols, s.tri) {
			return false
		}
	}
	return true
}

// notFinite is matrix t's error: lapack's rule on its inputs, which
// names the first NaN or infinity.
func (r *rule[T]) notFinite(t int) error {
	ins := make([]finite.Input[T], len(r.srcs))
	for i, s := range r.srcs {
		ins[i] = finite.Input[T]{Name: s.Name, V: matrixAt(s.V, r.shape, t), Tri: s.Tri}
	}
	return checkFinite(r.op, ins...)
}

// bad appends to dst, in order, the indices t in [lo, hi) of the
// matrices that check would refuse, and returns it. It reads the runs of
// matrices along the first merged batch axis: a run that is one block of
// memory (a compact batch, or all of one with the batch axis innermost)
// in one scalar.AllFinite pass, a run of batch stride 1 (the batch axis
// innermost, a piece of it) one element of the matrices at a time
// (scalar.InterleavedFinite: lines of consecutive elements, in memory
// order, where the matrix by matrix scan strides across the whole
// batch), and only when that finds a NaN or an infinity (in the run,
// perhaps in a triangle the call does not read) matrix by matrix; a
// broadcast run (batch stride 0) as its one matrix. A nil rule appends
// nothing.
func (r *rule[T]) bad(lo, hi int, dst []int) []int {
	if r == nil || lo >= hi {
		return dst
	}
	for t := lo; t < hi; {
		cnt := runLen(r.mshape, t, hi)
		first := len(dst)
		for i := range r.scans {
			s := &r.scans[i]
			off := s.off + flatOffset(t, r.mshape, s.bs)
			step := 0
			if len(s.bs) > 0 {
				step = s.bs[0]
			}
			switch {
			case step == 0 || cnt == 1: // one matrix
				if !scalar.MatrixFinite(s.data, off, s.s0, s.s1, s.rows, s.cols, s.tri) {
					dst = dst[:first]
					for m := range cnt {
						dst = append(dst, t+m)
					}
				}
				continue
			}
			if n, ok := block(s.rows, s.cols, cnt, s.s0, s.s1, step); ok && scalar.AllFinite(s.data[off:off+n]) {
				continue
			}
			if step == 1 && scalar.InterleavedFinite(s.data, off, s.s0, s.s1, s.rows, s.cols, cnt, s.tri) {
				continue
			}
			for m := range cnt {
				if !scalar.MatrixFinite(s.data, off+m*step, s.s0, s.s1, s.rows, s.cols, s.tri) {
					dst = insertSorted(dst, first, t+m)
				}
			}
		}
		t += cnt
	}
	return dst
}

// piece is how many matrices a caller scans at a time (bad) before it
// computes them: about 128 KB of their inputs, so that they are still in
// the core's cache when LAPACK or the strided solve reads them. A nil rule
// scans nothing: any count.
func (r *rule[T]) piece() int {
	if r == nil {
		return 1 << 30
	}
	bytes := 0
	for i := range r.scans {
		bytes += r.scans[i].rows * r.scans[i].cols * int(unsafe.Sizeof(*new(T)))
	}
	return max(1, (128<<10)/max(1, bytes))
}

// insertSorted adds t to the sorted tail dst[from:] unless it is there.
func insertSorted(dst []int, from, t int) []int {
	i := from
	for i < len(dst) && dst[i] < t {
		i++
	}
	if i < len(dst) && dst[i] == t {
		return dst
	}
	return slices.Insert(dst, i, t)
}

// block reports whether the cnt matrices (rows x cols, strides s0, s1,
// each step elements after the one before) fill a block of memory of n
// elements starting at the first one's element (0, 0), with nothing
// else in it: the strides, sorted, each the product of the extents
// before them.
func block(rows, cols, cnt, s0, s1, step int) (n int, ok bool) {
	axes := [3][2]int{{rows, s0}, {cols, s1}, {cnt, step}}
	for _, ij := range [3][2]int{{0, 1}, {1, 2}, {0, 1}} { // sorted by stride
		if i, j := ij[0], ij[1]; axes[i][1] > axes[j][1] {
			axes[i], axes[j] = axes[j], axes[i]
		}
	}
	n = 1
	for _, a := range axes {
		if a[0] == 1 {
			continue
		}
		if a[1] != n {
			return 0, false
		}
		n *= a[0]
	}
	return n, true
}

// result is matrix t's error once computed: err, or, when err is nil and
// nan (its result holds a NaN, from inputs the rule found finite), the
// error naming "result".
func (r *rule[T]) result(err error, nan bool) error {
	if err != nil || !nan || r == nil {
		return err
	}
	return notFinite(r.op, "result", finite.Overflow)
}

// matrixElems returns where the looks at a result read the matrix m: its
// element (i, j) at data[off + i*s0 + j*s1]. m is read through the
// pointer and its layout copied once: a View is a large value.
func matrixElems[T Scalar](m *views.View[T]) (data []T, off, s0, s1, rows, cols int) {
	l := m.Layout()
	return m.Data(), l.Offset(), l.Stride(0), l.Stride(1), l.Dim(0), l.Dim(1)
}

// nanDiagonal reports whether the diagonal of m (its min(rows, cols)
// elements (i, i)) holds a NaN: O(n).
func nanDiagonal[T Scalar](m *views.View[T]) bool {
	d, off, s0, s1, r, c := matrixElems(m)
	for i := range min(r, c) {
		if x := d[off+i*(s0+s1)]; x != x {
			return true
		}
	}
	return false
}

// nanMatrix reports whether the matrix m (a solution, factors, an
// inverse) holds a NaN.
func nanMatrix[T Scalar](m *views.View[T]) bool {
	d, off, s0, s1, r, c := matrixElems(m)
	return scalar.MatrixHasNaN(d, off, s0, s1, r, c)
}

// nanMatrices calls f with the index of every matrix of the run x
// ([rows, cols, k]) that holds a NaN.
func nanMatrices[T Scalar](x *views.View[T], f func(i int)) {
	l := x.Layout()
	d, off, s0, s1, s2 := x.Data(), l.Offset(), l.Stride(0), l.Stride(1), l.Stride(2)
	rows, cols := l.Dim(0), l.Dim(1)
	for i := range l.Dim(2) {
		if scalar.MatrixHasNaN(d, off+i*s2, s0, s1, rows, cols) {
			f(i)
		}
	}
}
