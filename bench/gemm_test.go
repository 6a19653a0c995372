package bench

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/bench/cref"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// operand is one n x n float64 matrix in a buffer of fixed random data:
// stored at off with leading dimension ld, column-major (or row-major when
// the case says so), and seen transposed when trans is set.
type operand struct {
	buf   []float64
	off   int
	ld    int
	trans bool
}

// gemmCase is c = alpha a b + beta c with n x n operands in one storage
// scheme (a benchmark "layout"), described three ways over the same memory:
// as lapis views, as a cblas_dgemm call, and as a gonum Dgemm call.
type gemmCase struct {
	name     string
	n        int
	rowMajor bool
	a, b, c  operand
}

// The layouts: col, all three compact column-major; row, all three compact
// row-major (layout.RowMajor); trans, a and b the .T() of compact
// column-major matrices (BLAS "T"); strided, all three column-major n x n
// windows at rows 1.., columns 2.. of an (n+17) x (n+3) buffer (ld = n+17,
// an unaligned start).
var gemmLayouts = []string{"col", "row", "trans", "strided"}

const alpha, beta = 1.0, 0.5 // beta != 0 reads c; c stays bounded over iterations

func newGemmCase(name string, n int, rng *rand.Rand) gemmCase {
	mk := func(trans bool) operand {
		switch name {
		case "strided":
			ld := n + 17
			return operand{buf: random(rng, ld*(n+3)), off: 1 + 2*ld, ld: ld}
		default:
			return operand{buf: random(rng, n*n), ld: n, trans: trans}
		}
	}
	g := gemmCase{name: name, n: n, rowMajor: name == "row"}
	g.a, g.b, g.c = mk(name == "trans"), mk(name == "trans"), mk(false)
	return g
}

func random(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 2*rng.Float64() - 1
	}
	return s
}

// view is o as a lapis view.
func (g *gemmCase) view(o operand) views.View[float64] {
	strides := []int{1, o.ld}
	if g.rowMajor {
		strides = []int{o.ld, 1}
	}
	v := must(views.FromSlice(o.buf, must(layout.New([]int{g.n, g.n}, strides, o.off))))
	if o.trans {
		v = v.T()
	}
	return v
}

// views returns a, b, c as lapis views.
func (g *gemmCase) views() (a, b, c views.View[float64]) {
	return g.view(g.a), g.view(g.b), g.view(g.c)
}

// cArgs is the same product as one cblas_dgemm call of the C reference
// (bench/cref), in the storage order of the data.
func (g *gemmCase) cArgs() *cref.Gemm {
	n := g.n
	return &cref.Gemm{
		RowMajor: g.rowMajor, TransA: g.a.trans, TransB: g.b.trans,
		M: n, N: n, K: n, Alpha: alpha, Beta: beta,
		A: g.a.buf[g.a.off:], LdA: g.a.ld,
		B: g.b.buf[g.b.off:], LdB: g.b.ld,
		C: g.c.buf[g.c.off:], LdC: g.c.ld,
	}
}

// gonum is the same product through gonum's pure-Go (row-major) Dgemm: on
// column-major data it computes c^T = b^T a^T, exactly as lapis's pure-Go
// path does.
func (g *gemmCase) gonum() func() {
	var impl gonum.Implementation
	tr := func(t bool) blas.Transpose {
		if t {
			return blas.Trans
		}
		return blas.NoTrans
	}
	n, a, b, c := g.n, g.a, g.b, g.c
	as, bs, cs := a.buf[a.off:], b.buf[b.off:], c.buf[c.off:]
	if g.rowMajor {
		return func() { impl.Dgemm(tr(a.trans), tr(b.trans), n, n, n, alpha, as, a.ld, bs, b.ld, beta, cs, c.ld) }
	}
	return func() { impl.Dgemm(tr(b.trans), tr(a.trans), n, n, n, alpha, bs, b.ld, as, a.ld, beta, cs, c.ld) }
}

