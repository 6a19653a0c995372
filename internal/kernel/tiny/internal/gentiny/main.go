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
// normal range); flagged lanes write nothing. One call runs p.groups
// lane groups one after another, advancing a, aout, b, bout and det by
// their steps (epilogue), and returns after the last or after the first
// whose result is not 0, which the caller handles before it calls again
// for the rest.
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
	"log"
	"os"
	"strings"

	"github.com/lapis-go/lapis/internal/genfile"
)

// self is this generator, as its files' header names it.
const self = "internal/kernel/tiny/internal/gentiny"

// typ is one set of kernels: an element type and an instruction set.
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

const minN, maxN = 2, 8

// ops are the operations, one kernel each per type and order.
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
	s.WriteString(genfile.Header(self) + "//go:build amd64 && !purego\n\n#include \"textflag.h\"\n\n")
	var gf bytes.Buffer
	gf.WriteString(genfile.Header(self) + "//go:build amd64 && !purego\n\npackage tiny\n\n")
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
	if err := os.WriteFile("tiny_amd64.s", s.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := genfile.WriteGo("tiny_amd64_gen.go", gf.Bytes()); err != nil {
		log.Fatal(err)
	}
}
