package cblas

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"

	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/views"
)

// Gonum implements gonum's row-major BLAS interfaces (blas.Float32,
// blas.Float64, blas.Complex64 and blas.Complex128) on the C library, so
// that
//
//	blas64.Use(cblas.Gonum{})
//	cblas128.Use(cblas.Gonum{})
//
// make gonum/mat (and anything else written against gonum/blas) run on
// OpenBLAS.
//
// Nothing is copied. A row-major r x c matrix with stride ld, read in
// column-major order, is its c x r transpose with the same ld, so each call
// becomes the column-major call on the transposes:
//
//	row-major C = op(A) op(B)  is  column-major C^T = op(B)^T op(A)^T
//	                           (clib.Gemm(tB, tA, n, m, k, b, a), same flags)
//	symmetric and triangular:  Upper <-> Lower;  symm, trmm, trsm: Left <-> Right
//	gemv, gbmv, trmv, ...:     NoTrans <-> Trans (band widths kL <-> kU)
//	syrk, syr2k:               NoTrans <-> Trans;  herk, her2k: NoTrans <-> ConjTrans
//
// The complex cases that column-major CBLAS cannot express without
// conjugating data (op(A) = A^H in gemv, gbmv, trmv, trsv, tbmv, tbsv, tpmv
// and tpsv, where the transpose would need conj(A^T); gerc; and every
// Hermitian Level 2 routine, hemv, hbmv, hpmv, her, hpr, her2 and hpr2,
// since a Hermitian matrix's transpose is its conjugate) go to CBLAS's
// row-major entry points instead, which OpenBLAS serves with conjugating
// kernels, again without copies. Level 3 needs no such case.
//
// Arguments are checked as gonum's own implementation (gonum.org/v1/gonum/
// blas/gonum) checks them, in the same order, and bad ones panic with
// gonum's messages ("blas: n < 0", "blas: insufficient length of x", ...).
// gonum's interface has no error result, so a size, increment or leading
// dimension that does not fit the BLAS library's integer (see IntBits)
// panics too, with an error matching layout.ErrOverflow. Empty problems
// return without calling C; every call into C counts in Stats.Calls.
//
// Results agree with gonum's up to rounding (gonum's testblas suite runs
// against Gonum in this package's tests, in full). Drotg and Srotg are
// computed in Go by gonum's safely scaled reference whatever library is
// linked (OpenBLAS 0.3.21's ?rotg overflows near the ends of the
// floating-point range: OpenMathLib/OpenBLAS#4130).
//
// Gonum holds no state; its methods may be called concurrently.
type Gonum struct{}

var (
	_ blas.Float32    = Gonum{}
	_ blas.Float64    = Gonum{}
	_ blas.Complex64  = Gonum{}
	_ blas.Complex128 = Gonum{}
)

// Panic messages, gonum's (blas/gonum/errors.go): part of its API.
const (
	gnZeroIncX = "blas: zero x index increment"
	gnZeroIncY = "blas: zero y index increment"

	gnMLT0  = "blas: m < 0"
	gnNLT0  = "blas: n < 0"
	gnKLT0  = "blas: k < 0"
	gnKLLT0 = "blas: kL < 0"
	gnKULT0 = "blas: kU < 0"

	gnBadUplo      = "blas: illegal triangle"
	gnBadTranspose = "blas: illegal transpose"
	gnBadDiag      = "blas: illegal diagonal"
	gnBadSide      = "blas: illegal side"

	gnBadLdA = "blas: bad leading dimension of A"
	gnBadLdB = "blas: bad leading dimension of B"
	gnBadLdC = "blas: bad leading dimension of C"

	gnShortX  = "blas: insufficient length of x"
	gnShortY  = "blas: insufficient length of y"
	gnShortAP = "blas: insufficient length of ap"
	gnShortA  = "blas: insufficient length of a"
	gnShortB  = "blas: insufficient length of b"
	gnShortC  = "blas: insufficient length of c"
)

// gnReal is the real element types, for the routines CBLAS has only for
// them (rotg, rotmg, rotm).
type gnReal interface{ float32 | float64 }

