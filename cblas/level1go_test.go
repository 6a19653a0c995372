package cblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/test/known"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/views"
)

// The pure-Go level-1 paths (internal/blasgo's Dot, Axpy, Scal, Nrm2)
// against the library, on every type, strides of both signs, conjugated
// views, lengths on both sides of the thresholds and the unrolled loops'
// blocks of four; each call counted on the path it was sent to.

var level1Lengths = []int{1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 127, 128, 129, 300}

// sameValue reports whether got and want are equal within tol relative, or
// NaN in the same parts, or the same infinities.
func sameValue[T views.Scalar](got, want T, tol float64) bool {
	g, w := scalar.Complex128(got), scalar.Complex128(want)
	return samePart(real(g), real(w), tol) && samePart(imag(g), imag(w), tol)
}

// sameSpecial compares Scal's special values: real products exactly; a
// complex product that overflows or meets NaN or Inf only as non-finite
// on both paths, since kernels order the four products differently (the
// SkylakeX kernels give (+Inf, -Inf) where Haswell's and Go give (NaN,
// -Inf)); finite complex products within rounding.
func sameSpecial[T views.Scalar](got, want T) bool {
	if !views.IsComplex[T]() {
		return sameValue(got, want, 0)
	}
	g, w := scalar.Complex128(got), scalar.Complex128(want)
	finite := func(c complex128) bool {
		return !math.IsNaN(real(c)) && !math.IsNaN(imag(c)) && !math.IsInf(real(c), 0) && !math.IsInf(imag(c), 0)
	}
	if !finite(g) || !finite(w) {
		return !finite(g) && !finite(w)
	}
	return sameValue(got, want, 4*scalar.Eps[T]())
}

func samePart(g, w, tol float64) bool {
	switch {
	case g == math.MaxFloat64 && math.IsInf(w, 1):
		// A norm just above the largest float64: the library's x87 sum
		// rounds to +Inf, the Go path to MaxFloat64.
		return true
	case math.IsNaN(g) || math.IsNaN(w):
		return math.IsNaN(g) && math.IsNaN(w)
	case math.IsInf(g, 0) || math.IsInf(w, 0):
		return g == w
	}
	return math.Abs(g-w) <= tol*math.Max(math.Abs(w), math.SmallestNonzeroFloat64)
}

// counted runs f and checks that it was counted as one pure-Go call (goPath)
// or one library call.
func counted(t *testing.T, what string, goPath bool, f func()) {
	t.Helper()
	before := lapis.ReadStats()
	f()
	d := lapis.ReadStats()
	small, calls := d.Small-before.Small, d.Calls-before.Calls
	if goPath && (small != 1 || calls != 0) || !goPath && (small != 0 || calls != 1) {
		t.Fatalf("%s: counted %d pure-Go and %d library calls, want the %s path", what, small, calls, map[bool]string{true: "Go", false: "C"}[goPath])
	}
}

