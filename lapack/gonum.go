package lapack

import (
	"math"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	gonumlapack "gonum.org/v1/gonum/lapack"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/cint"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Gonum implements gonum's lapack.Float64 on the LAPACK inside the linked
// OpenBLAS, with gonum's conventions: row-major matrices (a[i*lda+j]),
// zero-based pivots, workspace queries (lwork == -1) answered in work[0],
// ok results, and panics with gonum's own messages on bad arguments. With
// cblas.Gonum for BLAS, it puts gonum/mat on OpenBLAS:
//
//	blas64.Use(cblas.Gonum{})
//	lapack64.Use(lapack.Gonum{})
//
// A row-major m x n matrix is the column-major n x m matrix S = A^T on the
// same memory (leading dimension lda), so most methods are LAPACK on S
// with no copy, through an identity:
//
//	Dpotrf, Dpotri, Dpocon, Dpstrf   uplo swapped (A is symmetric: S = A)
//	Dpbtrf, Dpbcon                   uplo swapped (gonum's row-major band
//	                                 storage is LAPACK's other triangle)
//	Dtrtri                           uplo swapped: (A^-1)^T = (A^T)^-1
//	Dtrcon, Dlantr, Dlange           uplo swapped, norm 'O' <-> 'I'
//	Dlansy                           uplo swapped
//	Dgeqrf, Dgelqf                   ?gelqf, ?geqrf on S: A = Q R is S = R^T Q^T,
//	                                 the same reflectors and tau
//	Dorgqr, Dorglq                   ?orglq, ?orgqr on S
//	Dormqr, Dormlq                   ?ormlq, ?ormqr on S, C^T: side swapped,
//	                                 trans kept (transposing C flips it, and
//	                                 the LQ product of the same reflectors is
//	                                 the transposed Q)
//	Dlapmr, Dlapmt                   ?lapmt, ?lapmr on S
//	Dsyev                            ?syevd (divide and conquer, gonum's Dsyev
//	                                 contract) on S, uplo swapped; the
//	                                 eigenvectors LAPACK writes as columns of
//	                                 S are transposed in place (one copy)
//
// The solves with a right-hand side B are LAPACK's own algorithms on S
// through lapis's BLAS (cblas.Gonum), because LAPACK's ?getrs, ?potrs,
// ?trtrs, ?pbtrs and ?tbtrs want a column-major B and the row-major B is
// its transpose; they are row interchanges and triangular solves (?trsm,
// ?trsv for Dgetrs with one right-hand side, ?tbsv), which take either
// order, so they copy nothing:
//
//	Dgetrs, Dpotrs, Dtrtrs, Dpbtrs, Dtbtrs
//
// Dgecon is LAPACK's dgecon algorithm driven from Go (dlacn2's estimator,
// dlatrs's scaled triangular solves) on S, which holds U^T below the
// diagonal and L^T above: each solve is the transposed one with the other
// triangle, so it copies nothing either (?gecon itself would need the
// factors in LAPACK's order).
//
// The rest have no transposed form in LAPACK (row pivoting, column
// pivoting, eigenvectors of a nonsymmetric matrix) and go through a
// compact column-major copy made by the views copy engine, counted in
// lapis.ReadStats().Copies (one per operand copied):
//
//	Dgetrf   a in and out (row pivoting)
//	Dgetri   a in and out
//	Dgeqp3   a in and out (column pivoting)
//	Dgeev    a in, vl and vr out
//	Dggsvd3  a and b in and out, u, v and q out
//	Dgesvd   a in, u and vt out (a is left unchanged)
//	Dgels    b in and out (a goes in place, trans swapped), none when
//	         nrhs == 1 and ldb == 1
//
// Dgesvd, behind mat.SVD, runs ?gesvd, gonum's algorithm, so that its
// singular vectors have gonum's signs; DivideAndConquer makes it run
// ?gesdd (3-5x faster for n = 500 on one thread), whose singular values
// agree to rounding but some of whose vector pairs (u_i, v_i) come out
// negated (about half of them for n = 500), as either sign is a valid
// SVD (see Dgesvd). If ?gesdd fails to converge, Dgesvd answers with
// ?gesvd.
//
// Workspaces: a query answers LAPACK's own optimal size for the routine
// actually called (never less than gonum's documented minimum); a call
// hands the caller's work to LAPACK when it is long enough for that
// routine and takes a pooled buffer otherwise (Dsyev: ?syevd needs more
// than gonum's minimum for eigenvectors). iwork arguments are gonum's
// []int; LAPACK's integers come from a pool.
type Gonum struct {
	// DivideAndConquer makes Dgesvd run LAPACK's ?gesdd (divide and
	// conquer, 3-5x faster for n = 500) instead of ?gesvd (bidiagonal QR
	// iteration), the algorithm of gonum's own Dgesvd and of gonum/netlib
	// and so the default: a drop-in gives what the interface's own
	// algorithm gives. With it the singular values agree to rounding but
	// some singular vector pairs come out negated (valid, but not what
	// programs whose tests pin gonum's vectors expect: gonum's stat
	// TestPrincipalComponents fails). Set it where only the subspaces
	// matter:
	//
	//	lapack64.Use(lapack.Gonum{DivideAndConquer: true})
	DivideAndConquer bool
}

var _ gonumlapack.Float64 = Gonum{}

// gnBLAS is the BLAS of Gonum's solves.
var gnBLAS cblas.Gonum

// gnFits panics, with lapis's message (gonum has none: its integers are
// Go ints), if a value does not fit LAPACK's integer.
func gnFits(vals ...int) {
	if err := cint.LAPACK("lapack.Gonum", "argument", vals...); err != nil {
		panic(err.Error())
	}
}

// gnRow returns gonum's row-major m x n matrix a (leading dimension lda,
// m and n > 0) as a view.
func gnRow(m, n int, a []float64, lda int) views.View[float64] {
	l, err := layout.New([]int{m, n}, []int{lda, 1}, 0)
	if err != nil {
		panic(err.Error()) // unreachable: gonum's checks passed
	}
	v, err := views.FromSlice(a, l)
	if err != nil {
		panic(err.Error()) // unreachable: gonum's length checks passed
	}
	return v
}

// gnCopy is a compact column-major copy of a row-major matrix (counted in
// Stats.Copies). The zero value is no copy: a nil pointer, ld 1.
type gnCopy struct {
	buf *pool.Buf[float64]
	v   views.View[float64]
	ld  int
}

// gnColMajor copies gonum's row-major m x n matrix a into a pooled
// column-major buffer (only allocates it when load is false: an output).
func gnColMajor(m, n int, a []float64, lda int, load bool) gnCopy {
	c := gnCopy{ld: max(1, m), buf: pool.Get[float64](max(1, m) * n)}
	policy.Copies.Add(1)
	if m == 0 || n == 0 {
		return c
	}
	l, _ := layout.New([]int{m, n}, []int{1, c.ld}, 0) // fits: the buffer was allocated
	c.v, _ = views.FromSlice(c.buf.Data, l)
	if load {
		_ = views.Copy(c.v, gnRow(m, n, a, lda)) // same shape, fresh memory
	}
	return c
}

// store copies the column-major copy back to gonum's row-major a.
func (c *gnCopy) store(m, n int, a []float64, lda int) {
	if c.buf != nil && m > 0 && n > 0 {
		_ = views.Copy(gnRow(m, n, a, lda), c.v)
	}
}

func (c *gnCopy) ptr() unsafe.Pointer {
	if c.buf == nil {
		return nil
	}
	return clib.Ptr(c.buf.Data)
}

func (c *gnCopy) ldOr1() int { return max(1, c.ld) }

func (c *gnCopy) put() {
	pool.Put(c.buf)
	c.buf = nil
}

// gnWork is the workspace of a LAPACK call: the caller's work when lwork
// reaches need, a pooled buffer of need elements otherwise.
type gnWork struct {
	buf *pool.Buf[float64]
	ptr unsafe.Pointer
	n   int
}

func gnWorkspace(work []float64, lwork, need int) gnWork {
	need = max(1, need)
	if lwork >= need {
		return gnWork{ptr: clib.Ptr(work), n: lwork}
	}
	b := pool.Get[float64](need)
	return gnWork{buf: b, ptr: clib.Ptr(b.Data), n: need}
}

func (w gnWork) put() { pool.Put(w.buf) }

// gnInts returns LAPACK integers holding k[i]+add.
func gnInts(k []int, add int) wspace.Ints {
	b := wspace.GetInts(len(k))
	for i, v := range k {
		b.Set(i, v+add)
	}
	return b
}

// gnStore writes b[i]+add into k.
func gnStore(b wspace.Ints, k []int, add int) {
	for i := range k {
		k[i] = b.Get(i) + add
	}
}

// Options of the stored transpose.

func gnUploT(u blas.Uplo) byte {
	if u == blas.Upper {
		return 'L'
	}
	return 'U'
}

func gnDiag(d blas.Diag) byte {
	if d == blas.Unit {
		return 'U'
	}
	return 'N'
}

func gnSideT(s blas.Side) byte {
	if s == blas.Left {
		return 'R'
	}
	return 'L'
}

func gnTrans(t blas.Transpose) byte {
	if t == blas.NoTrans {
		return 'N'
	}
	return 'T'
}

// gnNormT is the norm of S = A^T equal to norm of A.
func gnNormT(n gonumlapack.MatrixNorm) byte {
	switch n {
	case gonumlapack.MaxColumnSum:
		return 'I'
	case gonumlapack.MaxRowSum:
		return 'O'
	}
	return byte(n)
}

func gnBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gnQuery runs a workspace query of a real routine and returns its work size.
func gnQuery(call func(work, iwork unsafe.Pointer)) int {
	return wspace.Query[float64](func(work, _, iwork unsafe.Pointer) { call(work, iwork) }).Work
}

// Linear systems.

// Dgetrf computes A = P L U in place (row pivoting: through a column-major
// copy of a).
func (Gonum) Dgetrf(m, n int, a []float64, lda int, ipiv []int) (ok bool) {
	mn := min(m, n)
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if mn == 0 {
		return true
	}
	switch {
	case len(a) < (m-1)*lda+n:
		panic(shortA)
	case len(ipiv) != mn:
		panic(badLenIpiv)
	}
	gnFits(m, n, lda)
	c := gnColMajor(m, n, a, lda, true)
	p := wspace.GetInts(mn)
	policy.Lapack.Add(1)
	info := clib.Getrf[float64](m, n, c.ptr(), c.ld, p.Ptr())
	gnStore(p, ipiv, -1)
	c.store(m, n, a, lda)
	c.put()
	p.Put()
	return info == 0
}

// Dgetrs solves op(A) X = B from Dgetrf's factors: LAPACK's dgetrs
// algorithm (row interchanges, two triangular solves) on lapis's BLAS, no
// copy.
func (Gonum) Dgetrs(trans blas.Transpose, n, nrhs int, a []float64, lda int, ipiv []int, b []float64, ldb int) {
	switch {
	case trans != blas.NoTrans && trans != blas.Trans && trans != blas.ConjTrans:
		panic(badTrans)
	case n < 0:
		panic(nLT0)
	case nrhs < 0:
		panic(nrhsLT0)
	case lda < max(1, n):
		panic(badLdA)
	case ldb < max(1, nrhs):
		panic(badLdB)
	}
	if n == 0 || nrhs == 0 {
		return
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(b) < (n-1)*ldb+nrhs:
		panic(shortB)
	case len(ipiv) != n:
		panic(badLenIpiv)
	}
	// One right-hand side (Dense.Solve with a vector) is a column of
	// stride ldb: ?trsv, which OpenBLAS runs 2-3x faster than ?trsm on a
	// single column, and the swaps in Go rather than one cgo ?swap each.
	tri := func(ul blas.Uplo, t blas.Transpose, d blas.Diag) {
		if nrhs == 1 {
			gnBLAS.Dtrsv(ul, t, d, n, a, lda, b, ldb)
			return
		}
		gnBLAS.Dtrsm(blas.Left, ul, t, d, n, nrhs, 1, a, lda, b, ldb)
	}
	if trans == blas.NoTrans {
		gnLaswp(nrhs, b, ldb, ipiv, true)
		tri(blas.Lower, blas.NoTrans, blas.Unit)
		tri(blas.Upper, blas.NoTrans, blas.NonUnit)
		return
	}
	tri(blas.Upper, blas.Trans, blas.NonUnit)
	tri(blas.Lower, blas.Trans, blas.Unit)
	gnLaswp(nrhs, b, ldb, ipiv, false)
}

// gnLaswp swaps row k of the row-major b with row ipiv[k], for k in order
// (forward) or in reverse.
func gnLaswp(nrhs int, b []float64, ldb int, ipiv []int, forward bool) {
	n := len(ipiv)
	for i := range n {
		k := i
		if !forward {
			k = n - 1 - i
		}
		p := ipiv[k]
		switch {
		case p == k:
		case nrhs == 1:
			b[k*ldb], b[p*ldb] = b[p*ldb], b[k*ldb]
		default:
			gnBLAS.Dswap(nrhs, b[k*ldb:], 1, b[p*ldb:], 1)
		}
	}
}

// Dgetri computes A^-1 from Dgetrf's factors (through a column-major copy).
func (Gonum) Dgetri(n int, a []float64, lda int, ipiv []int, work []float64, lwork int) (ok bool) {
	iws := max(1, n)
	switch {
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	case lwork < iws && lwork != -1:
		panic(badLWork)
	case len(work) < max(1, lwork):
		panic(shortWork)
	}
	if n == 0 {
		work[0] = 1
		return true
	}
	gnFits(n, lda, lwork)
	if lwork == -1 {
		work[0] = float64(max(iws, gnQuery(func(w, _ unsafe.Pointer) { clib.Getri[float64](n, nil, n, nil, w, -1) })))
		return true
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(ipiv) != n:
		panic(badLenIpiv)
	}
	c := gnColMajor(n, n, a, lda, true)
	p := gnInts(ipiv, 1)
	policy.Lapack.Add(1)
	info := clib.Getri[float64](n, c.ptr(), c.ld, p.Ptr(), clib.Ptr(work), lwork)
	c.store(n, n, a, lda)
	c.put()
	p.Put()
	return info == 0
}

// Dgecon estimates the reciprocal condition number of A from Dgetrf's
// factors: LAPACK's dgecon algorithm (dlacn2's estimate of the norm of
// A^-1, each step two dlatrs solves) on the stored transpose of the
// factors, no copy. ?gecon itself would need getrf's factors in LAPACK's
// order (A = P L U with L unit lower), and the row-major storage holds
// U^T below the diagonal and L^T above: each of dgecon's solves is the
// transposed solve with the other triangle of that storage.
func (Gonum) Dgecon(norm gonumlapack.MatrixNorm, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	switch {
	case norm != gonumlapack.MaxColumnSum && norm != gonumlapack.MaxRowSum:
		panic(badNorm)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	case anorm < 0:
		panic(negANorm)
	}
	if n == 0 {
		return 1
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(work) < 4*n:
		panic(shortWork)
	case len(iwork) < n:
		panic(shortIWork)
	}
	switch {
	case anorm == 0:
		return 0
	case math.IsNaN(anorm):
		return anorm
	case math.IsInf(anorm, 1):
		return 0
	}
	gnFits(n, lda)
	isgn := wspace.GetInts(n)
	defer isgn.Put()
	return gnGecon(norm == gonumlapack.MaxColumnSum, n, a, lda, anorm, work, isgn)
}

// gnGecon is dgecon (LAPACK 3.12) on the row-major A = P L U: work is
// dlacn2's x (work[:n]) and v (work[n:2n]) and dlatrs's column norms of L
// (work[2n:3n]) and of U (work[3n:4n]); isgn holds n LAPACK integers.
// dgecon's solves on LAPACK's storage map to the stored transpose S as
//
//	L x = b      'Upper', 'Transpose', 'Unit' on S
//	U x = b      'Lower', 'Transpose', 'Non-unit' on S
//	U^T x = b    'Lower', 'No transpose', 'Non-unit' on S
//	L^T x = b    'Upper', 'No transpose', 'Unit' on S
func gnGecon(oneNorm bool, n int, a []float64, lda int, anorm float64, work []float64, isgn wspace.Ints) float64 {
	smlnum := dlamchS
	kase1 := 2
	if oneNorm {
		kase1 = 1
	}
	x, v, cnl, cnu := work[:n], work[n:2*n], work[2*n:3*n], work[3*n:4*n]
	var (
		ainvnm float64
		kase   int
		isave  [3]int64 // dlacn2's state, three LAPACK integers of either width
		sl, su float64
		normin = byte('N')
	)
	pa := clib.Ptr(a)
	for {
		policy.Lapack.Add(1)
		clib.Lacn2[float64](n, clib.Ptr(v), clib.Ptr(x), isgn.Ptr(), &ainvnm, &kase, unsafe.Pointer(&isave[0]))
		if kase == 0 {
			break
		}
		policy.Lapack.Add(2)
		if kase == kase1 { // x = U^-1 L^-1 x
			clib.Latrs[float64]('U', 'T', 'U', normin, n, pa, lda, clib.Ptr(x), &sl, clib.Ptr(cnl))
			clib.Latrs[float64]('L', 'T', 'N', normin, n, pa, lda, clib.Ptr(x), &su, clib.Ptr(cnu))
		} else { // x = L^-T U^-T x
			clib.Latrs[float64]('L', 'N', 'N', normin, n, pa, lda, clib.Ptr(x), &su, clib.Ptr(cnu))
			clib.Latrs[float64]('U', 'N', 'U', normin, n, pa, lda, clib.Ptr(x), &sl, clib.Ptr(cnl))
		}
		normin = 'Y'
		// Divide x by 1/(sl su) if that cannot overflow.
		if scale := sl * su; scale != 1 {
			ix := gnBLAS.Idamax(n, x, 1)
			if scale < math.Abs(x[ix])*smlnum || scale == 0 {
				return 0
			}
			gnRscl(x, scale)
		}
	}
	if ainvnm == 0 {
		return 0
	}
	return (1 / ainvnm) / anorm
}

// dlamchS is LAPACK's safe minimum, dlamch('S'): the smallest normal
// float64, whose reciprocal does not overflow.
const dlamchS = 0x1p-1022

// gnRscl is drscl: x /= sa without overflow or underflow in 1/sa.
func gnRscl(x []float64, sa float64) {
	smlnum := dlamchS
	bignum := 1 / smlnum
	cden, cnum := sa, 1.0
	for {
		cden1, cnum1 := cden*smlnum, cnum/bignum
		var mul float64
		done := false
		switch {
		case math.Abs(cden1) > math.Abs(cnum) && cnum != 0:
			mul, cden = smlnum, cden1
		case math.Abs(cnum1) > math.Abs(cden):
			mul, cnum = bignum, cnum1
		default:
			mul, done = cnum/cden, true
		}
		for i := range x {
			x[i] *= mul
		}
		if done {
			return
		}
	}
}

// Dpotrf computes the Cholesky factorisation of the symmetric A in place:
// dpotrf on S = A with the other triangle, no copy.
func (Gonum) Dpotrf(ul blas.Uplo, n int, a []float64, lda int) (ok bool) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if n == 0 {
		return true
	}
	if len(a) < (n-1)*lda+n {
		panic(shortA)
	}
	gnFits(n, lda)
	policy.Lapack.Add(1)
	return clib.Potrf[float64](gnUploT(ul), n, clib.Ptr(a), lda) == 0
}

