package lapack

import "github.com/lapis-go/lapis/internal/rt/link"

// The strided-batch solve, the conditioning checks and the integer
// check are package batch's, through internal/rt/link.
func init() {
	link.SetFits(fits)
	registerLinks[float32]()
	registerLinks[float64]()
	registerLinks[complex64]()
	registerLinks[complex128]()
}

func registerLinks[T Scalar]() {
	link.SetGesvStrided(link.Gesv[T, *Error](gesvStrided[T]))
	link.SetChecks(link.Check[T, Norm](checkCondition[T]), link.Check[T, Norm](checkInverse[T]))
}
