// Command gentiny writes tiny_amd64.s and tiny_amd64_gen.go: the AVX2/FMA
// kernels that run one small-matrix operation (orders 2 to 8) on as many
// matrices at once as a YMM register has lanes, one matrix per lane (4
// float64 or 8 float32). Run by `go generate ./internal/kernel`;
// scripts/test.sh fails when the checked-in files differ from its output.
//
// Each kernel is straight-line code for one order n: the matrices' lanes
// are read into a 32-byte aligned scratch area in the frame, where
// element (i, j) of every lane is one vector, by the call's mode (whole
// vectors transposed in registers for a compact run, one vector per
// element for batch stride 1, VGATHERQPD / VGATHERDPS for any strides);
// the algorithm runs on those vectors with the order's loops unrolled;
// the lanes that are not flagged are then stored back the same way (lane
// by lane with scalar moves when any lane is flagged or the mode
// gathers). Solve and Inv also write the norms of each matrix and of
// its inverse for the conditioning check when asked. A lane is flagged
// (bit l of the result) when its computation met anything the slow path
// must handle (a zero or non-positive pivot, a non-finite result, a
// determinant outside the normal range); flagged lanes write nothing.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"math"
	"os"
)

type typ struct {
	p     string // "d" or "s": the Go name prefix
	size  int    // bytes per element
	lanes int    // elements per YMM register
	v     string // packed instruction suffix: PD or PS
	goT   string
}

var types = []typ{
	{p: "d", size: 8, lanes: 4, v: "PD", goT: "float64"},
	{p: "s", size: 4, lanes: 8, v: "PS", goT: "float32"},
}

// Offsets of the tinyArgs fields (tiny.go; checked by a test).
const (
	offA    = 0
	offARS  = 8
	offACS  = 16
	offB    = 24
	offBRS  = 32
	offBCS  = 40
	offNRHS = 48
	offDet  = 56
	offAIX  = 64  // [8]int64 lane byte offsets of a
	offBIX  = 128 // [8]int64 of b
	offAIX4 = 192 // [8]int32 of a
	offBIX4 = 224 // [8]int32 of b
	offPF   = 256 // byte distance from a's lanes to the matrices to prefetch
	offCond = 264 // nil, or where Solve and Inv write the norms (condNorms)
	offMode = 272 // how a's lanes are read and written (modeGather...)
	offBSeq = 280 // 1: b's lanes are consecutive elements (batch stride 1)
)

// Modes of reading and writing a's lanes (offMode), set per call by the
// Go side for a full lane group.
const (
	modeGather     = 0 // VGATHER, any strides; stores lane by lane
	modeCompact    = 1 // compact column-major: the lanes' n*n elements one after another
	modeCompactT   = 2 // the same, read as the transpose (row-major storage)
	modeContiguous = 3 // batch stride 1: element (i, j) of the lanes is one vector
)

// Constant table offsets (per type, 32 bytes each).
const (
	cAbs  = 0
	cSign = 32
	cTiny = 64
	cHuge = 96
	cOne  = 128
	cIdx  = 160 // + 32*i: the vector of i as a float
)

// maxRHS is the most right-hand sides Solve and CholeskySolve take in one
// call (the scratch holds their solutions until the flags are known).
const maxRHS = 8

type gen struct {
	b     bytes.Buffer
	t     typ
	n     int
	label int
}

func (g *gen) f(format string, args ...any) { fmt.Fprintf(&g.b, "\t"+format+"\n", args...) }

func (g *gen) ins(op string, args ...any) {
	g.b.WriteString("\t" + op)
	for i, a := range args {
		if i == 0 {
			g.b.WriteString("\t")
		} else {
			g.b.WriteString(", ")
		}
		fmt.Fprint(&g.b, a)
	}
	g.b.WriteString("\n")
}

// Scratch areas, byte offsets from DI.
func (g *gen) aoff(i, j int) int { return (i + j*g.n) * 32 }
func (g *gen) xoff() int         { return g.n * g.n * 32 }
func (g *gen) poff() int         { return g.xoff() + g.n*maxRHS*32 }
func (g *gen) roff() int         { return g.poff() + g.n*32 }
func (g *gen) doff() int         { return g.roff() + g.n*32 }
func (g *gen) frame() int        { return g.doff() + g.n*32 + 32 }

func (g *gen) a(i, j int) string { return fmt.Sprintf("%d(DI)", g.aoff(i, j)) }
func (g *gen) piv(k int) string  { return fmt.Sprintf("%d(DI)", g.poff()+32*k) }
func (g *gen) c(off int) string  { return fmt.Sprintf("tiny%s<>+%d(SB)", g.t.p, off) }
func y(i int) string             { return fmt.Sprintf("Y%d", i) }

func (g *gen) op(name string) string { return name + g.t.v }

// Registers: Y15 zero, Y14 one, Y13 ok mask (all ones while a lane is
// fine), Y12 finiteness accumulator (sum of x*0: NaN once any x is not
// finite), Y11 gather index, Y10 gather mask; Y0-Y9 work.

