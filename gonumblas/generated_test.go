package gonumblas_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestMethodsGenerated: zmethods.go holds Implementation's methods, one
// per method of gonum's four interfaces, each a single call of a generic
// implementation (no hand-written wrapper, no logic), and stays about
// five lines per method: a generator change that inlines code into the
// methods fails here.
func TestMethodsGenerated(t *testing.T) {
	src, err := os.ReadFile("zmethods.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "zmethods.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, i := range []any{(*blas.Float32)(nil), (*blas.Float64)(nil), (*blas.Complex64)(nil), (*blas.Complex128)(nil)} {
		want += reflect.TypeOf(i).Elem().NumMethod()
	}
	got := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		got++
		if fd.Recv == nil || len(fd.Body.List) != 1 {
			t.Errorf("%s: want a method of Implementation with one statement", fd.Name.Name)
			continue
		}
		var call ast.Expr
		switch s := fd.Body.List[0].(type) {
		case *ast.ExprStmt:
			call = s.X
		case *ast.ReturnStmt:
			if len(s.Results) == 1 {
				call = s.Results[0]
			}
		}
		if c, ok := call.(*ast.CallExpr); ok && len(c.Args) == 1 { // float32(nrm2(...))
			if _, conv := c.Fun.(*ast.Ident); conv {
				call = c.Args[0]
			}
		}
		if _, ok := call.(*ast.CallExpr); !ok {
			t.Errorf("%s: its statement is not a call of the generic implementation", fd.Name.Name)
		}
	}
	if got != want {
		t.Errorf("zmethods.go has %d functions, gonum's interfaces %d methods", got, want)
	}
	if lines := bytes.Count(src, []byte("\n")); lines > 5*want+20 {
		t.Errorf("zmethods.go has %d lines, more than 5 per method", lines)
	}
}
