package cond

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// InvNorm from hand-made LU factors of A = L U (no pivoting) against the
// inverse computed by Gauss-Jordan on A, for every order up to Max.
func TestInvNorm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for n := 1; n <= Max; n++ {
		var lu Matrix[float64]
		a := make([]float64, n*n)
		l, u := make([]float64, n*n), make([]float64, n*n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				switch {
				case i > j:
					l[i+j*n] = rng.Float64() - 0.5
				case i == j:
					l[i+j*n], u[i+j*n] = 1, 2+rng.Float64()
				default:
					u[i+j*n] = rng.Float64() - 0.5
				}
				lu.A[i+j*n] = l[i+j*n] + u[i+j*n] - map[bool]float64{true: 1, false: 0}[i == j]
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				for k := 0; k < n; k++ {
					a[i+j*n] += l[i+k*n] * u[k+j*n]
				}
			}
		}
		lu.N = n
		inv := gaussJordan(a, n)
		for _, inf := range []bool{false, true} {
			var im Matrix[float64]
			im.Load(unsafe.Pointer(&inv[0]), 0, 1, n, n)
			want := im.Norm(inf)
			if got := lu.InvNorm(inf); math.Abs(got-want) > 1e-10*want {
				t.Errorf("n=%d inf=%v: %g, want %g", n, inf, got, want)
			}
		}
	}
}

func gaussJordan(a []float64, n int) []float64 {
	m := append([]float64(nil), a...)
	inv := make([]float64, n*n)
	for i := 0; i < n; i++ {
		inv[i+i*n] = 1
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r+c*n]) > math.Abs(m[p+c*n]) {
				p = r
			}
		}
		for j := 0; j < n; j++ {
			m[c+j*n], m[p+j*n] = m[p+j*n], m[c+j*n]
			inv[c+j*n], inv[p+j*n] = inv[p+j*n], inv[c+j*n]
		}
		d := m[c+c*n]
		for j := 0; j < n; j++ {
			m[c+j*n] /= d
			inv[c+j*n] /= d
		}
		for r := 0; r < n; r++ {
			if r != c {
				f := m[r+c*n]
				for j := 0; j < n; j++ {
					m[r+j*n] -= f * m[c+j*n]
					inv[r+j*n] -= f * inv[c+j*n]
				}
			}
		}
	}
	return inv
}
