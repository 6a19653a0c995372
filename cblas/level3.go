package cblas

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Gemm computes c = alpha*a*b + beta*c for rank-2 views a (m x k), b
// (k x n) and c (m x n). Transposes and conjugates are views (a.T(),
// a.H()), never flags. Column-major and row-major operands go to BLAS in
// place, whatever the combination: a row-major c is computed as
// c^T = b^T a^T. Only operands with no BLAS description (layout.General, or
// a conjugated column-major input) are copied, counted in Stats, and
// refused in strict mode. Small products run in pure Go. As in reference
// BLAS, on every path: when alpha is 0 or k is 0, c = beta*c and a and b
// are not read; when beta is 0, c is not read (NaN there is overwritten).
//
// Errors (nothing is written to c on error): layout.ErrShape for ranks or
// extents that do not match, layout.ErrOverlap when c has self-overlap or
// shares memory with a or b, layout.ErrOverflow for sizes beyond the BLAS
// integer, lapis.ErrCopyRefused in strict mode.
func Gemm[T Scalar](alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	const op = "cblas.Gemm"
	var da, db, dc desc[T]
	switch {
	case !da.read(&a):
		return readErr(op, "a", &a)
	case !db.read(&b):
		return readErr(op, "b", &b)
	case !dc.read(&c):
		return readErr(op, "c", &c)
	}
	m, k, n := da.Rows, da.Cols, db.Cols
	if db.Rows != k {
		return layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d columns", db.Rows, k)
	}
	if dc.Rows != m || dc.Cols != n {
		return layout.Errorf(layout.ErrShape, op, "c", "shape %v, want [%d %d]", c.Shape(), m, n)
	}
	if dc.selfOverlap(&c) {
		return layout.Errorf(layout.ErrOverlap, op, "c", "%s has indices sharing an element; it cannot be written", c.Layout().String())
	}
	if dc.overlaps(&da) {
		return operand.Overlap(op, "c", "a")
	}
	if dc.overlaps(&db) {
		return operand.Overlap(op, "c", "b")
	}
	if m == 0 || n == 0 {
		return nil // nothing to compute (BLAS would do nothing either)
	}
	cfg := configure(opts)
	// Make c column-major and unconjugated where it can be: conj(c) =
	// conj(alpha) conj(a) conj(b) + conj(beta) conj(c), and c^T = b^T a^T.
	if dc.Conj {
		da.Conj, db.Conj, dc.Conj = !da.Conj, !db.Conj, false
		alpha, beta = scalar.Conj(alpha), scalar.Conj(beta)
	}
	pda, pdb, pa, pb, na, nb := &da, &db, &a, &b, "a", "b"
	if dc.BLAS && dc.Trans {
		pda, pdb, pa, pb, na, nb = pdb, pda, pb, pa, nb, na
		pda.transpose()
		pdb.transpose()
		dc.transpose()
		m, n = n, m
	}
	// Temporaries are released without defer: nothing below panics, and a
	// temporary lost to a panic would only miss the pool.
	var am, bm mat
	var cm output[T]
	var at, bt *views.Tensor[T]
	var err error
	if scaleOnly := alpha == 0 || k == 0; !scaleOnly {
		if at, err = pda.input(op, na, pa, allowTC, cfg, &am); err != nil {
			return err
		}
		if bt, err = pdb.input(op, nb, pb, allowTC, cfg, &bm); err != nil {
			release(at)
			return err
		}
	}
	if err := dc.output(op, "c", &c, beta != 0, cfg, &cm); err != nil {
		release(at, bt)
		return err
	}
	M, N, err := blasInt2(op, "m", m, "n", n)
	K, errK := blasInt(op, "k", "", k)
	if err == nil {
		err = errK
	}
	if err != nil {
		cm.release()
		release(at, bt)
		return err
	}
	switch {
	case alpha == 0 || k == 0:
		// c = beta c, on every path and for every type, as reference BLAS:
		// a and b are not read (Inf or NaN there, or an infinite alpha
		// over an empty product, leave c alone), nor c when beta is 0.
		policy.Small.Add(1)
		scaleGo(m, n, beta, &cm.mat)
	case cfg.Path == lapis.PathGo || (cfg.Path == lapis.PathAuto && goGemmSmall[T](m, n, k)):
		policy.Small.Add(1)
		goGemm(&am, &bm, m, n, k, alpha, beta, &cm.mat)
	default:
		policy.Calls.Add(1)
		th := level3(m, n, k)
		clib.Gemm(am.trans, bm.trans, M, N, K, alpha, am.ptr, am.ld, bm.ptr, bm.ld, beta, cm.ptr, cm.ld)
		th.End()
	}
	if at != nil || bt != nil {
		release(at, bt)
	}
	cm.finish()
	return nil
}