func (g *gen) prologue(name string) {
	fmt.Fprintf(&g.b, "\n// func %s%s%d(p *tinyArgs) (flags int)\n", g.t.p, name, g.n)
	fmt.Fprintf(&g.b, "TEXT ·%s%s%d(SB), 0, $%d-16\n", g.t.p, name, g.n, g.frame())
	g.ins("MOVQ", "p+0(FP)", "SI")
	g.ins("LEAQ", "31(SP)", "DI")
	g.ins("ANDQ", "$-32", "DI")
	g.consts()
}

// consts sets Y12-Y15 (after the float32 transposes, which use them).
func (g *gen) consts() {
	g.ins(g.op("VXOR"), "Y15", "Y15", "Y15")
	g.ins(g.op("VMOVU"), g.c(cOne), "Y14")
	g.ins("VPCMPEQD", "Y13", "Y13", "Y13")
	g.ins(g.op("VXOR"), "Y12", "Y12", "Y12")
}

// gatherIdx loads the lane offsets of operand a (b) into Y11.
func (g *gen) gatherIdx(b bool) {
	off := map[[2]bool]int{{false, false}: offAIX, {false, true}: offBIX, {true, false}: offAIX4, {true, true}: offBIX4}[[2]bool{g.t.size == 4, b}]
	g.ins("VMOVDQU", fmt.Sprintf("%d(SI)", off), "Y11")
}

func (g *gen) gather1(ptr string, dst string) {
	g.ins("VPCMPEQD", "Y10", "Y10", "Y10")
	if g.t.size == 8 {
		g.ins("VGATHERQPD", "Y10", fmt.Sprintf("(%s)(Y11*1)", ptr), "Y0")
	} else {
		g.ins("VGATHERDPS", "Y10", fmt.Sprintf("(%s)(Y11*1)", ptr), "Y0")
	}
	g.ins(g.op("VMOVA"), "Y0", dst)
}

// compactOK reports whether a lane group's n*n elements hold a vector
// (float32 n = 2 does not: the Go side never sets the compact modes).
func (g *gen) compactOK() bool { return g.n*g.n >= g.t.lanes }

// blocks returns the first elements of the runs of lanes consecutive
// elements that cover a compact matrix's n*n (the last one ending at n*n,
// overlapping the one before when lanes does not divide n*n).
func (g *gen) blocks() []int {
	nn, L := g.n*g.n, g.t.lanes
	var r []int
	for e := 0; e+L <= nn; e += L {
		r = append(r, e)
	}
	if nn%L != 0 {
		r = append(r, nn-L)
	}
	return r
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
	if g.t.size == 8 {
		g.ins("VUNPCKLPD", "Y1", "Y0", "Y4")
		g.ins("VUNPCKHPD", "Y1", "Y0", "Y5")
		g.ins("VUNPCKLPD", "Y3", "Y2", "Y6")
		g.ins("VUNPCKHPD", "Y3", "Y2", "Y7")
		g.ins("VPERM2F128", "$0x20", "Y6", "Y4", "Y0")
		g.ins("VPERM2F128", "$0x20", "Y7", "Y5", "Y1")
		g.ins("VPERM2F128", "$0x31", "Y6", "Y4", "Y2")
		g.ins("VPERM2F128", "$0x31", "Y7", "Y5", "Y3")
		return []string{"Y0", "Y1", "Y2", "Y3"}
	}
	for k := 0; k < 4; k++ {
		g.ins("VUNPCKLPS", y(2*k+1), y(2*k), y(8+2*k))
		g.ins("VUNPCKHPS", y(2*k+1), y(2*k), y(9+2*k))
	}
	for h := 0; h < 2; h++ { // rows 0-3, then 4-7
		t := 8 + 4*h
		g.ins("VSHUFPS", "$0x44", y(t+2), y(t), y(4*h))
		g.ins("VSHUFPS", "$0xEE", y(t+2), y(t), y(4*h+1))
		g.ins("VSHUFPS", "$0x44", y(t+3), y(t+1), y(4*h+2))
		g.ins("VSHUFPS", "$0xEE", y(t+3), y(t+1), y(4*h+3))
	}
	for k := 0; k < 4; k++ {
		g.ins("VPERM2F128", "$0x20", y(4+k), y(k), y(8+k))
		g.ins("VPERM2F128", "$0x31", y(4+k), y(k), y(12+k))
	}
	return []string{"Y8", "Y9", "Y10", "Y11", "Y12", "Y13", "Y14", "Y15"}
}

// compactLoad reads a compact lane group (AX its first element) with
// whole-vector loads, transposed in registers into the A area.
func (g *gen) compactLoad(trans bool) {
	nn := g.n * g.n
	for _, e0 := range g.blocks() {
		for l := 0; l < g.t.lanes; l++ {
			g.ins(g.op("VMOVU"), fmt.Sprintf("%d(AX)", (l*nn+e0)*g.t.size), y(l))
		}
		for q, r := range g.transpose() {
			i, j := g.elem(e0+q, trans)
			g.ins(g.op("VMOVA"), r, g.a(i, j))
		}
	}
	if g.t.size == 4 {
		g.consts()
	}
}

