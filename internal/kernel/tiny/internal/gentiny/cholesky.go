// Cholesky (potf2) and the solve with its factor (potrs), and their
// kernels: chol and cholsolve.

package main

import "fmt"

// chol writes the factor's lower triangle and, with p.zero set, zeros
// in the strict upper one (put in the scratch's upper triangle, which
// the factorization does not use): the full factor of an out-of-place
// Cholesky, in the same pass.
func (g *gen) chol() {
	g.prologue("chol")
	g.loadA(true)
	g.cholesky()
	g.flags()
	g.ifSet(offAOut, func() {
		full, done := g.newLabel(), g.newLabel()
		g.ins("CMPQ", fmt.Sprintf("%d(SI)", offZero), "$0")
		g.ins("JNE", full)
		g.storeAt(0, true)
		g.ins("JMP", done)
		fmt.Fprintf(&g.b, "%s:\n", full)
		for j := 1; j < g.n; j++ {
			for i := 0; i < j; i++ {
				g.ins(g.op("VMOVA"), g.y(15), g.a(i, j))
			}
		}
		g.storeAt(0, false)
		fmt.Fprintf(&g.b, "%s:\n", done)
	})
	g.epilogue()
}

// cholsolve solves A X = B with a's lower triangle as the Cholesky
// factor L of A = L L^T (potrs) and writes X to p.bout; a lane whose
// factor's diagonal is not positive and finite is flagged (checkDiag).
func (g *gen) cholsolve() {
	g.prologue("cholsolve")
	g.loadA(true)
	g.checkDiag()
	g.recips(0)
	g.rhsLoop(g.cholSolve)
	g.flags()
	g.storeB()
	g.epilogue()
}

// cholesky factors the A area's lower triangle in place (left-looking, as
// LAPACK's potf2: a dot product for the diagonal, a gemv and a scaling by
// the reciprocal for the column below it). The AVX-512 kernels keep the
// last column computed in registers as well (Z16-Z23 and Z24-Z31 in
// turn), so that the next column's operations on it need no reload of
// what was just stored: the same operations on the same operands, so
// the same bits.
func (g *gen) cholesky() {
	n := g.n
	// col(j, i) is where the next column reads element (i, j): the A
	// area, or for the column before it a register.
	col := func(j, i, cur int) string {
		if g.t.wide && j == cur-1 {
			return fmt.Sprintf("Z%d", 16+8*(j%2)+i)
		}
		return g.a(i, j)
	}
	for j := 0; j < n; j++ {
		g.ins(g.op("VMOVA"), g.a(j, j), g.y(8))
		for k := 0; k < j; k++ {
			g.ins(g.op("VMOVA"), col(k, j, j), g.y(k))
			g.ins(g.op("VFNMADD231"), g.y(k), g.y(k), g.y(8))
		}
		g.okPositive(g.y(8))
		g.ins(g.op("VSQRT"), g.y(8), g.y(8))
		g.ins(g.op("VMOVA"), g.y(8), g.a(j, j))
		g.finite(g.y(8))
		if j == n-1 {
			break
		}
		g.ins(g.op("VDIV"), g.y(8), g.y(14), g.y(10))
		for i := j + 1; i < n; i++ {
			r := g.y(8)
			if g.t.wide {
				r = col(j, i, j+1)
			}
			g.ins(g.op("VMOVA"), g.a(i, j), r)
			for k := 0; k < j; k++ {
				g.ins(g.op("VFNMADD231"), col(k, i, j), g.y(k), r)
			}
			g.ins(g.op("VMUL"), g.y(10), r, r)
			g.ins(g.op("VMOVA"), r, g.a(i, j))
			g.finite(r)
		}
	}
}

// cholSolve solves L L^T x = b for the column at R10, L the A area's lower
// triangle (potrs: two triangular solves, multiplying by the diagonal's
// reciprocals: recips).
func (g *gen) cholSolve() {
	n := g.n
	x := func(i int) string { return fmt.Sprintf("%d(R10)", g.vb()*i) }
	for i := 0; i < n; i++ {
		g.ins(g.op("VMOVA"), x(i), g.y(i))
	}
	for k := 0; k < n; k++ {
		g.ins(g.op("VMUL"), g.d(k), g.y(k), g.y(k))
		for i := k + 1; i < n; i++ {
			g.ins(g.op("VFNMADD231"), g.a(i, k), g.y(k), g.y(i))
		}
	}
	for k := n - 1; k >= 0; k-- {
		g.ins(g.op("VMUL"), g.d(k), g.y(k), g.y(k))
		for i := 0; i < k; i++ {
			g.ins(g.op("VFNMADD231"), g.a(k, i), g.y(k), g.y(i))
		}
	}
	for i := 0; i < n; i++ {
		g.finite(g.y(i))
		g.ins(g.op("VMOVA"), g.y(i), x(i))
	}
}

// checkDiag clears the ok bit of lanes whose factor diagonal is not
// positive and finite (lapack.Potrs's rule).
func (g *gen) checkDiag() {
	for k := 0; k < g.n; k++ {
		g.ins(g.op("VMOVA"), g.a(k, k), g.y(8))
		g.okPositive(g.y(8))
		g.finite(g.y(8))
	}
}
