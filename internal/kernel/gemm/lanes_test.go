package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/internal/test/guard"
	"github.com/lapis-go/lapis/views"
)

// lanesOperand is one operand of a Lanes test: nl lanes of rows x cols
// matrices in a buffer, element (l, i, j) at off + l + i*s0 + j*s1, with
// gaps between rows or columns (NaN, which must stay NaN) and strides of
// either sign.
type lanesOperand struct {
	buf      []float64
	off      int
	s0, s1   int
	rows, nc int
}

func newLanesOperand(r *rand.Rand, nl, rows, cols int) *lanesOperand {
	gap := r.IntN(3)
	o := &lanesOperand{rows: rows, nc: cols}
	if r.IntN(2) == 0 { // rows inside columns
		o.s0, o.s1 = nl+gap, (nl+gap)*rows+r.IntN(2)
	} else {
		o.s1, o.s0 = nl+gap, (nl+gap)*cols+r.IntN(2)
	}
	size := 1 + (nl - 1) + (rows-1)*o.s0 + (cols-1)*o.s1
	o.buf = make([]float64, size)
	for i := range o.buf {
		o.buf[i] = math.NaN()
	}
	if r.IntN(3) == 0 { // reversed rows
		o.off += (rows - 1) * o.s0
		o.s0 = -o.s0
	}
	if r.IntN(3) == 0 {
		o.off += (cols - 1) * o.s1
		o.s1 = -o.s1
	}
	for l := range nl {
		for i := range rows {
			for j := range cols {
				o.buf[o.idx(l, i, j)] = r.NormFloat64()
			}
		}
	}
	return o
}

func (o *lanesOperand) idx(l, i, j int) int { return o.off + l + i*o.s0 + j*o.s1 }

func (o *lanesOperand) ptr() unsafe.Pointer { return unsafe.Pointer(&o.buf[o.off]) }

func (o *lanesOperand) clone() *lanesOperand {
	c := *o
	c.buf = append([]float64(nil), o.buf...)
	return &c
}

// TestLanes checks Lanes against a plain sum for tile-sized and ragged
// extents, every layout class of lanesOperand, alpha and beta zero or
// not; against the Go path bit for bit (the tiles compute each element
// the same way); and that gaps stay NaN and c's NaN is not read when
// beta is 0.
func TestLanes(t *testing.T) {
	for _, wide := range []bool{true, false} {
		if wide && !lanesAVX512 {
			continue
		}
		t.Run(fmt.Sprintf("avx512=%v", wide), func(t *testing.T) {
			defer func(w bool) { lanesWide = w }(lanesWide)
			lanesWide = wide
			testLanes(t)
		})
	}
}

func testLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	type size struct{ nl, m, n, k int }
	var sizes []size
	for _, nl := range []int{1, 3, 4, 5, 8, 9, 16, 17, 33} {
		for _, m := range []int{1, 2, 3, 4, 5, 9} {
			for _, n := range []int{1, 3, 4, 5, 9} {
				for _, k := range []int{0, 1, 2, 7} {
					sizes = append(sizes, size{nl, m, n, k})
				}
			}
		}
	}
	// Past the panels' blocks: k beyond lanesKC, n beyond lanesNC.
	sizes = append(sizes, size{9, 5, 70, 3}, size{8, 4, 4, 130}, size{17, 9, 133, 65})
	for _, sz := range sizes {
		nl, m, n, k := sz.nl, sz.m, sz.n, sz.k
		{
			{
				{
					for _, ab := range [][2]float64{{1, 0}, {-0.75, 0.5}, {0, 2}, {1.5, 1}} {
						alpha, beta := ab[0], ab[1]
						name := fmt.Sprintf("nl=%d m=%d n=%d k=%d alpha=%g beta=%g", nl, m, n, k, alpha, beta)
						a, b := newLanesOperand(r, nl, m, max(k, 1)), newLanesOperand(r, nl, max(k, 1), n)
						c := newLanesOperand(r, nl, m, n)
						if beta == 0 {
							for l := range nl {
								c.buf[c.idx(l, 0, 0)] = math.NaN() // must not be read
							}
						}
						want, viaGo := c.clone(), c.clone()
						for l := range nl {
							for i := range m {
								for p := range n {
									s := 0.0
									for q := range k {
										s += a.buf[a.idx(l, i, q)] * b.buf[b.idx(l, q, p)]
									}
									w := alpha * s
									if beta != 0 {
										w += beta * c.buf[c.idx(l, i, p)]
									}
									want.buf[want.idx(l, i, p)] = w
								}
							}
						}
						Lanes(nl, m, n, k, alpha, a.ptr(), a.s0, a.s1, b.ptr(), b.s0, b.s1, beta, c.ptr(), c.s0, c.s1)
						g := lanesGeom{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a.ptr(), as0: a.s0, as1: a.s1,
							b: b.ptr(), bs0: b.s0, bs1: b.s1, c: viaGo.ptr(), cs0: c.s0, cs1: c.s1}
						if alpha == 0 || k == 0 {
							g.scale(0, nl, 0, m, 0, n)
						} else {
							g.lanesGo(0, nl, 0, m, 0, n)
						}
						for x := range c.buf {
							got, w, goval := c.buf[x], want.buf[x], viaGo.buf[x]
							if math.IsNaN(w) != math.IsNaN(got) || math.Abs(got-w) > 1e-12*(1+math.Abs(w)) {
								t.Fatalf("%s: c[%d] = %g; want %g", name, x, got, w)
							}
							if math.Float64bits(got) != math.Float64bits(goval) && !(math.IsNaN(got) && math.IsNaN(goval)) {
								t.Fatalf("%s: c[%d] = %v, the Go path %v: not bit-identical", name, x, got, goval)
							}
						}
					}
				}
			}
		}
	}
}

