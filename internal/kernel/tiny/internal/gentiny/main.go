// Command gentiny writes tiny_amd64.s and tiny_amd64_gen.go: the AVX2/FMA
// kernels that run one small-matrix operation (orders 2 to 8) on as many
// matrices at once as a YMM register has lanes, one matrix per lane (4
// float64 or 8 float32), and their AVX-512 versions (ZMM: 8 float64 or
// 16 float32 lanes, orders 3 to 8; opmasks for the pivot choice, the row
// swaps, the ok mask's updates and a float32 order 3 compact group's
// rows of 9 elements). Run by `go generate ./internal/kernel/tiny`;
// scripts/test.sh fails when the checked-in files differ from its output.
//
// Each kernel works for one order n: the matrices' lanes are read into a
// 32-byte aligned scratch area in the frame, where element (i, j) of
// every lane is one vector, by the call's mode (whole vectors transposed
// in registers for a compact run, except the short rows tail and
// byElement gather and scatter, one vector per element for batch stride
// 1, VGATHERQPD / VGATHERDPS for any strides); the algorithm runs on
// those vectors; the lanes that are not flagged are then stored back the
// same way (lane by lane with scalar moves, in a loop over the lanes,
// when any lane is flagged or the mode gathers). Solve and Inv also
// write the norms of each matrix and of its inverse for the
// conditioning check when asked (Solve's exact ones only where a
// cheaper upper bound leaves a candidate: invBound), and return the
// lanes the check must look at. A lane is flagged (bit l of the result)
// when its computation met anything the slow path must handle (a zero
// or non-positive pivot, a non-finite result, a determinant outside the
// normal range); flagged lanes write nothing.
//
// The arithmetic is unrolled over the rows and columns of the order,
// except where a loop costs nothing measurable and saves most of the
// code: from order loopN on, LU factorizations loop over the pivot
// columns (pstep: the step for column k is one loop body, k in BX and
// its column's addresses in registers that follow it, the rows below
// the pivot unrolled), and Inv loops over the inverse's columns.
//
// Moving data is not inlined: each kernel CALLs the shared routines of
// its type and order, one TEXT each (file-local, NOSPLIT|NOFRAME, no Go
// declaration), emitted once however many kernels use them (and once
// for both AVX-512 float64 sets where their code is the same):
//
//	loadC, loadCT a's compact lane group (AX), as stored or transposed,
//	              into the A area (p.mode compact, compact transposed)
//	loadA, loadL  a's lane group (loadL: its lower triangle) into the A
//	              area by p.mode otherwise: gathered, or batch stride 1
//	storeA        the n x n vectors at R10 (the A area, or Inv's X
//	              area) to p.aout, by p.mode
//	loadB         one column of b (R8, row stride CX) into the X area's
//	              column at R10, by p.bseq
//
// Their calling convention: SI holds the kernel's *tinyArgs and DI its
// scratch area, and both are kept; the other inputs are where the list
// says, and R13 holds the flagged lanes for storeA. A routine may
// clobber AX, BX, CX, DX, R8-R13 and every vector and opmask register
// but the kernel's state in Y12-Y15 (the finiteness accumulator, the ok
// mask, one and zero), with these exceptions: loadB keeps the state
// (keepState around the float32 transposes, which need every register)
// and BX, R9 and R10 (rhsLoop's), clobbering R8 and R11 only; the loads
// of a run first and leave the state as the prologue sets it (consts);
// storeA runs last and may clobber it. The kernel checks p.aout for nil
// before it calls storeA (ifSet). Two stores are inline in their
// kernels instead, where a CALL was measured to cost time: b's (storeB,
// in solve and cholsolve) and Cholesky's lower triangle (in chol, the
// only operation that stores one: storeAt).

package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"math"
	"os"
	"strings"
)

