package gonumblas

//go:generate go run ./internal/gen zmethods.go

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/scalar"
)

// Implementation implements gonum's blas.Float32, blas.Float64,
// blas.Complex64 and blas.Complex128 on the linked BLAS library; see the
// package documentation. It holds no state: its methods may be called
// concurrently. Its methods are generated (zmethods.go), each a call of
// the one generic implementation of its routine family in this package.
type Implementation struct{}

var (
	_ blas.Float32    = Implementation{}
	_ blas.Float64    = Implementation{}
	_ blas.Complex64  = Implementation{}
	_ blas.Complex128 = Implementation{}
)

// ref is gonum's own pure-Go BLAS, which computes what lapis does not
// hand to the library: ?rotg always, real ?symv on the kernel sets that
// read past its operands (blasgo.RealSymvOverRead).
var ref gonum.Implementation

// Panic messages, gonum's (blas/gonum/errors.go): part of its API.
const (
	zeroIncX = "blas: zero x index increment"
	zeroIncY = "blas: zero y index increment"

	mLT0  = "blas: m < 0"
	nLT0  = "blas: n < 0"
	kLT0  = "blas: k < 0"
	kLLT0 = "blas: kL < 0"
	kULT0 = "blas: kU < 0"

	badUplo      = "blas: illegal triangle"
	badTranspose = "blas: illegal transpose"
	badDiag      = "blas: illegal diagonal"
	badSide      = "blas: illegal side"

	badLdA = "blas: bad leading dimension of A"
	badLdB = "blas: bad leading dimension of B"
	badLdC = "blas: bad leading dimension of C"

	shortX  = "blas: insufficient length of x"
	shortY  = "blas: insufficient length of y"
	shortAP = "blas: insufficient length of ap"
	shortA  = "blas: insufficient length of a"
	shortB  = "blas: insufficient length of b"
	shortC  = "blas: insufficient length of c"
)

// real is the real element types, for the routines BLAS has only for them
// (rotg, rotmg, rotm, rot).
type real interface{ float32 | float64 }

// fit converts v for C and panics when it does not fit the library's
// integer (see the package documentation).
func fit(op, arg string, v int) int {
	c, err := operand.BLASInt(op, arg, "", v)
	if err != nil {
		panic(err)
	}
	return c
}

// short reports whether a slice of length l is too short for n elements
// with increment inc (gonum's test, for either sign of inc).
func short(n, inc, l int) bool {
	return (inc > 0 && l <= (n-1)*inc) || (inc < 0 && l <= (1-n)*inc)
}

// level3 starts a Level 3 call of m*n*k work under lapis's thread policy;
// the caller ends it when the library returns.
func level3(m, n, k int) threads.Section {
	return threads.Begin(threads.Level3, float64(m)*float64(n)*float64(k))
}

// Flag checks, in the order each routine's gonum code makes them.

func checkUplo(ul blas.Uplo) {
	if ul != blas.Upper && ul != blas.Lower {
		panic(badUplo)
	}
}

func checkTrans(t blas.Transpose) {
	if t != blas.NoTrans && t != blas.Trans && t != blas.ConjTrans {
		panic(badTranspose)
	}
}

func checkDiag(d blas.Diag) {
	if d != blas.NonUnit && d != blas.Unit {
		panic(badDiag)
	}
}

func checkSide(s blas.Side) {
	if s != blas.Left && s != blas.Right {
		panic(badSide)
	}
}

// checkTri checks a triangular routine's flags in gonum's order, which
// differs between its real (uplo first) and complex (trans first) code.
func checkTri(transFirst bool, ul blas.Uplo, tA blas.Transpose, d blas.Diag) {
	if transFirst {
		checkTrans(tA)
		checkUplo(ul)
	} else {
		checkUplo(ul)
		checkTrans(tA)
	}
	checkDiag(d)
}

