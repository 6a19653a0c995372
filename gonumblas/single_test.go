package gonumblas_test

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/gonumblas"
	"github.com/lapis-go/lapis/internal/scalar"
)

// TestSingle checks every float32 and complex64 method (testblas has
// tests only for float64 and complex128) against gonum's pure Go, on
// non-square shapes, ld > n and negative increments, with each flag.
func TestSingle(t *testing.T) {
	t.Run("Float32", func(t *testing.T) {
		runSingle[float32, blas.Float32](t, cases32(), gonumblas.Implementation{}, gonum.Implementation{})
	})
	t.Run("Complex64", func(t *testing.T) {
		runSingle[complex64, blas.Complex64](t, cases64(), gonumblas.Implementation{}, gonum.Implementation{})
	})
}

// A single runs one call on impl, over fresh copies of the same random
// x, y, a and c, and returns everything it wrote or returned.
type single[T float32 | complex64, B any] struct {
	name string
	f    func(impl B, x, y, a, c []T) []T
}

// noC lists the cases that are no-ops, which must not call C.
var noC = map[string]bool{"Srotm/-2": true} // blas.Identity

func runSingle[T float32 | complex64, B any](t *testing.T, cases []single[T, B], mine, ref B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var data [4][]T
	for i := range data {
		data[i] = make([]T, 128)
		for j := range data[i] {
			var z T
			switch p := any(&z).(type) {
			case *float32:
				*p = float32(2*rng.Float64() - 1)
			case *complex64:
				*p = complex(float32(2*rng.Float64()-1), float32(2*rng.Float64()-1))
			}
			data[i][j] = z
		}
	}
	run := func(impl B, f func(B, []T, []T, []T, []T) []T) []T {
		var d [4][]T
		for i := range d {
			d[i] = append([]T(nil), data[i]...)
		}
		return f(impl, d[0], d[1], d[2], d[3])
	}
	for _, c := range cases {
		before := lapis.ReadStats()
		got, want := run(mine, c.f), run(ref, c.f)
		// A call either reaches the library or is computed by lapis in Go
		// (strided complex dots, which OpenBLAS 0.3.21 over-reads).
		after := lapis.ReadStats()
		if calls := after.Calls - before.Calls + after.Small - before.Small; (calls == 0) != noC[c.name] {
			t.Errorf("%s: %d calls into the C library or its Go replacement", c.name, calls)
		}
		for i := range want {
			if d := cmplx.Abs(complex128(scalar.Complex128(got[i]) - scalar.Complex128(want[i]))); !(d <= 1e-4*(1+cmplx.Abs(scalar.Complex128(want[i])))) {
				t.Errorf("%s: element %d = %v, gonum has %v", c.name, i, got[i], want[i])
				break
			}
		}
	}
}

// Shapes for TestSingle: m != n, band widths kL != kU, ld > every
// dimension, and increments 2 and -3.
const (
	sm, sn, sk, sld = 5, 4, 3, 7
	skl, sku        = 1, 2
	six, siy        = 2, -3
)

func cat[T any](s ...[]T) []T {
	var r []T
	for _, v := range s {
		r = append(r, v...)
	}
	return r
}

var (
	uplos      = []blas.Uplo{blas.Upper, blas.Lower}
	sides      = []blas.Side{blas.Left, blas.Right}
	realOps    = []blas.Transpose{blas.NoTrans, blas.Trans}
	complexOps = []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}
	hermOps    = []blas.Transpose{blas.NoTrans, blas.ConjTrans}
)

// tri makes the cases of a triangular routine: one per uplo and op;
// solves get a unit diagonal, which keeps random triangles well
// conditioned.
func tri[T float32 | complex64, B any](name string, ts []blas.Transpose, solve bool, call func(B, blas.Uplo, blas.Transpose, blas.Diag, []T, []T) []T) []single[T, B] {
	d := blas.NonUnit
	if solve {
		d = blas.Unit
	}
	var cs []single[T, B]
	for _, ul := range uplos {
		for _, tA := range ts {
			cs = append(cs, single[T, B]{fmt.Sprintf("%s/%c%c", name, ul, tA), func(b B, x, _, a, _ []T) []T { return call(b, ul, tA, d, a, x) }})
		}
	}
	return cs
}

