package cblas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// refGemm is the plain triple loop: c = alpha a b + beta c, on values.
func refGemm[T views.Scalar](alpha T, a, b [][]T, beta T, c [][]T) [][]T {
	out := make([][]T, len(c))
	for i := range c {
		out[i] = make([]T, len(c[i]))
		for j := range c[i] {
			var s T
			for p := range b {
				s += a[i][p] * b[p][j]
			}
			out[i][j] = alpha*s + beta*c[i][j]
		}
	}
	return out
}

func testGemm[T views.Scalar](t *testing.T, rng *rand.Rand, m, n, k int, ka, kb, kc kind, conjA, conjB, conjC bool, opt Option) {
	t.Helper()
	name := fmt.Sprintf("%s m=%d n=%d k=%d a=%v%s b=%v%s c=%v%s", typeName[T](), m, n, k, ka, cs(conjA), kb, cs(conjB), kc, cs(conjC))
	a := newOperand[T](rng, m, k, ka)
	b := newOperand[T](rng, k, n, kb)
	c := newOperand[T](rng, m, n, kc)
	av, bv, cv := a.v, b.v, c.v
	if conjA {
		av = av.Conj()
	}
	if conjB {
		bv = bv.Conj()
	}
	if conjC {
		cv = cv.Conj()
	}
	alpha, beta := random[T](rng), random[T](rng)
	want := refGemm(alpha, snapshot(av), snapshot(bv), beta, snapshot(cv))
	before := ReadStats()
	if err := Gemm(alpha, av, bv, beta, cv, opt); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	d := ReadStats()
	got := snapshot(cv)
	tol := float64(k+2) * 8 * eps[T]()
	for i := range want {
		for j := range want[i] {
			if e := abs(got[i][j] - want[i][j]); e > tol*(1+abs(want[i][j])) {
				t.Fatalf("%s: c[%d][%d] = %v, want %v", name, i, j, got[i][j], want[i][j])
			}
		}
	}
	a.checkPadding(t, name+" a")
	b.checkPadding(t, name+" b")
	c.checkPadding(t, name+" c")
	copies := d.Copies - before.Copies
	if !conjA && !conjB && !conjC {
		want := int64(0)
		for _, o := range []operand[T]{a, b, c} {
			if o.v.Layout().Class() == layout.General && o.v.Len() > 0 && m*n > 0 {
				want++
			}
		}
		if copies != want {
			t.Fatalf("%s: %d copies, want %d", name, copies, want)
		}
	}
	if calls, small := d.Calls-before.Calls, d.Small-before.Small; calls+small != min(1, int64(m*n)) {
		t.Fatalf("%s: %d C calls and %d pure-Go calls, want one in all", name, calls, small)
	}
}

func cs(c bool) string {
	if c {
		return "*"
	}
	return ""
}

// TestGemmLayouts: every class of every operand, both paths, all types.
func TestGemmLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, opt := range []Option{ForceC(), ForcePureGo()} {
		for ka := range nKinds {
			for kb := range nKinds {
				for kc := range nKinds {
					testGemm[float64](t, rng, 5, 4, 3, ka, kb, kc, false, false, false, opt)
					testGemm[float32](t, rng, 3, 6, 2, ka, kb, kc, false, false, false, opt)
					testGemm[complex128](t, rng, 4, 3, 5, ka, kb, kc, false, false, false, opt)
					conj := rng.IntN(8)
					testGemm[complex64](t, rng, 4, 5, 3, ka, kb, kc, conj&1 != 0, conj&2 != 0, conj&4 != 0, opt)
				}
			}
		}
	}
}

// TestGemmSmallSizes: the sizes of the pure-Go path (the float64 assembly
// kernel when it runs) on both paths, with random layouts, and proof that
// the default path is the pure-Go one up to the thresholds.
func TestGemmSmallSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	sizes := []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20}
	if testing.Short() {
		sizes = []int{1, 3, 4, 8, 9, 16, 17}
	}
	for _, m := range sizes {
		for _, n := range sizes {
			for _, k := range sizes {
				kinds := []kind{kind(rng.IntN(int(nKinds))), kind(rng.IntN(int(nKinds))), kind(rng.IntN(int(nKinds)))}
				before := ReadStats()
				testGemm[float64](t, rng, m, n, k, kinds[0], kinds[1], kinds[2], false, false, false, Option{})
				if d := ReadStats(); (d.Small-before.Small == 1) != goGemmSmall[float64](m, n, k) {
					t.Fatalf("m=%d n=%d k=%d: %d pure-Go calls, want the pure-Go path %v", m, n, k, d.Small-before.Small, goGemmSmall[float64](m, n, k))
				}
				testGemm[float64](t, rng, m, n, k, kinds[1], kinds[2], kinds[0], false, false, false, ForcePureGo())
			}
		}
	}
}