// gnPtr returns &s[0], or nil for an empty slice.
func gnPtr[T any](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

// gnInt converts v for C and panics when it does not fit (see Gonum).
func gnInt(op, arg string, v int) int {
	c, err := blasInt(op, arg, "", v)
	if err != nil {
		panic(err)
	}
	return c
}

// gnShort reports whether a slice of length l is too short for n elements
// with increment inc (gonum's test, for either sign of inc).
func gnShort(n, inc, l int) bool {
	return (inc > 0 && l <= (n-1)*inc) || (inc < 0 && l <= (1-n)*inc)
}

func gnCheckUplo(ul blas.Uplo) {
	if ul != blas.Upper && ul != blas.Lower {
		panic(gnBadUplo)
	}
}

func gnCheckTrans(t blas.Transpose) {
	if t != blas.NoTrans && t != blas.Trans && t != blas.ConjTrans {
		panic(gnBadTranspose)
	}
}

func gnCheckDiag(d blas.Diag) {
	if d != blas.NonUnit && d != blas.Unit {
		panic(gnBadDiag)
	}
}

func gnCheckSide(s blas.Side) {
	if s != blas.Left && s != blas.Right {
		panic(gnBadSide)
	}
}

// gnCheckTri checks a triangular routine's flags in gonum's order, which
// differs between its real (uplo first) and complex (trans first) code.
func gnCheckTri(transFirst bool, ul blas.Uplo, tA blas.Transpose, d blas.Diag) {
	if transFirst {
		gnCheckTrans(tA)
		gnCheckUplo(ul)
	} else {
		gnCheckUplo(ul)
		gnCheckTrans(tA)
	}
	gnCheckDiag(d)
}

// gnFlipUplo is the triangle of the column-major transpose: the stored
// upper triangle of a row-major matrix is the lower one of its transpose.
func gnFlipUplo(ul blas.Uplo) clib.Uplo {
	if ul == blas.Upper {
		return clib.Lower
	}
	return clib.Upper
}

// gnUplo is ul unchanged, for the row-major entry points.
func gnUplo(ul blas.Uplo) clib.Uplo {
	if ul == blas.Upper {
		return clib.Upper
	}
	return clib.Lower
}

// gnFlipSide is the side of the transposed product: (A B)^T = B^T A^T.
func gnFlipSide(s blas.Side) clib.Side {
	if s == blas.Left {
		return clib.Right
	}
	return clib.Left
}

func gnDiag(d blas.Diag) clib.Diag {
	if d == blas.Unit {
		return clib.Unit
	}
	return clib.NonUnit
}

// gnTrans is t unchanged (ConjTrans is Trans for real types).
func gnTrans[T Scalar](t blas.Transpose) clib.Trans {
	switch {
	case t == blas.NoTrans:
		return clib.NoTrans
	case t == blas.ConjTrans && views.IsComplex[T]():
		return clib.ConjTrans
	}
	return clib.DoTrans
}

// gnFlipTrans maps the op of a row-major matrix-vector product to the op
// of its column-major transpose: NoTrans <-> Trans. It must not be called
// with ConjTrans on complex types (that case has no column-major form).
func gnFlipTrans(t blas.Transpose) clib.Trans {
	if t == blas.NoTrans {
		return clib.DoTrans
	}
	return clib.NoTrans
}

// Level 1.

func gnDot[T Scalar](op string, conjX bool, n int, x []T, incX int, y []T, incY int) T {
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if n <= 0 {
		if n == 0 {
			return 0
		}
		panic(gnNLT0)
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	if gnShort(n, incY, len(y)) {
		panic(gnShortY)
	}
	if blasgo.ComplexStridedDot[T](n, incX, incY) { // OpenBLAS over-reads: see blasgo.ComplexStridedDot
		policy.Small.Add(1)
		return blasgo.Dot[T](n, blasgo.First0[T](gnPtr(x), n, incX), incX, blasgo.First0[T](gnPtr(y), n, incY), incY, conjX)
	}
	cn, cx, cy := gnInt(op, "n", n), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if conjX {
		return clib.Dotc[T](cn, gnPtr(x), cx, gnPtr(y), cy)
	}
	return clib.Dot[T](cn, gnPtr(x), cx, gnPtr(y), cy)
}

// gnCheckDsdot is gnDot's checks, for the mixed-precision dots; it reports
// whether there is anything to compute.
func gnCheckDsdot(n int, x []float32, incX int, y []float32, incY int) bool {
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if n <= 0 {
		if n == 0 {
			return false
		}
		panic(gnNLT0)
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	if gnShort(n, incY, len(y)) {
		panic(gnShortY)
	}
	return true
}

// gnNrm2 returns 0 for a negative incX, as gonum does.
func gnNrm2[T Scalar](op string, n int, x []T, incX int) float64 {
	if incX < 1 {
		if incX == 0 {
			panic(gnZeroIncX)
		}
		return 0
	}
	if len(x) <= (n-1)*incX {
		panic(gnShortX)
	}
	if n < 1 {
		if n == 0 {
			return 0
		}
		panic(gnNLT0)
	}
	cn, cx := gnInt(op, "n", n), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	return clib.Nrm2[T](cn, gnPtr(x), cx)
}

// gnAsum returns 0 for a negative incX, as gonum does.
func gnAsum[T Scalar](op string, n int, x []T, incX int) float64 {
	if n < 0 {
		panic(gnNLT0)
	}
	if incX < 1 {
		if incX == 0 {
			panic(gnZeroIncX)
		}
		return 0
	}
	if len(x) <= (n-1)*incX {
		panic(gnShortX)
	}
	if n == 0 {
		return 0
	}
	cn, cx := gnInt(op, "n", n), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	return blasgo.AsumC[T](cn, gnPtr(x), cx)
}

// gnIamax returns -1 for n == 0 or a negative incX, as gonum does.
func gnIamax[T Scalar](op string, n int, x []T, incX int) int {
	if incX < 1 {
		if incX == 0 {
			panic(gnZeroIncX)
		}
		return -1
	}
	if len(x) <= (n-1)*incX {
		panic(gnShortX)
	}
	if n < 1 {
		if n == 0 {
			return -1
		}
		panic(gnNLT0)
	}
	cn, cx := gnInt(op, "n", n), gnInt(op, "incX", incX)
	policy.Calls.Add(2)
	return blasgo.IamaxC[T](cn, gnPtr(x), cx)
}

// gnCheckPair runs the checks of the two-vector routines (swap, copy,
// axpy, rot, rotm) and reports whether there is anything to do.
func gnCheckPair(n, lenX, incX, lenY, incY int) bool {
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if n < 1 {
		if n == 0 {
			return false
		}
		panic(gnNLT0)
	}
	if gnShort(n, incX, lenX) {
		panic(gnShortX)
	}
	if gnShort(n, incY, lenY) {
		panic(gnShortY)
	}
	return true
}

const (
	gnSwap = iota
	gnCopy
)

func gnPair[T Scalar](op string, which int, n int, x []T, incX int, y []T, incY int) {
	if !gnCheckPair(n, len(x), incX, len(y), incY) {
		return
	}
	cn, cx, cy := gnInt(op, "n", n), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if which == gnSwap {
		clib.Swap[T](cn, gnPtr(x), cx, gnPtr(y), cy)
	} else {
		clib.Copy[T](cn, gnPtr(x), cx, gnPtr(y), cy)
	}
}

func gnAxpy[T Scalar](op string, n int, alpha T, x []T, incX int, y []T, incY int) {
	if !gnCheckPair(n, len(x), incX, len(y), incY) || alpha == 0 {
		return
	}
	if incX == incY && gnPtr(x) == gnPtr(y) {
		// y += alpha y element by element, in Go: OpenBLAS's complex axpy
		// kernels store y's real part before they read x's (see Axpy).
		inc := max(incX, -incX)
		policy.Small.Add(1)
		blasgo.Axpy(n, alpha, gnPtr(x), inc, gnPtr(y), inc, false)
		return
	}
	cn, cx, cy := gnInt(op, "n", n), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	clib.Axpy[T](cn, alpha, gnPtr(x), cx, gnPtr(y), cy)
}

// gnCheckScal runs the checks of scal; a negative incX is a no-op in
// gonum.
func gnCheckScal(n, lenX, incX int) bool {
	if incX < 1 {
		if incX == 0 {
			panic(gnZeroIncX)
		}
		return false
	}
	if n < 1 {
		if n == 0 {
			return false
		}
		panic(gnNLT0)
	}
	if (n-1)*incX >= lenX {
		panic(gnShortX)
	}
	return true
}

func gnScal[T Scalar](op string, n int, alpha T, x []T, incX int) {
	if !gnCheckScal(n, len(x), incX) {
		return
	}
	if alpha != alpha { // a NaN part: see Scal
		policy.Small.Add(1)
		blasgo.Scal(n, alpha, gnPtr(x), incX)
		return
	}
	cn, cx := gnInt(op, "n", n), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	clib.Scal[T](cn, alpha, gnPtr(x), cx)
}

// gnRscal scales complex x by a real alpha.
func gnRscal[T Scalar](op string, n int, alpha float64, x []T, incX int) {
	if !gnCheckScal(n, len(x), incX) {
		return
	}
	cn, cx := gnInt(op, "n", n), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	clib.Rscal[T](cn, alpha, gnPtr(x), cx)
}

func gnRot[T gnReal](op string, n int, x []T, incX int, y []T, incY int, c, s T) {
	if !gnCheckPair(n, len(x), incX, len(y), incY) {
		return
	}
	cn, cx, cy := gnInt(op, "n", n), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	clib.Rot[T](cn, gnPtr(x), cx, gnPtr(y), cy, float64(c), float64(s))
}

// gnRotm applies the modified Givens rotation (flag, h), h = [h11 h21 h12
// h22] as BLAS's param[1:5]. Like gonum, it does nothing for the identity
// or a flag BLAS does not define.
func gnRotm[T gnReal](op string, n int, x []T, incX int, y []T, incY int, flag blas.Flag, h [4]T) {
	if !gnCheckPair(n, len(x), incX, len(y), incY) {
		return
	}
	switch flag {
	case blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		return
	}
	p := [5]T{T(flag), h[0], h[1], h[2], h[3]}
	cn, cx, cy := gnInt(op, "n", n), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	clib.Rotm[T](cn, gnPtr(x), cx, gnPtr(y), cy, unsafe.Pointer(&p[0]))
}

// gnRotg is computed in Go by gonum's reference implementation (safely
// scaled, as reference BLAS 3.10), whatever library is linked: a rotation
// setup is four scalars, not worth a cgo call, and OpenBLAS 0.3.21's ?rotg
// is not scaled (r = Inf for Drotg(4.49e307, 2.2e-308); reference r =
// 4.49e307, c = 1: OpenMathLib/OpenBLAS#4130).
func gnRotg[T gnReal](a, b T) (c, s, r, z T) {
	policy.Small.Add(1)
	switch p := any(&a).(type) {
	case *float32:
		c32, s32, r32, z32 := impl.Srotg(*p, any(b).(float32))
		return T(c32), T(s32), T(r32), T(z32)
	case *float64:
		c64, s64, r64, z64 := impl.Drotg(*p, any(b).(float64))
		return T(c64), T(s64), T(r64), T(z64)
	}
	panic("unreachable")
}

// gnRotmg returns BLAS's param: the flag and [h11 h21 h12 h22], with the
// entries the flag leaves implicit zero (as gonum returns them).
func gnRotmg[T gnReal](d1, d2, b1, b2 T) (flag blas.Flag, h [4]T, rd1, rd2, rb1 T) {
	var p [5]T
	policy.Calls.Add(1)
	clib.Rotmg[T](unsafe.Pointer(&d1), unsafe.Pointer(&d2), unsafe.Pointer(&b1), b2, unsafe.Pointer(&p[0]))
	return blas.Flag(p[0]), [4]T{p[1], p[2], p[3], p[4]}, d1, d2, b1
}

// Level 2.

func gnGemv[T Scalar](op string, tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	gnCheckTrans(tA)
	if m < 0 {
		panic(gnMLT0)
	}
	if n < 0 {
		panic(gnNLT0)
	}
	if lda < max(1, n) {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if m == 0 || n == 0 {
		return
	}
	lenX, lenY := m, n
	if tA == blas.NoTrans {
		lenX, lenY = n, m
	}
	cplx := views.IsComplex[T]()
	if cplx && len(a) < lda*(m-1)+n { // gonum's complex code checks a first
		panic(gnShortA)
	}
	if gnShort(lenX, incX, len(x)) {
		panic(gnShortX)
	}
	if gnShort(lenY, incY, len(y)) {
		panic(gnShortY)
	}
	if !cplx && len(a) < lda*(m-1)+n {
		panic(gnShortA)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	cm, cn, clda := gnInt(op, "m", m), gnInt(op, "n", n), gnInt(op, "lda", lda)
	cx, cy := gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	// OpenBLAS's complex gemv kernels over-read: see blasgo.OverReadSafe.
	blasgo.OverReadSafe[T](gnPtr(x), cx, lenX, gnPtr(y), cy, lenY, func(px unsafe.Pointer, ix int, py unsafe.Pointer, iy int) {
		if cplx && tA == blas.ConjTrans {
			// A^H x: the column-major reading would need conj(A^T).
			clib.GemvRow[T](clib.ConjTrans, cm, cn, alpha, gnPtr(a), clda, px, ix, beta, py, iy)
			return
		}
		clib.Gemv[T](gnFlipTrans(tA), cn, cm, alpha, gnPtr(a), clda, px, ix, beta, py, iy)
	})
}

// gnGbmv: row-major band storage (a[i*lda+j-i+kL] = A[i][j]) is the
// column-major band storage of A^T with the band widths swapped.
func gnGbmv[T Scalar](op string, tA blas.Transpose, m, n, kL, kU int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	gnCheckTrans(tA)
	if m < 0 {
		panic(gnMLT0)
	}
	if n < 0 {
		panic(gnNLT0)
	}
	if kL < 0 {
		panic(gnKLLT0)
	}
	if kU < 0 {
		panic(gnKULT0)
	}
	if lda < kL+kU+1 {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if m == 0 || n == 0 {
		return
	}
	if len(a) < lda*(min(m, n+kL)-1)+kL+kU+1 {
		panic(gnShortA)
	}
	lenX, lenY := m, n
	if tA == blas.NoTrans {
		lenX, lenY = n, m
	}
	if gnShort(lenX, incX, len(x)) {
		panic(gnShortX)
	}
	if gnShort(lenY, incY, len(y)) {
		panic(gnShortY)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	cm, cn, ckl, cku := gnInt(op, "m", m), gnInt(op, "n", n), gnInt(op, "kL", kL), gnInt(op, "kU", kU)
	clda, cx, cy := gnInt(op, "lda", lda), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if views.IsComplex[T]() && tA == blas.ConjTrans {
		clib.GbmvRow[T](clib.ConjTrans, cm, cn, ckl, cku, alpha, gnPtr(a), clda, gnPtr(x), cx, beta, gnPtr(y), cy)
		return
	}
	clib.Gbmv[T](gnFlipTrans(tA), cn, cm, cku, ckl, alpha, gnPtr(a), clda, gnPtr(x), cx, beta, gnPtr(y), cy)
}

// gnTrxv is trmv (solve false) and trsv (solve true).
func gnTrxv[T Scalar](op string, solve bool, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []T, lda int, x []T, incX int) {
	cplx := views.IsComplex[T]()
	gnCheckTri(cplx, ul, tA, d)
	if n < 0 {
		panic(gnNLT0)
	}
	if lda < max(1, n) {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+n {
		panic(gnShortA)
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	cn, clda, cx := gnInt(op, "n", n), gnInt(op, "lda", lda), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	switch {
	case cplx && tA == blas.ConjTrans && solve:
		clib.TrsvRow[T](gnUplo(ul), clib.ConjTrans, gnDiag(d), cn, gnPtr(a), clda, gnPtr(x), cx)
	case cplx && tA == blas.ConjTrans:
		clib.TrmvRow[T](gnUplo(ul), clib.ConjTrans, gnDiag(d), cn, gnPtr(a), clda, gnPtr(x), cx)
	case solve:
		clib.Trsv[T](gnFlipUplo(ul), gnFlipTrans(tA), gnDiag(d), cn, gnPtr(a), clda, gnPtr(x), cx)
	default:
		clib.Trmv[T](gnFlipUplo(ul), gnFlipTrans(tA), gnDiag(d), cn, gnPtr(a), clda, gnPtr(x), cx)
	}
}

// gnTbxv is tbmv (solve false) and tbsv (solve true). Row-major upper band
// storage (a[i*lda+j-i] = A[i][j]) is the column-major lower band storage
// of A^T, and the other way round.
func gnTbxv[T Scalar](op string, solve bool, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []T, lda int, x []T, incX int) {
	cplx := views.IsComplex[T]()
	gnCheckTri(cplx, ul, tA, d)
	if n < 0 {
		panic(gnNLT0)
	}
	if k < 0 {
		panic(gnKLT0)
	}
	if lda < k+1 {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+k+1 {
		panic(gnShortA)
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	cn, ck, clda, cx := gnInt(op, "n", n), gnInt(op, "k", k), gnInt(op, "lda", lda), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	switch {
	case cplx && tA == blas.ConjTrans && solve:
		clib.TbsvRow[T](gnUplo(ul), clib.ConjTrans, gnDiag(d), cn, ck, gnPtr(a), clda, gnPtr(x), cx)
	case cplx && tA == blas.ConjTrans:
		clib.TbmvRow[T](gnUplo(ul), clib.ConjTrans, gnDiag(d), cn, ck, gnPtr(a), clda, gnPtr(x), cx)
	case solve:
		clib.Tbsv[T](gnFlipUplo(ul), gnFlipTrans(tA), gnDiag(d), cn, ck, gnPtr(a), clda, gnPtr(x), cx)
	default:
		clib.Tbmv[T](gnFlipUplo(ul), gnFlipTrans(tA), gnDiag(d), cn, ck, gnPtr(a), clda, gnPtr(x), cx)
	}
}

// gnTpxv is tpmv (solve false) and tpsv (solve true). Row-major packed
// upper storage (row by row) is the column-major packed lower storage of
// A^T, and the other way round.
func gnTpxv[T Scalar](op string, solve bool, ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []T, x []T, incX int) {
	gnCheckTri(false, ul, tA, d) // uplo first for real and complex
	if n < 0 {
		panic(gnNLT0)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if n == 0 {
		return
	}
	if len(ap) < n*(n+1)/2 {
		panic(gnShortAP)
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	cn, cx := gnInt(op, "n", n), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	switch cplx := views.IsComplex[T](); {
	case cplx && tA == blas.ConjTrans && solve:
		clib.TpsvRow[T](gnUplo(ul), clib.ConjTrans, gnDiag(d), cn, gnPtr(ap), gnPtr(x), cx)
	case cplx && tA == blas.ConjTrans:
		clib.TpmvRow[T](gnUplo(ul), clib.ConjTrans, gnDiag(d), cn, gnPtr(ap), gnPtr(x), cx)
	case solve:
		clib.Tpsv[T](gnFlipUplo(ul), gnFlipTrans(tA), gnDiag(d), cn, gnPtr(ap), gnPtr(x), cx)
	default:
		clib.Tpmv[T](gnFlipUplo(ul), gnFlipTrans(tA), gnDiag(d), cn, gnPtr(ap), gnPtr(x), cx)
	}
}

// gnCheckMV runs the checks shared by symv/hemv, sbmv/hbmv and spmv/hpmv
// after their own, and reports whether there is anything to do.
func gnCheckMV[T Scalar](n int, alpha T, x []T, incX int, beta T, y []T, incY int) bool {
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	if gnShort(n, incY, len(y)) {
		panic(gnShortY)
	}
	return alpha != 0 || beta != 1
}

// gnHemv is symv for real types and hemv for complex ones.
func gnHemv[T Scalar](op string, ul blas.Uplo, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	gnCheckUplo(ul)
	if n < 0 {
		panic(gnNLT0)
	}
	if lda < max(1, n) {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+n {
		panic(gnShortA)
	}
	if !gnCheckMV(n, alpha, x, incX, beta, y, incY) {
		return
	}
	if !views.IsComplex[T]() && blasgo.RealSymvOverRead { // see Symv
		policy.Small.Add(1)
		switch al := any(alpha).(type) {
		case float32:
			impl.Ssymv(ul, n, al, any(a).([]float32), lda, any(x).([]float32), incX, any(beta).(float32), any(y).([]float32), incY)
		case float64:
			impl.Dsymv(ul, n, al, any(a).([]float64), lda, any(x).([]float64), incX, any(beta).(float64), any(y).([]float64), incY)
		}
		return
	}
	cn, clda, cx, cy := gnInt(op, "n", n), gnInt(op, "lda", lda), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if views.IsComplex[T]() {
		// A^T = conj(A): no column-major form. The kernels over-read x and
		// y: see blasgo.OverReadSafe.
		blasgo.OverReadSafe[T](gnPtr(x), cx, n, gnPtr(y), cy, n, func(px unsafe.Pointer, ix int, py unsafe.Pointer, iy int) {
			clib.HemvRow[T](gnUplo(ul), cn, alpha, gnPtr(a), clda, px, ix, beta, py, iy)
		})
		return
	}
	clib.Symv[T](gnFlipUplo(ul), cn, alpha, gnPtr(a), clda, gnPtr(x), cx, beta, gnPtr(y), cy)
}

// gnHbmv is sbmv for real types and hbmv for complex ones.
func gnHbmv[T Scalar](op string, ul blas.Uplo, n, k int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	gnCheckUplo(ul)
	if n < 0 {
		panic(gnNLT0)
	}
	if k < 0 {
		panic(gnKLT0)
	}
	if lda < k+1 {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(n-1)+k+1 {
		panic(gnShortA)
	}
	if !gnCheckMV(n, alpha, x, incX, beta, y, incY) {
		return
	}
	cn, ck, clda := gnInt(op, "n", n), gnInt(op, "k", k), gnInt(op, "lda", lda)
	cx, cy := gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if views.IsComplex[T]() {
		clib.HbmvRow[T](gnUplo(ul), cn, ck, alpha, gnPtr(a), clda, gnPtr(x), cx, beta, gnPtr(y), cy)
		return
	}
	clib.Sbmv[T](gnFlipUplo(ul), cn, ck, alpha, gnPtr(a), clda, gnPtr(x), cx, beta, gnPtr(y), cy)
}

// gnHpmv is spmv for real types and hpmv for complex ones.
func gnHpmv[T Scalar](op string, ul blas.Uplo, n int, alpha T, ap []T, x []T, incX int, beta T, y []T, incY int) {
	gnCheckUplo(ul)
	if n < 0 {
		panic(gnNLT0)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if n == 0 {
		return
	}
	if len(ap) < n*(n+1)/2 {
		panic(gnShortAP)
	}
	if !gnCheckMV(n, alpha, x, incX, beta, y, incY) {
		return
	}
	cn, cx, cy := gnInt(op, "n", n), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if views.IsComplex[T]() {
		clib.HpmvRow[T](gnUplo(ul), cn, alpha, gnPtr(ap), gnPtr(x), cx, beta, gnPtr(y), cy)
		return
	}
	clib.Spmv[T](gnFlipUplo(ul), cn, alpha, gnPtr(ap), gnPtr(x), cx, beta, gnPtr(y), cy)
}

// gnGer is ger for real types, geru (conjY false) or gerc (conjY true)
// for complex ones. Row-major A += alpha x y^T is column-major
// A^T += alpha y x^T.
func gnGer[T Scalar](op string, conjY bool, m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) {
	if m < 0 {
		panic(gnMLT0)
	}
	if n < 0 {
		panic(gnNLT0)
	}
	if lda < max(1, n) {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if m == 0 || n == 0 {
		return
	}
	if gnShort(m, incX, len(x)) {
		panic(gnShortX)
	}
	if gnShort(n, incY, len(y)) {
		panic(gnShortY)
	}
	if len(a) < lda*(m-1)+n {
		panic(gnShortA)
	}
	if alpha == 0 {
		return
	}
	cm, cn, clda := gnInt(op, "m", m), gnInt(op, "n", n), gnInt(op, "lda", lda)
	cx, cy := gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if conjY {
		// A^T += alpha conj(y) x^T: no column-major form.
		clib.GercRow[T](cm, cn, alpha, gnPtr(x), cx, gnPtr(y), cy, gnPtr(a), clda)
		return
	}
	clib.Geru[T](cn, cm, alpha, gnPtr(y), cy, gnPtr(x), cx, gnPtr(a), clda)
}

// gnHer is syr for real types and her for complex ones (alpha real).
func gnHer[T Scalar](op string, ul blas.Uplo, n int, alpha float64, x []T, incX int, a []T, lda int) {
	gnCheckUplo(ul)
	if n < 0 {
		panic(gnNLT0)
	}
	if lda < max(1, n) {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if n == 0 {
		return
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	if len(a) < lda*(n-1)+n {
		panic(gnShortA)
	}
	if alpha == 0 {
		return
	}
	cn, clda, cx := gnInt(op, "n", n), gnInt(op, "lda", lda), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	if views.IsComplex[T]() {
		clib.HerRow[T](gnUplo(ul), cn, alpha, gnPtr(x), cx, gnPtr(a), clda)
		return
	}
	clib.Her[T](gnFlipUplo(ul), cn, alpha, gnPtr(x), cx, gnPtr(a), clda) // ?syr
}

// gnHpr is spr for real types and hpr for complex ones (alpha real).
func gnHpr[T Scalar](op string, ul blas.Uplo, n int, alpha float64, x []T, incX int, ap []T) {
	gnCheckUplo(ul)
	if n < 0 {
		panic(gnNLT0)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if n == 0 {
		return
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	if len(ap) < n*(n+1)/2 {
		panic(gnShortAP)
	}
	if alpha == 0 {
		return
	}
	cn, cx := gnInt(op, "n", n), gnInt(op, "incX", incX)
	policy.Calls.Add(1)
	if views.IsComplex[T]() {
		clib.HprRow[T](gnUplo(ul), cn, alpha, gnPtr(x), cx, gnPtr(ap))
		return
	}
	clib.Hpr[T](gnFlipUplo(ul), cn, alpha, gnPtr(x), cx, gnPtr(ap)) // ?spr
}

// gnHer2 is syr2 for real types and her2 for complex ones.
func gnHer2[T Scalar](op string, ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int) {
	gnCheckUplo(ul)
	if n < 0 {
		panic(gnNLT0)
	}
	if lda < max(1, n) {
		panic(gnBadLdA)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if n == 0 {
		return
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	if gnShort(n, incY, len(y)) {
		panic(gnShortY)
	}
	if len(a) < lda*(n-1)+n {
		panic(gnShortA)
	}
	if alpha == 0 {
		return
	}
	cn, clda, cx, cy := gnInt(op, "n", n), gnInt(op, "lda", lda), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if views.IsComplex[T]() {
		clib.Her2Row[T](gnUplo(ul), cn, alpha, gnPtr(x), cx, gnPtr(y), cy, gnPtr(a), clda)
		return
	}
	clib.Syr2[T](gnFlipUplo(ul), cn, alpha, gnPtr(x), cx, gnPtr(y), cy, gnPtr(a), clda)
}

// gnHpr2 is spr2 for real types and hpr2 for complex ones.
func gnHpr2[T Scalar](op string, ul blas.Uplo, n int, alpha T, x []T, incX int, y []T, incY int, ap []T) {
	gnCheckUplo(ul)
	if n < 0 {
		panic(gnNLT0)
	}
	if incX == 0 {
		panic(gnZeroIncX)
	}
	if incY == 0 {
		panic(gnZeroIncY)
	}
	if n == 0 {
		return
	}
	if gnShort(n, incX, len(x)) {
		panic(gnShortX)
	}
	if gnShort(n, incY, len(y)) {
		panic(gnShortY)
	}
	if len(ap) < n*(n+1)/2 {
		panic(gnShortAP)
	}
	if alpha == 0 {
		return
	}
	cn, cx, cy := gnInt(op, "n", n), gnInt(op, "incX", incX), gnInt(op, "incY", incY)
	policy.Calls.Add(1)
	if views.IsComplex[T]() {
		clib.Hpr2Row[T](gnUplo(ul), cn, alpha, gnPtr(x), cx, gnPtr(y), cy, gnPtr(ap))
		return
	}
	clib.Spr2[T](gnFlipUplo(ul), cn, alpha, gnPtr(x), cx, gnPtr(y), cy, gnPtr(ap))
}

// Level 3.

func gnGemm[T Scalar](op string, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	gnCheckTrans(tA)
	gnCheckTrans(tB)
	switch {
	case m < 0:
		panic(gnMLT0)
	case n < 0:
		panic(gnNLT0)
	case k < 0:
		panic(gnKLT0)
	}
	rowA, colA := m, k
	if tA != blas.NoTrans {
		rowA, colA = k, m
	}
	if lda < max(1, colA) {
		panic(gnBadLdA)
	}
	rowB, colB := k, n
	if tB != blas.NoTrans {
		rowB, colB = n, k
	}
	if ldb < max(1, colB) {
		panic(gnBadLdB)
	}
	if ldc < max(1, n) {
		panic(gnBadLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if len(a) < (rowA-1)*lda+colA {
		panic(gnShortA)
	}
	if len(b) < (rowB-1)*ldb+colB {
		panic(gnShortB)
	}
	if len(c) < (m-1)*ldc+n {
		panic(gnShortC)
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cm, cn, ck := gnInt(op, "m", m), gnInt(op, "n", n), gnInt(op, "k", k)
	clda, cldb, cldc := gnInt(op, "lda", lda), gnInt(op, "ldb", ldb), gnInt(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(m, n, k).End()
	clib.Gemm[T](gnTrans[T](tB), gnTrans[T](tA), cn, cm, ck, alpha, gnPtr(b), cldb, gnPtr(a), clda, beta, gnPtr(c), cldc)
}

// gnSymm is symm (herm false) and hemm (herm true): C^T = B^T A^T, with
// A^T = A for symmetric A and A^T = conj(A), exactly the Hermitian matrix
// the flipped triangle describes, for Hermitian A.
func gnSymm[T Scalar](op string, herm bool, s blas.Side, ul blas.Uplo, m, n int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	na := m
	if s == blas.Right {
		na = n
	}
	gnCheckSide(s)
	gnCheckUplo(ul)
	switch {
	case m < 0:
		panic(gnMLT0)
	case n < 0:
		panic(gnNLT0)
	case lda < max(1, na):
		panic(gnBadLdA)
	case ldb < max(1, n):
		panic(gnBadLdB)
	case ldc < max(1, n):
		panic(gnBadLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if len(a) < lda*(na-1)+na {
		panic(gnShortA)
	}
	if len(b) < ldb*(m-1)+n {
		panic(gnShortB)
	}
	if len(c) < ldc*(m-1)+n {
		panic(gnShortC)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	cm, cn := gnInt(op, "m", m), gnInt(op, "n", n)
	clda, cldb, cldc := gnInt(op, "lda", lda), gnInt(op, "ldb", ldb), gnInt(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(m, n, max(m, n)).End()
	if herm {
		clib.Hemm[T](gnFlipSide(s), gnFlipUplo(ul), cn, cm, alpha, gnPtr(a), clda, gnPtr(b), cldb, beta, gnPtr(c), cldc)
		return
	}
	clib.Symm[T](gnFlipSide(s), gnFlipUplo(ul), cn, cm, alpha, gnPtr(a), clda, gnPtr(b), cldb, beta, gnPtr(c), cldc)
}

// gnCheckRankK checks syrk, syr2k (withB), herk and her2k's arguments in
// gonum's order (uplo first in its real code, trans first in its complex
// code, which accepts only NoTrans and other, Trans for syrk and syr2k,
// ConjTrans for herk and her2k). It reports whether n > 0 and, if so, the
// shape (row, col) of the row-major A and B.
func gnCheckRankK(cplx bool, other blas.Transpose, ul blas.Uplo, t blas.Transpose, n, k, lda, ldb, ldc int, withB bool) (row, col int, ok bool) {
	if cplx {
		if t != blas.NoTrans && t != other {
			panic(gnBadTranspose)
		}
		gnCheckUplo(ul)
	} else {
		gnCheckUplo(ul)
		gnCheckTrans(t)
	}
	if n < 0 {
		panic(gnNLT0)
	}
	if k < 0 {
		panic(gnKLT0)
	}
	row, col = k, n
	if t == blas.NoTrans {
		row, col = n, k
	}
	if lda < max(1, col) {
		panic(gnBadLdA)
	}
	if withB && ldb < max(1, col) {
		panic(gnBadLdB)
	}
	if ldc < max(1, n) {
		panic(gnBadLdC)
	}
	return row, col, n > 0
}

// gnCheckRankKLen checks the slice lengths after gnCheckRankK.
func gnCheckRankKLen(row, col, n, lenA, lda, lenB, ldb, lenC, ldc int, withB bool) {
	if lenA < (row-1)*lda+col {
		panic(gnShortA)
	}
	if withB && lenB < (row-1)*ldb+col {
		panic(gnShortB)
	}
	if lenC < (n-1)*ldc+n {
		panic(gnShortC)
	}
}

// gnSyrk: C^T = C, and (op(A) op(A)^T)^T is the same product of A^T, whose
// op is the other one (NoTrans <-> Trans).
func gnSyrk[T Scalar](op string, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) {
	row, col, ok := gnCheckRankK(views.IsComplex[T](), blas.Trans, ul, t, n, k, lda, 0, ldc, false)
	if !ok {
		return
	}
	gnCheckRankKLen(row, col, n, len(a), lda, 0, 0, len(c), ldc, false)
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cn, ck, clda, cldc := gnInt(op, "n", n), gnInt(op, "k", k), gnInt(op, "lda", lda), gnInt(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(n, n, k).End()
	clib.Syrk[T](gnFlipUplo(ul), gnFlipTrans(t), cn, ck, alpha, gnPtr(a), clda, beta, gnPtr(c), cldc)
}

func gnSyr2k[T Scalar](op string, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	row, col, ok := gnCheckRankK(views.IsComplex[T](), blas.Trans, ul, t, n, k, lda, ldb, ldc, true)
	if !ok {
		return
	}
	gnCheckRankKLen(row, col, n, len(a), lda, len(b), ldb, len(c), ldc, true)
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cn, ck := gnInt(op, "n", n), gnInt(op, "k", k)
	clda, cldb, cldc := gnInt(op, "lda", lda), gnInt(op, "ldb", ldb), gnInt(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(n, n, k).End()
	clib.Syr2k[T](gnFlipUplo(ul), gnFlipTrans(t), cn, ck, alpha, gnPtr(a), clda, gnPtr(b), cldb, beta, gnPtr(c), cldc)
}

// gnHerkTrans maps herk's and her2k's op to that of the transposed
// problem: C^T = conj(C), and (A A^H)^T = conj(A) A^T = (A^T)^H A^T.
func gnHerkTrans(t blas.Transpose) clib.Trans {
	if t == blas.NoTrans {
		return clib.ConjTrans
	}
	return clib.NoTrans
}

func gnHerk[T Scalar](op string, ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []T, lda int, beta float64, c []T, ldc int) {
	row, col, ok := gnCheckRankK(true, blas.ConjTrans, ul, t, n, k, lda, 0, ldc, false)
	if !ok {
		return
	}
	gnCheckRankKLen(row, col, n, len(a), lda, 0, 0, len(c), ldc, false)
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cn, ck, clda, cldc := gnInt(op, "n", n), gnInt(op, "k", k), gnInt(op, "lda", lda), gnInt(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(n, n, k).End()
	clib.Herk[T](gnFlipUplo(ul), gnHerkTrans(t), cn, ck, alpha, gnPtr(a), clda, beta, gnPtr(c), cldc)
}

// gnHer2k: C^T = alpha op(B)^T conj(op(A)) + conj(alpha) op(A)^T conj(op(B))
// + beta C^T, which is her2k on the transposes with A and B swapped.
func gnHer2k[T Scalar](op string, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta float64, c []T, ldc int) {
	row, col, ok := gnCheckRankK(true, blas.ConjTrans, ul, t, n, k, lda, ldb, ldc, true)
	if !ok {
		return
	}
	gnCheckRankKLen(row, col, n, len(a), lda, len(b), ldb, len(c), ldc, true)
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	cn, ck := gnInt(op, "n", n), gnInt(op, "k", k)
	clda, cldb, cldc := gnInt(op, "lda", lda), gnInt(op, "ldb", ldb), gnInt(op, "ldc", ldc)
	policy.Calls.Add(1)
	defer level3(n, n, k).End()
	clib.Her2k[T](gnFlipUplo(ul), gnHerkTrans(t), cn, ck, alpha, gnPtr(b), cldb, gnPtr(a), clda, beta, gnPtr(c), cldc)
}

// gnTrxm is trmm (solve false) and trsm (solve true): B^T = alpha B^T
// op(A)^T, and op(A)^T is the same op of the column-major A^T.
func gnTrxm[T Scalar](op string, solve bool, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	na := m
	if s == blas.Right {
		na = n
	}
	gnCheckSide(s)
	gnCheckUplo(ul)
	gnCheckTrans(tA)
	gnCheckDiag(d)
	switch {
	case m < 0:
		panic(gnMLT0)
	case n < 0:
		panic(gnNLT0)
	case lda < max(1, na):
		panic(gnBadLdA)
	case ldb < max(1, n):
		panic(gnBadLdB)
	}
	if m == 0 || n == 0 {
		return
	}
	if len(a) < lda*(na-1)+na {
		panic(gnShortA)
	}
	if len(b) < ldb*(m-1)+n {
		panic(gnShortB)
	}
	cm, cn, clda, cldb := gnInt(op, "m", m), gnInt(op, "n", n), gnInt(op, "lda", lda), gnInt(op, "ldb", ldb)
	policy.Calls.Add(1)
	defer level3(m, n, max(m, n)).End()
	if solve {
		clib.Trsm[T](gnFlipSide(s), gnFlipUplo(ul), gnTrans[T](tA), gnDiag(d), cn, cm, alpha, gnPtr(a), clda, gnPtr(b), cldb)
		return
	}
	clib.Trmm[T](gnFlipSide(s), gnFlipUplo(ul), gnTrans[T](tA), gnDiag(d), cn, cm, alpha, gnPtr(a), clda, gnPtr(b), cldb)
}

// The methods: gonum's interfaces, each a call of the generic code above.

// blas.Float32.

// Sdsdot implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sdsdot(n int, alpha float32, x []float32, incX int, y []float32, incY int) float32 {
	if !gnCheckDsdot(n, x, incX, y, incY) {
		return 0
	}
	cn, cx, cy := gnInt("cblas.Gonum.Sdsdot", "n", n), gnInt("cblas.Gonum.Sdsdot", "incX", incX), gnInt("cblas.Gonum.Sdsdot", "incY", incY)
	policy.Calls.Add(1)
	return clib.Sdsdot[float32](cn, alpha, gnPtr(x), cx, gnPtr(y), cy)
}

// Dsdot implements blas.Float32 on the C library; see Gonum.
func (Gonum) Dsdot(n int, x []float32, incX int, y []float32, incY int) float64 {
	if !gnCheckDsdot(n, x, incX, y, incY) {
		return 0
	}
	cn, cx, cy := gnInt("cblas.Gonum.Dsdot", "n", n), gnInt("cblas.Gonum.Dsdot", "incX", incX), gnInt("cblas.Gonum.Dsdot", "incY", incY)
	policy.Calls.Add(1)
	return clib.Dsdot[float32](cn, gnPtr(x), cx, gnPtr(y), cy)
}

// Sdot implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sdot(n int, x []float32, incX int, y []float32, incY int) float32 {
	return gnDot("cblas.Gonum.Sdot", false, n, x, incX, y, incY)
}

// Snrm2 implements blas.Float32 on the C library; see Gonum.
func (Gonum) Snrm2(n int, x []float32, incX int) float32 {
	return float32(gnNrm2("cblas.Gonum.Snrm2", n, x, incX))
}

// Sasum implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sasum(n int, x []float32, incX int) float32 {
	return float32(gnAsum("cblas.Gonum.Sasum", n, x, incX))
}

// Isamax implements blas.Float32 on the C library; see Gonum.
func (Gonum) Isamax(n int, x []float32, incX int) int {
	return gnIamax("cblas.Gonum.Isamax", n, x, incX)
}

// Sswap implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sswap(n int, x []float32, incX int, y []float32, incY int) {
	gnPair("cblas.Gonum.Sswap", gnSwap, n, x, incX, y, incY)
}

// Scopy implements blas.Float32 on the C library; see Gonum.
func (Gonum) Scopy(n int, x []float32, incX int, y []float32, incY int) {
	gnPair("cblas.Gonum.Scopy", gnCopy, n, x, incX, y, incY)
}

// Saxpy implements blas.Float32 on the C library; see Gonum.
func (Gonum) Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) {
	gnAxpy("cblas.Gonum.Saxpy", n, alpha, x, incX, y, incY)
}

// Srotg implements blas.Float32 on the C library; see Gonum.
func (Gonum) Srotg(a, b float32) (c, s, r, z float32) {
	return gnRotg(a, b)
}

// Srotmg implements blas.Float32 on the C library; see Gonum.
func (Gonum) Srotmg(d1, d2, b1, b2 float32) (p blas.SrotmParams, rd1, rd2, rb1 float32) {
	p.Flag, p.H, rd1, rd2, rb1 = gnRotmg(d1, d2, b1, b2)
	return p, rd1, rd2, rb1
}

// Srot implements blas.Float32 on the C library; see Gonum.
func (Gonum) Srot(n int, x []float32, incX int, y []float32, incY int, c, s float32) {
	gnRot("cblas.Gonum.Srot", n, x, incX, y, incY, c, s)
}

// Srotm implements blas.Float32 on the C library; see Gonum.
func (Gonum) Srotm(n int, x []float32, incX int, y []float32, incY int, p blas.SrotmParams) {
	gnRotm("cblas.Gonum.Srotm", n, x, incX, y, incY, p.Flag, p.H)
}

// Sscal implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sscal(n int, alpha float32, x []float32, incX int) {
	gnScal("cblas.Gonum.Sscal", n, alpha, x, incX)
}

// Sgemv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	gnGemv("cblas.Gonum.Sgemv", tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Sgbmv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	gnGbmv("cblas.Gonum.Sgbmv", tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// Strmv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Strmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) {
	gnTrxv("cblas.Gonum.Strmv", false, ul, tA, d, n, a, lda, x, incX)
}

// Strsv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Strsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float32, lda int, x []float32, incX int) {
	gnTrxv("cblas.Gonum.Strsv", true, ul, tA, d, n, a, lda, x, incX)
}

// Stbmv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Stbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) {
	gnTbxv("cblas.Gonum.Stbmv", false, ul, tA, d, n, k, a, lda, x, incX)
}

// Stbsv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Stbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float32, lda int, x []float32, incX int) {
	gnTbxv("cblas.Gonum.Stbsv", true, ul, tA, d, n, k, a, lda, x, incX)
}

// Stpmv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Stpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) {
	gnTpxv("cblas.Gonum.Stpmv", false, ul, tA, d, n, ap, x, incX)
}

// Stpsv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Stpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float32, x []float32, incX int) {
	gnTpxv("cblas.Gonum.Stpsv", true, ul, tA, d, n, ap, x, incX)
}

// Ssymv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Ssymv(ul blas.Uplo, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	gnHemv("cblas.Gonum.Ssymv", ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Ssbmv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Ssbmv(ul blas.Uplo, n, k int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	gnHbmv("cblas.Gonum.Ssbmv", ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
}

// Sspmv implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sspmv(ul blas.Uplo, n int, alpha float32, ap []float32, x []float32, incX int, beta float32, y []float32, incY int) {
	gnHpmv("cblas.Gonum.Sspmv", ul, n, alpha, ap, x, incX, beta, y, incY)
}

// Sger implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sger(m, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) {
	gnGer("cblas.Gonum.Sger", false, m, n, alpha, x, incX, y, incY, a, lda)
}

// Ssyr implements blas.Float32 on the C library; see Gonum.
func (Gonum) Ssyr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, a []float32, lda int) {
	gnHer("cblas.Gonum.Ssyr", ul, n, float64(alpha), x, incX, a, lda)
}

// Sspr implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sspr(ul blas.Uplo, n int, alpha float32, x []float32, incX int, ap []float32) {
	gnHpr("cblas.Gonum.Sspr", ul, n, float64(alpha), x, incX, ap)
}

// Ssyr2 implements blas.Float32 on the C library; see Gonum.
func (Gonum) Ssyr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, a []float32, lda int) {
	gnHer2("cblas.Gonum.Ssyr2", ul, n, alpha, x, incX, y, incY, a, lda)
}

// Sspr2 implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sspr2(ul blas.Uplo, n int, alpha float32, x []float32, incX int, y []float32, incY int, ap []float32) {
	gnHpr2("cblas.Gonum.Sspr2", ul, n, alpha, x, incX, y, incY, ap)
}

// Sgemm implements blas.Float32 on the C library; see Gonum.
func (Gonum) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gnGemm("cblas.Gonum.Sgemm", tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Ssymm implements blas.Float32 on the C library; see Gonum.
func (Gonum) Ssymm(s blas.Side, ul blas.Uplo, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gnSymm("cblas.Gonum.Ssymm", false, s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Ssyrk implements blas.Float32 on the C library; see Gonum.
func (Gonum) Ssyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) {
	gnSyrk("cblas.Gonum.Ssyrk", ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

// Ssyr2k implements blas.Float32 on the C library; see Gonum.
func (Gonum) Ssyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gnSyr2k("cblas.Gonum.Ssyr2k", ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Strmm implements blas.Float32 on the C library; see Gonum.
func (Gonum) Strmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	gnTrxm("cblas.Gonum.Strmm", false, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Strsm implements blas.Float32 on the C library; see Gonum.
func (Gonum) Strsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	gnTrxm("cblas.Gonum.Strsm", true, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// blas.Float64.

// Ddot implements blas.Float64 on the C library; see Gonum.
func (Gonum) Ddot(n int, x []float64, incX int, y []float64, incY int) float64 {
	return gnDot("cblas.Gonum.Ddot", false, n, x, incX, y, incY)
}

// Dnrm2 implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dnrm2(n int, x []float64, incX int) float64 {
	return gnNrm2("cblas.Gonum.Dnrm2", n, x, incX)
}

// Dasum implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dasum(n int, x []float64, incX int) float64 {
	return gnAsum("cblas.Gonum.Dasum", n, x, incX)
}

// Idamax implements blas.Float64 on the C library; see Gonum.
func (Gonum) Idamax(n int, x []float64, incX int) int {
	return gnIamax("cblas.Gonum.Idamax", n, x, incX)
}

// Dswap implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dswap(n int, x []float64, incX int, y []float64, incY int) {
	gnPair("cblas.Gonum.Dswap", gnSwap, n, x, incX, y, incY)
}

// Dcopy implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dcopy(n int, x []float64, incX int, y []float64, incY int) {
	gnPair("cblas.Gonum.Dcopy", gnCopy, n, x, incX, y, incY)
}

// Daxpy implements blas.Float64 on the C library; see Gonum.
func (Gonum) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	gnAxpy("cblas.Gonum.Daxpy", n, alpha, x, incX, y, incY)
}

// Drotg implements blas.Float64 on the C library; see Gonum.
func (Gonum) Drotg(a, b float64) (c, s, r, z float64) {
	return gnRotg(a, b)
}

// Drotmg implements blas.Float64 on the C library; see Gonum.
func (Gonum) Drotmg(d1, d2, b1, b2 float64) (p blas.DrotmParams, rd1, rd2, rb1 float64) {
	p.Flag, p.H, rd1, rd2, rb1 = gnRotmg(d1, d2, b1, b2)
	return p, rd1, rd2, rb1
}

// Drot implements blas.Float64 on the C library; see Gonum.
func (Gonum) Drot(n int, x []float64, incX int, y []float64, incY int, c, s float64) {
	gnRot("cblas.Gonum.Drot", n, x, incX, y, incY, c, s)
}

// Drotm implements blas.Float64 on the C library; see Gonum.
func (Gonum) Drotm(n int, x []float64, incX int, y []float64, incY int, p blas.DrotmParams) {
	gnRotm("cblas.Gonum.Drotm", n, x, incX, y, incY, p.Flag, p.H)
}

// Dscal implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dscal(n int, alpha float64, x []float64, incX int) {
	gnScal("cblas.Gonum.Dscal", n, alpha, x, incX)
}

// Dgemv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gnGemv("cblas.Gonum.Dgemv", tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Dgbmv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dgbmv(tA blas.Transpose, m, n, kL, kU int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gnGbmv("cblas.Gonum.Dgbmv", tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// Dtrmv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dtrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	gnTrxv("cblas.Gonum.Dtrmv", false, ul, tA, d, n, a, lda, x, incX)
}

// Dtrsv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	gnTrxv("cblas.Gonum.Dtrsv", true, ul, tA, d, n, a, lda, x, incX)
}

// Dtbmv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dtbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) {
	gnTbxv("cblas.Gonum.Dtbmv", false, ul, tA, d, n, k, a, lda, x, incX)
}

// Dtbsv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dtbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []float64, lda int, x []float64, incX int) {
	gnTbxv("cblas.Gonum.Dtbsv", true, ul, tA, d, n, k, a, lda, x, incX)
}

// Dtpmv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dtpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) {
	gnTpxv("cblas.Gonum.Dtpmv", false, ul, tA, d, n, ap, x, incX)
}

// Dtpsv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dtpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []float64, x []float64, incX int) {
	gnTpxv("cblas.Gonum.Dtpsv", true, ul, tA, d, n, ap, x, incX)
}

// Dsymv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gnHemv("cblas.Gonum.Dsymv", ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Dsbmv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dsbmv(ul blas.Uplo, n, k int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gnHbmv("cblas.Gonum.Dsbmv", ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
}

// Dspmv implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dspmv(ul blas.Uplo, n int, alpha float64, ap []float64, x []float64, incX int, beta float64, y []float64, incY int) {
	gnHpmv("cblas.Gonum.Dspmv", ul, n, alpha, ap, x, incX, beta, y, incY)
}

// Dger implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	gnGer("cblas.Gonum.Dger", false, m, n, alpha, x, incX, y, incY, a, lda)
}

// Dsyr implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dsyr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) {
	gnHer("cblas.Gonum.Dsyr", ul, n, alpha, x, incX, a, lda)
}

// Dspr implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dspr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, ap []float64) {
	gnHpr("cblas.Gonum.Dspr", ul, n, alpha, x, incX, ap)
}

// Dsyr2 implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	gnHer2("cblas.Gonum.Dsyr2", ul, n, alpha, x, incX, y, incY, a, lda)
}

// Dspr2 implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dspr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, ap []float64) {
	gnHpr2("cblas.Gonum.Dspr2", ul, n, alpha, x, incX, y, incY, ap)
}

// Dgemm implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gnGemm("cblas.Gonum.Dgemm", tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dsymm implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gnSymm("cblas.Gonum.Dsymm", false, s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dsyrk implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	gnSyrk("cblas.Gonum.Dsyrk", ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

// Dsyr2k implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gnSyr2k("cblas.Gonum.Dsyr2k", ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dtrmm implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	gnTrxm("cblas.Gonum.Dtrmm", false, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Dtrsm implements blas.Float64 on the C library; see Gonum.
func (Gonum) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	gnTrxm("cblas.Gonum.Dtrsm", true, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// blas.Complex64.

// Cdotu implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cdotu(n int, x []complex64, incX int, y []complex64, incY int) complex64 {
	return gnDot("cblas.Gonum.Cdotu", false, n, x, incX, y, incY)
}

// Cdotc implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cdotc(n int, x []complex64, incX int, y []complex64, incY int) complex64 {
	return gnDot("cblas.Gonum.Cdotc", true, n, x, incX, y, incY)
}

// Scnrm2 implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Scnrm2(n int, x []complex64, incX int) float32 {
	return float32(gnNrm2("cblas.Gonum.Scnrm2", n, x, incX))
}

// Scasum implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Scasum(n int, x []complex64, incX int) float32 {
	return float32(gnAsum("cblas.Gonum.Scasum", n, x, incX))
}

