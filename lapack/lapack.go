package lapack

import (
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Scalar is the set of element types: views.Scalar.
type Scalar = views.Scalar

// family describes a generated dispatcher (zlapack.go) for errors.
type family struct {
	routines [4]string   // s, d, c, z
	args     [2][]string // argument names, real and complex routines
	fail     error       // what info > 0 matches; nil when it cannot happen
}

// Real is the set of real element types: the singular values and
// eigenvalues of a Scalar type T are reals of T's precision (float32 for
// float32 and complex64, float64 for float64 and complex128).
type Real interface{ float32 | float64 }

// realFor checks that R is the real type of T's precision.
func realFor[T Scalar, R Real](op, name string) error {
	single := scalar.Index[T]()%2 == 0
	if _, isF32 := any(*new(R)).(float32); isF32 != single {
		return layout.Errorf(layout.ErrShape, op, name, "[]%T for %T elements, want []%s", *new(R), *new(T), map[bool]string{true: "float32", false: "float64"}[single])
	}
	return nil
}
