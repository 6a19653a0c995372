package cblas

import (
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Level 2. Matrices are rank-2 views of any layout; transposes and
// conjugates are views. Uplo always refers to the matrix as seen through
// its view. A conjugated vector operand is copied (O(n)); a conjugated or
// row-major matrix is folded into the BLAS call wherever an identity allows
// (see each function).

// Gemv computes y = alpha*a*x + beta*y for a rank-2 a (m x n) and rank-1 x
// (n) and y (m). Errors match layout.ErrShape, layout.ErrOverlap (y
// broadcast or sharing memory with a or x), layout.ErrOverflow and
// lapis.ErrCopyRefused; y is untouched on error.
func Gemv[T Scalar](alpha T, a, x views.View[T], beta T, y views.View[T], opts ...lapis.Option) error {
	const op = "cblas.Gemv"
	cfg := configure(opts)
	if err := checkRank(op, "a", a, 2); err != nil {
		return err
	}
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	if err := checkLen(op, "x", x, n); err != nil {
		return err
	}
	if err := checkLen(op, "y", y, m); err != nil {
		return err
	}
	if err := checkOutput(op, "y", y, "a x", a, x); err != nil {
		return err
	}
	if m == 0 {
		return nil
	}
	if n == 0 { // y = beta*y; BLAS returns early on n == 0 without it
		for i := 0; i < m; i++ {
			if beta == 0 {
				y.Set(0, i)
			} else {
				y.Set(beta*y.At(i), i)
			}
		}
		return nil
	}
	if y.IsConj() { // conj(y) = conj(alpha) conj(a) conj(x) + conj(beta) conj(y)
		alpha, beta, a, x, y = scalar.Conj(alpha), scalar.Conj(beta), a.Conj(), x.Conj(), y.Conj()
	}
	am, at, err := matrixArg(op, "a", a, cfg)
	if err != nil {
		return err
	}
	defer release(at)
	xv, xt, err := vectorArg(op, "x", x, false, cfg)
	if err != nil {
		return err
	}
	defer release(xt)
	yo, err := outputVec(op, "y", y, cfg)
	if err != nil {
		return err
	}
	// BLAS's m and n are those of the stored matrix.
	M, N, err := blasInt2(op, "m", am.rows, "n", am.cols)
	if err != nil {
		yo.release()
		return err
	}
	policy.Calls.Add(1)
	blasgo.OverReadSafe[T](xv.ptr, xv.inc, n, yo.vec.ptr, yo.vec.inc, m, func(x unsafe.Pointer, incX int, y unsafe.Pointer, incY int) { // c/zgemv_n over-reads x
		clib.Gemv(am.trans, M, N, alpha, am.ptr, am.ld, x, incX, beta, y, incY)
	})
	yo.finish()
	return nil
}

// Ger computes a += alpha*x*y^T for rank-2 a (m x n), rank-1 x (m) and y
// (n). For x*y^H pass y.Conj() (BLAS gerc, no copy). Errors as Gemv, with
// a the output.
func Ger[T Scalar](alpha T, x, y views.View[T], a views.View[T], opts ...lapis.Option) error {
	const op = "cblas.Ger"
	cfg := configure(opts)
	if err := checkRank(op, "a", a, 2); err != nil {
		return err
	}
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	if err := checkLen(op, "x", x, m); err != nil {
		return err
	}
	if err := checkLen(op, "y", y, n); err != nil {
		return err
	}
	if err := checkOutput(op, "a", a, "x y", x, y); err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return nil
	}
	if a.IsConj() { // conj(a) += conj(alpha) conj(x) conj(y)^T
		alpha, a, x, y = scalar.Conj(alpha), a.Conj(), x.Conj(), y.Conj()
	}
	if isRowMajor(a) { // a^T += alpha y x^T
		a, x, y = a.T(), y, x
	}
	xv, xt, err := vectorArg(op, "x", x, false, cfg)
	if err != nil {
		return err
	}
	defer release(xt)
	yv, yt, err := vectorArg(op, "y", y, true, cfg) // a conjugated y is gerc
	if err != nil {
		return err
	}
	defer release(yt)
	ao, err := outputArg(op, "a", a, true, cfg)
	if err != nil {
		return err
	}
	M, N, err := blasInt2(op, "m", a.Layout().Dim(0), "n", a.Layout().Dim(1))
	if err != nil {
		ao.release()
		return err
	}
	policy.Calls.Add(1)
	if y.IsConj() && yt == nil {
		clib.Gerc(M, N, alpha, xv.ptr, xv.inc, yv.ptr, yv.inc, ao.ptr, ao.ld)
	} else {
		clib.Geru(M, N, alpha, xv.ptr, xv.inc, yv.ptr, yv.inc, ao.ptr, ao.ld)
	}
	ao.finish()
	return nil
}