// compactStore writes the scratch elements off(i, j) where keep(i, j) to
// a compact lane group (AX), transposed back in registers; runs of
// elements not all kept are written element by element.
func (g *gen) compactStore(trans bool, off func(i, j int) int, keep func(i, j int) bool) {
	nn, L := g.n*g.n, g.t.lanes
	for _, e0 := range g.blocks() {
		kept := 0
		for q := 0; q < L; q++ {
			if keep(g.elem(e0+q, trans)) {
				kept++
			}
		}
		switch {
		case kept == 0:
		case kept == L:
			for q := 0; q < L; q++ {
				i, j := g.elem(e0+q, trans)
				g.ins(g.op("VMOVA"), fmt.Sprintf("%d(DI)", off(i, j)), y(q))
			}
			for l, r := range g.transpose() {
				g.ins(g.op("VMOVU"), r, fmt.Sprintf("%d(AX)", (l*nn+e0)*g.t.size))
			}
		default:
			for l := 0; l < L; l++ {
				for q := 0; q < L; q++ {
					if i, j := g.elem(e0+q, trans); keep(i, j) {
						g.ins(g.mov(), fmt.Sprintf("%d(DI)", off(i, j)+l*g.t.size), "R11")
						g.ins(g.mov(), "R11", fmt.Sprintf("%d(AX)", (l*nn+e0+q)*g.t.size))
					}
				}
			}
		}
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

// loadA reads a's lane group into the A area (lower: only i >= j is
// needed) by the call's mode.
func (g *gen) loadA(lower bool) {
	keep := all
	if lower {
		keep = func(i, j int) bool { return i >= j }
	}
	g.byMode(false, keep, g.compactLoad, func(i, j int, addr string) {
		g.ins(g.op("VMOVU"), addr, "Y0")
		g.ins(g.op("VMOVA"), "Y0", g.a(i, j))
	}, func() { g.gatherA(lower) })
}

// storeA writes the scratch elements off(i, j) where keep(i, j) to a's
// lanes whose bit in R13 is clear: whole vectors when no lane is flagged
// and the mode allows, else lane by lane.
func (g *gen) storeA(off func(i, j int) int, keep func(i, j int) bool) {
	g.byMode(true, keep, func(trans bool) { g.compactStore(trans, off, keep) }, func(i, j int, addr string) {
		g.ins(g.op("VMOVA"), fmt.Sprintf("%d(DI)", off(i, j)), "Y0")
		g.ins(g.op("VMOVU"), "Y0", addr)
	}, func() { g.storeLanes(offA, offARS, offACS, offAIX, g.n, false, off, keep) })
}

// byMode dispatches on the call's mode (BX) with AX a's lane group:
// compact(trans) for the compact modes, at(i, j, address) for each kept
// element of a group with batch stride 1, other when the mode gathers
// (and, for a store, when any lane is flagged: R13 not zero).
func (g *gen) byMode(store bool, keep func(i, j int) bool, compact func(trans bool), at func(i, j int, addr string), other func()) {
	otherL, contig, done := g.newLabel(), g.newLabel(), g.newLabel()
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offMode), "BX")
	if store {
		g.ins("TESTQ", "R13", "R13")
		g.ins("JNE", otherL)
	}
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offA), "AX")
	g.ins("CMPQ", "BX", fmt.Sprintf("$%d", modeGather))
	g.ins("JEQ", otherL)
	g.ins("CMPQ", "BX", fmt.Sprintf("$%d", modeContiguous))
	g.ins("JEQ", contig)
	if g.compactOK() {
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

// storeB writes the solutions (the X area, nrhs columns) to b's lanes
// whose bit in R13 is clear: whole vectors when no lane is flagged and
// b's lanes are consecutive, else lane by lane.
func (g *gen) storeB() {
	slow, done, loop := g.newLabel(), g.newLabel(), g.newLabel()
	g.ins("TESTQ", "R13", "R13")
	g.ins("JNE", slow)
	g.ins("CMPQ", fmt.Sprintf("%d(SI)", offBSeq), "$0")
	g.ins("JEQ", slow)
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offB), "AX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offBRS), "CX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offNRHS), "R9")
	g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.xoff()), "R10")
	fmt.Fprintf(&g.b, "%s:\n", loop)
	g.ins("MOVQ", "AX", "R8")
	for i := 0; i < g.n; i++ {
		g.ins(g.op("VMOVA"), fmt.Sprintf("%d(R10)", 32*i), "Y0")
		g.ins(g.op("VMOVU"), "Y0", "(R8)")
		if i < g.n-1 {
			g.ins("ADDQ", "CX", "R8")
		}
	}
	g.ins("ADDQ", fmt.Sprintf("%d(SI)", offBCS), "AX")
	g.ins("ADDQ", fmt.Sprintf("$%d", 32*g.n), "R10")
	g.ins("DECQ", "R9")
	g.ins("JNZ", loop)
	g.ins("JMP", done)
	fmt.Fprintf(&g.b, "%s:\n", slow)
	g.storeLanes(offB, offBRS, offBCS, offBIX, g.n, true, nil, nil)
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
	// do not follow.
	for l := 0; l < g.t.lanes; l++ {
		g.ins("MOVQ", fmt.Sprintf("%d(SI)", offPF), "R13")
		g.ins("ADDQ", fmt.Sprintf("%d(SI)", offAIX+8*l), "R13")
		g.ins("ADDQ", "AX", "R13")
		for j := 0; j < n; j++ {
			g.ins("PREFETCHT0", "(R13)")
			if j < n-1 {
				g.ins("ADDQ", "DX", "R13")
			}
		}
	}
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

