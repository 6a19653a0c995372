package lapack

import "github.com/lapis-go/lapis/internal/rt/link"

// The strided-batch solve, the conditioning checks and the finite-input
// rule are package batch's, through internal/rt/link.
func init() {
	link.SetNotFinite(notFinite)
	registerLinks[float32]()
	registerLinks[float64]()
	registerLinks[complex64]()
	registerLinks[complex128]()
}

func registerLinks[T Scalar]() {
	link.SetGesvStrided(link.Gesv[T, *Error](gesvStrided[T]))
	link.SetChecks(link.Check[T, Norm](checkCondition[T]), link.Check[T, Norm](checkInverse[T]))
	link.SetFinite(link.Finite[T](func(op string, ins ...link.Input[T]) error {
		in := make([]input[T], len(ins))
		for i, x := range ins {
			in[i] = input[T]{x.Name, x.V, x.Tri}
		}
		return checkFinite(op, in...)
	}))
}
