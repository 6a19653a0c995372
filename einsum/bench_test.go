package einsum

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/views"
)

// benchCase is one of issue 39's five anchor cases.
type benchCase struct {
	name, spec string
	shapes     [][]int
	mnkb       [4]int // the GEMM of the same size (one step), for reference
}

var benchCases = []benchCase{
	{"ijk-jkl", "ijk,jkl->il", [][]int{{100, 100, 100}, {100, 100, 100}}, [4]int{100, 100, 10000, 1}},
	{"ijb-jkb", "ijb,jkb->ikb", [][]int{{64, 64, 256}, {64, 64, 256}}, [4]int{64, 64, 64, 256}},
	{"abcd-cdef", "abcd,cdef->abef", [][]int{{24, 24, 24, 24}, {24, 24, 24, 24}}, [4]int{576, 576, 576, 1}},
	{"chain4", "ij,jk,kl,lm->im", [][]int{{300, 20}, {20, 300}, {300, 20}, {20, 300}}, [4]int{}},
	{"bij-bjk", "bij,bjk->bik", [][]int{{256, 64, 64}, {256, 64, 64}}, [4]int{64, 64, 64, 256}},
}

// operands returns the case's operands and a destination: compact
// column-major, or in numpy's C order.
func (c benchCase) operands(rng *rand.Rand, corder bool) (dst views.View[float64], ops []views.View[float64]) {
	ops = make([]views.View[float64], len(c.shapes))
	for k, sh := range c.shapes {
		ops[k] = tensorIn(rng, corder, sh...)
	}
	s := must2(Parse(c.spec))
	pr := must2(resolve(&s, ops, nil))
	return tensorIn(rng, corder, pr.shape()...), ops
}

// tensorIn returns a new tensor's view: compact column-major, or in C
// order (a column-major tensor of the reversed shape, its axes reversed:
// numpy's strides).
func tensorIn(rng *rand.Rand, corder bool, shape ...int) views.View[float64] {
	if !corder {
		return fill[float64](rng, shape...).View()
	}
	rev := slices.Clone(shape)
	slices.Reverse(rev)
	axes := make([]int, len(shape))
	for i := range axes {
		axes[i] = len(shape) - 1 - i
	}
	return must2(fill[float64](rng, rev...).View().Permute(axes...))
}

