// Command gen writes calls_gen.go of package entry: one table row per
// exported function and method of lapis's public packages that takes a
// view or a tensor (directly, or wrapped in a fortran.Arg, an npy.Member
// or a dist.Matrix), each with a closure that calls it with the values
// the harness provides for its parameters. It reads the packages' source
// with go/parser (the files go build would compile here), so a function
// added later gets its row at the next go generate; a parameter whose
// type it has no value for is an error naming the function, not a row
// left out.
//
//	go run ./gen [-o calls_gen.go]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/build"

	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lapis-go/lapis/internal/genfile"
)

// packages are the public packages, as paths below the module root ("" is
// the root package lapis).
var packages = []string{"", "layout", "views", "cblas", "elem", "lapack", "batch", "einsum", "npy", "fortran", "dist", "gonumblas", "gonumlapack"}

const module = "github.com/lapis-go/lapis"

// positions are the parameter types that carry a view or a tensor: the
// harness tries each such position with a bad operand.
var positions = map[string]string{
	"views.View[T]":    "View",
	"...views.View[T]": "Views",
	"[]views.View[T]":  "Views",
	"*views.Tensor[T]": "Tensor",
	"fortran.Arg":      "Arg",
	"[]fortran.Arg":    "Args",
	"...npy.Member":    "Members",
	"npy.Member":       "Member",
	"*dist.Matrix[T]":  "Matrix",
}

// values are the other parameter types the harness has a value for: the
// type's canonical form -> the method of *Args that gives it.
var values = map[string]string{
	"T":                     "Scalar",
	"R":                     "Real",
	"float64":               "Float64",
	"float32":               "Float32",
	"complex128":            "Complex128",
	"int":                   "Int",
	"int64":                 "Int64",
	"bool":                  "Bool",
	"string":                "String",
	"...int":                "Ints",
	"[]int":                 "Ints",
	"[]int32":               "Int32s",
	"[]T":                   "Scalars",
	"[]R":                   "Reals",
	"[]float64":             "Float64s",
	"[]C":                   "Complexes",
	"func(int, int) T":      "FillFunc",
	"func(T) T":             "MapFunc",
	"func(T, T) T":          "ZipFunc",
	"elem.Expr[T]":          "Expr",
	"io.Writer":             "Writer",
	"unsafe.Pointer":        "Routine",
	"func(fortran.Array)":   "Explicit",
	"func([]fortran.Array)": "ExplicitN",
	"*dist.Grid":            "Grid",
	"layout.Layout":         "Layout",
	"*einsum.Plan[T]":       "Plan",
	"einsum.Spec":           "Spec",
	"...lapis.Option":       "", // none passed
}

// instances are the type arguments given for a type parameter by its
// constraint (any other constraint: float64).
var instances = map[string]string{"Complex": "complex128"}

// notCalled are exported methods the table leaves out, with the reason.
var notCalled = map[string]string{
	"views.View.Format":   "fmt.Formatter: fmt calls it; String is tried",
	"views.Tensor.Format": "fmt.Formatter: fmt calls it; String is tried",
}

type param struct {
	name, typ string
	variadic  bool
}

type fn struct {
	pkg, name   string // name is F or Recv.M
	recv        *param // nil for a function
	tparams     []string
	targs       []string // the type argument of each of tparams
	recvTParams []string
	params      []param
	results     []string
}

// ctors are, for a struct type, the first exported function without
// parameters that returns one (lapack.AllValues for lapack.Range): the
// value a parameter of the type gets, rather than its zero value.
var ctors = map[string]string{}

// consts are the exported constants of each named type, in source order.
var consts = map[string][]string{}

func main() {
	out := flag.String("o", "calls_gen.go", "the file to write")
	flag.Parse()
	root, err := moduleRoot()
	if err != nil {
		fail(err)
	}
	var fns []fn
	var problems []string
	enums := map[string]string{} // canonical type -> underlying kind, for named integer types
	for _, p := range packages {
		f, e, errs := scan(root, p)
		fns = append(fns, f...)
		for k, v := range e {
			enums[k] = v
		}
		problems = append(problems, errs...)
	}
	src, errs := emit(fns, enums)
	problems = append(problems, errs...)
	if len(problems) > 0 {
		fail(fmt.Errorf("cannot call these (give the harness a value for the type, in gen/main.go and entry.go):\n\t%s", strings.Join(problems, "\n\t")))
	}
	if err := genfile.WriteGo(*out, src); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
}

