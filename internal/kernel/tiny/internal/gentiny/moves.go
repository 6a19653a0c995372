// Loads and stores: a's and b's lane groups into the scratch areas and
// back by the call's mode (gathered or scattered, vectors of batch
// stride 1, compact rows transposed in registers, lane by lane), and
// the shared routines loadA, loadL, loadC, loadCT, storeA and loadB.

package main

import "fmt"

// gatherIdx loads the lane offsets of operand a (b) into Y11.
func (g *gen) gatherIdx(b bool) {
	off := map[[2]bool]int{{false, false}: offAIX, {false, true}: offBIX, {true, false}: offAIX4, {true, true}: offBIX4}[[2]bool{g.t.size == 4, b}]
	if g.t.wide {
		g.ins("VMOVDQU64", fmt.Sprintf("%d(SI)", off), g.y(11))
		return
	}
	g.ins("VMOVDQU", fmt.Sprintf("%d(SI)", off), g.y(11))
}

func (g *gen) gather1(ptr string, dst string) {
	if g.t.wide {
		g.ins(g.k("KXNOR"), "K1", "K1", "K1")
		g.ins(map[int]string{8: "VGATHERQPD", 4: "VGATHERDPS"}[g.t.size], fmt.Sprintf("(%s)(Z11*1)", ptr), "K1", "Z0")
		g.ins(g.op("VMOVA"), "Z0", dst)
		return
	}
	g.ins("VPCMPEQD", g.y(10), g.y(10), g.y(10))
	if g.t.size == 8 {
		g.ins("VGATHERQPD", g.y(10), fmt.Sprintf("(%s)(Y11*1)", ptr), g.y(0))
	} else {
		g.ins("VGATHERDPS", g.y(10), fmt.Sprintf("(%s)(Y11*1)", ptr), g.y(0))
	}
	g.ins(g.op("VMOVA"), g.y(0), dst)
}

// compactOK reports whether the kernel reads compact lane groups with
// whole vectors: when a lane group's n*n elements hold a vector, or with
// AVX-512's opmasks, which load and store rows of fewer (float32 n = 2 in
// YMM has neither: the Go side never sets the compact modes for it).
func (g *gen) compactOK() bool { return g.partial(g.n*g.n) || g.n*g.n >= g.t.lanes }

// partial reports whether a compact lane group's rows of nn elements
// (one lane's) are shorter than a vector (AVX-512 float32 n*n = 9, or a
// right-hand side of n): they are then loaded and stored with the opmask
// of their nn elements.
func (g *gen) partial(nn int) bool { return g.t.wide && nn < g.t.lanes }

// blocks returns the first elements of the runs of lanes consecutive
// elements that cover a row of nn (the last one ending at nn, overlapping
// the one before when lanes does not divide nn and tail does not move
// the last element; store: the blocks rowsStore writes).
func (g *gen) blocks(nn int, store bool) []int {
	L := g.t.lanes
	if g.partial(nn) {
		return []int{0}
	}
	var r []int
	for e := 0; e+L <= nn; e += L {
		r = append(r, e)
	}
	if nn%L != 0 && !g.tail(nn, store) {
		r = append(r, nn-L)
	}
	return r
}

// rowIdx sets Z11 to the byte offsets of a lane group's rows of nn
// elements, l*nn elements for lane l, for byElement's and tail's gathers
// and scatters: the lane numbers (tinydzlanes) times the row's bytes,
// which depend on the layout alone, not on the operand's lane offsets.
func (g *gen) rowIdx(nn int) {
	g.ins("MOVQ", fmt.Sprintf("$%d", nn*g.t.size), "R11")
	g.ins("VPBROADCASTQ", "R11", "Z11")
	g.ins("VPMULLQ", "tinydzlanes<>(SB)", "Z11", "Z11")
}

// byElement reports whether rows of nn elements are read (store: written)
// an element at a time, gathered (scattered), rather than transposed:
// AVX-512 float64 rows of at most 3 (written: 4), which are
// only right-hand sides (bRows), where an 8x8 transpose spends 24
// shuffles on 3 or 4 vectors, and its masked stores of short rows write
// mostly over other lanes' rows. Measured (min of 10-15 alternating
// runs, ns per matrix): cholsolve3 12.5 -> 7.4 (the scatters: gathers
// alone gained nothing), solve3 unchanged; scatters at 4 elements,
// cholsolve4 16.6 -> 12.5 and solve4 about 7% faster, but gathers there
// made solve4 7% slower (Intel Xeon, Sapphire Rapids class). Not
// noScatter: on AMD Zen 5 both the scatters and these gathers made the
// kernels slower (solve3 8.8 -> 14.1, cholsolve3 5.2 -> 7.0 with the
// tail's scatter).
func (g *gen) byElement(nn int, store bool) bool {
	most := 3
	if store {
		most = 4
	}
	return g.t.wide && g.t.size == 8 && !g.t.noScatter && nn <= most
}