type typ struct {
	p     string // "d", "s" or "dz": the Go name prefix
	size  int    // bytes per element
	lanes int    // elements per vector register
	v     string // packed instruction suffix: PD or PS
	goT   string
	wide  bool // AVX-512: ZMM registers, opmasks K1-K7
	minN  int  // the smallest order with a kernel
	// noScatter makes the kernels for CPUs whose scatters and short
	// gathers are slow (AMD Zen): right-hand sides are transposed like
	// any rows (no byElement), and a's odd last element is gathered on
	// load but stored by an overlapping block (tail). Named with a "t"
	// after p ("dzt": transposes); where this changes nothing, the
	// table names the other kernel.
	noScatter bool
}

// fn is the prefix of the type's kernel names.
func (t typ) fn() string {
	if t.noScatter {
		return t.p + "t"
	}
	return t.p
}

// The kernels' element types and instruction sets: AVX2/FMA float64 and
// float32 (YMM) and AVX-512 float64 and float32 (ZMM, "dz" and "sz"),
// from order 3 (order 2 keeps the AVX2 kernels: its lanes' few
// operations would not pay for the wider transposes), and AVX-512
// float64 without scatters ("dzt"; float32 has none to leave out).
var (
	avx2D   = typ{p: "d", size: 8, lanes: 4, v: "PD", goT: "float64", minN: minN}
	avx2S   = typ{p: "s", size: 4, lanes: 8, v: "PS", goT: "float32", minN: minN}
	avx512D = typ{p: "dz", size: 8, lanes: 8, v: "PD", goT: "float64", wide: true, minN: 3}
	avx512S = typ{p: "sz", size: 4, lanes: 16, v: "PS", goT: "float32", wide: true, minN: 3}

	avx512DNoScatter = func() typ { t := avx512D; t.noScatter = true; return t }()

	types = []typ{avx2D, avx2S, avx512D, avx512S, avx512DNoScatter}
)

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
	offAIX  = 64  // [16]int64 lane byte offsets of a
	offBIX  = 192 // [16]int64 of b
	offAIX4 = 320 // [16]int32 of a
	offBIX4 = 384 // [16]int32 of b
	offPF   = 448 // byte distance from a's lanes to the matrices to prefetch
	offCond = 456 // nil, or where Solve and Inv write the norms (condNorms)
	offMode = 464 // how a's lanes are read and written (modeGather...)
	offBSeq = 472 // how b's lanes are read and written (bGather...)
	offThr  = 480 // kernels with cond: the check's threshold (candidates)
	offInf  = 488 // 1: the check takes infinity norms
	offAOut = 496 // where a's results go (a's strides and lane offsets): a itself in place, nil for none (Solve's factors unwanted)
	offBOut = 504 // where b's results go (b's strides and lane offsets): b itself in place, nil for none
	offZero = 512 // chol: 1 writes zeros to the strict upper triangle too
)

// Modes of reading and writing a's lanes (offMode), set per call by the
// Go side for a full lane group.
const (
	modeGather     = 0 // VGATHER, any strides; stores lane by lane
	modeCompact    = 1 // compact column-major: the lanes' n*n elements one after another
	modeCompactT   = 2 // the same, read as the transpose (row-major storage)
	modeContiguous = 3 // batch stride 1: element (i, j) of the lanes is one vector
)