func cases32() []single[float32, blas.Float32] {
	type c = single[float32, blas.Float32]
	type B = blas.Float32
	cs := []c{
		{"Sdsdot", func(b B, x, y, _, _ []float32) []float32 { return []float32{b.Sdsdot(sn, 0.5, x, six, y, siy)} }},
		{"Dsdot", func(b B, x, y, _, _ []float32) []float32 { return []float32{float32(b.Dsdot(sn, x, six, y, siy))} }},
		{"Sdot", func(b B, x, y, _, _ []float32) []float32 { return []float32{b.Sdot(sn, x, six, y, siy)} }},
		{"Snrm2", func(b B, x, _, _, _ []float32) []float32 { return []float32{b.Snrm2(sn, x, six)} }},
		{"Sasum", func(b B, x, _, _, _ []float32) []float32 { return []float32{b.Sasum(sn, x, six)} }},
		{"Isamax", func(b B, x, _, _, _ []float32) []float32 { return []float32{float32(b.Isamax(sn, x, six))} }},
		{"Sswap", func(b B, x, y, _, _ []float32) []float32 { b.Sswap(sn, x, six, y, siy); return cat(x, y) }},
		{"Scopy", func(b B, x, y, _, _ []float32) []float32 { b.Scopy(sn, x, six, y, siy); return y }},
		{"Saxpy", func(b B, x, y, _, _ []float32) []float32 { b.Saxpy(sn, 0.7, x, six, y, siy); return y }},
		{"Srotg", func(b B, x, _, _, _ []float32) []float32 {
			c, s, r, z := b.Srotg(x[0], x[1])
			return []float32{c, s, r, z}
		}},
		{"Srotmg", func(b B, x, _, _, _ []float32) []float32 {
			p, d1, d2, b1 := b.Srotmg(1+x[0]*x[0], 1+x[1]*x[1], x[2], x[3])
			return []float32{float32(p.Flag), p.H[0], p.H[1], p.H[2], p.H[3], d1, d2, b1}
		}},
		{"Srot", func(b B, x, y, _, _ []float32) []float32 { b.Srot(sn, x, six, y, siy, 0.6, 0.8); return cat(x, y) }},
		{"Sscal", func(b B, x, _, _, _ []float32) []float32 { b.Sscal(sn, 0.3, x, six); return x }},
	}
	for _, f := range []blas.Flag{blas.Identity, blas.Rescaling, blas.OffDiagonal, blas.Diagonal} {
		cs = append(cs, c{fmt.Sprintf("Srotm/%d", f), func(b B, x, y, a, _ []float32) []float32 {
			b.Srotm(sn, x, six, y, siy, blas.SrotmParams{Flag: f, H: [4]float32(a[:4])})
			return cat(x, y)
		}})
	}
	for _, tA := range realOps {
		cs = append(cs,
			c{fmt.Sprintf("Sgemv/%c", tA), func(b B, x, y, a, _ []float32) []float32 {
				b.Sgemv(tA, sm, sn, 0.7, a, sld, x, six, 0.3, y, siy)
				return y
			}},
			c{fmt.Sprintf("Sgbmv/%c", tA), func(b B, x, y, a, _ []float32) []float32 {
				b.Sgbmv(tA, sm, sn, skl, sku, 0.7, a, sld, x, six, 0.3, y, siy)
				return y
			}})
	}
	cs = append(cs, tri("Strmv", realOps, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Strmv(ul, tA, d, sn, a, sld, x, six)
		return x
	})...)
	cs = append(cs, tri("Strsv", realOps, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Strsv(ul, tA, d, sn, a, sld, x, six)
		return x
	})...)
	cs = append(cs, tri("Stbmv", realOps, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Stbmv(ul, tA, d, sn, sku, a, sld, x, six)
		return x
	})...)
	cs = append(cs, tri("Stbsv", realOps, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Stbsv(ul, tA, d, sn, sku, a, sld, x, six)
		return x
	})...)
	cs = append(cs, tri("Stpmv", realOps, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Stpmv(ul, tA, d, sn, a, x, six)
		return x
	})...)
	cs = append(cs, tri("Stpsv", realOps, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Stpsv(ul, tA, d, sn, a, x, six)
		return x
	})...)
	// Positive increments only: gonum's own amd64 Sger/Dger kernels get
	// negative ones wrong (gonum/gonum#2105); TestGer checks them.
	cs = append(cs, c{"Sger", func(b B, x, y, a, _ []float32) []float32 { b.Sger(sm, sn, 0.7, x, six, y, 3, a, sld); return a }})
	for _, ul := range uplos {
		cs = append(cs,
			c{fmt.Sprintf("Ssymv/%c", ul), func(b B, x, y, a, _ []float32) []float32 {
				b.Ssymv(ul, sn, 0.7, a, sld, x, six, 0.3, y, siy)
				return y
			}},
			c{fmt.Sprintf("Ssbmv/%c", ul), func(b B, x, y, a, _ []float32) []float32 {
				b.Ssbmv(ul, sn, sku, 0.7, a, sld, x, six, 0.3, y, siy)
				return y
			}},
			c{fmt.Sprintf("Sspmv/%c", ul), func(b B, x, y, a, _ []float32) []float32 {
				b.Sspmv(ul, sn, 0.7, a, x, six, 0.3, y, siy)
				return y
			}},
			c{fmt.Sprintf("Ssyr/%c", ul), func(b B, x, _, a, _ []float32) []float32 { b.Ssyr(ul, sn, 0.7, x, six, a, sld); return a }},
			c{fmt.Sprintf("Sspr/%c", ul), func(b B, x, _, a, _ []float32) []float32 { b.Sspr(ul, sn, 0.7, x, six, a); return a }},
			c{fmt.Sprintf("Ssyr2/%c", ul), func(b B, x, y, a, _ []float32) []float32 {
				b.Ssyr2(ul, sn, 0.7, x, six, y, siy, a, sld)
				return a
			}},
			c{fmt.Sprintf("Sspr2/%c", ul), func(b B, x, y, a, _ []float32) []float32 { b.Sspr2(ul, sn, 0.7, x, six, y, siy, a); return a }},
		)
		for _, s := range sides {
			cs = append(cs, c{fmt.Sprintf("Ssymm/%c%c", s, ul), func(b B, _, y, a, cc []float32) []float32 {
				b.Ssymm(s, ul, sm, sn, 0.7, a, sld, y, sld, 0.3, cc, sld)
				return cc
			}})
			for _, tA := range realOps {
				cs = append(cs,
					c{fmt.Sprintf("Strmm/%c%c%c", s, ul, tA), func(b B, _, _, a, cc []float32) []float32 {
						b.Strmm(s, ul, tA, blas.NonUnit, sm, sn, 0.7, a, sld, cc, sld)
						return cc
					}},
					c{fmt.Sprintf("Strsm/%c%c%c", s, ul, tA), func(b B, _, _, a, cc []float32) []float32 {
						b.Strsm(s, ul, tA, blas.Unit, sm, sn, 0.7, a, sld, cc, sld)
						return cc
					}})
			}
		}
		for _, tA := range realOps {
			cs = append(cs,
				c{fmt.Sprintf("Ssyrk/%c%c", ul, tA), func(b B, _, _, a, cc []float32) []float32 {
					b.Ssyrk(ul, tA, sn, sk, 0.7, a, sld, 0.3, cc, sld)
					return cc
				}},
				c{fmt.Sprintf("Ssyr2k/%c%c", ul, tA), func(b B, _, y, a, cc []float32) []float32 {
					b.Ssyr2k(ul, tA, sn, sk, 0.7, a, sld, y, sld, 0.3, cc, sld)
					return cc
				}})
		}
	}
	for _, tA := range realOps {
		for _, tB := range realOps {
			cs = append(cs, c{fmt.Sprintf("Sgemm/%c%c", tA, tB), func(b B, _, y, a, cc []float32) []float32 {
				b.Sgemm(tA, tB, sm, sn, sk, 0.7, a, sld, y, sld, 0.3, cc, sld)
				return cc
			}})
		}
	}
	return cs
}

