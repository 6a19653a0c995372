package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/gonumblas"
	"github.com/lapis-go/lapis/internal/rt/coreset"
	"github.com/lapis-go/lapis/internal/rt/version"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// ref is gonum's pure-Go BLAS, the reference of every check.
var ref gonum.Implementation

// gop is gonum's transpose flag for 'N', 'T' or 'C' ('C' on real types is
// 'T').
func gop[T views.Scalar](op byte) blas.Transpose {
	switch {
	case op == 'N':
		return blas.NoTrans
	case op == 'C' && views.IsComplex[T]():
		return blas.ConjTrans
	}
	return blas.Trans
}

// refGemm computes the column-major c = alpha op(a) op(b) + beta c with
// gonum's row-major BLAS: a column-major matrix is the row-major storage
// of its transpose, and C = op(A) op(B) is C^T = op(B)^T op(A)^T, so the
// call is gonum's with the operands swapped.
func refGemm[T views.Scalar](ta, tb byte, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	A, B := gop[T](ta), gop[T](tb)
	switch cc := any(c).(type) {
	case []float32:
		ref.Sgemm(B, A, n, m, k, any(alpha).(float32), any(b).([]float32), ldb, any(a).([]float32), lda, any(beta).(float32), cc, ldc)
	case []float64:
		ref.Dgemm(B, A, n, m, k, any(alpha).(float64), any(b).([]float64), ldb, any(a).([]float64), lda, any(beta).(float64), cc, ldc)
	case []complex64:
		ref.Cgemm(B, A, n, m, k, any(alpha).(complex64), any(b).([]complex64), ldb, any(a).([]complex64), lda, any(beta).(complex64), cc, ldc)
	case []complex128:
		ref.Zgemm(B, A, n, m, k, any(alpha).(complex128), any(b).([]complex128), ldb, any(a).([]complex128), lda, any(beta).(complex128), cc, ldc)
	}
}

// mul returns op(a) op(b) of column-major packed operands (gonum).
func mul[T views.Scalar](ta, tb byte, m, n, k int, a, b []T) []T {
	lda, ldb := m, k
	if ta != 'N' {
		lda = k
	}
	if tb != 'N' {
		ldb = n
	}
	c := make([]T, m*n)
	refGemm(ta, tb, m, n, k, 1, a, max(1, lda), b, max(1, ldb), 0, c, max(1, m))
	return c
}

// opView returns v, v^T or v^H for op 'N', 'T', 'C'.
func opView[T views.Scalar](v views.View[T], op byte) views.View[T] {
	switch op {
	case 'T':
		return v.T()
	case 'C':
		return v.H()
	}
	return v
}

// ops are the operand flags tried for T.
func ops[T views.Scalar]() string {
	if views.IsComplex[T]() {
		return "NTC"
	}
	return "NT"
}

// boundary are sizes on both sides of the kernels' register and cache
// blocks.
var boundary = []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 49, 63, 64, 65, 127, 129}

// gemmTol is the tolerance of a product with inner dimension k, relative
// to the largest element of the result (at least 1), for elements in
// [-1, 1).
func gemmTol[T views.Scalar](k int) float64 { return 4 * float64(k+2) * scalar.Eps[T]() }

// gemmCheck runs count products of T: first the square boundary sizes,
// then random shapes from them, with random operand flags, alpha, beta
// and leading-dimension padding. Odd cases go to the library (ForceC),
// even ones take lapis's default path (pure Go or the assembly kernel for
// small products).
func gemmCheck[T views.Scalar](count int) func(t *tally) {
	return func(t *tally) {
		r := rand.New(rand.NewPCG(1, uint64(len(typeName[T]()))))
		for i := 0; i < count; i++ {
			m, n, k := boundary[i%len(boundary)], boundary[i%len(boundary)], boundary[i%len(boundary)]
			if i >= len(boundary) {
				m, n, k = boundary[r.IntN(len(boundary))], boundary[r.IntN(len(boundary))], boundary[r.IntN(len(boundary))]
			}
			o := ops[T]()
			ta, tb := o[r.IntN(len(o))], o[r.IntN(len(o))]
			var opts []lapis.Option
			path := "default"
			if i%2 == 1 {
				opts, path = []lapis.Option{lapis.ForceC()}, "C"
			}
			gemmCase[T](t, r, ta, tb, m, n, k, path, opts...)
		}
	}
}

