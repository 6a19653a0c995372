package gonumblas_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/blas/testblas"
	gmat "gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/gonumblas"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/test/known"
)

// impl is the implementation under test.
type impl = gonumblas.Implementation

// suite is gonum's conformance suite (blas/testblas), every test it
// has: Level 1, 2 and 3 for float64 and complex128. testblas has no
// float32 or complex64 tests; TestSingle covers those methods.
var suite = []struct {
	name string
	run  func(*testing.T, impl)
}{
	// Level 1, float64.
	{"Ddot", func(t *testing.T, g impl) { testblas.DdotTest(t, g) }},
	{"Dnrm2", func(t *testing.T, g impl) { known.Skip(t, known.Nrm2Infs()); testblas.Dnrm2Test(t, g) }},
	{"Dasum", func(t *testing.T, g impl) { testblas.DasumTest(t, g) }},
	{"Idamax", func(t *testing.T, g impl) { testblas.IdamaxTest(t, g) }},
	{"Dswap", func(t *testing.T, g impl) { testblas.DswapTest(t, g) }},
	{"Dcopy", func(t *testing.T, g impl) { testblas.DcopyTest(t, g) }},
	{"Daxpy", func(t *testing.T, g impl) { testblas.DaxpyTest(t, g) }},
	// Drotg runs gonum's reference in Go (rotg): the whole test,
	// extreme inputs included, whatever the library.
	{"Drotg", func(t *testing.T, g impl) { testblas.DrotgTest(t, g, false) }},
	{"Drotmg", func(t *testing.T, g impl) { known.Skip(t, known.RotmgRescale()); testblas.DrotmgTest(t, g) }},
	{"Drot", func(t *testing.T, g impl) { testblas.DrotTest(t, g) }},
	{"Drotm", func(t *testing.T, g impl) { testblas.DrotmTest(t, g) }},
	{"Dscal", func(t *testing.T, g impl) { known.Skip(t, known.ScalZeroNaN()); testblas.DscalTest(t, g) }},

	// Level 2, float64.
	{"Dgemv", func(t *testing.T, g impl) { testblas.DgemvTest(t, g) }},
	{"Dger", func(t *testing.T, g impl) { testblas.DgerTest(t, g) }},
	{"Dtxmv", func(t *testing.T, g impl) { testblas.DtxmvTest(t, g) }},
	{"Dgbmv", func(t *testing.T, g impl) { testblas.DgbmvTest(t, g) }},
	{"Dtbsv", func(t *testing.T, g impl) { testblas.DtbsvTest(t, g) }},
	{"Dsbmv", func(t *testing.T, g impl) { testblas.DsbmvTest(t, g) }},
	{"Dtbmv", func(t *testing.T, g impl) { testblas.DtbmvTest(t, g) }},
	{"Dtrsv", func(t *testing.T, g impl) { testblas.DtrsvTest(t, g) }},
	{"Dtrmv", func(t *testing.T, g impl) { testblas.DtrmvTest(t, g) }},
	{"Dsymv", func(t *testing.T, g impl) { testblas.DsymvTest(t, g) }},
	{"Dsyr", func(t *testing.T, g impl) { testblas.DsyrTest(t, g) }},
	{"Dsyr2", func(t *testing.T, g impl) { testblas.Dsyr2Test(t, g) }},
	{"Dspr2", func(t *testing.T, g impl) { testblas.Dspr2Test(t, g) }},
	{"Dspr", func(t *testing.T, g impl) { testblas.DsprTest(t, g) }},
	{"Dspmv", func(t *testing.T, g impl) { testblas.DspmvTest(t, g) }},
	{"Dtpsv", func(t *testing.T, g impl) { testblas.DtpsvTest(t, g) }},
	{"Dtpmv", func(t *testing.T, g impl) { testblas.DtpmvTest(t, g) }},

	// Level 3, float64.
	{"Dgemm", func(t *testing.T, g impl) { testblas.TestDgemm(t, g) }},
	{"Dsymm", func(t *testing.T, g impl) { testblas.DsymmTest(t, g) }},
	{"Dtrsm", func(t *testing.T, g impl) { testblas.DtrsmTest(t, g) }},
	{"Dsyrk", func(t *testing.T, g impl) { testblas.DsyrkTest(t, g) }},
	{"Dsyr2k", func(t *testing.T, g impl) { testblas.Dsyr2kTest(t, g) }},
	{"Dtrmm", func(t *testing.T, g impl) { testblas.DtrmmTest(t, g) }},

	// Level 1, complex128.
	{"Dzasum", func(t *testing.T, g impl) { testblas.DzasumTest(t, g) }},
	{"Dznrm2", func(t *testing.T, g impl) { testblas.Dznrm2Test(t, g) }},
	{"Izamax", func(t *testing.T, g impl) { testblas.IzamaxTest(t, g) }},
	{"Zaxpy", func(t *testing.T, g impl) { testblas.ZaxpyTest(t, g) }},
	{"Zcopy", func(t *testing.T, g impl) { testblas.ZcopyTest(t, g) }},
	{"Zdotc", func(t *testing.T, g impl) { testblas.ZdotcTest(t, g) }},
	{"Zdotu", func(t *testing.T, g impl) { testblas.ZdotuTest(t, g) }},
	{"Zdscal", func(t *testing.T, g impl) { testblas.ZdscalTest(t, g) }},
	{"Zscal", func(t *testing.T, g impl) { testblas.ZscalTest(t, g) }},
	{"Zswap", func(t *testing.T, g impl) { testblas.ZswapTest(t, g) }},

	// Level 2, complex128.
	{"Zgbmv", func(t *testing.T, g impl) { testblas.ZgbmvTest(t, g) }},
	{"Zgemv", func(t *testing.T, g impl) { testblas.ZgemvTest(t, g) }},
	{"Zgerc", func(t *testing.T, g impl) { testblas.ZgercTest(t, g) }},
	{"Zgeru", func(t *testing.T, g impl) { testblas.ZgeruTest(t, g) }},
	{"Zhbmv", func(t *testing.T, g impl) { testblas.ZhbmvTest(t, g) }},
	{"Zhemv", func(t *testing.T, g impl) { testblas.ZhemvTest(t, g) }},
	{"Zher", func(t *testing.T, g impl) { testblas.ZherTest(t, g) }},
	{"Zher2", func(t *testing.T, g impl) { testblas.Zher2Test(t, g) }},
	{"Zhpmv", func(t *testing.T, g impl) { testblas.ZhpmvTest(t, g) }},
	{"Zhpr", func(t *testing.T, g impl) { testblas.ZhprTest(t, g) }},
	{"Zhpr2", func(t *testing.T, g impl) { testblas.Zhpr2Test(t, g) }},
	{"Ztbmv", func(t *testing.T, g impl) { testblas.ZtbmvTest(t, g) }},
	{"Ztbsv", func(t *testing.T, g impl) { testblas.ZtbsvTest(t, g) }},
	{"Ztpmv", func(t *testing.T, g impl) { testblas.ZtpmvTest(t, g) }},
	{"Ztpsv", func(t *testing.T, g impl) { testblas.ZtpsvTest(t, g) }},
	{"Ztrmv", func(t *testing.T, g impl) { testblas.ZtrmvTest(t, g) }},
	{"Ztrsv", func(t *testing.T, g impl) { testblas.ZtrsvTest(t, g) }},

	// Level 3, complex128.
	{"Zgemm", func(t *testing.T, g impl) { testblas.ZgemmTest(t, g) }},
	{"Zhemm", func(t *testing.T, g impl) { testblas.ZhemmTest(t, g) }},
	{"Zherk", func(t *testing.T, g impl) { testblas.ZherkTest(t, g) }},
	{"Zher2k", func(t *testing.T, g impl) { testblas.Zher2kTest(t, g) }},
	{"Zsymm", func(t *testing.T, g impl) { testblas.ZsymmTest(t, g) }},
	{"Zsyrk", func(t *testing.T, g impl) { testblas.ZsyrkTest(t, g) }},
	{"Zsyr2k", func(t *testing.T, g impl) { testblas.Zsyr2kTest(t, g) }},
	{"Ztrmm", func(t *testing.T, g impl) { testblas.ZtrmmTest(t, g) }},
	{"Ztrsm", func(t *testing.T, g impl) { testblas.ZtrsmTest(t, g) }},
}

