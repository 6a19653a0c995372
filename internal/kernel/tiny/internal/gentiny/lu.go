// LU with partial pivoting per lane (getf2, straight-line or a loop
// over the pivot columns: pstep), the substitutions with its factors,
// and the kernels built on them: solve and det.

package main

import "fmt"

// solve solves A X = B for p.nrhs right-hand sides by LU (gesv), writes
// the factors to p.aout and X to p.bout, and with p.cond set the check's
// norms and candidates (cond.go).
func (g *gen) solve() {
	g.prologue("solve")
	g.loadA(false)
	g.ifCond(func() { g.norms(g.a, condA) })
	g.lu(false)
	g.recips(g.n - 1)
	g.rhsLoop(g.luSolve)
	g.flags()
	// The check's norms of A^-1: a bound first (n^2 operations), then,
	// only for a lane group where the bound leaves a candidate that is
	// not flagged, the exact ones (n^3), whose candidates are the result.
	g.ifCond(func() {
		cands := g.newLabel()
		g.invBound()
		g.candBits(boundMargin)
		g.ins("MOVQ", "R13", "R11")
		g.ins("NOTQ", "R11")
		g.ins("ANDQ", "R11", "R12")
		g.ins("JEQ", cands)
		g.invNorms()
		g.candBits(1)
		fmt.Fprintf(&g.b, "%s:\n", cands)
		g.candidates()
	})
	g.storeA(0, false)
	g.storeB()
	g.epilogue()
}

// det multiplies the diagonal of U with the pivots' sign; a lane whose
// running product leaves the normal range (a zero pivot included) is
// flagged. The determinants of every lane go to p.det (a buffer of lanes
// elements).
func (g *gen) det() {
	g.prologue("det")
	g.loadA(false)
	g.lu(true)
	g.ins(g.op("VMOVA"), g.y(14), g.y(0))
	for k := 0; k < g.n; k++ {
		g.ins(g.op("VMUL"), g.a(k, k), g.y(0), g.y(0))
		g.ins(g.op("VAND"), g.c(cAbs), g.y(0), g.y(1))
		g.okIf("$0x1d", g.c(cTiny), g.y(1), g.y(2))
		g.okIf("$0x12", g.c(cHuge), g.y(1), g.y(2))
		if k < g.n-1 {
			g.ins(g.op("VMOVA"), g.piv(k), g.y(3))
			if g.t.wide {
				g.ins(g.op("VCMP"), "$0x0c", g.c(cIdx+32*k), g.y(3), "K1")
				g.ins(g.op("VXOR"), g.c(cSign), g.y(0), "K1", g.y(0))
				continue
			}
			g.ins(g.op("VCMP"), "$0x0c", g.c(cIdx+32*k), g.y(3), g.y(2))
			g.ins(g.op("VAND"), g.c(cSign), g.y(2), g.y(2))
			g.ins(g.op("VXOR"), g.y(2), g.y(0), g.y(0))
		}
	}
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offDet), "AX")
	g.ins(g.op("VMOVU"), g.y(0), "(AX)")
	g.flags()
	g.epilogue()
}

// lu factors the A area in place with partial pivoting per lane (getf2:
// the first element of largest magnitude in the column, a swap of whole
// rows, scaling by the reciprocal of the pivot, a rank-1 update); piv(k)
// receives each lane's pivot row as a float. A zero pivot clears the
// lane's ok bit. With trailing set only the columns from k on are
// swapped: enough for the determinant, which reads U's diagonal alone.
// The AVX-512 kernels run luWide's order of the same operations.
func (g *gen) lu(trailing bool) {
	g.ins(g.op("VMOVU"), g.c(cAbs), g.y(10))
	step := g.luStep
	if g.t.wide {
		step = g.luWideStep
	}
	g.luSteps(func(p pstep) { step(p, trailing) })
}

// luSteps runs step for the pivots k = 0..n-1: each straight-line below
// order loopN; from it, a loop over k = 0..n-2 (pstep's registers) and
// the last pivot, which has no rows below it, by itself.
func (g *gen) luSteps(step func(p pstep)) {
	n := g.n
	if n < loopN {
		for k := 0; k < n; k++ {
			step(pstep{g, k})
		}
		return
	}
	loop := g.newLabel()
	g.ins("XORQ", "BX", "BX")
	g.ins("MOVQ", "DI", "R8")
	g.ins("LEAQ", fmt.Sprintf("tiny%s<>+%d(SB)", g.t.p, cIdx*g.vb()/32), "R9")
	g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.poff()), "R11")
	g.ins("MOVQ", "DI", "R12")
	g.mark(loop)
	step(pstep{g, -1})
	g.ins("ADDQ", fmt.Sprintf("$%d", (n+1)*g.vb()), "R8")
	g.ins("ADDQ", fmt.Sprintf("$%d", g.vb()), "R9")
	g.ins("ADDQ", fmt.Sprintf("$%d", g.vb()), "R11")
	g.ins("ADDQ", fmt.Sprintf("$%d", g.vb()), "R12")
	g.ins("INCQ", "BX")
	g.ins("CMPQ", "BX", fmt.Sprintf("$%d", n-1))
	g.ins("JNE", loop)
	step(pstep{g, n - 1})
}

