package cblas

import "github.com/lapis-go/lapis/internal/rt/link"

// The strided-batch product is package batch's, through internal/rt/link.
func init() {
	registerLinks[float32]()
	registerLinks[float64]()
	registerLinks[complex64]()
	registerLinks[complex128]()
}

func registerLinks[T Scalar]() { link.SetGemmStrided(link.Gemm[T](gemmStrided[T])) }
