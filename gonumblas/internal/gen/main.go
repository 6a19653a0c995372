// Command gen writes gonumblas/zmethods.go: Implementation's methods, one
// per method of gonum's blas.Float32, blas.Float64, blas.Complex64 and
// blas.Complex128, each a one-line call of the generic implementation of
// its routine family in package gonumblas (gemm[T] for Sgemm, Dgemm,
// Cgemm and Zgemm).
//
// It reads the methods' signatures from gonum's blas package, as the
// module resolves it (go/importer from source), and the generic
// functions' signatures from gonumblas's own files (go/parser), and fails
// when a method of gonum's has no family below, a family names a method
// gonum lacks, or a call would not match. Where a method's argument is
// float32 and the generic function's float64 (alpha of Ssyr, Cherk), it
// converts, and likewise a float64 result to the method's float32 (Snrm2,
// Scasum). A generic function's type parameters other than the element
// type (rotm's and rotmg's parameter struct) are bound to the method's
// types where the function uses them. A function whose first parameter
// is op string is given the method's name for its errors.
//
// Run it with `go generate ./gonumblas`; scripts/test.sh fails when the
// checked-in file differs from what it writes.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"log"
	"path/filepath"
	"strings"

	"github.com/lapis-go/lapis/internal/genfile"
)

// A family is one routine in its precisions: gonum's method for float32,
// float64, complex64 and complex128 ("" where gonum has none), the
// generic function that implements them and the arguments it takes
// before the method's own (after op).
type family struct {
	methods [4]string
	fn      string
	args    string
	doc     string
}