// luStep is lu's pivot step p (AVX2).
func (g *gen) luStep(p pstep, trailing bool) {
	// Pivot search: Y8 the largest magnitude, Y9 its row.
	g.ins(g.op("VAND"), p.el(0), g.y(10), g.y(8))
	g.ins(g.op("VMOVU"), p.idx(0), g.y(9))
	p.below(func(r int) {
		g.ins(g.op("VAND"), p.el(r), g.y(10), g.y(7))
		g.ins(g.op("VCMP"), "$0x1e", g.y(8), g.y(7), g.y(6))
		g.ins(g.op("VBLENDV"), g.y(6), g.y(7), g.y(8), g.y(8))
		g.ins(g.op("VBLENDV"), g.y(6), p.idx(r), g.y(9), g.y(9))
	})
	g.okIf("$0x1e", g.y(15), g.y(8), g.y(7))
	g.ins(g.op("VMOVA"), g.y(9), p.piv())
	if p.k == g.n-1 {
		return
	}
	// Swap rows k and piv in every lane.
	p.swapMasks()
	which := colsAll
	if trailing {
		which = colsFrom
	}
	p.cols(which, p.swap)
	// Scale the column below the pivot by its reciprocal, kept in the D
	// area for the substitutions (recips).
	g.ins(g.op("VDIV"), p.el(0), g.y(14), g.y(7))
	g.ins(g.op("VMOVA"), g.y(7), p.d())
	p.below(func(r int) {
		g.ins(g.op("VMUL"), p.el(r), g.y(7), g.y(r-1))
		g.ins(g.op("VMOVA"), g.y(r-1), p.el(r))
	})
	// Rank-1 update of the trailing matrix.
	p.cols(colsRight, func(at func(r int) string) {
		g.ins(g.op("VMOVA"), at(0), g.y(8))
		p.below(func(r int) {
			g.ins(g.op("VMOVA"), at(r), g.y(9))
			g.ins(g.op("VFNMADD231"), g.y(8), g.y(r-1), g.y(9))
			g.ins(g.op("VMOVA"), g.y(9), at(r))
		})
	})
}

