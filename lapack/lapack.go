package lapack

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Scalar is the set of element types: views.Scalar.
type Scalar = views.Scalar

// family describes a generated dispatcher (zlapack.go) for errors.
type family struct {
	routines [4]string   // s, d, c, z
	args     [2][]string // argument names, real and complex routines
	fail     error       // what info > 0 matches; nil when it cannot happen
}

// Real is the set of real element types: the singular values and
// eigenvalues of a Scalar type T are reals of T's precision (float32 for
// float32 and complex64, float64 for float64 and complex128).
type Real interface{ float32 | float64 }

// realFor checks that R is the real type of T's precision.
func realFor[T Scalar, R Real](op, name string) error {
	single := scalar.Index[T]()%2 == 0
	if _, isF32 := any(*new(R)).(float32); isF32 != single {
		return layout.Errorf(layout.ErrShape, op, name, "[]%T for %T elements, want []%s", *new(R), *new(T), map[bool]string{true: "float32", false: "float64"}[single])
	}
	return nil
}

// The enums lapack takes are cblas's, under lapack's names:
// one definition behind both, so that a value made in either package is
// accepted by the other (lapack.Upper == cblas.Upper).
type (
	// Uplo says which triangle of a symmetric, Hermitian or triangular
	// matrix is read, as seen through the view passed: see cblas.Uplo.
	Uplo = cblas.Uplo
	// Diag says whether a triangular matrix has an implicit unit diagonal.
	Diag = cblas.Diag
	// Side says from which side a matrix multiplies (Ormqr).
	Side = cblas.Side
)

const (
	Upper   = cblas.Upper
	Lower   = cblas.Lower
	NonUnit = cblas.NonUnit
	Unit    = cblas.Unit
	Left    = cblas.Left
	Right   = cblas.Right
)

// triangleOf is the triangle the options ask a helper to read (default
// Lower).
func triangleOf(opts []lapis.Option) Uplo {
	if lapis.Configure(opts...).UpperTriangle {
		return Upper
	}
	return Lower
}

// Op is LAPACK's trans argument, for routines that apply an operator that
// is not a view of their matrix argument's elements (Getrs: the matrix
// whose LU factors it holds; Ormqr: the Q its reflectors define). Where the
// matrix is the operand itself, transposes are views (a.T(), a.H()).
type Op byte

const (
	NoTrans   Op = 'N' // op(A) = A
	Trans     Op = 'T' // op(A) = A^T
	ConjTrans Op = 'C' // op(A) = A^H (A^T for real types)
)

func checkOp(op string, t Op) error {
	if t != NoTrans && t != Trans && t != ConjTrans {
		return layout.Errorf(lapis.ErrInvalid, op, "trans", "value %q is not NoTrans, Trans or ConjTrans", byte(t))
	}
	return nil
}

// toFloat returns the real part of x as float64.
func toFloat[T Scalar](x T) float64 { return real(scalar.Complex128(x)) }