// finite adds reg*0 to the finiteness accumulator.
func (g *gen) finite(reg string) { g.ins(g.op("VFMADD231"), "Y15", reg, "Y12") }

// okIf ands (x > 0) into the ok mask (false for NaN).
func (g *gen) okPositive(reg string) {
	g.ins(g.op("VCMP"), "$0x1e", "Y15", reg, "Y9")
	g.ins(g.op("VAND"), "Y9", "Y13", "Y13")
}

// cholesky factors the A area's lower triangle in place (left-looking, as
// LAPACK's potf2: a dot product for the diagonal, a gemv and a scaling by
// the reciprocal for the column below it).
func (g *gen) cholesky() {
	n := g.n
	for j := 0; j < n; j++ {
		g.ins(g.op("VMOVA"), g.a(j, j), "Y8")
		for k := 0; k < j; k++ {
			g.ins(g.op("VMOVA"), g.a(j, k), y(k))
			g.ins(g.op("VFNMADD231"), y(k), y(k), "Y8")
		}
		g.okPositive("Y8")
		g.ins(g.op("VSQRT"), "Y8", "Y8")
		g.ins(g.op("VMOVA"), "Y8", g.a(j, j))
		g.finite("Y8")
		if j == n-1 {
			break
		}
		g.ins(g.op("VDIV"), "Y8", "Y14", "Y10")
		for i := j + 1; i < n; i++ {
			g.ins(g.op("VMOVA"), g.a(i, j), "Y8")
			for k := 0; k < j; k++ {
				g.ins(g.op("VFNMADD231"), g.a(i, k), y(k), "Y8")
			}
			g.ins(g.op("VMUL"), "Y10", "Y8", "Y8")
			g.ins(g.op("VMOVA"), "Y8", g.a(i, j))
			g.finite("Y8")
		}
	}
}

// lu factors the A area in place with partial pivoting per lane (getf2:
// the first element of largest magnitude in the column, a swap of whole
// rows, scaling by the reciprocal of the pivot, a rank-1 update); piv(k)
// receives each lane's pivot row as a float. A zero pivot clears the
// lane's ok bit. With trailing set only the columns from k on are
// swapped: enough for the determinant, which reads U's diagonal alone.
func (g *gen) lu(trailing bool) {
	n := g.n
	g.ins(g.op("VMOVU"), g.c(cAbs), "Y10")
	for k := 0; k < n; k++ {
		// Pivot search: Y8 the largest magnitude, Y9 its row.
		g.ins(g.op("VAND"), g.a(k, k), "Y10", "Y8")
		g.ins(g.op("VMOVU"), g.c(cIdx+32*k), "Y9")
		for i := k + 1; i < n; i++ {
			g.ins(g.op("VAND"), g.a(i, k), "Y10", "Y7")
			g.ins(g.op("VCMP"), "$0x1e", "Y8", "Y7", "Y6")
			g.ins(g.op("VBLENDV"), "Y6", "Y7", "Y8", "Y8")
			g.ins(g.op("VBLENDV"), "Y6", g.c(cIdx+32*i), "Y9", "Y9")
		}
		g.ins(g.op("VCMP"), "$0x1e", "Y15", "Y8", "Y7")
		g.ins(g.op("VAND"), "Y7", "Y13", "Y13")
		g.ins(g.op("VMOVA"), "Y9", g.piv(k))
		if k == n-1 {
			break
		}
		// Swap rows k and piv in every lane: mask i-k-1 selects row i.
		for i := k + 1; i < n; i++ {
			g.ins(g.op("VCMP"), "$0", g.c(cIdx+32*i), "Y9", y(i-k-1))
		}
		j0 := 0
		if trailing {
			j0 = k
		}
		for j := j0; j < n; j++ {
			g.ins(g.op("VMOVA"), g.a(k, j), "Y7")
			g.ins(g.op("VMOVA"), "Y7", "Y8")
			for i := k + 1; i < n; i++ {
				m := y(i - k - 1)
				g.ins(g.op("VMOVA"), g.a(i, j), "Y9")
				g.ins(g.op("VBLENDV"), m, "Y9", "Y8", "Y8")
				g.ins(g.op("VBLENDV"), m, "Y7", "Y9", "Y9")
				g.ins(g.op("VMOVA"), "Y9", g.a(i, j))
			}
			g.ins(g.op("VMOVA"), "Y8", g.a(k, j))
		}
		// Scale the column below the pivot by its reciprocal.
		g.ins(g.op("VDIV"), g.a(k, k), "Y14", "Y7")
		for i := k + 1; i < n; i++ {
			g.ins(g.op("VMUL"), g.a(i, k), "Y7", y(i-k-1))
			g.ins(g.op("VMOVA"), y(i-k-1), g.a(i, k))
		}
		// Rank-1 update of the trailing matrix.
		for j := k + 1; j < n; j++ {
			g.ins(g.op("VMOVA"), g.a(k, j), "Y8")
			for i := k + 1; i < n; i++ {
				g.ins(g.op("VMOVA"), g.a(i, j), "Y9")
				g.ins(g.op("VFNMADD231"), "Y8", y(i-k-1), "Y9")
				g.ins(g.op("VMOVA"), "Y9", g.a(i, j))
			}
		}
	}
}