// printBLAS prints, once, which OpenBLAS and which of its kernels
// (OPENBLAS_CORETYPE) ran, as configuration lines of the benchmark output
// (benchstat keeps "key: value" lines), and makes a first call so that
// OpenBLAS's one-time setup (about a millisecond) is not timed.
var printBLAS = sync.OnceFunc(func() {
	cfg, core := blasConfig()
	fmt.Printf("openblas: %s\nopenblas-core: %s\n", cfg, core)
	x := make([]float64, 64)
	cref.Dgemm(1, cref.Square(8, x, x, make([]float64, 64)))
})

// reportGFLOPS reports flops per product as GFLOP/s over the timed loop.
func reportGFLOPS(b *testing.B, flops float64) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(flops*float64(b.N)/s/1e9, "GFLOP/s")
	}
}

// gemmBench runs f in a timed loop reporting GFLOP/s and allocations; with
// want set, it checks that lapis took the path the impl names and copied
// nothing (lapis.ReadStats).
func gemmBench(b *testing.B, flops float64, want func(d lapis.Stats, n int64) bool, f func()) {
	b.ReportAllocs()
	before := lapis.ReadStats()
	for b.Loop() {
		f()
	}
	reportGFLOPS(b, flops)
	if want != nil {
		after := lapis.ReadStats()
		d := lapis.Stats{Calls: after.Calls - before.Calls, Copies: after.Copies - before.Copies, Small: after.Small - before.Small}
		if !want(d, int64(b.N)) {
			b.Fatalf("lapis took the wrong path: %+v over %d calls", d, b.N)
		}
	}
}

func viaC(d lapis.Stats, n int64) bool  { return d.Calls == n && d.Small == 0 && d.Copies == 0 }
func viaGo(d lapis.Stats, n int64) bool { return d.Small == n && d.Calls == 0 && d.Copies == 0 }
func noCopy(d lapis.Stats, n int64) bool {
	return d.Copies == 0 && d.Calls+d.Small == n
}

// BenchmarkGemm: op=gemm, c = a b + 0.5 c with n x n float64 matrices of
// fixed random data, in four layouts (see gemmLayouts), reporting GFLOP/s
// (2n^3 flops per product). impl=lapis is cblas.Gemm as a user calls it
// (small products go to pure Go), lapis-c forces the C path (ForceC),
// lapis-go the pure-Go path (ForcePureGo); impl=c calls cblas_dgemm
// directly through cgo on the same memory, c-inloop calls it b.N times
// inside one cgo call (OpenBLAS alone, no per-call cgo crossing; small n
// only); impl=gonum is gonum's pure-Go Dgemm. Everything runs with one
// OpenBLAS thread except the threads=2 groups at n=1024, which run last
// (OpenBLAS's cost for small calls can rise once its thread pool has run).
func BenchmarkGemm(b *testing.B) {
	defer setBLASThreads(setBLASThreads(1))
	printBLAS()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{4, 16, 64, 256, 1024} {
		flops := 2 * float64(n) * float64(n) * float64(n)
		for _, lay := range gemmLayouts {
			g := newGemmCase(lay, n, rng)
			a, bv, c := g.views()
			args := g.cArgs()
			run := func(impl string, want func(lapis.Stats, int64) bool, f func()) {
				b.Run(fmt.Sprintf("op=gemm/n=%d/layout=%s/impl=%s", n, lay, impl), func(b *testing.B) {
					gemmBench(b, flops, want, f)
				})
			}
			run("lapis", noCopy, func() { must(0, cblas.Gemm(alpha, a, bv, beta, c)) })
			run("lapis-c", viaC, func() { must(0, cblas.Gemm(alpha, a, bv, beta, c, lapis.ForceC())) })
			run("lapis-go", viaGo, func() { must(0, cblas.Gemm(alpha, a, bv, beta, c, lapis.ForcePureGo())) })
			run("c", nil, func() { cref.Dgemm(1, args) })
			if n <= 16 {
				b.Run(fmt.Sprintf("op=gemm/n=%d/layout=%s/impl=c-inloop", n, lay), func(b *testing.B) {
					b.ReportAllocs()
					cref.Dgemm(b.N, args)
					reportGFLOPS(b, flops)
				})
			}
			run("gonum", nil, g.gonum())
		}
	}
	// Two OpenBLAS threads (GOMAXPROCS is untouched).
	n := 1024
	flops := 2 * float64(n) * float64(n) * float64(n)
	g := newGemmCase("col", n, rng)
	a, bv, c := g.views()
	args := g.cArgs()
	for _, impl := range []string{"lapis", "c"} {
		b.Run(fmt.Sprintf("op=gemm/n=%d/layout=col/threads=2/impl=%s", n, impl), func(b *testing.B) {
			defer setBLASThreads(setBLASThreads(2))
			f := func() { cref.Dgemm(1, args) }
			if impl == "lapis" {
				f = func() { must(0, cblas.Gemm(alpha, a, bv, beta, c)) }
			}
			gemmBench(b, flops, nil, f)
		})
	}
}