func testLevel1Go[T views.Scalar](t *testing.T, rng *rand.Rand) {
	tol := 64 * scalar.Eps[T]()
	for _, n := range level1Lengths {
		for _, sx := range strides {
			for _, sy := range strides {
				for c := 0; c < 4; c++ {
					name := fmt.Sprintf("%s n=%d sx=%d sy=%d conj=%d", tm.TypeName[T](), n, sx, sy, c)
					x, y := newVector[T](rng, n, sx), newVector[T](rng, n, sy)
					xv, yv := x.V, y.V
					if c&1 != 0 {
						xv = xv.Conj()
					}
					if c&2 != 0 {
						yv = yv.Conj()
					}
					// Dot: a strided complex dot is always computed in Go.
					var dg, dc T
					counted(t, name+" Dot go", true, func() { dg, _ = Dot(xv, yv, lapis.ForcePureGo()) })
					counted(t, name+" Dot c", blasgo.ComplexStridedDot[T](n, sx, sy), func() { dc, _ = Dot(xv, yv, lapis.ForceC()) })
					counted(t, name+" Dot", n <= level1Small || blasgo.ComplexStridedDot[T](n, sx, sy), func() { _, _ = Dot(xv, yv) })
					scale := 0.0 // sum |x||y|: the result may cancel
					for i, v := range values1(yv) {
						scale += tm.Abs(xv.At(i)) * tm.Abs(v)
					}
					if tm.Abs(dg-dc) > tol*float64(n)*scale {
						t.Fatalf("%s Dot: Go %v, library %v", name, dg, dc)
					}
					// Axpy and Scal: the same update on two copies of y (x).
					alpha := tm.Random[T](rng)
					y0 := values1(yv)
					counted(t, name+" Axpy go", true, func() { _ = Axpy(alpha, xv, yv, lapis.ForcePureGo()) })
					yg := values1(yv)
					for i := range y0 {
						yv.Set(y0[i], i)
					}
					counted(t, name+" Axpy c", false, func() { _ = Axpy(alpha, xv, yv, lapis.ForceC()) })
					xs := values1(xv)
					for i, w := range values1(yv) {
						// Relative to the terms: y + alpha x may cancel,
						// and the library fuses the multiply-add.
						scale := tm.Abs(y0[i]) + tm.Abs(alpha)*tm.Abs(xs[i])
						if tm.Abs(yg[i]-w) > tol*scale {
							t.Fatalf("%s Axpy y[%d]: Go %v, library %v", name, i, yg[i], w)
						}
					}
					x0 := values1(xv)
					counted(t, name+" Scal go", true, func() { _ = Scal(alpha, xv, lapis.ForcePureGo()) })
					xg := values1(xv)
					for i := range x0 {
						xv.Set(x0[i], i)
					}
					counted(t, name+" Scal c", false, func() { _ = Scal(alpha, xv, lapis.ForceC()) })
					for i, w := range values1(xv) {
						// Relative to |alpha| |x|: a complex product's part
						// may cancel, and kernels may fuse multiply-adds
						// (the SkylakeX ones do; Haswell's do not).
						if scale := tm.Abs(alpha) * tm.Abs(x0[i]); tm.Abs(xg[i]-w) > tol*scale {
							t.Fatalf("%s Scal x[%d]: Go %v, library %v", name, i, xg[i], w)
						}
					}
					counted(t, name+" Scal", n <= scalSmall, func() { _ = Scal(1, xv) })
					counted(t, name+" Axpy", n <= axpySmall, func() { _ = Axpy(1, yv, xv) })
					// Nrm2
					var ng, nc float64
					counted(t, name+" Nrm2 go", true, func() { ng, _ = Nrm2(xv, lapis.ForcePureGo()) })
					counted(t, name+" Nrm2 c", false, func() { nc, _ = Nrm2(xv, lapis.ForceC()) })
					counted(t, name+" Nrm2", n <= nrm2Small, func() { _, _ = Nrm2(xv) })
					if !samePart(ng, nc, tol*math.Sqrt(float64(n))) {
						t.Fatalf("%s Nrm2: Go %v, library %v", name, ng, nc)
					}
					x.CheckPadding(t, name+" x")
					y.CheckPadding(t, name+" y")
				}
			}
		}
	}
}

func TestLevel1GoAgainstLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 30))
	testLevel1Go[float64](t, rng)
	testLevel1Go[float32](t, rng)
	testLevel1Go[complex128](t, rng)
	testLevel1Go[complex64](t, rng)
}

// specials are the values the special-value tests place in vectors.
func specials[T views.Scalar]() []float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return []float64{0, math.Copysign(0, -1), 1, -2.5, 3e38, -math.MaxFloat32, 1e-38, 1e-45, math.NaN(), math.Inf(1), math.Inf(-1)}
	}
	return []float64{0, math.Copysign(0, -1), 1, -2.5, 1e300, -math.MaxFloat64, 1e-300, 5e-324, math.NaN(), math.Inf(1), math.Inf(-1)}
}

// specialVector is a vector of n elements whose parts are drawn from
// specials and ordinary values.
func specialVector[T views.Scalar](rng *rand.Rand, n, stride int, pool []float64) tm.Operand[T] {
	x := newVector[T](rng, n, stride)
	for i := 0; i < n; i++ {
		re, im := pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))]
		if rng.IntN(3) == 0 {
			re = rng.NormFloat64()
		}
		x.V.Set(tm.FromParts[T](re, im), i)
	}
	return x
}

