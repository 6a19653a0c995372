package gonumlapack

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// The orthogonal factorisations, least squares, singular values and
// eigenvalues (the package documentation says which copy).

// Dgeqrf computes A = Q R in place: dgelqf on S = A^T = R^T Q^T, the same
// reflectors and tau, no copy.
func (Implementation) Dgeqrf(m, n int, a []float64, lda int, tau, work []float64, lwork int) {
	qrlq(m, n, a, lda, tau, work, lwork, n, true, clib.Gelqf[float64])
}

// Dgelqf computes A = L Q in place: dgeqrf on S = A^T = Q^T L^T, no copy.
func (Implementation) Dgelqf(m, n int, a []float64, lda int, tau, work []float64, lwork int) {
	qrlq(m, n, a, lda, tau, work, lwork, m, false, clib.Geqrf[float64])
}

// qrlq is Dgeqrf and Dgelqf: gonum's checks (the least lwork minWork;
// len(tau) exactly min(m, n) when tauExact, at least otherwise), then f,
// the other factorisation, on the transposed storage.
func qrlq(m, n int, a []float64, lda int, tau, work []float64, lwork, minWork int, tauExact bool, f func(m, n int, a unsafe.Pointer, lda int, tau, work unsafe.Pointer, lwork int) int) {
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	case lwork < max(1, minWork) && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	k := min(m, n)
	if k == 0 {
		work[0] = 1
		return
	}
	fits(m, n, lda, lwork)
	if lwork == -1 {
		work[0] = float64(max(minWork, query(func(w, _ unsafe.Pointer) { f(n, m, nil, lda, nil, w, -1) })))
		return
	}
	if len(a) < (m-1)*lda+n {
		panic(shortA)
	}
	switch {
	case tauExact && len(tau) != k:
		panic(badLenTau)
	case !tauExact && len(tau) < k:
		panic(shortTau)
	}
	policy.Lapack.Add(1)
	f(n, m, clib.Ptr(a), lda, clib.Ptr(tau), clib.Ptr(work), lwork)
}

// Dorgqr generates the m x n Q of Dgeqrf: dorglq on S = Q^T, no copy.
func (Implementation) Dorgqr(m, n, k int, a []float64, lda int, tau, work []float64, lwork int) {
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case n > m:
		panic(nGTM)
	case k < 0:
		panic(kLT0)
	case k > n:
		panic(kGTN)
	case lda < max(1, n) && lwork != -1:
		panic(badLdA)
	case lwork < max(1, n) && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	if n == 0 {
		work[0] = 1
		return
	}
	fits(m, n, k, lda, lwork)
	if lwork == -1 {
		work[0] = float64(max(n, query(func(w, _ unsafe.Pointer) { clib.Orglq[float64](n, m, k, nil, n, nil, w, -1) })))
		return
	}
	switch {
	case len(a) < (m-1)*lda+n:
		panic(shortA)
	case len(tau) != k:
		panic(badLenTau)
	}
	policy.Lapack.Add(1)
	clib.Orglq[float64](n, m, k, clib.Ptr(a), lda, clib.Ptr(tau), clib.Ptr(work), lwork)
}

