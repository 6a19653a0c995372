// Package scalar holds lapis's four element types (Type, exported as
// views.Scalar) and the facts about them that the library and its tests
// share: machine epsilon, magnitude, whether a type is complex, the
// conversion to complex128 and the conjugate.
package scalar

import (
	"math"
	"math/cmplx"
	"unsafe"

	"github.com/lapis-go/lapis/internal/kernel/finite"
)

// Type is the set of element types lapis hands to BLAS and LAPACK: the
// s, d, c and z of their routine names. views.Scalar is Type under its
// public name. The four types exactly, no types defined on them: the type
// switches of this package and its users see one of the four.
type Type interface {
	float32 | float64 | complex64 | complex128
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
	return math.NaN() // unreachable: T is one of the four
}

// IsComplex reports whether T is complex64 or complex128.
func IsComplex[T Type]() bool {
	switch any(*new(T)).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// Prefix is the letter BLAS and LAPACK name T's routines with: "s", "d",
// "c" or "z" ("d" + "gesv" is dgesv).
func Prefix[T Type]() string { return [4]string{"s", "d", "c", "z"}[Index[T]()] }

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
	return cmplx.NaN() // unreachable: T is one of the four
}

// Conj is the complex conjugate of x (x itself for real T). It inlines,
// and its conversions through any neither escape nor allocate: callers
// may call it per element, and Conj[complex128] as a function value
// compiles to cmplx.Conj's single sign flip.
func Conj[T Type](x T) T {
	switch v := any(x).(type) {
	case complex64:
		return any(complex(real(v), -imag(v))).(T)
	case complex128:
		return any(complex(real(v), -imag(v))).(T)
	}
	return x
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
	return false // unreachable: T is one of the four
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

// MatrixHasNaN reports whether the rows x cols matrix whose element
// (i, j) is data[off + i*s0 + j*s1] holds a NaN (either part of a
// complex one); columns of unit stride are scanned by HasNaN.
func MatrixHasNaN[T Type](data []T, off, s0, s1, rows, cols int) bool {
	for j := range cols {
		if s0 == 1 {
			if HasNaN(data[off+j*s1:][:rows]) {
				return true
			}
			continue
		}
		for i := range rows {
			if x := data[off+i*s0+j*s1]; x != x {
				return true
			}
		}
	}
	return false
}

// AllFinite reports whether every element of xs (both parts, for
// complex ones) is neither NaN nor infinite. It is the scan of lapis's
// finite-input rule (package lapack's "NaN and Inf"): internal/kernel/
// finite's (AVX2 assembly on amd64, 5 float64 a cycle here in cache;
// Go's loop elsewhere), which stops at the first few elements holding
// one. Complex slices are read as their real and imaginary parts.
func AllFinite[T Type](xs []T) bool {
	if len(xs) == 0 {
		return true
	}
	p := unsafe.Pointer(unsafe.SliceData(xs))
	switch any(*new(T)).(type) {
	case float32:
		return finite.Float32s(unsafe.Slice((*float32)(p), len(xs)))
	case float64:
		return finite.Float64s(unsafe.Slice((*float64)(p), len(xs)))
	case complex64:
		return finite.Float32s(unsafe.Slice((*float32)(p), 2*len(xs)))
	case complex128:
		return finite.Float64s(unsafe.Slice((*float64)(p), 2*len(xs)))
	}
	return false // unreachable: T is one of the four
}

// MatrixFinite reports whether the rows x cols matrix whose element
// (i, j) is data[off+i*s0+j*s1] is finite (AllFinite) where tri says:
// all of it (0), its lower triangle i >= j ('L') or its upper triangle
// i <= j ('U'). It reads each element once: a compact matrix as one
// slice (AllFinite; for a triangle, column by column only when that
// pass finds a NaN or an infinity, which may lie in the other
// triangle), else a column (or, for a row-major one, a row) at a time
// along the axis of stride 1, else column by column through the
// strides; it stops at the first column (row) that holds a NaN or an
// infinity. Every element addressed must lie in data.
func MatrixFinite[T Type](data []T, off, s0, s1, rows, cols int, tri byte) bool {
	if rows <= 0 || cols <= 0 {
		return true
	}
	switch {
	case (s0 == 1 || rows == 1) && (s1 == rows || cols == 1):
		// Compact: one slice. For a triangle, the whole matrix first
		// (one pass, faster than a column at a time); only when that
		// finds a NaN or an infinity, perhaps in the other triangle, the
		// triangle's columns.
		if AllFinite(data[off : off+rows*cols]) {
			return true
		}
		return tri != 0 && columnsFinite(data, off, s1, rows, cols, tri)
	case s0 == 1 && rows > 1:
		return columnsFinite(data, off, s1, rows, cols, tri)
	case s1 == 1 && cols > 1:
		// Rows: the lower triangle's row i is j <= i, the upper's j >= i.
		t := tri
		switch tri {
		case 'L':
			t = 'U'
		case 'U':
			t = 'L'
		}
		for i := range rows {
			j0, j1 := span(t, i, cols)
			if j0 < j1 && !lineFinite(data[off+i*s0+j0:off+i*s0+j1]) {
				return false
			}
		}
		return true
	}
	for j := range cols {
		i0, i1 := span(tri, j, rows)
		var acc T
		for i := i0; i < i1; i++ {
			x := data[off+i*s0+j*s1]
			acc += x - x
		}
		if acc != 0 {
			return false
		}
	}
	return true
}

// InterleavedFinite reports whether cnt matrices stored with the batch
// axis innermost are finite where tri says (as MatrixFinite): matrix m's
// element (i, j) is data[off+m+i*s0+j*s1], so each element read is, for
// the cnt matrices, one line of cnt consecutive elements, scanned by
// AllFinite. It reads each element once, in memory order; it does not
// say which matrix holds a NaN or an infinity.
func InterleavedFinite[T Type](data []T, off, s0, s1, rows, cols, cnt int, tri byte) bool {
	if cnt <= 0 {
		return true
	}
	for j := range cols {
		i0, i1 := span(tri, j, rows)
		for i := i0; i < i1; i++ {
			if !lineFinite(data[off+i*s0+j*s1:][:cnt]) {
				return false
			}
		}
	}
	return true
}

// columnsFinite is MatrixFinite for a matrix with unit row stride, a
// column at a time.
func columnsFinite[T Type](data []T, off, s1, rows, cols int, tri byte) bool {
	for j := range cols {
		i0, i1 := span(tri, j, rows)
		if i0 < i1 && !lineFinite(data[off+j*s1+i0:off+j*s1+i1]) {
			return false
		}
	}
	return true
}

// lineFinite is AllFinite for a column or row of a matrix: a short one
// in one plain loop, where AllFinite's blocks and unrolling cost more
// than they save.
func lineFinite[T Type](xs []T) bool {
	if len(xs) >= 8 {
		return AllFinite(xs)
	}
	var acc T
	for _, x := range xs {
		acc += x - x
	}
	return acc == 0
}

// span returns the rows i0 <= i < i1 of column j (of n rows) in the
// triangle tri ('L': i >= j, 'U': i <= j, 0: all).
func span(tri byte, j, n int) (i0, i1 int) {
	switch tri {
	case 'L':
		return min(j, n), n
	case 'U':
		return 0, min(j+1, n)
	}
	return 0, n
}

// FromFloat is the real number f as a T (imaginary part 0).
func FromFloat[T Type](f float64) T {
	var t T
	switch p := any(&t).(type) {
	case *float32:
		*p = float32(f)
	case *float64:
		*p = f
	case *complex64:
		*p = complex(float32(f), 0)
	case *complex128:
		*p = complex(f, 0)
	}
	return t
}