// Dpotri computes A^-1 from Dpotrf's factor: dpotri with the other
// triangle, no copy.
func (Gonum) Dpotri(ul blas.Uplo, n int, a []float64, lda int) (ok bool) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if n == 0 {
		return true
	}
	if len(a) < (n-1)*lda+n {
		panic(shortA)
	}
	gnFits(n, lda)
	policy.Lapack.Add(1)
	return clib.Potri[float64](gnUploT(ul), n, clib.Ptr(a), lda) == 0
}

// Dpotrs solves A X = B from Dpotrf's factor: dpotrs's two triangular
// solves on lapis's BLAS, no copy.
func (Gonum) Dpotrs(ul blas.Uplo, n, nrhs int, a []float64, lda int, b []float64, ldb int) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case nrhs < 0:
		panic(nrhsLT0)
	case lda < max(1, n):
		panic(badLdA)
	case ldb < max(1, nrhs):
		panic(badLdB)
	}
	if n == 0 || nrhs == 0 {
		return
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(b) < (n-1)*ldb+nrhs:
		panic(shortB)
	}
	if ul == blas.Upper {
		gnBLAS.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, n, nrhs, 1, a, lda, b, ldb)
		gnBLAS.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, n, nrhs, 1, a, lda, b, ldb)
		return
	}
	gnBLAS.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, n, nrhs, 1, a, lda, b, ldb)
	gnBLAS.Dtrsm(blas.Left, blas.Lower, blas.Trans, blas.NonUnit, n, nrhs, 1, a, lda, b, ldb)
}

