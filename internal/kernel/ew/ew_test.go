package ew

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/internal/test/guard"
)

func vals64(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(20)-10))
		switch r.IntN(40) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = math.NaN()
		case 2:
			x[i] = math.Inf(1 - 2*r.IntN(2))
		}
	}
	return x
}

func same64(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
func same32(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b }

// sets runs f as subtests avx2 and avx512, with that set of lines in
// force (SetAVX512); avx512 skips where the CPU has no AVX-512.
func sets(t *testing.T, f func(t *testing.T)) {
	if !fast {
		t.Skip("no AVX2 on this CPU, or a purego build: elem runs its Go loops")
	}
	for _, on := range []bool{false, true} {
		t.Run(map[bool]string{false: "avx2", true: "avx512"}[on], func(t *testing.T) {
			if on && !avx512 {
				t.Skip("no AVX-512 on this CPU")
			}
			defer SetAVX512(SetAVX512(on))
			f(t)
		})
	}
}

// lengths are the line lengths TestLinesMatchGo tries: every one to 140
// (each tail of both sets, after no loop or a few), then some longer.
var lengths = func() []int {
	var ns []int
	for n := 1; n <= 140; n++ {
		ns = append(ns, n)
	}
	return append(ns, 255, 256, 257, 1000, 1001)
}()

// TestLinesMatchGo: every line of both sets is bit-identical to the Go
// loop's arithmetic, for the lengths above and unaligned starts, with
// NaN, infinities and zeros.
func TestLinesMatchGo(t *testing.T) {
	sets(t, testLinesMatchGo)
}

func testLinesMatchGo(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ops := []func(x, y float64) float64{
		func(x, y float64) float64 { return x + y }, func(x, y float64) float64 { return x - y },
		func(x, y float64) float64 { return x * y }, func(x, y float64) float64 { return x / y },
	}
	for _, n := range lengths {
		for off := range 3 {
			a, b := vals64(r, n+off)[off:], vals64(r, n+off)[off:]
			d := make([]float64, n+off)[off:]
			a32, b32, d32 := make([]float32, n+off)[off:], make([]float32, n+off)[off:], make([]float32, n+off)[off:]
			for i := range a {
				a32[i], b32[i] = float32(a[i]), float32(b[i])
			}
			alpha, beta := r.Float64()*4-2, r.Float64()*4-2
			for op, f := range ops {
				Binary64(Op(op), d, a, b)
				Binary32(Op(op), d32, a32, b32)
				for i := range d {
					if !same64(d[i], f(a[i], b[i])) || !same32(d32[i], float32(f(float64(a32[i]), float64(b32[i])))) && op != 3 {
						t.Fatalf("op %d n=%d off %d [%d]: %v, %v; Go %v", op, n, off, i, d[i], d32[i], f(a[i], b[i]))
					}
				}
				for i := range d32 { // float32 division against float32 Go
					if op == 3 && !same32(d32[i], a32[i]/b32[i]) {
						t.Fatalf("div32 n=%d [%d]: %v, Go %v", n, i, d32[i], a32[i]/b32[i])
					}
				}
			}
			Axpby64(d, a, b, alpha, beta)
			al32, be32 := float32(alpha), float32(beta)
			// The conversions round each product, as the lines do: without
			// them GOAMD64=v3 fuses the Go reference into one FMA.
			Axpby32(d32, a32, b32, al32, be32)
			for i := range d {
				if !same64(d[i], float64(alpha*a[i])+float64(beta*b[i])) || !same32(d32[i], float32(al32*a32[i])+float32(be32*b32[i])) {
					t.Fatalf("axpby n=%d [%d]: %v %v", n, i, d[i], d32[i])
				}
			}
			Scale64(d, a, alpha)
			Scale32(d32, a32, al32)
			for i := range d {
				if !same64(d[i], alpha*a[i]) || !same32(d32[i], al32*a32[i]) {
					t.Fatalf("scale n=%d [%d]: %v %v", n, i, d[i], d32[i])
				}
			}
		}
	}
}

// TestGuard runs every line of both sets, for every length 0 to 70, on
// operands flush against an inaccessible page on either side (ending at
// it, or starting after it): a read or write outside them faults, the
// masked tails' included. The results are checked against the Go loops.
func TestGuard(t *testing.T) {
	sets(t, testGuard)
}

func testGuard(t *testing.T) {
	for _, side := range guard.Sides {
		ar := guard.NewArena(side)
		for n := 0; n <= 70; n++ {
			d, a, b := guard.Slice[float64](ar, "d", n), guard.Slice[float64](ar, "a", n), guard.Slice[float64](ar, "b", n)
			e, x, y := guard.Slice[float32](ar, "e", n), guard.Slice[float32](ar, "x", n), guard.Slice[float32](ar, "y", n)
			for i := range a {
				a[i], b[i], x[i], y[i] = float64(i)+0.5, float64(n-i), float32(i)+0.5, float32(n-i)
			}
			check := func(what string, f64 func(i int) float64, f32 func(i int) float32) {
				for i := range n {
					if d[i] != f64(i) || e[i] != f32(i) {
						t.Fatalf("%v n=%d: %s [%d]: %v %v, Go %v %v", side, n, what, i, d[i], e[i], f64(i), f32(i))
					}
				}
			}
			Binary64(Add, d, a, b)
			Binary32(Add, e, x, y)
			check("add", func(i int) float64 { return a[i] + b[i] }, func(i int) float32 { return x[i] + y[i] })
			Binary64(Sub, d, a, b)
			Binary32(Sub, e, x, y)
			check("sub", func(i int) float64 { return a[i] - b[i] }, func(i int) float32 { return x[i] - y[i] })
			Binary64(Mul, d, a, b)
			Binary32(Mul, e, x, y)
			check("mul", func(i int) float64 { return a[i] * b[i] }, func(i int) float32 { return x[i] * y[i] })
			Binary64(Div, d, a, b)
			Binary32(Div, e, x, y)
			check("div", func(i int) float64 { return a[i] / b[i] }, func(i int) float32 { return x[i] / y[i] })
			Axpby64(d, a, b, 2, 3)
			Axpby32(e, x, y, 2, 3)
			check("axpby", func(i int) float64 { return float64(2*a[i]) + float64(3*b[i]) }, func(i int) float32 { return float32(2*x[i]) + float32(3*y[i]) })
			Scale64(d, a, 3)
			Scale32(e, x, 3)
			check("scale", func(i int) float64 { return 3 * a[i] }, func(i int) float32 { return 3 * x[i] })
		}
		ar.Free()
	}
}