// tail reports whether the last element of a compact row of nn is moved
// by itself, with a gather or a scatter, rather than by a last block
// overlapping the one before (AVX-512 float64 n = 3: nine elements, so
// one 8x8 transpose and a gather instead of two transposes, whose 48
// shuffles made a quarter of dzdet3's time). Only a's compact rows have
// such an nn (a right-hand side's n is at most 8): the gather's offsets
// are a's lane offsets, l*nn elements in a full compact group. noScatter
// kernels gather it (store: false) but store it with the overlapping
// block (blocks).
func (g *gen) tail(nn int, store bool) bool {
	return g.t.wide && g.t.size == 8 && nn > g.t.lanes && nn%g.t.lanes == 1 && !(store && g.t.noScatter)
}

// elem returns the (i, j) of a compact matrix's element e (trans: the
// kernel reads the transpose of column-major storage).
func (g *gen) elem(e int, trans bool) (int, int) {
	if trans {
		return e / g.n, e % g.n
	}
	return e % g.n, e / g.n
}

// transpose transposes the lanes x lanes block in Y0..Y(lanes-1) (row r
// in Yr) and returns the registers holding its columns, in order. The
// float32 one uses every register (consts restores Y12-Y15).
func (g *gen) transpose() []string {
	if g.t.wide && g.t.size == 4 {
		return g.transpose16()
	}
	if g.t.wide {
		// 8x8 float64: pairs (unpack), then 128-bit lanes twice
		// (VSHUFF64X2 0x88 takes lanes 0 and 2 of each source, 0xdd lanes
		// 1 and 3), in Z16-Z31.
		for k := 0; k < 4; k++ {
			g.ins("VUNPCKLPD", g.y(2*k+1), g.y(2*k), g.y(16+2*k))
			g.ins("VUNPCKHPD", g.y(2*k+1), g.y(2*k), g.y(17+2*k))
		}
		// Z24-Z27: columns {0,4}, {2,6}, {1,5}, {3,7} of rows 0-3; Z28-Z31
		// the same of rows 4-7.
		for h := 0; h < 2; h++ {
			u := 24 + 4*h
			lo, hi := 16+4*h, 16+4*h+2 // the unpacked rows (4h, 4h+1) and (4h+2, 4h+3)
			g.ins("VSHUFF64X2", "$0x88", g.y(hi), g.y(lo), g.y(u))
			g.ins("VSHUFF64X2", "$0xdd", g.y(hi), g.y(lo), g.y(u+1))
			g.ins("VSHUFF64X2", "$0x88", g.y(hi+1), g.y(lo+1), g.y(u+2))
			g.ins("VSHUFF64X2", "$0xdd", g.y(hi+1), g.y(lo+1), g.y(u+3))
		}
		cols := []int{0, 4, 2, 6, 1, 5, 3, 7}
		for q := 0; q < 4; q++ {
			g.ins("VSHUFF64X2", "$0x88", g.y(28+q), g.y(24+q), g.y(cols[2*q]))
			g.ins("VSHUFF64X2", "$0xdd", g.y(28+q), g.y(24+q), g.y(cols[2*q+1]))
		}
		return []string{"Z0", "Z1", "Z2", "Z3", "Z4", "Z5", "Z6", "Z7"}
	}
	if g.t.size == 8 {
		g.ins("VUNPCKLPD", g.y(1), g.y(0), g.y(4))
		g.ins("VUNPCKHPD", g.y(1), g.y(0), g.y(5))
		g.ins("VUNPCKLPD", g.y(3), g.y(2), g.y(6))
		g.ins("VUNPCKHPD", g.y(3), g.y(2), g.y(7))
		g.ins("VPERM2F128", "$0x20", g.y(6), g.y(4), g.y(0))
		g.ins("VPERM2F128", "$0x20", g.y(7), g.y(5), g.y(1))
		g.ins("VPERM2F128", "$0x31", g.y(6), g.y(4), g.y(2))
		g.ins("VPERM2F128", "$0x31", g.y(7), g.y(5), g.y(3))
		return []string{g.y(0), g.y(1), g.y(2), g.y(3)}
	}
	g.quads(8, 8)
	for k := 0; k < 4; k++ {
		g.ins("VPERM2F128", "$0x20", g.y(4+k), g.y(k), g.y(8+k))
		g.ins("VPERM2F128", "$0x31", g.y(4+k), g.y(k), g.y(12+k))
	}
	return []string{g.y(8), g.y(9), g.y(10), g.y(11), g.y(12), g.y(13), g.y(14), g.y(15)}
}