// Icamax implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Icamax(n int, x []complex64, incX int) int {
	return gnIamax("cblas.Gonum.Icamax", n, x, incX)
}

// Cswap implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cswap(n int, x []complex64, incX int, y []complex64, incY int) {
	gnPair("cblas.Gonum.Cswap", gnSwap, n, x, incX, y, incY)
}

// Ccopy implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ccopy(n int, x []complex64, incX int, y []complex64, incY int) {
	gnPair("cblas.Gonum.Ccopy", gnCopy, n, x, incX, y, incY)
}

// Caxpy implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Caxpy(n int, alpha complex64, x []complex64, incX int, y []complex64, incY int) {
	gnAxpy("cblas.Gonum.Caxpy", n, alpha, x, incX, y, incY)
}

// Cscal implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cscal(n int, alpha complex64, x []complex64, incX int) {
	gnScal("cblas.Gonum.Cscal", n, alpha, x, incX)
}

// Csscal implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Csscal(n int, alpha float32, x []complex64, incX int) {
	gnRscal("cblas.Gonum.Csscal", n, float64(alpha), x, incX)
}

// Cgemv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cgemv(tA blas.Transpose, m, n int, alpha complex64, a []complex64, lda int, x []complex64, incX int, beta complex64, y []complex64, incY int) {
	gnGemv("cblas.Gonum.Cgemv", tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Cgbmv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cgbmv(tA blas.Transpose, m, n, kL, kU int, alpha complex64, a []complex64, lda int, x []complex64, incX int, beta complex64, y []complex64, incY int) {
	gnGbmv("cblas.Gonum.Cgbmv", tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// Ctrmv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ctrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []complex64, lda int, x []complex64, incX int) {
	gnTrxv("cblas.Gonum.Ctrmv", false, ul, tA, d, n, a, lda, x, incX)
}

// Ctrsv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ctrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []complex64, lda int, x []complex64, incX int) {
	gnTrxv("cblas.Gonum.Ctrsv", true, ul, tA, d, n, a, lda, x, incX)
}

// Ctbmv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ctbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []complex64, lda int, x []complex64, incX int) {
	gnTbxv("cblas.Gonum.Ctbmv", false, ul, tA, d, n, k, a, lda, x, incX)
}

