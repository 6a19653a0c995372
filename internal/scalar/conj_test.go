package scalar

import (
	"math"
	"math/cmplx"
	"testing"
)

// TestConjComplex128: Conj and Complex128 for the four types against
// cmplx.Conj and complex(x, 0), signed zeros, infinities and NaN
// included; neither allocates.
func TestConjComplex128(t *testing.T) {
	parts := []float64{0, math.Copysign(0, -1), 1.5, -2, math.Inf(1), math.Inf(-1), math.NaN()}
	same := func(a, b complex128) bool {
		eq := func(x, y float64) bool {
			return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
		}
		return eq(real(a), real(b)) && eq(imag(a), imag(b))
	}
	for _, re := range parts {
		if got := Complex128(float64(re)); !same(got, complex(re, 0)) {
			t.Errorf("Complex128(float64 %v) = %v", re, got)
		}
		if got := Complex128(float32(re)); !same(got, complex(float64(float32(re)), 0)) {
			t.Errorf("Complex128(float32 %v) = %v", re, got)
		}
		if got := Conj(re); math.Float64bits(got) != math.Float64bits(re) && !math.IsNaN(re) {
			t.Errorf("Conj(float64 %v) = %v", re, got)
		}
		for _, im := range parts {
			z := complex(re, im)
			if got := Conj(z); !same(got, cmplx.Conj(z)) {
				t.Errorf("Conj(%v) = %v, want %v", z, got, cmplx.Conj(z))
			}
			z64 := complex64(z)
			if got := Complex128(Conj(z64)); !same(got, cmplx.Conj(complex128(z64))) {
				t.Errorf("Conj(complex64 %v) = %v", z64, got)
			}
			if got := Complex128(z64); !same(got, complex128(z64)) {
				t.Errorf("Complex128(complex64 %v) = %v", z64, got)
			}
		}
	}
	if n := testing.AllocsPerRun(10, func() { conjAll([]complex128{1i, 2}); conjAll([]complex64{1i, 2}) }); n != 0 {
		t.Errorf("Conj allocates %v times", n)
	}
}

// conjAll conjugates xs in place through a generic (shape-instantiated)
// caller, the way the library calls Conj.
//
//go:noinline
func conjAll[T Type](xs []T) {
	for i := range xs {
		xs[i] = Conj(xs[i])
	}
}
