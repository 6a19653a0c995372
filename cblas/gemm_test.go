package cblas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
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

func testGemm[T views.Scalar](t *testing.T, rng *rand.Rand, m, n, k int, ka, kb, kc tm.Kind, conjA, conjB, conjC bool, opt lapis.Option) {
	t.Helper()
	name := fmt.Sprintf("%s m=%d n=%d k=%d a=%v%s b=%v%s c=%v%s", tm.TypeName[T](), m, n, k, ka, cs(conjA), kb, cs(conjB), kc, cs(conjC))
	a := tm.New[T](rng, m, k, ka)
	b := tm.New[T](rng, k, n, kb)
	c := tm.New[T](rng, m, n, kc)
	av, bv, cv := a.V, b.V, c.V
	if conjA {
		av = av.Conj()
	}
	if conjB {
		bv = bv.Conj()
	}
	if conjC {
		cv = cv.Conj()
	}
	alpha, beta := tm.Random[T](rng), tm.Random[T](rng)
	want := refGemm(alpha, snapshot(av), snapshot(bv), beta, snapshot(cv))
	before := lapis.ReadStats()
	if err := Gemm(alpha, av, bv, beta, cv, opt); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	d := lapis.ReadStats()
	got := snapshot(cv)
	tol := float64(k+2) * 8 * scalar.Eps[T]()
	for i := range want {
		for j := range want[i] {
			if e := tm.Abs(got[i][j] - want[i][j]); e > tol*(1+tm.Abs(want[i][j])) {
				t.Fatalf("%s: c[%d][%d] = %v, want %v", name, i, j, got[i][j], want[i][j])
			}
		}
	}
	a.CheckPadding(t, name+" a")
	b.CheckPadding(t, name+" b")
	c.CheckPadding(t, name+" c")
	copies := d.Copies - before.Copies
	if !conjA && !conjB && !conjC {
		want := int64(0)
		for _, o := range []tm.Operand[T]{a, b, c} {
			if o.V.Layout().Class() == layout.General && o.V.Len() > 0 && m*n > 0 {
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
	for _, opt := range []lapis.Option{lapis.ForceC(), lapis.ForcePureGo()} {
		for ka := range tm.NumKinds {
			for kb := range tm.NumKinds {
				for kc := range tm.NumKinds {
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
				kinds := []tm.Kind{tm.Kind(rng.IntN(int(tm.NumKinds))), tm.Kind(rng.IntN(int(tm.NumKinds))), tm.Kind(rng.IntN(int(tm.NumKinds)))}
				before := lapis.ReadStats()
				testGemm[float64](t, rng, m, n, k, kinds[0], kinds[1], kinds[2], false, false, false, lapis.Option{})
				if d := lapis.ReadStats(); (d.Small-before.Small == 1) != goGemmSmall[float64](m, n, k) {
					t.Fatalf("m=%d n=%d k=%d: %d pure-Go calls, want the pure-Go path %v", m, n, k, d.Small-before.Small, goGemmSmall[float64](m, n, k))
				}
				testGemm[float64](t, rng, m, n, k, kinds[1], kinds[2], kinds[0], false, false, false, lapis.ForcePureGo())
			}
		}
	}
}

// TestGemmBetaZeroNaN: with beta = 0, c is not read (NaN in it does not
// propagate) on both paths, and nothing outside c changes.
func TestGemmBetaZeroNaN(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, opt := range []lapis.Option{lapis.ForceC(), lapis.ForcePureGo(), {}} {
		for _, s := range [][3]int{{4, 4, 4}, {5, 3, 7}, {16, 16, 16}, {9, 17, 2}} {
			for _, kc := range []tm.Kind{tm.ColPacked, tm.ColStrided, tm.RowPacked, tm.RowStrided} {
				a := tm.New[float64](rng, s[0], s[2], tm.ColStrided)
				b := tm.New[float64](rng, s[2], s[1], tm.RowPacked)
				c := tm.New[float64](rng, s[0], s[1], kc)
				for i := 0; i < s[0]; i++ {
					for j := 0; j < s[1]; j++ {
						c.V.Set(tm.NaN[float64](), i, j)
					}
				}
				zero := make([][]float64, s[0])
				for i := range zero {
					zero[i] = make([]float64, s[1])
				}
				want := refGemm(1.5, snapshot(a.V), snapshot(b.V), 0, zero)
				if err := Gemm(1.5, a.V, b.V, 0, c.V, opt); err != nil {
					t.Fatal(err)
				}
				got := snapshot(c.V)
				for i := range want {
					for j := range want[i] {
						if e := tm.Abs(got[i][j] - want[i][j]); !(e <= 1e-12*float64(s[2])) {
							t.Fatalf("%v %v c %v: c[%d][%d] = %v, want %v", opt, s, kc, i, j, got[i][j], want[i][j])
						}
					}
				}
				c.CheckPadding(t, fmt.Sprintf("%v c", s))
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
				kinds := []tm.Kind{tm.Kind(rng.IntN(int(tm.NumKinds))), tm.Kind(rng.IntN(int(tm.NumKinds))), tm.Kind(rng.IntN(int(tm.NumKinds)))}
				testGemm[float64](t, rng, m, n, k, kinds[0], kinds[1], kinds[2], false, false, false, lapis.Option{})
				testGemm[complex128](t, rng, m, n, k, kinds[1], kinds[2], kinds[0], rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0, lapis.ForceC())
			}
		}
	}
}

// TestGemmEmpty: products with a zero dimension, with every combination
// of the operands of gemmOperands. The empty ones include a zero stride
// on an axis that has elements (nothing is addressed, so nothing overlaps)
// and offsets other than testmat's. On every path, Gemm makes at most one
// call, copies only a c that has elements and no BLAS description, and
// writes only c.
func TestGemmEmpty(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	for _, s := range [][3]int{{0, 3, 2}, {3, 0, 2}, {3, 2, 0}, {0, 3, 0}, {0, 0, 0}, {0, 17, 9}, {9, 17, 0}} {
		for _, opt := range []lapis.Option{{}, lapis.ForceC(), lapis.ForcePureGo()} {
			testGemmEmpty[float64](t, rng, s[0], s[1], s[2], 0, opt)
			for conj := range 8 {
				testGemmEmpty[complex128](t, rng, s[0], s[1], s[2], conj, opt)
			}
		}
	}
}

// testGemmEmpty runs Gemm on every combination of gemmOperands; bit i of
// conj conjugates operand i (a, b, c).
func testGemmEmpty[T views.Scalar](t *testing.T, rng *rand.Rand, m, n, k, conj int, opt lapis.Option) {
	t.Helper()
	for _, a := range gemmOperands[T](rng, m, k) {
		for _, b := range gemmOperands[T](rng, k, n) {
			for _, c := range gemmOperands[T](rng, m, n) {
				ops := []tm.Operand[T]{a, b, c}
				vs := make([]views.View[T], 3)
				for i, o := range ops {
					vs[i] = o.V
					if conj&(1<<i) != 0 {
						vs[i] = vs[i].Conj()
					}
				}
				name := fmt.Sprintf("%s %v a=%v b=%v c=%v conj=%d", tm.TypeName[T](), opt, vs[0].Layout(), vs[1].Layout(), vs[2].Layout(), conj)
				beta := tm.Random[T](rng)
				c0 := snapshot(vs[2])
				before := lapis.ReadStats()
				if err := Gemm(tm.Random[T](rng), vs[0], vs[1], beta, vs[2], opt); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				d := lapis.ReadStats()
				for i, row := range snapshot(vs[2]) {
					for j, g := range row {
						if w := beta * c0[i][j]; !close1(g, w, 1) {
							t.Fatalf("%s: c[%d][%d] = %v, want %v", name, i, j, g, w)
						}
					}
				}
				for i, o := range ops {
					o.CheckPadding(t, fmt.Sprintf("%s operand %d", name, i))
				}
				if calls, small := d.Calls-before.Calls, d.Small-before.Small; calls+small != min(1, int64(m*n)) {
					t.Fatalf("%s: %d C calls and %d pure-Go calls, want %d in all", name, calls, small, min(1, m*n))
				}
				want := int64(0)
				if c.V.Layout().Class() == layout.General && m*n > 0 {
					want = 1
				}
				if copies := d.Copies - before.Copies; conj == 0 && copies != want {
					t.Fatalf("%s: %d copies, want %d", name, copies, want)
				}
			}
		}
	}
}

// gemmOperands returns an r x c operand of each testmat class or, when
// r*c == 0, one empty operand per class in a buffer of four NaN, with the
// strides the class formulas give for these dimensions (General and
// Reversed with no rows have stride 0 along the columns) at offsets 0 to 2.
func gemmOperands[T views.Scalar](rng *rand.Rand, r, c int) []tm.Operand[T] {
	var ops []tm.Operand[T]
	if r*c > 0 {
		for k := range tm.NumKinds {
			ops = append(ops, tm.New[T](rng, r, c, k))
		}
		return ops
	}
	for _, e := range []struct {
		kind    tm.Kind
		strides []int
		offset  int
	}{
		{tm.ColPacked, []int{1, r}, 0},
		{tm.ColStrided, []int{1, r + 3}, 1},
		{tm.RowPacked, []int{c, 1}, 0},
		{tm.RowStrided, []int{c + 3, 1}, 2},
		{tm.General, []int{2, 2 * r}, 1},
		{tm.Reversed, []int{-1, -r}, 0},
	} {
		buf := make([]T, 4)
		for i := range buf {
			buf[i] = tm.NaN[T]()
		}
		v := must2(views.FromSlice(buf, must(layout.New([]int{r, c}, e.strides, e.offset))))
		ops = append(ops, tm.Operand[T]{V: v, Buf: buf, Kind: e.kind})
	}
	return ops
}

func TestGemmErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	a := tm.New[float64](rng, 3, 4, tm.ColPacked)
	b := tm.New[float64](rng, 4, 2, tm.ColPacked)
	c := tm.New[float64](rng, 3, 2, tm.ColPacked)
	g := tm.New[float64](rng, 4, 2, tm.General)
	bc, _ := views.FromSlice(make([]float64, 2), must(layout.New([]int{3, 2}, []int{0, 1}, 0)))
	vec, _ := c.V.Reshape(6)
	alias, _ := views.FromSlice(a.Buf, must(layout.ColMajor(3, 2)))
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"rank", Gemm(1, vec, b.V, 0, c.V), layout.ErrShape},
		{"inner", Gemm(1, a.V, must2(b.V.Slice(0, 0, 3, 1)), 0, c.V), layout.ErrShape},
		{"output shape", Gemm(1, a.V, b.V, 0, must2(c.V.Slice(1, 0, 1, 1))), layout.ErrShape},
		{"broadcast output", Gemm(1, a.V, b.V, 0, bc), layout.ErrOverlap},
		{"output aliases a", Gemm(1, a.V, b.V, 0, alias), layout.ErrOverlap},
		{"strict", Gemm(1, a.V, g.V, 0, c.V, lapis.Strict(true)), lapis.ErrCopyRefused},
	}
	snap := snapshot(c.V)
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if fmt.Sprint(snapshot(c.V)) != fmt.Sprint(snap) {
		t.Errorf("a failed Gemm wrote c")
	}
	prev := lapis.SetStrict(true)
	err := Gemm(1, a.V, g.V, 0, c.V)
	lapis.SetStrict(prev)
	if !errors.Is(err, lapis.ErrCopyRefused) {
		t.Errorf("lapis.SetStrict: %v", err)
	}
	if err := Gemm(1, a.V, g.V, 0, c.V, lapis.Strict(false)); err != nil {
		t.Errorf("lapis.Strict(false): %v", err)
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
	for _, kc := range []tm.Kind{tm.ColPacked, tm.RowPacked} {
		a := tm.New[float64](rng, 64, 64, tm.RowStrided)
		b := tm.New[float64](rng, 64, 64, tm.ColStrided)
		c := tm.New[float64](rng, 64, 64, kc)
		if n := testing.AllocsPerRun(20, func() { _ = Gemm(1, a.V, b.V, 0.5, c.V) }); n != 0 {
			t.Errorf("Gemm (c %v): %v allocations per call", kc, n)
		}
	}
	z := tm.New[complex128](rng, 32, 32, tm.ColPacked)
	y := tm.New[complex128](rng, 32, 32, tm.ColPacked) // y^H is row-major conjugated: BLAS "C"
	w := tm.New[complex128](rng, 32, 32, tm.ColStrided)
	if n := testing.AllocsPerRun(20, func() { _ = Gemm(1i, z.V, y.V.H(), 2, w.V) }); n != 0 {
		t.Errorf("complex Gemm: %v allocations per call", n)
	}
}

func TestInfoAndThreads(t *testing.T) {
	info := lapis.Info()
	if !strings.Contains(info.String(), "BLAS integer:") {
		t.Errorf("Info.String: %s", info)
	}
	if info.Library == "MKL" {
		// MKL: settable, call by call on the calling OS thread only
		// (TestMKLPerThread); MKL's own process-wide count stays.
		defer lapis.SetThreads(lapis.AutoThreads)
		before := clib.MKLMaxThreads()
		if err := lapis.SetThreads(1); err != nil || lapis.Threads() != 1 || lapis.ThreadPolicy() != "fixed 1" || clib.MKLMaxThreads() != before {
			t.Errorf("MKL: lapis.SetThreads(1): %v, Threads %d, policy %q, MKL's count %d -> %d", err, lapis.Threads(), lapis.ThreadPolicy(), before, clib.MKLMaxThreads())
		}
		return
	}
	if info.Library != "OpenBLAS" {
		// Another CBLAS (-tags lapis_cgoflags): one thread, not settable.
		if err := lapis.SetThreads(1); !errors.Is(err, lapis.ErrUnsupported) || lapis.Threads() != 1 {
			t.Errorf("%s: lapis.SetThreads(1): %v, Threads %d; want lapis.ErrUnsupported, 1", info.Library, err, lapis.Threads())
		}
		return
	}
	if !strings.Contains(info.Config, "OpenBLAS") || info.Core == "" || info.IntBits != info.LibraryIntBits || info.IntBits < 32 {
		t.Errorf("Info: %+v", info)
	}
	defer lapis.SetThreads(lapis.AutoThreads)
	if err := lapis.SetThreads(1); err != nil || lapis.Threads() != 1 || lapis.ThreadPolicy() != "fixed 1" || clib.Threads() != 1 {
		t.Errorf("lapis.SetThreads(1): %v, Threads %d, policy %q, library %d", err, lapis.Threads(), lapis.ThreadPolicy(), clib.Threads())
	}
	if err := lapis.SetThreads(-1); !errors.Is(err, lapis.ErrInvalid) {
		t.Errorf("lapis.SetThreads(-1): %v", err)
	}
	if max := threads.Limit(); strings.Contains(clib.Config(), "MAX_THREADS=") {
		if err := lapis.SetThreads(max + 1); !errors.Is(err, lapis.ErrInvalid) || lapis.ThreadPolicy() != "fixed 1" {
			t.Errorf("lapis.SetThreads(%d) beyond MAX_THREADS=%d: %v, policy %q", max+1, max, err, lapis.ThreadPolicy())
		}
		if err := lapis.SetThreads(max); err != nil {
			t.Errorf("lapis.SetThreads(MAX_THREADS=%d): %v", max, err)
		}
	}
	if err := lapis.SetThreads(lapis.AutoThreads); err != nil || !strings.HasPrefix(lapis.ThreadPolicy(), "auto up to ") {
		t.Errorf("lapis.SetThreads(lapis.AutoThreads): %v, policy %q", err, lapis.ThreadPolicy())
	}
	// The default policy keeps a pthreads OpenBLAS on one thread between
	// calls: a call raises it only while it runs alone.
	if lapis.Info().Variant == "pthreads" && clib.Threads() != 1 {
		t.Errorf("auto policy at rest: OpenBLAS at %d threads; want 1", clib.Threads())
	}
}
