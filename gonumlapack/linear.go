package gonumlapack

import (
	"math"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"

	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/wspace"
)

// Linear systems.

func checkUplo(ul blas.Uplo) {
	if ul != blas.Upper && ul != blas.Lower {
		panic(badUplo)
	}
}

func checkTrans(t blas.Transpose) {
	if t != blas.NoTrans && t != blas.Trans && t != blas.ConjTrans {
		panic(badTrans)
	}
}

func checkDiag(d blas.Diag) {
	if d != blas.NonUnit && d != blas.Unit {
		panic(badDiag)
	}
}

// checkSquare checks the n x n A after the routine's flags, in gonum's
// order (n, lda, then a's length when n > 0), and reports whether n > 0.
func checkSquare(n int, a []float64, lda int) bool {
	switch {
	case n < 0:
		panic(nLT0)
	case lda < max(1, n):
		panic(badLdA)
	}
	if n == 0 {
		return false
	}
	if len(a) < (n-1)*lda+n {
		panic(shortA)
	}
	return true
}

// checkSolve checks the n x n A and the n x nrhs B of a solve after the
// routine's flags, in gonum's order, and reports whether there is
// anything to solve.
func checkSolve(n, nrhs int, a []float64, lda int, b []float64, ldb int) bool {
	switch {
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
		return false
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(b) < (n-1)*ldb+nrhs:
		panic(shortB)
	}
	return true
}

// Dgetrf computes A = P L U in place (row pivoting: through a column-major
// copy of a).
func (Implementation) Dgetrf(m, n int, a []float64, lda int, ipiv []int) (ok bool) {
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
	fits(m, n, lda)
	c := colMajor(m, n, a, lda, true)
	p := wspace.GetInts(mn)
	policy.Lapack.Add(1)
	info := clib.Getrf[float64](m, n, c.ptr(), c.ld, p.Ptr())
	storeInts(p, ipiv, -1)
	c.store(m, n, a, lda)
	c.put()
	p.Put()
	return info == 0
}

// Dgetrs solves op(A) X = B from Dgetrf's factors: LAPACK's dgetrs
// algorithm (row interchanges, two triangular solves) on lapis's BLAS, no
// copy.
func (Implementation) Dgetrs(trans blas.Transpose, n, nrhs int, a []float64, lda int, ipiv []int, b []float64, ldb int) {
	checkTrans(trans)
	if !checkSolve(n, nrhs, a, lda, b, ldb) {
		return
	}
	if len(ipiv) != n {
		panic(badLenIpiv)
	}
	// One right-hand side (Dense.Solve with a vector) is a column of
	// stride ldb: ?trsv, which OpenBLAS runs 2-3x faster than ?trsm on a
	// single column, and the swaps in Go rather than one cgo ?swap each.
	tri := func(ul blas.Uplo, t blas.Transpose, d blas.Diag) {
		if nrhs == 1 {
			blasImpl.Dtrsv(ul, t, d, n, a, lda, b, ldb)
			return
		}
		blasImpl.Dtrsm(blas.Left, ul, t, d, n, nrhs, 1, a, lda, b, ldb)
	}
	if trans == blas.NoTrans {
		laswp(nrhs, b, ldb, ipiv, true)
		tri(blas.Lower, blas.NoTrans, blas.Unit)
		tri(blas.Upper, blas.NoTrans, blas.NonUnit)
		return
	}
	tri(blas.Upper, blas.Trans, blas.NonUnit)
	tri(blas.Lower, blas.Trans, blas.Unit)
	laswp(nrhs, b, ldb, ipiv, false)
}

// laswp swaps row k of the row-major b with row ipiv[k], for k in order
// (forward) or in reverse.
func laswp(nrhs int, b []float64, ldb int, ipiv []int, forward bool) {
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
			blasImpl.Dswap(nrhs, b[k*ldb:], 1, b[p*ldb:], 1)
		}
	}
}