// Dpocon estimates the reciprocal condition number of A from Dpotrf's
// factor: dpocon with the other triangle, no copy.
func (Gonum) Dpocon(ul blas.Uplo, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	case anorm < 0:
		panic(negANorm)
	}
	if n == 0 {
		return 1
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(work) < 3*n:
		panic(shortWork)
	case len(iwork) < n:
		panic(shortIWork)
	}
	if anorm == 0 {
		return 0
	}
	gnFits(n, lda)
	iw := wspace.GetInts(n)
	var rcond float64
	policy.Lapack.Add(1)
	clib.Pocon[float64](gnUploT(ul), n, clib.Ptr(a), lda, anorm, &rcond, clib.Ptr(work), iw.Ptr(), nil)
	iw.Put()
	return rcond
}

// Dpstrf computes the Cholesky factorisation with complete pivoting of the
// positive semidefinite A: dpstrf with the other triangle, no copy.
func (Gonum) Dpstrf(ul blas.Uplo, n int, a []float64, lda int, piv []int, tol float64, work []float64) (rank int, ok bool) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if n == 0 {
		return 0, true
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(piv) != n:
		panic(badLenPiv)
	case len(work) < 2*n:
		panic(shortWork)
	}
	gnFits(n, lda)
	p := wspace.GetInts(n)
	policy.Lapack.Add(1)
	info := clib.Pstrf[float64](gnUploT(ul), n, clib.Ptr(a), lda, p.Ptr(), &rank, tol, clib.Ptr(work))
	gnStore(p, piv, -1)
	p.Put()
	return rank, info == 0
}