// luSolve solves with the LU factors for the column at R10 (getrs: the
// row swaps in order, L then U; backU's recip), checking the solution is
// finite.
func (g *gen) luSolve(recip bool) {
	n := g.n
	x := func(i int) string { return fmt.Sprintf("%d(R10)", 32*i) }
	for k := 0; k < n-1; k++ {
		g.ins(g.op("VMOVA"), g.piv(k), "Y9")
		for i := k + 1; i < n; i++ {
			g.ins(g.op("VCMP"), "$0", g.c(cIdx+32*i), "Y9", y(i-k-1))
		}
		g.ins(g.op("VMOVA"), x(k), "Y7")
		g.ins(g.op("VMOVA"), "Y7", "Y8")
		for i := k + 1; i < n; i++ {
			m := y(i - k - 1)
			g.ins(g.op("VMOVA"), x(i), "Y9")
			g.ins(g.op("VBLENDV"), m, "Y9", "Y8", "Y8")
			g.ins(g.op("VBLENDV"), m, "Y7", "Y9", "Y9")
			g.ins(g.op("VMOVA"), "Y9", x(i))
		}
		g.ins(g.op("VMOVA"), "Y8", x(k))
	}
	for i := 0; i < n; i++ {
		g.ins(g.op("VMOVA"), x(i), y(i))
	}
	for k := 0; k < n; k++ {
		for i := k + 1; i < n; i++ {
			g.ins(g.op("VFNMADD231"), g.a(i, k), y(k), y(i))
		}
	}
	g.backU(recip)
	for i := 0; i < n; i++ {
		g.finite(y(i))
		g.ins(g.op("VMOVA"), y(i), x(i))
	}
}

// recips leaves the reciprocals of U's diagonal in the D area, for the
// n substitutions of Inv and of the check's inverse (n divisions instead
// of n*n; LAPACK's trtri also inverts by the diagonal's reciprocals).
func (g *gen) recips() {
	for k := 0; k < g.n; k++ {
		g.ins(g.op("VDIV"), g.a(k, k), "Y14", "Y0")
		g.ins(g.op("VMOVA"), "Y0", fmt.Sprintf("%d(DI)", g.doff()+32*k))
	}
}

// backU solves U x = y for y in Y0..Y(n-1), U the A area's upper
// triangle, dividing by its diagonal or (recip) multiplying by the
// reciprocals recips left.
func (g *gen) backU(recip bool) {
	for k := g.n - 1; k >= 0; k-- {
		if recip {
			g.ins(g.op("VMUL"), fmt.Sprintf("%d(DI)", g.doff()+32*k), y(k), y(k))
		} else {
			g.ins(g.op("VDIV"), g.a(k, k), y(k), y(k))
		}
		for i := 0; i < k; i++ {
			g.ins(g.op("VFNMADD231"), g.a(i, k), y(k), y(i))
		}
	}
}

// cholSolve solves L L^T x = b for the column at R10, L the A area's lower
// triangle (potrs: two triangular solves dividing by the diagonal).
func (g *gen) cholSolve() {
	n := g.n
	x := func(i int) string { return fmt.Sprintf("%d(R10)", 32*i) }
	for i := 0; i < n; i++ {
		g.ins(g.op("VMOVA"), x(i), y(i))
	}
	for k := 0; k < n; k++ {
		g.ins(g.op("VDIV"), g.a(k, k), y(k), y(k))
		for i := k + 1; i < n; i++ {
			g.ins(g.op("VFNMADD231"), g.a(i, k), y(k), y(i))
		}
	}
	for k := n - 1; k >= 0; k-- {
		g.ins(g.op("VDIV"), g.a(k, k), y(k), y(k))
		for i := 0; i < k; i++ {
			g.ins(g.op("VFNMADD231"), g.a(k, i), y(k), y(i))
		}
	}
	for i := 0; i < n; i++ {
		g.finite(y(i))
		g.ins(g.op("VMOVA"), y(i), x(i))
	}
}

// checkDiag clears the ok bit of lanes whose factor diagonal is not
// positive and finite (lapack.Potrs's rule).
func (g *gen) checkDiag() {
	for k := 0; k < g.n; k++ {
		g.ins(g.op("VMOVA"), g.a(k, k), "Y8")
		g.okPositive("Y8")
		g.finite("Y8")
	}
}