// gemmCase runs one product and compares it with gonum's.
func gemmCase[T views.Scalar](t *tally, r *rand.Rand, ta, tb byte, m, n, k int, path string, opts ...lapis.Option) {
	ar, ac, br, bc := m, k, k, n
	if ta != 'N' {
		ar, ac = k, m
	}
	if tb != 'N' {
		br, bc = n, k
	}
	a, b, c := randoms[T](r, ar*ac), randoms[T](r, br*bc), randoms[T](r, m*n)
	alpha, beta := random[T](r), random[T](r)
	cv := matrix(c, m, n, r.IntN(2)*3)
	where := fmt.Sprintf("%s m=%d n=%d k=%d %c%c (%s)", typeName[T](), m, n, k, ta, tb, path)
	err := cblas.Gemm(alpha, opView(matrix(a, ar, ac, r.IntN(2)*3), ta), opView(matrix(b, br, bc, r.IntN(2)*3), tb), beta, cv, opts...)
	if err != nil {
		t.fail(where, err)
		return
	}
	want := append([]T(nil), c...)
	refGemm(ta, tb, m, n, k, alpha, a, max(1, ar), b, max(1, br), beta, want, max(1, m))
	t.cmp(where, toC(logical(cv)), toC(want), gemmTol[T](k), 0)
}

// gemmLarge runs float64 products big enough for OpenBLAS's cache blocks
// and its threads.
func gemmLarge(t *tally) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range [][3]int{{300, 257, 520}, {520, 300, 257}, {1, 700, 600}, {700, 1, 600}} {
		for _, op := range []string{"NN", "TN", "NT", "TT"} {
			gemmCase[float64](t, r, op[0], op[1], s[0], s[1], s[2], "C", lapis.ForceC())
		}
	}
	gemmCase[complex128](t, r, 'C', 'N', 200, 150, 260, "C", lapis.ForceC())
}

func gemvCheck(t *tally) {
	gemvT[float32](t)
	gemvT[float64](t)
	gemvT[complex64](t)
	gemvT[complex128](t)
}

var incs = []int{1, 2, -1, -3}

// gemvT runs matrix-vector products of T on the library with every
// increment of x and y.
func gemvT[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(5, uint64(len(typeName[T]()))))
	o := ops[T]()
	for i := 0; i < 64; i++ {
		m, n := boundary[r.IntN(len(boundary))], boundary[r.IntN(len(boundary))]
		op := o[r.IntN(len(o))]
		incX, incY := incs[r.IntN(len(incs))], incs[r.IntN(len(incs))]
		rows, cols := m, n // of op(a)
		if op != 'N' {
			rows, cols = n, m
		}
		a, x, y := randoms[T](r, m*n), randoms[T](r, cols), randoms[T](r, rows)
		alpha, beta := random[T](r), random[T](r)
		yv := strided(y, incY)
		where := fmt.Sprintf("%s m=%d n=%d %c incx=%d incy=%d", typeName[T](), m, n, op, incX, incY)
		if err := cblas.Gemv(alpha, opView(matrix(a, m, n, 1), op), strided(x, incX), beta, yv, lapis.ForceC()); err != nil {
			t.fail(where, err)
			continue
		}
		want := append([]T(nil), y...)
		refGemm(op, 'N', rows, 1, cols, alpha, a, m, x, max(1, cols), beta, want, max(1, rows))
		t.cmp(where, toC(logical(yv)), toC(want), gemmTol[T](cols), 0)
	}
}

func dotCheck(t *tally) {
	dotT[float32](t)
	dotT[float64](t)
	dotT[complex64](t)
	dotT[complex128](t)
}

// refDot is gonum's dot (conjugating x when conj is set).
func refDot[T views.Scalar](x, y []T, conj bool) complex128 {
	n := len(x)
	switch xx := any(x).(type) {
	case []float32:
		return complex(float64(ref.Sdot(n, xx, 1, any(y).([]float32), 1)), 0)
	case []float64:
		return complex(ref.Ddot(n, xx, 1, any(y).([]float64), 1), 0)
	case []complex64:
		if conj {
			return complex128(ref.Cdotc(n, xx, 1, any(y).([]complex64), 1))
		}
		return complex128(ref.Cdotu(n, xx, 1, any(y).([]complex64), 1))
	case []complex128:
		if conj {
			return ref.Zdotc(n, xx, 1, any(y).([]complex128), 1)
		}
		return ref.Zdotu(n, xx, 1, any(y).([]complex128), 1)
	}
	return 0
}