// Dpbtrf computes the Cholesky factorisation of the symmetric band matrix
// A in gonum's row-major band storage, which is LAPACK's band storage of
// the other triangle: dpbtrf, no copy.
func (Gonum) Dpbtrf(ul blas.Uplo, n, kd int, ab []float64, ldab int) (ok bool) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case kd < 0:
		panic(kdLT0)
	case ldab < kd+1:
		panic(badLdA)
	}
	if n == 0 {
		return true
	}
	if len(ab) < (n-1)*ldab+kd+1 {
		panic(shortAB)
	}
	gnFits(n, kd, ldab)
	policy.Lapack.Add(1)
	return clib.Pbtrf[float64](gnUploT(ul), n, kd, clib.Ptr(ab), ldab) == 0
}

// Dpbtrs solves A X = B from Dpbtrf's factor: dpbtrs's banded triangular
// solves on lapis's BLAS, no copy.
func (Gonum) Dpbtrs(ul blas.Uplo, n, kd, nrhs int, ab []float64, ldab int, b []float64, ldb int) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case kd < 0:
		panic(kdLT0)
	case nrhs < 0:
		panic(nrhsLT0)
	case ldab < kd+1:
		panic(badLdA)
	case ldb < max(1, nrhs):
		panic(badLdB)
	}
	if n == 0 || nrhs == 0 {
		return
	}
	if len(ab) < (n-1)*ldab+kd+1 {
		panic(shortAB)
	}
	if len(b) < (n-1)*ldb+nrhs {
		panic(shortB)
	}
	first, second := blas.Trans, blas.NoTrans // A = U^T U
	if ul == blas.Lower {
		first, second = blas.NoTrans, blas.Trans // A = L L^T
	}
	for j := range nrhs {
		gnBLAS.Dtbsv(ul, first, blas.NonUnit, n, kd, ab, ldab, b[j:], ldb)
		gnBLAS.Dtbsv(ul, second, blas.NonUnit, n, kd, ab, ldab, b[j:], ldb)
	}
}