// Ctbsv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ctbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []complex64, lda int, x []complex64, incX int) {
	gnTbxv("cblas.Gonum.Ctbsv", true, ul, tA, d, n, k, a, lda, x, incX)
}

// Ctpmv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ctpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []complex64, x []complex64, incX int) {
	gnTpxv("cblas.Gonum.Ctpmv", false, ul, tA, d, n, ap, x, incX)
}

// Ctpsv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ctpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []complex64, x []complex64, incX int) {
	gnTpxv("cblas.Gonum.Ctpsv", true, ul, tA, d, n, ap, x, incX)
}

// Chemv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Chemv(ul blas.Uplo, n int, alpha complex64, a []complex64, lda int, x []complex64, incX int, beta complex64, y []complex64, incY int) {
	gnHemv("cblas.Gonum.Chemv", ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Chbmv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Chbmv(ul blas.Uplo, n, k int, alpha complex64, a []complex64, lda int, x []complex64, incX int, beta complex64, y []complex64, incY int) {
	gnHbmv("cblas.Gonum.Chbmv", ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
}

// Chpmv implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Chpmv(ul blas.Uplo, n int, alpha complex64, ap []complex64, x []complex64, incX int, beta complex64, y []complex64, incY int) {
	gnHpmv("cblas.Gonum.Chpmv", ul, n, alpha, ap, x, incX, beta, y, incY)
}

// Cgeru implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cgeru(m, n int, alpha complex64, x []complex64, incX int, y []complex64, incY int, a []complex64, lda int) {
	gnGer("cblas.Gonum.Cgeru", false, m, n, alpha, x, incX, y, incY, a, lda)
}