// BenchmarkEinsum runs the five anchor cases with a prepared plan, in both
// layouts, on one and two threads.
func BenchmarkEinsum(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, threads := range []int{1, 2} {
		for _, c := range benchCases {
			if c.mnkb[0] > 0 {
				b.Run(fmt.Sprintf("threads=%d/case=%s/layout=gemm", threads, c.name), func(b *testing.B) {
					benchGemm(b, rng, threads, c.mnkb)
				})
			}
			for _, corder := range []bool{false, true} {
				order := "colmajor"
				if corder {
					order = "corder"
				}
				b.Run(fmt.Sprintf("threads=%d/case=%s/layout=%s", threads, c.name, order), func(b *testing.B) {
					useThreads(b, threads)
					dst, ops := c.operands(rng, corder)
					p, err := NewPlan(must2(Parse(c.spec)), dst, ops, Options{Path: Optimal})
					if err != nil {
						b.Fatal(err)
					}
					ws := make([]float64, p.Workspace())
					b.ReportMetric(float64(p.Copies()), "copies")
					for b.Loop() {
						if err := p.Execute(1, ops, 0, dst, ws); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(2*p.Flops()*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}

// benchGemm times batch.Gemm on compact column-major [m, k, b] x [k, n, b].
func benchGemm(b *testing.B, rng *rand.Rand, threads int, mnkb [4]int) {
	useThreads(b, threads)
	m, n, k, nb := mnkb[0], mnkb[1], mnkb[2], mnkb[3]
	x, y := fill[float64](rng, m, k, nb).View(), fill[float64](rng, k, n, nb).View()
	z := fill[float64](rng, m, n, nb).View()
	for b.Loop() {
		if err := batch.Gemm(1, x, y, 0, z); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*float64(m*n*k*nb)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// useThreads runs the rest of b on one core (threads = 1: OpenBLAS on
// one thread, batch and Lanes on one goroutine) or on lapis's default
// policy for this machine (auto: up to GOMAXPROCS OpenBLAS threads for a
// call alone, batch's workers GOMAXPROCS goroutines), and restores the
// settings at b's end.
func useThreads(b *testing.B, threads int) {
	prevT := lapis.Threads()
	if strings.HasPrefix(lapis.ThreadPolicy(), "auto") {
		prevT = lapis.AutoThreads
	}
	n, w := lapis.AutoThreads, 0
	if threads == 1 {
		n, w = 1, 1
	} else if threads != runtime.GOMAXPROCS(0) {
		b.Skipf("threads=%d: lapis's default policy uses GOMAXPROCS = %d", threads, runtime.GOMAXPROCS(0))
	}
	if err := lapis.SetThreads(n); err != nil {
		b.Fatal(err)
	}
	prevW, err := lapis.SetWorkers(w)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		lapis.SetThreads(prevT)
		lapis.SetWorkers(prevW)
	})
}

func must2[X any](x X, err error) X {
	if err != nil {
		panic(err)
	}
	return x
}

// mpsInner returns the spec and operands of the inner product of two
// matrix product states of L sites, bond dimension d, physical dimension
// 2, the bra conjugated through its views' flag: 2L operands, 2L-1
// pairwise steps.
func mpsInner(rng *rand.Rand, sites, bond int) (Spec, []views.View[complex128]) {
	var in [][]int
	var ops []views.View[complex128]
	// Labels: ket bonds 0..L, bra bonds L+1..2L+1, physical 2L+2...
	for i := range sites {
		dl, dr := bond, bond
		if i == 0 {
			dl = 1
		}
		if i == sites-1 {
			dr = 1
		}
		phys := 2*sites + 2 + i
		in = append(in, []int{i, phys, i + 1}, []int{sites + 1 + i, phys, sites + 2 + i})
		ops = append(ops, fill[complex128](rng, dl, 2, dr).View(), fill[complex128](rng, dl, 2, dr).View().Conj())
	}
	return must2(Labels(nil, in...)), ops
}

// BenchmarkMPS is the fixed cost of a prepared plan: the inner product of
// two MPS of 32 sites, bond dimension 4, 63 small complex steps.
func BenchmarkMPS(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	s, ops := mpsInner(rng, 32, 4)
	dst := must2(views.Zeros[complex128]()).View()
	p := must2(NewPlan(s, dst, ops, Options{Order: mpsOrder(32)}))
	ws := make([]complex128, p.Workspace())
	for b.Loop() {
		if err := p.Execute(1, ops, 0, dst, ws); err != nil {
			b.Fatal(err)
		}
	}
	steps := len(p.path)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(steps), "ns/step")
	b.ReportMetric(float64(steps), "steps")
}

// mpsOrder is the usual order: ket site, then bra site, into the
// environment, left to right.
func mpsOrder(sites int) [][2]int {
	var order [][2]int
	n := 2 * sites
	order = append(order, [2]int{0, 1}) // site 0's ket and bra: the environment, last
	n--
	for range sites - 1 {
		order = append(order, [2]int{0, n - 1}) // next ket into the environment
		n--
		order = append(order, [2]int{0, n - 1}) // its bra
		n--
	}
	return order
}

// tccgCase is a line of testdata/tccg.tsv: a contraction of the TCCG
// benchmark (HPAC/tccg's 48), sizes scaled so that its largest operand
// is about 16 MiB of float64, and the GEMM of the same M, N, K, batch.
type tccgCase struct {
	name, spec string
	ext        map[rune]int
	mnkb       [4]int
}

// readTCCG reads testdata/tccg.tsv.
func readTCCG(tb testing.TB) []tccgCase {
	data, err := os.ReadFile("testdata/tccg.tsv")
	if err != nil {
		tb.Fatal(err)
	}
	var cases []tccgCase
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	head := strings.Split(lines[0], "\t")
	col := func(name string) int { return slices.Index(head, name) }
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t")
		c := tccgCase{name: f[col("idx")] + "-" + f[col("name")], spec: f[col("einsum")], ext: map[rune]int{}}
		for kv := range strings.SplitSeq(f[col("scaled_sizes")], ";") {
			k, v, _ := strings.Cut(kv, ":")
			c.ext[rune(k[0])] = must2(strconv.Atoi(v))
		}
		for i, name := range []string{"M", "N", "K", "batch"} {
			c.mnkb[i] = must2(strconv.Atoi(f[col(name)]))
		}
		cases = append(cases, c)
	}
	return cases
}

// operands returns the case's column-major operands and destination.
func (c tccgCase) operands(rng *rand.Rand) (dst views.View[float64], ops []views.View[float64]) {
	lhs, out, _ := strings.Cut(c.spec, "->")
	shape := func(term string) []int {
		var s []int
		for _, r := range term {
			s = append(s, c.ext[r])
		}
		return s
	}
	for term := range strings.SplitSeq(lhs, ",") {
		ops = append(ops, fill[float64](rng, shape(term)...).View())
	}
	return fill[float64](rng, shape(out)...).View(), ops
}

// BenchmarkTCCG runs the TCCG corpus (column-major operands) and the GEMM
// of the same sizes on compact data, one thread.
func BenchmarkTCCG(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	useThreads(b, 1)
	for _, c := range readTCCG(b) {
		b.Run("case="+c.name+"/impl=gemm", func(b *testing.B) { benchGemm(b, rng, 1, c.mnkb) })
		b.Run("case="+c.name+"/impl=lapis", func(b *testing.B) {
			useThreads(b, 1)
			dst, ops := c.operands(rng)
			p := must2(NewPlan(must2(Parse(c.spec)), dst, ops, Options{}))
			ws := make([]float64, p.Workspace())
			for b.Loop() {
				if err := p.Execute(1, ops, 0, dst, ws); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Copies()), "copies")
			b.ReportMetric(2*p.Flops()*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