// condNorms is where the conditioning check's norms go (p.cond, when
// set): four vectors of lanes, ||A||_1, ||A||_inf, ||A^-1||_1 and
// ||A^-1||_inf, A the matrix as read (before it is factored).
const (
	condA   = 0
	condInv = 64
)

// ifCond runs body when p.cond is set (AX then holds it).
func (g *gen) ifCond(body func()) {
	skip := g.newLabel()
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offCond), "AX")
	g.ins("TESTQ", "AX", "AX")
	g.ins("JEQ", skip)
	body()
	fmt.Fprintf(&g.b, "%s:\n", skip)
}

// norms writes the one and infinity norms of the n x n matrix whose
// element (i, j) is at el(i, j) to dst(AX) and dst+32(AX): column and
// row sums of magnitudes in order, as cond.Matrix.Norm takes them. Uses
// Y0-Y11.
func (g *gen) norms(el func(i, j int) string, dst int) {
	n := g.n
	g.ins(g.op("VMOVU"), g.c(cAbs), "Y10")
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			g.ins(g.op("VAND"), el(i, j), "Y10", "Y11")
			if i == 0 {
				g.ins(g.op("VMOVA"), "Y11", "Y8")
			} else {
				g.ins(g.op("VADD"), "Y11", "Y8", "Y8")
			}
			if j == 0 {
				g.ins(g.op("VMOVA"), "Y11", y(i))
			} else {
				g.ins(g.op("VADD"), "Y11", y(i), y(i))
			}
		}
		if j == 0 {
			g.ins(g.op("VMOVA"), "Y8", "Y9")
		} else {
			g.ins(g.op("VMAX"), "Y8", "Y9", "Y9")
		}
	}
	for i := 1; i < n; i++ {
		g.ins(g.op("VMAX"), y(i), "Y0", "Y0")
	}
	g.ins(g.op("VMOVU"), "Y9", fmt.Sprintf("%d(AX)", dst))
	g.ins(g.op("VMOVU"), "Y0", fmt.Sprintf("%d(AX)", dst+32))
}

// invNorms writes the norms of A^-1 (condInv) from the LU factors in the
// A area: column c of U^-1 L^-1 (A^-1 with its columns permuted, which
// changes neither norm) by forward and back substitution from e_c, its
// magnitudes summed into the column's sum and the row sums (scratch R).
func (g *gen) invNorms() {
	n := g.n
	r := func(i int) string { return fmt.Sprintf("%d(DI)", g.roff()+32*i) }
	g.recips()
	for c := 0; c < n; c++ {
		for i := 0; i < n; i++ {
			src := "Y15"
			if i == c {
				src = "Y14"
			}
			g.ins(g.op("VMOVA"), src, y(i))
		}
		for k := c; k < n; k++ {
			for i := k + 1; i < n; i++ {
				g.ins(g.op("VFNMADD231"), g.a(i, k), y(k), y(i))
			}
		}
		g.backU(true)
		g.ins(g.op("VMOVU"), g.c(cAbs), "Y10")
		for i := 0; i < n; i++ {
			g.ins(g.op("VAND"), y(i), "Y10", y(i))
			if i == 0 {
				g.ins(g.op("VMOVA"), y(i), "Y8")
			} else {
				g.ins(g.op("VADD"), y(i), "Y8", "Y8")
			}
			if c > 0 {
				g.ins(g.op("VADD"), r(i), y(i), y(i))
			}
			g.ins(g.op("VMOVA"), y(i), r(i))
		}
		if c == 0 {
			g.ins(g.op("VMOVA"), "Y8", "Y9")
		} else {
			g.ins(g.op("VMAX"), "Y8", "Y9", "Y9")
		}
	}
	g.ins(g.op("VMOVA"), r(0), "Y0")
	for i := 1; i < n; i++ {
		g.ins(g.op("VMAX"), r(i), "Y0", "Y0")
	}
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offCond), "AX")
	g.ins(g.op("VMOVU"), "Y9", fmt.Sprintf("%d(AX)", condInv))
	g.ins(g.op("VMOVU"), "Y0", fmt.Sprintf("%d(AX)", condInv+32))
}

// flags leaves the flagged lanes' bits in R13 and returns it.
func (g *gen) flags() {
	g.ins(g.op("VCMP"), "$3", "Y12", "Y12", "Y0")
	g.ins(g.op("VMOVMSK"), "Y13", "R12")
	g.ins(g.op("VMOVMSK"), "Y0", "R13")
	g.ins("NOTQ", "R12")
	g.ins("ANDQ", fmt.Sprintf("$%d", 1<<g.t.lanes-1), "R12")
	g.ins("ORQ", "R12", "R13")
	g.ins("MOVQ", "R13", "flags+8(FP)")
}

func (g *gen) newLabel() string {
	g.label++
	return fmt.Sprintf("l%d", g.label)
}

func (g *gen) mov() string {
	if g.t.size == 8 {
		return "MOVQ"
	}
	return "MOVL"
}