// Symv computes y = alpha*a*x + beta*y for a real symmetric a (n x n, only
// its uplo triangle is read). CBLAS has no complex symmetric symv: complex
// types return lapis.ErrUnsupported (use Hemv for Hermitian matrices).
func Symv[T Scalar](uplo Uplo, alpha T, a, x views.View[T], beta T, y views.View[T], opts ...lapis.Option) error {
	if views.IsComplex[T]() {
		return layout.Errorf(lapis.ErrUnsupported, "cblas.Symv", "T", "CBLAS has no complex symmetric symv (use Hemv for a Hermitian a, or Gemv on the full matrix)")
	}
	return symv("cblas.Symv", uplo, alpha, a, x, beta, y, configure(opts))
}

// Hemv computes y = alpha*a*x + beta*y for a Hermitian a (n x n, only its
// uplo triangle is read; for real types this is Symv). A row-major a is
// used in place: its transpose equals its conjugate, so the call is
// conjugated around it (at the cost of copying the vectors, O(n)).
func Hemv[T Scalar](uplo Uplo, alpha T, a, x views.View[T], beta T, y views.View[T], opts ...lapis.Option) error {
	return symv("cblas.Hemv", uplo, alpha, a, x, beta, y, configure(opts))
}

func symv[T Scalar](op string, uplo Uplo, alpha T, a, x views.View[T], beta T, y views.View[T], cfg config) error {
	n, err := checkSquareVectors(op, uplo, a, x, y, false)
	if err != nil || n == 0 {
		return err
	}
	// a^T = a for symmetric a, a^T = conj(a) for Hermitian a: a row-major
	// view becomes its column-major transpose with uplo flipped (and, for
	// Hermitian a, everything else conjugated).
	if isRowMajor(a) && !a.IsConj() {
		a, uplo = a.T(), uplo.flip()
		alpha, beta, x, y = scalar.Conj(alpha), scalar.Conj(beta), x.Conj(), y.Conj()
	}
	am, at, err := matrixArg(op, "a", a, cfg)
	if err != nil {
		return err
	}
	defer release(at)
	if am.trans != clib.NoTrans { // a conjugated row-major view: a = S^H = S
		uplo = uplo.flip()
	}
	xv, xt, err := vectorArg(op, "x", x, false, cfg)
	if err != nil {
		return err
	}
	defer release(xt)
	yo, err := outputVec(op, "y", y, cfg)
	if err != nil {
		return err
	}
	N, err := blasInt(op, "n", "", n)
	if err != nil {
		yo.release()
		return err
	}
	if !views.IsComplex[T]() && blasgo.RealSymvOverRead {
		// The kernel set's ssymv and dsymv read past a and y
		// (coreset.RealSymvOverRead): gonum computes it instead.
		policy.Small.Add(1)
		goSymv(uplo, n, alpha, &am, xv, beta, yo.vec)
		yo.finish()
		return nil
	}
	policy.Calls.Add(1)
	blasgo.OverReadSafe[T](xv.ptr, xv.inc, n, yo.vec.ptr, yo.vec.inc, n, func(x unsafe.Pointer, incX int, y unsafe.Pointer, incY int) { // chemv over-reads x, zhemv y
		clib.Hemv(uplo.c(), N, alpha, am.ptr, am.ld, x, incX, beta, y, incY)
	})
	yo.finish()
	return nil
}