// TestLanesGuard runs Lanes on operands against inaccessible pages (see
// internal/test/guard): a read or write outside a, b or c faults.
func TestLanesGuard(t *testing.T) {
	var cs []guard.Case
	for _, nl := range []int{1, 7, 8, 9, 17, 33} { // 33: four groups packed at once
		for _, mnk := range [][3]int{{1, 1, 1}, {2, 4, 3}, {4, 4, 5}, {5, 9, 2}, {9, 5, 4}} {
			m, n, k := mnk[0], mnk[1], mnk[2]
			for _, rev := range []bool{false, true} {
				spec := func(name string, rows, cols, gap int) guard.Spec {
					s0, s1 := nl+gap, (nl+gap)*rows
					if rev {
						s0, s1 = (nl+gap)*cols, -(nl + gap)
					}
					return guard.Spec{Name: name, Shape: []int{nl, rows, cols}, Strides: []int{1, s0, s1}}
				}
				specs := []guard.Spec{spec("a", m, k, 1), spec("b", k, n, 0), spec("c", m, n, 2)}
				name := fmt.Sprintf("nl=%d/%dx%dx%d/reverse:%v", nl, m, n, k, rev)
				for _, beta := range []float64{0, -1.25} {
					cs = append(cs, guard.Both(fmt.Sprintf("%s/beta:%g", name, beta), specs, 1e-12, nil, func(_ *guard.Arena, v []views.View[float64]) (any, error) {
						var p [3]unsafe.Pointer
						var s [3][2]int
						for i := range v {
							l := v[i].Layout()
							p[i], s[i] = unsafe.Pointer(&v[i].Data()[l.Offset()]), [2]int{l.Stride(1), l.Stride(2)}
						}
						Lanes(nl, m, n, k, 0.75, p[0], s[0][0], s[0][1], p[1], s[1][0], s[1][1], beta, p[2], s[2][0], s[2][1])
						return nil, nil
					})...)
				}
			}
		}
	}
	guard.Run(t, guard.Group{Name: "Lanes", Cases: cs})
	// (The child process runs the CPU's tile; TestLanes runs both.)
}

// BenchmarkLanes is einsum's bij,bjk->bik over column-major tensors of
// 256 x 64 x 64 (the batch index of stride 1): 67 million multiply-adds.
func BenchmarkLanes(b *testing.B) {
	const nl, n = 256, 64
	a, bb, c := make([]float64, nl*n*n), make([]float64, nl*n*n), make([]float64, nl*n*n)
	for i := range a {
		a[i], bb[i] = float64(i%7), float64(i%5)
	}
	p := func(x []float64) unsafe.Pointer { return unsafe.Pointer(&x[0]) }
	for _, wide := range []bool{true, false} {
		if wide && !lanesAVX512 || !wide && !Fast {
			continue
		}
		b.Run(map[bool]string{true: "avx512", false: "avx2"}[wide], func(b *testing.B) {
			defer func(w bool) { lanesWide = w }(lanesWide)
			lanesWide = wide
			for b.Loop() {
				Lanes(nl, n, n, n, 1, p(a), nl, nl*n, p(bb), nl, nl*n, 0, p(c), nl, nl*n)
			}
			b.ReportMetric(2*nl*n*n*n/b.Elapsed().Seconds()*float64(b.N)/1e9, "GFLOP/s")
		})
	}
}

// TestLanesConcurrent: goroutines calling Lanes at once (each panel
// buffer is its own, from a pool) get the same results as one alone.
func TestLanesConcurrent(t *testing.T) {
	const nl, m, n, k, calls = 24, 9, 8, 70, 4
	r := rand.New(rand.NewPCG(3, 4))
	type job struct{ a, b, c, want *lanesOperand }
	jobs := make([]job, calls)
	for i := range jobs {
		j := job{a: newLanesOperand(r, nl, m, k), b: newLanesOperand(r, nl, k, n), c: newLanesOperand(r, nl, m, n)}
		j.want = j.c.clone()
		Lanes(nl, m, n, k, 1.5, j.a.ptr(), j.a.s0, j.a.s1, j.b.ptr(), j.b.s0, j.b.s1, 0, j.want.ptr(), j.want.s0, j.want.s1)
		jobs[i] = j
	}
	done := make(chan int)
	for i := range jobs {
		go func() {
			j := jobs[i]
			for range 20 {
				Lanes(nl, m, n, k, 1.5, j.a.ptr(), j.a.s0, j.a.s1, j.b.ptr(), j.b.s0, j.b.s1, 0, j.c.ptr(), j.c.s0, j.c.s1)
			}
			done <- i
		}()
	}
	for range jobs {
		i := <-done
		for x, w := range jobs[i].want.buf {
			if g := jobs[i].c.buf[x]; math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("call %d: c[%d] = %v; alone it was %v", i, x, g, w)
			}
		}
	}
}
