package cblas

import (
	"github.com/lapis-go/lapis/internal/policy"
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
	switch {
	case a.Rank() != 2:
		return rank2Err(op, "a", &a)
	case b.Rank() != 2:
		return rank2Err(op, "b", &b)
	case c.Rank() != 2:
		return rank2Err(op, "c", &c)
	}
	da, db, dc := describe(&a), describe(&b), describe(&c)
	m, k, n := da.rows, da.cols, db.cols
	if db.rows != k {
		return layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d columns", db.rows, k)
	}
	if dc.rows != m || dc.cols != n {
		return layout.Errorf(layout.ErrShape, op, "c", "shape %v, want [%d %d]", c.Shape(), m, n)
	}
	if dc.selfOverlap(&c) {
		return layout.Errorf(layout.ErrOverlap, op, "c", "%s has indices sharing an element; it cannot be written", c.Layout().String())
	}
	if dc.overlaps(&da) || dc.overlaps(&db) {
		return layout.Errorf(layout.ErrOverlap, op, "c", "output overlaps an input in memory")
	}
	if m == 0 || n == 0 {
		return nil // nothing to compute (BLAS would do nothing either)
	}
	cfg := configure(opts)
	// Make c column-major and unconjugated where it can be: conj(c) =
	// conj(alpha) conj(a) conj(b) + conj(beta) conj(c), and c^T = b^T a^T.
	if dc.conj {
		da.conj, db.conj, dc.conj = !da.conj, !db.conj, false
		alpha, beta = conj(alpha), conj(beta)
	}
	pa, pb, na, nb := &a, &b, "a", "b"
	if dc.ok && dc.trans {
		da, db, pa, pb, na, nb = db, da, pb, pa, nb, na
		da.transpose()
		db.transpose()
		dc.transpose()
		m, n = n, m
	}
	am, at, err := da.input(op, na, pa, allowTC, cfg)
	if err != nil {
		return err
	}
	defer release(at)
	bm, bt, err := db.input(op, nb, pb, allowTC, cfg)
	if err != nil {
		return err
	}
	defer release(bt)
	cm, err := dc.output(op, "c", &c, beta != 0, cfg)
	if err != nil {
		return err
	}
	M, N, err := blasInt2(op, "m", m, "n", n)
	K, errK := blasInt(op, "k", "", k)
	if err == nil {
		err = errK
	}
	if err != nil {
		cm.release()
		return err
	}
	// The pure-Go path takes only non-empty products (gonum insists on
	// slice lengths that an empty inner dimension does not have).
	small := m <= gemmSmallFlops && n <= gemmSmallFlops && k <= gemmSmallFlops && m*n*k <= gemmSmallFlops // no overflow
	if k > 0 && (cfg.Path == policy.PathGo || (cfg.Path == policy.PathAuto && small)) {
		policy.Small.Add(1)
		goGemm(am, bm, m, n, k, alpha, beta, cm.mat)
	} else {
		policy.Calls.Add(1)
		xgemm(am.trans, bm.trans, M, N, K, alpha, am.ptr, am.ld, bm.ptr, bm.ld, beta, cm.ptr, cm.ld)
	}
	cm.finish()
	return nil
}
