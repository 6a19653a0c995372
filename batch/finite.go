package batch

import (
	"errors"
	"fmt"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/link"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// NaN and Inf, per matrix: package lapack's finite-input rule
// (lapack/finite.go, through internal/rt/link: one implementation),
// applied to each matrix of a batch. Nothing is scanned up front. A
// matrix is suspected when LAPACK (or the conditioning check) fails on
// it, when the tiny kernels flag it (they flag any non-finite value they
// meet and write nothing), or when a cheap look at its result shows a
// NaN or an infinity where the kernels would flag one: O(n) per matrix
// (Cholesky's diagonal, which every NaN in the triangle reaches, and an
// infinity too unless potrf fails; eigenvalues, singular values), O(n
// nrhs) for a solve's x, all of it for LU and QR factors and Inv's
// inverse (O(n^2): there a NaN need not reach an edge, a reflection that
// is skipped leaves it in place), against the O(n^3) of the routine.
// Only a suspected matrix is scanned (O(n^2)), and a NaN or an infinity
// gives its error in the *Error, matching lapis.ErrNotFinite, naming the
// operand and the element; the other matrices' results are returned as
// always.
//
// What the scan reads: the caller's inputs where they are still there
// (the allocating and To forms, which work on a copy or write a
// destination, and f of Potrs), so the error names the input's element;
// a matrix the tiny kernels flagged, before the per-matrix path redoes it
// (the kernels wrote nothing, so the in-place operand is still the
// input; the per-matrix path then runs anyway, so that the matrix holds
// what it leaves); otherwise, in place, what the routine left in the operand: the
// input is gone, and the error says "as the computation left it", not an
// element of the input (a NaN in a matrix factored in place spreads from
// the input's element onwards, but the scan cannot tell where it came
// from, nor an overflow from a non-finite input).

// source is an input of a batch call for the rule: the batch holding it
// (the caller's view when the call works on a copy of it), the triangle
// read ('L', 'U', or 0 for all), and whether the call writes it in place.
type source[T Scalar] struct {
	name string
	v    views.View[T]
	tri  byte
	left bool
}

// rule is the finite-input rule of one batch call, whose inputs are
// srcs, each of batch shape shape. A nil rule does nothing.
type rule[T Scalar] struct {
	op    string
	shape []int
	srcs  []source[T]
}

func newRule[T Scalar](op string, shape []int, srcs ...source[T]) *rule[T] {
	return &rule[T]{op: op, shape: shape, srcs: srcs}
}

// triangle is the source tri of a Cholesky triangle uplo.
func triangle(uplo Uplo) byte {
	if uplo == Upper {
		return 'U'
	}
	return 'L'
}

// inputs returns matrix t of every source; fresh reads every one as the
// input (the kernels flagged matrix t and wrote nothing).
func (r *rule[T]) inputs(t int, fresh bool) []link.Input[T] {
	ins := make([]link.Input[T], len(r.srcs))
	for i, s := range r.srcs {
		ins[i] = link.Input[T]{Name: s.name, V: matrixAt(s.v, r.shape, t), Tri: s.tri, Left: s.left && !fresh}
	}
	return ins
}

// after applies the rule to matrix t once computed: err is its error,
// suspect whether its result showed a NaN or an infinity.
func (r *rule[T]) after(t int, err error, suspect bool) error {
	if r == nil || err == nil && !suspect {
		return err
	}
	return link.CheckFinite(r.op, err, suspect, r.inputs(t, false)...)
}

// afterNorm is after for a matrix whose norm anorm (Solve's and Inv's
// conditioning check) was taken before the computation: a norm that is
// not finite shows a NaN or an infinity in the input even where an
// in-place computation has overwritten it (an infinity the factorisation
// absorbs, x/Inf = 0, leaves finite factors and an rcond of 0).
func (r *rule[T]) afterNorm(t int, err error, anorm float64) error {
	err = r.after(t, err, false)
	if r == nil || err == nil || errors.Is(err, lapis.ErrNotFinite) || scalar.IsFinite(anorm) {
		return err
	}
	s := r.srcs[0]
	return link.NotFiniteError(r.op, s.name, fmt.Sprintf("its norm was %v before the computation: it held a NaN or an infinity (in place: the element is overwritten)", anorm))
}

// errFlagged stands for the kernels' flag in redo: the rule returns it
// unchanged when the inputs are finite.
var errFlagged = errors.New("flagged by the tiny kernels")

// redo wraps slow, the per-matrix path's redo of a matrix the kernels
// flagged: matrix t's inputs are scanned first, while they are still the
// input (the kernels wrote nothing), and slow runs anyway, so that the
// matrix holds what the per-matrix path leaves there; a NaN or an
// infinity found is the matrix's error. A nil rule returns slow.
func (r *rule[T]) redo(slow func(t int) error) func(t int) error {
	if r == nil {
		return slow
	}
	return func(t int) error {
		pre := link.CheckFinite(r.op, errFlagged, false, r.inputs(t, true)...)
		err := slow(t)
		if pre != errFlagged {
			return pre
		}
		return err
	}
}

// strided returns where the cheap looks read the matrix m: its element
// (i, j) at data[off + i*s0 + j*s1] (a conjugated view's stored values:
// conjugation keeps a value finite or not). m is read through the
// pointer and its layout copied once: a View is a large value.
func strided[T Scalar](m *views.View[T]) (data []T, off, s0, s1, rows, cols int) {
	l := m.Layout()
	return m.Data(), l.Offset(), l.Stride(0), l.Stride(1), l.Dim(0), l.Dim(1)
}

// The cheap looks add x*0 over what they read: 0 when every x is finite,
// NaN when one is a NaN or an infinity (either part, for complex x), with
// no branch per element.

// badDiagonal reports whether the diagonal of m (its min(rows, cols)
// elements (i, i)) holds a NaN or an infinity: O(n).
func badDiagonal[T Scalar](m *views.View[T]) bool {
	d, off, s0, s1, r, c := strided(m)
	var acc T
	for i := range min(r, c) {
		acc += d[off+i*(s0+s1)] * 0
	}
	return acc != 0
}

// badMatrix reports whether the matrix m (a solution, factors, an
// inverse) holds a NaN or an infinity.
func badMatrix[T Scalar](m *views.View[T]) bool {
	d, off, s0, s1, r, c := strided(m)
	return badAt(d, off, s0, s1, r, c)
}

func badAt[T Scalar](d []T, off, s0, s1, rows, cols int) bool {
	if s0 == 1 {
		for j := range cols {
			if badValues(d[off+j*s1:][:rows]) {
				return true
			}
		}
		return false
	}
	var acc T
	for j := range cols {
		for i := range rows {
			acc += d[off+i*s0+j*s1] * 0
		}
	}
	return acc != 0
}

// badMatrices calls f with the index of every matrix of the run x
// ([rows, cols, k]) that holds a NaN or an infinity.
func badMatrices[T Scalar](x *views.View[T], f func(i int)) {
	l := x.Layout()
	d, off, s0, s1, s2 := x.Data(), l.Offset(), l.Stride(0), l.Stride(1), l.Stride(2)
	rows, cols := l.Dim(0), l.Dim(1)
	for i := range l.Dim(2) {
		if badAt(d, off+i*s2, s0, s1, rows, cols) {
			f(i)
		}
	}
}

// badValues reports whether xs (eigenvalues, singular values, reflector
// scalars) holds a NaN or an infinity.
func badValues[E Scalar](xs []E) bool {
	var acc E
	for _, x := range xs {
		acc += x * 0
	}
	return acc != 0
}
