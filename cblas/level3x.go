package cblas

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Level 3 beyond Gemm. Uplo and Side refer to the views passed. An output
// that is row-major is handled by transposing the whole problem (C^T),
// a conjugated output by conjugating it; inputs then go to BLAS with the
// transpose flag their layout implies, where the routine has one.

// Trsm solves op(a)*x = alpha*b (side Left) or x*op(a) = alpha*b (Right)
// for x, overwriting b, with a triangular (uplo triangle, unit or not
// diagonal); op(a) is the view a itself (pass a.T() or a.H() for the
// transposes: BLAS "T"/"C", no copy). Errors match layout.ErrShape,
// layout.ErrOverlap, layout.ErrOverflow and lapis.ErrCopyRefused; b is untouched on
// error. BLAS does not test for singularity.
func Trsm[T Scalar](side Side, uplo Uplo, diag Diag, alpha T, a, b views.View[T], opts ...lapis.Option) error {
	return trxm("cblas.Trsm", side, uplo, diag, alpha, a, b, configure(opts), true)
}

// Trmm computes b = alpha*a*b (Left) or alpha*b*a (Right) for a triangular
// a, under the same rules as Trsm.
func Trmm[T Scalar](side Side, uplo Uplo, diag Diag, alpha T, a, b views.View[T], opts ...lapis.Option) error {
	return trxm("cblas.Trmm", side, uplo, diag, alpha, a, b, configure(opts), false)
}

func checkSide(op string, side Side, uplo Uplo) error {
	if err := checkEnum(op, "side", int(side), 2); err != nil {
		return err
	}
	return checkEnum(op, "uplo", int(uplo), 2)
}

// sideDim is the extent of b (m x n) that a square a must match.
func sideDim(side Side, m, n int) int {
	if side == Left {
		return m
	}
	return n
}

func trxm[T Scalar](op string, side Side, uplo Uplo, diag Diag, alpha T, a, b views.View[T], cfg config, solve bool) error {
	if err := checkSide(op, side, uplo); err != nil {
		return err
	}
	if err := checkEnum(op, "diag", int(diag), 2); err != nil {
		return err
	}
	k, err := checkSquare(op, "a", a)
	if err != nil {
		return err
	}
	if err := checkRank(op, "b", b, 2); err != nil {
		return err
	}
	m, n := b.Layout().Dim(0), b.Layout().Dim(1)
	if k != sideDim(side, m, n) {
		return layout.Errorf(layout.ErrShape, op, "a", "order %d does not match b's shape %v on side %d", k, b.Shape(), side)
	}
	if err := checkOutput(op, "b", b, "a", a); err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return nil
	}
	if b.IsConj() {
		alpha, a, b = scalar.Conj(alpha), a.Conj(), b.Conj()
	}
	if isRowMajor(b) { // (a x = b)^T: x^T a^T = b^T
		a, b, side, uplo = a.T(), b.T(), side.flip(), uplo.flip()
		m, n = n, m
	}
	am, at, err := matrixArg(op, "a", a, cfg)
	if err != nil {
		return err
	}
	defer release(at)
	if am.trans != clib.NoTrans {
		uplo = uplo.flip()
	}
	bo, err := outputArg(op, "b", b, true, cfg)
	if err != nil {
		return err
	}
	M, N, err := blasInt2(op, "m", m, "n", n)
	if err != nil {
		bo.release()
		return err
	}
	policy.Calls.Add(1)
	th := level3(int(M), int(N), max(int(M), int(N)))
	if solve {
		clib.Trsm(side.c(), uplo.c(), am.trans, diag.c(), M, N, alpha, am.ptr, am.ld, bo.ptr, bo.ld)
	} else {
		clib.Trmm(side.c(), uplo.c(), am.trans, diag.c(), M, N, alpha, am.ptr, am.ld, bo.ptr, bo.ld)
	}
	th.End()
	bo.finish()
	return nil
}

// Symm computes c = alpha*a*b + beta*c (side Left) or alpha*b*a + beta*c
// (Right) with a symmetric (only its uplo triangle is read). Hemm is the
// same with a Hermitian. BLAS takes b and c only column-major: a row-major
// c is handled by transposing the problem, and a b whose layout then
// differs from c's is copied.
func Symm[T Scalar](side Side, uplo Uplo, alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	return symm("cblas.Symm", side, uplo, alpha, a, b, beta, c, configure(opts), false)
}

