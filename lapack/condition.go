package lapack

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/lapis-go/lapis/internal/policy"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// condSmall is the largest order CheckCondition computes exactly in Go:
// below it a gecon call costs more than the whole inverse of the factors.
const condSmall = 16

// CheckCondition returns an error matching ErrIllConditioned (and
// ErrSingular), carrying Error.Rcond, when the reciprocal condition number
// of the n x n matrix A is below machine epsilon; nil otherwise. lu holds
// A's LU factors as Getrf leaves them (the pivots are not needed: a row
// permutation changes neither norm), anorm is A's norm (OneNorm or
// InfNorm, taken before the factorisation). It is the check Solve and Inv
// make (lapack and batch). For n <= 16 the reciprocal condition number is
// computed exactly in Go from U^-1 L^-1; above, it is LAPACK's estimate
// (Gecon). op names the caller in the error. lu is not modified.
func CheckCondition[T Scalar](op string, norm Norm, lu views.View[T], anorm float64, opts ...Option) error {
	if err := checkNorm("lapack.CheckCondition", norm, true); err != nil {
		return err
	}
	if lu.Rank() != 2 || lu.Layout().Dim(0) != lu.Layout().Dim(1) {
		return layout.Errorf(layout.ErrShape, "lapack.CheckCondition", "lu", "shape %v, want a square matrix", lu.Shape())
	}
	n := lu.Layout().Dim(0)
	if n == 0 || anorm == 0 {
		return nil // an empty or zero matrix: the factorisation reported it
	}
	var rcond float64
	if n <= condSmall {
		rcond = 1 / (anorm * invNormLU(norm, lu, n))
	} else {
		var err error
		if rcond, err = Gecon(norm, lu, anorm, opts...); err != nil {
			return err
		}
	}
	if eps := epsOf[T]() / 2; !(rcond < eps) && !math.IsNaN(rcond) {
		return nil
	}
	return &Error{Routine: families["xgecon"].routines[typeIndex[T]()], Index: -1, Rank: -1, Rcond: rcond, kind: ErrIllConditioned,
		detail: fmt.Sprintf("%s: the reciprocal condition number is about %.3g, below machine epsilon: the result was written but may have no correct digits (NoConditionCheck turns this check off)", op, rcond)}
}

// invNormLU is the norm (one or infinity) of A^-1 for A = P L U with the
// factors in lu, n <= condSmall, in complex128. A^-1 = U^-1 L^-1 P^T is
// U^-1 L^-1 with its columns permuted, which changes neither norm, so the
// pivots are not needed.
func invNormLU[T Scalar](norm Norm, lu views.View[T], n int) float64 {
	var f [condSmall * condSmall]complex128 // column-major LU
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			f[i+j*n] = toComplex128(lu.At(i, j))
		}
	}
	var col [condSmall]complex128
	var rowSums [condSmall]float64
	best := 0.0
	for j := 0; j < n; j++ {
		// Column j of U^-1 L^-1: solve L y = e_j (unit lower), U z = y.
		clear(col[:n])
		col[j] = 1
		for k := j; k < n; k++ {
			for i := k + 1; i < n; i++ {
				col[i] -= f[i+k*n] * col[k]
			}
		}
		for k := n - 1; k >= 0; k-- {
			col[k] /= f[k+k*n]
			for i := 0; i < k; i++ {
				col[i] -= f[i+k*n] * col[k]
			}
		}
		sum := 0.0
		for i := 0; i < n; i++ {
			a := cmplx.Abs(col[i])
			sum += a
			rowSums[i] += a
		}
		best = max(best, sum)
	}
	if norm == InfNorm {
		best = 0
		for i := 0; i < n; i++ {
			best = max(best, rowSums[i])
		}
	}
	return best
}

// NoConditionCheck turns off the checks that report a numerically rank
// deficient or ill-conditioned matrix as an error matching
// ErrRankDeficient (Gels, LeastSquares, batch.LeastSquares) or
// ErrIllConditioned (Solve, Inv, batch.Solve, batch.Inv): the result is
// returned as computed.
func NoConditionCheck() Option { return policy.CondCheck(false) }
