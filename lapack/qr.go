package lapack

import (
	"fmt"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Orthogonal factorisations and least squares.

// Geqrf computes the QR factorisation of the m x n view a in place: R on
// and above the diagonal, Householder reflectors below it, their scalar
// factors in tau (at least min(m, n) long). Orgqr forms Q, Ormqr applies
// it.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Geqrf[T Scalar](a views.View[T], tau []T, opts ...lapis.Option) error {
	return qrlq("lapack.Geqrf", "xgeqrf", clib.Geqrf[T], a, tau, opts)
}

// Gelqf computes the LQ factorisation of the m x n view a in place: L on
// and below the diagonal, reflectors above it, scalars in tau (at least
// min(m, n) long).
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Gelqf[T Scalar](a views.View[T], tau []T, opts ...lapis.Option) error {
	return qrlq("lapack.Gelqf", "xgelqf", clib.Gelqf[T], a, tau, opts)
}

type qrFunc func(m, n int, a unsafe.Pointer, lda int, tau, work unsafe.Pointer, lwork int) int

func qrlq[T Scalar](op, fam string, f qrFunc, a views.View[T], tau []T, opts []lapis.Option) error {
	mode := read | write
	if fam == "xgelqf" { // row reflectors: see hasSpare
		mode |= overRead
	}
	oa, err := prepare(op, "a", a, mode, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	m, n := oa.rows, oa.cols
	err = sliceLen(op, "tau", len(tau), min(m, n))
	if err == nil {
		err = sliceApart(op, "tau", tau, &oa)
	}
	if err != nil {
		oa.release()
		return err
	}
	ws := wspace.Remember(wspace.Key{Fam: fam, Type: scalar.Index[T](), Dims: [4]int{m, n}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, _, _ unsafe.Pointer) { f(m, n, oa.ptr, oa.ld, clib.Ptr(tau), work, -1) })
	})
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(m, n, min(m, n)))
	info := f(m, n, oa.ptr, oa.ld, clib.Ptr(tau), w.workPtr(), max(1, ws.Work))
	th.End()
	w.put()
	oa.finish()
	return infoErr[T](op, fam, info)
}

// Orgqr overwrites the m x n view a (m >= n), which holds Geqrf's
// reflectors in its first k = len(tau) columns (k <= n), with the first n
// columns of Q, orthonormal. For complex types it is LAPACK's ungqr.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Orgqr[T Scalar](a views.View[T], tau []T, opts ...lapis.Option) error {
	const op = "lapack.Orgqr"
	oa, err := prepare(op, "a", a, read|write|overRead, lapis.Configure(opts...))
	if err != nil {
		return err
	}
	m, n, k := oa.rows, oa.cols, len(tau)
	switch {
	case n > m:
		err = layout.Errorf(layout.ErrShape, op, "a", "shape [%d %d] has more columns than rows", m, n)
	case k > n:
		err = layout.Errorf(layout.ErrShape, op, "tau", "length %d exceeds a's %d columns", k, n)
	default:
		err = sliceApart(op, "tau", tau, &oa)
	}
	if err != nil {
		oa.release()
		return err
	}
	ws := wspace.Remember(wspace.Key{Fam: "xorgqr", Type: scalar.Index[T](), Dims: [4]int{m, n, k}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, _, _ unsafe.Pointer) { clib.Orgqr[T](m, n, k, oa.ptr, oa.ld, clib.Ptr(tau), work, -1) })
	})
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(m, n, k))
	info := clib.Orgqr[T](m, n, k, oa.ptr, oa.ld, clib.Ptr(tau), w.workPtr(), max(1, ws.Work))
	th.End()
	w.put()
	oa.finish()
	return infoErr[T](op, "xorgqr", info)
}