// Nrm2 in Go is BLAS's on huge and tiny values (no overflow, no lost
// underflow), NaN and Inf: held to the library element by element.
func testNrm2Special[T views.Scalar](t *testing.T, rng *rand.Rand) {
	pool := specials[T]()
	tol := 8 * scalar.Eps[T]()
	for _, n := range []int{1, 2, 3, 4, 5, 8, 17, 64} {
		for _, s := range strides {
			for trial := 0; trial < 200; trial++ {
				x := specialVector[T](rng, n, s, pool)
				// Also whole vectors of one scale: all huge, all tiny.
				switch trial {
				case 0, 1, 2:
					for i := 0; i < n; i++ {
						x.V.Set(tm.FromParts[T](pool[4+trial]*(1+rng.Float64()), pool[4+trial]*rng.Float64()), i)
					}
				case 3:
					for i := 0; i < n; i++ {
						x.V.Set(tm.FromParts[T](pool[7], 0), i)
					}
				}
				ng, _ := Nrm2(x.V, lapis.ForcePureGo())
				nc, _ := Nrm2(x.V, lapis.ForceC())
				if !samePart(ng, nc, tol*math.Sqrt(float64(n))) {
					t.Fatalf("%s n=%d stride %d: Nrm2 of %v: Go %v, library %v", tm.TypeName[T](), n, s, values1(x.V), ng, nc)
				}
			}
		}
	}
}

func TestNrm2Special(t *testing.T) {
	// The comparison is with the library's nrm2; lapis's own Nrm2 runs in
	// Go and gives +Inf there whatever the library.
	known.Skip(t, known.Nrm2Infs())
	rng := rand.New(rand.NewPCG(31, 31))
	testNrm2Special[float64](t, rng)
	testNrm2Special[float32](t, rng)
	testNrm2Special[complex128](t, rng)
	testNrm2Special[complex64](t, rng)
}

// Scal in Go gives the library's special values: alpha = 0 stores zeros
// over NaN, a complex alpha with a zero part scales by the other alone.
// An alpha with a NaN part gives NaN on either path: Scal sends it to Go
// whatever the path asked (OpenBLAS 0.3.21's sscal, and its zscal on
// Prescott to Sandybridge, store zeros there).
func testScalSpecial[T views.Scalar](t *testing.T, rng *rand.Rand) {
	pool := specials[T]()
	alphas := []float64{0, 2, -1, math.NaN(), math.Inf(1)}
	for _, n := range []int{1, 3, 4, 9, 65} {
		for _, s := range strides {
			for _, ar := range alphas {
				for _, ai := range alphas {
					if !views.IsComplex[T]() && ai != 0 {
						continue
					}
					alpha := tm.FromParts[T](ar, ai)
					x := specialVector[T](rng, n, s, pool)
					x0 := values1(x.V)
					_ = Scal(alpha, x.V, lapis.ForcePureGo())
					xg := values1(x.V)
					for i := range x0 {
						x.V.Set(x0[i], i)
					}
					_ = Scal(alpha, x.V, lapis.ForceC())
					for i, w := range values1(x.V) {
						if !sameSpecial(xg[i], w) {
							t.Fatalf("%s n=%d stride %d: %v * %v: Go %v, library %v", tm.TypeName[T](), n, s, alpha, x0[i], xg[i], w)
						}
					}
				}
			}
		}
	}
}

func TestScalSpecial(t *testing.T) {
	// blasgo.Scal copies OpenBLAS 0.3.21's special values (the library Debian 12
	// ships); other libraries choose their own (0.3.29's zscal turns
	// (NaN+2i)*(1+0i) into (-0+2i), the reference multiplies NaN by 0), so
	// the comparison is for that library only.
	if info := lapis.Info(); info.Library != "OpenBLAS" || info.Version != "0.3.21" {
		t.Skipf("%s %s: the Go path copies OpenBLAS 0.3.21's special values of ?scal, not this library's", info.Library, info.Version)
	}
	rng := rand.New(rand.NewPCG(32, 32))
	testScalSpecial[float64](t, rng)
	testScalSpecial[float32](t, rng)
	testScalSpecial[complex128](t, rng)
	testScalSpecial[complex64](t, rng)
}