// dotT runs dots of T on the library, every increment, conjugated or not.
// (lapis computes complex dots with a non-unit increment in Go whatever
// the options: the guard-page check covers why.)
func dotT[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(7, uint64(len(typeName[T]()))))
	for _, n := range []int{0, 1, 2, 3, 7, 16, 31, 64, 100, 129, 257, 1000} {
		for _, ix := range incs {
			iy := incs[r.IntN(len(incs))]
			for _, conj := range []bool{false, true} {
				if conj && !views.IsComplex[T]() {
					continue
				}
				x, y := randoms[T](r, n), randoms[T](r, n)
				xv := strided(x, ix)
				if conj {
					xv = xv.Conj()
				}
				where := fmt.Sprintf("%s n=%d incx=%d incy=%d conj=%v", typeName[T](), n, ix, iy, conj)
				got, err := cblas.Dot(xv, strided(y, iy), lapis.ForceC())
				if err != nil {
					t.fail(where, err)
					continue
				}
				t.cmp(where, []complex128{scalar.Complex128(got)}, []complex128{refDot(x, y, conj)}, gemmTol[T](n), 0)
			}
		}
	}
}

// refAsum is gonum's asum.
func refAsum[T views.Scalar](x []T) float64 {
	n := len(x)
	switch xx := any(x).(type) {
	case []float32:
		return float64(ref.Sasum(n, xx, 1))
	case []float64:
		return ref.Dasum(n, xx, 1)
	case []complex64:
		return float64(ref.Scasum(n, xx, 1))
	case []complex128:
		return ref.Dzasum(n, xx, 1)
	}
	return 0
}

func asumCheck(t *tally) {
	asumT[float32](t)
	asumT[float64](t)
	asumT[complex64](t)
	asumT[complex128](t)
	info := lapis.Info()
	if why := coreset.CasumDefect(info.Library, info.Version, info.Core); why != "" {
		// lapis sums complex64 in Go here: what was checked is that path.
		if t.worst <= 1 {
			t.status = statusAvoided
		}
		t.notes = append(t.notes, why+" (not called for complex64); LAPACK's complex64 routines that call scasum inside OpenBLAS (?latrs: ?gecon, ?trcon) are still affected: lapis moves OpenBLAS off these sets unless told not to (LAPIS_OPENBLAS_CORE=off, OPENBLAS_CORETYPE); use OpenBLAS >= 0.3.25 or let lapis choose")
		t.workaround = "complex64 Asum (and Iamax's NaN test, gonumblas's Scasum) is summed in Go on these kernels (internal/rt/coreset.CasumDefect)"
	}
}

// asumT runs asum of T on the library for every length up to 70 with
// increments 1 and 2.
func asumT[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(9, uint64(len(typeName[T]()))))
	for n := 1; n <= 70; n++ {
		for _, inc := range []int{1, 2} {
			x := randoms[T](r, n)
			where := fmt.Sprintf("%s n=%d inc=%d", typeName[T](), n, inc)
			got, err := cblas.Asum(strided(x, inc), lapis.ForceC())
			if err != nil {
				t.fail(where, err)
				continue
			}
			t.cmp(where, []complex128{complex(got, 0)}, []complex128{complex(refAsum(x), 0)}, gemmTol[T](n), 0)
		}
	}
}

// nrm2Case is a vector and its exact norm.
type nrm2Case struct {
	what string
	x    []complex128 // converted to T (real part only for real T)
	want float64
}

var nrm2Float64 = []nrm2Case{
	{"[3e300 4e300]", []complex128{3e300, 4e300}, 5e300},
	{"[3e-300 4e-300]", []complex128{3e-300, 4e-300}, 5e-300},
	{"[3e-310 4e-310] (subnormal)", []complex128{3e-310, 4e-310}, 5e-310},
	{"1000 x 1e-160", repeat(1e-160, 1000), 1e-160 * math.Sqrt(1000)},
	{"1000 x 1e+160", repeat(1e160, 1000), 1e160 * math.Sqrt(1000)},
	{"[1 Inf]", []complex128{1, complex(math.Inf(1), 0)}, math.Inf(1)},
	{"[Inf -Inf]", []complex128{complex(math.Inf(1), 0), complex(math.Inf(-1), 0)}, math.Inf(1)},
	{"[1 NaN 2]", []complex128{1, complex(math.NaN(), 0), 2}, math.NaN()},
	{"[Inf NaN]", []complex128{complex(math.Inf(1), 0), complex(math.NaN(), 0)}, math.NaN()},
	{"[0 0]", []complex128{0, 0}, 0},
}

