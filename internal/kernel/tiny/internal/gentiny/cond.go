// The conditioning check of solve and inv: the norms of A and of A^-1
// (exact, or an upper bound from the LU factors), and the lanes the Go
// side must look at (the candidates in the kernel's result).

package main

import (
	"fmt"
	"log"
)

// condNorms is where the conditioning check's norms go (p.cond, when
// set): four vectors of lanes, ||A||_1, ||A||_inf, ||A^-1||_1 and
// ||A^-1||_inf, A the matrix as read (before it is factored).
const (
	condA   = 0 // vectors from p.cond
	condInv = 2
)

// ifCond runs body when p.cond is set (AX then holds it).
func (g *gen) ifCond(body func()) { g.ifSet(offCond, body) }

// norms writes the one and infinity norms of the n x n matrix whose
// element (i, j) is at el(i, j) to dst(AX) and dst+32(AX): column and
// row sums of magnitudes in order, as cond.Matrix.Norm takes them. Uses
// Y0-Y11.
func (g *gen) norms(el func(i, j int) string, dst int) {
	n := g.n
	g.ins(g.op("VMOVU"), g.c(cAbs), g.y(10))
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			g.ins(g.op("VAND"), el(i, j), g.y(10), g.y(11))
			if i == 0 {
				g.ins(g.op("VMOVA"), g.y(11), g.y(8))
			} else {
				g.ins(g.op("VADD"), g.y(11), g.y(8), g.y(8))
			}
			if j == 0 {
				g.ins(g.op("VMOVA"), g.y(11), g.y(i))
			} else {
				g.ins(g.op("VADD"), g.y(11), g.y(i), g.y(i))
			}
		}
		if j == 0 {
			g.ins(g.op("VMOVA"), g.y(8), g.y(9))
		} else {
			g.ins(g.op("VMAX"), g.y(8), g.y(9), g.y(9))
		}
	}
	for i := 1; i < n; i++ {
		g.ins(g.op("VMAX"), g.y(i), g.y(0), g.y(0))
	}
	g.ins(g.op("VMOVU"), g.y(9), fmt.Sprintf("%d(AX)", dst*g.vb()))
	g.ins(g.op("VMOVU"), g.y(0), fmt.Sprintf("%d(AX)", (dst+1)*g.vb()))
}

// invNorms writes the norms of A^-1 (condInv) from the LU factors in the
// A area (and the reciprocals of U's diagonal in the D area): column c
// of U^-1 L^-1 (A^-1 with its columns permuted, which changes neither
// norm) by forward and back substitution from e_c, its magnitudes
// summed into the column's sum and the row sums (scratch R).
func (g *gen) invNorms() {
	n := g.n
	r := func(i int) string { return fmt.Sprintf("%d(DI)", g.roff()+g.vb()*i) }
	for c := 0; c < n; c++ {
		for i := 0; i < n; i++ {
			src := g.y(15)
			if i == c {
				src = g.y(14)
			}
			g.ins(g.op("VMOVA"), src, g.y(i))
		}
		g.forwardL(c, false)
		g.backU(false)
		g.ins(g.op("VMOVU"), g.c(cAbs), g.y(10))
		for i := 0; i < n; i++ {
			g.ins(g.op("VAND"), g.y(i), g.y(10), g.y(i))
			if i == 0 {
				g.ins(g.op("VMOVA"), g.y(i), g.y(8))
			} else {
				g.ins(g.op("VADD"), g.y(i), g.y(8), g.y(8))
			}
			if c > 0 {
				g.ins(g.op("VADD"), r(i), g.y(i), g.y(i))
			}
			g.ins(g.op("VMOVA"), g.y(i), r(i))
		}
		if c == 0 {
			g.ins(g.op("VMOVA"), g.y(8), g.y(9))
		} else {
			g.ins(g.op("VMAX"), g.y(8), g.y(9), g.y(9))
		}
	}
	g.ins(g.op("VMOVA"), r(0), g.y(0))
	for i := 1; i < n; i++ {
		g.ins(g.op("VMAX"), r(i), g.y(0), g.y(0))
	}
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offCond), "AX")
	g.ins(g.op("VMOVU"), g.y(9), fmt.Sprintf("%d(AX)", condInv*g.vb()))
	g.ins(g.op("VMOVU"), g.y(0), fmt.Sprintf("%d(AX)", (condInv+1)*g.vb()))
}

// candShift is the bit the conditioning check's candidates start at in a
// kernel's result (below it, the flagged lanes).
const candShift = 16