var families = []family{
	// Level 1.
	{[4]string{"Sdsdot", "", "", ""}, "sdsdot", "", "alpha + x^T y, accumulated in float64"},
	{[4]string{"Dsdot", "", "", ""}, "dsdot", "", "x^T y, accumulated in float64"},
	{[4]string{"Sdot", "Ddot", "Cdotu", "Zdotu"}, "dot", "false", "x^T y"},
	{[4]string{"", "", "Cdotc", "Zdotc"}, "dot", "true", "x^H y"},
	{[4]string{"Snrm2", "Dnrm2", "Scnrm2", "Dznrm2"}, "nrm2", "", "the Euclidean norm of x"},
	{[4]string{"Sasum", "Dasum", "Scasum", "Dzasum"}, "asum", "", "the sum of |Re x_i| + |Im x_i|"},
	{[4]string{"Isamax", "Idamax", "Icamax", "Izamax"}, "iamax", "", "the index of the first largest |Re x_i| + |Im x_i| (-1 for n = 0)"},
	{[4]string{"Sswap", "Dswap", "Cswap", "Zswap"}, "swap", "", "x, y = y, x"},
	{[4]string{"Scopy", "Dcopy", "Ccopy", "Zcopy"}, "copyv", "", "y = x"},
	{[4]string{"Saxpy", "Daxpy", "Caxpy", "Zaxpy"}, "axpy", "", "y += alpha x"},
	{[4]string{"Srotg", "Drotg", "", ""}, "rotg", "", "the Givens rotation that zeroes b, in Go (see rotg)"},
	{[4]string{"Srotmg", "Drotmg", "", ""}, "rotmg", "", "the modified Givens rotation that zeroes the second entry"},
	{[4]string{"Srot", "Drot", "", ""}, "rot", "", "applies the plane rotation (c, s) to x and y"},
	{[4]string{"Srotm", "Drotm", "", ""}, "rotm", "", "applies the modified Givens rotation p to x and y"},
	{[4]string{"Sscal", "Dscal", "Cscal", "Zscal"}, "scal", "", "x *= alpha"},
	{[4]string{"", "", "Csscal", "Zdscal"}, "rscal", "", "x *= alpha, alpha real"},

	// Level 2.
	{[4]string{"Sgemv", "Dgemv", "Cgemv", "Zgemv"}, "gemv", "", "y = alpha op(A) x + beta y"},
	{[4]string{"Sgbmv", "Dgbmv", "Cgbmv", "Zgbmv"}, "gbmv", "", "y = alpha op(A) x + beta y, A banded"},
	{[4]string{"Strmv", "Dtrmv", "Ctrmv", "Ztrmv"}, "trxv", "false", "x = op(A) x, A triangular"},
	{[4]string{"Strsv", "Dtrsv", "Ctrsv", "Ztrsv"}, "trxv", "true", "x = op(A)^-1 x, A triangular"},
	{[4]string{"Stbmv", "Dtbmv", "Ctbmv", "Ztbmv"}, "tbxv", "false", "x = op(A) x, A triangular banded"},
	{[4]string{"Stbsv", "Dtbsv", "Ctbsv", "Ztbsv"}, "tbxv", "true", "x = op(A)^-1 x, A triangular banded"},
	{[4]string{"Stpmv", "Dtpmv", "Ctpmv", "Ztpmv"}, "tpxv", "false", "x = op(A) x, A triangular packed"},
	{[4]string{"Stpsv", "Dtpsv", "Ctpsv", "Ztpsv"}, "tpxv", "true", "x = op(A)^-1 x, A triangular packed"},
	{[4]string{"Ssymv", "Dsymv", "Chemv", "Zhemv"}, "hemv", "", "y = alpha A x + beta y, A symmetric (Hermitian)"},
	{[4]string{"Ssbmv", "Dsbmv", "Chbmv", "Zhbmv"}, "hbmv", "", "y = alpha A x + beta y, A symmetric (Hermitian) banded"},
	{[4]string{"Sspmv", "Dspmv", "Chpmv", "Zhpmv"}, "hpmv", "", "y = alpha A x + beta y, A symmetric (Hermitian) packed"},
	{[4]string{"Sger", "Dger", "Cgeru", "Zgeru"}, "ger", "false", "A += alpha x y^T"},
	{[4]string{"", "", "Cgerc", "Zgerc"}, "ger", "true", "A += alpha x y^H"},
	{[4]string{"Ssyr", "Dsyr", "Cher", "Zher"}, "her", "", "A += alpha x x^T (x x^H), alpha real"},
	{[4]string{"Sspr", "Dspr", "Chpr", "Zhpr"}, "hpr", "", "A += alpha x x^T (x x^H), A packed, alpha real"},
	{[4]string{"Ssyr2", "Dsyr2", "Cher2", "Zher2"}, "her2", "", "A += alpha x y^T + alpha y x^T (alpha x y^H + conj(alpha) y x^H)"},
	{[4]string{"Sspr2", "Dspr2", "Chpr2", "Zhpr2"}, "hpr2", "", "A += alpha x y^T + alpha y x^T (alpha x y^H + conj(alpha) y x^H), A packed"},

	// Level 3.
	{[4]string{"Sgemm", "Dgemm", "Cgemm", "Zgemm"}, "gemm", "", "C = alpha op(A) op(B) + beta C"},
	{[4]string{"Ssymm", "Dsymm", "Csymm", "Zsymm"}, "symm", "false", "C = alpha A B + beta C (or B A), A symmetric"},
	{[4]string{"", "", "Chemm", "Zhemm"}, "symm", "true", "C = alpha A B + beta C (or B A), A Hermitian"},
	{[4]string{"Ssyrk", "Dsyrk", "Csyrk", "Zsyrk"}, "syrk", "", "C = alpha op(A) op(A)^T + beta C"},
	{[4]string{"Ssyr2k", "Dsyr2k", "Csyr2k", "Zsyr2k"}, "syr2k", "", "C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C"},
	{[4]string{"", "", "Cherk", "Zherk"}, "herk", "", "C = alpha op(A) op(A)^H + beta C, alpha and beta real"},
	{[4]string{"", "", "Cher2k", "Zher2k"}, "her2k", "", "C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C, beta real"},
	{[4]string{"Strmm", "Dtrmm", "Ctrmm", "Ztrmm"}, "trxm", "false", "B = alpha op(A) B (or B op(A)), A triangular"},
	{[4]string{"Strsm", "Dtrsm", "Ctrsm", "Ztrsm"}, "trxm", "true", "B = alpha op(A)^-1 B (or B op(A)^-1), A triangular"},
}