// Cgerc implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cgerc(m, n int, alpha complex64, x []complex64, incX int, y []complex64, incY int, a []complex64, lda int) {
	gnGer("cblas.Gonum.Cgerc", true, m, n, alpha, x, incX, y, incY, a, lda)
}

// Cher implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cher(ul blas.Uplo, n int, alpha float32, x []complex64, incX int, a []complex64, lda int) {
	gnHer("cblas.Gonum.Cher", ul, n, float64(alpha), x, incX, a, lda)
}

// Chpr implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Chpr(ul blas.Uplo, n int, alpha float32, x []complex64, incX int, ap []complex64) {
	gnHpr("cblas.Gonum.Chpr", ul, n, float64(alpha), x, incX, ap)
}

// Cher2 implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cher2(ul blas.Uplo, n int, alpha complex64, x []complex64, incX int, y []complex64, incY int, a []complex64, lda int) {
	gnHer2("cblas.Gonum.Cher2", ul, n, alpha, x, incX, y, incY, a, lda)
}

// Chpr2 implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Chpr2(ul blas.Uplo, n int, alpha complex64, x []complex64, incX int, y []complex64, incY int, ap []complex64) {
	gnHpr2("cblas.Gonum.Chpr2", ul, n, alpha, x, incX, y, incY, ap)
}

