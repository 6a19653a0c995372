package gonumblas

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"

	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
)

// Level 1: vectors need no flip. Each function is the generic
// implementation of one routine family; zmethods.go's methods call it
// with op, the method's name for errors.

// checkPair runs the checks of the two-vector routines (the dots, swap,
// copy, axpy, rot, rotm) and reports whether there is anything to do.
func checkPair(n, lenX, incX, lenY, incY int) bool {
	if incX == 0 {
		panic(zeroIncX)
	}
	if incY == 0 {
		panic(zeroIncY)
	}
	if n < 1 {
		if n == 0 {
			return false
		}
		panic(nLT0)
	}
	if short(n, incX, lenX) {
		panic(shortX)
	}
	if short(n, incY, lenY) {
		panic(shortY)
	}
	return true
}

// checkOne runs the checks of the one-vector routines that ignore a
// negative incX (nrm2, iamax, scal) and reports whether there is anything
// to do; gonum checks x's length before n's sign here.
func checkOne(n, lenX, incX int) bool {
	if incX < 1 {
		if incX == 0 {
			panic(zeroIncX)
		}
		return false
	}
	if lenX <= (n-1)*incX {
		panic(shortX)
	}
	if n < 1 {
		if n == 0 {
			return false
		}
		panic(nLT0)
	}
	return true
}

// pairArgs converts n and the two increments for C.
func pairArgs(op string, n, incX, incY int) (int, int, int) {
	return fit(op, "n", n), fit(op, "incX", incX), fit(op, "incY", incY)
}

// dot is x^T y (conj false) or x^H y (conj true).
func dot[T scalar.Type](op string, conj bool, n int, x []T, incX int, y []T, incY int) T {
	if !checkPair(n, len(x), incX, len(y), incY) {
		return 0
	}
	if blasgo.ComplexStridedDot[T](n, incX, incY) { // the library over-reads
		policy.Small.Add(1)
		return blasgo.Dot[T](n, blasgo.First0[T](clib.Ptr(x), n, incX), incX, blasgo.First0[T](clib.Ptr(y), n, incY), incY, conj)
	}
	cn, cx, cy := pairArgs(op, n, incX, incY)
	policy.Calls.Add(1)
	if conj {
		return clib.Dotc[T](cn, clib.Ptr(x), cx, clib.Ptr(y), cy)
	}
	return clib.Dot[T](cn, clib.Ptr(x), cx, clib.Ptr(y), cy)
}

// sdsdot is alpha + x^T y accumulated in float64.
func sdsdot(op string, n int, alpha float32, x []float32, incX int, y []float32, incY int) float32 {
	if !checkPair(n, len(x), incX, len(y), incY) {
		return 0
	}
	cn, cx, cy := pairArgs(op, n, incX, incY)
	policy.Calls.Add(1)
	return clib.Sdsdot[float32](cn, alpha, clib.Ptr(x), cx, clib.Ptr(y), cy)
}

// dsdot is x^T y accumulated and returned in float64.
func dsdot(op string, n int, x []float32, incX int, y []float32, incY int) float64 {
	if !checkPair(n, len(x), incX, len(y), incY) {
		return 0
	}
	cn, cx, cy := pairArgs(op, n, incX, incY)
	policy.Calls.Add(1)
	return clib.Dsdot[float32](cn, clib.Ptr(x), cx, clib.Ptr(y), cy)
}

// nrm2 returns 0 for a negative incX, as gonum does.
func nrm2[T scalar.Type](op string, n int, x []T, incX int) float64 {
	if !checkOne(n, len(x), incX) {
		return 0
	}
	cn, cx := fit(op, "n", n), fit(op, "incX", incX)
	policy.Calls.Add(1)
	return clib.Nrm2[T](cn, clib.Ptr(x), cx)
}

// asum returns 0 for a negative incX, as gonum does (which checks n's
// sign first here).
func asum[T scalar.Type](op string, n int, x []T, incX int) float64 {
	if n < 0 {
		panic(nLT0)
	}
	if !checkOne(n, len(x), incX) {
		return 0
	}
	cn, cx := fit(op, "n", n), fit(op, "incX", incX)
	policy.Calls.Add(1)
	return blasgo.AsumC[T](cn, clib.Ptr(x), cx)
}

// iamax returns -1 for n == 0 or a negative incX, as gonum does.
func iamax[T scalar.Type](op string, n int, x []T, incX int) int {
	if !checkOne(n, len(x), incX) {
		return -1
	}
	cn, cx := fit(op, "n", n), fit(op, "incX", incX)
	policy.Calls.Add(2) // ?asum, then i?amax (blasgo.IamaxC)
	return blasgo.IamaxC[T](cn, clib.Ptr(x), cx)
}

func swap[T scalar.Type](op string, n int, x []T, incX int, y []T, incY int) {
	if !checkPair(n, len(x), incX, len(y), incY) {
		return
	}
	cn, cx, cy := pairArgs(op, n, incX, incY)
	policy.Calls.Add(1)
	clib.Swap[T](cn, clib.Ptr(x), cx, clib.Ptr(y), cy)
}

// copyv is y = x.
func copyv[T scalar.Type](op string, n int, x []T, incX int, y []T, incY int) {
	if !checkPair(n, len(x), incX, len(y), incY) {
		return
	}
	cn, cx, cy := pairArgs(op, n, incX, incY)
	policy.Calls.Add(1)
	clib.Copy[T](cn, clib.Ptr(x), cx, clib.Ptr(y), cy)
}