// luWideStep is lu's pivot step p with ZMM registers to spare (Z16-Z31,
// free outside the transposes), which keep each step's chain of
// dependent operations out of memory: the pivot search also selects the
// signed pivot (Z16), so the division starts as soon as the search ends
// instead of after the swaps' stores and a reload; each trailing column
// is swapped, scaled or updated in registers and stored once. The same
// operations on the same operands as luStep, so the same bits. Measured
// on AMD Zen 5 (kernels alone, ns per float64 matrix, medians of 3):
// det3 5.6 -> 4.6, det4 9.5 -> 7.6, det7 29.3 -> 22.6, solve4 13.0 ->
// 11.2, solve7 53 -> 36, inv4 14.1 -> 11.4, inv8 91 -> 80; not measured
// on Intel. Also keeping column k+1's updated rows in registers for the
// next step's search made det 7-20% faster but inv7 and inv8 7-13%
// slower on 10000-matrix batches (level in cache), and was not kept.
func (g *gen) luWideStep(p pstep, trailing bool) {
	z := func(i int) string { return fmt.Sprintf("Z%d", i) }
	row := func(r int) string { return z(20 + r - 1) } // row k+r of a trailing column: Z20-Z26
	// Pivot search: Z8 the largest magnitude, Z16 the element, Z9 its
	// row.
	g.ins(g.op("VMOVA"), p.el(0), z(16))
	g.ins(g.op("VAND"), z(16), g.y(10), g.y(8))
	g.ins(g.op("VMOVU"), p.idx(0), g.y(9))
	p.below(func(r int) {
		g.ins(g.op("VMOVA"), p.el(r), z(27))
		g.ins(g.op("VAND"), z(27), g.y(10), g.y(7))
		g.ins(g.op("VCMP"), "$0x1e", g.y(8), g.y(7), "K1")
		g.ins(g.op("VMOVA"), g.y(7), "K1", g.y(8))
		g.ins(g.op("VMOVA"), z(27), "K1", z(16))
		g.ins(g.op("VMOVU"), p.idx(r), "K1", g.y(9))
	})
	g.okIf("$0x1e", g.y(15), g.y(8), g.y(7))
	g.ins(g.op("VMOVA"), g.y(9), p.piv())
	if p.k == g.n-1 {
		return
	}
	// The pivot's reciprocal (Z17), kept in the D area for the
	// substitutions (recips).
	g.ins(g.op("VDIV"), z(16), g.y(14), z(17))
	g.ins(g.op("VMOVA"), z(17), p.d())
	// Swap rows k and piv in every lane: L's columns (not trailing) as
	// luStep does; column k, whose new row k is the pivot, scaled by the
	// reciprocal into the multipliers Y0..; the trailing columns swapped
	// and updated at once.
	p.swapMasks()
	if !trailing {
		p.cols(colsLeft, p.swap)
	}
	g.ins(g.op("VMOVA"), p.el(0), z(18))
	g.ins(g.op("VMOVA"), z(16), p.el(0))
	p.below(func(r int) {
		g.ins(g.op("VMOVA"), p.el(r), row(r))
		g.ins(g.op("VMOVA"), z(18), g.mask(r, 0), row(r))
		g.ins(g.op("VMUL"), row(r), z(17), g.y(r-1))
		g.ins(g.op("VMOVA"), g.y(r-1), p.el(r))
	})
	p.cols(colsRight, func(at func(r int) string) {
		g.ins(g.op("VMOVA"), at(0), z(18))
		g.ins(g.op("VMOVA"), z(18), z(19))
		p.below(func(r int) {
			g.ins(g.op("VMOVA"), at(r), row(r))
			g.ins(g.op("VMOVA"), row(r), g.mask(r, 0), z(19))
			g.ins(g.op("VMOVA"), z(18), g.mask(r, 0), row(r))
		})
		g.ins(g.op("VMOVA"), z(19), at(0))
		p.below(func(r int) {
			g.ins(g.op("VFNMADD231"), z(19), g.y(r-1), row(r))
			g.ins(g.op("VMOVA"), row(r), at(r))
		})
	})
}

// loopN is the smallest order whose LU factorizations loop over the
// pivot columns (pstep), and Inv over the inverse's columns, rather
// than run straight-line code for each. Measured (AMD Zen 4, kernels
// alone, 10000 compact float64 matrices, 10 alternating rounds): with
// the loops from order 5, det5 was 11-13% slower than straight-line
// code (20.1 -> 22.8 ns per matrix), solve5 and inv5 level; from order 6
// the file is 120 KB larger. At orders 6 to 8 the loops were level or
// faster (det8 7-11%, inv8 4-11%).
const loopN = 6

// pstep is pivot step k of an LU factorization as the generator emits
// it: straight-line code for a k known here, or (k < 0) the body of the
// pivot loop (luSteps), k in BX at run time and the step's operands
// addressed from registers that follow it:
//
//	R8   element (k, k) of the A area
//	R9   the vector of k as a float (constant cIdx + k)
//	R11  piv(k); the D area's vector k is at R11 + doff - poff
//	R12  element (k, 0)
//	R10  element (k, j) of the column a cols body is at; CX counts
//
// Row k+r is r vectors past row k, so the rows below the pivot (r = 1,
// 2, ...) are unrolled the same in both: in the loop, a run of rows
// stops after row n-1 (r = n-1-k) on a compare of BX (below). Y(r-1) (AVX2) or K(r)
// (AVX-512) is row k+r's swap mask, and Y(r-1) then its multiplier.
type pstep struct {
	g *gen
	k int
}

func (p pstep) loop() bool { return p.k < 0 }

// el is element (k+r, k): the pivot column.
func (p pstep) el(r int) string {
	if p.loop() {
		return fmt.Sprintf("%d(R8)", r*p.g.vb())
	}
	return p.g.a(p.k+r, p.k)
}

// idx is the vector of k+r as a float.
func (p pstep) idx(r int) string {
	if p.loop() {
		return fmt.Sprintf("%d(R9)", r*p.g.vb())
	}
	return p.g.c(cIdx + 32*(p.k+r))
}

// piv is where the step's pivot rows go, d the pivot's reciprocal.
func (p pstep) piv() string {
	if p.loop() {
		return "(R11)"
	}
	return p.g.piv(p.k)
}