// Hemm is Symm for a Hermitian a (for real types the two are the same).
func Hemm[T Scalar](side Side, uplo Uplo, alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	return symm("cblas.Hemm", side, uplo, alpha, a, b, beta, c, configure(opts), true)
}

func symm[T Scalar](op string, side Side, uplo Uplo, alpha T, a, b views.View[T], beta T, c views.View[T], cfg config, herm bool) error {
	if err := checkSide(op, side, uplo); err != nil {
		return err
	}
	k, err := checkSquare(op, "a", a)
	if err != nil {
		return err
	}
	if err := checkRank(op, "b", b, 2); err != nil {
		return err
	}
	if err := checkRank(op, "c", c, 2); err != nil {
		return err
	}
	m, n := c.Layout().Dim(0), c.Layout().Dim(1)
	if b.Layout().Dim(0) != m || b.Layout().Dim(1) != n {
		return layout.Errorf(layout.ErrShape, op, "b", "shape %v, want c's %v", b.Shape(), c.Shape())
	}
	if k != sideDim(side, m, n) {
		return layout.Errorf(layout.ErrShape, op, "a", "order %d does not match c's shape %v on side %d", k, c.Shape(), side)
	}
	if err := checkOutput(op, "c", c, "a b", a, b); err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return nil
	}
	if c.IsConj() {
		alpha, beta, a, b, c = scalar.Conj(alpha), scalar.Conj(beta), a.Conj(), b.Conj(), c.Conj()
	}
	if isRowMajor(c) { // c^T = b^T a^T: a^T's view holds a^T's values
		a, b, c, side, uplo = a.T(), b.T(), c.T(), side.flip(), uplo.flip()
		m, n = n, m
	}
	// A transposed storage of a is the view's transpose: exact for a
	// symmetric a read "T" and a Hermitian a read "C" (uplo flips); the
	// other reading of a complex a is copied.
	allow := allowT
	if herm {
		allow = allowC
	}
	am, at, err := matrixArgAllow(op, "a", a, allow, cfg)
	if err != nil {
		return err
	}
	defer release(at)
	if am.trans != clib.NoTrans {
		uplo = uplo.flip()
	}
	bm, bt, err := matrixArgAllow(op, "b", b, 0, cfg)
	if err != nil {
		return err
	}
	defer release(bt)
	co, err := outputArg(op, "c", c, beta != 0, cfg)
	if err != nil {
		return err
	}
	M, N, err := blasInt2(op, "m", m, "n", n)
	if err != nil {
		co.release()
		return err
	}
	policy.Calls.Add(1)
	th := level3(int(M), int(N), max(int(M), int(N)))
	if herm {
		clib.Hemm(side.c(), uplo.c(), M, N, alpha, am.ptr, am.ld, bm.ptr, bm.ld, beta, co.ptr, co.ld)
	} else {
		clib.Symm(side.c(), uplo.c(), M, N, alpha, am.ptr, am.ld, bm.ptr, bm.ld, beta, co.ptr, co.ld)
	}
	th.End()
	co.finish()
	return nil
}

// Syrk computes c = alpha*a*a^T + beta*c on the uplo triangle of the
// symmetric n x n c, for a n x k (pass a.T() for a^T*a).
func Syrk[T Scalar](uplo Uplo, alpha T, a views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	return rankk("cblas.Syrk", uplo, alpha, 0, a, a, beta, 0, c, configure(opts), false, false)
}

// Herk computes c = alpha*a*a^H + beta*c on the uplo triangle of the
// Hermitian c, alpha and beta real (for real types, Syrk).
func Herk[T Scalar](uplo Uplo, alpha float64, a views.View[T], beta float64, c views.View[T], opts ...lapis.Option) error {
	return rankk("cblas.Herk", uplo, *new(T), alpha, a, a, *new(T), beta, c, configure(opts), true, false)
}

// Syr2k computes c = alpha*a*b^T + alpha*b*a^T + beta*c on the uplo
// triangle of the symmetric c, for a and b n x k.
func Syr2k[T Scalar](uplo Uplo, alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	return rankk("cblas.Syr2k", uplo, alpha, 0, a, b, beta, 0, c, configure(opts), false, true)
}