// Cgemm implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cgemm(tA, tB blas.Transpose, m, n, k int, alpha complex64, a []complex64, lda int, b []complex64, ldb int, beta complex64, c []complex64, ldc int) {
	gnGemm("cblas.Gonum.Cgemm", tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Csymm implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Csymm(s blas.Side, ul blas.Uplo, m, n int, alpha complex64, a []complex64, lda int, b []complex64, ldb int, beta complex64, c []complex64, ldc int) {
	gnSymm("cblas.Gonum.Csymm", false, s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Chemm implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Chemm(s blas.Side, ul blas.Uplo, m, n int, alpha complex64, a []complex64, lda int, b []complex64, ldb int, beta complex64, c []complex64, ldc int) {
	gnSymm("cblas.Gonum.Chemm", true, s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Csyrk implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Csyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex64, a []complex64, lda int, beta complex64, c []complex64, ldc int) {
	gnSyrk("cblas.Gonum.Csyrk", ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

// Csyr2k implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Csyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex64, a []complex64, lda int, b []complex64, ldb int, beta complex64, c []complex64, ldc int) {
	gnSyr2k("cblas.Gonum.Csyr2k", ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Cherk implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cherk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []complex64, lda int, beta float32, c []complex64, ldc int) {
	gnHerk("cblas.Gonum.Cherk", ul, t, n, k, float64(alpha), a, lda, float64(beta), c, ldc)
}

// Cher2k implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Cher2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex64, a []complex64, lda int, b []complex64, ldb int, beta float32, c []complex64, ldc int) {
	gnHer2k("cblas.Gonum.Cher2k", ul, t, n, k, alpha, a, lda, b, ldb, float64(beta), c, ldc)
}

// Ctrmm implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ctrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha complex64, a []complex64, lda int, b []complex64, ldb int) {
	gnTrxm("cblas.Gonum.Ctrmm", false, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Ctrsm implements blas.Complex64 on the C library; see Gonum.
func (Gonum) Ctrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha complex64, a []complex64, lda int, b []complex64, ldb int) {
	gnTrxm("cblas.Gonum.Ctrsm", true, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// blas.Complex128.

// Zdotu implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zdotu(n int, x []complex128, incX int, y []complex128, incY int) complex128 {
	return gnDot("cblas.Gonum.Zdotu", false, n, x, incX, y, incY)
}

// Zdotc implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zdotc(n int, x []complex128, incX int, y []complex128, incY int) complex128 {
	return gnDot("cblas.Gonum.Zdotc", true, n, x, incX, y, incY)
}

// Dznrm2 implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Dznrm2(n int, x []complex128, incX int) float64 {
	return gnNrm2("cblas.Gonum.Dznrm2", n, x, incX)
}

// Dzasum implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Dzasum(n int, x []complex128, incX int) float64 {
	return gnAsum("cblas.Gonum.Dzasum", n, x, incX)
}

// Izamax implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Izamax(n int, x []complex128, incX int) int {
	return gnIamax("cblas.Gonum.Izamax", n, x, incX)
}

// Zswap implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zswap(n int, x []complex128, incX int, y []complex128, incY int) {
	gnPair("cblas.Gonum.Zswap", gnSwap, n, x, incX, y, incY)
}

// Zcopy implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zcopy(n int, x []complex128, incX int, y []complex128, incY int) {
	gnPair("cblas.Gonum.Zcopy", gnCopy, n, x, incX, y, incY)
}

