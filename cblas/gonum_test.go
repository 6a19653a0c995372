package cblas

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/test/known"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/blas/testblas"
	gmat "gonum.org/v1/gonum/mat"
)

// gnSuite is gonum's conformance suite (blas/testblas), every test it
// has: Level 1, 2 and 3 for float64 and complex128. testblas has no
// float32 or complex64 tests; TestGonumSingle covers those methods.
var gnSuite = []struct {
	name string
	run  func(*testing.T, Gonum)
}{
	// Level 1, float64.
	{"Ddot", func(t *testing.T, g Gonum) { testblas.DdotTest(t, g) }},
	{"Dnrm2", func(t *testing.T, g Gonum) { known.Skip(t, known.Nrm2Infs()); testblas.Dnrm2Test(t, g) }},
	{"Dasum", func(t *testing.T, g Gonum) { testblas.DasumTest(t, g) }},
	{"Idamax", func(t *testing.T, g Gonum) { testblas.IdamaxTest(t, g) }},
	{"Dswap", func(t *testing.T, g Gonum) { testblas.DswapTest(t, g) }},
	{"Dcopy", func(t *testing.T, g Gonum) { testblas.DcopyTest(t, g) }},
	{"Daxpy", func(t *testing.T, g Gonum) { testblas.DaxpyTest(t, g) }},
	// Drotg runs gonum's reference in Go (gnRotg): the whole test,
	// extreme inputs included, whatever the library.
	{"Drotg", func(t *testing.T, g Gonum) { testblas.DrotgTest(t, g, false) }},
	{"Drotmg", func(t *testing.T, g Gonum) { known.Skip(t, known.RotmgRescale()); testblas.DrotmgTest(t, g) }},
	{"Drot", func(t *testing.T, g Gonum) { testblas.DrotTest(t, g) }},
	{"Drotm", func(t *testing.T, g Gonum) { testblas.DrotmTest(t, g) }},
	{"Dscal", func(t *testing.T, g Gonum) { known.Skip(t, known.ScalZeroNaN()); testblas.DscalTest(t, g) }},

	// Level 2, float64.
	{"Dgemv", func(t *testing.T, g Gonum) { testblas.DgemvTest(t, g) }},
	{"Dger", func(t *testing.T, g Gonum) { testblas.DgerTest(t, g) }},
	{"Dtxmv", func(t *testing.T, g Gonum) { testblas.DtxmvTest(t, g) }},
	{"Dgbmv", func(t *testing.T, g Gonum) { testblas.DgbmvTest(t, g) }},
	{"Dtbsv", func(t *testing.T, g Gonum) { testblas.DtbsvTest(t, g) }},
	{"Dsbmv", func(t *testing.T, g Gonum) { testblas.DsbmvTest(t, g) }},
	{"Dtbmv", func(t *testing.T, g Gonum) { testblas.DtbmvTest(t, g) }},
	{"Dtrsv", func(t *testing.T, g Gonum) { testblas.DtrsvTest(t, g) }},
	{"Dtrmv", func(t *testing.T, g Gonum) { testblas.DtrmvTest(t, g) }},
	{"Dsymv", func(t *testing.T, g Gonum) { testblas.DsymvTest(t, g) }},
	{"Dsyr", func(t *testing.T, g Gonum) { testblas.DsyrTest(t, g) }},
	{"Dsyr2", func(t *testing.T, g Gonum) { testblas.Dsyr2Test(t, g) }},
	{"Dspr2", func(t *testing.T, g Gonum) { testblas.Dspr2Test(t, g) }},
	{"Dspr", func(t *testing.T, g Gonum) { testblas.DsprTest(t, g) }},
	{"Dspmv", func(t *testing.T, g Gonum) { testblas.DspmvTest(t, g) }},
	{"Dtpsv", func(t *testing.T, g Gonum) { testblas.DtpsvTest(t, g) }},
	{"Dtpmv", func(t *testing.T, g Gonum) { testblas.DtpmvTest(t, g) }},

	// Level 3, float64.
	{"Dgemm", func(t *testing.T, g Gonum) { testblas.TestDgemm(t, g) }},
	{"Dsymm", func(t *testing.T, g Gonum) { testblas.DsymmTest(t, g) }},
	{"Dtrsm", func(t *testing.T, g Gonum) { testblas.DtrsmTest(t, g) }},
	{"Dsyrk", func(t *testing.T, g Gonum) { testblas.DsyrkTest(t, g) }},
	{"Dsyr2k", func(t *testing.T, g Gonum) { testblas.Dsyr2kTest(t, g) }},
	{"Dtrmm", func(t *testing.T, g Gonum) { testblas.DtrmmTest(t, g) }},

	// Level 1, complex128.
	{"Dzasum", func(t *testing.T, g Gonum) { testblas.DzasumTest(t, g) }},
	{"Dznrm2", func(t *testing.T, g Gonum) { testblas.Dznrm2Test(t, g) }},
	{"Izamax", func(t *testing.T, g Gonum) { testblas.IzamaxTest(t, g) }},
	{"Zaxpy", func(t *testing.T, g Gonum) { testblas.ZaxpyTest(t, g) }},
	{"Zcopy", func(t *testing.T, g Gonum) { testblas.ZcopyTest(t, g) }},
	{"Zdotc", func(t *testing.T, g Gonum) { testblas.ZdotcTest(t, g) }},
	{"Zdotu", func(t *testing.T, g Gonum) { testblas.ZdotuTest(t, g) }},
	{"Zdscal", func(t *testing.T, g Gonum) { testblas.ZdscalTest(t, g) }},
	{"Zscal", func(t *testing.T, g Gonum) { testblas.ZscalTest(t, g) }},
	{"Zswap", func(t *testing.T, g Gonum) { testblas.ZswapTest(t, g) }},

	// Level 2, complex128.
	{"Zgbmv", func(t *testing.T, g Gonum) { testblas.ZgbmvTest(t, g) }},
	{"Zgemv", func(t *testing.T, g Gonum) { testblas.ZgemvTest(t, g) }},
	{"Zgerc", func(t *testing.T, g Gonum) { testblas.ZgercTest(t, g) }},
	{"Zgeru", func(t *testing.T, g Gonum) { testblas.ZgeruTest(t, g) }},
	{"Zhbmv", func(t *testing.T, g Gonum) { testblas.ZhbmvTest(t, g) }},
	{"Zhemv", func(t *testing.T, g Gonum) { testblas.ZhemvTest(t, g) }},
	{"Zher", func(t *testing.T, g Gonum) { testblas.ZherTest(t, g) }},
	{"Zher2", func(t *testing.T, g Gonum) { testblas.Zher2Test(t, g) }},
	{"Zhpmv", func(t *testing.T, g Gonum) { testblas.ZhpmvTest(t, g) }},
	{"Zhpr", func(t *testing.T, g Gonum) { testblas.ZhprTest(t, g) }},
	{"Zhpr2", func(t *testing.T, g Gonum) { testblas.Zhpr2Test(t, g) }},
	{"Ztbmv", func(t *testing.T, g Gonum) { testblas.ZtbmvTest(t, g) }},
	{"Ztbsv", func(t *testing.T, g Gonum) { testblas.ZtbsvTest(t, g) }},
	{"Ztpmv", func(t *testing.T, g Gonum) { testblas.ZtpmvTest(t, g) }},
	{"Ztpsv", func(t *testing.T, g Gonum) { testblas.ZtpsvTest(t, g) }},
	{"Ztrmv", func(t *testing.T, g Gonum) { testblas.ZtrmvTest(t, g) }},
	{"Ztrsv", func(t *testing.T, g Gonum) { testblas.ZtrsvTest(t, g) }},

	// Level 3, complex128.
	{"Zgemm", func(t *testing.T, g Gonum) { testblas.ZgemmTest(t, g) }},
	{"Zhemm", func(t *testing.T, g Gonum) { testblas.ZhemmTest(t, g) }},
	{"Zherk", func(t *testing.T, g Gonum) { testblas.ZherkTest(t, g) }},
	{"Zher2k", func(t *testing.T, g Gonum) { testblas.Zher2kTest(t, g) }},
	{"Zsymm", func(t *testing.T, g Gonum) { testblas.ZsymmTest(t, g) }},
	{"Zsyrk", func(t *testing.T, g Gonum) { testblas.ZsyrkTest(t, g) }},
	{"Zsyr2k", func(t *testing.T, g Gonum) { testblas.Zsyr2kTest(t, g) }},
	{"Ztrmm", func(t *testing.T, g Gonum) { testblas.ZtrmmTest(t, g) }},
	{"Ztrsm", func(t *testing.T, g Gonum) { testblas.ZtrsmTest(t, g) }},
}

