package cblas

import (
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Gemm computes c = alpha*a*b + beta*c for rank-2 views a (m x k), b
// (k x n) and c (m x n). Transposes and conjugates are views (a.T(),
// a.H()), never flags. Column-major and row-major operands go to BLAS in
// place, whatever the combination: a row-major c is computed as
// c^T = b^T a^T. Only operands with no BLAS description (layout.General, or
// a conjugated column-major input) are copied, counted in Stats, and
// refused in strict mode. Small products run in pure Go.
//
// Errors (nothing is written to c on error): layout.ErrShape for ranks or
// extents that do not match, layout.ErrOverlap when c has self-overlap or
// shares memory with a or b, layout.ErrOverflow for sizes beyond the BLAS
// integer, ErrCopyRefused in strict mode.
func Gemm[T Scalar](alpha T, a, b views.View[T], beta T, c views.View[T], opts ...Option) error {
	const op = "cblas.Gemm"
	cfg := configure(opts)
	if err := checkRank(op, "a", a, 2); err != nil {
		return err
	}
	if err := checkRank(op, "b", b, 2); err != nil {
		return err
	}
	if err := checkRank(op, "c", c, 2); err != nil {
		return err
	}
	m, k, n := a.Layout().Dim(0), a.Layout().Dim(1), b.Layout().Dim(1)
	if b.Layout().Dim(0) != k {
		return layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d columns", b.Layout().Dim(0), k)
	}
	if c.Layout().Dim(0) != m || c.Layout().Dim(1) != n {
		return layout.Errorf(layout.ErrShape, op, "c", "shape %v, want [%d %d]", c.Shape(), m, n)
	}
	if err := checkOutput(op, "c", c, a, b); err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return nil // nothing to compute (BLAS would do nothing either)
	}
	// Make c column-major and unconjugated where it can be: conj(c) =
	// conj(alpha) conj(a) conj(b) + conj(beta) conj(c), and c^T = b^T a^T.
	if c.IsConj() {
		a, b, c = a.Conj(), b.Conj(), c.Conj()
		alpha, beta = conj(alpha), conj(beta)
	}
	if d, ok := c.Layout().Matrix(); ok && d.Trans {
		a, b, c = t2(b), t2(a), t2(c)
		m, n = n, m
	}
	am, at, err := matrixArg(op, "a", a, cfg)
	if err != nil {
		return err
	}
	defer release(at)
	bm, bt, err := matrixArg(op, "b", b, cfg)
	if err != nil {
		return err
	}
	defer release(bt)
	cm, err := outputArg(op, "c", c, beta != 0, cfg)
	if err != nil {
		return err
	}
	M, err1 := blasInt(op, "m", "", m)
	N, err2 := blasInt(op, "n", "", n)
	K, err3 := blasInt(op, "k", "", k)
	if err := firstErr(err1, err2, err3); err != nil {
		cm.release()
		return err
	}
	// The pure-Go path takes only non-empty products (gonum insists on
	// slice lengths that an empty inner dimension does not have).
	if k > 0 && (cfg.path == pathGo || (cfg.path == pathAuto && m*n*k <= gemmSmallFlops)) {
		nSmall.Add(1)
		goGemm(am, bm, m, n, k, alpha, beta, cm.mat)
	} else {
		nCalls.Add(1)
		xgemm(am.trans, bm.trans, M, N, K, alpha, am.ptr, am.ld, bm.ptr, bm.ld, beta, cm.ptr, cm.ld)
	}
	cm.finish()
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
