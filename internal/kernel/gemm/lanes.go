package gemm

//go:generate go run ./internal/genlanes

import (
	"math"
	"sync"
	"unsafe"
)

// Lanes multiplies the matrices of three batches whose batch index is the
// innermost, of stride 1 (structure-of-arrays data, or einsum's
// bij,bjk->bik over column-major tensors): for every lane l < nl,
//
//	c_l = alpha * a_l b_l + beta * c_l
//
// with a_l m x k, b_l k x n and c_l m x n, element (i, j) of x_l at
// x[l + i*xs0 + j*xs1] (strides in elements, any sign; a, b and c point
// at element (0, 0) of lane 0). BLAS cannot take these matrices (neither
// of their strides is 1); Lanes computes them lane-parallel, every SIMD
// lane another matrix, with no copy. As in BLAS, c is not read when beta
// is 0, and a and b are not read when alpha is 0 or k is 0. c must not
// share memory with a or b, and must not reach an element twice.
//
// Lanes runs the assembly tiles where Fast, in plain Go elsewhere
// and for the tiles' edges; each element is the same either way:
// fma(beta, c, alpha*acc), acc accumulated with fused multiply-adds in
// order of j, in blocks of lanesKC (c accumulating the blocks' sums).
func Lanes(nl, m, n, k int, alpha float64, a unsafe.Pointer, as0, as1 int, b unsafe.Pointer, bs0, bs1 int, beta float64, c unsafe.Pointer, cs0, cs1 int) {
	if nl <= 0 || m <= 0 || n <= 0 {
		return
	}
	g := lanesGeom{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, as0: as0, as1: as1, b: b, bs0: bs0, bs1: bs1, c: c, cs0: cs0, cs1: cs1}
	if alpha == 0 || k == 0 {
		g.scale(0, nl, 0, m, 0, n)
		return
	}
	lw, mr := lanesTile()
	l := 0
	if lw > 0 {
		buf := lanesPool.Get().(*lanesBuf)
		for l+lw <= nl {
			sub := 1 // groups packed together: four where there are
			if l+4*lw <= nl {
				sub = 4
			}
			g.group(buf, l, lw, mr, sub)
			l += sub * lw
		}
		lanesPool.Put(buf)
	}
	g.lanesGo(l, nl, 0, m, 0, n) // the lanes beyond whole groups
}

// The tiles read packed panels: a lane group's lines are 64 bytes (one
// AVX-512 vector) at strides that are often powers of two (a 256-lane
// batch of 64 x 64 matrices: rows 2 KiB apart, columns 128 KiB), where
// the lines of one panel fall in the same cache sets and evict each other
// (unpacked, 256 x 64 x 64 took 50-85 ms; the whole product is 67 million
// multiply-adds). A panel of kc columns of a's tile rows and kc rows of
// nc of b's columns is copied into lanesBuf, contiguous in the order the
// tile reads them; k beyond kc accumulates into c. Four adjacent lane
// groups are packed at once (256 contiguous bytes read at each place
// rather than 64; 256 x 64 x 64, medians of 5 runs in turns: AVX-512
// 4.20 -> 3.81 ms, AVX2 6.88 -> 5.50 ms). Rows and columns
// beyond the last whole tile are packed with zero lines after them, and
// their tile goes to lanesBuf.c, from which Go adds the rows and columns
// that exist to c.
const (
	lanesKC = 64
	lanesNC = 64
	aPanel  = lanesKC * 4 * 8       // elements of one group's a panel: kc x mr lines of lw lanes
	bPanel  = lanesKC * lanesNC * 8 // one group's b panels: nc/4 of kc x 4 lines
)

type lanesBuf struct {
	a [4 * aPanel]float64 // four groups' panels
	b [4 * bPanel]float64
	c [4 * 4 * 8]float64 // an edge tile: mr x 4 lines
}

var lanesPool = sync.Pool{New: func() any { return new(lanesBuf) }}