func (p pstep) d() string {
	if p.loop() {
		return fmt.Sprintf("%d(R11)", p.g.doff()-p.g.poff())
	}
	return p.g.d(p.k)
}

// below runs body(r) for the rows k+r below the pivot, r = 1..n-1-k; in
// the loop, r = 1..n-1, leaving after r = n-1-k.
func (p pstep) below(body func(r int)) {
	g := p.g
	if !p.loop() {
		for r := 1; p.k+r < g.n; r++ {
			body(r)
		}
		return
	}
	end := g.newLabel()
	for r := 1; r < g.n; r++ {
		body(r)
		if r < g.n-1 {
			g.ins("CMPQ", "BX", fmt.Sprintf("$%d", g.n-1-r))
			g.ins("JEQ", end)
		}
	}
	g.mark(end)
}

// Column ranges of pstep.cols.
const (
	colsAll   = iota
	colsLeft  // j < k: L's columns
	colsFrom  // j >= k
	colsRight // j > k: the trailing matrix
)

// cols runs body(at) for each column j of the range, at(r) naming
// element (k+r, j): unrolled, or in the loop a loop over the columns
// (R10, CX).
func (p pstep) cols(which int, body func(at func(r int) string)) {
	g, n := p.g, p.g.n
	if !p.loop() {
		span := map[int][2]int{colsAll: {0, n}, colsLeft: {0, p.k}, colsFrom: {p.k, n}, colsRight: {p.k + 1, n}}[which]
		for j := span[0]; j < span[1]; j++ {
			body(func(r int) string { return g.a(p.k+r, j) })
		}
		return
	}
	loop, done := g.newLabel(), ""
	switch which {
	case colsAll:
		g.ins("MOVQ", "R12", "R10")
		g.ins("MOVQ", fmt.Sprintf("$%d", n), "CX")
	case colsLeft: // none at k = 0
		done = g.newLabel()
		g.ins("MOVQ", "R12", "R10")
		g.ins("MOVQ", "BX", "CX")
		g.ins("TESTQ", "CX", "CX")
		g.ins("JEQ", done)
	case colsFrom:
		g.ins("MOVQ", "R8", "R10")
		g.ins("MOVQ", fmt.Sprintf("$%d", n), "CX")
		g.ins("SUBQ", "BX", "CX")
	case colsRight:
		g.ins("LEAQ", fmt.Sprintf("%d(R8)", n*g.vb()), "R10")
		g.ins("MOVQ", fmt.Sprintf("$%d", n-1), "CX")
		g.ins("SUBQ", "BX", "CX")
	}
	g.mark(loop)
	body(func(r int) string { return fmt.Sprintf("%d(R10)", r*g.vb()) })
	g.ins("ADDQ", fmt.Sprintf("$%d", n*g.vb()), "R10")
	g.ins("DECQ", "CX")
	g.ins("JNZ", loop)
	if done != "" {
		g.mark(done)
	}
}

// swapMasks sets the masks of swapping row k with each lane's pivot row
// (the float row index in Y9).
func (p pstep) swapMasks() {
	p.below(func(r int) { p.g.ins(p.g.op("VCMP"), "$0", p.idx(r), p.g.y(9), p.g.mask(r, 0)) })
}

// swap exchanges the vector at(0) (row k) with at(r) (row k+r) in the
// lanes whose mask is set, for every row below k.
func (p pstep) swap(at func(r int) string) {
	g := p.g
	g.ins(g.op("VMOVA"), at(0), g.y(7))
	g.ins(g.op("VMOVA"), g.y(7), g.y(8))
	p.below(func(r int) {
		m := g.mask(r, 0)
		g.ins(g.op("VMOVA"), at(r), g.y(9))
		if g.t.wide {
			g.ins(g.op("VMOVA"), g.y(9), m, g.y(8))
			g.ins(g.op("VMOVA"), g.y(7), m, g.y(9))
		} else {
			g.ins(g.op("VBLENDV"), m, g.y(9), g.y(8), g.y(8))
			g.ins(g.op("VBLENDV"), m, g.y(7), g.y(9), g.y(9))
		}
		g.ins(g.op("VMOVA"), g.y(9), at(r))
	})
	g.ins(g.op("VMOVA"), g.y(8), at(0))
}

// mask names the mask selecting row i in a row swap: register i-k-1
// (AVX2), opmask K(i-k) (AVX-512).
func (g *gen) mask(i, k int) string {
	if g.t.wide {
		return fmt.Sprintf("K%d", i-k)
	}
	return g.y(i - k - 1)
}

