// The inv kernel: the inverse from the LU factors, one substitution per
// column of the identity.

package main

import "fmt"

// inv writes A^-1 to p.aout: LU (getrf), then one substitution per
// column of the identity; with p.cond set, also the check's norms and
// candidates (cond.go).
func (g *gen) inv() {
	n := g.n
	g.prologue("inv")
	g.loadA(false)
	g.ifCond(func() { g.norms(g.a, condA) })
	g.lu(false)
	g.recips(n - 1)
	// Column c of the inverse solves A x = e_c, whose pivoted right-hand
	// side P e_c is e_(perm^-1 c): row i of it is 1 where the row swaps
	// brought row c to i. So the swaps run once, on the rows' indices
	// (in the R area), and each column's right-hand side is one compare
	// per element instead of n-1 rounds of swaps: the same values, so
	// the same bits.
	r := func(i int) string { return fmt.Sprintf("%d(DI)", g.roff()+g.vb()*i) }
	for i := 0; i < n; i++ {
		g.ins(g.op("VMOVU"), g.c(cIdx+32*i), g.y(0))
		g.ins(g.op("VMOVA"), g.y(0), r(i))
	}
	g.pivot(r)
	// column solves column c (R10) with c at idx: straight-line for each
	// below order loopN, from it a loop over the columns (R9 the vector
	// of c, CX counting).
	column := func(idx string) {
		g.ins(g.op("VMOVU"), idx, g.y(9)) // c, which substitute leaves alone
		for i := 0; i < n; i++ {
			if g.t.wide {
				g.ins(g.op("VCMP"), "$0", r(i), g.y(9), "K1")
				g.ins(g.op("VMOVA")+".Z", g.y(14), "K1", g.y(i))
				continue
			}
			g.ins(g.op("VCMP"), "$0", r(i), g.y(9), g.y(i))
			g.ins(g.op("VAND"), g.y(14), g.y(i), g.y(i))
		}
		g.substitute()
	}
	if n < loopN {
		for c := 0; c < n; c++ {
			g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.xoff()+c*n*g.vb()), "R10")
			column(g.c(cIdx + 32*c))
		}
	} else {
		loop := g.newLabel()
		g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.xoff()), "R10")
		g.ins("LEAQ", fmt.Sprintf("tiny%s<>+%d(SB)", g.t.p, cIdx*g.vb()/32), "R9")
		g.ins("MOVQ", fmt.Sprintf("$%d", n), "CX")
		g.mark(loop)
		column("(R9)")
		g.ins("ADDQ", fmt.Sprintf("$%d", n*g.vb()), "R10")
		g.ins("ADDQ", fmt.Sprintf("$%d", g.vb()), "R9")
		g.ins("DECQ", "CX")
		g.ins("JNZ", loop)
	}
	g.ifCond(func() {
		g.norms(func(i, j int) string { return fmt.Sprintf("%d(DI)", g.xoff()+(i+j*n)*g.vb()) }, condInv)
	})
	g.flags()
	g.ifCond(func() {
		g.candBits(1)
		g.candidates()
	})
	g.storeA(g.xoff(), false)
	g.epilogue()
}