var nrm2Float32 = []nrm2Case{
	{"[3e30 4e30]", []complex128{3e30, 4e30}, 5e30},
	{"[3e-25 4e-25]", []complex128{3e-25, 4e-25}, 5e-25},
	{"1000 x 1e-20", repeat(1e-20, 1000), 1e-20 * math.Sqrt(1000)},
	{"[1 NaN]", []complex128{1, complex(math.NaN(), 0)}, math.NaN()},
}

var nrm2Complex128 = []nrm2Case{
	{"[(3e300,4e300)]", []complex128{complex(3e300, 4e300)}, 5e300},
	{"[(3e-300,4e-300) 0]", []complex128{complex(3e-300, 4e-300), 0}, 5e-300},
	{"[(1,Inf)]", []complex128{complex(1, math.Inf(1))}, math.Inf(1)},
}

var nrm2Complex64 = []nrm2Case{
	{"[(3e30,4e30)]", []complex128{complex(3e30, 4e30)}, 5e30},
	{"[(3e-25,4e-25) 0]", []complex128{complex(3e-25, 4e-25), 0}, 5e-25},
}

func repeat(x complex128, n int) []complex128 {
	s := make([]complex128, n)
	for i := range s {
		s[i] = x
	}
	return s
}

// nrm2Check runs the extreme vectors through the library (ForceC) and
// through lapis's default path (Go on every length): the library being
// wrong where lapis's path is right is "avoided".
func nrm2Check(t *tally) {
	lib := &tally{name: t.name + " (library)"}
	for _, p := range []struct {
		opts []lapis.Option
		t    *tally
	}{{nil, t}, {[]lapis.Option{lapis.ForceC()}, lib}} {
		nrm2T[float64](p.t, nrm2Float64, p.opts)
		nrm2T[float32](p.t, nrm2Float32, p.opts)
		nrm2T[complex128](p.t, nrm2Complex128, p.opts)
		nrm2T[complex64](p.t, nrm2Complex64, p.opts)
	}
	if lib.worst > 1 {
		if t.worst <= 1 {
			t.status = statusAvoided
		}
		t.notes = append(t.notes, fmt.Sprintf("the library's own nrm2 is wrong: %s, error %.2g (tolerance %.2g)", lib.where, lib.err, lib.tol))
		t.workaround = "Nrm2 is computed in Go on every length (cblas.Nrm2; the library is not called)"
	} else {
		t.notes = append(t.notes, fmt.Sprintf("the library's own nrm2 (ForceC) agrees: max error %.2g", lib.err))
	}
}

func nrm2T[T views.Scalar](t *tally, cases []nrm2Case, opts []lapis.Option) {
	for _, c := range cases {
		x := make([]T, len(c.x))
		for i, v := range c.x {
			x[i] = fromC[T](v)
		}
		for _, inc := range []int{1, -2} {
			where := fmt.Sprintf("%s %s inc=%d", typeName[T](), c.what, inc)
			if len(opts) > 0 {
				where += " (library)"
			}
			got, err := cblas.Nrm2(strided(x, inc), opts...)
			if err != nil {
				t.fail(where, err)
				continue
			}
			scale := math.Abs(c.want)
			if scale == 0 || math.IsInf(scale, 0) || math.IsNaN(scale) {
				scale = 1
			}
			t.cmp(where, []complex128{complex(got, 0)}, []complex128{complex(c.want, 0)}, 4*scalar.Eps[T](), scale)
		}
	}
}

// fromC converts a complex128 to T (dropping the imaginary part for real
// T).
func fromC[T views.Scalar](z complex128) T {
	var x T
	switch p := any(&x).(type) {
	case *float32:
		*p = float32(real(z))
	case *float64:
		*p = real(z)
	case *complex64:
		*p = complex64(z)
	case *complex128:
		*p = z
	}
	return x
}