// storeLanes stores, for every lane whose bit in R13 is clear, the
// elements of the scratch area sel(i, j) (at scratch offset off(i, j),
// n x n, only where keep(i, j); or rows x nrhs, the runtime count, when
// colsReg is set: then the scratch columns are n*32 apart) to the operand
// at ptrOff with strides rsOff, csOff and lane offsets ixOff.
func (g *gen) storeLanes(ptrOff, rsOff, csOff, ixOff int, rows int, colsReg bool, off func(i, j int) int, keep func(i, j int) bool) {
	for l := 0; l < g.t.lanes; l++ {
		skip := g.newLabel()
		g.ins("BTQ", fmt.Sprintf("$%d", l), "R13")
		g.ins("JCS", skip)
		g.ins("MOVQ", fmt.Sprintf("%d(SI)", ptrOff), "AX")
		g.ins("ADDQ", fmt.Sprintf("%d(SI)", ixOff+8*l), "AX")
		g.ins("MOVQ", fmt.Sprintf("%d(SI)", rsOff), "CX")
		g.ins("MOVQ", fmt.Sprintf("%d(SI)", csOff), "DX")
		if colsReg {
			// One column at a time: R10 the scratch column, R9 counts.
			loop := g.newLabel()
			g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.xoff()+l*g.t.size), "R10")
			g.ins("MOVQ", fmt.Sprintf("%d(SI)", offNRHS), "R9")
			fmt.Fprintf(&g.b, "%s:\n", loop)
			g.ins("MOVQ", "AX", "R8")
			for i := 0; i < rows; i++ {
				g.ins(g.mov(), fmt.Sprintf("%d(R10)", 32*i), "R11")
				g.ins(g.mov(), "R11", "(R8)")
				if i < rows-1 {
					g.ins("ADDQ", "CX", "R8")
				}
			}
			g.ins("ADDQ", "DX", "AX")
			g.ins("ADDQ", fmt.Sprintf("$%d", 32*g.n), "R10")
			g.ins("DECQ", "R9")
			g.ins("JNZ", loop)
		} else {
			g.contiguous(keep, func(i, j int, addr string) {
				g.ins(g.mov(), fmt.Sprintf("%d(DI)", off(i, j)+l*g.t.size), "R11")
				g.ins(g.mov(), "R11", addr)
			})
		}
		fmt.Fprintf(&g.b, "%s:\n", skip)
	}
}

func (g *gen) epilogue() {
	g.ins("VZEROUPPER")
	g.ins("RET")
}

func all(i, j int) bool { return true }

// rhsLoop runs body for every right-hand side column of b (nrhs of them,
// nrhs >= 1), gathered into the X area, R10 pointing at the column.
func (g *gen) rhsLoop(body func()) {
	n := g.n
	loop := g.newLabel()
	g.gatherIdx(true)
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offB), "BX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offBRS), "CX")
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offNRHS), "R9")
	g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.xoff()), "R10")
	fmt.Fprintf(&g.b, "%s:\n", loop)
	seq, loaded := g.newLabel(), g.newLabel()
	g.ins("MOVQ", "BX", "R8")
	g.ins("CMPQ", fmt.Sprintf("%d(SI)", offBSeq), "$0")
	g.ins("JNE", seq)
	for i := 0; i < n; i++ {
		g.gather1("R8", fmt.Sprintf("%d(R10)", 32*i))
		if i < n-1 {
			g.ins("ADDQ", "CX", "R8")
		}
	}
	g.ins("JMP", loaded)
	fmt.Fprintf(&g.b, "%s:\n", seq)
	for i := 0; i < n; i++ {
		g.ins(g.op("VMOVU"), "(R8)", "Y0")
		g.ins(g.op("VMOVA"), "Y0", fmt.Sprintf("%d(R10)", 32*i))
		if i < n-1 {
			g.ins("ADDQ", "CX", "R8")
		}
	}
	fmt.Fprintf(&g.b, "%s:\n", loaded)
	body()
	g.ins("ADDQ", fmt.Sprintf("%d(SI)", offBCS), "BX")
	g.ins("ADDQ", fmt.Sprintf("$%d", 32*n), "R10")
	g.ins("DECQ", "R9")
	g.ins("JNZ", loop)
}

func (g *gen) chol() {
	g.prologue("chol")
	g.loadA(true)
	g.cholesky()
	g.flags()
	g.storeA(g.aoff, func(i, j int) bool { return i >= j })
	g.epilogue()
}

func (g *gen) cholsolve() {
	g.prologue("cholsolve")
	g.loadA(true)
	g.checkDiag()
	g.rhsLoop(g.cholSolve)
	g.flags()
	g.storeB()
	g.epilogue()
}

func (g *gen) solve() {
	g.prologue("solve")
	g.loadA(false)
	g.ifCond(func() { g.norms(g.a, condA) })
	g.lu(false)
	g.rhsLoop(func() { g.luSolve(false) })
	g.ifCond(g.invNorms)
	g.flags()
	g.storeA(g.aoff, all)
	g.storeB()
	g.epilogue()
}