// Trmv computes x = a*x for a triangular a (n x n, uplo triangle, unit or
// not). Trsv solves a*x = b in place (x holds b on entry). a's transposes
// and conjugate transposes are views (BLAS "T"/"C", no copy).
func Trmv[T Scalar](uplo Uplo, diag Diag, a, x views.View[T], opts ...lapis.Option) error {
	return trxv("cblas.Trmv", uplo, diag, a, x, configure(opts), false)
}

// Trsv solves a*x = b for x in place (x holds b on entry), a triangular
// (n x n). BLAS does not test for singularity: a zero on the diagonal gives
// Inf or NaN, as in BLAS.
func Trsv[T Scalar](uplo Uplo, diag Diag, a, x views.View[T], opts ...lapis.Option) error {
	return trxv("cblas.Trsv", uplo, diag, a, x, configure(opts), true)
}

func trxv[T Scalar](op string, uplo Uplo, diag Diag, a, x views.View[T], cfg config, solve bool) error {
	if err := checkEnum(op, "uplo", int(uplo), 2); err != nil {
		return err
	}
	if err := checkEnum(op, "diag", int(diag), 2); err != nil {
		return err
	}
	n, err := checkSquare(op, "a", a)
	if err != nil {
		return err
	}
	if err := checkLen(op, "x", x, n); err != nil {
		return err
	}
	if err := checkOutput(op, "x", x, "a", a); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if x.IsConj() { // conj(x) = a conj(x0)  <=>  x = conj(a) x0
		a, x = a.Conj(), x.Conj()
	}
	am, at, err := matrixArg(op, "a", a, cfg)
	if err != nil {
		return err
	}
	defer release(at)
	if am.trans != clib.NoTrans {
		uplo = uplo.flip()
	}
	xv, _, err := vectorArg(op, "x", x, false, cfg)
	if err != nil {
		return err
	}
	N, err := blasInt(op, "n", "", n)
	if err != nil {
		return err
	}
	policy.Calls.Add(1)
	if solve {
		clib.Trsv[T](uplo.c(), am.trans, diag.c(), N, am.ptr, am.ld, xv.ptr, xv.inc)
	} else {
		clib.Trmv[T](uplo.c(), am.trans, diag.c(), N, am.ptr, am.ld, xv.ptr, xv.inc)
	}
	return nil
}

// Syr computes a += alpha*x*x^T on the uplo triangle of a real symmetric a
// (complex types: lapis.ErrUnsupported; see Her).
func Syr[T Scalar](uplo Uplo, alpha T, x, a views.View[T], opts ...lapis.Option) error {
	if views.IsComplex[T]() {
		return layout.Errorf(lapis.ErrUnsupported, "cblas.Syr", "T", "CBLAS has no complex symmetric syr (use Her for a Hermitian a, or Ger(alpha, x, x, a) on the full matrix)")
	}
	return rank1("cblas.Syr", uplo, alpha, toReal(alpha), x, x, a, configure(opts), false)
}

// Her computes a += alpha*x*x^H on the uplo triangle of a Hermitian a,
// alpha real (for real types this is Syr).
func Her[T Scalar](uplo Uplo, alpha float64, x, a views.View[T], opts ...lapis.Option) error {
	return rank1("cblas.Her", uplo, *new(T), alpha, x, x, a, configure(opts), false)
}