// scan parses package p's files and returns its exported functions and
// methods, its named integer types and what it could not read.
func scan(root, p string) ([]fn, map[string]string, []string) {
	ctx := build.Default
	ctx.CgoEnabled = true
	bp, err := ctx.ImportDir(filepath.Join(root, p), 0)
	if err != nil {
		return nil, nil, []string{err.Error()}
	}
	name := bp.Name
	fset := token.NewFileSet()
	var files []*ast.File
	for _, f := range append(append([]string(nil), bp.GoFiles...), bp.CgoFiles...) {
		af, err := parser.ParseFile(fset, filepath.Join(bp.Dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, []string{err.Error()}
		}
		files = append(files, af)
	}
	// Local type names (for qualification), aliases and named integers.
	local := map[string]bool{}
	alias := map[string]ast.Expr{}
	enums := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				local[ts.Name.Name] = true
				if ts.Assign.IsValid() {
					alias[ts.Name.Name] = ts.Type
				}
				switch t := ts.Type.(type) {
				case *ast.Ident:
					if !ts.Assign.IsValid() && isInteger(t.Name) && ts.Name.IsExported() {
						enums[name+"."+ts.Name.Name] = "enum"
					}
				case *ast.SelectorExpr: // an alias of another package's type
					if ts.Assign.IsValid() && ts.Name.IsExported() {
						enums[name+"."+ts.Name.Name] = "alias " + t.X.(*ast.Ident).Name + "." + t.Sel.Name
					}
				case *ast.StructType:
					if ts.TypeParams == nil && ts.Name.IsExported() {
						enums[name+"."+ts.Name.Name] = "struct"
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			typ := ""
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				switch t := vs.Type.(type) {
				case *ast.Ident:
					typ = name + "." + t.Name
				case *ast.SelectorExpr:
					typ = t.X.(*ast.Ident).Name + "." + t.Sel.Name
				case nil:
					if len(vs.Values) > 0 {
						typ = "" // an untyped constant, or one whose type the generator does not read
					}
				}
				for _, n := range vs.Names {
					if typ != "" && n.IsExported() && typ == name+"."+strings.SplitN(typ, ".", 2)[1] {
						consts[typ] = append(consts[typ], name+"."+n.Name)
					}
				}
			}
		}
	}
	q := qualifier{pkg: name, local: local, alias: alias}
	var fns []fn
	var problems []string
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			x := fn{pkg: name, name: fd.Name.Name}
			if fd.Recv != nil {
				r := fd.Recv.List[0]
				base, tps := recvBase(r.Type)
				if !ast.IsExported(base) {
					continue
				}
				rn := "recv"
				if len(r.Names) > 0 {
					rn = r.Names[0].Name
				}
				x.name = base + "." + fd.Name.Name
				x.recvTParams = tps
				t := q.typ(r.Type, tps)
				x.recv = &param{name: rn, typ: t}
			}
			if fd.Type.TypeParams != nil {
				for _, f := range fd.Type.TypeParams.List {
					for _, n := range f.Names {
						x.tparams = append(x.tparams, n.Name)
						arg := "float64"
						if id, ok := f.Type.(*ast.Ident); ok && instances[id.Name] != "" {
							arg = instances[id.Name]
						}
						x.targs = append(x.targs, arg)
					}
				}
			}
			tps := append(append([]string(nil), x.tparams...), x.recvTParams...)
			for _, f := range fd.Type.Params.List {
				_, variadic := f.Type.(*ast.Ellipsis)
				t := q.typ(f.Type, tps)
				names := f.Names
				if len(names) == 0 {
					names = []*ast.Ident{{Name: "_"}}
				}
				for _, n := range names {
					x.params = append(x.params, param{name: n.Name, typ: t, variadic: variadic})
				}
			}
			if fd.Type.Results != nil {
				for _, f := range fd.Type.Results.List {
					t := q.typ(f.Type, tps)
					for range max(1, len(f.Names)) {
						x.results = append(x.results, t)
					}
				}
			}
			fns = append(fns, x)
			if x.recv == nil && len(x.params) == 0 && len(x.tparams) == 0 && len(x.results) == 1 && ctors[x.results[0]] == "" {
				ctors[x.results[0]] = name + "." + x.name + "()"
			}
		}
	}
	return fns, enums, problems
}

func isInteger(s string) bool {
	switch s {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "byte":
		return true
	}
	return false
}