// The interfaces, in the order of families' methods, and their element
// types.
var ifaces = [4]struct{ name, elem string }{
	{"Float32", "float32"}, {"Float64", "float64"}, {"Complex64", "complex64"}, {"Complex128", "complex128"},
}

// generic is a generic implementation's signature, from gonumblas's
// source: its type parameters and the types of its parameters and
// results, as written.
type generic struct {
	typeParams []string
	params     []string
	results    []string
}

func main() {
	methods := gonumMethods()
	fns := generics(".")
	var b bytes.Buffer
	b.WriteString(genfile.Header("gonumblas/internal/gen"))
	b.WriteString("package gonumblas\n\nimport \"gonum.org/v1/gonum/blas\"\n")
	for t, iface := range ifaces {
		fmt.Fprintf(&b, "\n// blas.%s.\n", iface.name)
		seen := map[string]bool{}
		for _, f := range families {
			name := f.methods[t]
			if name == "" {
				continue
			}
			sig, ok := methods[t][name]
			if !ok {
				log.Fatalf("%s: not a method of gonum's blas.%s", name, iface.name)
			}
			g, ok := fns[f.fn]
			if !ok {
				log.Fatalf("%s: no function %s in gonumblas", name, f.fn)
			}
			seen[name] = true
			method(&b, iface.name, iface.elem, name, sig, f, g)
		}
		for name := range methods[t] {
			if !seen[name] {
				log.Fatalf("gonum's blas.%s.%s has no family in gen's table", iface.name, name)
			}
		}
	}
	if err := genfile.WriteGo(genfile.Path("zmethods.go"), b.Bytes()); err != nil {
		log.Fatal(err)
	}
}

// gonumMethods returns the methods of gonum's four interfaces by name.
func gonumMethods() [4]map[string]*types.Signature {
	pkg, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("gonum.org/v1/gonum/blas")
	if err != nil {
		log.Fatal(err)
	}
	var ms [4]map[string]*types.Signature
	for t, iface := range ifaces {
		obj := pkg.Scope().Lookup(iface.name)
		if obj == nil {
			log.Fatalf("gonum's blas has no %s", iface.name)
		}
		it := obj.Type().Underlying().(*types.Interface)
		ms[t] = map[string]*types.Signature{}
		for i := range it.NumMethods() {
			m := it.Method(i)
			ms[t][m.Name()] = m.Type().(*types.Signature)
		}
	}
	return ms
}

// generics returns the generic implementations declared in the package
// in dir (gonumblas), by name.
func generics(dir string) map[string]generic {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		log.Fatal(err)
	}
	fns := map[string]generic{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || filepath.Base(name) == "zmethods.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			log.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			var g generic
			if tp := fd.Type.TypeParams; tp != nil {
				for _, field := range tp.List {
					for _, n := range field.Names {
						g.typeParams = append(g.typeParams, n.Name)
					}
				}
			}
			g.params = fieldTypes(fset, fd.Type.Params)
			g.results = fieldTypes(fset, fd.Type.Results)
			fns[fd.Name.Name] = g
		}
	}
	return fns
}

// fieldTypes lists the type of each parameter of fl, as written.
func fieldTypes(fset *token.FileSet, fl *ast.FieldList) []string {
	var ts []string
	if fl == nil {
		return nil
	}
	for _, field := range fl.List {
		var s bytes.Buffer
		if err := format.Node(&s, fset, field.Type); err != nil {
			log.Fatal(err)
		}
		n := max(1, len(field.Names))
		for range n {
			ts = append(ts, s.String())
		}
	}
	return ts
}

// qualifier names gonum's blas package as the generated file imports it.
func qualifier(p *types.Package) string { return p.Name() }