func axpy[T scalar.Type](op string, n int, alpha T, x []T, incX int, y []T, incY int) {
	if !checkPair(n, len(x), incX, len(y), incY) || alpha == 0 {
		return
	}
	if incX == incY && clib.Ptr(x) == clib.Ptr(y) {
		// y += alpha y element by element, in Go: OpenBLAS's complex axpy
		// kernels store y's real part before they read x's.
		inc := max(incX, -incX)
		policy.Small.Add(1)
		blasgo.Axpy(n, alpha, clib.Ptr(x), inc, clib.Ptr(y), inc, false)
		return
	}
	cn, cx, cy := pairArgs(op, n, incX, incY)
	policy.Calls.Add(1)
	clib.Axpy[T](cn, alpha, clib.Ptr(x), cx, clib.Ptr(y), cy)
}

// checkScal runs the checks of scal and rscal; a negative incX is a no-op
// in gonum, which checks n's sign before x's length here.
func checkScal(n, lenX, incX int) bool {
	if incX < 1 {
		if incX == 0 {
			panic(zeroIncX)
		}
		return false
	}
	if n < 1 {
		if n == 0 {
			return false
		}
		panic(nLT0)
	}
	if (n-1)*incX >= lenX {
		panic(shortX)
	}
	return true
}

func scal[T scalar.Type](op string, n int, alpha T, x []T, incX int) {
	if !checkScal(n, len(x), incX) {
		return
	}
	if alpha != alpha { // a NaN part: OpenBLAS stores zeros (docs/defects.md)
		policy.Small.Add(1)
		blasgo.Scal(n, alpha, clib.Ptr(x), incX)
		return
	}
	cn, cx := fit(op, "n", n), fit(op, "incX", incX)
	policy.Calls.Add(1)
	clib.Scal[T](cn, alpha, clib.Ptr(x), cx)
}

// rscal scales complex x by a real alpha.
func rscal[T scalar.Type](op string, n int, alpha float64, x []T, incX int) {
	if !checkScal(n, len(x), incX) {
		return
	}
	cn, cx := fit(op, "n", n), fit(op, "incX", incX)
	policy.Calls.Add(1)
	clib.Rscal[T](cn, alpha, clib.Ptr(x), cx)
}

func rot[T real](op string, n int, x []T, incX int, y []T, incY int, c, s T) {
	if !checkPair(n, len(x), incX, len(y), incY) {
		return
	}
	cn, cx, cy := pairArgs(op, n, incX, incY)
	policy.Calls.Add(1)
	clib.Rot[T](cn, clib.Ptr(x), cx, clib.Ptr(y), cy, float64(c), float64(s))
}

// rotmParams is blas.SrotmParams (T float32) or blas.DrotmParams
// (float64): the flag and H = [h11 h21 h12 h22], BLAS's param[1:5].
type rotmParams[T real] interface {
	~struct {
		blas.Flag
		H [4]T
	}
}

// params is rotmParams's struct, to read and build them.
type params[T real] = struct {
	blas.Flag
	H [4]T
}

// rotm applies the modified Givens rotation p. Like gonum, it does
// nothing for the identity or a flag BLAS does not define.
func rotm[T real, P rotmParams[T]](op string, n int, x []T, incX int, y []T, incY int, p P) {
	if !checkPair(n, len(x), incX, len(y), incY) {
		return
	}
	q := params[T](p)
	switch q.Flag {
	case blas.Rescaling, blas.OffDiagonal, blas.Diagonal:
	default:
		return
	}
	c := [5]T{T(q.Flag), q.H[0], q.H[1], q.H[2], q.H[3]}
	cn, cx, cy := pairArgs(op, n, incX, incY)
	policy.Calls.Add(1)
	clib.Rotm[T](cn, clib.Ptr(x), cx, clib.Ptr(y), cy, unsafe.Pointer(&c[0]))
}

// rotmg returns BLAS's param as p, the entries the flag leaves implicit
// zero (as gonum returns them).
func rotmg[T real, P rotmParams[T]](d1, d2, b1, b2 T) (p P, rd1, rd2, rb1 T) {
	var c [5]T
	policy.Calls.Add(1)
	clib.Rotmg[T](unsafe.Pointer(&d1), unsafe.Pointer(&d2), unsafe.Pointer(&b1), b2, unsafe.Pointer(&c[0]))
	return P(params[T]{Flag: blas.Flag(c[0]), H: [4]T{c[1], c[2], c[3], c[4]}}), d1, d2, b1
}

// rotg is computed in Go by gonum's reference implementation (safely
// scaled, as reference BLAS 3.10), whatever library is linked: a rotation
// setup is four scalars, not worth a cgo call, and OpenBLAS 0.3.21's ?rotg
// is not scaled (r = Inf for Drotg(4.49e307, 2.2e-308); reference r =
// 4.49e307, c = 1: OpenMathLib/OpenBLAS#4130).
func rotg[T real](a, b T) (c, s, r, z T) {
	policy.Small.Add(1)
	switch p := any(&a).(type) {
	case *float32:
		c32, s32, r32, z32 := ref.Srotg(*p, any(b).(float32))
		return T(c32), T(s32), T(r32), T(z32)
	case *float64:
		c64, s64, r64, z64 := ref.Drotg(*p, any(b).(float64))
		return T(c64), T(s64), T(r64), T(z64)
	}
	panic("unreachable")
}