// quads transposes the 4x4 blocks of the float32 rows in registers
// 0..rows-1 within each 128-bit lane, through registers tmp..tmp+rows-1:
// pairs (unpack), then quadruples (VSHUFPS). Register 4h+c then holds,
// in 128-bit lane m, column 4m+c of rows 4h..4h+3.
func (g *gen) quads(rows, tmp int) {
	for k := 0; k < rows/2; k++ {
		g.ins("VUNPCKLPS", g.y(2*k+1), g.y(2*k), g.y(tmp+2*k))
		g.ins("VUNPCKHPS", g.y(2*k+1), g.y(2*k), g.y(tmp+2*k+1))
	}
	for h := 0; h < rows/4; h++ {
		t := tmp + 4*h
		g.ins("VSHUFPS", "$0x44", g.y(t+2), g.y(t), g.y(4*h))
		g.ins("VSHUFPS", "$0xEE", g.y(t+2), g.y(t), g.y(4*h+1))
		g.ins("VSHUFPS", "$0x44", g.y(t+3), g.y(t+1), g.y(4*h+2))
		g.ins("VSHUFPS", "$0xEE", g.y(t+3), g.y(t+1), g.y(4*h+3))
	}
}

// transpose16 transposes the 16x16 float32 block in Z0..Z15 (row r in
// Zr) into its columns, in Z0..Z15 again, through Z16-Z31: quads, then
// a 4x4 transpose of 128-bit lanes in two rounds of VSHUFF32X4 (0x88
// takes lanes 0 and 2 of each source, 0xdd lanes 1 and 3).
func (g *gen) transpose16() []string {
	g.quads(16, 16)
	// For each c, the 128-bit lanes of A, B, C, D = Z(c), Z(4+c), Z(8+c),
	// Z(12+c): P = A0 A2 B0 B2, Q = A1 A3 B1 B3, R and S the same of C
	// and D; column 4m+c is then P0 R0 (m = 0), Q0 S0 (1), P1 R1 (2),
	// Q1 S1 (3) of their lane pairs.
	for c := 0; c < 4; c++ {
		u := 16 + 4*c
		g.ins("VSHUFF32X4", "$0x88", g.y(4+c), g.y(c), g.y(u))
		g.ins("VSHUFF32X4", "$0xdd", g.y(4+c), g.y(c), g.y(u+1))
		g.ins("VSHUFF32X4", "$0x88", g.y(12+c), g.y(8+c), g.y(u+2))
		g.ins("VSHUFF32X4", "$0xdd", g.y(12+c), g.y(8+c), g.y(u+3))
	}
	cols := make([]string, 16)
	for c := 0; c < 4; c++ {
		u := 16 + 4*c
		for m, src := range [4]int{u, u + 1, u, u + 1} { // P, Q, P, Q with R, S
			imm := "$0x88"
			if m >= 2 {
				imm = "$0xdd"
			}
			g.ins("VSHUFF32X4", imm, g.y(src+2), g.y(src), g.y(4*m+c))
			cols[4*m+c] = g.y(4*m + c)
		}
	}
	return cols
}

// compactLoad reads a compact lane group (AX its first element) with
// whole-vector loads, transposed in registers into the A area.
func (g *gen) compactLoad(trans bool) {
	nn := g.n * g.n
	if g.t.wide {
		// Prefetch the lane group two calls on (p.pf bytes ahead): the
		// loads below were a tenth of dzsolve8's samples, waiting for
		// memory.
		g.ins("MOVQ", fmt.Sprintf("%d(SI)", offPF), "R13")
		g.ins("ADDQ", "AX", "R13")
		for off := 0; off < g.t.lanes*nn*g.t.size; off += 64 {
			g.ins("PREFETCHT0", fmt.Sprintf("%d(R13)", off))
		}
	}
	g.rowsLoad(nn, "AX", func(e int) int { return g.aoff(g.elem(e, trans)) })
	if g.t.size == 4 {
		g.consts()
	}
}