// Dorglq generates the m x n Q of Dgelqf: dorgqr on S = Q^T, no copy.
func (Implementation) Dorglq(m, n, k int, a []float64, lda int, tau, work []float64, lwork int) {
	switch {
	case m < 0:
		panic(mLT0)
	case n < m:
		panic(nLTM)
	case k < 0:
		panic(kLT0)
	case k > m:
		panic(kGTM)
	case lda < max(1, n):
		panic(badLdA)
	case lwork < max(1, m) && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	if m == 0 {
		work[0] = 1
		return
	}
	fits(m, n, k, lda, lwork)
	if lwork == -1 {
		work[0] = float64(max(m, query(func(w, _ unsafe.Pointer) { clib.Orgqr[float64](n, m, k, nil, lda, nil, w, -1) })))
		return
	}
	switch {
	case len(a) < (m-1)*lda+n:
		panic(shortA)
	case len(tau) < k:
		panic(shortTau)
	}
	policy.Lapack.Add(1)
	clib.Orgqr[float64](n, m, k, clib.Ptr(a), lda, clib.Ptr(tau), clib.Ptr(work), lwork)
}

// Dormqr computes op(Q) C or C op(Q), Q from Dgeqrf: dormlq on C^T with
// the side swapped and trans kept, no copy. Transposing C flips trans,
// and the product dormlq forms from the same reflectors, H(k)...H(1), is
// Q^T: the two flips cancel.
func (Implementation) Dormqr(side blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64, lwork int) {
	left := side == blas.Left
	nq, nw := n, m
	if left {
		nq, nw = m, n
	}
	switch {
	case !left && side != blas.Right:
		panic(badSide)
	case trans != blas.NoTrans && trans != blas.Trans:
		panic(badTrans)
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case k < 0:
		panic(kLT0)
	case left && k > m:
		panic(kGTM)
	case !left && k > n:
		panic(kGTN)
	case lda < max(1, k):
		panic(badLdA)
	case ldc < max(1, n):
		panic(badLdC)
	case lwork < max(1, nw) && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	if m == 0 || n == 0 || k == 0 {
		work[0] = 1
		return
	}
	fits(m, n, k, lda, ldc, lwork)
	if lwork == -1 {
		work[0] = float64(max(nw, query(func(w, _ unsafe.Pointer) {
			clib.Ormlq[float64](sideT(side), transChar(trans), n, m, k, nil, lda, nil, nil, ldc, w, -1)
		})))
		return
	}
	switch {
	case len(a) < (nq-1)*lda+k:
		panic(shortA)
	case len(tau) != k:
		panic(badLenTau)
	case len(c) < (m-1)*ldc+n:
		panic(shortC)
	}
	policy.Lapack.Add(1)
	clib.Ormlq[float64](sideT(side), transChar(trans), n, m, k, clib.Ptr(a), lda, clib.Ptr(tau), clib.Ptr(c), ldc, clib.Ptr(work), lwork)
}

// Dormlq computes op(Q) C or C op(Q), Q from Dgelqf: dormqr on C^T with
// the side swapped and trans kept (as Dormqr), no copy.
func (Implementation) Dormlq(side blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64, lwork int) {
	left := side == blas.Left
	nw := m
	if left {
		nw = n
	}
	switch {
	case !left && side != blas.Right:
		panic(badSide)
	case trans != blas.Trans && trans != blas.NoTrans:
		panic(badTrans)
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case k < 0:
		panic(kLT0)
	case left && k > m:
		panic(kGTM)
	case !left && k > n:
		panic(kGTN)
	case left && lda < max(1, m):
		panic(badLdA)
	case !left && lda < max(1, n):
		panic(badLdA)
	case lwork < max(1, nw) && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	if m == 0 || n == 0 || k == 0 {
		work[0] = 1
		return
	}
	fits(m, n, k, lda, ldc, lwork)
	if lwork == -1 {
		work[0] = float64(max(nw, query(func(w, _ unsafe.Pointer) {
			clib.Ormqr[float64](sideT(side), transChar(trans), n, m, k, nil, lda, nil, nil, ldc, w, -1)
		})))
		return
	}
	switch {
	case left && len(a) < (k-1)*lda+m:
		panic(shortA)
	case !left && len(a) < (k-1)*lda+n:
		panic(shortA)
	case len(tau) < k:
		panic(shortTau)
	case len(c) < (m-1)*ldc+n:
		panic(shortC)
	}
	policy.Lapack.Add(1)
	clib.Ormqr[float64](sideT(side), transChar(trans), n, m, k, clib.Ptr(a), lda, clib.Ptr(tau), clib.Ptr(c), ldc, clib.Ptr(work), lwork)
}

// Dgeqp3 computes A P = Q R with column pivoting (through a column-major
// copy of a: LAPACK has no row-pivoted LQ).
func (Implementation) Dgeqp3(m, n int, a []float64, lda int, jpvt []int, tau, work []float64, lwork int) {
	minmn := min(m, n)
	iws := 3*n + 1
	if minmn == 0 {
		iws = 1
	}
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	case lwork < iws && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	if minmn == 0 {
		work[0] = 1
		return
	}
	fits(m, n, lda, lwork)
	if lwork == -1 {
		work[0] = float64(max(iws, query(func(w, _ unsafe.Pointer) { clib.Geqp3[float64](m, n, nil, m, nil, nil, w, -1, nil) })))
		return
	}
	switch {
	case len(a) < (m-1)*lda+n:
		panic(shortA)
	case len(jpvt) != n:
		panic(badLenJpvt)
	case len(tau) < minmn:
		panic(shortTau)
	}
	for _, v := range jpvt {
		if v < -1 || n <= v {
			panic(badJpvt)
		}
	}
	p := wspace.GetInts(n)
	for j, v := range jpvt {
		p.Set(j, boolInt(v >= 0)) // gonum: >= 0 leads, -1 is free; LAPACK: nonzero leads
	}
	c := colMajor(m, n, a, lda, true)
	policy.Lapack.Add(1)
	clib.Geqp3[float64](m, n, c.ptr(), c.ld, p.Ptr(), clib.Ptr(tau), clib.Ptr(work), lwork, nil)
	c.store(m, n, a, lda)
	c.put()
	storeInts(p, jpvt, -1)
	p.Put()
}

// Dgels solves least squares or minimum norm problems with op(A), A of
// full rank: dgels on S = A^T with trans swapped (a in place); b through
// a column-major copy unless it is one contiguous column.
func (Implementation) Dgels(trans blas.Transpose, m, n, nrhs int, a []float64, lda int, b []float64, ldb int, work []float64, lwork int) bool {
	mn := min(m, n)
	minwrk := mn + max(mn, nrhs)
	checkTrans(trans)
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case nrhs < 0:
		panic(nrhsLT0)
	case lda < max(1, n):
		panic(badLdA)
	case ldb < max(1, nrhs):
		panic(badLdB)
	case lwork < max(1, minwrk) && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	mx := max(m, n)
	if mn == 0 || nrhs == 0 {
		for i := range mx { // gonum zeroes b
			clear(b[i*ldb : i*ldb+nrhs])
		}
		work[0] = 1
		return true
	}
	fits(m, n, nrhs, lda, ldb, lwork)
	tr := byte('T') // op(A) = A = S^T
	if trans != blas.NoTrans {
		tr = 'N'
	}
	if lwork == -1 {
		work[0] = float64(max(minwrk, query(func(w, _ unsafe.Pointer) { clib.Gels[float64](tr, n, m, nrhs, nil, lda, nil, mx, w, -1) })))
		return true
	}
	switch {
	case len(a) < (m-1)*lda+n:
		panic(shortA)
	case len(b) < (mx-1)*ldb+nrhs:
		panic(shortB)
	}
	var cb colCopy
	bp := clib.Ptr(b)
	if nrhs > 1 || ldb > 1 {
		cb = colMajor(mx, nrhs, b, ldb, true)
		bp = cb.ptr()
	}
	policy.Lapack.Add(1)
	info := clib.Gels[float64](tr, n, m, nrhs, clib.Ptr(a), lda, bp, mx, clib.Ptr(work), lwork)
	cb.store(mx, nrhs, b, ldb)
	cb.put()
	return info == 0
}

// Dgesvd computes A = U Σ V^T by ?gesvd (QR iteration, gonum's own
// algorithm), or by ?gesdd (divide and conquer) when g.DivideAndConquer
// is set (?gesvd again if ?gesdd fails to converge), on a column-major
// copy of a; u and vt are
// written through column-major copies. a is left unchanged (gonum
// documents it as destroyed).
//
// ?gesdd returns the same singular values (to rounding) and singular
// vectors that may differ from ?gesvd's (gonum's) in sign: each pair
// (u_i, v_i) is defined only up to a common sign (and a basis of each
// repeated singular value's subspace), and for a random 500 x 500 matrix
// about half the pairs come out negated. Small matrices get ?gesvd's
// vectors when both routines take the same path: min(m, n) <= 25 (?bdsdc
// then solves the bidiagonal problem by QR iteration) and max(m, n) below
// 1.6 min(m, n) or at least 11/6 of it (between the two, ?gesvd reduces R
// of A = Q R and ?gesdd A itself). A caller that compares with stored
// singular vectors leaves DivideAndConquer unset.
// Every job computes the vectors the same way: a vector LAPACK computes
// but the job does not ask for goes to a scratch buffer, so U from
// SVDThinU alone is U from SVDThin.
//
// The identity S = A^T = V Σ U^T (the routine on the stored transpose,
// u and vt swapped) would need no copy, but runs LAPACK's algorithm on
// A^T, which picks other signs than on A even for small matrices, where
// gonum/mat's TestSVD pins them. The copies cost O(mn + m^2 + n^2) next to
// the SVD's O(mn min(m, n)).
func (g Implementation) Dgesvd(jobU, jobVT lapack.SVDJob, m, n int, a []float64, lda int, s, u []float64, ldu int, vt []float64, ldvt int, work []float64, lwork int) (ok bool) {
	if jobU == lapack.SVDOverwrite || jobVT == lapack.SVDOverwrite {
		panic(noSVDO)
	}
	wantua := jobU == lapack.SVDAll
	wantus := jobU == lapack.SVDStore
	if !(wantua || wantus || jobU == lapack.SVDNone) {
		panic(badSVDJob)
	}
	wantva := jobVT == lapack.SVDAll
	wantvs := jobVT == lapack.SVDStore
	wantvas := wantva || wantvs
	if !(wantva || wantvs || jobVT == lapack.SVDNone) {
		panic(badSVDJob)
	}
	minmn := min(m, n)
	minwork := 1
	if minmn > 0 {
		minwork = max(3*minmn+max(m, n), 5*minmn)
	}
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	case ldu < 1, wantua && ldu < m, wantus && ldu < minmn:
		panic(badLdU)
	case ldvt < 1 || (wantvas && ldvt < n):
		panic(badLdVT)
	case lwork < minwork && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	if minmn == 0 {
		work[0] = 1
		return true
	}
	fits(m, n, lda, ldu, ldvt, lwork)
	sv := svdFor(jobU, jobVT, m, n, !g.DivideAndConquer)
	if lwork == -1 {
		work[0] = float64(max(minwork, sv.query(m, n)))
		return true
	}
	if len(a) < (m-1)*lda+n {
		panic(shortA)
	}
	if len(s) < minmn {
		panic(shortS)
	}
	if (len(u) < (m-1)*ldu+m && wantua) || (len(u) < (m-1)*ldu+minmn && wantus) {
		panic(shortU)
	}
	if (len(vt) < (n-1)*ldvt+n && wantva) || (len(vt) < (minmn-1)*ldvt+n && wantvs) {
		panic(shortVT)
	}
	ca := colMajor(m, n, a, lda, true)
	var cu, cvt colCopy
	if sv.job != 'N' {
		cu = colMajor(m, sv.ucols, nil, 0, false)
		cvt = colMajor(sv.vrows, n, nil, 0, false)
	}
	info := sv.run(m, n, &ca, s, &cu, &cvt, work, lwork)
	if info > 0 && !sv.qr {
		// ?bdsdc did not converge: ?gesvd on a fresh copy of a.
		sv.qr = true
		_ = views.Copy(ca.v, rowView(m, n, a, lda))
		info = sv.run(m, n, &ca, s, &cu, &cvt, work, lwork)
	}
	if wantua || wantus {
		cu.store(m, sv.ucols, u, ldu)
	}
	if wantvas {
		cvt.store(sv.vrows, n, vt, ldvt)
	}
	ca.put()
	cu.put()
	cvt.put()
	return info == 0
}

// svdPlan is how Implementation.Dgesvd computes: the job of ?gesdd ('N', 'S' or
// 'A'; the same letter for both sides of ?gesvd) and the shape of the U
// and VT it writes, m x ucols and vrows x n, which hold what the caller's
// jobs ask for.
type svdPlan struct {
	job          byte
	ucols, vrows int
	qr           bool // ?gesvd instead of ?gesdd
}

func svdFor(jobU, jobVT lapack.SVDJob, m, n int, qr bool) svdPlan {
	minmn := min(m, n)
	sv := svdPlan{job: 'S', ucols: minmn, vrows: minmn, qr: qr}
	switch {
	case jobU == lapack.SVDNone && jobVT == lapack.SVDNone:
		sv = svdPlan{job: 'N', qr: qr}
	case (jobU == lapack.SVDAll && m > n) || (jobVT == lapack.SVDAll && n > m):
		sv = svdPlan{job: 'A', ucols: m, vrows: n, qr: qr}
	}
	return sv
}

// query returns LAPACK's optimal workspace for the routine sv.run calls,
// remembered per shape and job (shared with SVD's queries).
func (sv svdPlan) query(m, n int) int {
	if sv.qr {
		return wspace.Remember(wspace.Key{Fam: "xgesvd", Type: scalar.Index[float64](), Dims: [4]int{m, n}, Opts: [3]byte{sv.job, sv.job}}, func() wspace.Sizes {
			return wspace.Query[float64](func(w, _, _ unsafe.Pointer) {
				clib.Gesvd[float64](sv.job, sv.job, m, n, nil, m, nil, nil, m, nil, max(1, sv.vrows), w, -1, nil)
			})
		}).Work
	}
	return wspace.Remember(wspace.Key{Fam: "xgesdd", Type: scalar.Index[float64](), Dims: [4]int{m, n}, Opts: [3]byte{sv.job}}, func() wspace.Sizes {
		return wspace.Query[float64](func(w, _, iw unsafe.Pointer) {
			clib.Gesdd[float64](sv.job, m, n, nil, m, nil, nil, m, nil, max(1, sv.vrows), w, -1, nil, iw)
		})
	}).Work
}

// run computes the SVD of the column-major ca into s, cu and cvt, with the
// caller's work when it is long enough.
func (sv svdPlan) run(m, n int, ca *colCopy, s []float64, cu, cvt *colCopy, work []float64, lwork int) int {
	w := workspace(work, lwork, sv.query(m, n))
	defer w.put()
	policy.Lapack.Add(1)
	if sv.qr {
		return clib.Gesvd[float64](sv.job, sv.job, m, n, ca.ptr(), ca.ld, clib.Ptr(s), cu.ptr(), cu.ldOr1(), cvt.ptr(), cvt.ldOr1(), w.ptr, w.n, nil)
	}
	iw := wspace.GetInts(8 * min(m, n))
	defer iw.Put()
	return clib.Gesdd[float64](sv.job, m, n, ca.ptr(), ca.ld, clib.Ptr(s), cu.ptr(), cu.ldOr1(), cvt.ptr(), cvt.ldOr1(), w.ptr, w.n, nil, iw.Ptr())
}

// Dsyev computes the eigenvalues (ascending) and, if asked, orthonormal
// eigenvectors of the symmetric A: dsyevd (divide and conquer, the same
// contract as gonum's QR-iteration Dsyev) on S = A with the other
// triangle; the eigenvectors it writes as columns of S are transposed in
// place through a pooled buffer (one copy).
func (Implementation) Dsyev(jobz lapack.EVJob, ul blas.Uplo, n int, a []float64, lda int, w, work []float64, lwork int) (ok bool) {
	switch {
	case jobz != lapack.EVNone && jobz != lapack.EVCompute:
		panic(badEVJob)
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	case lwork < max(1, 3*n-1) && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	if n == 0 {
		return true
	}
	fits(n, lda, lwork)
	job, uplo := byte(jobz), uploT(ul)
	ws := wspace.Remember(wspace.Key{Fam: "xsyevd", Type: scalar.Index[float64](), Dims: [4]int{n}, Opts: [3]byte{job}}, func() wspace.Sizes {
		return wspace.Query[float64](func(w, _, iw unsafe.Pointer) { clib.Syevd[float64](job, uplo, n, nil, n, nil, w, -1, nil, 0, iw, -1) })
	})
	if lwork == -1 {
		work[0] = float64(max(3*n-1, ws.Work))
		return true
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(w) < n:
		panic(shortW)
	}
	wk := workspace(work, lwork, ws.Work)
	iw := wspace.GetInts(ws.IWork)
	policy.Lapack.Add(1)
	info := clib.Syevd[float64](job, uplo, n, clib.Ptr(a), lda, clib.Ptr(w), wk.ptr, wk.n, nil, 0, iw.Ptr(), max(1, ws.IWork))
	wk.put()
	iw.Put()
	if info == 0 && jobz == lapack.EVCompute && n > 1 {
		// S holds the eigenvectors as columns: a holds them as rows.
		c := colMajor(n, n, a, lda, true) // copy of Z^T: the eigenvectors as rows
		v := c.v.T()
		_ = views.Copy(rowView(n, n, a, lda), v) // same shape, fresh memory
		c.put()
	}
	return info == 0
}

// Dgeev computes the eigenvalues and, if asked, the left and right
// eigenvectors of the general A (through column-major copies: a in, vl
// and vr out). first is LAPACK's info: the eigenvalues from first on
// converged; eigenvectors only when first == 0.
func (Implementation) Dgeev(jobvl lapack.LeftEVJob, jobvr lapack.RightEVJob, n int, a []float64, lda int, wr, wi []float64, vl []float64, ldvl int, vr []float64, ldvr int, work []float64, lwork int) (first int) {
	wantvl := jobvl == lapack.LeftEVCompute
	wantvr := jobvr == lapack.RightEVCompute
	minwrk := max(1, 3*n)
	if wantvl || wantvr {
		minwrk = max(1, 4*n)
	}
	switch {
	case jobvl != lapack.LeftEVCompute && jobvl != lapack.LeftEVNone:
		panic(badLeftEVJob)
	case jobvr != lapack.RightEVCompute && jobvr != lapack.RightEVNone:
		panic(badRightEVJob)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	case ldvl < 1 || (ldvl < n && wantvl):
		panic(badLdVL)
	case ldvr < 1 || (ldvr < n && wantvr):
		panic(badLdVR)
	case lwork < minwrk && lwork != -1:
		panic(badLWork)
	case len(work) < lwork:
		panic(shortWork)
	}
	if n == 0 {
		work[0] = 1
		return 0
	}
	fits(n, lda, ldvl, ldvr, lwork)
	if lwork == -1 {
		work[0] = float64(max(minwrk, query(func(w, _ unsafe.Pointer) {
			clib.Geev[float64](byte(jobvl), byte(jobvr), n, nil, n, nil, nil, nil, nil, n, nil, n, w, -1, nil)
		})))
		return 0
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(wr) != n:
		panic(badLenWr)
	case len(wi) != n:
		panic(badLenWi)
	case len(vl) < (n-1)*ldvl+n && wantvl:
		panic(shortVL)
	case len(vr) < (n-1)*ldvr+n && wantvr:
		panic(shortVR)
	}
	ca := colMajor(n, n, a, lda, true)
	var cl, cr colCopy
	if wantvl {
		cl = colMajor(n, n, vl, ldvl, false)
	}
	if wantvr {
		cr = colMajor(n, n, vr, ldvr, false)
	}
	policy.Lapack.Add(1)
	info := clib.Geev[float64](byte(jobvl), byte(jobvr), n, ca.ptr(), ca.ld, clib.Ptr(wr), clib.Ptr(wi), nil,
		cl.ptr(), cl.ldOr1(), cr.ptr(), cr.ldOr1(), clib.Ptr(work), lwork, nil)
	if info == 0 {
		cl.store(n, n, vl, ldvl)
		cr.store(n, n, vr, ldvr)
	}
	ca.put()
	cl.put()
	cr.put()
	return info
}

// Dggsvd3 computes the generalized SVD of (A, B) (through column-major
// copies: a and b in and out, u, v and q out). iwork receives gonum's
// zero-based sorting pivots.
func (Implementation) Dggsvd3(jobU, jobV, jobQ lapack.GSVDJob, m, n, p int, a []float64, lda int, b []float64, ldb int, alpha, beta, u []float64, ldu int, v []float64, ldv int, q []float64, ldq int, work []float64, lwork int, iwork []int) (k, l int, ok bool) {
	wantu := jobU == lapack.GSVDU
	wantv := jobV == lapack.GSVDV
	wantq := jobQ == lapack.GSVDQ
	switch {
	case !wantu && jobU != lapack.GSVDNone:
		panic(badGSVDJob + "U")
	case !wantv && jobV != lapack.GSVDNone:
		panic(badGSVDJob + "V")
	case !wantq && jobQ != lapack.GSVDNone:
		panic(badGSVDJob + "Q")
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case p < 0:
		panic(pLT0)
	case lda < max(1, n):
		panic(badLdA)
	case ldb < max(1, n):
		panic(badLdB)
	case ldu < 1, wantu && ldu < m:
		panic(badLdU)
	case ldv < 1, wantv && ldv < p:
		panic(badLdV)
	case ldq < 1, wantq && ldq < n:
		panic(badLdQ)
	case len(iwork) < n:
		panic(shortWork)
	case lwork < 1 && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	fits(m, n, p, lda, ldb, ldu, ldv, ldq, lwork)
	ju, jv, jq := byte(jobU), byte(jobV), byte(jobQ)
	mm, pp, nn := max(1, m), max(1, p), max(1, n)
	ws := wspace.Remember(wspace.Key{Fam: "xggsvd3", Type: scalar.Index[float64](), Dims: [4]int{m, n, p}, Opts: [3]byte{ju, jv, jq}}, func() wspace.Sizes {
		var kk, ll int
		return wspace.Query[float64](func(w, _, _ unsafe.Pointer) {
			clib.Ggsvd3[float64](ju, jv, jq, m, n, p, &kk, &ll, nil, mm, nil, pp, nil, nil, nil, mm, nil, pp, nil, nn, w, -1, nil, nil)
		})
	})
	need := max(1, 2*n, ws.Work)
	work[0] = float64(need)
	if lwork == -1 {
		return 0, 0, true
	}
	switch {
	case len(a) < (m-1)*lda+n:
		panic(shortA)
	case len(b) < (p-1)*ldb+n:
		panic(shortB)
	case wantu && len(u) < (m-1)*ldu+m:
		panic(shortU)
	case wantv && len(v) < (p-1)*ldv+p:
		panic(shortV)
	case wantq && len(q) < (n-1)*ldq+n:
		panic(shortQ)
	case len(alpha) != n:
		panic(badLenAlpha)
	case len(beta) != n:
		panic(badLenBeta)
	}
	ca := colMajor(m, n, a, lda, true)
	cb := colMajor(p, n, b, ldb, true)
	var cu, cv, cq colCopy
	if wantu {
		cu = colMajor(m, m, u, ldu, false)
	}
	if wantv {
		cv = colMajor(p, p, v, ldv, false)
	}
	if wantq {
		cq = colMajor(n, n, q, ldq, false)
	}
	wk := workspace(work, lwork, need)
	iw := wspace.GetInts(n)
	policy.Lapack.Add(1)
	info := clib.Ggsvd3[float64](ju, jv, jq, m, n, p, &k, &l, ca.ptr(), ca.ld, cb.ptr(), cb.ld, clib.Ptr(alpha), clib.Ptr(beta),
		cu.ptr(), cu.ldOr1(), cv.ptr(), cv.ldOr1(), cq.ptr(), cq.ldOr1(), wk.ptr, wk.n, nil, iw.Ptr())
	storeInts(iw, iwork[:n], -1)
	for _, c := range []struct {
		c       *colCopy
		r, cols int
		dst     []float64
		ld      int
	}{{&ca, m, n, a, lda}, {&cb, p, n, b, ldb}, {&cu, m, m, u, ldu}, {&cv, p, p, v, ldv}, {&cq, n, n, q, ldq}} {
		c.c.store(c.r, c.cols, c.dst, c.ld)
		c.c.put()
	}
	wk.put()
	iw.Put()
	return k, l, info == 0
}