// Values of offBSeq: how b's lanes are read and written.
const (
	bGather = 0 // VGATHER, any strides; stored lane by lane
	bSeq    = 1 // batch stride 1: element i of the lanes is one vector
	bRows   = 2 // AVX-512, nrhs = 1: each lane's n elements one after another (a compact [n, 1, B]), as rows (rowsLoad)
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

// gen emits one TEXT block (a kernel or a shared routine) for type t and
// order n into b; out collects the file.
type gen struct {
	b     bytes.Buffer
	t     typ
	n     int
	label int
	out   *output
}

// output is tiny_amd64.s as it is written, and the shared routines in it
// by their code (routine), so that a routine whose code another type's
// (AVX-512 float64 with and without scatters) or kind's already has is
// emitted once and called by that name.
type output struct {
	s        bytes.Buffer
	routines map[string]string // kind, order and code -> name
	kernels  map[string]string // code with the name replaced -> name
}

// routine returns the name of the shared routine of kind (loadA,
// storeB...) for g's type and order whose code body emits, emitting it
// first unless an identical one exists. A routine is a file-local TEXT
// without a frame or Go declaration, CALLed by the kernels with the
// registers of the calling convention (package comment) and ending in
// RET; doc says what it does and which registers it takes.
func (g *gen) routine(kind, doc string, body func(h *gen)) string {
	h := &gen{t: g.t, n: g.n, out: g.out}
	body(h)
	h.ins("RET")
	key := fmt.Sprintf("%s%d\n%s", kind, g.n, h.b.String())
	if name, ok := g.out.routines[key]; ok {
		return name
	}
	name := fmt.Sprintf("%s%s%d<>", g.t.fn(), kind, g.n)
	g.out.routines[key] = name
	fmt.Fprintf(&g.out.s, "\n// %s: %s\nTEXT %s(SB), NOSPLIT|NOFRAME, $0-0\n", name, doc, name)
	g.out.s.Write(h.b.Bytes())
	return name
}

// call calls the shared routine name (routine).
func (g *gen) call(name string) { g.ins("CALL", name+"(SB)") }

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
func (g *gen) aoff(i, j int) int { return (i + j*g.n) * g.vb() }
func (g *gen) xoff() int         { return g.n * g.n * g.vb() }
func (g *gen) poff() int         { return g.xoff() + g.n*maxRHS*g.vb() }
func (g *gen) roff() int         { return g.poff() + g.n*g.vb() }
func (g *gen) doff() int         { return g.roff() + g.n*g.vb() }
func (g *gen) soff() int         { return g.doff() + g.n*g.vb() } // Y12, Y13 saved (keepState)
func (g *gen) frame() int        { return g.soff() + 2*g.vb() + g.vb() }

// vb is the bytes of a vector register.
func (g *gen) vb() int { return g.t.size * g.t.lanes }

// y names vector register i (Yi, or Zi for AVX-512).
func (g *gen) y(i int) string {
	if g.t.wide {
		return fmt.Sprintf("Z%d", i)
	}
	return fmt.Sprintf("Y%d", i)
}

func (g *gen) a(i, j int) string { return fmt.Sprintf("%d(DI)", g.aoff(i, j)) }
func (g *gen) piv(k int) string  { return fmt.Sprintf("%d(DI)", g.poff()+g.vb()*k) }
func (g *gen) c(off int) string  { return fmt.Sprintf("tiny%s<>+%d(SB)", g.t.p, off*g.vb()/32) }

func (g *gen) op(name string) string { return name + g.t.v }

// k names the opmask instruction name for the type's lanes: KMOVB,
// KNOTB... for 8 lanes, KMOVW, KNOTW... for 16.
func (g *gen) k(name string) string {
	if g.t.lanes > 8 {
		return name + "W"
	}
	return name + "B"
}

// Registers: Y15 zero, Y14 one, Y13 ok mask (all ones while a lane is
// fine), Y12 finiteness accumulator (sum of x*0: NaN once any x is not
// finite), Y11 gather index, Y10 gather mask; Y0-Y9 work. AVX-512 uses
// the same numbers as Z registers, K1 for the gather mask and the
// comparisons, K1-K7 for the row swaps, and Z16-Z31 in its transposes.

func (g *gen) prologue(name string) {
	fmt.Fprintf(&g.b, "\n// func %s%s%d(p *tinyArgs) (flags int)\n", g.t.fn(), name, g.n)
	fmt.Fprintf(&g.b, "TEXT ·%s%s%d(SB), 0, $%d-16\n", g.t.fn(), name, g.n, g.frame())
	g.ins("MOVQ", "p+0(FP)", "SI")
	g.ins("LEAQ", fmt.Sprintf("%d(SP)", g.vb()-1), "DI")
	g.ins("ANDQ", fmt.Sprintf("$-%d", g.vb()), "DI")
	g.consts()
}

// consts sets Y12-Y15 (after the float32 transposes, which use them).
func (g *gen) consts() {
	g.ins(g.op("VXOR"), g.y(15), g.y(15), g.y(15))
	g.ins(g.op("VMOVU"), g.c(cOne), g.y(14))
	if g.t.wide {
		g.ins("VPTERNLOGD", "$0xff", g.y(13), g.y(13), g.y(13))
	} else {
		g.ins("VPCMPEQD", g.y(13), g.y(13), g.y(13))
	}
	g.ins(g.op("VXOR"), g.y(12), g.y(12), g.y(12))
}

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

// finite adds reg*0 to the finiteness accumulator.
func (g *gen) finite(reg string) { g.ins(g.op("VFMADD231"), g.y(15), reg, g.y(12)) }

// okIf ands (x > 0) into the ok mask (false for NaN).
func (g *gen) okPositive(reg string) {
	g.okIf("$0x1e", g.y(15), reg, g.y(9))
}

// okIf ands the comparison pred of reg with src (VCMP's order) into the
// ok mask, through register tmp; AVX-512 compares into K1 instead and
// zeroes the lanes that fail.
func (g *gen) okIf(pred, src, reg, tmp string) {
	if g.t.wide {
		g.ins(g.op("VCMP"), pred, src, reg, "K1")
		g.ins(g.k("KNOT"), "K1", "K1")
		g.ins(g.op("VMOVA"), "Z15", "K1", "Z13")
		return
	}
	g.ins(g.op("VCMP"), pred, src, reg, tmp)
	g.ins(g.op("VAND"), tmp, g.y(13), g.y(13))
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

// pivot applies LU's row swaps (piv), in order, to the n vectors at
// row(i).
func (g *gen) pivot(row func(i int) string) {
	for k := 0; k < g.n-1; k++ {
		g.ins(g.op("VMOVA"), g.piv(k), g.y(9))
		g.swapMasks(k)
		g.swap(k, row(k), row)
	}
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

// d is the D area's vector k: the reciprocal of diagonal element k.
func (g *gen) d(k int) string { return fmt.Sprintf("%d(DI)", g.doff()+g.vb()*k) }

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

// condNorms is where the conditioning check's norms go (p.cond, when
// set): four vectors of lanes, ||A||_1, ||A||_inf, ||A^-1||_1 and
// ||A^-1||_inf, A the matrix as read (before it is factored).
const (
	condA   = 0 // vectors from p.cond
	condInv = 2
)

// ifCond runs body when p.cond is set (AX then holds it).
func (g *gen) ifCond(body func()) { g.ifSet(offCond, body) }

// ifSet runs body when the pointer at offset off of the arguments is not
// nil (AX then holds it): the check, and a result that has somewhere to
// go (p.aout, p.bout).
func (g *gen) ifSet(off int, body func()) {
	skip := g.newLabel()
	g.ins("MOVQ", fmt.Sprintf("%d(SI)", off), "AX")
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

// flags leaves the flagged lanes' bits in R13 and returns it.
func (g *gen) flags() {
	if g.t.wide {
		g.ins(g.op("VCMP"), "$3", "Z12", "Z12", "K1")
		g.ins(map[int]string{8: "VPTESTMQ", 4: "VPTESTMD"}[g.t.size], "Z13", "Z13", "K2")
		g.ins(g.k("KMOV"), "K2", "R12")
		g.ins(g.k("KMOV"), "K1", "R13")
	} else {
		g.ins(g.op("VCMP"), "$3", g.y(12), g.y(12), g.y(0))
		g.ins(g.op("VMOVMSK"), g.y(13), "R12")
		g.ins(g.op("VMOVMSK"), g.y(0), "R13")
	}
	g.ins("NOTQ", "R12")
	g.ins("ANDQ", fmt.Sprintf("$%d", 1<<g.t.lanes-1), "R12")
	g.ins("ORQ", "R12", "R13")
	g.ins("MOVQ", "R13", "flags+8(FP)")
}

// mark places label l.
func (g *gen) mark(l string) { fmt.Fprintf(&g.b, "%s:\n", l) }

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

func (g *gen) epilogue() {
	g.ins("VZEROUPPER")
	g.ins("RET")
}

func all(i, j int) bool { return true }

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

// xrow is where element e of a single right-hand side is in the X area
// (bytes from DI).
func (g *gen) xrow(e int) int { return g.xoff() + e*g.vb() }

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
	if t.wide && t.size == 8 {
		// The lane numbers (rowIdx).
		for l := 0; l < t.lanes; l++ {
			fmt.Fprintf(b, "DATA tinydzlanes<>+%d(SB)/8, $%d\n", 8*l, l)
		}
		fmt.Fprintf(b, "GLOBL tinydzlanes<>(SB), RODATA|NOPTR, $%d\n", 8*t.lanes)
	}
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
	out := &output{routines: map[string]string{}, kernels: map[string]string{}}
	s := &out.s
	s.WriteString("// Code generated by internal/kernel/tiny/internal/gentiny; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n\n")
	var gf bytes.Buffer
	gf.WriteString("// Code generated by internal/kernel/tiny/internal/gentiny; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage tiny\n\n")
	// kernel holds the kernel each table entry names: a noScatter
	// kernel whose code is its type's other kernel's is not written, and
	// its table names that one.
	kernel := map[string]string{}
	for _, t := range types {
		if !t.noScatter {
			constants(s, t) // a noScatter type shares its type's
		}
		for _, o := range ops {
			for n := t.minN; n <= maxN; n++ {
				g := &gen{t: t, n: n, out: out}
				o.emit(g)
				name := fmt.Sprintf("%s%s%d", t.fn(), o.name, n)
				code := strings.NewReplacer("func "+name+"(", "func KERNEL(", "·"+name+"(", "·KERNEL(").Replace(g.b.String())
				if prev, ok := out.kernels[code]; ok {
					kernel[name] = prev
					continue
				}
				out.kernels[code] = name
				kernel[name] = name
				s.Write(g.b.Bytes())
				fmt.Fprintf(&gf, "//go:noescape\nfunc %s(p *tinyArgs) (flags int)\n\n", name)
			}
		}
	}
	table := func(t typ) {
		for _, o := range ops {
			gf.WriteString("\t\t{")
			for n := t.minN; n <= maxN; n++ {
				fmt.Fprintf(&gf, "%d: %s, ", n, kernel[fmt.Sprintf("%s%s%d", t.fn(), o.name, n)])
			}
			gf.WriteString("},\n")
		}
	}
	for _, v := range []struct {
		doc, name string
		types     []typ
	}{
		{"The AVX2/FMA kernels by type, operation and order.", "tinyAsm", []typ{avx2D, avx2S}},
		{"The AVX-512 kernels by type, operation and order (8 float64 or 16\n// float32 lanes; none of order 2).", "tinyAsm512", []typ{avx512D, avx512S}},
		{"The AVX-512 kernels without scatters (noScatter: for AMD Zen),\n// as tinyAsm512.", "tinyAsm512NoScatter", []typ{avx512DNoScatter, avx512S}},
	} {
		fmt.Fprintf(&gf, "\n// %s\nvar %s = [2][nTinyOps][maxTiny + 1]func(*tinyArgs) int{\n", v.doc, v.name)
		for _, t := range v.types {
			gf.WriteString("\t{\n")
			table(t)
			gf.WriteString("\t},\n")
		}
		gf.WriteString("}\n")
	}
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