// candBits leaves in R12, for a Solve or Inv kernel with p.cond set (AX
// is loaded here), bit l for each lane l whose 1 / (||A|| ||A^-1||), in
// the norms p.inf selects, is below scale times p.thresh or NaN: the
// conditioning check's candidates, computed as the Go side computes them
// (in float64: float32 norms are widened first, their product is exact),
// so that it looks at those lanes alone. float32's lanes are taken in two
// halves of float64 vectors of the same width.
func (g *gen) candBits(scale int) {
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offCond), "AX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offInf), "R8")
	g.ins("SHLQ", fmt.Sprintf("$%d", map[int]int{32: 5, 64: 6}[g.vb()]), "R8")
	g.ins("ADDQ", "R8", "AX")
	g.ins("VBROADCASTSD", fmt.Sprintf("tinyd<>+%d(SB)", cOne), g.y(2))
	g.ins("VBROADCASTSD", fmt.Sprintf("%d(SI)", offThr), g.y(3))
	if scale&(scale-1) != 0 {
		log.Fatalf("candBits: scale %d is not a power of two", scale)
	}
	for ; scale > 1; scale /= 2 { // doubled exactly
		g.ins("VADDPD", g.y(3), g.y(3), g.y(3))
	}
	g.ins("XORQ", "R12", "R12")
	parts := 8 / g.t.size     // float64 vectors per vector of the type
	half := g.t.lanes / parts // lanes per float64 vector
	load := func(vec, h int, dst string) {
		src := fmt.Sprintf("%d(AX)", vec*g.vb()+h*g.vb()/parts)
		if g.t.size == 4 {
			g.ins("VCVTPS2PD", src, dst)
		} else {
			g.ins("VMOVUPD", src, dst)
		}
	}
	for h := 0; h < parts; h++ {
		load(condA, h, g.y(0))
		load(condInv, h, g.y(1))
		g.ins("VMULPD", g.y(1), g.y(0), g.y(0))
		g.ins("VDIVPD", g.y(0), g.y(2), g.y(0))
		if g.t.wide {
			g.ins("VCMPPD", "$0x1d", g.y(3), g.y(0), "K1")
			g.ins("KMOVB", "K1", "R11")
		} else {
			g.ins("VCMPPD", "$0x1d", g.y(3), g.y(0), g.y(0))
			g.ins("VMOVMSKPD", g.y(0), "R11")
		}
		if h > 0 {
			g.ins("SHLQ", fmt.Sprintf("$%d", h*half), "R11")
		}
		g.ins("ORQ", "R11", "R12")
	}
	g.ins("NOTQ", "R12")
	g.ins("ANDQ", fmt.Sprintf("$%d", 1<<g.t.lanes-1), "R12")
}

// candidates adds the candidates in R12 (candBits) to the result, from
// bit candShift on.
func (g *gen) candidates() {
	g.ins("SHLQ", fmt.Sprintf("$%d", candShift), "R12")
	g.ins("ORQ", "R13", "R12")
	g.ins("MOVQ", "R12", "flags+8(FP)")
}

// boundMargin is how far below the check's threshold a lane's
// 1 / (||A|| bound) must stay to skip the exact norms (invBound): the
// bound is computed with additions of non-negative terms and products,
// each rounded, so it may fall short of its exact value by a few ulps
// times n; a factor of 2 covers that with room to spare.
const boundMargin = 2

// invBound writes an upper bound of ||A^-1||, in the norm p.inf selects,
// to the norms' vector condInv+p.inf, from the LU factors in the A area
// and the reciprocals of U's diagonal in the D area: A^-1 = U^-1 L^-1
// P^T, so ||A^-1|| <= ||U^-1|| ||L^-1||, and for a triangular T with
// comparison matrix M(T) (|T|'s diagonal, minus |T|'s other elements)
// |T^-1| <= M(T)^-1, a matrix of non-negative elements, so that
// ||T^-1||_inf <= max(M(T)^-1 e) and ||T^-1||_1 <= max(M(T)^-T e): one
// triangular solve with the magnitudes of each factor (Higham, Accuracy
// and Stability of Numerical Algorithms, section 8.3), against invNorms'
// n. Uses Y0-Y11.
func (g *gen) invBound() {
	one, done := g.newLabel(), g.newLabel()
	g.ins(g.op("VMOVU"), g.c(cAbs), g.y(10))
	g.ins("CMPQ", fmt.Sprintf("%d(SI)", offInf), "$0")
	g.ins("JEQ", one)
	g.boundNorm(true)
	g.ins("JMP", done)
	fmt.Fprintf(&g.b, "%s:\n", one)
	g.boundNorm(false)
	fmt.Fprintf(&g.b, "%s:\n", done)
}

// boundNorm is invBound for one norm (the infinity norm with inf), which
// it stores: x = M(T)^-1 e (inf) or M(T)^-T e, in Y0..Y(n-1), first for
// L (unit diagonal), then for U (the D area's reciprocals), each
// maximum into Y8 and Y9. A NaN or infinity anywhere in x reaches the
// element its solve ends at (the sink: every element feeds the ones
// after it), and the maximum starts from that element and keeps it when
// it is NaN (VMAX returns its second source then), so that the bound is
// NaN, never a smaller number, and the lane goes to the exact norms.
func (g *gen) boundNorm(inf bool) {
	n := g.n
	ones := func() {
		for i := 0; i < n; i++ {
			g.ins(g.op("VMOVA"), g.y(14), g.y(i))
		}
	}
	maxInto := func(dst, sink int) {
		g.ins(g.op("VMOVA"), g.y(sink), g.y(dst))
		for i := 0; i < n; i++ {
			if i != sink {
				g.ins(g.op("VMAX"), g.y(dst), g.y(i), g.y(dst))
			}
		}
	}
	ones()
	if inf {
		g.forwardL(0, true) // M(L) x = e
		maxInto(8, n-1)
	} else { // M(L)^T x = e: backward, by rows of L
		for i := n - 1; i > 0; i-- {
			for k := 0; k < i; k++ {
				g.update(g.a(i, k), i, k, true)
			}
		}
		maxInto(8, 0)
	}
	ones()
	if inf {
		g.backU(true) // M(U) x = e
		maxInto(9, 0)
	} else { // M(U)^T x = e: forward, by rows of U
		for j := 0; j < n; j++ {
			g.scale(j, true)
			for k := j + 1; k < n; k++ {
				g.update(g.a(j, k), j, k, true)
			}
		}
		maxInto(9, n-1)
	}
	g.ins(g.op("VMUL"), g.y(9), g.y(8), g.y(8))
	v := condInv
	if inf {
		v++
	}
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offCond), "AX")
	g.ins(g.op("VMOVU"), g.y(8), fmt.Sprintf("%d(AX)", v*g.vb()))
}