// Ormqr overwrites the m x n view c with op(Q) c (side cblas.Left) or
// c op(Q) (cblas.Right), where Q is defined by the k = len(tau) reflectors
// Geqrf left in the columns of q (m x k for Left, n x k for Right). trans
// is NoTrans, or Trans for real and ConjTrans for complex types (LAPACK
// applies Q^T to complex matrices only as Q^H). For complex types it is
// LAPACK's unmqr. LAPACK sets q's diagonal elements to 1 while it works
// and restores them before returning: q must not be read or used by
// another goroutine during the call.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Ormqr[T Scalar](side Side, trans Op, q views.View[T], tau []T, c views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Ormqr"
	if err := checkOp(op, trans); err != nil {
		return err
	}
	complexT := scalar.Index[T]() >= 2
	switch {
	case side != cblas.Left && side != cblas.Right:
		return layout.Errorf(lapis.ErrInvalid, op, "side", "value %d is neither cblas.Left nor cblas.Right", side)
	case trans == Trans && complexT:
		return layout.Errorf(lapis.ErrInvalid, op, "trans", "LAPACK applies Q^T to complex matrices only as ConjTrans (Q^H)")
	case trans == ConjTrans && !complexT:
		trans = Trans
	}
	cfg := lapis.Configure(opts...)
	oq, err := prepare(op, "q", q, read|overRead, cfg)
	if err != nil {
		return err
	}
	oc, err := prepare(op, "c", c, read|write|overRead, cfg)
	if err != nil {
		oq.release()
		return err
	}
	m, n, k := oc.rows, oc.cols, len(tau)
	nq := m
	sideC := byte('L')
	if side == cblas.Right {
		nq, sideC = n, 'R'
	}
	switch {
	case oq.rows != nq:
		err = layout.Errorf(layout.ErrShape, op, "q", "%d rows, want %d (c's order on that side)", oq.rows, nq)
	case k > nq:
		err = layout.Errorf(layout.ErrShape, op, "tau", "length %d exceeds the order %d of Q", k, nq)
	case k > oq.cols:
		err = layout.Errorf(layout.ErrShape, op, "tau", "length %d exceeds q's %d columns", k, oq.cols)
	default:
		err = noOverlap(op, []string{"q", "c"}, &oq, &oc)
	}
	if err == nil {
		err = sliceApart(op, "tau", tau, &oq, &oc)
	}
	if err != nil {
		releaseAll(&oq, &oc)
		return err
	}
	tr := byte(trans)
	ws := wspace.Remember(wspace.Key{Fam: "xormqr", Type: scalar.Index[T](), Dims: [4]int{m, n, k}, Opts: [3]byte{sideC, tr}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, _, _ unsafe.Pointer) {
			clib.Ormqr[T](sideC, tr, m, n, k, oq.ptr, oq.ld, clib.Ptr(tau), oc.ptr, oc.ld, work, -1)
		})
	})
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(m, n, k))
	info := clib.Ormqr[T](sideC, tr, m, n, k, oq.ptr, oq.ld, clib.Ptr(tau), oc.ptr, oc.ld, w.workPtr(), max(1, ws.Work))
	th.End()
	w.put()
	finishAll(&oq, &oc)
	return infoErr[T](op, "xormqr", info)
}

