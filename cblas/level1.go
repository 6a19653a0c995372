package cblas

import (
	"math"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Level 1: vectors are rank-1 views with any non-zero stride, negative
// included; BLAS takes them with that increment, no copy. Conjugated views
// are folded into the routine (Dot of a conjugated x is BLAS dotc, and so
// on); only a conjugation BLAS cannot express, or a broadcast (stride 0)
// operand that is read, is copied.

// The largest vector lengths computed in pure Go by default (docs/blas.md,
// "Small problems"; measured with BenchmarkThreshold, float64 and
// complex128): below them the cost of a cgo call exceeds the work.
// level1Small is Dot's and Iamax's, axpySmall Axpy's and scalSmall Scal's
// (Go's loops are scalar, OpenBLAS's AVX2 ones catch up by 64-128
// elements). nrm2Small is every length: OpenBLAS 0.3.21's ?nrm2 on x86-64
// runs on the x87 unit and was 2.5-3.5x slower than blasgo.Nrm2 at n =
// 1024 and 8192, both types.
var (
	level1Small = 128
	axpySmall   = 64
	scalSmall   = 64
	nrm2Small   = math.MaxInt
)

// goPath reports whether a level-1 call of length n with the pure-Go
// threshold small runs in Go under cfg.
func goPath(cfg config, n, small int) bool {
	return cfg.Path != lapis.PathC && (cfg.Path == lapis.PathGo || n <= small)
}

// The level-1 routines read their operands once into vdescs (desc.go):
// a view's methods copy its 168-byte layout, which cost more than the
// arithmetic at the lengths these calls are made with.

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
// layout.ErrOverflow and lapis.ErrCopyRefused.
func Dot[T Scalar](x, y views.View[T], opts ...lapis.Option) (T, error) {
	const op = "cblas.Dot"
	var zero T
	var xd, yd vdesc[T]
	if err := readVectors(op, &x, &y, &xd, &yd); err != nil {
		return zero, err
	}
	n := xd.n
	if n == 0 {
		return zero, nil
	}
	cfg := configure(opts)
	// conj(x).y = dotc(x, y); x.conj(y) = conj(dotc(y, x));
	// conj(x).conj(y) = conj(dotu(x, y)).
	conjResult := yd.conj
	if conjResult {
		xd.flip()
		yd.flip()
	}
	var s T
	if blasgo.ComplexStridedDot[T](n, xd.inc, yd.inc) || goPath(cfg, n, level1Small) {
		policy.Small.Add(1)
		s = blasgo.Dot[T](n, xd.p, xd.inc, yd.p, yd.inc, xd.conj)
	} else {
		var err error
		if s, err = dotC(op, &x, &y, &xd, &yd, cfg); err != nil {
			return zero, err
		}
	}
	if conjResult {
		s = scalar.Conj(s)
	}
	return s, nil
}

// dotC is Dot's library call: dotc when x is conjugated (and not copied:
// a copy holds the conjugated values), dotu otherwise.
func dotC[T Scalar](op string, x, y *views.View[T], xd, yd *vdesc[T], cfg config) (s T, err error) {
	xv, xt, err := xd.arg(op, "x", x, true, cfg)
	if err != nil {
		return s, err
	}
	defer release(xt)
	yv, yt, err := yd.arg(op, "y", y, false, cfg) // yd is not conjugated here
	if err != nil {
		return s, err
	}
	defer release(yt)
	N, err := blasInt(op, "n", "", xd.n)
	if err != nil {
		return s, err
	}
	policy.Calls.Add(1)
	if xd.conj && xt == nil {
		return clib.Dotc[T](N, xv.ptr, xv.inc, yv.ptr, yv.inc), nil
	}
	return clib.Dot[T](N, xv.ptr, xv.inc, yv.ptr, yv.inc), nil
}

// Axpy computes y += alpha*x for rank-1 views of equal length. When alpha
// is 0 it returns at once, as BLAS does, on every path: x is not read, so
// an Inf or NaN in x leaves y as it was. x may be y itself (the same
// elements in the same order, conjugated or not): the sum is defined
// element by element, so Axpy(a, y, y) sets y to y + a y (computed in Go:
// the library's complex kernels do not allow it). Errors match
// layout.ErrShape, layout.ErrOverlap (y broadcast, or sharing memory with
// x in any other way), layout.ErrOverflow and lapis.ErrCopyRefused; y is
// untouched on error.
func Axpy[T Scalar](alpha T, x, y views.View[T], opts ...lapis.Option) error {
	const op = "cblas.Axpy"
	var xd, yd vdesc[T]
	if err := readVectors(op, &x, &y, &xd, &yd); err != nil {
		return err
	}
	if yd.broadcast() || yd.overlaps(&xd) && !yd.same(&xd) {
		return yd.outErr(op, "y", &y, &xd, "x")
	}
	n := xd.n
	if n == 0 || alpha == 0 {
		return nil // as BLAS: x is not read, so Inf or NaN in it changes nothing
	}
	cfg := configure(opts)
	if yd.conj { // conj(y) += alpha x  <=>  y += conj(alpha) conj(x)
		alpha = scalar.Conj(alpha)
		xd.flip()
		yd.flip()
	}
	// x being y goes to Go on every path: OpenBLAS's complex axpy kernels
	// store y's real part before they read x's for the imaginary one.
	if goPath(cfg, n, axpySmall) || yd.same(&xd) {
		policy.Small.Add(1)
		blasgo.Axpy(n, alpha, xd.p, xd.inc, yd.p, yd.inc, xd.conj)
		return nil
	}
	xv, xt, err := xd.arg(op, "x", &x, false, cfg)
	if err != nil {
		return err
	}
	defer release(xt)
	yv, _, err := yd.arg(op, "y", &y, false, cfg) // y: stride != 0, unconjugated
	if err != nil {
		return err
	}
	N, err := blasInt(op, "n", "", n)
	if err != nil {
		return err
	}
	policy.Calls.Add(1)
	clib.Axpy(N, alpha, xv.ptr, xv.inc, yv.ptr, yv.inc)
	return nil
}

// Scal computes x *= alpha for a rank-1 view x. With alpha = 0 it stores
// zeros without reading x, on every path and with every library (as
// OpenBLAS 0.3.21 does: a NaN in x becomes 0; reference BLAS would
// multiply); a complex alpha with a zero part scales by the other
// part alone. Errors match layout.ErrShape, layout.ErrOverlap (x
// broadcast) and layout.ErrOverflow.
func Scal[T Scalar](alpha T, x views.View[T], opts ...lapis.Option) error {
	const op = "cblas.Scal"
	var xd vdesc[T]
	if !xd.read(&x) {
		return checkRank(op, "x", x, 1)
	}
	if xd.broadcast() {
		return xd.outErr(op, "x", &x, nil, "")
	}
	if xd.n == 0 {
		return nil
	}
	cfg := configure(opts)
	if xd.conj { // conj(x) alpha = conj(x conj(alpha))
		alpha = scalar.Conj(alpha)
		xd.flip()
	}
	// alpha = 0 stores zeros in Go whatever the length: libraries differ
	// there (NaN * 0), lapis does not. An alpha with a NaN part goes to Go
	// too: OpenBLAS 0.3.21 stores zeros there instead of NaN, in sscal on
	// every kernel set and in zscal on Prescott to Sandybridge.
	if alpha == 0 || alpha != alpha || goPath(cfg, xd.n, scalSmall) {
		policy.Small.Add(1)
		blasgo.Scal(xd.n, alpha, xd.p, xd.inc)
		return nil
	}
	xd.forward()
	xv, _, err := xd.arg(op, "x", &x, true, cfg) // unconjugated, stride > 0: never a copy
	if err != nil {
		return err
	}
	N, err := blasInt(op, "n", "", xd.n)
	if err != nil {
		return err
	}
	policy.Calls.Add(1)
	clib.Scal(N, alpha, xv.ptr, xv.inc)
	return nil
}

// forward makes d walk its elements with a positive stride: BLAS's
// one-vector routines (scal, nrm2, asum, i?amax) do nothing for a negative
// increment.
func (d *vdesc[T]) forward() {
	if d.n > 1 && d.inc < 0 {
		var z T
		d.p = unsafe.Add(d.p, (d.n-1)*d.inc*int(unsafe.Sizeof(z)))
		d.inc = -d.inc
	}
}

// reduce runs one of the real-valued reductions, to which conjugation and
// order make no difference: in Go (goF, when not nil) up to small
// elements, else by the library (f).
func reduce[T Scalar](op string, x *views.View[T], cfg config, small int, goF func(n int, p unsafe.Pointer, inc int) float64, f func(n int, p unsafe.Pointer, inc int) float64) (float64, error) {
	var xd vdesc[T]
	if !xd.read(x) {
		return 0, checkRank(op, "x", *x, 1)
	}
	if xd.n == 0 {
		return 0, nil
	}
	if goF != nil && goPath(cfg, xd.n, small) {
		policy.Small.Add(1)
		return goF(xd.n, xd.p, xd.inc), nil
	}
	xd.forward()
	xv, xt, err := xd.arg(op, "x", x, true, cfg)
	if err != nil {
		return 0, err
	}
	defer release(xt)
	N, err := blasInt(op, "n", "", xd.n)
	if err != nil {
		return 0, err
	}
	policy.Calls.Add(1)
	return f(N, xv.ptr, xv.inc), nil
}

// Nrm2 returns the Euclidean norm of the rank-1 view x, without overflow
// or underflow for large or small elements (BLAS's rule on every path:
// NaN if an element has a NaN part, else +Inf if one is infinite).
// Errors match layout.ErrShape.
func Nrm2[T Scalar](x views.View[T], opts ...lapis.Option) (float64, error) {
	return reduce("cblas.Nrm2", &x, configure(opts), nrm2Small, blasgo.Nrm2[T], clib.Nrm2[T])
}

// Asum returns sum_i |Re x[i]| + |Im x[i]| for the rank-1 view x.
func Asum[T Scalar](x views.View[T], opts ...lapis.Option) (float64, error) {
	return reduce("cblas.Asum", &x, configure(opts), 0, nil, blasgo.AsumC[T])
}

// Iamax returns the index of the element of the rank-1 view x with the
// largest |Re| + |Im| (-1 for an empty x), by the rule of reference BLAS
// and gonum, the same on every path, for every stride and library: the
// first index whose measure exceeds that of every element before it,
// counting from element 0. NaN compares greater than nothing, so a NaN is
// the answer only when it is element 0 ([0 NaN 2] gives 2, [NaN 1 2]
// gives 0); look for NaN separately (Nrm2 and Asum propagate it) when it
// matters.
func Iamax[T Scalar](x views.View[T], opts ...lapis.Option) (int, error) {
	const op = "cblas.Iamax"
	var xd vdesc[T]
	if !xd.read(&x) {
		return -1, checkRank(op, "x", x, 1)
	}
	n, s := xd.n, xd.inc
	if n == 0 {
		return -1, nil
	}
	cfg := configure(opts)
	// Walking a negative stride, i?amax would find the last of equal
	// maxima, not the first; a stride of 0 has one element to look at.
	if n == 1 || s <= 0 || goPath(cfg, n, level1Small) {
		policy.Small.Add(1)
		return blasgo.Iamax[T](n, xd.p, s), nil
	}
	xv, _, err := xd.arg(op, "x", &x, true, cfg) // s > 0: never a copy
	if err != nil {
		return -1, err
	}
	N, err := blasInt(op, "n", "", n)
	if err != nil {
		return -1, err
	}
	policy.Calls.Add(2)
	return blasgo.IamaxC[T](N, xv.ptr, xv.inc), nil
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
// no shared memory, neither broadcast; x may be y itself, unconjugated
// alike, and then nothing changes). Errors match layout.ErrShape,
// layout.ErrOverlap, layout.ErrOverflow and lapis.ErrCopyRefused.
func Swap[T Scalar](x, y views.View[T], opts ...lapis.Option) error {
	var xd, yd vdesc[T]
	if xd.read(&x) && yd.read(&y) && xd.same(&yd) && xd.conj == yd.conj && !xd.broadcast() {
		return nil // x and y are one vector: swapping it with itself changes nothing
	}
	return pair("cblas.Swap", x, y, configure(opts), func(n int, x, y vec) {
		clib.Swap[T](n, x.ptr, x.inc, y.ptr, y.inc)
	})
}

// Rot applies the plane rotation (x, y) = (c x + s y, c y - s x) with real
// c and s to the rank-1 views x and y, under the same rules as Swap.
func Rot[T Scalar](x, y views.View[T], c, s float64, opts ...lapis.Option) error {
	return pair("cblas.Rot", x, y, configure(opts), func(n int, x, y vec) {
		clib.Rot[T](n, x.ptr, x.inc, y.ptr, y.inc, c, s)
	})
}

// pair runs a routine that rewrites two vectors with real coefficients, so
// that it commutes with conjugating both. If exactly one is conjugated, y
// goes through a temporary holding its logical values.
func pair[T Scalar](op string, x, y views.View[T], cfg config, f func(n int, x, y vec)) error {
	if err := checkVectors(op, x, y); err != nil {
		return err
	}
	if err := checkOutput(op, "x", x, "y", y); err != nil {
		return err
	}
	if err := checkOutput(op, "y", y, ""); err != nil {
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