// rowsLoad reads a lane group whose lanes are rows of nn elements one
// after another from ptr (a compact matrix, or a right-hand side) with
// whole-vector loads (or masked ones, partial), transposed in registers:
// element e of the lanes goes to the scratch vector at dst(e) (bytes from
// DI). It uses every vector register (float32: Y12-Y15 too) and K3.
func (g *gen) rowsLoad(nn int, ptr string, dst func(e int) int) {
	if g.byElement(nn, false) {
		g.rowIdx(nn)
		for e := 0; e < nn; e++ {
			g.ins(g.k("KXNOR"), "K1", "K1", "K1")
			g.ins("VGATHERQPD", fmt.Sprintf("%d(%s)(Z11*1)", e*g.t.size, ptr), "K1", "Z0")
			g.ins(g.op("VMOVA"), "Z0", fmt.Sprintf("%d(DI)", dst(e)))
		}
		return
	}
	load := g.op("VMOVU")
	if g.partial(nn) {
		g.ins("MOVL", fmt.Sprintf("$%d", 1<<nn-1), "R11")
		g.ins(g.k("KMOV"), "R11", "K3")
	}
	for _, e0 := range g.blocks(nn, false) {
		for l := 0; l < g.t.lanes; l++ {
			src := fmt.Sprintf("%d(%s)", (l*nn+e0)*g.t.size, ptr)
			if g.partial(nn) {
				g.ins(load+".Z", src, "K3", g.y(l))
				continue
			}
			g.ins(load, src, g.y(l))
		}
		for q, r := range g.transpose() {
			if e0+q < nn {
				g.ins(g.op("VMOVA"), r, fmt.Sprintf("%d(DI)", dst(e0+q)))
			}
		}
	}
	if g.tail(nn, false) {
		g.rowIdx(nn)
		g.ins(g.k("KXNOR"), "K1", "K1", "K1")
		g.ins("VGATHERQPD", fmt.Sprintf("%d(%s)(Z11*1)", (nn-1)*g.t.size, ptr), "K1", "Z0")
		g.ins(g.op("VMOVA"), "Z0", fmt.Sprintf("%d(DI)", dst(nn-1)))
	}
}

// compactStore writes the scratch elements off(i, j) (bytes from base)
// where keep(i, j) to a compact lane group (AX), transposed back in
// registers (rowsStore).
func (g *gen) compactStore(trans bool, base string, off func(i, j int) int, keep func(i, j int) bool) {
	g.rowsStore(g.n*g.n, "AX", base, func(e int) int { return off(g.elem(e, trans)) },
		func(e int) bool { return keep(g.elem(e, trans)) })
}

// rowsStore writes the scratch vectors at src(e) (bytes from base) where
// keep(e) to a lane group of rows of nn elements at ptr (rowsLoad's
// inverse); runs of elements not all kept are written element by
// element, in a loop over the lanes (AVX2), or with masked stores
// (AVX-512).
func (g *gen) rowsStore(nn int, ptr, base string, src func(e int) int, keep func(e int) bool) {
	if g.byElement(nn, true) {
		g.rowIdx(nn)
		for e := 0; e < nn; e++ {
			if keep(e) {
				g.ins(g.k("KXNOR"), "K1", "K1", "K1")
				g.ins(g.op("VMOVA"), fmt.Sprintf("%d(%s)", src(e), base), "Z0")
				g.ins("VSCATTERQPD", "Z0", "K1", fmt.Sprintf("%d(%s)(Z11*1)", e*g.t.size, ptr))
			}
		}
		return
	}
	L := g.t.lanes
	at := func(l, e int) string { return fmt.Sprintf("%d(%s)", (l*nn+e)*g.t.size, ptr) }
	scratch := func(e, l int) string { return fmt.Sprintf("%d(%s)", src(e)+l*g.t.size, base) }
	for _, e0 := range g.blocks(nn, true) {
		kept := 0
		for q := 0; q < L && e0+q < nn; q++ {
			if keep(e0 + q) {
				kept++
			}
		}
		switch {
		case kept == 0:
		case kept == L:
			for q := 0; q < L; q++ {
				g.ins(g.op("VMOVA"), scratch(e0+q, 0), g.y(q))
			}
			for l, r := range g.transpose() {
				g.ins(g.op("VMOVU"), r, at(l, e0))
			}
		case g.t.wide:
			// The whole block transposed, stored with an opmask of the
			// kept elements (of a row shorter than a vector, its own).
			mask := 0
			for q := 0; q < L && e0+q < nn; q++ {
				g.ins(g.op("VMOVA"), scratch(e0+q, 0), g.y(q))
				if keep(e0 + q) {
					mask |= 1 << q
				}
			}
			g.ins("MOVL", fmt.Sprintf("$%d", mask), "R11")
			g.ins(g.k("KMOV"), "R11", "K2")
			for l, r := range g.transpose() {
				g.ins(g.op("VMOVU"), r, "K2", at(l, e0))
			}
		default:
			// Lane by lane: BX the lane's scratch elements, R8 its row,
			// R12 counting the lanes.
			loop := g.newLabel()
			g.ins("LEAQ", fmt.Sprintf("(%s)", base), "BX")
			g.ins("MOVQ", ptr, "R8")
			g.ins("MOVQ", fmt.Sprintf("$%d", L), "R12")
			g.mark(loop)
			for q := 0; q < L; q++ {
				if keep(e0 + q) {
					g.ins(g.mov(), fmt.Sprintf("%d(BX)", src(e0+q)), "R11")
					g.ins(g.mov(), "R11", fmt.Sprintf("%d(R8)", (e0+q)*g.t.size))
				}
			}
			g.ins("ADDQ", fmt.Sprintf("$%d", g.t.size), "BX")
			g.ins("ADDQ", fmt.Sprintf("$%d", nn*g.t.size), "R8")
			g.ins("DECQ", "R12")
			g.ins("JNZ", loop)
		}
	}
	if g.tail(nn, true) && keep(nn-1) {
		g.rowIdx(nn)
		g.ins(g.k("KXNOR"), "K1", "K1", "K1")
		g.ins(g.op("VMOVA"), scratch(nn-1, 0), "Z0")
		g.ins("VSCATTERQPD", "Z0", "K1", fmt.Sprintf("%d(%s)(Z11*1)", (nn-1)*g.t.size, ptr))
	}
}

