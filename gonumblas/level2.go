package gonumblas

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"

	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
)

// Level 2: each call decides its order once (orderOf: row-major for the
// complex cases the flip cannot express) and names its flags, dimensions
// and routine through it (see order).

// checkIncs panics for a zero increment, x's first.
func checkIncs(incX, incY int) {
	if incX == 0 {
		panic(zeroIncX)
	}
	if incY == 0 {
		panic(zeroIncY)
	}
}

// checkGeneral checks gemv's and ger's m x n A and increments, in gonum's
// order, and reports whether m and n are positive.
func checkGeneral(m, n, lda, incX, incY int) bool {
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	if lda < max(1, n) {
		panic(badLdA)
	}
	checkIncs(incX, incY)
	return m > 0 && n > 0
}

func gemv[T scalar.Type](op string, tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	checkTrans(tA)
	if !checkGeneral(m, n, lda, incX, incY) {
		return
	}
	lenX, lenY := m, n
	if tA == blas.NoTrans {
		lenX, lenY = n, m
	}
	cplx := scalar.IsComplex[T]()
	if cplx && len(a) < lda*(m-1)+n { // gonum's complex code checks a first
		panic(shortA)
	}
	if short(lenX, incX, len(x)) {
		panic(shortX)
	}
	if short(lenY, incY, len(y)) {
		panic(shortY)
	}
	if !cplx && len(a) < lda*(m-1)+n {
		panic(shortA)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	cm, cn, clda := fit(op, "m", m), fit(op, "n", n), fit(op, "lda", lda)
	cx, cy := fit(op, "incX", incX), fit(op, "incY", incY)
	o := orderOf[T](tA == blas.ConjTrans)
	rm, rn := o.swap(cm, cn)
	policy.Calls.Add(1)
	// OpenBLAS's complex gemv kernels over-read: see blasgo.OverReadSafe.
	blasgo.OverReadSafe[T](clib.Ptr(x), cx, lenX, clib.Ptr(y), cy, lenY, func(px unsafe.Pointer, ix int, py unsafe.Pointer, iy int) {
		pick(o, clib.Gemv[T], clib.GemvRow[T])(o.op(tA), rm, rn, alpha, clib.Ptr(a), clda, px, ix, beta, py, iy)
	})
}

// gbmv: row-major band storage (a[i*lda+j-i+kL] = A[i][j]) is the
// column-major band storage of A^T with the band widths swapped.
func gbmv[T scalar.Type](op string, tA blas.Transpose, m, n, kL, kU int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	checkTrans(tA)
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	if kL < 0 {
		panic(kLLT0)
	}
	if kU < 0 {
		panic(kULT0)
	}
	if lda < kL+kU+1 {
		panic(badLdA)
	}
	checkIncs(incX, incY)
	if m == 0 || n == 0 {
		return
	}
	if len(a) < lda*(min(m, n+kL)-1)+kL+kU+1 {
		panic(shortA)
	}
	lenX, lenY := m, n
	if tA == blas.NoTrans {
		lenX, lenY = n, m
	}
	if short(lenX, incX, len(x)) {
		panic(shortX)
	}
	if short(lenY, incY, len(y)) {
		panic(shortY)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	cm, cn, ckl, cku := fit(op, "m", m), fit(op, "n", n), fit(op, "kL", kL), fit(op, "kU", kU)
	clda, cx, cy := fit(op, "lda", lda), fit(op, "incX", incX), fit(op, "incY", incY)
	o := orderOf[T](tA == blas.ConjTrans)
	rm, rn := o.swap(cm, cn)
	rkl, rku := o.swap(ckl, cku)
	policy.Calls.Add(1)
	pick(o, clib.Gbmv[T], clib.GbmvRow[T])(o.op(tA), rm, rn, rkl, rku, alpha, clib.Ptr(a), clda, clib.Ptr(x), cx, beta, clib.Ptr(y), cy)
}

// trxv is trmv (solve false) and trsv (solve true).
func trxv[T scalar.Type](op string, solve bool, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int) {
	checkTri(scalar.IsComplex[T](), ul, tA, d)
	if n < 0 {
		panic(nLT0)
	}
	if lda < max(1, n) {
		panic(badLdA)
	}
	if incX == 0 {
		panic(zeroIncX)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+n {
		panic(shortA)
	}
	if short(n, incX, len(x)) {
		panic(shortX)
	}
	cn, clda, cx := fit(op, "n", n), fit(op, "lda", lda), fit(op, "incX", incX)
	o := orderOf[T](tA == blas.ConjTrans)
	f := pick(o, clib.Trmv[T], clib.TrmvRow[T])
	if solve {
		f = pick(o, clib.Trsv[T], clib.TrsvRow[T])
	}
	policy.Calls.Add(1)
	f(o.uplo(ul), o.op(tA), diag(d), cn, clib.Ptr(a), clda, clib.Ptr(x), cx)
}

// tbxv is tbmv (solve false) and tbsv (solve true). Row-major upper band
// storage (a[i*lda+j-i] = A[i][j]) is the column-major lower band storage
// of A^T, and the other way round.
func tbxv[T scalar.Type](op string, solve bool, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int) {
	checkTri(scalar.IsComplex[T](), ul, tA, d)
	if n < 0 {
		panic(nLT0)
	}
	if k < 0 {
		panic(kLT0)
	}
	if lda < k+1 {
		panic(badLdA)
	}
	if incX == 0 {
		panic(zeroIncX)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+k+1 {
		panic(shortA)
	}
	if short(n, incX, len(x)) {
		panic(shortX)
	}
	cn, ck, clda, cx := fit(op, "n", n), fit(op, "k", k), fit(op, "lda", lda), fit(op, "incX", incX)
	o := orderOf[T](tA == blas.ConjTrans)
	f := pick(o, clib.Tbmv[T], clib.TbmvRow[T])
	if solve {
		f = pick(o, clib.Tbsv[T], clib.TbsvRow[T])
	}
	policy.Calls.Add(1)
	f(o.uplo(ul), o.op(tA), diag(d), cn, ck, clib.Ptr(a), clda, clib.Ptr(x), cx)
}

// tpxv is tpmv (solve false) and tpsv (solve true). Row-major packed
// upper storage (row by row) is the column-major packed lower storage of
// A^T, and the other way round.
func tpxv[T scalar.Type](op string, solve bool, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int) {
	checkTri(false, ul, tA, d) // uplo first for real and complex
	if n < 0 {
		panic(nLT0)
	}
	if incX == 0 {
		panic(zeroIncX)
	}
	if n == 0 {
		return
	}
	if len(ap) < n*(n+1)/2 {
		panic(shortAP)
	}
	if short(n, incX, len(x)) {
		panic(shortX)
	}
	cn, cx := fit(op, "n", n), fit(op, "incX", incX)
	o := orderOf[T](tA == blas.ConjTrans)
	f := pick(o, clib.Tpmv[T], clib.TpmvRow[T])
	if solve {
		f = pick(o, clib.Tpsv[T], clib.TpsvRow[T])
	}
	policy.Calls.Add(1)
	f(o.uplo(ul), o.op(tA), diag(d), cn, clib.Ptr(ap), clib.Ptr(x), cx)
}

// checkMV runs the checks shared by hemv, hbmv and hpmv after their own,
// and reports whether there is anything to do.
func checkMV[T scalar.Type](n int, alpha T, x []T, incX int, beta T, y []T, incY int) bool {
	if short(n, incX, len(x)) {
		panic(shortX)
	}
	if short(n, incY, len(y)) {
		panic(shortY)
	}
	return alpha != 0 || beta != 1
}

// hemv is symv for real types and hemv for complex ones (clib's Hemv
// calls ?symv for real types, and so on for the other Hermitian
// families): A^T = A for a symmetric A, but conj(A) for a Hermitian one,
// which goes row-major.
func hemv[T scalar.Type](op string, ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	checkUplo(ul)
	if n < 0 {
		panic(nLT0)
	}
	if lda < max(1, n) {
		panic(badLdA)
	}
	checkIncs(incX, incY)
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+n {
		panic(shortA)
	}
	if !checkMV(n, alpha, x, incX, beta, y, incY) {
		return
	}
	if !scalar.IsComplex[T]() && blasgo.RealSymvOverRead {
		policy.Small.Add(1)
		switch al := any(alpha).(type) {
		case float32:
			ref.Ssymv(ul, n, al, any(a).([]float32), lda, any(x).([]float32), incX, any(beta).(float32), any(y).([]float32), incY)
		case float64:
			ref.Dsymv(ul, n, al, any(a).([]float64), lda, any(x).([]float64), incX, any(beta).(float64), any(y).([]float64), incY)
		}
		return
	}
	cn, clda, cx, cy := fit(op, "n", n), fit(op, "lda", lda), fit(op, "incX", incX), fit(op, "incY", incY)
	o := orderOf[T](true)
	policy.Calls.Add(1)
	// The complex kernels over-read x and y: see blasgo.OverReadSafe.
	blasgo.OverReadSafe[T](clib.Ptr(x), cx, n, clib.Ptr(y), cy, n, func(px unsafe.Pointer, ix int, py unsafe.Pointer, iy int) {
		pick(o, clib.Hemv[T], clib.HemvRow[T])(o.uplo(ul), cn, alpha, clib.Ptr(a), clda, px, ix, beta, py, iy)
	})
}

// hbmv is sbmv for real types and hbmv for complex ones.
func hbmv[T scalar.Type](op string, ul blas.Uplo, n, k int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	checkUplo(ul)
	if n < 0 {
		panic(nLT0)
	}
	if k < 0 {
		panic(kLT0)
	}
	if lda < k+1 {
		panic(badLdA)
	}
	checkIncs(incX, incY)
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+k+1 {
		panic(shortA)
	}
	if !checkMV(n, alpha, x, incX, beta, y, incY) {
		return
	}
	cn, ck, clda := fit(op, "n", n), fit(op, "k", k), fit(op, "lda", lda)
	cx, cy := fit(op, "incX", incX), fit(op, "incY", incY)
	o := orderOf[T](true)
	policy.Calls.Add(1)
	pick(o, clib.Hbmv[T], clib.HbmvRow[T])(o.uplo(ul), cn, ck, alpha, clib.Ptr(a), clda, clib.Ptr(x), cx, beta, clib.Ptr(y), cy)
}

// hpmv is spmv for real types and hpmv for complex ones.
func hpmv[T scalar.Type](op string, ul blas.Uplo, n int, alpha T, ap []T, x []T, incX int, beta T, y []T, incY int) {
	checkUplo(ul)
	if n < 0 {
		panic(nLT0)
	}
	checkIncs(incX, incY)
	if n == 0 {
		return
	}
	if len(ap) < n*(n+1)/2 {
		panic(shortAP)
	}
	if !checkMV(n, alpha, x, incX, beta, y, incY) {
		return
	}
	cn, cx, cy := fit(op, "n", n), fit(op, "incX", incX), fit(op, "incY", incY)
	o := orderOf[T](true)
	policy.Calls.Add(1)
	pick(o, clib.Hpmv[T], clib.HpmvRow[T])(o.uplo(ul), cn, alpha, clib.Ptr(ap), clib.Ptr(x), cx, beta, clib.Ptr(y), cy)
}

// ger is ger for real types, geru (conj false) or gerc (conj true) for
// complex ones. Row-major A += alpha x y^T is column-major A^T += alpha
// y x^T; gerc's A^T += alpha conj(y) x^T has no column-major form.
func ger[T scalar.Type](op string, conj bool, m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) {
	if !checkGeneral(m, n, lda, incX, incY) {
		return
	}
	if short(m, incX, len(x)) {
		panic(shortX)
	}
	if short(n, incY, len(y)) {
		panic(shortY)
	}
	if len(a) < lda*(m-1)+n {
		panic(shortA)
	}
	if alpha == 0 {
		return
	}
	cm, cn, clda := fit(op, "m", m), fit(op, "n", n), fit(op, "lda", lda)
	cx, cy := fit(op, "incX", incX), fit(op, "incY", incY)
	policy.Calls.Add(1)
	if orderOf[T](conj) {
		clib.GercRow[T](cm, cn, alpha, clib.Ptr(x), cx, clib.Ptr(y), cy, clib.Ptr(a), clda)
		return
	}
	clib.Geru[T](cn, cm, alpha, clib.Ptr(y), cy, clib.Ptr(x), cx, clib.Ptr(a), clda)
}

// checkRank1 runs her's and hpr's checks of x (before a's, unlike hemv's)
// and reports whether there is anything to do.
func checkRank1(n, lenX, incX int) bool {
	if n == 0 {
		return false
	}
	if short(n, incX, lenX) {
		panic(shortX)
	}
	return true
}

// her is syr for real types and her for complex ones (alpha real).
func her[T scalar.Type](op string, ul blas.Uplo, n int, alpha float64, x []T, incX int, a []T, lda int) {
	checkUplo(ul)
	if n < 0 {
		panic(nLT0)
	}
	if lda < max(1, n) {
		panic(badLdA)
	}
	if incX == 0 {
		panic(zeroIncX)
	}
	if !checkRank1(n, len(x), incX) {
		return
	}
	if len(a) < lda*(n-1)+n {
		panic(shortA)
	}
	if alpha == 0 {
		return
	}
	cn, clda, cx := fit(op, "n", n), fit(op, "lda", lda), fit(op, "incX", incX)
	o := orderOf[T](true)
	policy.Calls.Add(1)
	pick(o, clib.Her[T], clib.HerRow[T])(o.uplo(ul), cn, alpha, clib.Ptr(x), cx, clib.Ptr(a), clda)
}

// hpr is spr for real types and hpr for complex ones (alpha real).
func hpr[T scalar.Type](op string, ul blas.Uplo, n int, alpha float64, x []T, incX int, ap []T) {
	checkUplo(ul)
	if n < 0 {
		panic(nLT0)
	}
	if incX == 0 {
		panic(zeroIncX)
	}
	if !checkRank1(n, len(x), incX) {
		return
	}
	if len(ap) < n*(n+1)/2 {
		panic(shortAP)
	}
	if alpha == 0 {
		return
	}
	cn, cx := fit(op, "n", n), fit(op, "incX", incX)
	o := orderOf[T](true)
	policy.Calls.Add(1)
	pick(o, clib.Hpr[T], clib.HprRow[T])(o.uplo(ul), cn, alpha, clib.Ptr(x), cx, clib.Ptr(ap))
}

// checkRank2 runs the checks of her2 and hpr2 on x and y and reports
// whether there is anything to do.
func checkRank2(n, lenX, incX, lenY, incY int) bool {
	if n == 0 {
		return false
	}
	if short(n, incX, lenX) {
		panic(shortX)
	}
	if short(n, incY, lenY) {
		panic(shortY)
	}
	return true
}

// her2 is syr2 for real types and her2 for complex ones.
func her2[T scalar.Type](op string, ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) {
	checkUplo(ul)
	if n < 0 {
		panic(nLT0)
	}
	if lda < max(1, n) {
		panic(badLdA)
	}
	checkIncs(incX, incY)
	if !checkRank2(n, len(x), incX, len(y), incY) {
		return
	}
	if len(a) < lda*(n-1)+n {
		panic(shortA)
	}
	if alpha == 0 {
		return
	}
	cn, clda, cx, cy := fit(op, "n", n), fit(op, "lda", lda), fit(op, "incX", incX), fit(op, "incY", incY)
	o := orderOf[T](true)
	policy.Calls.Add(1)
	pick(o, clib.Her2[T], clib.Her2Row[T])(o.uplo(ul), cn, alpha, clib.Ptr(x), cx, clib.Ptr(y), cy, clib.Ptr(a), clda)
}

// hpr2 is spr2 for real types and hpr2 for complex ones.
func hpr2[T scalar.Type](op string, ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, ap []T) {
	checkUplo(ul)
	if n < 0 {
		panic(nLT0)
	}
	checkIncs(incX, incY)
	if !checkRank2(n, len(x), incX, len(y), incY) {
		return
	}
	if len(ap) < n*(n+1)/2 {
		panic(shortAP)
	}
	if alpha == 0 {
		return
	}
	cn, cx, cy := fit(op, "n", n), fit(op, "incX", incX), fit(op, "incY", incY)
	o := orderOf[T](true)
	policy.Calls.Add(1)
	pick(o, clib.Hpr2[T], clib.Hpr2Row[T])(o.uplo(ul), cn, alpha, clib.Ptr(x), cx, clib.Ptr(y), cy, clib.Ptr(ap))
}