// Dpbcon estimates the reciprocal condition number of a band A from
// Dpbtrf's factor: dpbcon on the other triangle's band storage, no copy.
func (Gonum) Dpbcon(ul blas.Uplo, n, kd int, ab []float64, ldab int, anorm float64, work []float64, iwork []int) (rcond float64) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case kd < 0:
		panic(kdLT0)
	case ldab < kd+1:
		panic(badLdA)
	case anorm < 0:
		panic(badNorm) // gonum's message for this case
	}
	if n == 0 {
		return 1
	}
	switch {
	case len(ab) < (n-1)*ldab+kd+1:
		panic(shortAB)
	case len(work) < 3*n:
		panic(shortWork)
	case len(iwork) < n:
		panic(shortIWork)
	}
	if anorm == 0 {
		return 0
	}
	gnFits(n, kd, ldab)
	iw := wspace.GetInts(n)
	policy.Lapack.Add(1)
	clib.Pbcon[float64](gnUploT(ul), n, kd, clib.Ptr(ab), ldab, anorm, &rcond, clib.Ptr(work), iw.Ptr(), nil)
	iw.Put()
	return rcond
}

// Dtrtri computes the inverse of the triangular A in place: dtrtri with
// the other triangle, no copy.
func (Gonum) Dtrtri(ul blas.Uplo, diag blas.Diag, n int, a []float64, lda int) (ok bool) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case diag != blas.NonUnit && diag != blas.Unit:
		panic(badDiag)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if n == 0 {
		return true
	}
	if len(a) < (n-1)*lda+n {
		panic(shortA)
	}
	gnFits(n, lda)
	policy.Lapack.Add(1)
	return clib.Trtri[float64](gnUploT(ul), gnDiag(diag), n, clib.Ptr(a), lda) == 0
}

