// Command genblas writes internal/clib/zblas.go: one generic dispatcher
// per BLAS routine family (Gemm for xgemm, Dot for xdot, ...) that calls
// the s, d, c or z CBLAS routine for its element type, in column-major
// order (plus a row-major FooRow for the few families listed in rowMajor),
// with Go's types: int for the BLAS integer (the caller has checked that
// it fits), clib's Trans, Uplo, Diag and Side for the enums. Run it with
// `go generate ./internal/clib`; scripts/test.sh fails when the
// checked-in file differs from what it writes.
package main

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/lapis-go/lapis/internal/genfile"
)

// A family is one BLAS routine in its four precisions.
//
// Parameter kinds (after the colon): i a BLAS integer, P a pointer to
// elements, T a scalar of the element type, R a real scalar (float64 in Go,
// passed at the routine's precision), tr/up/dg/sd the transpose, uplo, diag
// and side enums. Level 2 and 3 families get CblasColMajor as their first
// argument (CblasRowMajor in the xfooRow variants, see rowMajor). ret is ""
// (none), T (a scalar: complex results come through the _sub routines'
// out-pointer), R (a real scalar) or I (an index).
type family struct {
	name   string
	params string
	ret    string
	matrix bool      // takes the order argument
	c      [4]string // routines for s, d, c, z; "" where CBLAS has none
	doc    string
}

