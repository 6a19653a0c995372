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

// TestLinesMatchGo: every line is bit-identical to the Go loop's
// arithmetic, for lengths 1 to 100 and 1000 and unaligned starts.
func TestLinesMatchGo(t *testing.T) {
	if !fast {
		t.Skip("no AVX2 on this CPU, or a purego build: elem runs its Go loops")
	}
	r := rand.New(rand.NewPCG(5, 6))
	ops := []func(x, y float64) float64{
		func(x, y float64) float64 { return x + y }, func(x, y float64) float64 { return x - y },
		func(x, y float64) float64 { return x * y }, func(x, y float64) float64 { return x / y },
	}
	for n := 1; n <= 1001; n += 1 + n/10 {
		for off := range 3 {
			a, b := vals64(r, n+off)[off:], vals64(r, n+off)[off:]
			d := make([]float64, n+off)[off:]
			a32, b32, d32 := make([]float32, n), make([]float32, n), make([]float32, n)
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
			Axpby32(d32, a32, b32, al32, be32)
			for i := range d {
				if !same64(d[i], alpha*a[i]+beta*b[i]) || !same32(d32[i], al32*a32[i]+be32*b32[i]) {
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

// TestGuard runs every line on operands flush against an inaccessible
// page on either side: a read or write outside them faults.
func TestGuard(t *testing.T) {
	if !fast {
		t.Skip("no AVX2 on this CPU, or a purego build: elem runs its Go loops")
	}
	for _, side := range guard.Sides {
		ar := guard.NewArena(side)
		for _, n := range []int{1, 7, 15, 16, 17, 31, 32, 33, 63, 100} {
			d, a, b := guard.Slice[float64](ar, "d", n), guard.Slice[float64](ar, "a", n), guard.Slice[float64](ar, "b", n)
			e, x, y := guard.Slice[float32](ar, "e", n), guard.Slice[float32](ar, "x", n), guard.Slice[float32](ar, "y", n)
			for i := range a {
				a[i], b[i], x[i], y[i] = float64(i), 2, float32(i), 2
			}
			for op := Add; op <= Div; op++ {
				Binary64(op, d, a, b)
				Binary32(op, e, x, y)
			}
			Axpby64(d, a, b, 2, 3)
			Axpby32(e, x, y, 2, 3)
			if n > 0 && (d[n-1] != 2*float64(n-1)+6 || e[n-1] != 2*float32(n-1)+6) {
				t.Errorf("%v n=%d: axpby %v %v", side, n, d[n-1], e[n-1])
			}
			Scale64(d, a, 3)
			Scale32(e, x, 3)
			if d[n-1] != 3*float64(n-1) || e[n-1] != 3*float32(n-1) {
				t.Errorf("%v n=%d: scale %v %v", side, n, d[n-1], e[n-1])
			}
		}
		ar.Free()
	}
}