// Dgetri computes A^-1 from Dgetrf's factors (through a column-major copy).
func (Implementation) Dgetri(n int, a []float64, lda int, ipiv []int, work []float64, lwork int) (ok bool) {
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
	fits(n, lda, lwork)
	if lwork == -1 {
		work[0] = float64(max(iws, query(func(w, _ unsafe.Pointer) { clib.Getri[float64](n, nil, n, nil, w, -1) })))
		return true
	}
	switch {
	case len(a) < (n-1)*lda+n:
		panic(shortA)
	case len(ipiv) != n:
		panic(badLenIpiv)
	}
	c := colMajor(n, n, a, lda, true)
	p := intsOf(ipiv, 1)
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
func (Implementation) Dgecon(norm lapack.MatrixNorm, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	switch {
	case norm != lapack.MaxColumnSum && norm != lapack.MaxRowSum:
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
	fits(n, lda)
	isgn := wspace.GetInts(n)
	defer isgn.Put()
	return gecon(norm == lapack.MaxColumnSum, n, a, lda, anorm, work, isgn)
}

// gecon is dgecon (LAPACK 3.12) on the row-major A = P L U: work is
// dlacn2's x (work[:n]) and v (work[n:2n]) and dlatrs's column norms of L
// (work[2n:3n]) and of U (work[3n:4n]); isgn holds n LAPACK integers.
// dgecon's solves on LAPACK's storage map to the stored transpose S as
//
//	L x = b      'Upper', 'Transpose', 'Unit' on S
//	U x = b      'Lower', 'Transpose', 'Non-unit' on S
//	U^T x = b    'Lower', 'No transpose', 'Non-unit' on S
//	L^T x = b    'Upper', 'No transpose', 'Unit' on S
func gecon(oneNorm bool, n int, a []float64, lda int, anorm float64, work []float64, isgn wspace.Ints) float64 {
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
			ix := blasgo.Iamax[float64](n, clib.Ptr(x), 1) // as Idamax, in Go: no cgo call per step
			if scale < math.Abs(x[ix])*smlnum || scale == 0 {
				return 0
			}
			rscl(x, scale)
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

// rscl is drscl: x /= sa without overflow or underflow in 1/sa.
func rscl(x []float64, sa float64) {
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
func (Implementation) Dpotrf(ul blas.Uplo, n int, a []float64, lda int) (ok bool) {
	checkUplo(ul)
	if !checkSquare(n, a, lda) {
		return true
	}
	fits(n, lda)
	policy.Lapack.Add(1)
	return clib.Potrf[float64](uploT(ul), n, clib.Ptr(a), lda) == 0
}

// Dpotri computes A^-1 from Dpotrf's factor: dpotri with the other
// triangle, no copy.
func (Implementation) Dpotri(ul blas.Uplo, n int, a []float64, lda int) (ok bool) {
	checkUplo(ul)
	if !checkSquare(n, a, lda) {
		return true
	}
	fits(n, lda)
	policy.Lapack.Add(1)
	return clib.Potri[float64](uploT(ul), n, clib.Ptr(a), lda) == 0
}

// Dpotrs solves A X = B from Dpotrf's factor: dpotrs's two triangular
// solves on lapis's BLAS, no copy.
func (Implementation) Dpotrs(ul blas.Uplo, n, nrhs int, a []float64, lda int, b []float64, ldb int) {
	checkUplo(ul)
	if !checkSolve(n, nrhs, a, lda, b, ldb) {
		return
	}
	if ul == blas.Upper {
		blasImpl.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, n, nrhs, 1, a, lda, b, ldb)
		blasImpl.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, n, nrhs, 1, a, lda, b, ldb)
		return
	}
	blasImpl.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, n, nrhs, 1, a, lda, b, ldb)
	blasImpl.Dtrsm(blas.Left, blas.Lower, blas.Trans, blas.NonUnit, n, nrhs, 1, a, lda, b, ldb)
}

// Dpocon estimates the reciprocal condition number of A from Dpotrf's
// factor: dpocon with the other triangle, no copy.
func (Implementation) Dpocon(ul blas.Uplo, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	checkUplo(ul)
	switch {
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
	fits(n, lda)
	iw := wspace.GetInts(n)
	var rcond float64
	policy.Lapack.Add(1)
	clib.Pocon[float64](uploT(ul), n, clib.Ptr(a), lda, anorm, &rcond, clib.Ptr(work), iw.Ptr(), nil)
	iw.Put()
	return rcond
}

// Dpstrf computes the Cholesky factorisation with complete pivoting of the
// positive semidefinite A: dpstrf with the other triangle, no copy.
func (Implementation) Dpstrf(ul blas.Uplo, n int, a []float64, lda int, piv []int, tol float64, work []float64) (rank int, ok bool) {
	checkUplo(ul)
	switch {
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
	fits(n, lda)
	p := wspace.GetInts(n)
	policy.Lapack.Add(1)
	info := clib.Pstrf[float64](uploT(ul), n, clib.Ptr(a), lda, p.Ptr(), &rank, tol, clib.Ptr(work))
	storeInts(p, piv, -1)
	p.Put()
	return rank, info == 0
}

// Dpbtrf computes the Cholesky factorisation of the symmetric band matrix
// A in gonum's row-major band storage, which is LAPACK's band storage of
// the other triangle: dpbtrf, no copy.
func (Implementation) Dpbtrf(ul blas.Uplo, n, kd int, ab []float64, ldab int) (ok bool) {
	checkUplo(ul)
	switch {
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
	fits(n, kd, ldab)
	policy.Lapack.Add(1)
	return clib.Pbtrf[float64](uploT(ul), n, kd, clib.Ptr(ab), ldab) == 0
}

// Dpbtrs solves A X = B from Dpbtrf's factor: dpbtrs's banded triangular
// solves on lapis's BLAS, no copy.
func (Implementation) Dpbtrs(ul blas.Uplo, n, kd, nrhs int, ab []float64, ldab int, b []float64, ldb int) {
	checkUplo(ul)
	switch {
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
		blasImpl.Dtbsv(ul, first, blas.NonUnit, n, kd, ab, ldab, b[j:], ldb)
		blasImpl.Dtbsv(ul, second, blas.NonUnit, n, kd, ab, ldab, b[j:], ldb)
	}
}

// Dpbcon estimates the reciprocal condition number of a band A from
// Dpbtrf's factor: dpbcon on the other triangle's band storage, no copy.
func (Implementation) Dpbcon(ul blas.Uplo, n, kd int, ab []float64, ldab int, anorm float64, work []float64, iwork []int) (rcond float64) {
	checkUplo(ul)
	switch {
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
	fits(n, kd, ldab)
	iw := wspace.GetInts(n)
	policy.Lapack.Add(1)
	clib.Pbcon[float64](uploT(ul), n, kd, clib.Ptr(ab), ldab, anorm, &rcond, clib.Ptr(work), iw.Ptr(), nil)
	iw.Put()
	return rcond
}

// Dtrtri computes the inverse of the triangular A in place: dtrtri with
// the other triangle, no copy.
func (Implementation) Dtrtri(ul blas.Uplo, diag blas.Diag, n int, a []float64, lda int) (ok bool) {
	checkUplo(ul)
	checkDiag(diag)
	if !checkSquare(n, a, lda) {
		return true
	}
	fits(n, lda)
	policy.Lapack.Add(1)
	return clib.Trtri[float64](uploT(ul), diagChar(diag), n, clib.Ptr(a), lda) == 0
}

// Dtrtrs solves op(A) X = B for a triangular A: dtrtrs's singularity
// check and triangular solve on lapis's BLAS, no copy.
func (Implementation) Dtrtrs(ul blas.Uplo, trans blas.Transpose, diag blas.Diag, n, nrhs int, a []float64, lda int, b []float64, ldb int) (ok bool) {
	checkUplo(ul)
	checkTrans(trans)
	checkDiag(diag)
	switch {
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
	blasImpl.Dtrsm(blas.Left, ul, trans, diag, n, nrhs, 1, a, lda, b, ldb)
	return true
}

// Dtbtrs solves op(A) X = B for a triangular band A: dtbtrs's singularity
// check and banded solves on lapis's BLAS, no copy.
func (Implementation) Dtbtrs(ul blas.Uplo, trans blas.Transpose, diag blas.Diag, n, kd, nrhs int, a []float64, lda int, b []float64, ldb int) (ok bool) {
	checkUplo(ul)
	checkTrans(trans)
	checkDiag(diag)
	switch {
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
		blasImpl.Dtbsv(ul, trans, diag, n, kd, a, lda, b[j:], ldb)
	}
	return true
}

// Dtrcon estimates the reciprocal condition number of a triangular A:
// dtrcon with the other triangle and the transposed norm, no copy.
func (Implementation) Dtrcon(norm lapack.MatrixNorm, ul blas.Uplo, diag blas.Diag, n int, a []float64, lda int, work []float64, iwork []int) float64 {
	switch {
	case norm != lapack.MaxColumnSum && norm != lapack.MaxRowSum:
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
	fits(n, lda)
	iw := wspace.GetInts(n)
	var rcond float64
	policy.Lapack.Add(1)
	clib.Trcon[float64](normT(norm), uploT(ul), diagChar(diag), n, clib.Ptr(a), lda, &rcond, clib.Ptr(work), iw.Ptr(), nil)
	iw.Put()
	return rcond
}