// TestGonumConformance runs gonum's testblas suite against Gonum and
// checks that each test really called the C library (or, for the routines
// lapis computes in Go whatever the library or on this kernel set, its Go
// path).
func TestGonumConformance(t *testing.T) {
	for _, c := range gnSuite {
		t.Run(c.name, func(t *testing.T) {
			before := lapis.ReadStats()
			c.run(t, Gonum{})
			after := lapis.ReadStats()
			goPath := c.name == "Drotg" || blasgo.RealSymvOverRead && (c.name == "Dsymv" || c.name == "Ssymv")
			if after.Calls == before.Calls && (!goPath || after.Small == before.Small) {
				t.Errorf("no call into the C library")
			}
		})
	}
}

// TestGonumDrotgExtreme: the reference result whatever library is linked
// (OpenBLAS 0.3.21's own ?rotg gives r = +Inf, c = s = 0 for the first
// pair: OpenMathLib/OpenBLAS#4130).
func TestGonumDrotgExtreme(t *testing.T) {
	var ref gonum.Implementation
	for _, ab := range [][2]float64{{4.49e307, 2.2e-308}, {1, 0x1p1022}, {0x1p1022, 1}, {0x1p-1022, 0x1p-1022}} {
		c, s, r, z := Gonum{}.Drotg(ab[0], ab[1])
		wc, ws, wr, wz := ref.Drotg(ab[0], ab[1])
		if c != wc || s != ws || r != wr || z != wz {
			t.Errorf("Drotg(%g, %g) = %g %g %g %g, reference %g %g %g %g", ab[0], ab[1], c, s, r, z, wc, ws, wr, wz)
		}
	}
	if c, _, r, _ := (Gonum{}).Drotg(4.49e307, 2.2e-308); r != 4.49e307 || c != 1 {
		t.Errorf("Drotg(4.49e307, 2.2e-308): r %g, c %g; want 4.49e307, 1", r, c)
	}
}

