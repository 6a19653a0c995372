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

// Index numbers the four types: 0 float32, 1 float64, 2 complex64, 3
// complex128 (the order of per-type tables).
func Index[T Type]() int {
	switch any(*new(T)).(type) {
	case float32:
		return 0
	case float64:
		return 1
	case complex64:
		return 2
	}
	return 3
}

// Complex128 is x as a complex128 (a real x with a zero imaginary part).
func Complex128[T Type](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	case complex128:
		return v
	}
	return cmplx.NaN() // a type defined on one of the four: not used by lapis
}

// IsFinite reports whether x (both parts, for complex x) is neither NaN
// nor infinite: v - v is 0 exactly for a finite v (NaN for the others),
// a subtraction and a compare per part, cheap enough for batch's looks
// at each result.
func IsFinite[T Type](x T) bool {
	switch v := any(x).(type) {
	case float32:
		return v-v == 0
	case float64:
		return v-v == 0
	case complex64:
		return real(v)-real(v) == 0 && imag(v)-imag(v) == 0
	case complex128:
		return real(v)-real(v) == 0 && imag(v)-imag(v) == 0
	}
	c := Complex128(x)
	return !cmplx.IsNaN(c) && !cmplx.IsInf(c)
}

// HasNaN reports whether xs holds a NaN (either part of a complex one).
func HasNaN[T Type](xs []T) bool {
	for _, x := range xs {
		if x != x {
			return true
		}
	}
	return false
}