// contiguous walks a's elements (i, j) where keep(i, j) for a lane group
// with batch stride 1 (AX element (0, 0) of lane 0, CX and DX the row
// and column strides), calling at(i, j, addr) with each one's address.
func (g *gen) contiguous(keep func(i, j int) bool, at func(i, j int, addr string)) {
	n := g.n
	for j := 0; j < n; j++ {
		g.ins("MOVQ", "AX", "R8")
		last := -1
		for i := 0; i < n; i++ {
			if keep(i, j) {
				last = i
			}
		}
		for i := 0; i <= last; i++ {
			if keep(i, j) {
				at(i, j, "(R8)")
			}
			if i < last {
				g.ins("ADDQ", "CX", "R8")
			}
		}
		if j < n-1 {
			g.ins("ADDQ", "DX", "AX")
		}
	}
}

// lowerTri keeps the lower triangle (Cholesky's operand and factor).
func lowerTri(i, j int) bool { return i >= j }

func all(i, j int) bool { return true }

// loadA reads a's lane group into the A area (lower: only i >= j is
// needed) by the call's mode: a CALL of the shared routine of the type
// and order for the mode, loadC or loadCT for the compact ones (the
// same for both triangles: a compact group is read whole), else loadA
// (loadL), which gathers or reads a group with batch stride 1.
func (g *gen) loadA(lower bool) {
	kind, doc, keep := "loadA", "a's lane group into the A area, gathered or with batch stride 1 by p.mode", all
	if lower {
		kind, doc, keep = "loadL", "a's lane group's lower triangle into the A area, gathered or with batch stride 1 by p.mode", lowerTri
	}
	strided := g.routine(kind, doc, func(h *gen) {
		h.byMode(false, keep, nil, func(i, j int, addr string) {
			h.ins(h.op("VMOVU"), addr, h.y(0))
			h.ins(h.op("VMOVA"), h.y(0), h.a(i, j))
		}, func() { h.gatherA(lower) })
	})
	defer g.inputFinite(keep)
	if !g.compactOK() {
		g.call(strided)
		return
	}
	loadC := g.routine("loadC", "a's compact lane group (AX) into the A area", func(c *gen) { c.compactLoad(false) })
	loadCT := g.routine("loadCT", "a's compact lane group (AX), transposed, into the A area", func(c *gen) { c.compactLoad(true) })
	compact, trans, done := g.newLabel(), g.newLabel(), g.newLabel()
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offMode), "BX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offA), "AX")
	g.ins("CMPQ", "BX", fmt.Sprintf("$%d", modeCompact))
	g.ins("JEQ", compact)
	g.ins("CMPQ", "BX", fmt.Sprintf("$%d", modeCompactT))
	g.ins("JEQ", trans)
	g.call(strided)
	g.ins("JMP", done)
	g.mark(compact)
	g.call(loadC)
	g.ins("JMP", done)
	g.mark(trans)
	g.call(loadCT)
	g.mark(done)
}

// inputFinite adds the elements of the A area that the kernel reads
// (where keep(i, j)) times 0 to the finiteness accumulator: a lane whose
// input holds a NaN or an infinity is flagged, which is the finite-input
// rule's scan (package batch) done in the kernel's own pass over its
// data. Four chains (in Y0-Y3, free after a load routine) keep it off the
// arithmetic's critical path.
func (g *gen) inputFinite(keep func(i, j int) bool) {
	var els []string
	for j := 0; j < g.n; j++ {
		for i := 0; i < g.n; i++ {
			if keep(i, j) {
				els = append(els, g.a(i, j))
			}
		}
	}
	chains := min(4, len(els))
	for c := range chains {
		g.ins(g.op("VXOR"), g.y(c), g.y(c), g.y(c))
	}
	for k, e := range els {
		g.ins(g.op("VFMADD231"), e, g.y(15), g.y(k%chains))
	}
	for c := 1; c < chains; c++ {
		g.ins(g.op("VADD"), g.y(c), g.y(0), g.y(0))
	}
	g.ins(g.op("VADD"), g.y(0), g.y(12), g.y(12))
}