// Zaxpy implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zaxpy(n int, alpha complex128, x []complex128, incX int, y []complex128, incY int) {
	gnAxpy("cblas.Gonum.Zaxpy", n, alpha, x, incX, y, incY)
}

// Zscal implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zscal(n int, alpha complex128, x []complex128, incX int) {
	gnScal("cblas.Gonum.Zscal", n, alpha, x, incX)
}

// Zdscal implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zdscal(n int, alpha float64, x []complex128, incX int) {
	gnRscal("cblas.Gonum.Zdscal", n, alpha, x, incX)
}

// Zgemv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zgemv(tA blas.Transpose, m, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	gnGemv("cblas.Gonum.Zgemv", tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Zgbmv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zgbmv(tA blas.Transpose, m, n, kL, kU int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	gnGbmv("cblas.Gonum.Zgbmv", tA, m, n, kL, kU, alpha, a, lda, x, incX, beta, y, incY)
}

// Ztrmv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Ztrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []complex128, lda int, x []complex128, incX int) {
	gnTrxv("cblas.Gonum.Ztrmv", false, ul, tA, d, n, a, lda, x, incX)
}

// Ztrsv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Ztrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []complex128, lda int, x []complex128, incX int) {
	gnTrxv("cblas.Gonum.Ztrsv", true, ul, tA, d, n, a, lda, x, incX)
}