// method writes the method name of interface iface (element type elem)
// with signature sig, calling f's generic implementation g.
func method(b *bytes.Buffer, iface, elem, name string, sig *types.Signature, f family, g generic) {
	var lead []string
	if len(g.params) > 0 && g.params[0] == "string" {
		lead = append(lead, fmt.Sprintf("%q", "gonumblas."+name))
	}
	if f.args != "" {
		lead = append(lead, strings.Split(f.args, ", ")...)
	}
	ps := sig.Params()
	if len(g.params) != len(lead)+ps.Len() {
		log.Fatalf("%s: %s takes %d arguments, the method gives %d after %v", name, f.fn, len(g.params), ps.Len(), lead)
	}
	args := append([]string(nil), lead...)
	for i := range ps.Len() {
		p := ps.At(i)
		if p.Name() == f.fn {
			log.Fatalf("%s: parameter %s hides the function it calls", name, p.Name())
		}
		mt := types.TypeString(p.Type(), qualifier)
		args = append(args, convert(name, p.Name(), mt, g.params[len(lead)+i], g.typeParams))
	}
	rs := sig.Results()
	call := f.fn + typeArgs(name, elem, sig, lead, g) + "(" + strings.Join(args, ", ") + ")"
	body := call
	switch {
	case rs.Len() == 0:
	case rs.Len() == 1 && len(g.results) == 1 && g.results[0] == "float64" && types.TypeString(rs.At(0).Type(), nil) == "float32":
		body = "return float32(" + call + ")"
	default:
		if len(g.results) != rs.Len() {
			log.Fatalf("%s: %s returns %d results, the method %d", name, f.fn, len(g.results), rs.Len())
		}
		body = "return " + call
	}
	ret := tuple(rs)
	if rs.Len() > 1 || (rs.Len() == 1 && rs.At(0).Name() != "") {
		ret = "(" + ret + ")"
	}
	fmt.Fprintf(b, "\n// %s is blas.%s's %s: %s.\n", name, iface, name, f.doc)
	fmt.Fprintf(b, "func (Implementation) %s(%s) %s {\n\t%s\n}\n", name, tuple(ps), ret, body)
}

// tuple writes a parameter or result list as gonum declares it, names
// and types, consecutive names of one type sharing it (m, n, k int).
func tuple(t *types.Tuple) string {
	var parts []string
	for i := range t.Len() {
		v := t.At(i)
		ty := types.TypeString(v.Type(), qualifier)
		switch {
		case v.Name() == "":
			parts = append(parts, ty)
		case i+1 < t.Len() && types.Identical(v.Type(), t.At(i+1).Type()) && t.At(i+1).Name() != "":
			parts = append(parts, v.Name())
		default:
			parts = append(parts, v.Name()+" "+ty)
		}
	}
	return strings.Join(parts, ", ")
}

// convert is the argument for the method's parameter name (type mt)
// where the generic function takes type gt: float32 widens to float64;
// a type written with the function's type parameters is taken as it is
// (the compiler checks the instantiation).
func convert(method, name, mt, gt string, typeParams []string) string {
	switch {
	case mt == gt:
		return name
	case mt == "float32" && gt == "float64":
		return "float64(" + name + ")"
	}
	for _, tp := range typeParams {
		if strings.Contains(gt, tp) {
			return name
		}
	}
	log.Fatalf("%s: parameter %s is %s, the function takes %s", method, name, mt, gt)
	return ""
}

// typeArgs is the instantiation of g for the method: the element type,
// then each further type parameter bound to the method's type where g's
// parameters or results use it alone ("" for a function that is not
// generic).
func typeArgs(name, elem string, sig *types.Signature, lead []string, g generic) string {
	if len(g.typeParams) == 0 {
		return ""
	}
	targs := []string{elem}
	for _, tp := range g.typeParams[1:] {
		bound := ""
		for i, pt := range g.params {
			if pt == tp && i >= len(lead) {
				bound = types.TypeString(sig.Params().At(i-len(lead)).Type(), qualifier)
				break
			}
		}
		for i, rt := range g.results {
			if bound == "" && rt == tp {
				bound = types.TypeString(sig.Results().At(i).Type(), qualifier)
			}
		}
		if bound == "" {
			log.Fatalf("%s: type parameter %s appears alone in no parameter or result", name, tp)
		}
		targs = append(targs, bound)
	}
	return "[" + strings.Join(targs, ", ") + "]"
}

func init() {
	log.SetFlags(0)
	log.SetPrefix("gonumblas/internal/gen: ")
}