// Syr2 computes a += alpha*x*y^T + alpha*y*x^T on the uplo triangle of a
// real symmetric a (complex types: lapis.ErrUnsupported; see Her2).
func Syr2[T Scalar](uplo Uplo, alpha T, x, y, a views.View[T], opts ...lapis.Option) error {
	if views.IsComplex[T]() {
		return layout.Errorf(lapis.ErrUnsupported, "cblas.Syr2", "T", "CBLAS has no complex symmetric syr2 (use Her2 for a Hermitian a, or Ger(alpha, x, y, a) and Ger(alpha, y, x, a) on the full matrix)")
	}
	return rank1("cblas.Syr2", uplo, alpha, 0, x, y, a, configure(opts), true)
}

// Her2 computes a += alpha*x*y^H + conj(alpha)*y*x^H on the uplo triangle
// of a Hermitian a (for real types this is Syr2).
func Her2[T Scalar](uplo Uplo, alpha T, x, y, a views.View[T], opts ...lapis.Option) error {
	return rank1("cblas.Her2", uplo, alpha, 0, x, y, a, configure(opts), true)
}

// rank1 runs syr/her (two false: alpha or ralpha) and syr2/her2. The
// updates commute with transposing a (a^T += conj(x) conj(x)^H, and
// likewise for two vectors with conj(alpha)) and with conjugating a.
func rank1[T Scalar](op string, uplo Uplo, alpha T, ralpha float64, x, y, a views.View[T], cfg config, two bool) error {
	n, err := checkSquareVectors(op, uplo, a, x, y, true)
	if err != nil || n == 0 {
		return err
	}
	if isRowMajor(a) {
		a, uplo = a.T(), uplo.flip()
		alpha, x, y = scalar.Conj(alpha), x.Conj(), y.Conj()
	}
	if a.IsConj() {
		alpha, a, x, y = scalar.Conj(alpha), a.Conj(), x.Conj(), y.Conj()
	}
	xv, xt, err := vectorArg(op, "x", x, false, cfg)
	if err != nil {
		return err
	}
	defer release(xt)
	var yv vec
	if two { // syr and her read x only
		var yt *views.Tensor[T]
		yv, yt, err = vectorArg(op, "y", y, false, cfg)
		if err != nil {
			return err
		}
		defer release(yt)
	}
	ao, err := outputArg(op, "a", a, true, cfg)
	if err != nil {
		return err
	}
	N, err := blasInt(op, "n", "", n)
	if err != nil {
		ao.release()
		return err
	}
	policy.Calls.Add(1)
	if two {
		clib.Her2(uplo.c(), N, alpha, xv.ptr, xv.inc, yv.ptr, yv.inc, ao.ptr, ao.ld)
	} else {
		clib.Her[T](uplo.c(), N, ralpha, xv.ptr, xv.inc, ao.ptr, ao.ld)
	}
	ao.finish()
	return nil
}

// toReal returns the real part of x as a float64.
func toReal[T Scalar](x T) float64 {
	switch v := any(x).(type) {
	case float32:
		return float64(v)
	case float64:
		return v
	case complex64:
		return float64(real(v))
	case complex128:
		return real(v)
	}
	return 0
}

// checkSquareVectors checks the operands of symv (y written) and of the
// rank-1 and rank-2 updates (a written): uplo, a n x n, x and y of length
// n, and an output that overlaps nothing. It returns n.
func checkSquareVectors[T Scalar](op string, uplo Uplo, a, x, y views.View[T], aIsOutput bool) (int, error) {
	if err := checkEnum(op, "uplo", int(uplo), 2); err != nil {
		return 0, err
	}
	n, err := checkSquare(op, "a", a)
	if err != nil {
		return 0, err
	}
	if err := checkLen(op, "x", x, n); err != nil {
		return 0, err
	}
	if err := checkLen(op, "y", y, n); err != nil {
		return 0, err
	}
	if aIsOutput {
		return n, checkOutput(op, "a", a, "x y", x, y)
	}
	return n, checkOutput(op, "y", y, "a x", a, x)
}