var families = []family{
	{"xdot", "n:i x:P incx:i y:P incy:i", "T", false, [4]string{"sdot", "ddot", "cdotu_sub", "zdotu_sub"}, "x^T y"},
	{"xdotc", "n:i x:P incx:i y:P incy:i", "T", false, [4]string{"sdot", "ddot", "cdotc_sub", "zdotc_sub"}, "x^H y"},
	{"xaxpy", "n:i alpha:T x:P incx:i y:P incy:i", "", false, [4]string{"saxpy", "daxpy", "caxpy", "zaxpy"}, "y += alpha x"},
	{"xscal", "n:i alpha:T x:P incx:i", "", false, [4]string{"sscal", "dscal", "cscal", "zscal"}, "x *= alpha"},
	{"xrscal", "n:i alpha:R x:P incx:i", "", false, [4]string{"sscal", "dscal", "csscal", "zdscal"}, "x *= alpha, alpha real"},
	{"xnrm2", "n:i x:P incx:i", "R", false, [4]string{"snrm2", "dnrm2", "scnrm2", "dznrm2"}, "the Euclidean norm of x"},
	{"xasum", "n:i x:P incx:i", "R", false, [4]string{"sasum", "dasum", "scasum", "dzasum"}, "the sum of |Re| + |Im| over x"},
	{"ixamax", "n:i x:P incx:i", "I", false, [4]string{"isamax", "idamax", "icamax", "izamax"}, "the 0-based index of the largest |Re| + |Im| in x"},
	{"xcopy", "n:i x:P incx:i y:P incy:i", "", false, [4]string{"scopy", "dcopy", "ccopy", "zcopy"}, "y = x"},
	{"xswap", "n:i x:P incx:i y:P incy:i", "", false, [4]string{"sswap", "dswap", "cswap", "zswap"}, "x, y = y, x"},
	{"xrot", "n:i x:P incx:i y:P incy:i c:R s:R", "", false, [4]string{"srot", "drot", "csrot", "zdrot"}, "a plane rotation with real c, s"},

	{"xgemv", "trans:tr m:i n:i alpha:T a:P lda:i x:P incx:i beta:T y:P incy:i", "", true, [4]string{"sgemv", "dgemv", "cgemv", "zgemv"}, "y = alpha op(A) x + beta y"},
	{"xgeru", "m:i n:i alpha:T x:P incx:i y:P incy:i a:P lda:i", "", true, [4]string{"sger", "dger", "cgeru", "zgeru"}, "A += alpha x y^T"},
	{"xgerc", "m:i n:i alpha:T x:P incx:i y:P incy:i a:P lda:i", "", true, [4]string{"sger", "dger", "cgerc", "zgerc"}, "A += alpha x y^H"},
	{"xhemv", "uplo:up n:i alpha:T a:P lda:i x:P incx:i beta:T y:P incy:i", "", true, [4]string{"ssymv", "dsymv", "chemv", "zhemv"}, "y = alpha A x + beta y, A Hermitian"},
	{"xtrmv", "uplo:up trans:tr diag:dg n:i a:P lda:i x:P incx:i", "", true, [4]string{"strmv", "dtrmv", "ctrmv", "ztrmv"}, "x = op(A) x, A triangular"},
	{"xtrsv", "uplo:up trans:tr diag:dg n:i a:P lda:i x:P incx:i", "", true, [4]string{"strsv", "dtrsv", "ctrsv", "ztrsv"}, "x = op(A)^-1 x, A triangular"},
	{"xher", "uplo:up n:i alpha:R x:P incx:i a:P lda:i", "", true, [4]string{"ssyr", "dsyr", "cher", "zher"}, "A += alpha x x^H, alpha real"},
	{"xher2", "uplo:up n:i alpha:T x:P incx:i y:P incy:i a:P lda:i", "", true, [4]string{"ssyr2", "dsyr2", "cher2", "zher2"}, "A += alpha x y^H + conj(alpha) y x^H"},

	{"xgemm", "transA:tr transB:tr m:i n:i k:i alpha:T a:P lda:i b:P ldb:i beta:T c:P ldc:i", "", true, [4]string{"sgemm", "dgemm", "cgemm", "zgemm"}, "C = alpha op(A) op(B) + beta C"},
	{"xsymm", "side:sd uplo:up m:i n:i alpha:T a:P lda:i b:P ldb:i beta:T c:P ldc:i", "", true, [4]string{"ssymm", "dsymm", "csymm", "zsymm"}, "C = alpha A B + beta C (or B A), A symmetric"},
	{"xhemm", "side:sd uplo:up m:i n:i alpha:T a:P lda:i b:P ldb:i beta:T c:P ldc:i", "", true, [4]string{"ssymm", "dsymm", "chemm", "zhemm"}, "C = alpha A B + beta C (or B A), A Hermitian"},
	{"xsyrk", "uplo:up trans:tr n:i k:i alpha:T a:P lda:i beta:T c:P ldc:i", "", true, [4]string{"ssyrk", "dsyrk", "csyrk", "zsyrk"}, "C = alpha op(A) op(A)^T + beta C"},
	{"xherk", "uplo:up trans:tr n:i k:i alpha:R a:P lda:i beta:R c:P ldc:i", "", true, [4]string{"ssyrk", "dsyrk", "cherk", "zherk"}, "C = alpha op(A) op(A)^H + beta C, alpha and beta real"},
	{"xsyr2k", "uplo:up trans:tr n:i k:i alpha:T a:P lda:i b:P ldb:i beta:T c:P ldc:i", "", true, [4]string{"ssyr2k", "dsyr2k", "csyr2k", "zsyr2k"}, "C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C"},
	{"xher2k", "uplo:up trans:tr n:i k:i alpha:T a:P lda:i b:P ldb:i beta:R c:P ldc:i", "", true, [4]string{"ssyr2k", "dsyr2k", "cher2k", "zher2k"}, "C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C, beta real"},
	{"xtrmm", "side:sd uplo:up transA:tr diag:dg m:i n:i alpha:T a:P lda:i b:P ldb:i", "", true, [4]string{"strmm", "dtrmm", "ctrmm", "ztrmm"}, "B = alpha op(A) B (or B op(A)), A triangular"},
	{"xtrsm", "side:sd uplo:up transA:tr diag:dg m:i n:i alpha:T a:P lda:i b:P ldb:i", "", true, [4]string{"strsm", "dtrsm", "ctrsm", "ztrsm"}, "B = alpha op(A)^-1 B (or B op(A)^-1), A triangular"},

	// The rest of gonum's blas interfaces, for gonumblas: the real
	// rotations and mixed-precision dots, band and packed Level 2.
	{"xrotmg", "d1:P d2:P b1:P b2:T p:P", "", false, [4]string{"srotmg", "drotmg", "", ""}, "a modified Givens rotation into p"},
	{"xrotm", "n:i x:P incx:i y:P incy:i p:P", "", false, [4]string{"srotm", "drotm", "", ""}, "the modified Givens rotation p"},
	{"xsdsdot", "n:i alpha:T x:P incx:i y:P incy:i", "T", false, [4]string{"sdsdot", "", "", ""}, "alpha + x^T y accumulated in double"},
	{"xdsdot", "n:i x:P incx:i y:P incy:i", "R", false, [4]string{"dsdot", "", "", ""}, "x^T y accumulated in double"},

	{"xgbmv", "trans:tr m:i n:i kl:i ku:i alpha:T a:P lda:i x:P incx:i beta:T y:P incy:i", "", true, [4]string{"sgbmv", "dgbmv", "cgbmv", "zgbmv"}, "y = alpha op(A) x + beta y, A banded"},
	{"xhbmv", "uplo:up n:i k:i alpha:T a:P lda:i x:P incx:i beta:T y:P incy:i", "", true, [4]string{"ssbmv", "dsbmv", "chbmv", "zhbmv"}, "y = alpha A x + beta y, A Hermitian banded"},
	{"xhpmv", "uplo:up n:i alpha:T ap:P x:P incx:i beta:T y:P incy:i", "", true, [4]string{"sspmv", "dspmv", "chpmv", "zhpmv"}, "y = alpha A x + beta y, A Hermitian packed"},
	{"xtbmv", "uplo:up trans:tr diag:dg n:i k:i a:P lda:i x:P incx:i", "", true, [4]string{"stbmv", "dtbmv", "ctbmv", "ztbmv"}, "x = op(A) x, A triangular banded"},
	{"xtbsv", "uplo:up trans:tr diag:dg n:i k:i a:P lda:i x:P incx:i", "", true, [4]string{"stbsv", "dtbsv", "ctbsv", "ztbsv"}, "x = op(A)^-1 x, A triangular banded"},
	{"xtpmv", "uplo:up trans:tr diag:dg n:i ap:P x:P incx:i", "", true, [4]string{"stpmv", "dtpmv", "ctpmv", "ztpmv"}, "x = op(A) x, A triangular packed"},
	{"xtpsv", "uplo:up trans:tr diag:dg n:i ap:P x:P incx:i", "", true, [4]string{"stpsv", "dtpsv", "ctpsv", "ztpsv"}, "x = op(A)^-1 x, A triangular packed"},
	{"xhpr", "uplo:up n:i alpha:R x:P incx:i ap:P", "", true, [4]string{"sspr", "dspr", "chpr", "zhpr"}, "A += alpha x x^H, A Hermitian packed, alpha real"},
	{"xhpr2", "uplo:up n:i alpha:T x:P incx:i y:P incy:i ap:P", "", true, [4]string{"sspr2", "dspr2", "chpr2", "zhpr2"}, "A += alpha x y^H + conj(alpha) y x^H, A Hermitian packed"},
}

