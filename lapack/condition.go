package lapack

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/cond"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// checkCondition returns an error matching ErrIllConditioned (and
// ErrSingular), carrying Error.Rcond, when the reciprocal condition number
// of the n x n matrix A is below machine epsilon; nil otherwise. lu holds
// A's LU factors as Getrf leaves them (the pivots are not needed: a row
// permutation changes neither norm), anorm is A's norm (OneNorm or
// InfNorm, taken before the factorisation). It is the check Solve makes
// (lapack and batch; Inv, which has the inverse, uses checkInverse). For
// n <= 16 the reciprocal condition number is computed exactly in Go from
// U^-1 L^-1 (internal/rt/cond); above, ||A^-1|| is estimated by the
// iteration of LAPACK's ?lacn2, as Gecon runs it, on plain triangular
// solves (cblas_?trsv; gecon's scaled ?latrs cost 1.4-2.9x as much per solve), falling
// back to Gecon when a solve over- or underflows. op names the caller in
// the error, and Routine what computed rcond: routineExact up to order
// cond.Max, ?gecon (whose estimate it is) above. lu is not modified.
func checkCondition[T Scalar](op string, norm Norm, lu views.View[T], anorm float64, opts ...lapis.Option) error {
	n, err := condOperand("lapack.CheckCondition", "lu", norm, lu)
	if err != nil || n == 0 || anorm == 0 {
		return err // an empty or zero matrix: the factorisation reported it
	}
	rcond, routine, how, err := cond.LU(norm == InfNorm, lu, anorm, func() (float64, error) {
		return gecon("lapack.CheckCondition", norm, lu, anorm, true, opts)
	})
	if err != nil {
		return errop.Rename(err, op) // gecon's, as the caller's
	}
	return illConditionedBy[T](op, routine, how, rcond)
}

// checkInverse is checkCondition for a matrix A whose inverse is already
// known: the reciprocal condition number is exactly 1 / (anorm ||inv||)
// in that norm (OneNorm or InfNorm), with anorm A's norm taken before it
// was inverted. It returns an error matching ErrIllConditioned (and
// ErrSingular) carrying Rcond when that is below machine epsilon. op
// names the caller in the error.
func checkInverse[T Scalar](op string, norm Norm, inv views.View[T], anorm float64, opts ...lapis.Option) error {
	n, err := condOperand("lapack.CheckInverse", "inv", norm, inv)
	if err != nil || n == 0 || anorm == 0 {
		return err
	}
	rcond, how, err := cond.Inverse(norm == InfNorm, inv, anorm, func() (float64, error) { return Lange(norm, inv, opts...) })
	if err != nil {
		return errop.Rename(err, op)
	}
	return illConditionedBy[T](op, routineExact, how, rcond)
}

// condOperand checks checkCondition's and checkInverse's arguments (norm
// OneNorm or InfNorm, v square) and returns v's order.
func condOperand[T Scalar](op, name string, norm Norm, v views.View[T]) (n int, err error) {
	if err := checkNorm(op, norm, true); err != nil {
		return 0, err
	}
	if v.Rank() != 2 || v.Layout().Dim(0) != v.Layout().Dim(1) {
		return 0, layout.Errorf(layout.ErrShape, op, name, "shape %v, want a square matrix", v.Shape())
	}
	return v.Layout().Dim(0), nil
}

// routineExact is Error.Routine of an ErrIllConditioned error whose
// reciprocal condition number lapis computed exactly rather than
// estimated (Solve up to order cond.Max, in Go from the LU factors; Inv
// from the inverse): no LAPACK routine ran for it.
const routineExact = cond.RoutineExact

// illConditioned returns the ErrIllConditioned error of the function op
// for rcond = 1 / (||A|| ||A^-1||) computed exactly from the inverse
// (Inv), or nil when rcond is not below machine epsilon (NaN counts as
// below: the factors or the inverse hold NaN).
func illConditioned[T Scalar](op string, rcond float64) error {
	return illConditionedBy[T](op, routineExact, cond.HowInverse, rcond)
}

// illConditionedBy is illConditioned for an rcond that routine computed
// as how says.
func illConditionedBy[T Scalar](op, routine, how string, rcond float64) error {
	if !cond.Ill[T](rcond) {
		return nil
	}
	return &Error{Op: op, Routine: routine, Index: -1, Rank: -1, Rcond: rcond, Err: ErrIllConditioned, Detail: cond.Detail(how, rcond)}
}
