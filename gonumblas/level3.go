package gonumblas

import (
	"gonum.org/v1/gonum/blas"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
)

// Level 3: every call is the column-major one on the transposes (see
// order); none needs a row-major entry point.

// gemm: C^T = op(B)^T op(A)^T, the same ops on S_B and S_A.
func gemm[T scalar.Type](op string, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	checkTrans(tA)
	checkTrans(tB)
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case k < 0:
		panic(kLT0)
	}
	rowA, colA := m, k
	if tA != blas.NoTrans {
		rowA, colA = k, m
	}
	if lda < max(1, colA) {
		panic(badLdA)
	}
	rowB, colB := k, n
	if tB != blas.NoTrans {
		rowB, colB = n, k
	}
	if ldb < max(1, colB) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if len(a) < (rowA-1)*lda+colA {
		panic(shortA)
	}
	if len(b) < (rowB-1)*ldb+colB {
		panic(shortB)
	}
	if len(c) < (m-1)*ldc+n {
		panic(shortC)
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cm, cn, ck := fit(op, "m", m), fit(op, "n", n), fit(op, "k", k)
	clda, cldb, cldc := fit(op, "lda", lda), fit(op, "ldb", ldb), fit(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(m, n, k).End()
	clib.Gemm[T](keepOp[T](tB), keepOp[T](tA), cn, cm, ck, alpha, clib.Ptr(b), cldb, clib.Ptr(a), clda, beta, clib.Ptr(c), cldc)
}

// checkSided checks symm's and trxm's shapes after their flags, in
// gonum's order: A is m x m (side Left) or n x n (Right), B and C (withC)
// m x n. It reports whether m and n are positive.
func checkSided(s blas.Side, m, n, lenA, lda, lenB, ldb, lenC, ldc int, withC bool) bool {
	na := m
	if s == blas.Right {
		na = n
	}
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case lda < max(1, na):
		panic(badLdA)
	case ldb < max(1, n):
		panic(badLdB)
	case withC && ldc < max(1, n):
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return false
	}
	if lenA < lda*(na-1)+na {
		panic(shortA)
	}
	if lenB < ldb*(m-1)+n {
		panic(shortB)
	}
	if withC && lenC < ldc*(m-1)+n {
		panic(shortC)
	}
	return true
}

// symm is symm (herm false) and hemm (herm true): C^T = B^T A^T, with
// A^T = A for symmetric A and A^T = conj(A), exactly the Hermitian matrix
// the flipped triangle describes, for Hermitian A.
func symm[T scalar.Type](op string, herm bool, s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	checkSide(s)
	checkUplo(ul)
	if !checkSided(s, m, n, len(a), lda, len(b), ldb, len(c), ldc, true) || alpha == 0 && beta == 1 {
		return
	}
	cm, cn := fit(op, "m", m), fit(op, "n", n)
	clda, cldb, cldc := fit(op, "lda", lda), fit(op, "ldb", ldb), fit(op, "ldc", ldc)
	f := clib.Symm[T]
	if herm {
		f = clib.Hemm[T]
	}
	policy.Calls.Add(1)
	defer level3(m, n, max(m, n)).End()
	f(flipSide(s), flipUplo(ul), cn, cm, alpha, clib.Ptr(a), clda, clib.Ptr(b), cldb, beta, clib.Ptr(c), cldc)
}

// checkRankK checks syrk, syr2k (withB), herk and her2k's arguments in
// gonum's order (uplo first in its real code, trans first in its complex
// code, which accepts only NoTrans and other: Trans for syrk and syr2k,
// ConjTrans for herk and her2k), lengths included, and reports whether
// there is anything to do.
func checkRankK(cplx bool, other blas.Transpose, ul blas.Uplo, t blas.Transpose, n, k int, lenA, lda, lenB, ldb, lenC, ldc int, withB bool) bool {
	if cplx {
		if t != blas.NoTrans && t != other {
			panic(badTranspose)
		}
		checkUplo(ul)
	} else {
		checkUplo(ul)
		checkTrans(t)
	}
	if n < 0 {
		panic(nLT0)
	}
	if k < 0 {
		panic(kLT0)
	}
	row, col := k, n
	if t == blas.NoTrans {
		row, col = n, k
	}
	if lda < max(1, col) {
		panic(badLdA)
	}
	if withB && ldb < max(1, col) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if n == 0 {
		return false
	}
	if lenA < (row-1)*lda+col {
		panic(shortA)
	}
	if withB && lenB < (row-1)*ldb+col {
		panic(shortB)
	}
	if lenC < (n-1)*ldc+n {
		panic(shortC)
	}
	return true
}

