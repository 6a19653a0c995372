// Package link carries the functions one lapis package implements for a
// sibling without exporting them to users: cblas's and lapack's strided
// loops and lapack's conditioning check, which package batch is built on.
// The implementing package registers one instantiation per element type
// in its initialisation (Go runs it before the importing package's); the
// using package calls the generic accessor. The function types carry the
// implementing package's own types as type parameters (E, N), so that
// this package imports neither.
package link

import (
	"fmt"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// table holds one function per element type, in kind order.
type table [4]any

func get[F any, T views.Scalar](t *table, name string) F {
	f, ok := t[scalar.Index[T]()].(F)
	if !ok {
		panic(fmt.Sprintf("lapis: internal/rt/link.%s[%T] is not registered", name, *new(T)))
	}
	return f
}

// Gemm is cblas's strided-batch product: c[:, :, t] = alpha a[:, :, t]
// b[:, :, t] + beta c[:, :, t] over rank-3 views.
type Gemm[T views.Scalar] func(alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error

// Gesv is lapack's strided-batch solve in place; failed maps a system's
// index to its error (E: *lapack.Error).
type Gesv[T views.Scalar, E any] func(a, b views.View[T], opts ...lapis.Option) (failed map[int]E, err error)

// Check is lapack's conditioning check of a factored matrix or of an
// inverse (N: lapack.Norm).
type Check[T views.Scalar, N any] func(op string, norm N, m views.View[T], anorm float64, opts ...lapis.Option) error

var gemm, gesv, checkLU, checkInv table

// SetGemmStrided registers f for T.
func SetGemmStrided[T views.Scalar](f Gemm[T]) { gemm[scalar.Index[T]()] = f }

// GemmStrided calls the registered Gemm for T.
func GemmStrided[T views.Scalar](alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	return get[Gemm[T], T](&gemm, "GemmStrided")(alpha, a, b, beta, c, opts...)
}

// SetGesvStrided registers f for T.
func SetGesvStrided[T views.Scalar, E any](f Gesv[T, E]) { gesv[scalar.Index[T]()] = f }

// GesvStrided calls the registered Gesv for T.
func GesvStrided[T views.Scalar, E any](a, b views.View[T], opts ...lapis.Option) (map[int]E, error) {
	return get[Gesv[T, E], T](&gesv, "GesvStrided")(a, b, opts...)
}

// SetChecks registers the checks of an LU factorisation and of an
// inverse for T.
func SetChecks[T views.Scalar, N any](lu, inv Check[T, N]) {
	checkLU[scalar.Index[T]()], checkInv[scalar.Index[T]()] = lu, inv
}

// CheckCondition calls the registered check of LU factors for T.
func CheckCondition[T views.Scalar, N any](op string, norm N, lu views.View[T], anorm float64, opts ...lapis.Option) error {
	return get[Check[T, N], T](&checkLU, "CheckCondition")(op, norm, lu, anorm, opts...)
}

// CheckInverse calls the registered check of an inverse for T.
func CheckInverse[T views.Scalar, N any](op string, norm N, inv views.View[T], anorm float64, opts ...lapis.Option) error {
	return get[Check[T, N], T](&checkInv, "CheckInverse")(op, norm, inv, anorm, opts...)
}

// Input is an operand a computation will read, for lapack's
// finite-input rule (lapack/finite.go): all of V, or its triangle Tri
// ('L' or 'U') of a square matrix.
type Input[T views.Scalar] struct {
	Name string
	V    views.View[T]
	Tri  byte
}

// Finite is lapack's finite-input rule, run before the computation: nil
// when every input is finite where it is read, else an error matching
// lapis.ErrNotFinite (an *lapack.Error) naming the operand and its first
// NaN or infinity.
type Finite[T views.Scalar] func(op string, ins ...Input[T]) error

var finite table

// SetFinite registers f for T.
func SetFinite[T views.Scalar](f Finite[T]) { finite[scalar.Index[T]()] = f }

// NotFinite is the rule's error (an *lapack.Error matching
// lapis.ErrNotFinite) for the operand name, with detail saying why.
type NotFinite func(op, name, detail string) error

var notFinite NotFinite

// SetNotFinite registers lapack's constructor.
func SetNotFinite(f NotFinite) { notFinite = f }

// NotFiniteError calls the registered constructor.
func NotFiniteError(op, name, detail string) error {
	if notFinite == nil {
		panic("lapis: internal/rt/link.NotFiniteError is not registered")
	}
	return notFinite(op, name, detail)
}

// CheckFinite calls the registered rule for T.
func CheckFinite[T views.Scalar](op string, ins ...Input[T]) error {
	return get[Finite[T], T](&finite, "CheckFinite")(op, ins...)
}