// storeA writes the scratch elements at src + (i + j*n) vectors (src DI,
// the A area, or the X area) where keep(i, j) (lower: i >= j) to the
// lanes of a's results (p.aout; nothing when it is nil) whose bit in R13
// is clear: whole vectors when no lane is flagged and the mode allows,
// else lane by lane.
func (g *gen) storeA(src int, lower bool) {
	g.ifSet(offAOut, func() { g.storeAt(src, lower) })
}

// storeAt is storeA without the check of p.aout, R10 pointing at the
// elements: a CALL of the shared routine storeA, or for the lower
// triangle (chol's alone) the same code inline. Measured (AMD Zen 4,
// kernels alone, 10000 compact float64 matrices, 8 alternating runs):
// as a CALLed routine the lower triangle's store made chol4 15-30%
// slower (9.2 -> 10.5-11.7 ns per matrix), inline it is level; chol3,
// chol5 and the other operations' CALLed stores were level either way.
func (g *gen) storeAt(src int, lower bool) {
	g.ins("LEAQ", fmt.Sprintf("%d(DI)", src), "R10")
	if lower {
		g.storeVectors(lowerTri)
		return
	}
	g.call(g.routine("storeA", "the n x n vectors at R10 to p.aout by p.mode but the lanes flagged in R13", func(h *gen) { h.storeVectors(all) }))
}

// storeVectors writes the n x n vectors at R10 where keep(i, j) to
// p.aout by p.mode but the lanes flagged in R13 (storeAt).
func (g *gen) storeVectors(keep func(i, j int) bool) {
	off := func(i, j int) int { return g.aoff(i, j) }
	g.byMode(true, keep, func(trans bool) { g.compactStore(trans, "R10", off, keep) }, func(i, j int, addr string) {
		g.ins(g.op("VMOVA"), fmt.Sprintf("%d(R10)", off(i, j)), g.y(0))
		g.ins(g.op("VMOVU"), g.y(0), addr)
	}, func() { g.storeLanes(offAOut, offARS, offACS, offAIX, g.n, false, "R10", off, keep) })
}

// byMode dispatches on the call's mode (BX) with AX a's lane group (a
// store's: at p.aout): compact(trans) for the compact modes (nil: the
// caller never has them here), at(i, j, address) for each kept element
// of a group with batch stride 1, other when the mode gathers (and, for
// a store, when any lane is flagged: R13 not zero).
func (g *gen) byMode(store bool, keep func(i, j int) bool, compact func(trans bool), at func(i, j int, addr string), other func()) {
	otherL, contig, done := g.newLabel(), g.newLabel(), g.newLabel()
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offMode), "BX")
	ptr := offA
	if store {
		g.ins("TESTQ", "R13", "R13")
		g.ins("JNE", otherL)
		ptr = offAOut
	}
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", ptr), "AX")
	g.ins("CMPQ", "BX", fmt.Sprintf("$%d", modeGather))
	g.ins("JEQ", otherL)
	g.ins("CMPQ", "BX", fmt.Sprintf("$%d", modeContiguous))
	g.ins("JEQ", contig)
	if compact != nil && g.compactOK() {
		tr := g.newLabel()
		g.ins("CMPQ", "BX", fmt.Sprintf("$%d", modeCompactT))
		g.ins("JEQ", tr)
		compact(false)
		g.ins("JMP", done)
		fmt.Fprintf(&g.b, "%s:\n", tr)
		compact(true)
		g.ins("JMP", done)
	}
	fmt.Fprintf(&g.b, "%s:\n", contig)
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offARS), "CX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offACS), "DX")
	g.contiguous(keep, at)
	g.ins("JMP", done)
	fmt.Fprintf(&g.b, "%s:\n", otherL)
	other()
	fmt.Fprintf(&g.b, "%s:\n", done)
}

// storeB writes the solutions (the X area, nrhs columns) to the lanes of
// b's results (p.bout; nothing when it is nil) whose bit in R13 is
// clear: whole vectors when no lane is flagged and b's lanes are
// consecutive or rows, else lane by lane. Inline, not a shared routine:
// measured (AMD Zen 4, kernels alone, 512 compact float64 matrices, 8
// alternating runs), CALLed it made cholsolve8 10-20% slower (16.2 ->
// 17.8-20 ns per matrix); inline it is level with the kernels before
// the routines, for 50 KB more of tiny_amd64.s.
func (g *gen) storeB() { g.ifSet(offBOut, g.storeBAt) }

