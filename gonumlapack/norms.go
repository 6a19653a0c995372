package gonumlapack

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
)

// Norms.

func checkNorm(norm lapack.MatrixNorm) {
	if norm != lapack.MaxRowSum && norm != lapack.MaxColumnSum && norm != lapack.Frobenius && norm != lapack.MaxAbs {
		panic(badNorm)
	}
}

// Dlange returns a norm of the m x n A: dlange on S = A^T with the
// transposed norm, no copy.
func (Implementation) Dlange(norm lapack.MatrixNorm, m, n int, a []float64, lda int, work []float64) float64 {
	checkNorm(norm)
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
	case norm == lapack.MaxColumnSum && len(work) < n:
		panic(shortWork)
	}
	fits(m, n, lda)
	policy.Lapack.Add(1)
	return clib.Lange[float64](normT(norm), n, m, clib.Ptr(a), lda, clib.Ptr(work))
}

// Dlantr returns a norm of the m x n trapezoidal A: dlantr on S = A^T
// with the other triangle and the transposed norm, no copy.
func (Implementation) Dlantr(norm lapack.MatrixNorm, ul blas.Uplo, diag blas.Diag, m, n int, a []float64, lda int, work []float64) float64 {
	checkNorm(norm)
	checkUplo(ul)
	checkDiag(diag)
	switch {
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
	case norm == lapack.MaxColumnSum && len(work) < n:
		panic(shortWork)
	}
	fits(m, n, lda)
	policy.Lapack.Add(1)
	return clib.Lantr[float64](normT(norm), uploT(ul), diagChar(diag), n, m, clib.Ptr(a), lda, clib.Ptr(work))
}

// Dlansy returns a norm of the symmetric A: dlansy with the other
// triangle, no copy.
func (Implementation) Dlansy(norm lapack.MatrixNorm, ul blas.Uplo, n int, a []float64, lda int, work []float64) float64 {
	checkNorm(norm)
	checkUplo(ul)
	switch {
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
	case (norm == lapack.MaxColumnSum || norm == lapack.MaxRowSum) && len(work) < n:
		panic(shortWork)
	}
	fits(n, lda)
	policy.Lapack.Add(1)
	return clib.Lansy[float64](byte(norm), uploT(ul), n, clib.Ptr(a), lda, clib.Ptr(work))
}

// Permutations.

// Dlapmr permutes the rows of the m x n X by k: dlapmt (columns) on S,
// no copy.
func (Implementation) Dlapmr(forward bool, m, n int, x []float64, ldx int, k []int) {
	lapm(forward, m, n, x, ldx, k, m, clib.Lapmt[float64])
}

// Dlapmt permutes the columns of the m x n X by k: dlapmr (rows) on S,
// no copy.
func (Implementation) Dlapmt(forward bool, m, n int, x []float64, ldx int, k []int) {
	lapm(forward, m, n, x, ldx, k, n, clib.Lapmr[float64])
}

// lapm is Dlapmr (lenK m) and Dlapmt (lenK n): gonum's checks, then f,
// the other permutation, on the transposed storage.
func lapm(forward bool, m, n int, x []float64, ldx int, k []int, lenK int, f func(forward int, m, n int, x unsafe.Pointer, ldx int, k unsafe.Pointer)) {
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
	fits(m, n, ldx)
	p := intsOf(k, 1)
	policy.Lapack.Add(1)
	f(boolInt(forward), n, m, clib.Ptr(x), ldx, p.Ptr())
	p.Put()
}