// Ztbmv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Ztbmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []complex128, lda int, x []complex128, incX int) {
	gnTbxv("cblas.Gonum.Ztbmv", false, ul, tA, d, n, k, a, lda, x, incX)
}

// Ztbsv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Ztbsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n, k int, a []complex128, lda int, x []complex128, incX int) {
	gnTbxv("cblas.Gonum.Ztbsv", true, ul, tA, d, n, k, a, lda, x, incX)
}

// Ztpmv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Ztpmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []complex128, x []complex128, incX int) {
	gnTpxv("cblas.Gonum.Ztpmv", false, ul, tA, d, n, ap, x, incX)
}

// Ztpsv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Ztpsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, ap []complex128, x []complex128, incX int) {
	gnTpxv("cblas.Gonum.Ztpsv", true, ul, tA, d, n, ap, x, incX)
}

// Zhemv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zhemv(ul blas.Uplo, n int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	gnHemv("cblas.Gonum.Zhemv", ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Zhbmv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zhbmv(ul blas.Uplo, n, k int, alpha complex128, a []complex128, lda int, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	gnHbmv("cblas.Gonum.Zhbmv", ul, n, k, alpha, a, lda, x, incX, beta, y, incY)
}

// Zhpmv implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zhpmv(ul blas.Uplo, n int, alpha complex128, ap []complex128, x []complex128, incX int, beta complex128, y []complex128, incY int) {
	gnHpmv("cblas.Gonum.Zhpmv", ul, n, alpha, ap, x, incX, beta, y, incY)
}

// Zgeru implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zgeru(m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	gnGer("cblas.Gonum.Zgeru", false, m, n, alpha, x, incX, y, incY, a, lda)
}

// Zgerc implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zgerc(m, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	gnGer("cblas.Gonum.Zgerc", true, m, n, alpha, x, incX, y, incY, a, lda)
}

// Zher implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zher(ul blas.Uplo, n int, alpha float64, x []complex128, incX int, a []complex128, lda int) {
	gnHer("cblas.Gonum.Zher", ul, n, alpha, x, incX, a, lda)
}

// Zhpr implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zhpr(ul blas.Uplo, n int, alpha float64, x []complex128, incX int, ap []complex128) {
	gnHpr("cblas.Gonum.Zhpr", ul, n, alpha, x, incX, ap)
}

// Zher2 implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zher2(ul blas.Uplo, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, a []complex128, lda int) {
	gnHer2("cblas.Gonum.Zher2", ul, n, alpha, x, incX, y, incY, a, lda)
}

// Zhpr2 implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zhpr2(ul blas.Uplo, n int, alpha complex128, x []complex128, incX int, y []complex128, incY int, ap []complex128) {
	gnHpr2("cblas.Gonum.Zhpr2", ul, n, alpha, x, incX, y, incY, ap)
}

// Zgemm implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zgemm(tA, tB blas.Transpose, m, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	gnGemm("cblas.Gonum.Zgemm", tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Zsymm implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zsymm(s blas.Side, ul blas.Uplo, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	gnSymm("cblas.Gonum.Zsymm", false, s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Zhemm implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zhemm(s blas.Side, ul blas.Uplo, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	gnSymm("cblas.Gonum.Zhemm", true, s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Zsyrk implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, beta complex128, c []complex128, ldc int) {
	gnSyrk("cblas.Gonum.Zsyrk", ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

// Zsyr2k implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	gnSyr2k("cblas.Gonum.Zsyr2k", ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Zherk implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zherk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []complex128, lda int, beta float64, c []complex128, ldc int) {
	gnHerk("cblas.Gonum.Zherk", ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

// Zher2k implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Zher2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta float64, c []complex128, ldc int) {
	gnHer2k("cblas.Gonum.Zher2k", ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Ztrmm implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Ztrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int) {
	gnTrxm("cblas.Gonum.Ztrmm", false, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Ztrsm implements blas.Complex128 on the C library; see Gonum.
func (Gonum) Ztrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int) {
	gnTrxm("cblas.Gonum.Ztrsm", true, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}
