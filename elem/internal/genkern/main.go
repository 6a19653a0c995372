// Command genkern writes elem's block kernels (zkernels.go): for each
// arithmetic operation, one function over an n0 x n1 block of the
// destination and its sources, with byte strides s0 along the lines and
// s1 between them; a block contiguous along its lines in every operand
// runs as slice loops, any other as pointer loops. The operation's switch
// is outside both loops, so no line pays a dispatch.
//
//	go generate ./elem
package main

import (
	"bytes"
	"log"
	"text/template"

	"github.com/lapis-go/lapis/internal/genfile"
)

// op is one operation: its opcode, the number of sources, and its
// expression over the sources' elements a and b and the scalars alpha
// and beta.
type op struct {
	Code  string
	Arity int
	Expr  string
	SIMD  bool // simdLine has it (internal/kernel/ew)
}

var ops = []op{
	{"opFill", 0, "alpha", false},
	{"opScale", 1, "alpha * a", true},
	{"opNeg", 1, "-a", false},
	{"opAdd", 2, "a + b", true},
	{"opSub", 2, "a - b", true},
	{"opMul", 2, "a * b", true},
	{"opDiv", 2, "a / b", true},
	{"opAxpby", 2, "T(alpha*a) + T(beta*b)", true},
	{"opLin3", 3, "T(alpha*a) + T(beta*b) + T(gamma*c)", false},
}

var tmpl = template.Must(template.New("k").Funcs(template.FuncMap{
	"flat": func(e string) string { return replace(e, "a[i]", "b[i]", "c[i]") },
	"strided": func(e string) string {
		return replace(e, "*(*T)(unsafe.Add(aj, i*as))", "*(*T)(unsafe.Add(bj, i*bs))", "*(*T)(unsafe.Add(cj, i*cs))")
	},
}).Parse(`package elem

import "unsafe"

// block runs the arithmetic operations on an n0 x n1 block (blockOps
// lists them); the others, and conjugated operands, take kern.line.
func (k *kern[T]) block(n0, n1 int, p *[4]unsafe.Pointer, s0, s1 *[4]int) {
	sz := int(unsafe.Sizeof(*new(T)))
	alpha, beta, gamma := k.alpha, k.beta, k.gamma
	_, _, _ = alpha, beta, gamma
	d, a, b, c := p[0], p[1], p[2], p[3]
	ds, as, bs, cs := s0[0], s0[1], s0[2], s0[3]
	switch k.op {
{{- range .}}
	case {{.Code}}:
		if ds == sz{{if ge .Arity 1}} && as == sz{{end}}{{if ge .Arity 2}} && bs == sz{{end}}{{if ge .Arity 3}} && cs == sz{{end}} {
			for j := range n1 {
				dd := unsafe.Slice((*T)(unsafe.Add(d, j*s1[0])), n0)
{{- if ge .Arity 1}}
				a := unsafe.Slice((*T)(unsafe.Add(a, j*s1[1])), n0)[:len(dd)]
{{- end}}
{{- if ge .Arity 2}}
				b := unsafe.Slice((*T)(unsafe.Add(b, j*s1[2])), n0)[:len(dd)]
{{- end}}
{{- if ge .Arity 3}}
				c := unsafe.Slice((*T)(unsafe.Add(c, j*s1[3])), n0)[:len(dd)]
{{- end}}
{{- if .SIMD}}
				if simdLine({{.Code}}, dd, a, {{if ge .Arity 2}}b{{else}}nil{{end}}, alpha, beta) {
					continue
				}
{{- end}}
				for i := range dd {
					dd[i] = {{flat .Expr}}
				}
			}
			return
		}
		for j := range n1 {
			dj := unsafe.Add(d, j*s1[0])
{{- if ge .Arity 1}}
			aj := unsafe.Add(a, j*s1[1])
{{- end}}
{{- if ge .Arity 2}}
			bj := unsafe.Add(b, j*s1[2])
{{- end}}
{{- if ge .Arity 3}}
			cj := unsafe.Add(c, j*s1[3])
{{- end}}
			for i := range n0 {
				*(*T)(unsafe.Add(dj, i*ds)) = {{strided .Expr}}
			}
		}
{{- end}}
	}
}

// blockOps reports whether block runs op.
func blockOps(op opcode) bool {
	switch op {
	case {{range $i, $o := .}}{{if $i}}, {{end}}{{$o.Code}}{{end}}:
		return true
	}
	return false
}
`))

// replace writes the expression's operands a, b and c as ea, eb and ec.
func replace(expr, ea, eb, ec string) string {
	var out []byte
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		word := func(w string) bool {
			return (i == 0 || !isIdent(expr[i-1])) && (i+1 == len(expr) || !isIdent(expr[i+1])) && c == w[0]
		}
		switch {
		case word("a"):
			out = append(out, ea...)
		case word("b"):
			out = append(out, eb...)
		case word("c"):
			out = append(out, ec...)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

func isIdent(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func main() {
	var b bytes.Buffer
	b.WriteString(genfile.Header("elem/internal/genkern"))
	if err := tmpl.Execute(&b, ops); err != nil {
		log.Fatal(err)
	}
	if err := genfile.WriteGo(genfile.Path("zkernels.go"), b.Bytes()); err != nil {
		log.Fatal(err)
	}
}