// Dtrtrs solves op(A) X = B for a triangular A: dtrtrs's singularity
// check and triangular solve on lapis's BLAS, no copy.
func (Gonum) Dtrtrs(ul blas.Uplo, trans blas.Transpose, diag blas.Diag, n, nrhs int, a []float64, lda int, b []float64, ldb int) (ok bool) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case trans != blas.NoTrans && trans != blas.Trans && trans != blas.ConjTrans:
		panic(badTrans)
	case diag != blas.NonUnit && diag != blas.Unit:
		panic(badDiag)
	case n < 0:
		panic(nLT0)
	case nrhs < 0:
		panic(nrhsLT0)
	case lda < max(1, n):
		panic(badLdA)
	case ldb < max(1, nrhs):
		panic(badLdB)
	}
	if n == 0 {
		return true
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(b) < (n-1)*ldb+nrhs:
		panic(shortB)
	}
	if diag == blas.NonUnit {
		for i := range n {
			if a[i*lda+i] == 0 {
				return false
			}
		}
	}
	gnBLAS.Dtrsm(blas.Left, ul, trans, diag, n, nrhs, 1, a, lda, b, ldb)
	return true
}

// Dtbtrs solves op(A) X = B for a triangular band A: dtbtrs's singularity
// check and banded solves on lapis's BLAS, no copy.
func (Gonum) Dtbtrs(ul blas.Uplo, trans blas.Transpose, diag blas.Diag, n, kd, nrhs int, a []float64, lda int, b []float64, ldb int) (ok bool) {
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case trans != blas.NoTrans && trans != blas.Trans && trans != blas.ConjTrans:
		panic(badTrans)
	case diag != blas.NonUnit && diag != blas.Unit:
		panic(badDiag)
	case n < 0:
		panic(nLT0)
	case kd < 0:
		panic(kdLT0)
	case nrhs < 0:
		panic(nrhsLT0)
	case lda < kd+1:
		panic(badLdA)
	case ldb < max(1, nrhs):
		panic(badLdB)
	}
	if n == 0 {
		return true
	}
	switch {
	case len(a) < (n-1)*lda+kd+1:
		panic(shortA)
	case len(b) < (n-1)*ldb+nrhs:
		panic(shortB)
	}
	if diag == blas.NonUnit {
		d := 0 // the diagonal's column in the row-major band storage
		if ul == blas.Lower {
			d = kd
		}
		for i := range n {
			if a[i*lda+d] == 0 {
				return false
			}
		}
	}
	for j := range nrhs {
		gnBLAS.Dtbsv(ul, trans, diag, n, kd, a, lda, b[j:], ldb)
	}
	return true
}

