// The emitter: gen, which writes one TEXT block's instructions and
// labels, the shared routines emitted once however many kernels call
// them (routine, output), and the names of a type's registers and
// instructions.

package main

import (
	"bytes"
	"fmt"
)

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

// mark places label l.
func (g *gen) mark(l string) { fmt.Fprintf(&g.b, "%s:\n", l) }

func (g *gen) newLabel() string {
	g.label++
	return fmt.Sprintf("l%d", g.label)
}

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

// Registers: Y15 zero, Y14 one, Y13 ok mask (all ones while a lane is
// fine), Y12 finiteness accumulator (sum of x*0: NaN once any x is not
// finite), Y11 gather index, Y10 gather mask; Y0-Y9 work. AVX-512 uses
// the same numbers as Z registers, K1 for the gather mask and the
// comparisons, K1-K7 for the row swaps, and Z16-Z31 in its transposes.

// vb is the bytes of a vector register.
func (g *gen) vb() int { return g.t.size * g.t.lanes }

// y names vector register i (Yi, or Zi for AVX-512).
func (g *gen) y(i int) string {
	if g.t.wide {
		return fmt.Sprintf("Z%d", i)
	}
	return fmt.Sprintf("Y%d", i)
}

func (g *gen) op(name string) string { return name + g.t.v }

// k names the opmask instruction name for the type's lanes: KMOVB,
// KNOTB... for 8 lanes, KMOVW, KNOTW... for 16.
func (g *gen) k(name string) string {
	if g.t.lanes > 8 {
		return name + "W"
	}
	return name + "B"
}

func (g *gen) mov() string {
	if g.t.size == 8 {
		return "MOVQ"
	}
	return "MOVL"
}