// rowMajor lists the families that also get a <name>Row dispatcher, which
// passes CblasRowMajor instead of CblasColMajor. The gonum adapter
// (gonumblas) reads gonum's row-major matrices as their column-major
// transposes; these are the complex cases where that reading would need
// conjugated data (op(A) = A^H of a general, triangular or banded matrix;
// x y^H; a Hermitian matrix, whose transpose is its conjugate), which
// OpenBLAS's row-major entry points handle in their kernels without copies.
var rowMajor = map[string]bool{
	"xgemv": true, "xgbmv": true, "xtrmv": true, "xtrsv": true,
	"xtbmv": true, "xtbsv": true, "xtpmv": true, "xtpsv": true,
	"xgerc": true, "xhemv": true, "xhbmv": true, "xhpmv": true,
	"xher": true, "xhpr": true, "xher2": true, "xhpr2": true,
}

// enumType is the Go type of each enum kind in the dispatchers.
var enumType = map[string]string{"tr": "Trans", "up": "Uplo", "dg": "Diag", "sd": "Side"}

// exported is the dispatcher's name for a family: xgemm is Gemm, ixamax
// Iamax, xgemvRow GemvRow.
func exported(name string) string {
	if name == "ixamax" {
		return "Iamax"
	}
	return genfile.Exported(name)
}