// storeBAt is storeB without the check of p.bout.
func (g *gen) storeBAt() {
	slow, done, loop := g.newLabel(), g.newLabel(), g.newLabel()
	g.ins("TESTQ", "R13", "R13")
	g.ins("JNE", slow)
	g.ins("CMPQ", fmt.Sprintf("%d(SI)", offBSeq), fmt.Sprintf("$%d", bGather))
	g.ins("JEQ", slow)
	if g.t.wide {
		seq := g.newLabel()
		g.ins("CMPQ", fmt.Sprintf("%d(SI)", offBSeq), fmt.Sprintf("$%d", bRows))
		g.ins("JNE", seq)
		g.ins("MOVQ", fmt.Sprintf("%d(SI)", offBOut), "AX")
		g.rowsStore(g.n, "AX", "DI", g.xrow, func(int) bool { return true })
		g.ins("JMP", done)
		fmt.Fprintf(&g.b, "%s:\n", seq)
	}
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offBOut), "AX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offBRS), "CX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offNRHS), "R9")
	g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.xoff()), "R10")
	fmt.Fprintf(&g.b, "%s:\n", loop)
	g.ins("MOVQ", "AX", "R8")
	for i := 0; i < g.n; i++ {
		g.ins(g.op("VMOVA"), fmt.Sprintf("%d(R10)", g.vb()*i), g.y(0))
		g.ins(g.op("VMOVU"), g.y(0), "(R8)")
		if i < g.n-1 {
			g.ins("ADDQ", "CX", "R8")
		}
	}
	g.ins("ADDQ", fmt.Sprintf("%d(SI)", offBCS), "AX")
	g.ins("ADDQ", fmt.Sprintf("$%d", g.vb()*g.n), "R10")
	g.ins("DECQ", "R9")
	g.ins("JNZ", loop)
	g.ins("JMP", done)
	fmt.Fprintf(&g.b, "%s:\n", slow)
	g.storeLanes(offBOut, offBRS, offBCS, offBIX, g.n, true, "", nil, nil)
	fmt.Fprintf(&g.b, "%s:\n", done)
}

// gatherA gathers a's elements (i, j) (lower: i >= j only) into the A area.
func (g *gen) gatherA(lower bool) {
	n := g.n
	g.gatherIdx(false)
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offA), "AX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offARS), "CX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offACS), "DX")
	// Prefetch the columns of the matrices a later call reads: the lanes
	// of one call touch lines far apart, which the hardware prefetchers
	// do not follow. A loop over the lanes, R12 the lane.
	lanes := g.newLabel()
	g.ins("XORQ", "R12", "R12")
	g.mark(lanes)
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offPF), "R13")
	g.ins("ADDQ", fmt.Sprintf("%d(SI)(R12*8)", offAIX), "R13")
	g.ins("ADDQ", "AX", "R13")
	for j := 0; j < n; j++ {
		g.ins("PREFETCHT0", "(R13)")
		if j < n-1 {
			g.ins("ADDQ", "DX", "R13")
		}
	}
	g.ins("INCQ", "R12")
	g.ins("CMPQ", "R12", fmt.Sprintf("$%d", g.t.lanes))
	g.ins("JNE", lanes)
	for j := 0; j < n; j++ {
		i0 := 0
		if lower {
			i0 = j
		}
		g.ins("MOVQ", "AX", "R8")
		for i := 0; i < i0; i++ {
			g.ins("ADDQ", "CX", "R8")
		}
		for i := i0; i < n; i++ {
			g.gather1("R8", g.a(i, j))
			if i < n-1 {
				g.ins("ADDQ", "CX", "R8")
			}
		}
		if j < n-1 {
			g.ins("ADDQ", "DX", "AX")
		}
	}
}

// storeLanes stores, for every lane whose bit in R13 is clear, the
// scratch elements (i, j) at off(i, j) bytes from base (n x n, only
// where keep(i, j); or rows x nrhs, the runtime count, when colsReg is
// set: then the X area's columns, n vectors apart) to the operand at
// ptrOff with strides rsOff, csOff and lane offsets ixOff: a loop over
// the lanes, R12 the lane, BX (colsReg: R10) its scratch elements.
func (g *gen) storeLanes(ptrOff, rsOff, csOff, ixOff int, rows int, colsReg bool, base string, off func(i, j int) int, keep func(i, j int) bool) {
	loop, skip := g.newLabel(), g.newLabel()
	sc := map[int]string{8: "8", 4: "4"}[g.t.size]
	g.ins("XORQ", "R12", "R12")
	g.mark(loop)
	g.ins("BTQ", "R12", "R13")
	g.ins("JCS", skip)
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", ptrOff), "AX")
	g.ins("ADDQ", fmt.Sprintf("%d(SI)(R12*8)", ixOff), "AX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", rsOff), "CX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", csOff), "DX")
	if colsReg {
		// One column at a time: R10 the scratch column, R9 counts.
		cols := g.newLabel()
		g.ins("LEAQ", fmt.Sprintf("%d(DI)(R12*%s)", g.xoff(), sc), "R10")
		g.ins("MOVQ", fmt.Sprintf("%d(SI)", offNRHS), "R9")
		g.mark(cols)
		g.ins("MOVQ", "AX", "R8")
		for i := 0; i < rows; i++ {
			g.ins(g.mov(), fmt.Sprintf("%d(R10)", g.vb()*i), "R11")
			g.ins(g.mov(), "R11", "(R8)")
			if i < rows-1 {
				g.ins("ADDQ", "CX", "R8")
			}
		}
		g.ins("ADDQ", "DX", "AX")
		g.ins("ADDQ", fmt.Sprintf("$%d", g.vb()*g.n), "R10")
		g.ins("DECQ", "R9")
		g.ins("JNZ", cols)
	} else {
		g.ins("LEAQ", fmt.Sprintf("(%s)(R12*%s)", base, sc), "BX")
		g.contiguous(keep, func(i, j int, addr string) {
			g.ins(g.mov(), fmt.Sprintf("%d(BX)", off(i, j)), "R11")
			g.ins(g.mov(), "R11", addr)
		})
	}
	g.mark(skip)
	g.ins("INCQ", "R12")
	g.ins("CMPQ", "R12", fmt.Sprintf("$%d", g.t.lanes))
	g.ins("JNE", loop)
}