// rotgCheck compares lapis's Drotg and Srotg (gonumblas) with gonum's
// on pairs near the ends of the range. lapis computes them in Go for every
// library, so the library's own ?rotg is not called (cmd/lapis has no
// cgo of its own to call it): its version says whether it is affected.
func rotgCheck(t *tally) {
	var g gonumblas.Implementation
	for _, p := range [][2]float64{{3, 4}, {-3, 4}, {0, 0}, {0, 5}, {5, 0}, {4.49e307, 2.2e-308}, {2.2e-308, 4.49e307}, {1e300, 1e300}, {-1e300, 1e-300}, {1e-300, 1e-300}, {3e-310, 4e-310}} {
		c, s, r, z := g.Drotg(p[0], p[1])
		wc, ws, wr, wz := ref.Drotg(p[0], p[1])
		where := fmt.Sprintf("Drotg(%g, %g)", p[0], p[1])
		rotgCmp(t, where, [4]float64{c, s, r, z}, [4]float64{wc, ws, wr, wz}, 8*scalar.Eps[float64]())
	}
	for _, p := range [][2]float32{{3, 4}, {3e38, 3e38}, {1e-38, 1e-38}, {3e38, 1e-38}} {
		c, s, r, z := g.Srotg(p[0], p[1])
		wc, ws, wr, wz := ref.Srotg(p[0], p[1])
		where := fmt.Sprintf("Srotg(%g, %g)", p[0], p[1])
		rotgCmp(t, where, [4]float64{float64(c), float64(s), float64(r), float64(z)}, [4]float64{float64(wc), float64(ws), float64(wr), float64(wz)}, 8*scalar.Eps[float32]())
	}
	t.workaround = "Drotg and Srotg are computed in Go by gonum's scaled algorithm whatever library is linked (OpenBLAS < 0.3.24's ?rotg is not scaled and overflows: OpenMathLib/OpenBLAS#4130)"
	if info := lapis.Info(); info.Library == "OpenBLAS" && version.Less(info.Version, "0.3.24") && t.worst <= 1 {
		t.status = statusAvoided
		t.notes = append(t.notes, fmt.Sprintf("OpenBLAS %s's own ?rotg is affected by version (not called)", info.Version))
	}
}

// rotgCmp compares (c, s, z) absolutely and r relative to its size.
func rotgCmp(t *tally, where string, got, want [4]float64, tol float64) {
	t.cmp(where+" c,s,z", []complex128{complex(got[0], 0), complex(got[1], 0), complex(got[3], 0)}, []complex128{complex(want[0], 0), complex(want[1], 0), complex(want[3], 0)}, tol, 1)
	scale := math.Abs(want[2])
	if scale == 0 || math.IsInf(scale, 0) {
		scale = 1
	}
	t.cmp(where+" r", []complex128{complex(got[2], 0)}, []complex128{complex(want[2], 0)}, tol, scale)
}

// scalCheck: Scal with an alpha that has a NaN part gives NaN in every
// element, on the default path and ForceC: OpenBLAS 0.3.21's sscal
// (every kernel set) and zscal (Prescott to Sandybridge) store zeros
// there, so lapis computes such a Scal in Go.
func scalCheck(t *tally) {
	scalNaN[float32](t)
	scalNaN[float64](t)
	scalNaN[complex64](t)
	scalNaN[complex128](t)
	t.workaround = "Scal with an alpha that has a NaN part is computed in Go (OpenBLAS 0.3.21's sscal, and its zscal on Prescott to Sandybridge, store zeros for it)"
	// Seen in 0.3.21; later releases are not known to be affected.
	if info := lapis.Info(); info.Library == "OpenBLAS" && !version.Less("0.3.21", info.Version) && t.worst <= 1 {
		t.status = statusAvoided
	}
}

func scalNaN[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(29, uint64(len(typeName[T]()))))
	alphas := []complex128{complex(math.NaN(), 0)}
	if views.IsComplex[T]() {
		alphas = append(alphas, complex(0, math.NaN()), complex(2, math.NaN()))
	}
	for _, a := range alphas {
		alpha := fromC[T](a)
		for _, n := range []int{5, 300} {
			for _, opt := range []lapis.Option{{}, lapis.ForceC()} {
				x := randoms[T](r, n)
				want := make([]complex128, n)
				for i, e := range x {
					want[i] = scalar.Complex128(alpha) * scalar.Complex128(e)
				}
				where := fmt.Sprintf("%s n=%d alpha=%v", typeName[T](), n, a)
				v := strided(x, 1)
				if err := cblas.Scal(alpha, v, opt); err != nil {
					t.fail(where, err)
					continue
				}
				t.cmp(where, toC(logical(v)), want, scalar.Eps[T](), 1)
			}
		}
	}
}
