// Where a kernel's data is: the tinyArgs fields and the modes they
// hold, the scratch areas in the frame, the constant table, and the
// kernel's state registers (the ok mask, the finiteness accumulator)
// from the prologue to the flags it returns.

package main

import (
	"bytes"
	"fmt"
	"math"
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

	// The kernel's loop over full lane groups (loop): how many it has
	// left to run (decremented after each), and the bytes by which a,
	// aout, b, bout and det advance from one to the next (0 for one that
	// stays, such as a nil pointer).
	offGroups = 520
	offAStep  = 528
	offAOStep = 536
	offBStep  = 544
	offBOStep = 552
	offDStep  = 560
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

// maxRHS is the most right-hand sides Solve and CholeskySolve take in one
// call (the scratch holds their solutions until the flags are known).
const maxRHS = 8

// Scratch areas, byte offsets from DI.
func (g *gen) aoff(i, j int) int { return (i + j*g.n) * g.vb() }
func (g *gen) xoff() int         { return g.n * g.n * g.vb() }
func (g *gen) poff() int         { return g.xoff() + g.n*maxRHS*g.vb() }
func (g *gen) roff() int         { return g.poff() + g.n*g.vb() }
func (g *gen) doff() int         { return g.roff() + g.n*g.vb() }
func (g *gen) soff() int         { return g.doff() + g.n*g.vb() } // Y12, Y13 saved (keepState)
func (g *gen) frame() int        { return g.soff() + 2*g.vb() + g.vb() }

func (g *gen) a(i, j int) string { return fmt.Sprintf("%d(DI)", g.aoff(i, j)) }
func (g *gen) piv(k int) string  { return fmt.Sprintf("%d(DI)", g.poff()+g.vb()*k) }
func (g *gen) c(off int) string  { return fmt.Sprintf("tiny%s<>+%d(SB)", g.t.p, off*g.vb()/32) }

// d is the D area's vector k: the reciprocal of diagonal element k.
func (g *gen) d(k int) string { return fmt.Sprintf("%d(DI)", g.doff()+g.vb()*k) }

// xrow is where element e of a single right-hand side is in the X area
// (bytes from DI).
func (g *gen) xrow(e int) int { return g.xoff() + e*g.vb() }

// Constant table offsets (per type, 32 bytes each).
const (
	cAbs  = 0
	cSign = 32
	cTiny = 64
	cHuge = 96
	cOne  = 128
	cIdx  = 160 // + 32*i: the vector of i as a float
)

// constants writes type t's constant table (tiny<p><>, at the offsets
// above) to b, and for AVX-512 float64 the lane numbers (tinydzlanes).
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

func f64bits(x float64) uint64 { return math.Float64bits(x) }
func f32bits(x float32) uint32 { return math.Float32bits(x) }

// prologue starts kernel name's TEXT: SI the arguments, DI the scratch
// area aligned to a vector, the state registers set (consts). It is also
// the top of the loop over lane groups (epilogue).
func (g *gen) prologue(name string) {
	fmt.Fprintf(&g.b, "\n// func %s%s%d(p *tinyArgs) (flags int)\n", g.t.fn(), name, g.n)
	fmt.Fprintf(&g.b, "TEXT ·%s%s%d(SB), 0, $%d-16\n", g.t.fn(), name, g.n, g.frame())
	g.ins("MOVQ", "p+0(FP)", "SI")
	g.mark("group") // the epilogue loads SI before it jumps here
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

// finite adds reg*0 to the finiteness accumulator.
func (g *gen) finite(reg string) { g.ins(g.op("VFMADD231"), g.y(15), reg, g.y(12)) }

// okPositive ands (x > 0) into the ok mask (false for NaN).
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

// epilogue ends a lane group: the kernel returns when the group's
// result (flags and candidates) is not 0, for the caller to handle, or
// when it was the last of p.groups; otherwise it advances the pointers
// to the next group by their steps and runs it. One call runs every
// full group of a batch up to the first that needs the caller: the Go
// loop around a call per group cost about as many instructions as the
// arithmetic of an order-3 kernel.
func (g *gen) epilogue() {
	done := g.newLabel()
	g.ins("MOVQ", "p+0(FP)", "SI")
	g.ins("DECQ", fmt.Sprintf("%d(SI)", offGroups))
	g.ins("CMPQ", "flags+8(FP)", "$0")
	g.ins("JNE", done)
	g.ins("CMPQ", fmt.Sprintf("%d(SI)", offGroups), "$0")
	g.ins("JEQ", done)
	for _, f := range [][2]int{{offAStep, offA}, {offAOStep, offAOut}, {offBStep, offB}, {offBOStep, offBOut}, {offDStep, offDet}} {
		g.ins("MOVQ", fmt.Sprintf("%d(SI)", f[0]), "AX")
		g.ins("ADDQ", "AX", fmt.Sprintf("%d(SI)", f[1]))
	}
	g.ins("JMP", "group")
	g.mark(done)
	g.ins("VZEROUPPER")
	g.ins("RET")
}