// TestGonumMat checks that blas64.Use(Gonum{}) makes gonum/mat run on the
// C library with the results of gonum's pure Go.
func TestGonumMat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(r, c int) *gmat.Dense {
		d := make([]float64, r*c)
		for i := range d {
			d[i] = rng.NormFloat64()
		}
		return gmat.NewDense(r, c, d)
	}
	a, b, c := random(67, 45), random(45, 73), random(67, 29)
	v := gmat.NewVecDense(45, nil)
	for i := range 45 {
		v.SetVec(i, rng.NormFloat64())
	}
	products := func() []gmat.Matrix {
		var ab, atc gmat.Dense
		var av gmat.VecDense
		ab.Mul(a, b)      // dgemm
		atc.Mul(a.T(), c) // dgemm, A transposed
		av.MulVec(a, v)   // dgemv
		return []gmat.Matrix{&ab, &atc, &av}
	}
	want := products() // gonum's pure Go: the default implementation
	blas64.Use(Gonum{})
	defer blas64.Use(gonum.Implementation{})
	before := lapis.ReadStats().Calls
	got := products()
	if calls := lapis.ReadStats().Calls - before; calls < 3 {
		t.Errorf("%d calls into the C library, want at least 3", calls)
	}
	for i := range got {
		if !gmat.EqualApprox(got[i], want[i], 1e-12) {
			t.Errorf("product %d differs from gonum's", i)
		}
	}
}

