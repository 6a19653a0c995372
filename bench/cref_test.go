package bench

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/bench/cref"
	"github.com/lapis-go/lapis/cblas"
)

// TestGemmImplsAgree checks that every impl of BenchmarkGemm computes the
// same product in every layout: lapis (both paths), the C reference's
// cblas_dgemm call (bench/cref), and gonum, against a plain loop over the views. It also
// checks that the views really have the layout the name says.
func TestGemmImplsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{1, 5, 33} {
		for _, lay := range gemmLayouts {
			g := newGemmCase(lay, n, rng)
			a, b, c := g.views()
			wantA, wantC := map[string]string{
				"col": "ColMajorPacked", "row": "RowMajorPacked", "trans": "RowMajorPacked", "strided": "ColMajorStrided",
			}[lay], map[string]string{"row": "RowMajorPacked", "strided": "ColMajorStrided"}[lay]
			if wantC == "" {
				wantC = "ColMajorPacked"
			}
			if n > 1 && (a.Layout().Class().String() != wantA || c.Layout().Class().String() != wantC) {
				t.Fatalf("layout=%s: a is %v, c is %v", lay, a.Layout().Class(), c.Layout().Class())
			}
			c0 := append([]float64(nil), g.c.buf...)
			want := make([]float64, n*n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					s := 0.0
					for p := 0; p < n; p++ {
						s += a.At(i, p) * b.At(p, j)
					}
					want[i+j*n] = alpha*s + beta*c.At(i, j)
				}
			}
			args := g.cArgs()
			for _, impl := range []struct {
				name string
				f    func()
			}{
				{"lapis-c", func() { must(0, cblas.Gemm(alpha, a, b, beta, c, lapis.ForceC())) }},
				{"lapis-go", func() { must(0, cblas.Gemm(alpha, a, b, beta, c, lapis.ForcePureGo())) }},
				{"c", func() { cref.Dgemm(1, args) }},
				{"gonum", g.gonum()},
			} {
				copy(g.c.buf, c0)
				impl.f()
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						if got := c.At(i, j); math.Abs(got-want[i+j*n]) > 1e-12*float64(n+1) {
							t.Fatalf("n=%d layout=%s impl=%s: c[%d][%d] = %v, want %v", n, lay, impl.name, i, j, got, want[i+j*n])
						}
					}
				}
				// Nothing outside the window was written.
				for i, x := range g.c.buf {
					if r, col := (i-g.c.off)%g.c.ld, (i-g.c.off)/g.c.ld; i < g.c.off || r >= n || col >= n {
						if x != c0[i] {
							t.Fatalf("n=%d layout=%s impl=%s: wrote buf[%d] outside c", n, lay, impl.name, i)
						}
					}
				}
			}
		}
	}
}

func TestBLASThreads(t *testing.T) {
	if lapis.Info().Parallel == 0 {
		// A serial build (Debian's libopenblas0-serial) keeps one thread
		// whatever it is told; only the config check applies.
		if cfg, core := blasConfig(); cfg == "" || core == "" {
			t.Errorf("blasConfig() = %q, %q", cfg, core)
		}
		t.Skip("serial OpenBLAS build: its thread count is always 1")
	}
	prev := setBLASThreads(2)
	if got := setBLASThreads(prev); got != 2 {
		t.Errorf("openblas_get_num_threads after setting 2 = %d", got)
	}
	if cfg, core := blasConfig(); cfg == "" || core == "" {
		t.Errorf("blasConfig() = %q, %q", cfg, core)
	}
}