// recvBase returns a receiver's type name and its type parameters' names.
func recvBase(e ast.Expr) (string, []string) {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	var tps []string
	switch t := e.(type) {
	case *ast.IndexExpr:
		tps = append(tps, t.Index.(*ast.Ident).Name)
		e = t.X
	case *ast.IndexListExpr:
		for _, i := range t.Indices {
			tps = append(tps, i.(*ast.Ident).Name)
		}
		e = t.X
	}
	return e.(*ast.Ident).Name, tps
}

type qualifier struct {
	pkg   string
	local map[string]bool
	alias map[string]ast.Expr
}

// typ writes a type expression in canonical form: package-qualified
// (views.View[T]), type parameters by name, aliases of other packages'
// types resolved.
func (q qualifier) typ(e ast.Expr, tparams []string) string {
	switch t := e.(type) {
	case *ast.Ident:
		for _, p := range tparams {
			if t.Name == p {
				return p
			}
		}
		if a, ok := q.alias[t.Name]; ok {
			if _, isSel := a.(*ast.SelectorExpr); isSel {
				return q.typ(a, tparams)
			}
		}
		if q.local[t.Name] {
			return q.pkg + "." + t.Name
		}
		return t.Name
	case *ast.SelectorExpr:
		return t.X.(*ast.Ident).Name + "." + t.Sel.Name
	case *ast.StarExpr:
		return "*" + q.typ(t.X, tparams)
	case *ast.ArrayType:
		if t.Len != nil {
			return "[?]" + q.typ(t.Elt, tparams)
		}
		return "[]" + q.typ(t.Elt, tparams)
	case *ast.Ellipsis:
		return "..." + q.typ(t.Elt, tparams)
	case *ast.IndexExpr:
		return q.typ(t.X, tparams) + "[" + q.typ(t.Index, tparams) + "]"
	case *ast.IndexListExpr:
		var s []string
		for _, i := range t.Indices {
			s = append(s, q.typ(i, tparams))
		}
		return q.typ(t.X, tparams) + "[" + strings.Join(s, ", ") + "]"
	case *ast.FuncType:
		var s []string
		for _, f := range t.Params.List {
			for range max(1, len(f.Names)) {
				s = append(s, q.typ(f.Type, tparams))
			}
		}
		r := ""
		if t.Results != nil {
			var rs []string
			for _, f := range t.Results.List {
				for range max(1, len(f.Names)) {
					rs = append(rs, q.typ(f.Type, tparams))
				}
			}
			r = " " + strings.Join(rs, ", ")
		}
		return "func(" + strings.Join(s, ", ") + ")" + r
	case *ast.InterfaceType:
		return "interface{...}"
	case *ast.MapType:
		return "map[" + q.typ(t.Key, tparams) + "]" + q.typ(t.Value, tparams)
	case *ast.ChanType:
		return "chan " + q.typ(t.Value, tparams)
	}
	return fmt.Sprintf("%T", e)
}

