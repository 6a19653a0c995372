package cblas

/*
#include "lapis_cblas.h"
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/lapis-go/lapis/internal/policy"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Level 1: vectors are rank-1 views with any non-zero stride, negative
// included; BLAS takes them with that increment, no copy. Conjugated views
// are folded into the routine (Dot of a conjugated x is BLAS dotc, and so
// on); only a conjugation BLAS cannot express, or a broadcast (stride 0)
// operand that is read, is copied.

// level1Small is the largest vector length that Dot and Axpy compute in
// pure Go: below it the cost of a cgo call exceeds the work (README).
var level1Small = 128

func checkVectors[T Scalar](op string, x, y views.View[T]) error {
	if err := checkRank(op, "x", x, 1); err != nil {
		return err
	}
	if err := checkRank(op, "y", y, 1); err != nil {
		return err
	}
	if x.Len() != y.Len() {
		return layout.Errorf(layout.ErrShape, op, "y", "length %d differs from x's %d", y.Len(), x.Len())
	}
	return nil
}

// Dot returns sum_i x[i]*y[i] (no implicit conjugation: for x^H y pass
// x.Conj(), which BLAS computes as dotc without a copy). x and y are
// rank-1 views of equal length. Errors match layout.ErrShape,
// layout.ErrOverflow and ErrCopyRefused.
func Dot[T Scalar](x, y views.View[T], opts ...Option) (T, error) {
	const op = "cblas.Dot"
	var zero T
	cfg := configure(opts)
	if err := checkVectors(op, x, y); err != nil {
		return zero, err
	}
	n := x.Len()
	if n == 0 {
		return zero, nil
	}
	// conj(x).y = dotc(x, y); x.conj(y) = conj(dotc(y, x));
	// conj(x).conj(y) = conj(dotu(x, y)).
	conjResult := y.IsConj()
	if conjResult {
		x, y = x.Conj(), y.Conj()
	}
	xs, ys := x.Layout().Stride(0), y.Layout().Stride(0)
	if complexStridedDot[T](n, xs, ys) || (!x.IsConj() && cfg.Path != policy.PathC && (cfg.Path == policy.PathGo || n <= level1Small)) {
		policy.Small.Add(1)
		s := dotGo[T](n, unsafe.Pointer(at(x, 0)), xs, unsafe.Pointer(at(y, 0)), ys, x.IsConj())
		if conjResult {
			s = conj(s)
		}
		return s, nil
	}
	xv, xt, err := vectorArg(op, "x", x, true, cfg)
	if err != nil {
		return zero, err
	}
	defer release(xt)
	yv, yt, err := vectorArg(op, "y", y, false, cfg)
	if err != nil {
		return zero, err
	}
	defer release(yt)
	N, err := blasInt(op, "n", "", n)
	if err != nil {
		return zero, err
	}
	policy.Calls.Add(1)
	var s T
	if x.IsConj() && xt == nil { // a copy of x holds its conjugated values
		s = xdotc[T](N, xv.ptr, xv.inc, yv.ptr, yv.inc)
	} else {
		s = xdot[T](N, xv.ptr, xv.inc, yv.ptr, yv.inc)
	}
	if conjResult {
		s = conj(s)
	}
	return s, nil
}

// at returns the address of element i of the rank-1 view v.
func at[T Scalar](v views.View[T], i int) *T {
	return &v.Data()[v.Layout().Offset()+i*v.Layout().Stride(0)]
}

// Axpy computes y += alpha*x for rank-1 views of equal length. When alpha
// is 0 it returns at once, as BLAS does, on every path: x is not read, so
// an Inf or NaN in x leaves y as it was. Errors
// match layout.ErrShape, layout.ErrOverlap (y broadcast, or sharing memory
// with x), layout.ErrOverflow and ErrCopyRefused; y is untouched on error.
func Axpy[T Scalar](alpha T, x, y views.View[T], opts ...Option) error {
	const op = "cblas.Axpy"
	cfg := configure(opts)
	if err := checkVectors(op, x, y); err != nil {
		return err
	}
	if err := checkOutput(op, "y", y, x); err != nil {
		return err
	}
	n := x.Len()
	if n == 0 || alpha == 0 {
		return nil // as BLAS: x is not read, so Inf or NaN in it changes nothing
	}
	if y.IsConj() { // conj(y) += alpha x  <=>  y += conj(alpha) conj(x)
		alpha, x, y = conj(alpha), x.Conj(), y.Conj()
	}
	if !x.IsConj() && cfg.Path != policy.PathC && (cfg.Path == policy.PathGo || n <= level1Small) {
		policy.Small.Add(1)
		axpyGo(n, alpha, unsafe.Pointer(at(x, 0)), x.Layout().Stride(0), unsafe.Pointer(at(y, 0)), y.Layout().Stride(0))
		return nil
	}
	xv, xt, err := vectorArg(op, "x", x, false, cfg)
	if err != nil {
		return err
	}
	defer release(xt)
	yv, _, err := vectorArg(op, "y", y, false, cfg) // y: stride != 0, unconjugated
	if err != nil {
		return err
	}
	N, err := blasInt(op, "n", "", n)
	if err != nil {
		return err
	}
	policy.Calls.Add(1)
	xaxpy(N, alpha, xv.ptr, xv.inc, yv.ptr, yv.inc)
	return nil
}

// Scal computes x *= alpha for a rank-1 view x. Errors match
// layout.ErrShape, layout.ErrOverlap (x broadcast) and layout.ErrOverflow.
func Scal[T Scalar](alpha T, x views.View[T], opts ...Option) error {
	const op = "cblas.Scal"
	cfg := configure(opts)
	if err := checkRank(op, "x", x, 1); err != nil {
		return err
	}
	if err := checkOutput(op, "x", x); err != nil {
		return err
	}
	if x.Len() == 0 {
		return nil
	}
	if x.IsConj() { // conj(x) alpha = conj(x conj(alpha))
		alpha, x = conj(alpha), x.Conj()
	}
	x = forward(x)
	xv, _, err := vectorArg(op, "x", x, false, cfg)
	if err != nil {
		return err
	}
	N, err := blasInt(op, "n", "", x.Len())
	if err != nil {
		return err
	}
	policy.Calls.Add(1)
	xscal(N, alpha, xv.ptr, xv.inc)
	return nil
}

// forward returns x walked with a positive stride: BLAS's one-vector
// routines (scal, nrm2, asum, i?amax) do nothing for a negative increment.
func forward[T Scalar](x views.View[T]) views.View[T] {
	if x.Len() > 1 && x.Layout().Stride(0) < 0 {
		x, _ = x.Reverse(0)
	}
	return x
}

// reduce runs one of the real-valued reductions, to which conjugation and
// order make no difference.
func reduce[T Scalar](op string, x views.View[T], cfg config, f func(n C.blasint, p unsafe.Pointer, inc C.blasint) float64) (float64, error) {
	if err := checkRank(op, "x", x, 1); err != nil {
		return 0, err
	}
	if x.Len() == 0 {
		return 0, nil
	}
	x = forward(x)
	xv, xt, err := vectorArg(op, "x", x, true, cfg)
	if err != nil {
		return 0, err
	}
	defer release(xt)
	N, err := blasInt(op, "n", "", x.Len())
	if err != nil {
		return 0, err
	}
	policy.Calls.Add(1)
	return f(N, xv.ptr, xv.inc), nil
}

// Nrm2 returns the Euclidean norm of the rank-1 view x (computed by BLAS
// without overflow for large elements).
func Nrm2[T Scalar](x views.View[T], opts ...Option) (float64, error) {
	return reduce("cblas.Nrm2", x, configure(opts), xnrm2[T])
}

// Asum returns sum_i |Re x[i]| + |Im x[i]| for the rank-1 view x.
func Asum[T Scalar](x views.View[T], opts ...Option) (float64, error) {
	return reduce("cblas.Asum", x, configure(opts), xasum[T])
}

// Iamax returns the index of the element of the rank-1 view x with the
// largest |Re| + |Im| (-1 for an empty x), by the rule of reference BLAS
// and gonum, the same on every path, for every stride and library: the
// first index whose measure exceeds that of every element before it,
// counting from element 0. NaN compares greater than nothing, so a NaN is
// the answer only when it is element 0 ([0 NaN 2] gives 2, [NaN 1 2]
// gives 0); look for NaN separately (Nrm2 and Asum propagate it) when it
// matters.
func Iamax[T Scalar](x views.View[T], opts ...Option) (int, error) {
	const op = "cblas.Iamax"
	if err := checkRank(op, "x", x, 1); err != nil {
		return -1, err
	}
	n := x.Len()
	if n == 0 {
		return -1, nil
	}
	cfg := configure(opts)
	s := x.Layout().Stride(0)
	// Walking a negative stride, i?amax would find the last of equal
	// maxima, not the first; a stride of 0 has one element to look at.
	if n == 1 || s <= 0 || (cfg.Path != policy.PathC && (cfg.Path == policy.PathGo || n <= level1Small)) {
		policy.Small.Add(1)
		return iamaxGo[T](n, unsafe.Pointer(at(x, 0)), s), nil
	}
	xv, _, err := vectorArg(op, "x", x, true, cfg) // s > 0: never a copy
	if err != nil {
		return -1, err
	}
	N, err := blasInt(op, "n", "", n)
	if err != nil {
		return -1, err
	}
	policy.Calls.Add(2)
	return iamaxC[T](N, xv.ptr, xv.inc), nil
}

// iamaxC is i?amax by the library, held to iamaxGo's rule. Libraries agree
// with reference BLAS except where NaN is involved, and there they differ
// (OpenBLAS 0.3.21's Haswell kernels return the first NaN for some
// positions and ignore it for others). ?asum is NaN exactly when an
// element is, so one more library pass, far cheaper than a Go scan, tells
// whether the library's answer stands; when it does not, the elements are
// scanned in Go.
func iamaxC[T Scalar](n C.blasint, p unsafe.Pointer, inc C.blasint) int {
	if !math.IsNaN(xasum[T](n, p, inc)) {
		return ixamax[T](n, p, inc)
	}
	return iamaxGo[T](int(n), p, int(inc))
}

// abs1 is |Re x| + |Im x|, the measure of i?amax.
func abs1[T Scalar](x T) float64 {
	switch v := any(x).(type) {
	case float32:
		return math.Abs(float64(v))
	case float64:
		return math.Abs(v)
	case complex64:
		return math.Abs(float64(real(v))) + math.Abs(float64(imag(v)))
	case complex128:
		return math.Abs(real(v)) + math.Abs(imag(v))
	}
	return 0
}

// Swap exchanges the elements of the rank-1 views x and y (equal lengths,
// no shared memory, neither broadcast). Errors match layout.ErrShape,
// layout.ErrOverlap, layout.ErrOverflow and ErrCopyRefused.
func Swap[T Scalar](x, y views.View[T], opts ...Option) error {
	return pair("cblas.Swap", x, y, configure(opts), func(n C.blasint, x, y vec) {
		xswap[T](n, x.ptr, x.inc, y.ptr, y.inc)
	})
}

// Rot applies the plane rotation (x, y) = (c x + s y, c y - s x) with real
// c and s to the rank-1 views x and y, under the same rules as Swap.
func Rot[T Scalar](x, y views.View[T], c, s float64, opts ...Option) error {
	return pair("cblas.Rot", x, y, configure(opts), func(n C.blasint, x, y vec) {
		xrot[T](n, x.ptr, x.inc, y.ptr, y.inc, c, s)
	})
}

// pair runs a routine that rewrites two vectors with real coefficients, so
// that it commutes with conjugating both. If exactly one is conjugated, y
// goes through a temporary holding its logical values.
func pair[T Scalar](op string, x, y views.View[T], cfg config, f func(n C.blasint, x, y vec)) error {
	if err := checkVectors(op, x, y); err != nil {
		return err
	}
	if err := checkOutput(op, "x", x, y); err != nil {
		return err
	}
	if err := checkOutput(op, "y", y); err != nil {
		return err
	}
	if x.Len() == 0 {
		return nil
	}
	if x.IsConj() {
		x, y = x.Conj(), y.Conj()
	}
	dst := y
	if y.IsConj() {
		if cfg.Strict {
			return refuse(op, "y", y.Layout(), "a vector conjugated unlike x")
		}
		tmp := y.ToColMajor()
		defer tmp.Release()
		policy.Copies.Add(1)
		y = tmp.View()
	}
	xv, _, err := vectorArg(op, "x", x, false, cfg)
	if err != nil {
		return err
	}
	yv, _, err := vectorArg(op, "y", y, false, cfg)
	if err != nil {
		return err
	}
	N, err := blasInt(op, "n", "", x.Len())
	if err != nil {
		return err
	}
	policy.Calls.Add(1)
	f(N, xv, yv)
	if dst.IsConj() {
		_ = views.Copy(dst, y) // back into the conjugated view
	}
	return nil
}