// Gels solves the full-rank least-squares problem min |a x - b| (a m x n,
// m >= n) or the minimum-norm problem a x = b (m < n) for the nrhs columns
// of b, which has max(m, n) rows: on return its first n rows hold x (and
// for m >= n the rest the residuals' components). a is overwritten by its
// QR or LQ factorisation. A transposed view (a.T(), a.H()) goes to LAPACK
// in place as "T"/"C" (complex types: a.H() only; LAPACK's complex gels
// has no "T", so a complex a.T() is copied). A rank-deficient a gives an
// error matching ErrRankDeficient (and ErrSingular): exactly, when the
// triangular factor has a zero diagonal element (LAPACK's own check, Info
// > 0), or numerically, when the factor's reciprocal condition number is
// at most max(m, n) eps (estimated by xtrcon, O(n^2) after the O(m n^2)
// factorisation; Error.Rcond), b then holding gels's unreliable x.
// NoConditionCheck turns the numerical check off. For rank-deficient
// problems use LeastSquares or Gelsd.
//
// NaN and Inf: passed to LAPACK as they are, the result undefined (see
// the package documentation).
func Gels[T Scalar](a, b views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Gels"
	cfg := lapis.Configure(opts...)
	oa, err := prepare(op, "a", a, read|write|transposable|overRead, cfg)
	if err != nil {
		return err
	}
	if oa.trans == 'C' && scalar.Index[T]() < 2 {
		oa.trans = 'T'
	}
	if oa.trans == 'T' && scalar.Index[T]() >= 2 { // LAPACK's cgels takes only "N" and "C"
		oa.release()
		if oa, err = prepare(op, "a", a, read|write|overRead, cfg); err != nil {
			return err
		}
	}
	ob, err := prepare(op, "b", b, read|write|rhs|overRead, cfg)
	if err != nil {
		oa.release()
		return err
	}
	m, n := oa.viewShape()
	switch r, _ := ob.viewShape(); {
	case r != max(m, n):
		err = layout.Errorf(layout.ErrShape, op, "b", "%d rows, want max(m, n) = %d", r, max(m, n))
	default:
		err = noOverlap(op, []string{"a", "b"}, &oa, &ob)
	}
	if err != nil {
		releaseAll(&oa, &ob)
		return err
	}
	nrhs := ob.cols
	ws := wspace.Remember(wspace.Key{Fam: "xgels", Type: scalar.Index[T](), Dims: [4]int{oa.rows, oa.cols, nrhs}, Opts: [3]byte{oa.trans}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, _, _ unsafe.Pointer) {
			clib.Gels[T](oa.trans, oa.rows, oa.cols, nrhs, oa.ptr, oa.ld, ob.ptr, ob.ld, work, -1)
		})
	})
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(oa.rows, oa.cols, min(oa.rows, oa.cols)+nrhs))
	info := clib.Gels[T](oa.trans, oa.rows, oa.cols, nrhs, oa.ptr, oa.ld, ob.ptr, ob.ld, w.workPtr(), max(1, ws.Work))
	th.End()
	w.put()
	err = infoErr[T](op, "xgels", info)
	if e, ok := err.(*Error); ok && info > 0 {
		// An exactly zero diagonal element (which rounding gives or not
		// depending on the kernels: Haswell's here, not SkylakeX's): the
		// same advice as triangleRank's.
		e.Detail = fmt.Sprintf("diagonal element %d of its triangular factor is exactly zero: x is not computed (LeastSquares(a, b, lapis.NoConditionCheck()) gives the minimum-norm solution)", info-1)
	}
	if err == nil && cfg.ConditionCheck {
		err = triangleRank[T](op, "xgels", oa.rows, oa.cols, oa.ptr, oa.ld)
	}
	finishAll(&oa, &ob)
	return err
}

// triangleRank checks the conditioning of the triangular factor that a QR
// (m >= n: R, upper, n x n) or LQ (m < n: L, lower, m x m) factorisation
// of an m x n matrix left at p: a reciprocal condition number (xtrcon, one
// norm, O(k^2)) at most max(m, n) eps means the matrix is numerically rank
// deficient, which the factorisation alone notices only for an exactly
// zero diagonal element. The error names op and family fam's routine.
func triangleRank[T Scalar](op, fam string, m, n int, p unsafe.Pointer, ld int) error {
	k := min(m, n)
	if k == 0 {
		return nil
	}
	uplo := byte('U')
	if m < n {
		uplo = 'L'
	}
	var rcond float64
	w := getWorkspace[T](wspace.Sizes{Work: 3 * k, RWork: k, IWork: k})
	policy.Lapack.Add(1)
	info := clib.Trcon[T]('1', uplo, 'N', k, p, ld, &rcond, w.workPtr(), w.iworkPtr(), w.rworkPtr())
	w.put()
	if err := infoErr[T](op, "xtrcon", info); err != nil {
		return err
	}
	limit := float64(max(m, n)) * scalar.Eps[T]()
	if rcond > limit {
		return nil
	}
	return &Error{Op: op, Routine: families[fam].routines[scalar.Index[T]()], Index: -1, Rank: -1, Rcond: rcond, Err: ErrRankDeficient,
		Detail: fmt.Sprintf("the reciprocal condition number of its triangular factor is %.3g, at most max(m, n) eps = %.3g: x is not reliable (LeastSquares(a, b, lapis.NoConditionCheck()) gives the minimum-norm solution)", rcond, limit)}
}