// Dtrcon estimates the reciprocal condition number of a triangular A:
// dtrcon with the other triangle and the transposed norm, no copy.
func (Gonum) Dtrcon(norm gonumlapack.MatrixNorm, ul blas.Uplo, diag blas.Diag, n int, a []float64, lda int, work []float64, iwork []int) float64 {
	switch {
	case norm != gonumlapack.MaxColumnSum && norm != gonumlapack.MaxRowSum:
		panic(badNorm)
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case diag != blas.NonUnit && diag != blas.Unit:
		panic(badDiag)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if n == 0 {
		return 1
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(work) < 3*n:
		panic(shortWork)
	case len(iwork) < n:
		panic(shortIWork)
	}
	gnFits(n, lda)
	iw := wspace.GetInts(n)
	var rcond float64
	policy.Lapack.Add(1)
	clib.Trcon[float64](gnNormT(norm), gnUploT(ul), gnDiag(diag), n, clib.Ptr(a), lda, &rcond, clib.Ptr(work), iw.Ptr(), nil)
	iw.Put()
	return rcond
}

// Norms.

func gnCheckNorm(norm gonumlapack.MatrixNorm) {
	if norm != gonumlapack.MaxRowSum && norm != gonumlapack.MaxColumnSum && norm != gonumlapack.Frobenius && norm != gonumlapack.MaxAbs {
		panic(badNorm)
	}
}

// Dlange returns a norm of the m x n A: dlange on S = A^T with the
// transposed norm, no copy.
func (Gonum) Dlange(norm gonumlapack.MatrixNorm, m, n int, a []float64, lda int, work []float64) float64 {
	gnCheckNorm(norm)
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if m == 0 || n == 0 {
		return 0
	}
	switch {
	case len(a) < (m-1)*lda+n:
		panic(badLdA) // gonum's message for this case
	case norm == gonumlapack.MaxColumnSum && len(work) < n:
		panic(shortWork)
	}
	gnFits(m, n, lda)
	policy.Lapack.Add(1)
	return clib.Lange[float64](gnNormT(norm), n, m, clib.Ptr(a), lda, clib.Ptr(work))
}

// Dlantr returns a norm of the m x n trapezoidal A: dlantr on S = A^T
// with the other triangle and the transposed norm, no copy.
func (Gonum) Dlantr(norm gonumlapack.MatrixNorm, ul blas.Uplo, diag blas.Diag, m, n int, a []float64, lda int, work []float64) float64 {
	gnCheckNorm(norm)
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case diag != blas.Unit && diag != blas.NonUnit:
		panic(badDiag)
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if min(m, n) == 0 {
		return 0
	}
	switch {
	case len(a) < (m-1)*lda+n:
		panic(shortA)
	case norm == gonumlapack.MaxColumnSum && len(work) < n:
		panic(shortWork)
	}
	gnFits(m, n, lda)
	policy.Lapack.Add(1)
	return clib.Lantr[float64](gnNormT(norm), gnUploT(ul), gnDiag(diag), n, m, clib.Ptr(a), lda, clib.Ptr(work))
}

// Dlansy returns a norm of the symmetric A: dlansy with the other
// triangle, no copy.
func (Gonum) Dlansy(norm gonumlapack.MatrixNorm, ul blas.Uplo, n int, a []float64, lda int, work []float64) float64 {
	gnCheckNorm(norm)
	switch {
	case ul != blas.Upper && ul != blas.Lower:
		panic(badUplo)
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if n == 0 {
		return 0
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case (norm == gonumlapack.MaxColumnSum || norm == gonumlapack.MaxRowSum) && len(work) < n:
		panic(shortWork)
	}
	gnFits(n, lda)
	policy.Lapack.Add(1)
	return clib.Lansy[float64](byte(norm), gnUploT(ul), n, clib.Ptr(a), lda, clib.Ptr(work))
}

// Permutations.

// Dlapmr permutes the rows of the m x n X by k: dlapmt (columns) on S,
// no copy.
func (Gonum) Dlapmr(forward bool, m, n int, x []float64, ldx int, k []int) {
	gnLapm(forward, m, n, x, ldx, k, m, clib.Lapmt[float64])
}

// Dlapmt permutes the columns of the m x n X by k: dlapmr (rows) on S,
// no copy.
func (Gonum) Dlapmt(forward bool, m, n int, x []float64, ldx int, k []int) {
	gnLapm(forward, m, n, x, ldx, k, n, clib.Lapmr[float64])
}

// gnLapm is Dlapmr (lenK m) and Dlapmt (lenK n): gonum's checks, then f,
// the other permutation, on the transposed storage.
func gnLapm(forward bool, m, n int, x []float64, ldx int, k []int, lenK int, f func(forward int, m, n int, x unsafe.Pointer, ldx int, k unsafe.Pointer)) {
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case ldx < max(1, n):
		panic(badLdX)
	}
	if m == 0 || n == 0 {
		return
	}
	switch {
	case len(x) < (m-1)*ldx+n:
		panic(shortX)
	case len(k) != lenK:
		panic(badLenK)
	}
	if lenK == 1 {
		return
	}
	gnFits(m, n, ldx)
	p := gnInts(k, 1)
	policy.Lapack.Add(1)
	f(gnBool(forward), n, m, clib.Ptr(x), ldx, p.Ptr())
	p.Put()
}
