// Command genlanes writes lanes_amd64.s, the assembly of gemm.Lanes: the
// tiles and the panel packs, in AVX-512 and AVX2 from one description
// each (go generate in internal/kernel/gemm).
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"

	"github.com/lapis-go/lapis/internal/genfile"
)

func main() {
	var b bytes.Buffer
	b.WriteString(genfile.Header("internal/kernel/gemm/internal/genlanes"))
	b.WriteString(`//go:build amd64 && !purego

#include "textflag.h"

// The tiles of Lanes (lanes.go): c's tile of mr rows by 4 columns in one
// group of lanes, accumulated over k in registers, one vector per element
// of the tile (its lanes are the batch's matrices, stride 1 in memory):
//
//	acc[i][p] += a[lanes, i, q] * b[lanes, q, p]   for q < k
//	c[lanes, i, p] = alpha*acc[i][p] + beta*c[lanes, i, p]   (beta*c only
//	when beta != 0: c is not read otherwise)
//
// Strides are in bytes; a, b and c point at the tile's first element.

`)
	for _, w := range widths {
		tile(&b, w)
	}
	for _, w := range widths {
		pack(&b, w)
		pack4(&b, w)
	}
	if err := os.WriteFile("lanes_amd64.s", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

// width is one vector width: the register prefix, lanes (float64) and the
// tile's rows.
type width struct {
	name        string // suffix of the functions' names
	reg         string // Z or Y
	lanes, rows int
	zero        string // the instruction that zeroes a register
	note        string
}

var widths = []width{
	{"512", "Z", 8, 4, "VPXORQ", "AVX-512: 8 lanes, 4 rows; Z0-Z15 the tile, Z16-Z19 a's rows, Z20-Z23 b's columns."},
	{"256", "Y", 4, 2, "VXORPD", "AVX2 and FMA: 4 lanes, 2 rows; Y0-Y7 the tile, Y8-Y9 a's rows, Y10-Y13 b's columns."},
}

func (w width) r(i int) string { return fmt.Sprintf("%s%d", w.reg, i) }

// Registers of the tile: acc[i][p], a's row i, b's column p.
func (w width) acc(i, p int) string { return w.r(4*i + p) }
func (w width) a(i int) string      { return w.r(4*w.rows + i) }
func (w width) b(p int) string      { return w.r(5*w.rows + p) }

// Addresses: row i of a (AX, as0 in R8, 3*as0 in R12), column p of b (BX,
// bs1 in R11, 3*bs1 in R13), column p of c's row (SI, cs1 in R9, 3*cs1 in
// R10).
var (
	aRow = [4]string{"(AX)", "(AX)(R8*1)", "(AX)(R8*2)", "(AX)(R12*1)"}
	bCol = [4]string{"(BX)", "(BX)(R11*1)", "(BX)(R11*2)", "(BX)(R13*1)"}
	cCol = [4]string{"(SI)", "(SI)(R9*1)", "(SI)(R9*2)", "(SI)(R10*1)"}
)

func tile(b *bytes.Buffer, w width) {
	name := "laneTile" + w.name
	p := func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	p("// func %s(k int, a *float64, as0, as1 int, b *float64, bs0, bs1 int, c *float64, cs0, cs1 int, alpha, beta float64)", name)
	p("// %s", w.note)
	p("TEXT ·%s(SB), NOSPLIT, $0-96", name)
	for _, l := range []string{"MOVQ k+0(FP), CX", "MOVQ a+8(FP), AX", "MOVQ as0+16(FP), R8", "MOVQ as1+24(FP), R9",
		"MOVQ b+32(FP), BX", "MOVQ bs0+40(FP), R10", "MOVQ bs1+48(FP), R11", "LEAQ (R8)(R8*2), R12", "LEAQ (R11)(R11*2), R13"} {
		p("\t%s", l)
	}
	for i := range w.rows {
		for q := range 4 {
			p("\t%s %s, %s, %s", w.zero, w.acc(i, q), w.acc(i, q), w.acc(i, q))
		}
	}
	p("%s_loop:", name)
	for i := range w.rows {
		p("\tVMOVUPD %s, %s", aRow[i], w.a(i))
	}
	for q := range 4 {
		p("\tVMOVUPD %s, %s", bCol[q], w.b(q))
	}
	for i := range w.rows {
		for q := range 4 {
			p("\tVFMADD231PD %s, %s, %s", w.b(q), w.a(i), w.acc(i, q))
		}
	}
	p("\tADDQ R9, AX")
	p("\tADDQ R10, BX")
	p("\tDECQ CX")
	p("\tJNZ %s_loop", name)
	p("\tMOVQ c+56(FP), DX")
	p("\tMOVQ cs0+64(FP), R8")
	p("\tMOVQ cs1+72(FP), R9")
	p("\tLEAQ (R9)(R9*2), R10")
	alpha, beta := w.a(0), w.a(1)
	p("\tVBROADCASTSD alpha+80(FP), %s", alpha)
	p("\tVBROADCASTSD beta+88(FP), %s", beta)
	for i := range w.rows {
		for q := range 4 {
			p("\tVMULPD %s, %s, %s", alpha, w.acc(i, q), w.acc(i, q))
		}
	}
	row := func(i int) {
		switch i {
		case 0:
			p("\tMOVQ DX, SI")
		case 1:
			p("\tLEAQ (DX)(R8*1), SI")
		case 2:
			p("\tLEAQ (DX)(R8*2), SI")
		default:
			p("\tLEAQ (R8)(R8*2), DI")
			p("\tLEAQ (DX)(DI*1), SI")
		}
	}
	p("\tMOVQ beta+88(FP), DI")
	p("\tSHLQ $1, DI // beta == ±0: c is not read")
	p("\tJZ %s_store", name)
	for i := range w.rows {
		row(i)
		for q := range 4 {
			p("\tVFMADD231PD %s, %s, %s", cCol[q], beta, w.acc(i, q))
		}
	}
	p("%s_store:", name)
	for i := range w.rows {
		row(i)
		for q := range 4 {
			p("\tVMOVUPD %s, %s", w.acc(i, q), cCol[q])
		}
	}
	p("\tVZEROUPPER")
	p("\tRET")
	p("")
}

// packLoop writes a pack's loops around body (the moves of one place).
func packLoop(b *bytes.Buffer, name, lineBytes string, body []string) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	p("%s_outer:", name)
	p("\tMOVQ SI, AX")
	p("\tMOVQ R11, DI")
	p("\tMOVQ R8, DX")
	p("%s_inner:", name)
	for _, l := range body {
		p("\t%s", l)
	}
	p("\tADDQ R9, AX")
	p("\tADDQ $%s, DI", lineBytes)
	p("\tDECQ DX")
	p("\tJNZ %s_inner", name)
	p("\tADDQ R10, SI")
	p("\tADDQ R12, R11")
	p("\tDECQ CX")
	p("\tJNZ %s_outer", name)
	p("\tVZEROUPPER")
	p("\tRET")
	p("")
}

var packArgs = []string{"MOVQ dst+0(FP), R11", "MOVQ src+8(FP), SI", "MOVQ n0+16(FP), R8", "MOVQ s0+24(FP), R9",
	"MOVQ n1+32(FP), CX", "MOVQ s1+40(FP), R10", "MOVQ dp+48(FP), R12"}

func pack(b *bytes.Buffer, w width) {
	name, lb := "lanePack"+w.name, w.lanes*8
	fmt.Fprintf(b, "// func %s(dst, src *float64, n0, s0, n1, s1, dp int)\n", name)
	fmt.Fprintf(b, "// copies n1 x n0 lines of %d lanes, line (x, y) at src + x*s0 + y*s1\n", w.lanes)
	fmt.Fprintf(b, "// (bytes), to dst, line (x, y) at dst + y*dp + x*%d (bytes).\n", lb)
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $0-56\n", name)
	for _, l := range packArgs {
		fmt.Fprintf(b, "\t%s\n", l)
	}
	packLoop(b, name, fmt.Sprint(lb), []string{"VMOVUPD (AX), " + w.r(0), "VMOVUPD " + w.r(0) + ", (DI)"})
}

func pack4(b *bytes.Buffer, w width) {
	name, lb := "lanePack4x"+w.name, w.lanes*8
	fmt.Fprintf(b, "// func %s(dst, src *float64, n0, s0, n1, s1, dp, gp int)\n", name)
	fmt.Fprintf(b, "// is the pack of four adjacent lane groups at once: line (x, y) of\n")
	fmt.Fprintf(b, "// group u (src + x*s0 + y*s1 + u*%d) to dst + u*gp + y*dp + x*%d.\n", lb, lb)
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $0-64\n", name)
	for _, l := range append(packArgs, "MOVQ gp+56(FP), BX", "LEAQ (BX)(BX*2), R13") {
		fmt.Fprintf(b, "\t%s\n", l)
	}
	var body []string
	for u := range 4 {
		body = append(body, fmt.Sprintf("VMOVUPD %d(AX), %s", u*lb, w.r(u)))
	}
	for u, dst := range []string{"(DI)", "(DI)(BX*1)", "(DI)(BX*2)", "(DI)(R13*1)"} {
		body = append(body, fmt.Sprintf("VMOVUPD %s, %s", w.r(u), dst))
	}
	packLoop(b, name, fmt.Sprint(lb), body)
}