// TestGonumSingle checks every float32 and complex64 method (testblas has
// tests only for float64 and complex128) against gonum's pure Go, on
// non-square shapes, ld > n and negative increments, with each flag.
func TestGonumSingle(t *testing.T) {
	t.Run("Float32", func(t *testing.T) {
		gnRunSingle[float32, blas.Float32](t, gnCases32(), Gonum{}, gonum.Implementation{})
	})
	t.Run("Complex64", func(t *testing.T) {
		gnRunSingle[complex64, blas.Complex64](t, gnCases64(), Gonum{}, gonum.Implementation{})
	})
}

// A gnCase runs one call on impl, over fresh copies of the same random
// x, y, a and c, and returns everything it wrote or returned.
type gnCase[T float32 | complex64, B any] struct {
	name string
	f    func(impl B, x, y, a, c []T) []T
}

// gnNoC lists the cases that are no-ops, which must not call C.
var gnNoC = map[string]bool{"Srotm/-2": true} // blas.Identity

func gnRunSingle[T float32 | complex64, B any](t *testing.T, cases []gnCase[T, B], mine, ref B) {
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
		if calls := after.Calls - before.Calls + after.Small - before.Small; (calls == 0) != gnNoC[c.name] {
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

// Shapes for TestGonumSingle: m != n, band widths kL != kU, ld > every
// dimension, and increments 2 and -3.
const (
	gnM, gnN, gnK, gnLD = 5, 4, 3, 7
	gnKL, gnKU          = 1, 2
	gnIX, gnIY          = 2, -3
)

func gnCat[T any](s ...[]T) []T {
	var r []T
	for _, v := range s {
		r = append(r, v...)
	}
	return r
}

var (
	gnUplos = []blas.Uplo{blas.Upper, blas.Lower}
	gnSides = []blas.Side{blas.Left, blas.Right}
	gnRT    = []blas.Transpose{blas.NoTrans, blas.Trans}
	gnCT    = []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}
	gnHT    = []blas.Transpose{blas.NoTrans, blas.ConjTrans}
)

// gnTri makes the cases of a triangular routine: one per uplo and op;
// solves get a unit diagonal, which keeps random triangles well
// conditioned.
func gnTri[T float32 | complex64, B any](name string, ts []blas.Transpose, solve bool, call func(B, blas.Uplo, blas.Transpose, blas.Diag, []T, []T) []T) []gnCase[T, B] {
	d := blas.NonUnit
	if solve {
		d = blas.Unit
	}
	var cs []gnCase[T, B]
	for _, ul := range gnUplos {
		for _, tA := range ts {
			cs = append(cs, gnCase[T, B]{fmt.Sprintf("%s/%c%c", name, ul, tA), func(b B, x, _, a, _ []T) []T { return call(b, ul, tA, d, a, x) }})
		}
	}
	return cs
}

func gnCases32() []gnCase[float32, blas.Float32] {
	type c = gnCase[float32, blas.Float32]
	type B = blas.Float32
	cs := []c{
		{"Sdsdot", func(b B, x, y, _, _ []float32) []float32 { return []float32{b.Sdsdot(gnN, 0.5, x, gnIX, y, gnIY)} }},
		{"Dsdot", func(b B, x, y, _, _ []float32) []float32 { return []float32{float32(b.Dsdot(gnN, x, gnIX, y, gnIY))} }},
		{"Sdot", func(b B, x, y, _, _ []float32) []float32 { return []float32{b.Sdot(gnN, x, gnIX, y, gnIY)} }},
		{"Snrm2", func(b B, x, _, _, _ []float32) []float32 { return []float32{b.Snrm2(gnN, x, gnIX)} }},
		{"Sasum", func(b B, x, _, _, _ []float32) []float32 { return []float32{b.Sasum(gnN, x, gnIX)} }},
		{"Isamax", func(b B, x, _, _, _ []float32) []float32 { return []float32{float32(b.Isamax(gnN, x, gnIX))} }},
		{"Sswap", func(b B, x, y, _, _ []float32) []float32 { b.Sswap(gnN, x, gnIX, y, gnIY); return gnCat(x, y) }},
		{"Scopy", func(b B, x, y, _, _ []float32) []float32 { b.Scopy(gnN, x, gnIX, y, gnIY); return y }},
		{"Saxpy", func(b B, x, y, _, _ []float32) []float32 { b.Saxpy(gnN, 0.7, x, gnIX, y, gnIY); return y }},
		{"Srotg", func(b B, x, _, _, _ []float32) []float32 {
			c, s, r, z := b.Srotg(x[0], x[1])
			return []float32{c, s, r, z}
		}},
		{"Srotmg", func(b B, x, _, _, _ []float32) []float32 {
			p, d1, d2, b1 := b.Srotmg(1+x[0]*x[0], 1+x[1]*x[1], x[2], x[3])
			return []float32{float32(p.Flag), p.H[0], p.H[1], p.H[2], p.H[3], d1, d2, b1}
		}},
		{"Srot", func(b B, x, y, _, _ []float32) []float32 { b.Srot(gnN, x, gnIX, y, gnIY, 0.6, 0.8); return gnCat(x, y) }},
		{"Sscal", func(b B, x, _, _, _ []float32) []float32 { b.Sscal(gnN, 0.3, x, gnIX); return x }},
	}
	for _, f := range []blas.Flag{blas.Identity, blas.Rescaling, blas.OffDiagonal, blas.Diagonal} {
		cs = append(cs, c{fmt.Sprintf("Srotm/%d", f), func(b B, x, y, a, _ []float32) []float32 {
			b.Srotm(gnN, x, gnIX, y, gnIY, blas.SrotmParams{Flag: f, H: [4]float32(a[:4])})
			return gnCat(x, y)
		}})
	}
	for _, tA := range gnRT {
		cs = append(cs,
			c{fmt.Sprintf("Sgemv/%c", tA), func(b B, x, y, a, _ []float32) []float32 {
				b.Sgemv(tA, gnM, gnN, 0.7, a, gnLD, x, gnIX, 0.3, y, gnIY)
				return y
			}},
			c{fmt.Sprintf("Sgbmv/%c", tA), func(b B, x, y, a, _ []float32) []float32 {
				b.Sgbmv(tA, gnM, gnN, gnKL, gnKU, 0.7, a, gnLD, x, gnIX, 0.3, y, gnIY)
				return y
			}})
	}
	cs = append(cs, gnTri("Strmv", gnRT, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Strmv(ul, tA, d, gnN, a, gnLD, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Strsv", gnRT, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Strsv(ul, tA, d, gnN, a, gnLD, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Stbmv", gnRT, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Stbmv(ul, tA, d, gnN, gnKU, a, gnLD, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Stbsv", gnRT, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Stbsv(ul, tA, d, gnN, gnKU, a, gnLD, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Stpmv", gnRT, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Stpmv(ul, tA, d, gnN, a, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Stpsv", gnRT, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []float32) []float32 {
		b.Stpsv(ul, tA, d, gnN, a, x, gnIX)
		return x
	})...)
	// Positive increments only: gonum's own amd64 Sger/Dger kernels get
	// negative ones wrong (gonum/gonum#2105); TestGonumGer checks them.
	cs = append(cs, c{"Sger", func(b B, x, y, a, _ []float32) []float32 { b.Sger(gnM, gnN, 0.7, x, gnIX, y, 3, a, gnLD); return a }})
	for _, ul := range gnUplos {
		cs = append(cs,
			c{fmt.Sprintf("Ssymv/%c", ul), func(b B, x, y, a, _ []float32) []float32 {
				b.Ssymv(ul, gnN, 0.7, a, gnLD, x, gnIX, 0.3, y, gnIY)
				return y
			}},
			c{fmt.Sprintf("Ssbmv/%c", ul), func(b B, x, y, a, _ []float32) []float32 {
				b.Ssbmv(ul, gnN, gnKU, 0.7, a, gnLD, x, gnIX, 0.3, y, gnIY)
				return y
			}},
			c{fmt.Sprintf("Sspmv/%c", ul), func(b B, x, y, a, _ []float32) []float32 {
				b.Sspmv(ul, gnN, 0.7, a, x, gnIX, 0.3, y, gnIY)
				return y
			}},
			c{fmt.Sprintf("Ssyr/%c", ul), func(b B, x, _, a, _ []float32) []float32 { b.Ssyr(ul, gnN, 0.7, x, gnIX, a, gnLD); return a }},
			c{fmt.Sprintf("Sspr/%c", ul), func(b B, x, _, a, _ []float32) []float32 { b.Sspr(ul, gnN, 0.7, x, gnIX, a); return a }},
			c{fmt.Sprintf("Ssyr2/%c", ul), func(b B, x, y, a, _ []float32) []float32 {
				b.Ssyr2(ul, gnN, 0.7, x, gnIX, y, gnIY, a, gnLD)
				return a
			}},
			c{fmt.Sprintf("Sspr2/%c", ul), func(b B, x, y, a, _ []float32) []float32 { b.Sspr2(ul, gnN, 0.7, x, gnIX, y, gnIY, a); return a }},
		)
		for _, s := range gnSides {
			cs = append(cs, c{fmt.Sprintf("Ssymm/%c%c", s, ul), func(b B, _, y, a, cc []float32) []float32 {
				b.Ssymm(s, ul, gnM, gnN, 0.7, a, gnLD, y, gnLD, 0.3, cc, gnLD)
				return cc
			}})
			for _, tA := range gnRT {
				cs = append(cs,
					c{fmt.Sprintf("Strmm/%c%c%c", s, ul, tA), func(b B, _, _, a, cc []float32) []float32 {
						b.Strmm(s, ul, tA, blas.NonUnit, gnM, gnN, 0.7, a, gnLD, cc, gnLD)
						return cc
					}},
					c{fmt.Sprintf("Strsm/%c%c%c", s, ul, tA), func(b B, _, _, a, cc []float32) []float32 {
						b.Strsm(s, ul, tA, blas.Unit, gnM, gnN, 0.7, a, gnLD, cc, gnLD)
						return cc
					}})
			}
		}
		for _, tA := range gnRT {
			cs = append(cs,
				c{fmt.Sprintf("Ssyrk/%c%c", ul, tA), func(b B, _, _, a, cc []float32) []float32 {
					b.Ssyrk(ul, tA, gnN, gnK, 0.7, a, gnLD, 0.3, cc, gnLD)
					return cc
				}},
				c{fmt.Sprintf("Ssyr2k/%c%c", ul, tA), func(b B, _, y, a, cc []float32) []float32 {
					b.Ssyr2k(ul, tA, gnN, gnK, 0.7, a, gnLD, y, gnLD, 0.3, cc, gnLD)
					return cc
				}})
		}
	}
	for _, tA := range gnRT {
		for _, tB := range gnRT {
			cs = append(cs, c{fmt.Sprintf("Sgemm/%c%c", tA, tB), func(b B, _, y, a, cc []float32) []float32 {
				b.Sgemm(tA, tB, gnM, gnN, gnK, 0.7, a, gnLD, y, gnLD, 0.3, cc, gnLD)
				return cc
			}})
		}
	}
	return cs
}

func gnCases64() []gnCase[complex64, blas.Complex64] {
	type c = gnCase[complex64, blas.Complex64]
	type B = blas.Complex64
	const alpha, beta = complex64(0.7 - 0.2i), complex64(0.3 + 0.4i)
	cs := []c{
		{"Cdotu", func(b B, x, y, _, _ []complex64) []complex64 { return []complex64{b.Cdotu(gnN, x, gnIX, y, gnIY)} }},
		{"Cdotc", func(b B, x, y, _, _ []complex64) []complex64 { return []complex64{b.Cdotc(gnN, x, gnIX, y, gnIY)} }},
		{"Scnrm2", func(b B, x, _, _, _ []complex64) []complex64 { return []complex64{complex(b.Scnrm2(gnN, x, gnIX), 0)} }},
		{"Scasum", func(b B, x, _, _, _ []complex64) []complex64 { return []complex64{complex(b.Scasum(gnN, x, gnIX), 0)} }},
		{"Icamax", func(b B, x, _, _, _ []complex64) []complex64 {
			return []complex64{complex(float32(b.Icamax(gnN, x, gnIX)), 0)}
		}},
		{"Cswap", func(b B, x, y, _, _ []complex64) []complex64 { b.Cswap(gnN, x, gnIX, y, gnIY); return gnCat(x, y) }},
		{"Ccopy", func(b B, x, y, _, _ []complex64) []complex64 { b.Ccopy(gnN, x, gnIX, y, gnIY); return y }},
		{"Caxpy", func(b B, x, y, _, _ []complex64) []complex64 { b.Caxpy(gnN, alpha, x, gnIX, y, gnIY); return y }},
		{"Cscal", func(b B, x, _, _, _ []complex64) []complex64 { b.Cscal(gnN, alpha, x, gnIX); return x }},
		{"Csscal", func(b B, x, _, _, _ []complex64) []complex64 { b.Csscal(gnN, 0.3, x, gnIX); return x }},
		{"Cgeru", func(b B, x, y, a, _ []complex64) []complex64 {
			b.Cgeru(gnM, gnN, alpha, x, gnIX, y, gnIY, a, gnLD)
			return a
		}},
		{"Cgerc", func(b B, x, y, a, _ []complex64) []complex64 {
			b.Cgerc(gnM, gnN, alpha, x, gnIX, y, gnIY, a, gnLD)
			return a
		}},
	}
	for _, tA := range gnCT {
		cs = append(cs,
			c{fmt.Sprintf("Cgemv/%c", tA), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Cgemv(tA, gnM, gnN, alpha, a, gnLD, x, gnIX, beta, y, gnIY)
				return y
			}},
			c{fmt.Sprintf("Cgbmv/%c", tA), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Cgbmv(tA, gnM, gnN, gnKL, gnKU, alpha, a, gnLD, x, gnIX, beta, y, gnIY)
				return y
			}})
	}
	cs = append(cs, gnTri("Ctrmv", gnCT, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctrmv(ul, tA, d, gnN, a, gnLD, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Ctrsv", gnCT, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctrsv(ul, tA, d, gnN, a, gnLD, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Ctbmv", gnCT, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctbmv(ul, tA, d, gnN, gnKU, a, gnLD, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Ctbsv", gnCT, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctbsv(ul, tA, d, gnN, gnKU, a, gnLD, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Ctpmv", gnCT, false, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctpmv(ul, tA, d, gnN, a, x, gnIX)
		return x
	})...)
	cs = append(cs, gnTri("Ctpsv", gnCT, true, func(b B, ul blas.Uplo, tA blas.Transpose, d blas.Diag, a, x []complex64) []complex64 {
		b.Ctpsv(ul, tA, d, gnN, a, x, gnIX)
		return x
	})...)
	for _, ul := range gnUplos {
		cs = append(cs,
			c{fmt.Sprintf("Chemv/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Chemv(ul, gnN, alpha, a, gnLD, x, gnIX, beta, y, gnIY)
				return y
			}},
			c{fmt.Sprintf("Chbmv/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Chbmv(ul, gnN, gnKU, alpha, a, gnLD, x, gnIX, beta, y, gnIY)
				return y
			}},
			c{fmt.Sprintf("Chpmv/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Chpmv(ul, gnN, alpha, a, x, gnIX, beta, y, gnIY)
				return y
			}},
			c{fmt.Sprintf("Cher/%c", ul), func(b B, x, _, a, _ []complex64) []complex64 { b.Cher(ul, gnN, 0.7, x, gnIX, a, gnLD); return a }},
			c{fmt.Sprintf("Chpr/%c", ul), func(b B, x, _, a, _ []complex64) []complex64 { b.Chpr(ul, gnN, 0.7, x, gnIX, a); return a }},
			c{fmt.Sprintf("Cher2/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Cher2(ul, gnN, alpha, x, gnIX, y, gnIY, a, gnLD)
				return a
			}},
			c{fmt.Sprintf("Chpr2/%c", ul), func(b B, x, y, a, _ []complex64) []complex64 {
				b.Chpr2(ul, gnN, alpha, x, gnIX, y, gnIY, a)
				return a
			}},
		)
		for _, s := range gnSides {
			cs = append(cs,
				c{fmt.Sprintf("Csymm/%c%c", s, ul), func(b B, _, y, a, cc []complex64) []complex64 {
					b.Csymm(s, ul, gnM, gnN, alpha, a, gnLD, y, gnLD, beta, cc, gnLD)
					return cc
				}},
				c{fmt.Sprintf("Chemm/%c%c", s, ul), func(b B, _, y, a, cc []complex64) []complex64 {
					b.Chemm(s, ul, gnM, gnN, alpha, a, gnLD, y, gnLD, beta, cc, gnLD)
					return cc
				}})
			for _, tA := range gnCT {
				cs = append(cs,
					c{fmt.Sprintf("Ctrmm/%c%c%c", s, ul, tA), func(b B, _, _, a, cc []complex64) []complex64 {
						b.Ctrmm(s, ul, tA, blas.NonUnit, gnM, gnN, alpha, a, gnLD, cc, gnLD)
						return cc
					}},
					c{fmt.Sprintf("Ctrsm/%c%c%c", s, ul, tA), func(b B, _, _, a, cc []complex64) []complex64 {
						b.Ctrsm(s, ul, tA, blas.Unit, gnM, gnN, alpha, a, gnLD, cc, gnLD)
						return cc
					}})
			}
		}
		for _, tA := range gnRT {
			cs = append(cs,
				c{fmt.Sprintf("Csyrk/%c%c", ul, tA), func(b B, _, _, a, cc []complex64) []complex64 {
					b.Csyrk(ul, tA, gnN, gnK, alpha, a, gnLD, beta, cc, gnLD)
					return cc
				}},
				c{fmt.Sprintf("Csyr2k/%c%c", ul, tA), func(b B, _, y, a, cc []complex64) []complex64 {
					b.Csyr2k(ul, tA, gnN, gnK, alpha, a, gnLD, y, gnLD, beta, cc, gnLD)
					return cc
				}})
		}
		for _, tA := range gnHT {
			cs = append(cs,
				c{fmt.Sprintf("Cherk/%c%c", ul, tA), func(b B, _, _, a, cc []complex64) []complex64 {
					b.Cherk(ul, tA, gnN, gnK, 0.7, a, gnLD, 0.3, cc, gnLD)
					return cc
				}},
				c{fmt.Sprintf("Cher2k/%c%c", ul, tA), func(b B, _, y, a, cc []complex64) []complex64 {
					b.Cher2k(ul, tA, gnN, gnK, alpha, a, gnLD, y, gnLD, 0.3, cc, gnLD)
					return cc
				}})
		}
	}
	for _, tA := range gnCT {
		for _, tB := range gnCT {
			cs = append(cs, c{fmt.Sprintf("Cgemm/%c%c", tA, tB), func(b B, _, y, a, cc []complex64) []complex64 {
				b.Cgemm(tA, tB, gnM, gnN, gnK, alpha, a, gnLD, y, gnLD, beta, cc, gnLD)
				return cc
			}})
		}
	}
	return cs
}

// TestGonumGer checks ger with negative increments, where gonum's pure Go
// is wrong on amd64 (gonum/gonum#2105), against an index-by-index loop.
func TestGonumGer(t *testing.T) {
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
		Gonum{}.Zgeru(m, n, 0.5, x, ix, y, iy, gotU, lda)
		Gonum{}.Zgerc(m, n, 0.5, x, ix, y, iy, gotC, lda)
		Gonum{}.Dger(m, n, 0.5, xr, ix, yr, iy, gotR, lda)
		for i := range wantU {
			if gotU[i] != wantU[i] || gotC[i] != wantC[i] || gotR[i] != wantR[i] {
				t.Errorf("inc %v: a[%d] = %v, %v, %v (geru, gerc, ger), want %v, %v, %v", inc, i, gotU[i], gotC[i], gotR[i], wantU[i], wantC[i], wantR[i])
			}
		}
	}
}