// rhsLoop runs body for every right-hand side column of b (nrhs of them,
// nrhs >= 1), read into the X area by the shared routine loadB, R10
// pointing at the column; body must leave BX, R9 and R10 alone.
func (g *gen) rhsLoop(body func()) {
	n := g.n
	loop := g.newLabel()
	load := g.routine("loadB", "b's column at R8 (row stride CX) into the X area's column at R10 by p.bseq; clobbers R8, R11", (*gen).loadB)
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offB), "BX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offNRHS), "R9")
	g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.xoff()), "R10")
	g.mark(loop)
	g.ins("MOVQ", "BX", "R8")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offBRS), "CX")
	g.call(load)
	for i := range n { // b's column read: as inputFinite
		g.ins(g.op("VFMADD231"), fmt.Sprintf("%d(R10)", g.vb()*i), g.y(15), g.y(12))
	}
	body()
	g.ins("ADDQ", fmt.Sprintf("%d(SI)", offBCS), "BX")
	g.ins("ADDQ", fmt.Sprintf("$%d", g.vb()*n), "R10")
	g.ins("DECQ", "R9")
	g.ins("JNZ", loop)
}

// loadB is loadB's routine: one column of b's lane group (R8 its first
// element, CX the row stride) into the X area's column at R10, gathered
// (p.bseq bGather), one vector per element (bSeq), or, in the AVX-512
// kernels with one right-hand side (bRows), as rows (rowsLoad).
func (g *gen) loadB() {
	n := g.n
	seq, loaded := g.newLabel(), g.newLabel()
	if g.t.wide {
		// nrhs = 1: one pass of rhsLoop.
		gather := g.newLabel()
		g.ins("CMPQ", fmt.Sprintf("%d(SI)", offBSeq), fmt.Sprintf("$%d", bRows))
		g.ins("JNE", gather)
		g.keepState(func() { g.rowsLoad(n, "R8", g.xrow) })
		g.ins("JMP", loaded)
		g.mark(gather)
	}
	g.ins("CMPQ", fmt.Sprintf("%d(SI)", offBSeq), fmt.Sprintf("$%d", bGather))
	g.ins("JNE", seq)
	g.gatherIdx(true)
	for i := 0; i < n; i++ {
		g.gather1("R8", fmt.Sprintf("%d(R10)", g.vb()*i))
		if i < n-1 {
			g.ins("ADDQ", "CX", "R8")
		}
	}
	g.ins("JMP", loaded)
	g.mark(seq)
	for i := 0; i < n; i++ {
		g.ins(g.op("VMOVU"), "(R8)", g.y(0))
		g.ins(g.op("VMOVA"), g.y(0), fmt.Sprintf("%d(R10)", g.vb()*i))
		if i < n-1 {
			g.ins("ADDQ", "CX", "R8")
		}
	}
	g.mark(loaded)
}

// keepState runs body, which may use every vector register (the float32
// AVX-512 transposes do), keeping the ok mask and the finiteness
// accumulator (Y13, Y12) through the frame and setting Y14 and Y15
// anew.
func (g *gen) keepState(body func()) {
	if g.t.size == 8 {
		body() // the float64 transposes leave Y8-Y15 alone
		return
	}
	save := func(k int) string { return fmt.Sprintf("%d(DI)", g.soff()+k*g.vb()) }
	g.ins(g.op("VMOVA"), g.y(12), save(0))
	g.ins(g.op("VMOVA"), g.y(13), save(1))
	body()
	g.ins(g.op("VMOVA"), save(0), g.y(12))
	g.ins(g.op("VMOVA"), save(1), g.y(13))
	g.ins(g.op("VXOR"), g.y(15), g.y(15), g.y(15))
	g.ins(g.op("VMOVU"), g.c(cOne), g.y(14))
}
