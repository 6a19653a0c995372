package views

import "math/cmplx"

// Scalar is the set of element types lapis hands to BLAS and LAPACK: the
// s, d, c and z of their routine names.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// IsComplex reports whether T is complex64 or complex128.
func IsComplex[T Scalar]() bool {
	switch any(*new(T)).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// conjFunc returns the conjugation of T, or nil for real types. Resolve it
// once per operation, not per element.
func conjFunc[T Scalar]() func(T) T {
	var f any
	switch any(*new(T)).(type) {
	case complex64:
		f = func(z complex64) complex64 { return complex64(cmplx.Conj(complex128(z))) }
	case complex128:
		f = cmplx.Conj
	default:
		return nil
	}
	return f.(func(T) T)
}