func (g *gen) inv() {
	n := g.n
	g.prologue("inv")
	g.loadA(false)
	g.ifCond(func() { g.norms(g.a, condA) })
	g.lu(false)
	g.recips()
	for c := 0; c < n; c++ {
		g.ins("LEAQ", fmt.Sprintf("%d(DI)", g.xoff()+c*n*32), "R10")
		for i := 0; i < n; i++ {
			src := "Y15"
			if i == c {
				src = "Y14"
			}
			g.ins(g.op("VMOVA"), src, fmt.Sprintf("%d(R10)", 32*i))
		}
		g.luSolve(true)
	}
	g.ifCond(func() { g.norms(func(i, j int) string { return fmt.Sprintf("%d(DI)", g.xoff()+(i+j*n)*32) }, condInv) })
	g.flags()
	g.storeA(func(i, j int) int { return g.xoff() + (i+j*n)*32 }, all)
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
	g.ins(g.op("VMOVA"), "Y14", "Y0")
	for k := 0; k < g.n; k++ {
		g.ins(g.op("VMUL"), g.a(k, k), "Y0", "Y0")
		g.ins(g.op("VAND"), g.c(cAbs), "Y0", "Y1")
		g.ins(g.op("VCMP"), "$0x1d", g.c(cTiny), "Y1", "Y2")
		g.ins(g.op("VAND"), "Y2", "Y13", "Y13")
		g.ins(g.op("VCMP"), "$0x12", g.c(cHuge), "Y1", "Y2")
		g.ins(g.op("VAND"), "Y2", "Y13", "Y13")
		if k < g.n-1 {
			g.ins(g.op("VMOVA"), g.piv(k), "Y3")
			g.ins(g.op("VCMP"), "$0x0c", g.c(cIdx+32*k), "Y3", "Y2")
			g.ins(g.op("VAND"), g.c(cSign), "Y2", "Y2")
			g.ins(g.op("VXOR"), "Y2", "Y0", "Y0")
		}
	}
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", offDet), "AX")
	g.ins(g.op("VMOVU"), "Y0", "(AX)")
	g.flags()
	g.epilogue()
}

func constants(b *bytes.Buffer, t typ) {
	name := "tiny" + t.p + "<>"
	off := 0
	put := func(bits uint64) {
		for l := 0; l < t.lanes; l++ {
			fmt.Fprintf(b, "DATA %s+%d(SB)/%d, $0x%x\n", name, off, t.size, bits)
			off += t.size
		}
	}
	if t.size == 8 {
		put(0x7fffffffffffffff)
		put(0x8000000000000000)
		put(0x0010000000000000) // smallest normal
		put(0x7fefffffffffffff) // largest finite
		put(0x3ff0000000000000) // 1
		for i := 0; i < 8; i++ {
			put(f64bits(float64(i)))
		}
	} else {
		put(0x7fffffff)
		put(0x80000000)
		put(0x00800000)
		put(0x7f7fffff)
		put(0x3f800000)
		for i := 0; i < 8; i++ {
			put(uint64(f32bits(float32(i))))
		}
	}
	fmt.Fprintf(b, "GLOBL %s(SB), RODATA|NOPTR, $%d\n", name, off)
}

const minN, maxN = 2, 8

var ops = []struct {
	name string
	emit func(*gen)
}{
	{"chol", (*gen).chol},
	{"cholsolve", (*gen).cholsolve},
	{"solve", (*gen).solve},
	{"inv", (*gen).inv},
	{"det", (*gen).det},
}

func main() {
	var s bytes.Buffer
	s.WriteString("// Code generated by internal/kernel/internal/gentiny; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n\n")
	var gf bytes.Buffer
	gf.WriteString("// Code generated by internal/kernel/internal/gentiny; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage kernel\n\n")
	for _, t := range types {
		constants(&s, t)
		for _, o := range ops {
			for n := minN; n <= maxN; n++ {
				g := &gen{t: t, n: n}
				o.emit(g)
				s.Write(g.b.Bytes())
				fmt.Fprintf(&gf, "//go:noescape\nfunc %s%s%d(p *tinyArgs) (flags int)\n\n", t.p, o.name, n)
			}
		}
	}
	gf.WriteString("// The kernels by type, operation and order.\nvar tinyAsm = [2][nTinyOps][maxTiny + 1]func(*tinyArgs) int{\n")
	for _, t := range types {
		gf.WriteString("\t{\n")
		for _, o := range ops {
			gf.WriteString("\t\t{")
			for n := minN; n <= maxN; n++ {
				fmt.Fprintf(&gf, "%d: %s%s%d, ", n, t.p, o.name, n)
			}
			gf.WriteString("},\n")
		}
		gf.WriteString("\t},\n")
	}
	gf.WriteString("}\n")
	src, err := format.Source(gf.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("tiny_amd64.s", s.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("tiny_amd64_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}

func f64bits(x float64) uint64 { return math.Float64bits(x) }
func f32bits(x float32) uint32 { return math.Float32bits(x) }