// group computes lanes [l, l+sub*lw): sub (1 or 4) adjacent groups.
func (g *lanesGeom) group(buf *lanesBuf, l, lw, mr, sub int) {
	line := 8 * lw // bytes
	for q0 := 0; q0 < g.k; q0 += lanesKC {
		kc := min(lanesKC, g.k-q0)
		beta := g.beta
		if q0 > 0 {
			beta = 1
		}
		for p0 := 0; p0 < g.n; p0 += lanesNC {
			nc := min(lanesNC, g.n-p0)
			// b's panels: for each tile's columns, kc rows of 4 lines.
			for pt := 0; pt < nc; pt += 4 {
				cols := min(4, nc-pt)
				off := pt / 4 * kc * 4 * lw
				lanePack(sub, &buf.b[off], at(g.b, l, q0, p0+pt, g.bs0, g.bs1), cols, 8*g.bs1, kc, 8*g.bs0, 4*line, 8*bPanel)
				for u := range sub {
					pb := buf.b[u*bPanel+off:]
					for q := range kc {
						clear(pb[(q*4+cols)*lw : (q+1)*4*lw])
					}
				}
			}
			for i0 := 0; i0 < g.m; i0 += mr {
				rows := min(mr, g.m-i0)
				lanePack(sub, &buf.a[0], at(g.a, l, i0, q0, g.as0, g.as1), rows, 8*g.as0, kc, 8*g.as1, mr*line, 8*aPanel)
				for u := range sub {
					pa := buf.a[u*aPanel:]
					for q := range kc {
						clear(pa[(q*mr+rows)*lw : (q+1)*mr*lw])
					}
				}
				for u := range sub {
					lu := l + u*lw
					pa := &buf.a[u*aPanel]
					for pt := 0; pt < nc; pt += 4 {
						cols := min(4, nc-pt)
						pb := &buf.b[u*bPanel+pt/4*kc*4*lw]
						if rows == mr && cols == 4 {
							laneTile(kc, pa, line, mr*line, pb, 4*line, line,
								at(g.c, lu, i0, p0+pt, g.cs0, g.cs1), 8*g.cs0, 8*g.cs1, g.alpha, beta)
							continue
						}
						laneTile(kc, pa, line, mr*line, pb, 4*line, line, &buf.c[0], line, mr*line, g.alpha, 0)
						g.edge(buf.c[:], lu, lw, i0, rows, mr, p0+pt, cols, beta)
					}
				}
			}
		}
	}
}

// edge adds an edge tile, t = alpha*acc for rows [i0, i0+rows) and columns
// [p0, p0+cols) of lanes [l, l+lw) (line (i, p) at (p*mr + i)*lw), to c:
// c = fma(beta, c, t), as the tiles do.
func (g *lanesGeom) edge(t []float64, l, lw, i0, rows, mr, p0, cols int, beta float64) {
	for p := range cols {
		for i := range rows {
			tl := t[(p*mr+i)*lw : (p*mr+i+1)*lw]
			cl := unsafe.Slice(at(g.c, l, i0+i, p0+p, g.cs0, g.cs1), lw)
			for x := range cl {
				r := tl[x]
				if beta != 0 {
					r = math.FMA(beta, cl[x], r)
				}
				cl[x] = r
			}
		}
	}
}

// lanesGeom is one call of Lanes.
type lanesGeom struct {
	m, n, k     int
	alpha, beta float64
	a, b, c     unsafe.Pointer
	as0, as1    int
	bs0, bs1    int
	cs0, cs1    int
}

// at points at x[l + i*s0 + j*s1].
func at(p unsafe.Pointer, l, i, j, s0, s1 int) *float64 {
	return (*float64)(unsafe.Add(p, 8*(l+i*s0+j*s1)))
}

// lanesGo computes lanes [l0, l1), rows [i0, i1), columns [p0, p1) in Go,
// as the tiles do: k in blocks of lanesKC, each block's sum added to c
// (c = fma(beta, c, alpha*sum) for the first, beta 1 for the others).
func (g *lanesGeom) lanesGo(l0, l1, i0, i1, p0, p1 int) {
	for q0 := 0; q0 < g.k; q0 += lanesKC {
		q1 := min(q0+lanesKC, g.k)
		beta := g.beta
		if q0 > 0 {
			beta = 1
		}
		for i := i0; i < i1; i++ {
			for p := p0; p < p1; p++ {
				for l := l0; l < l1; l++ {
					acc := 0.0
					for q := q0; q < q1; q++ {
						acc = math.FMA(*at(g.a, l, i, q, g.as0, g.as1), *at(g.b, l, q, p, g.bs0, g.bs1), acc)
					}
					r := g.alpha * acc
					cp := at(g.c, l, i, p, g.cs0, g.cs1)
					if beta != 0 {
						r = math.FMA(beta, *cp, r)
					}
					*cp = r
				}
			}
		}
	}
}

// scale sets c = beta*c (0 when beta is 0: c is not read) over lanes
// [l0, l1), rows [i0, i1), columns [p0, p1).
func (g *lanesGeom) scale(l0, l1, i0, i1, p0, p1 int) {
	for i := i0; i < i1; i++ {
		for p := p0; p < p1; p++ {
			for l := l0; l < l1; l++ {
				cp := at(g.c, l, i, p, g.cs0, g.cs1)
				if g.beta == 0 {
					*cp = 0
				} else {
					*cp *= g.beta
				}
			}
		}
	}
}