// Gelsd solves min |a x - b| with minimum |x| for any m x n view a, by
// the SVD (divide and conquer): b (max(m, n) x nrhs) receives x in its
// first n rows, s (at least min(m, n) long; float32 for float32 and
// complex64, float64 otherwise) the singular values of a, largest first,
// and rank the effective rank: singular values at most rcond times the
// largest count as zero (rcond < 0: machine precision). a is destroyed.
//
// NaN and Inf: a NaN or an infinity in what it reads is an error
// matching lapis.ErrNotFinite, found before LAPACK runs; nothing is
// written (see the package documentation).
func Gelsd[T Scalar, R Real](a, b views.View[T], s []R, rcond float64, opts ...lapis.Option) (rank int, err error) {
	const op = "lapack.Gelsd"
	if err := realFor[T, R](op, "s"); err != nil {
		return 0, err
	}
	cfg := lapis.Configure(opts...)
	oa, ob, err := pairOperands(op, "a", a, read|write|overRead, "b", b, read|write|rhs|overRead, cfg)
	if err != nil {
		return 0, err
	}
	m, n, nrhs := oa.rows, oa.cols, ob.cols
	switch {
	case ob.rows != max(m, n):
		err = layout.Errorf(layout.ErrShape, op, "b", "%d rows, want max(m, n) = %d", ob.rows, max(m, n))
	default:
		err = sliceLen(op, "s", len(s), min(m, n))
	}
	if err == nil {
		err = sliceApart(op, "s", s, &oa, &ob)
	}
	if err == nil {
		read, _ := b.Slice(0, 0, m, 1) // gelsd reads b's first m rows
		err = checkFinite(op, finite.All("a", a), finite.All("b", read))
	}
	if err != nil {
		releaseAll(&oa, &ob)
		return 0, err
	}
	if nrhs == 0 && min(m, n) > 0 {
		// LAPACK's gelsd takes at least one right-hand side; s and rank
		// are still wanted: solve for a scratch zero column.
		scratch, _ := views.Zeros[T](max(m, n), 1)
		defer scratch.Release()
		ob.release()
		ob = arg[T]{ptr: unsafe.Pointer(&scratch.Data()[0]), rows: max(m, n), cols: 1, ld: max(m, n), trans: 'N'}
		nrhs = 1
	}
	ws := wspace.Remember(wspace.Key{Fam: "xgelsd", Type: scalar.Index[T](), Dims: [4]int{m, n, nrhs}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, rwork, iwork unsafe.Pointer) {
			var r int
			clib.Gelsd[T](m, n, nrhs, oa.ptr, oa.ld, ob.ptr, ob.ld, clib.Ptr(s), rcond, &r, work, -1, rwork, iwork)
		})
	})
	ws.IWork = max(ws.IWork, 1)
	ws.RWork = max(ws.RWork, 1)
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(m, n, min(m, n)+nrhs))
	info := clib.Gelsd[T](m, n, nrhs, oa.ptr, oa.ld, ob.ptr, ob.ld, clib.Ptr(s), rcond, &rank, w.workPtr(), max(1, ws.Work), w.rworkPtr(), w.iworkPtr())
	th.End()
	w.put()
	finishAll(&oa, &ob)
	return rank, infoErr[T](op, "xgelsd", info)
}

// pairOperands reads two operands that must not share memory.
func pairOperands[T Scalar](op, an string, a views.View[T], am int, bn string, b views.View[T], bm int, cfg lapis.Config) (oa, ob arg[T], err error) {
	if oa, err = prepare(op, an, a, am, cfg); err != nil {
		return oa, ob, err
	}
	if ob, err = prepare(op, bn, b, bm, cfg); err != nil {
		oa.release()
		return oa, ob, err
	}
	if err = noOverlap(op, []string{an, bn}, &oa, &ob); err != nil {
		releaseAll(&oa, &ob)
	}
	return oa, ob, err
}

// QR returns the reduced QR factorisation a = q r of the m x n view a:
// q m x k with orthonormal columns, r k x n upper triangular, k = min(m, n).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func QR[T Scalar](a views.View[T], opts ...lapis.Option) (q, r *views.Tensor[T], err error) {
	const op = "lapack.QR"
	f, err := workCopy(op, a)
	if err != nil {
		return nil, nil, err
	}
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	k := min(m, n)
	if err := checkFinite(op, finite.All("a", a)); err != nil {
		f.Release()
		return nil, nil, err
	}
	tau := pool.Get[T](k)
	defer pool.Put(tau)
	if err := Geqrf(f.View(), tau.Data, opts...); err != nil {
		f.Release()
		return nil, nil, errop.Rename(err, op)
	}
	r = spareZeros[T](k, n)
	rd, fd := r.Data(), f.Data()
	for j := range n {
		copy(rd[j*k:j*k+min(j+1, k)], fd[j*m:j*m+min(j+1, k)])
	}
	q = f
	if k < n { // q is the first k columns: a prefix of the compact copy
		q = spareZeros[T](m, k)
		copy(q.Data(), fd[:m*k])
		f.Release()
	}
	if err := Orgqr(q.View(), tau.Data, opts...); err != nil {
		q.Release()
		r.Release()
		return nil, nil, errop.Rename(err, op)
	}
	if scalar.HasNaN(q.Data()) || scalar.HasNaN(r.Data()) {
		q.Release()
		r.Release()
		return nil, nil, resultNotFinite(op)
	}
	return q, r, nil
}

