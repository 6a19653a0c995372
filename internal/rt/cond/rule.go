package cond

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// The conditioning check of lapack.Solve, lapack.Inv and batch's Solve
// and Inv: a matrix whose reciprocal condition number rcond = 1 / (||A||
// ||A^-1||) is below machine epsilon (or NaN: its factors or inverse hold
// NaN) is reported, its result written. Up to order Max rcond is computed
// exactly here (Matrix); above, ||A^-1|| is estimated from the LU factors
// (InvNormEst, falling back to ?gecon).

// RoutineExact is the routine named by the error when rcond was computed
// exactly rather than estimated: no LAPACK routine ran for it.
const RoutineExact = "exact rcond"

// HowInverse says how Inverse computes rcond.
const HowInverse = "computed exactly from the inverse as 1 / (||a|| ||a^-1||)"

// Ill reports whether rcond fails the check for element type T.
func Ill[T scalar.Type](rcond float64) bool {
	return rcond < scalar.Eps[T]()/2 || math.IsNaN(rcond)
}

// Detail is the error's explanation for rcond, computed as how says.
func Detail(how string, rcond float64) string {
	return fmt.Sprintf("the reciprocal condition number, %s, is about %.3g, below machine epsilon: the result was written but may have no correct digits (the option lapis.NoConditionCheck() turns this check off)", how, rcond)
}

// LU computes the reciprocal condition number of the n x n matrix A whose
// LU factors (as getrf leaves them; the pivots are not needed) lu holds,
// in the one norm (inf false) or the infinity norm, with anorm A's norm
// taken before it was factored: exactly in Go up to order Max, else by
// Estimate. routine and how say what computed rcond, for the error. lu is
// read as stored: conjugation changes neither norm.
func LU[T scalar.Type](inf bool, lu views.View[T], anorm float64, gecon func(lu views.View[T]) (float64, error)) (rcond float64, routine, how string, err error) {
	if n := lu.Layout().Dim(0); n <= Max {
		var m Matrix[T]
		load(&m, lu)
		return 1 / (anorm * m.InvNorm(inf)), RoutineExact, howExact, nil
	}
	rcond, err = Estimate(inf, lu, anorm, gecon)
	return rcond, geconName[scalar.Index[T]()], howGecon[scalar.Index[T]()], err
}

// Estimate is ?gecon's estimate of rcond from the LU factors lu (n >= 1)
// made as cheaply as it can be: ||A^-1|| by InvNormEst on lu, or on a
// compact copy of it (counted in lapis.Stats.Copies) when lu is not
// column-major; when that estimate is not trusted, by gecon (the caller's
// ?gecon) on the same column-major matrix.
func Estimate[T scalar.Type](inf bool, lu views.View[T], anorm float64, gecon func(lu views.View[T]) (float64, error)) (float64, error) {
	l := lu.Layout()
	m, ok := l.Matrix()
	if !ok || m.Trans {
		tmp := lu.ToColMajor()
		defer tmp.Release()
		policy.Copies.Add(1)
		lu = tmp.View()
		l = lu.Layout()
		m, _ = l.Matrix()
	}
	if est, ok := InvNormEst[T](inf, l.Dim(0), unsafe.Pointer(&lu.Data()[l.Offset()]), m.LD); ok {
		return (1 / est) / anorm, nil
	}
	return gecon(lu)
}

// What computed rcond, for the error: Error.Routine and the words of its
// explanation, per element type where ?gecon is named.
const howExact = "computed exactly in Go from the LU factors"

var (
	geconName = [4]string{"sgecon", "dgecon", "cgecon", "zgecon"}
	howGecon  = [4]string{
		"estimated from the LU factors as sgecon estimates it",
		"estimated from the LU factors as dgecon estimates it",
		"estimated from the LU factors as cgecon estimates it",
		"estimated from the LU factors as zgecon estimates it",
	}
)

// Inverse computes rcond = 1 / (anorm ||inv||) exactly for a matrix A
// whose inverse inv holds, in the one norm (inf false) or the infinity
// norm, with anorm A's norm taken before it was inverted: ||inv|| in Go
// up to order Max, else by lange (the caller's ?lange on inv).
func Inverse[T scalar.Type](inf bool, inv views.View[T], anorm float64, lange func() (float64, error)) (rcond float64, how string, err error) {
	how = HowInverse
	var inorm float64
	if n := inv.Layout().Dim(0); n <= Max {
		var m Matrix[T]
		load(&m, inv)
		inorm = m.Norm(inf)
	} else if inorm, err = lange(); err != nil {
		return 0, how, err
	}
	return 1 / (anorm * inorm), how, nil
}

// load reads the square matrix v (order at most Max) into m, as stored.
func load[T scalar.Type](m *Matrix[T], v views.View[T]) {
	l := v.Layout()
	m.Load(unsafe.Pointer(unsafe.SliceData(v.Data())), l.Offset(), l.Stride(0), l.Stride(1), l.Dim(0))
}