// BenchmarkGemmSmall measures where cblas.Gemm's pure-Go path stops paying:
// lapis-c (ForceC) against lapis-go (ForcePureGo) on small compact
// column-major products, float64 (op=dgemm) and complex128 (op=zgemm), one
// OpenBLAS thread. Square n x n x n, and shapes m x n x k with the same
// m*n*k = 256 (so one threshold on m*n*k can be judged). Read ns/op; the
// GFLOP/s column counts 2mnk (real) or 8mnk (complex) flops.
func BenchmarkGemmSmall(b *testing.B) {
	defer setBLASThreads(setBLASThreads(1))
	printBLAS()
	type shape struct{ m, n, k int }
	var shapes []shape
	for _, n := range []int{2, 3, 4, 5, 6, 8, 10, 12, 16} {
		shapes = append(shapes, shape{n, n, n})
	}
	shapes = append(shapes, shape{2, 2, 64}, shape{64, 2, 2}, shape{2, 64, 2}, shape{16, 16, 1}, shape{4, 4, 16})
	for _, s := range shapes {
		name := fmt.Sprintf("n=%d", s.n)
		if s.m != s.n || s.n != s.k {
			name = fmt.Sprintf("mnk=%dx%dx%d", s.m, s.n, s.k)
		}
		smallGemm[float64](b, "dgemm/"+name, s.m, s.n, s.k, 2)
		smallGemm[complex128](b, "zgemm/"+name, s.m, s.n, s.k, 8)
	}
}

func smallGemm[T views.Scalar](b *testing.B, name string, m, n, k int, flopsPerMAC float64) {
	rng := rand.New(rand.NewPCG(uint64(m), uint64(n*k)))
	mk := func(r, c int) views.View[T] {
		t := must(views.Zeros[T](r, c))
		d := t.Data()
		for i := range d {
			var x T
			switch p := any(&x).(type) {
			case *float64:
				*p = 2*rng.Float64() - 1
			case *complex128:
				*p = complex(2*rng.Float64()-1, 2*rng.Float64()-1)
			}
			d[i] = x
		}
		return t.View()
	}
	a, bv, c := mk(m, k), mk(k, n), mk(m, n)
	var al, be T = 1, 0.5
	flops := flopsPerMAC * float64(m*n*k)
	b.Run("op="+name+"/impl=lapis-c", func(b *testing.B) {
		gemmBench(b, flops, viaC, func() { must(0, cblas.Gemm(al, a, bv, be, c, lapis.ForceC())) })
	})
	b.Run("op="+name+"/impl=lapis-go", func(b *testing.B) {
		gemmBench(b, flops, viaGo, func() { must(0, cblas.Gemm(al, a, bv, be, c, lapis.ForcePureGo())) })
	})
}