func cases64() []single[complex64, blas.Complex64] {
	type c = single[complex64, blas.Complex64]
	type B = blas.Complex64
	const alpha, beta = complex64(0.7 - 0.2i), complex64(0.3 + 0.4i)
	cs := []c{
		{"Cdotu", func(b B, x, y, _, _ []complex64) []complex64 { return []complex64{b.Cdotu(sn, x, six, y, siy)} }},
		{"Cdotc", func(b B, x, y, _, _ []complex64) []complex64 { return []complex64{b.Cdotc(sn, x, six, y, siy)} }},
		{"Scnrm2", func(b B, x, _, _, _ []complex64) []complex64 { return []complex64{complex(b.Scnrm2(sn, x, six), 0)} }},
		{"Scasum", func(b B, x, _, _, _ []complex64) []complex64 { return []complex64{complex(b.Scasum(sn, x, six), 0)} }},
		{"Icamax", func(b B, x, _, _, _ []complex64) []complex64 {
			return []complex64{complex(float32(b.Icamax(sn, x, six)), 0)}
		}},
		{"Cswap", func(b B, x, y, _, _ []complex64) []complex64 { b.Cswap(sn, x, six, y, siy); return cat(x, y) }},
		{"Ccopy", func(b B, x, y, _, _ []complex64) []complex64 { b.Ccopy(sn, x, six, y, siy); return y }},
		{"Caxpy", func(b B, x, y, _, _ []complex64) []complex64 { b.Caxpy(sn, alpha, x, six, y, siy); return y }},
		{"Cscal", func(b B, x, _, _, _ []complex64) []complex64 { b.Cscal(sn, alpha, x, six); return x }},
		{"Csscal", func(b B, x, _, _, _ []complex64) []complex64 { b.Csscal(sn, 0.3, x, six); return x }},
		{"Cgeru", func(b B, x, y, a, _ []complex64) []complex64 {
			b.Cgeru(sm, sn, alpha, x, six, y, siy, a, sld)
			return a
		}},
		{"Cgerc", func(b B, x, y, a, _ []complex64) []complex64 {
			b.Cgerc(sm, sn, alpha, x, six, y, siy, a, sld)
			return a
		}},
	}
	for _, tA := range complexOps {
		cs = append(cs,
			c{fmt.Sprintf("Cgemv/%c", tA), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Cgemv(tA, sm, sn, alpha, a, sld, x, six, beta, y, siy)
				return y
			}},
			c{fmt.Sprintf("Cgbmv/%c", tA), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Cgbmv(tA, sm, sn, skl, sku, alpha, a, sld, x, six, beta, y, siy)
				return y
			}})
	}
	cs = append(cs, tri("Ctrmv", complexOps, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctrmv(ul, tA, d, sn, a, sld, x, six)
		return x
	})...)
	cs = append(cs, tri("Ctrsv", complexOps, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctrsv(ul, tA, d, sn, a, sld, x, six)
		return x
	})...)
	cs = append(cs, tri("Ctbmv", complexOps, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctbmv(ul, tA, d, sn, sku, a, sld, x, six)
		return x
	})...)
	cs = append(cs, tri("Ctbsv", complexOps, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctbsv(ul, tA, d, sn, sku, a, sld, x, six)
		return x
	})...)
	cs = append(cs, tri("Ctpmv", complexOps, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctpmv(ul, tA, d, sn, a, x, six)
		return x
	})...)
	cs = append(cs, tri("Ctpsv", complexOps, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctpsv(ul, tA, d, sn, a, x, six)
		return x
	})...)
	for _, ul := range uplos {
		cs = append(cs,
			c{fmt.Sprintf("Chemv/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Chemv(ul, sn, alpha, a, sld, x, six, beta, y, siy)
				return y
			}},
			c{fmt.Sprintf("Chbmv/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Chbmv(ul, sn, sku, alpha, a, sld, x, six, beta, y, siy)
				return y
			}},
			c{fmt.Sprintf("Chpmv/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Chpmv(ul, sn, alpha, a, x, six, beta, y, siy)
				return y
			}},
			c{fmt.Sprintf("Cher/%c", ul), func(b B, x, _, a, _ []complex64) []complex64 { b.Cher(ul, sn, 0.7, x, six, a, sld); return a }},
			c{fmt.Sprintf("Chpr/%c", ul), func(b B, x, _, a, _ []complex64) []complex64 { b.Chpr(ul, sn, 0.7, x, six, a); return a }},
			c{fmt.Sprintf("Cher2/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Cher2(ul, sn, alpha, x, six, y, siy, a, sld)
				return a
			}},
			c{fmt.Sprintf("Chpr2/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Chpr2(ul, sn, alpha, x, six, y, siy, a)
				return a
			}},
		)
		for _, s := range sides {
			cs = append(cs,
				c{fmt.Sprintf("Csymm/%c%c", s, ul), func(b B, _, y, a, cc []complex64) []complex64 {
					b.Csymm(s, ul, sm, sn, alpha, a, sld, y, sld, beta, cc, sld)
					return cc
				}},
				c{fmt.Sprintf("Chemm/%c%c", s, ul), func(b B, _, y, a, cc []complex64) []complex64 {
					b.Chemm(s, ul, sm, sn, alpha, a, sld, y, sld, beta, cc, sld)
					return cc
				}})
			for _, tA := range complexOps {
				cs = append(cs,
					c{fmt.Sprintf("Ctrmm/%c%c%c", s, ul, tA), func(b B, _, _, a, cc []complex64) []complex64 {
						b.Ctrmm(s, ul, tA, blas.NonUnit, sm, sn, alpha, a, sld, cc, sld)
						return cc
					}},
					c{fmt.Sprintf("Ctrsm/%c%c%c", s, ul, tA), func(b B, _, _, a, cc []complex64) []complex64 {
						b.Ctrsm(s, ul, tA, blas.Unit, sm, sn, alpha, a, sld, cc, sld)
						return cc
					}})
			}
		}
		for _, tA := range realOps {
			cs = append(cs,
				c{fmt.Sprintf("Csyrk/%c%c", ul, tA), func(b B, _, _, a, cc []complex64) []complex64 {
					b.Csyrk(ul, tA, sn, sk, alpha, a, sld, beta, cc, sld)
					return cc
				}},
				c{fmt.Sprintf("Csyr2k/%c%c", ul, tA), func(b B, _, y, a, cc []complex64) []complex64 {
					b.Csyr2k(ul, tA, sn, sk, alpha, a, sld, y, sld, beta, cc, sld)
					return cc
				}})
		}
		for _, tA := range hermOps {
			cs = append(cs,
				c{fmt.Sprintf("Cherk/%c%c", ul, tA), func(b B, _, _, a, cc []complex64) []complex64 {
					b.Cherk(ul, tA, sn, sk, 0.7, a, sld, 0.3, cc, sld)
					return cc
				}},
				c{fmt.Sprintf("Cher2k/%c%c", ul, tA), func(b B, _, y, a, cc []complex64) []complex64 {
					b.Cher2k(ul, tA, sn, sk, alpha, a, sld, y, sld, 0.3, cc, sld)
					return cc
				}})
		}
	}
	for _, tA := range complexOps {
		for _, tB := range complexOps {
			cs = append(cs, c{fmt.Sprintf("Cgemm/%c%c", tA, tB), func(b B, _, y, a, cc []complex64) []complex64 {
				b.Cgemm(tA, tB, sm, sn, sk, alpha, a, sld, y, sld, beta, cc, sld)
				return cc
			}})
		}
	}
	return cs
}