// The row-major flip, the one place that turns gonum's flags into CBLAS's.
//
// gonum's matrices are row-major: element (i, j) of an r x c matrix A
// with leading dimension ld is a[i*ld+j]. Read in column-major order the
// same memory is the c x r matrix S = A^T with the same ld, so every call
// is the column-major call on S, with nothing copied:
//
//	row-major A                       column-major S = A^T
//	the Upper (Lower) triangle        the Lower (Upper) one
//	op(A) x, op NoTrans (Trans)       op(S) x, op Trans (NoTrans)
//	C = op(A) op(B), B op(A), ...     C^T = op(B)^T op(A)^T: op(S_B) op(S_A),
//	                                  the same ops, operands and m, n swapped,
//	                                  side Left <-> Right
//	band widths kL, kU                kU, kL
//	op(A) op(A)^T (syrk, herk)        op NoTrans <-> Trans (herk: ConjTrans)
//
// Where that would need conjugated data (op(A) = A^H applied to a vector
// in the complex Level 2 routines, where op(S) would be conj(S); x y^H in
// gerc; every Hermitian Level 2 routine, since a Hermitian matrix's
// transpose is its conjugate) the call goes to CBLAS's row-major entry
// point with gonum's flags as they are, which OpenBLAS serves with
// conjugating kernels, again without copies. Level 3 needs no such case.
//
// A Level 2 call decides its order once (orderOf) and passes every flag,
// dimension pair and routine through it; Level 3 calls flip always.

// order is how a call reaches CBLAS: false for column-major on S (the
// flags flipped, dimension pairs swapped), true for CBLAS's row-major
// entry point (the flags and dimensions as gonum gives them).
type order bool

// orderOf is the order of a Level 2 call on T: row-major when T is
// complex and conj says the column-major form would need conjugated data.
func orderOf[T scalar.Type](conj bool) order {
	return order(conj && scalar.IsComplex[T]())
}

// uplo is the triangle to name.
func (o order) uplo(ul blas.Uplo) clib.Uplo {
	if bool(o) {
		return keepUplo(ul)
	}
	return flipUplo(ul)
}

// op is the op to name for op(A) applied to a vector: NoTrans <-> Trans
// on S, or as given (ConjTrans included: only complex calls go
// row-major) row-major.
func (o order) op(t blas.Transpose) clib.Trans {
	if bool(o) {
		return keepOp[complex128](t)
	}
	return flipOp(t, blas.Trans)
}

// swap returns a and b in the order the routine takes them: swapped on
// S (m and n, kL and kU, x and y of ger), as given row-major.
func (o order) swap(a, b int) (int, int) {
	if bool(o) {
		return a, b
	}
	return b, a
}

// pick returns the routine to call: clib's column-major one or its
// row-major variant.
func pick[F any](o order, col, row F) F {
	if bool(o) {
		return row
	}
	return col
}

// flipUplo is the triangle of S: the stored upper triangle of a row-major
// matrix is the lower one of its transpose.
func flipUplo(ul blas.Uplo) clib.Uplo {
	if ul == blas.Upper {
		return clib.Lower
	}
	return clib.Upper
}

// keepUplo is ul unchanged, for the row-major entry points.
func keepUplo(ul blas.Uplo) clib.Uplo {
	if ul == blas.Upper {
		return clib.Upper
	}
	return clib.Lower
}

// flipSide is the side of the transposed product: (A B)^T = B^T A^T.
func flipSide(s blas.Side) clib.Side {
	if s == blas.Left {
		return clib.Right
	}
	return clib.Left
}

// flipOp is op(A) as an op of S = A^T, A^T's op being other (Trans, or
// ConjTrans for herk and her2k, whose result transposed is conjugated):
// NoTrans <-> other. It must not be given ConjTrans for a complex
// matrix-vector product (that case has no column-major form).
func flipOp(t, other blas.Transpose) clib.Trans {
	if t != blas.NoTrans {
		return clib.NoTrans
	}
	if other == blas.ConjTrans {
		return clib.ConjTrans
	}
	return clib.DoTrans
}

// keepOp is t unchanged (ConjTrans is Trans for real types): op(A)^T is
// op(S) in a transposed product.
func keepOp[T scalar.Type](t blas.Transpose) clib.Trans {
	switch {
	case t == blas.NoTrans:
		return clib.NoTrans
	case t == blas.ConjTrans && scalar.IsComplex[T]():
		return clib.ConjTrans
	}
	return clib.DoTrans
}

func diag(d blas.Diag) clib.Diag {
	if d == blas.Unit {
		return clib.Unit
	}
	return clib.NonUnit
}