var types = [4]struct{ goType, cReal string }{
	{"float32", "C.float"}, {"float64", "C.double"}, {"complex64", "C.float"}, {"complex128", "C.double"},
}

type param = genfile.Param

func parse(s string) []param { return genfile.Params(s) }

func main() {
	var b bytes.Buffer
	b.WriteString(genfile.Header("internal/clib/internal/genblas"))
	b.WriteString("package clib\n\n")
	b.WriteString("/*\n")
	b.WriteString("#include \"lapis_cblas.h\"\n\n")
	b.WriteString("// Go calls each CBLAS routine through a static inline wrapper whose\n")
	b.WriteString("// parameters are lapis's own types (lapis_cblas.h): CBLAS headers declare\n")
	b.WriteString("// the enum and integer parameters differently (enum tags in OpenBLAS's and\n")
	b.WriteString("// BLIS's, typedefs in the reference one), and cgo gives each spelling its\n")
	b.WriteString("// own Go type; C converts them implicitly. gcc inlines the wrappers.\n")
	seen := map[string]bool{}
	for _, f := range families {
		for t, c := range f.c {
			if c != "" && !seen[c] {
				seen[c] = true
				wrapper(&b, f, t, c)
			}
		}
	}
	b.WriteString("\n// BLAS keeps no pointer after it returns and never calls back into Go.\n")
	seen = map[string]bool{}
	for _, f := range families {
		for _, c := range f.c {
			if c != "" && !seen[c] {
				seen[c] = true
				fmt.Fprintf(&b, "#cgo noescape lapis_cblas_%s\n#cgo nocallback lapis_cblas_%s\n", c, c)
			}
		}
	}
	b.WriteString("*/\nimport \"C\"\n\nimport (\n\t\"unsafe\"\n\n\t\"github.com/lapis-go/lapis/internal/scalar\"\n)\n\n")
	for _, f := range families {
		emit(&b, f, "C.CblasColMajor")
		if rowMajor[f.name] {
			emit(&b, f, "C.CblasRowMajor")
		}
	}
	if err := genfile.WriteGo(genfile.Path("zblas.go"), b.Bytes()); err != nil {
		log.Fatal(err)
	}
}

// cEnumType is the C type of each enum kind in the wrappers.
var cEnumType = map[string]string{"tr": "lapis_trans_t", "up": "lapis_uplo_t", "dg": "lapis_diag_t", "sd": "lapis_side_t"}

// wrapper writes the C wrapper lapis_cblas_<c> of routine c, the element
// type t's member of family f.
func wrapper(b *bytes.Buffer, f family, t int, c string) {
	real := [4]string{"float", "double", "float", "double"}[t]
	complexT := t >= 2
	var params, args []string
	if f.matrix {
		params, args = append(params, "int order"), append(args, "order")
	}
	for _, p := range parse(f.params) {
		var ty string
		switch p.Kind {
		case "i":
			ty = "blasint "
		case "P":
			ty = real + " *"
			if complexT {
				ty = "void *"
			}
		case "T":
			ty = real + " "
			if complexT {
				ty = "const void *"
			}
		case "R":
			ty = real + " "
		default:
			ty = cEnumType[p.Kind] + " "
		}
		params, args = append(params, ty+p.Name), append(args, p.Name)
	}
	ret := "void"
	switch {
	case f.ret == "T" && strings.HasSuffix(c, "_sub"):
		params, args = append(params, "void *ret"), append(args, "ret")
	case f.ret == "T" || f.ret == "R":
		ret = real
		if f.ret == "R" && (c == "dsdot") {
			ret = "double"
		}
	case f.ret == "I":
		ret = "long long"
	}
	call := fmt.Sprintf("cblas_%s(%s)", c, strings.Join(args, ", "))
	if ret != "void" {
		call = "return " + call
	}
	fmt.Fprintf(b, "static inline %s lapis_cblas_%s(%s) { %s; }\n", ret, c, strings.Join(params, ", "), call)
}