// LeastSquares returns the minimum-norm x minimising |a x - b| for the
// m x n view a and the m-vector or m x nrhs view b (x is n or n x nrhs),
// by the SVD (Gelsd): singular values at most max(m, n) eps times the
// largest count as zero. It asks for full rank: when a's numerical rank
// is below min(m, n) it returns the minimum-norm x together with an error
// matching ErrRankDeficient whose Rank and Rcond (smallest over largest
// singular value) say what it found. With NoConditionCheck that is not
// an error (x alone is returned). a and b are not modified.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func LeastSquares[T Scalar](a, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "lapack.LeastSquares"
	bm, err := asMatrix(op, b)
	if err != nil {
		return nil, err
	}
	f, err := workCopy(op, a)
	if err != nil {
		return nil, err
	}
	defer f.Release()
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	if bm.Layout().Dim(0) != m {
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d", bm.Layout().Dim(0), m)
	}
	nrhs := bm.Layout().Dim(1)
	if err := copyFits[T](op, "b", max(m, n), nrhs+1); err != nil { // with spareZeros's spare column
		return nil, err
	}
	xb := spareZeros[T](max(m, n), nrhs)
	defer xb.Release()
	top, _ := xb.View().Slice(0, 0, m, 1) // cannot fail: m <= max(m, n)
	_ = views.Copy(top, bm)               // same shape, fresh memory
	limit := float64(max(m, n)) * scalar.Eps[T]()
	k := min(m, n)
	rank, rcond, err := gelsdAny(f.View(), xb.View(), k, limit, opts) // Gelsd scans a and b
	if err != nil {
		return nil, helperErr(op, err, finite.All("a", a), finite.All("b", b))
	}
	shape := []int{n}
	if b.Rank() == 2 {
		shape = append(shape, nrhs)
	}
	x, _ := views.Zeros[T](shape...)
	xv, _ := xb.View().Slice(0, 0, n, 1)
	xm, _ := asMatrix(op, x.View())
	_ = views.Copy(xm, xv)
	if rank < k && lapis.Configure(opts...).ConditionCheck {
		return x, &Error{Op: op, Routine: families["xgelsd"].routines[scalar.Index[T]()], Index: -1, Rank: rank, Rcond: rcond, Err: ErrRankDeficient,
			Detail: fmt.Sprintf("rank %d of %d (smallest over largest singular value %.3g, at most max(m, n) eps = %.3g); x is the minimum-norm solution (the option lapis.NoConditionCheck() accepts it)", rank, k, rcond, limit)}
	}
	if scalar.HasNaN(x.Data()) {
		x.Release()
		return nil, resultNotFinite(op)
	}
	return x, nil
}

// gelsdAny calls Gelsd with singular values of T's real type and returns
// the rank and the ratio of the smallest to the largest singular value.
func gelsdAny[T Scalar](a, b views.View[T], k int, rcond float64, opts []lapis.Option) (rank int, ratio float64, err error) {
	ratioOf := func(s0, sk float64) float64 {
		if k == 0 || s0 == 0 {
			return 0
		}
		return sk / s0
	}
	if scalar.Index[T]()%2 == 0 {
		s := pool.Get[float32](k)
		rank, err = Gelsd(a, b, s.Data, rcond, opts...)
		if k > 0 {
			ratio = ratioOf(float64(s.Data[0]), float64(s.Data[k-1]))
		}
		pool.Put(s)
	} else {
		s := pool.Get[float64](k)
		rank, err = Gelsd(a, b, s.Data, rcond, opts...)
		if k > 0 {
			ratio = ratioOf(s.Data[0], s.Data[k-1])
		}
		pool.Put(s)
	}
	return rank, ratio, err
}