// syrk: C^T = C, and (op(A) op(A)^T)^T is the same product of S, whose
// op is the other one (NoTrans <-> Trans).
func syrk[T scalar.Type](op string, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) {
	if !checkRankK(scalar.IsComplex[T](), blas.Trans, ul, t, n, k, len(a), lda, 0, 0, len(c), ldc, false) {
		return
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cn, ck, clda, cldc := fit(op, "n", n), fit(op, "k", k), fit(op, "lda", lda), fit(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(n, n, k).End()
	clib.Syrk[T](flipUplo(ul), flipOp(t, blas.Trans), cn, ck, alpha, clib.Ptr(a), clda, beta, clib.Ptr(c), cldc)
}

func syr2k[T scalar.Type](op string, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if !checkRankK(scalar.IsComplex[T](), blas.Trans, ul, t, n, k, len(a), lda, len(b), ldb, len(c), ldc, true) {
		return
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cn, ck := fit(op, "n", n), fit(op, "k", k)
	clda, cldb, cldc := fit(op, "lda", lda), fit(op, "ldb", ldb), fit(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(n, n, k).End()
	clib.Syr2k[T](flipUplo(ul), flipOp(t, blas.Trans), cn, ck, alpha, clib.Ptr(a), clda, clib.Ptr(b), cldb, beta, clib.Ptr(c), cldc)
}

// herk: C^T = conj(C), and (A A^H)^T = conj(A) A^T = S^H S: op NoTrans
// <-> ConjTrans.
func herk[T scalar.Type](op string, ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []T, lda int, beta float64, c []T, ldc int) {
	if !checkRankK(true, blas.ConjTrans, ul, t, n, k, len(a), lda, 0, 0, len(c), ldc, false) {
		return
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cn, ck, clda, cldc := fit(op, "n", n), fit(op, "k", k), fit(op, "lda", lda), fit(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(n, n, k).End()
	clib.Herk[T](flipUplo(ul), flipOp(t, blas.ConjTrans), cn, ck, alpha, clib.Ptr(a), clda, beta, clib.Ptr(c), cldc)
}

// her2k: C^T = alpha op(B)^T conj(op(A)) + conj(alpha) op(A)^T conj(op(B))
// + beta C^T, which is her2k on the transposes with A and B swapped.
func her2k[T scalar.Type](op string, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta float64, c []T, ldc int) {
	if !checkRankK(true, blas.ConjTrans, ul, t, n, k, len(a), lda, len(b), ldb, len(c), ldc, true) {
		return
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cn, ck := fit(op, "n", n), fit(op, "k", k)
	clda, cldb, cldc := fit(op, "lda", lda), fit(op, "ldb", ldb), fit(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(n, n, k).End()
	clib.Her2k[T](flipUplo(ul), flipOp(t, blas.ConjTrans), cn, ck, alpha, clib.Ptr(b), cldb, clib.Ptr(a), clda, beta, clib.Ptr(c), cldc)
}

// trxm is trmm (solve false) and trsm (solve true): B^T = alpha B^T
// op(A)^T, and op(A)^T is the same op of S.
func trxm[T scalar.Type](op string, solve bool, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	checkSide(s)
	checkUplo(ul)
	checkTrans(tA)
	checkDiag(d)
	if !checkSided(s, m, n, len(a), lda, len(b), ldb, 0, 0, false) {
		return
	}
	cm, cn, clda, cldb := fit(op, "m", m), fit(op, "n", n), fit(op, "lda", lda), fit(op, "ldb", ldb)
	f := clib.Trmm[T]
	if solve {
		f = clib.Trsm[T]
	}
	policy.Calls.Add(1)
	defer level3(m, n, max(m, n)).End()
	f(flipSide(s), flipUplo(ul), keepOp[T](tA), diag(d), cn, cm, alpha, clib.Ptr(a), clda, clib.Ptr(b), cldb)
}