// swapMasks sets the masks of swapping row k with each lane's pivot row
// (the float row index in Y9, a vector per row below k).
func (g *gen) swapMasks(k int) { pstep{g, k}.swapMasks() }

// swap exchanges the vector at rk (row k) with the one at row(i) in the
// lanes whose mask(i, k) is set, for every row i below k.
func (g *gen) swap(k int, rk string, row func(i int) string) {
	pstep{g, k}.swap(func(r int) string {
		if r == 0 {
			return rk
		}
		return row(k + r)
	})
}

// pivot applies LU's row swaps (piv), in order, to the n vectors at
// row(i).
func (g *gen) pivot(row func(i int) string) {
	for k := 0; k < g.n-1; k++ {
		g.ins(g.op("VMOVA"), g.piv(k), g.y(9))
		g.swapMasks(k)
		g.swap(k, row(k), row)
	}
}

// luSolve solves with the LU factors for the column at R10 (getrs: the
// row swaps in order, L then U by the diagonal's reciprocals: recips),
// checking the solution is finite.
func (g *gen) luSolve() {
	n := g.n
	x := func(i int) string { return fmt.Sprintf("%d(R10)", g.vb()*i) }
	g.pivot(x)
	for i := 0; i < n; i++ {
		g.ins(g.op("VMOVA"), x(i), g.y(i))
	}
	g.substitute()
}

// substitute solves L U x = y for y in Y0..Y(n-1) (the pivoted
// right-hand side), checks x is finite and stores it at R10.
func (g *gen) substitute() {
	n := g.n
	x := func(i int) string { return fmt.Sprintf("%d(R10)", g.vb()*i) }
	g.forwardL(0, false)
	g.backU(false)
	for i := 0; i < n; i++ {
		g.finite(g.y(i))
		g.ins(g.op("VMOVA"), g.y(i), x(i))
	}
}

// recips leaves the reciprocals of the A area's diagonal from element
// (k0, k0) on in the D area (lu leaves the others of U's: its pivots'),
// so that every substitution multiplies by them: one division per
// diagonal element in all (Solve's right-hand sides and the check's
// inverse, Inv's n columns, CholeskySolve's two triangular solves)
// instead of one per use, the divider being the kernels' narrowest
// resource. OpenBLAS's trsm kernels and LAPACK's trtri also multiply by
// the diagonal's reciprocals.
func (g *gen) recips(k0 int) {
	for k := k0; k < g.n; k++ {
		g.ins(g.op("VDIV"), g.a(k, k), g.y(14), g.y(0))
		g.ins(g.op("VMOVA"), g.y(0), g.d(k))
	}
}

// forwardL solves L x = y for y in Y0..Y(n-1), L the A area's unit
// lower triangle, from column k0 on (y's elements above k0 zero); with
// mag, M(L) x = y instead, M(L) L's comparison matrix (invBound).
func (g *gen) forwardL(k0 int, mag bool) {
	for k := k0; k < g.n; k++ {
		for i := k + 1; i < g.n; i++ {
			g.update(g.a(i, k), k, i, mag)
		}
	}
}

// backU solves U x = y for y in Y0..Y(n-1), U the A area's upper
// triangle, multiplying by the reciprocals of its diagonal (recips);
// with mag, M(U) x = y instead.
func (g *gen) backU(mag bool) {
	for k := g.n - 1; k >= 0; k-- {
		g.scale(k, mag)
		for i := 0; i < k; i++ {
			g.update(g.a(i, k), k, i, mag)
		}
	}
}

// update subtracts el times x_k from x_r; with mag (Y10 holding the
// magnitude mask) it adds |el| x_k: a step of a triangular solve with
// the triangle or with its comparison matrix.
func (g *gen) update(el string, k, r int, mag bool) {
	if !mag {
		g.ins(g.op("VFNMADD231"), el, g.y(k), g.y(r))
		return
	}
	g.ins(g.op("VAND"), el, g.y(10), g.y(11))
	g.ins(g.op("VFMADD231"), g.y(11), g.y(k), g.y(r))
}

// scale multiplies x_k by the reciprocal of U's diagonal element k
// (the D area), or with mag by its magnitude.
func (g *gen) scale(k int, mag bool) {
	if !mag {
		g.ins(g.op("VMUL"), g.d(k), g.y(k), g.y(k))
		return
	}
	g.ins(g.op("VAND"), g.d(k), g.y(10), g.y(11))
	g.ins(g.op("VMUL"), g.y(11), g.y(k), g.y(k))
}