// emit writes the table: rows for the functions with a position, in
// package and name order; it returns the source (formatted by WriteGo)
// and the functions it cannot call.
func emit(fns []fn, enums map[string]string) ([]byte, []string) {
	sort.Slice(fns, func(i, j int) bool {
		if fns[i].pkg != fns[j].pkg {
			return fns[i].pkg < fns[j].pkg
		}
		return fns[i].name < fns[j].name
	})
	var b bytes.Buffer
	var problems []string
	imports := map[string]bool{}
	b.WriteString(genfile.Header("go run ./gen") + "package entry\n\nimport (\n@IMPORTS@)\n\n")
	fmt.Fprintf(&b, "// calls are lapis's exported functions and methods that take a view or\n// a tensor, each called with the values *Args gives.\nvar calls = []Call{\n")
	rows, without := 0, 0
	for _, f := range fns {
		all := f.params
		if f.recv != nil {
			all = append([]param{*f.recv}, all...)
		}
		hasPos := false
		for _, p := range all {
			if _, ok := positions[p.typ]; ok {
				hasPos = true
			}
		}
		if !hasPos {
			without++
			continue
		}
		if why, ok := notCalled[f.pkg+"."+f.name]; ok {
			fmt.Fprintf(&b, "\t// %s.%s: not called: %s.\n", f.pkg, f.name, why)
			continue
		}
		var ps, args []string
		bad := false
		for i, p := range all {
			kind, isPos := positions[p.typ]
			get, isVal := values[p.typ]
			base, isEnum := enums[strings.TrimPrefix(p.typ, "...")]
			isEnum = isEnum && !isPos && !isVal
			if target, ok := strings.CutPrefix(base, "alias "); ok {
				base, isEnum = enums[target]
			}
			isStruct := isEnum && base == "struct"
			if isStruct {
				isEnum = false
			}
			switch {
			case isPos:
				ps = append(ps, fmt.Sprintf("{%q, %q, true}", p.name, kind))
				get = kind
			case isVal:
				ps = append(ps, fmt.Sprintf("{%q, %q, false}", p.name, get))
			case isEnum:
				ps = append(ps, fmt.Sprintf("{%q, %q, false}", p.name, "Enum"))
			case isStruct:
				ps = append(ps, fmt.Sprintf("{%q, %q, false}", p.name, "Zero"))
			default:
				problems = append(problems, fmt.Sprintf("%s.%s: parameter %s of type %s", f.pkg, f.name, p.name, p.typ))
				bad = true
				continue
			}
			if f.recv != nil && i == 0 {
				continue
			}
			var a string
			switch {
			case isEnum:
				typ := strings.TrimPrefix(p.typ, "...")
				if target, ok := strings.CutPrefix(enums[typ], "alias "); ok {
					typ = target
				}
				cs := consts[typ]
				if len(cs) == 0 {
					problems = append(problems, fmt.Sprintf("%s.%s: parameter %s: no constants of type %s", f.pkg, f.name, p.name, typ))
					continue
				}
				a = fmt.Sprintf("Pick(x, %s)", strings.Join(cs, ", "))
				for _, c := range cs {
					imports[strings.SplitN(c, ".", 2)[0]] = true
				}
			case isStruct && ctors[p.typ] != "":
				a = ctors[p.typ]
			case isStruct:
				a = p.typ + "{}"
			case get == "":
				continue // options: none
			default:
				a = fmt.Sprintf("x.%s(%d)", get, i)
			}
			if p.variadic {
				a += "..."
			}
			args = append(args, a)
			if isEnum || isStruct {
				imports[strings.SplitN(p.typ, ".", 2)[0]] = true
			}
		}
		if bad {
			continue
		}
		imports[f.pkg] = true
		var call string
		inst := ""
		if len(f.tparams) > 0 {
			inst = "[" + strings.Join(f.targs, ", ") + "]"
		}
		if f.recv != nil {
			kind := positions[f.recv.typ]
			if kind == "" {
				kind = values[f.recv.typ]
			}
			if kind == "" {
				problems = append(problems, fmt.Sprintf("%s.%s: receiver of type %s", f.pkg, f.name, f.recv.typ))
				continue
			}
			method := f.name[strings.Index(f.name, ".")+1:]
			call = fmt.Sprintf("x.%s(0).%s%s(%s)", kind, method, inst, strings.Join(args, ", "))
		} else {
			call = fmt.Sprintf("%s.%s%s(%s)", f.pkg, f.name, inst, strings.Join(args, ", "))
		}
		var rs []string
		for _, r := range f.results {
			rs = append(rs, r)
		}
		body := ""
		switch {
		case len(rs) == 0:
			body = call + "\n\t\treturn Result{}"
		case rs[len(rs)-1] == "error":
			vars := strings.Repeat("_, ", len(rs)-1)
			if len(rs) > 1 {
				vars = "r0, " + strings.Repeat("_, ", len(rs)-2)
			}
			keep := "nil"
			if len(rs) > 1 {
				keep = "r0"
			}
			body = fmt.Sprintf("%serr := %s\n\t\treturn Result{Value: %s, Err: err, HasErr: true}", vars, call, keep)
		default:
			vars := "r0" + strings.Repeat(", _", len(rs)-1)
			body = fmt.Sprintf("%s := %s\n\t\treturn Result{Value: r0}", vars, call)
		}
		fmt.Fprintf(&b, "\t{Name: %q, Params: []Param{%s}, Fn: func(x *Args) Result {\n\t\t%s\n\t}},\n",
			f.pkg+"."+f.name, strings.Join(ps, ", "), body)
		rows++
	}
	fmt.Fprintf(&b, "}\n\n// Left out: %d exported functions and methods without a view or tensor parameter.\n", without)
	var imp []string
	for p := range imports {
		if p == "lapis" {
			imp = append(imp, fmt.Sprintf("\t%q\n", module))
			continue
		}
		imp = append(imp, fmt.Sprintf("\t%q\n", module+"/"+p))
	}
	sort.Strings(imp)
	return []byte(strings.Replace(b.String(), "@IMPORTS@", strings.Join(imp, ""), 1)), problems
}