// TestGemmBetaZeroNaN: with beta = 0, c is not read (NaN in it does not
// propagate) on both paths, and nothing outside c changes.
func TestGemmBetaZeroNaN(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, opt := range []Option{ForceC(), ForcePureGo(), {}} {
		for _, s := range [][3]int{{4, 4, 4}, {5, 3, 7}, {16, 16, 16}, {9, 17, 2}} {
			for _, kc := range []kind{colPacked, colStrided, rowPacked, rowStrided} {
				a := newOperand[float64](rng, s[0], s[2], colStrided)
				b := newOperand[float64](rng, s[2], s[1], rowPacked)
				c := newOperand[float64](rng, s[0], s[1], kc)
				for i := 0; i < s[0]; i++ {
					for j := 0; j < s[1]; j++ {
						c.v.Set(nan[float64](), i, j)
					}
				}
				zero := make([][]float64, s[0])
				for i := range zero {
					zero[i] = make([]float64, s[1])
				}
				want := refGemm(1.5, snapshot(a.v), snapshot(b.v), 0, zero)
				if err := Gemm(1.5, a.v, b.v, 0, c.v, opt); err != nil {
					t.Fatal(err)
				}
				got := snapshot(c.v)
				for i := range want {
					for j := range want[i] {
						if e := abs(got[i][j] - want[i][j]); !(e <= 1e-12*float64(s[2])) {
							t.Fatalf("%v %v c %v: c[%d][%d] = %v, want %v", opt, s, kc, i, j, got[i][j], want[i][j])
						}
					}
				}
				c.checkPadding(t, fmt.Sprintf("%v c", s))
			}
		}
	}
}

// TestGemmSizes: sizes on both sides of OpenBLAS's block boundaries.
func TestGemmSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	sizes := []int{0, 1, 2, 3, 7, 63, 64, 65, 127, 129}
	if testing.Short() {
		sizes = []int{0, 1, 2, 3, 7, 65}
	}
	for _, m := range sizes {
		for _, n := range []int{1, 3, 64, 65} {
			for _, k := range []int{0, 1, 63, 129} {
				kinds := []kind{kind(rng.IntN(int(nKinds))), kind(rng.IntN(int(nKinds))), kind(rng.IntN(int(nKinds)))}
				testGemm[float64](t, rng, m, n, k, kinds[0], kinds[1], kinds[2], false, false, false, Option{})
				testGemm[complex128](t, rng, m, n, k, kinds[1], kinds[2], kinds[0], rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0, ForceC())
			}
		}
	}
}

func TestGemmErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	a := newOperand[float64](rng, 3, 4, colPacked)
	b := newOperand[float64](rng, 4, 2, colPacked)
	c := newOperand[float64](rng, 3, 2, colPacked)
	g := newOperand[float64](rng, 4, 2, general)
	bc, _ := views.FromSlice(make([]float64, 2), must(layout.New([]int{3, 2}, []int{0, 1}, 0)))
	vec, _ := c.v.Reshape(6)
	alias, _ := views.FromSlice(a.buf, must(layout.ColMajor(3, 2)))
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"rank", Gemm(1, vec, b.v, 0, c.v), layout.ErrShape},
		{"inner", Gemm(1, a.v, must2(b.v.Slice(0, 0, 3, 1)), 0, c.v), layout.ErrShape},
		{"output shape", Gemm(1, a.v, b.v, 0, must2(c.v.Slice(1, 0, 1, 1))), layout.ErrShape},
		{"broadcast output", Gemm(1, a.v, b.v, 0, bc), layout.ErrOverlap},
		{"output aliases a", Gemm(1, a.v, b.v, 0, alias), layout.ErrOverlap},
		{"strict", Gemm(1, a.v, g.v, 0, c.v, Strict(true)), ErrCopyRefused},
	}
	snap := snapshot(c.v)
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if fmt.Sprint(snapshot(c.v)) != fmt.Sprint(snap) {
		t.Errorf("a failed Gemm wrote c")
	}
	prev := SetStrict(true)
	err := Gemm(1, a.v, g.v, 0, c.v)
	SetStrict(prev)
	if !errors.Is(err, ErrCopyRefused) {
		t.Errorf("SetStrict: %v", err)
	}
	if err := Gemm(1, a.v, g.v, 0, c.v, Strict(false)); err != nil {
		t.Errorf("Strict(false): %v", err)
	}
}

func must(l layout.Layout, err error) layout.Layout {
	if err != nil {
		panic(err)
	}
	return l
}

func must2[T views.Scalar](v views.View[T], err error) views.View[T] {
	if err != nil {
		panic(err)
	}
	return v
}

func TestGemmNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, kc := range []kind{colPacked, rowPacked} {
		a := newOperand[float64](rng, 64, 64, rowStrided)
		b := newOperand[float64](rng, 64, 64, colStrided)
		c := newOperand[float64](rng, 64, 64, kc)
		if n := testing.AllocsPerRun(20, func() { _ = Gemm(1, a.v, b.v, 0.5, c.v) }); n != 0 {
			t.Errorf("Gemm (c %v): %v allocations per call", kc, n)
		}
	}
	z := newOperand[complex128](rng, 32, 32, colPacked)
	y := newOperand[complex128](rng, 32, 32, colPacked) // y^H is row-major conjugated: BLAS "C"
	w := newOperand[complex128](rng, 32, 32, colStrided)
	if n := testing.AllocsPerRun(20, func() { _ = Gemm(1i, z.v, must2(y.v.H()), 2, w.v) }); n != 0 {
		t.Errorf("complex Gemm: %v allocations per call", n)
	}
}

func TestInfoAndThreads(t *testing.T) {
	info := Info()
	if !strings.Contains(info.Config, "OpenBLAS") || info.Core == "" || info.IntBits != info.LibraryIntBits || info.IntBits < 32 {
		t.Errorf("Info: %+v", info)
	}
	if !strings.Contains(info.String(), "BLAS integer:") {
		t.Errorf("Info.String: %s", info)
	}
	prev := Threads()
	defer SetThreads(prev)
	if err := SetThreads(1); err != nil || Threads() != 1 {
		t.Errorf("SetThreads(1): %v, Threads %d", err, Threads())
	}
	if err := SetThreads(0); !errors.Is(err, layout.ErrShape) {
		t.Errorf("SetThreads(0): %v", err)
	}
}