// Her2k computes c = alpha*a*b^H + conj(alpha)*b*a^H + beta*c on the uplo
// triangle of the Hermitian c, beta real (for real types, Syr2k).
func Her2k[T Scalar](uplo Uplo, alpha T, a, b views.View[T], beta float64, c views.View[T], opts ...lapis.Option) error {
	return rankk("cblas.Her2k", uplo, alpha, 0, a, b, *new(T), beta, c, configure(opts), true, true)
}

// rankk runs syrk/herk (two false) and syr2k/her2k. ra and rb are the real
// alpha and beta of the Hermitian forms.
func rankk[T Scalar](op string, uplo Uplo, alpha T, ra float64, a, b views.View[T], beta T, rb float64, c views.View[T], cfg config, herm, two bool) error {
	if err := checkEnum(op, "uplo", int(uplo), 2); err != nil {
		return err
	}
	n, err := checkSquare(op, "c", c)
	if err != nil {
		return err
	}
	if err := checkRank(op, "a", a, 2); err != nil {
		return err
	}
	if err := checkRank(op, "b", b, 2); err != nil {
		return err
	}
	k := a.Layout().Dim(1)
	if a.Layout().Dim(0) != n || b.Layout().Dim(0) != n || b.Layout().Dim(1) != k {
		return layout.Errorf(layout.ErrShape, op, "a", "a %v and b %v must both be [%d k] for c %v", a.Shape(), b.Shape(), n, c.Shape())
	}
	if err := checkOutput(op, "c", c, "a b", a, b); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	// conj(c) and, for Hermitian c, c^T = conj(c) conjugate the inputs
	// (and alpha for the symmetric and two-matrix forms); a symmetric c^T
	// is c itself.
	flip := 0
	if c.IsConj() {
		flip++
		c = c.Conj()
	}
	if isRowMajor(c) {
		c, uplo = c.T(), uplo.flip()
		if herm {
			flip++
		}
	}
	if flip%2 == 1 {
		a, b = a.Conj(), b.Conj()
		if !herm || two {
			alpha = scalar.Conj(alpha)
		}
		if !herm {
			beta = scalar.Conj(beta)
		}
	}
	// Both inputs go with the same flag: "T" for the symmetric forms, "C"
	// for the Hermitian ones; otherwise they are copied to "N".
	allow := allowT
	if herm {
		allow = allowC
	}
	am, at, err := matrixArgAllow(op, "a", a, allow, cfg)
	if err != nil {
		return err
	}
	defer release(at)
	bm := am
	if two {
		var bt *views.Tensor[T]
		bm, bt, err = matrixArgAllow(op, "b", b, allow, cfg)
		if err != nil {
			return err
		}
		defer release(bt)
		if am.trans != bm.trans { // copy the transposed one to "N"
			if am.trans != clib.NoTrans {
				am, at, err = matrixArgAllow(op, "a", a, 0, cfg)
				defer release(at)
			} else {
				bm, bt, err = matrixArgAllow(op, "b", b, 0, cfg)
				defer release(bt)
			}
			if err != nil {
				return err
			}
		}
	}
	load := beta != 0
	if herm {
		load = rb != 0
	}
	co, err := outputArg(op, "c", c, load, cfg)
	if err != nil {
		return err
	}
	N, K, err := blasInt2(op, "n", n, "k", k)
	if err != nil {
		co.release()
		return err
	}
	policy.Calls.Add(1)
	th := level3(int(N), int(N), int(K))
	defer th.End()
	switch {
	case herm && two:
		clib.Her2k(uplo.c(), am.trans, N, K, alpha, am.ptr, am.ld, bm.ptr, bm.ld, rb, co.ptr, co.ld)
	case herm:
		clib.Herk[T](uplo.c(), am.trans, N, K, ra, am.ptr, am.ld, rb, co.ptr, co.ld)
	case two:
		clib.Syr2k(uplo.c(), am.trans, N, K, alpha, am.ptr, am.ld, bm.ptr, bm.ld, beta, co.ptr, co.ld)
	default:
		clib.Syrk(uplo.c(), am.trans, N, K, alpha, am.ptr, am.ld, beta, co.ptr, co.ld)
	}
	co.finish()
	return nil
}