// TestConformance runs gonum's testblas suite against Implementation
// and checks that each test really called the C library (or, for the routines
// lapis computes in Go whatever the library or on this kernel set, its Go
// path).
func TestConformance(t *testing.T) {
	for _, c := range suite {
		t.Run(c.name, func(t *testing.T) {
			before := lapis.ReadStats()
			c.run(t, gonumblas.Implementation{})
			after := lapis.ReadStats()
			goPath := c.name == "Drotg" || blasgo.RealSymvOverRead && (c.name == "Dsymv" || c.name == "Ssymv")
			if after.Calls == before.Calls && (!goPath || after.Small == before.Small) {
				t.Errorf("no call into the C library")
			}
		})
	}
}

// TestDrotgExtreme: the reference result whatever library is linked
// (OpenBLAS 0.3.21's own ?rotg gives r = +Inf, c = s = 0 for the first
// pair: OpenMathLib/OpenBLAS#4130).
func TestDrotgExtreme(t *testing.T) {
	var ref gonum.Implementation
	for _, ab := range [][2]float64{{4.49e307, 2.2e-308}, {1, 0x1p1022}, {0x1p1022, 1}, {0x1p-1022, 0x1p-1022}} {
		c, s, r, z := gonumblas.Implementation{}.Drotg(ab[0], ab[1])
		wc, ws, wr, wz := ref.Drotg(ab[0], ab[1])
		if c != wc || s != ws || r != wr || z != wz {
			t.Errorf("Drotg(%g, %g) = %g %g %g %g, reference %g %g %g %g", ab[0], ab[1], c, s, r, z, wc, ws, wr, wz)
		}
	}
	if c, _, r, _ := (gonumblas.Implementation{}).Drotg(4.49e307, 2.2e-308); r != 4.49e307 || c != 1 {
		t.Errorf("Drotg(4.49e307, 2.2e-308): r %g, c %g; want 4.49e307, 1", r, c)
	}
}

// TestMat checks that blas64.Use(gonumblas.Implementation{}) makes
// gonum/mat run on the C library with the results of gonum's pure Go.
func TestMat(t *testing.T) {
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
	blas64.Use(gonumblas.Implementation{})
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