func emit(b *bytes.Buffer, f family, order string) {
	ps := parse(f.params)
	name, orderDoc := f.name, ""
	if order == "C.CblasRowMajor" {
		name, orderDoc = f.name+"Row", " in row-major order"
	}
	name = exported(name)
	var sig []string
	for _, p := range ps {
		switch p.Kind {
		case "i":
			sig = append(sig, p.Name+" int")
		case "P":
			sig = append(sig, p.Name+" unsafe.Pointer")
		case "T":
			sig = append(sig, p.Name+" T")
		case "R":
			sig = append(sig, p.Name+" float64")
		default:
			sig = append(sig, p.Name+" "+enumType[p.Kind])
		}
	}
	ret := map[string]string{"": "", "T": " (ret T)", "R": " (ret float64)", "I": " (ret int)"}[f.ret]
	fmt.Fprintf(b, "// %s calls cblas_?%s%s: %s.\n", name, strings.TrimPrefix(strings.TrimPrefix(f.name, "x"), "i"), orderDoc, f.doc)
	fmt.Fprintf(b, "func %s[T scalar.Type](%s)%s {\n", name, strings.Join(sig, ", "), ret)
	b.WriteString("\tdefer Leave(Enter())\n")
	b.WriteString("\tswitch any(*new(T)).(type) {\n")
	for t, c := range f.c {
		if c == "" {
			continue
		}
		ty := types[t]
		complexT := t >= 2
		var args []string
		if f.matrix {
			args = append(args, order)
		}
		for _, p := range ps {
			switch p.Kind {
			case "i":
				args = append(args, fmt.Sprintf("C.blasint(%s)", p.Name))
			case "P":
				if complexT {
					args = append(args, p.Name)
				} else {
					args = append(args, fmt.Sprintf("(*%s)(%s)", ty.cReal, p.Name))
				}
			case "T":
				if complexT {
					args = append(args, fmt.Sprintf("unsafe.Pointer(&%s)", p.Name))
				} else {
					args = append(args, fmt.Sprintf("*(*%s)(unsafe.Pointer(&%s))", ty.cReal, p.Name))
				}
			case "R":
				args = append(args, fmt.Sprintf("%s(%s)", ty.cReal, p.Name))
			default:
				args = append(args, fmt.Sprintf("C.%s(%s)", cEnumType[p.Kind], p.Name))
			}
		}
		fmt.Fprintf(b, "\tcase %s:\n", ty.goType)
		call := fmt.Sprintf("C.lapis_cblas_%s(%s)", c, strings.Join(args, ", "))
		switch {
		case f.ret == "T" && strings.HasSuffix(c, "_sub"):
			fmt.Fprintf(b, "\t\tC.lapis_cblas_%s(%s, unsafe.Pointer(&ret))\n", c, strings.Join(args, ", "))
		case f.ret == "T":
			fmt.Fprintf(b, "\t\t*(*%s)(unsafe.Pointer(&ret)) = %s(%s)\n", ty.goType, ty.goType, call)
		case f.ret == "R":
			fmt.Fprintf(b, "\t\tret = float64(%s)\n", call)
		case f.ret == "I":
			fmt.Fprintf(b, "\t\tret = int(%s)\n", call)
		default:
			fmt.Fprintf(b, "\t\t%s\n", call)
		}
	}
	b.WriteString("\tdefault:\n\t\tpanic(\"clib: no cblas_?" + strings.TrimPrefix(f.name, "x") + " for this element type\") // unreachable: cblas checks\n")
	b.WriteString("\t}\n")
	if f.ret != "" {
		b.WriteString("\treturn ret\n")
	}
	b.WriteString("}\n\n")
}
