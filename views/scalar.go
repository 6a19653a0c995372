package views

import "github.com/lapis-go/lapis/internal/scalar"

// Scalar is the set of element types lapis hands to BLAS and LAPACK:
// float32, float64, complex64 and complex128, the s, d, c and z of their
// routine names (exactly these four, not types defined on them).
type Scalar = scalar.Type

// IsComplex reports whether T is complex64 or complex128.
func IsComplex[T Scalar]() bool { return scalar.IsComplex[T]() }

// conjFunc returns the conjugation of T, or nil for real types. Resolve it
// once per operation, not per element.
func conjFunc[T Scalar]() func(T) T {
	var f any
	switch any(*new(T)).(type) {
	case complex64:
		f = scalar.Conj[complex64]
	case complex128:
		f = scalar.Conj[complex128]
	default:
		return nil
	}
	return f.(func(T) T)
}
