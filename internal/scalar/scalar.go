// Package scalar holds the facts about lapis's four element types that
// the library and its tests share: machine epsilon, magnitude and
// whether a type is complex.
package scalar

import (
	"math"
	"math/cmplx"
)

// Type is the set of element types (views.Scalar's).
type Type interface {
	~float32 | ~float64 | ~complex64 | ~complex128
}

// Eps is the machine epsilon of T's precision: 2^-23 for float32 and
// complex64, 2^-52 for float64 and complex128.
func Eps[T Type]() float64 {
	switch any(*new(T)).(type) {
	case float32, complex64:
		return 0x1p-23
	}
	return 0x1p-52
}

// Abs is |x| (the modulus for complex x), in float64.
func Abs[T Type](x T) float64 {
	switch v := any(x).(type) {
	case float32:
		return math.Abs(float64(v))
	case float64:
		return math.Abs(v)
	case complex64:
		return cmplx.Abs(complex128(v))
	case complex128:
		return cmplx.Abs(v)
	}
	return math.NaN() // a type defined on one of the four: not used by lapis
}

// IsComplex reports whether T is complex64 or complex128.
func IsComplex[T Type]() bool {
	switch any(*new(T)).(type) {
	case complex64, complex128:
		return true
	}
	return false
}