// TestGer checks ger with negative increments, where gonum's pure Go
// is wrong on amd64 (gonum/gonum#2105), against an index-by-index loop.
func TestGer(t *testing.T) {
	const m, n, lda = 3, 4, 6
	// elem is element i of the vector v with increment inc (BLAS counts
	// from the end of v when inc < 0).
	elem := func(v []complex128, inc, i int) complex128 {
		if inc < 0 {
			return v[(len(v)-1)+i*inc]
		}
		return v[i*inc]
	}
	for _, inc := range [][2]int{{1, -1}, {-2, 1}, {-3, -4}, {2, 3}} {
		ix, iy := inc[0], inc[1]
		x := make([]complex128, (m-1)*max(ix, -ix)+1)
		y := make([]complex128, (n-1)*max(iy, -iy)+1)
		xr, yr := make([]float64, len(x)), make([]float64, len(y))
		for i := range x {
			x[i], xr[i] = complex(float64(i+1), float64(i%3)), float64(i+1)
		}
		for i := range y {
			y[i], yr[i] = complex(float64(2*i+1), -1), float64(2*i+1)
		}
		wantU, wantC, wantR := make([]complex128, m*lda), make([]complex128, m*lda), make([]float64, m*lda)
		for i := range m {
			for j := range n {
				xi, yj := elem(x, ix, i), elem(y, iy, j)
				wantU[i*lda+j] = 0.5 * xi * yj
				wantC[i*lda+j] = 0.5 * xi * cmplx.Conj(yj)
				wantR[i*lda+j] = 0.5 * real(xi) * real(yj)
			}
		}
		gotU, gotC, gotR := make([]complex128, m*lda), make([]complex128, m*lda), make([]float64, m*lda)
		gonumblas.Implementation{}.Zgeru(m, n, 0.5, x, ix, y, iy, gotU, lda)
		gonumblas.Implementation{}.Zgerc(m, n, 0.5, x, ix, y, iy, gotC, lda)
		gonumblas.Implementation{}.Dger(m, n, 0.5, xr, ix, yr, iy, gotR, lda)
		for i := range wantU {
			if gotU[i] != wantU[i] || gotC[i] != wantC[i] || gotR[i] != wantR[i] {
				t.Errorf("inc %v: a[%d] = %v, %v, %v (geru, gerc, ger), want %v, %v, %v", inc, i, gotU[i], gotC[i], gotR[i], wantU[i], wantC[i], wantR[i])
			}
		}
	}
}
