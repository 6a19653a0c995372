// Command genlapack writes internal/clib/zlapack.go: one generic
// dispatcher per LAPACK routine family (Getrf for xgetrf, Gesdd for
// xgesdd, ...) that calls the Fortran routine of its element type
// (sgetrf_, dgetrf_, cgetrf_ or zgetrf_, as exported by libopenblas and
// declared in <lapack.h>); and lapack/zfamilies.go, the table package
// lapack reads to name a failing argument and to classify info > 0. Run
// it with `go generate ./internal/clib`; scripts/test.sh fails when a
// checked-in file differs from what it writes.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/lapis-go/lapis/internal/genfile"
)

// A family is one LAPACK routine in its four precisions.
//
// Parameter kinds (after the colon): c a character option, i an integer,
// r a real scalar input (float64 in Go, passed at the routine's precision),
// ro a real scalar output (*float64 in Go), io an integer output (*int in
// Go), rio and iio a real and an integer scalar read and written (the
// same Go pointers, loaded before the call), P a pointer to elements, R a pointer to reals of the routine's
// precision, I a pointer to integers. Fortran passes every scalar by
// address and appends one hidden length per character argument (gfortran's
// ABI, LAPACK_FORTRAN_STRLEN_END in <lapack.h>); the dispatchers take
// values and do both. A suffix /R or /C keeps a parameter for the real or
// the complex routines only (the complex ones take rwork where the real
// ones take iwork, and so on); the Go dispatcher takes it either way.
//
// fail says what info > 0 means: the sentinel error it matches.
type family struct {
	name   string
	params string
	ret    string // "" (info), R (a real result, float64 in Go) or V (nothing)
	f      [4]string
	fail   string
	doc    string
}

var families = []family{
	{"xgesv", "n:i nrhs:i a:P lda:i ipiv:I b:P ldb:i", "", [4]string{"sgesv", "dgesv", "cgesv", "zgesv"}, "ErrSingular", "A X = B by LU with partial pivoting"},
	{"xgetrf", "m:i n:i a:P lda:i ipiv:I", "", [4]string{"sgetrf", "dgetrf", "cgetrf", "zgetrf"}, "ErrSingular", "A = P L U"},
	{"xgetrs", "trans:c n:i nrhs:i a:P lda:i ipiv:I b:P ldb:i", "", [4]string{"sgetrs", "dgetrs", "cgetrs", "zgetrs"}, "", "op(A) X = B from getrf's factors"},
	{"xgetri", "n:i a:P lda:i ipiv:I work:P lwork:i", "", [4]string{"sgetri", "dgetri", "cgetri", "zgetri"}, "ErrSingular", "A^-1 from getrf's factors"},
	{"xposv", "uplo:c n:i nrhs:i a:P lda:i b:P ldb:i", "", [4]string{"sposv", "dposv", "cposv", "zposv"}, "ErrNotPositiveDefinite", "A X = B, A positive definite"},
	{"xpotrf", "uplo:c n:i a:P lda:i", "", [4]string{"spotrf", "dpotrf", "cpotrf", "zpotrf"}, "ErrNotPositiveDefinite", "A = U^H U or L L^H"},
	{"xpotrs", "uplo:c n:i nrhs:i a:P lda:i b:P ldb:i", "", [4]string{"spotrs", "dpotrs", "cpotrs", "zpotrs"}, "", "A X = B from potrf's factor"},
	{"xpotri", "uplo:c n:i a:P lda:i", "", [4]string{"spotri", "dpotri", "cpotri", "zpotri"}, "ErrSingular", "A^-1 from potrf's factor"},
	{"xsysv", "uplo:c n:i nrhs:i a:P lda:i ipiv:I b:P ldb:i work:P lwork:i", "", [4]string{"ssysv", "dsysv", "csysv", "zsysv"}, "ErrSingular", "A X = B, A symmetric"},
	{"xhesv", "uplo:c n:i nrhs:i a:P lda:i ipiv:I b:P ldb:i work:P lwork:i", "", [4]string{"ssysv", "dsysv", "chesv", "zhesv"}, "ErrSingular", "A X = B, A Hermitian"},
	{"xtrtrs", "uplo:c trans:c diag:c n:i nrhs:i a:P lda:i b:P ldb:i", "", [4]string{"strtrs", "dtrtrs", "ctrtrs", "ztrtrs"}, "ErrSingular", "op(A) X = B, A triangular"},
	{"xgeqrf", "m:i n:i a:P lda:i tau:P work:P lwork:i", "", [4]string{"sgeqrf", "dgeqrf", "cgeqrf", "zgeqrf"}, "", "A = Q R"},
	{"xgelqf", "m:i n:i a:P lda:i tau:P work:P lwork:i", "", [4]string{"sgelqf", "dgelqf", "cgelqf", "zgelqf"}, "", "A = L Q"},
	{"xorgqr", "m:i n:i k:i a:P lda:i tau:P work:P lwork:i", "", [4]string{"sorgqr", "dorgqr", "cungqr", "zungqr"}, "", "Q from geqrf's reflectors"},
	{"xormqr", "side:c trans:c m:i n:i k:i a:P lda:i tau:P c:P ldc:i work:P lwork:i", "", [4]string{"sormqr", "dormqr", "cunmqr", "zunmqr"}, "", "C = op(Q) C or C op(Q)"},
	{"xgels", "trans:c m:i n:i nrhs:i a:P lda:i b:P ldb:i work:P lwork:i", "", [4]string{"sgels", "dgels", "cgels", "zgels"}, "ErrRankDeficient", "least squares or minimum norm op(A) X = B, full rank"},
	{"xgelsd", "m:i n:i nrhs:i a:P lda:i b:P ldb:i s:R rcond:r rank:io work:P lwork:i rwork:R/C iwork:I", "", [4]string{"sgelsd", "dgelsd", "cgelsd", "zgelsd"}, "ErrNoConvergence", "minimum norm least squares by SVD"},
	{"xgesdd", "jobz:c m:i n:i a:P lda:i s:R u:P ldu:i vt:P ldvt:i work:P lwork:i rwork:R/C iwork:I", "", [4]string{"sgesdd", "dgesdd", "cgesdd", "zgesdd"}, "ErrNoConvergence", "A = U S V^H by divide and conquer"},
	{"xgesvd", "jobu:c jobvt:c m:i n:i a:P lda:i s:R u:P ldu:i vt:P ldvt:i work:P lwork:i rwork:R/C", "", [4]string{"sgesvd", "dgesvd", "cgesvd", "zgesvd"}, "ErrNoConvergence", "A = U S V^H by QR iteration"},
	{"xsyevd", "jobz:c uplo:c n:i a:P lda:i w:R work:P lwork:i rwork:R/C lrwork:i/C iwork:I liwork:i", "", [4]string{"ssyevd", "dsyevd", "cheevd", "zheevd"}, "ErrNoConvergence", "A = V diag(w) V^H by divide and conquer"},
	{"xsyevr", "jobz:c rng:c uplo:c n:i a:P lda:i vl:r vu:r il:i iu:i abstol:r m:io w:R z:P ldz:i isuppz:I work:P lwork:i rwork:R/C lrwork:i/C iwork:I liwork:i", "", [4]string{"ssyevr", "dsyevr", "cheevr", "zheevr"}, "ErrNoConvergence", "selected eigenpairs by relatively robust representations"},
	{"xgeev", "jobvl:c jobvr:c n:i a:P lda:i wr:R/R wi:R/R w:P/C vl:P ldvl:i vr:P ldvr:i work:P lwork:i rwork:R/C", "", [4]string{"sgeev", "dgeev", "cgeev", "zgeev"}, "ErrNoConvergence", "eigenvalues and vectors of a general matrix"},
	{"xgecon", "norm:c n:i a:P lda:i anorm:r rcond:ro work:P iwork:I/R rwork:R/C", "", [4]string{"sgecon", "dgecon", "cgecon", "zgecon"}, "", "reciprocal condition number from getrf's factors"},
	{"xpocon", "uplo:c n:i a:P lda:i anorm:r rcond:ro work:P iwork:I/R rwork:R/C", "", [4]string{"spocon", "dpocon", "cpocon", "zpocon"}, "", "reciprocal condition number from potrf's factor"},
	{"xtrcon", "norm:c uplo:c diag:c n:i a:P lda:i rcond:ro work:P iwork:I/R rwork:R/C", "", [4]string{"strcon", "dtrcon", "ctrcon", "ztrcon"}, "", "reciprocal condition number of a triangular matrix"},
	{"xlange", "norm:c m:i n:i a:P lda:i work:R", "R", [4]string{"slange", "dlange", "clange", "zlange"}, "", "a norm of A"},
	// Families the row-major gonum adapter (gonum.go) needs: the LQ
	// counterparts of the QR routines, and routines lapack.Float64 has
	// that the typed layer does not use.
	{"xorglq", "m:i n:i k:i a:P lda:i tau:P work:P lwork:i", "", [4]string{"sorglq", "dorglq", "cunglq", "zunglq"}, "", "Q from gelqf's reflectors"},
	{"xormlq", "side:c trans:c m:i n:i k:i a:P lda:i tau:P c:P ldc:i work:P lwork:i", "", [4]string{"sormlq", "dormlq", "cunmlq", "zunmlq"}, "", "C = op(Q) C or C op(Q), Q from gelqf"},
	{"xgeqp3", "m:i n:i a:P lda:i jpvt:I tau:P work:P lwork:i rwork:R/C", "", [4]string{"sgeqp3", "dgeqp3", "cgeqp3", "zgeqp3"}, "", "A P = Q R with column pivoting"},
	{"xtrtri", "uplo:c diag:c n:i a:P lda:i", "", [4]string{"strtri", "dtrtri", "ctrtri", "ztrtri"}, "ErrSingular", "A^-1, A triangular"},
	{"xpstrf", "uplo:c n:i a:P lda:i piv:I rank:io tol:r work:R", "", [4]string{"spstrf", "dpstrf", "cpstrf", "zpstrf"}, "ErrNotPositiveDefinite", "P^T A P = U^H U or L L^H with complete pivoting"},
	{"xpbtrf", "uplo:c n:i kd:i ab:P ldab:i", "", [4]string{"spbtrf", "dpbtrf", "cpbtrf", "zpbtrf"}, "ErrNotPositiveDefinite", "A = U^H U or L L^H, A banded"},
	{"xpbcon", "uplo:c n:i kd:i ab:P ldab:i anorm:r rcond:ro work:P iwork:I/R rwork:R/C", "", [4]string{"spbcon", "dpbcon", "cpbcon", "zpbcon"}, "", "reciprocal condition number from pbtrf's factor"},
	{"xggsvd3", "jobu:c jobv:c jobq:c m:i n:i p:i k:io l:io a:P lda:i b:P ldb:i alpha:R beta:R u:P ldu:i v:P ldv:i q:P ldq:i work:P lwork:i rwork:R/C iwork:I", "", [4]string{"sggsvd3", "dggsvd3", "cggsvd3", "zggsvd3"}, "ErrNoConvergence", "the generalized SVD of (A, B)"},
	{"xlantr", "norm:c uplo:c diag:c m:i n:i a:P lda:i work:R", "R", [4]string{"slantr", "dlantr", "clantr", "zlantr"}, "", "a norm of a trapezoidal A"},
	{"xlansy", "norm:c uplo:c n:i a:P lda:i work:R", "R", [4]string{"slansy", "dlansy", "clansy", "zlansy"}, "", "a norm of a symmetric A"},
	{"xlapmr", "forwrd:i m:i n:i x:P ldx:i k:I", "V", [4]string{"slapmr", "dlapmr", "clapmr", "zlapmr"}, "", "permute the rows of X"},
	{"xlapmt", "forwrd:i m:i n:i x:P ldx:i k:I", "V", [4]string{"slapmt", "dlapmt", "clapmt", "zlapmt"}, "", "permute the columns of X"},
	// ?gecon's steps, for gonumlapack's Dgecon on the stored transpose of
	// getrf's factors (?latrs is declared in lapis_lapack.h).
	{"xlacn2", "n:i v:P x:P isgn:I/R est:rio kase:iio isave:I", "V", [4]string{"slacn2", "dlacn2", "clacn2", "zlacn2"}, "", "one step of the 1-norm estimator (reverse communication)"},
	{"xlatrs", "uplo:c trans:c diag:c normin:c n:i a:P lda:i x:P scale:ro cnorm:R", "", [4]string{"slatrs", "dlatrs", "clatrs", "zlatrs"}, "", "op(A) x = s b, A triangular, with scaling against overflow"},
}

var types = [4]struct{ goType, cElem, cReal string }{
	{"float32", "C.float", "C.float"},
	{"float64", "C.double", "C.double"},
	{"complex64", "C.complexfloat", "C.float"},
	{"complex128", "C.complexdouble", "C.double"},
}

type param struct {
	name, kind string
	only       string // "", "R" or "C"
}

func parse(s string) []param {
	var ps []param
	for _, f := range genfile.Params(s) {
		k, only, _ := strings.Cut(f.Kind, "/")
		ps = append(ps, param{f.Name, k, only})
	}
	return ps
}

// keeps reports whether p is passed to the routine of type index t.
func (p param) keeps(t int) bool {
	return p.only == "" || (p.only == "C") == (t >= 2)
}

func main() {
	var b bytes.Buffer
	const gen = "internal/clib/internal/genlapack"
	b.WriteString(genfile.Header(gen))
	b.WriteString("package clib\n\n")
	b.WriteString("/*\n#include \"lapis_lapack.h\"\n\n")
	b.WriteString("// LAPACK keeps no pointer after it returns and never calls back into Go.\n")
	seen := map[string]bool{}
	for _, f := range families {
		for _, r := range f.f {
			if !seen[r] {
				seen[r] = true
				fmt.Fprintf(&b, "#cgo noescape %s_\n#cgo nocallback %s_\n", r, r)
			}
		}
	}
	b.WriteString("*/\nimport \"C\"\n\nimport (\n\t\"unsafe\"\n\n\t\"github.com/lapis-go/lapis/internal/scalar\"\n)\n\n")
	b.WriteString("// Every int handed to a dispatcher has been checked to fit the LAPACK\n// integer (lapack.IntBits): the conversions below never truncate.\n\n")
	for _, f := range families {
		emit(&b, f)
	}
	if err := genfile.WriteGo(arg(1, "zlapack.go"), b.Bytes()); err != nil {
		log.Fatal(err)
	}

	b.Reset()
	b.WriteString(genfile.Header(gen))
	b.WriteString("package lapack\n\n")
	b.WriteString("// families describes each dispatcher for errors: its routines and the\n// names of their arguments in order (real, complex), and what info > 0\n// means.\n")
	b.WriteString("var families = map[string]family{\n")
	for _, f := range families {
		var names [2][]string
		for _, p := range parse(f.params) {
			for c := range 2 {
				if p.keeps(2 * c) {
					names[c] = append(names[c], fmt.Sprintf("%q", p.name))
				}
			}
		}
		fail := f.fail
		if fail == "" {
			fail = "nil"
		}
		fmt.Fprintf(&b, "\t%q: {routines: [4]string{%q, %q, %q, %q}, args: [2][]string{{%s}, {%s}}, fail: %s},\n",
			f.name, f.f[0], f.f[1], f.f[2], f.f[3], strings.Join(names[0], ", "), strings.Join(names[1], ", "), fail)
	}
	b.WriteString("}\n")
	if err := genfile.WriteGo(arg(2, "../../lapack/zfamilies.go"), b.Bytes()); err != nil {
		log.Fatal(err)
	}
}

// arg is the i-th command-line argument (from the //go:generate line), or
// def.
func arg(i int, def string) string {
	if len(os.Args) > i {
		return os.Args[i]
	}
	return def
}

// exported is the dispatcher's name for a family: xgetrf is Getrf.
func exported(name string) string { return genfile.Exported(name) }

func emit(b *bytes.Buffer, f family) {
	ps := parse(f.params)
	var sig []string
	for _, p := range ps {
		switch p.kind {
		case "c":
			sig = append(sig, p.name+" byte")
		case "i":
			sig = append(sig, p.name+" int")
		case "r":
			sig = append(sig, p.name+" float64")
		case "ro":
			sig = append(sig, p.name+" *float64")
		case "io", "iio":
			sig = append(sig, p.name+" *int")
		case "rio":
			sig = append(sig, p.name+" *float64")
		case "P", "R", "I":
			sig = append(sig, p.name+" unsafe.Pointer")
		default:
			log.Fatalf("%s: unknown kind %q", f.name, p.kind)
		}
	}
	ret := " (info int)"
	switch f.ret {
	case "R":
		ret = " (ret float64)"
	case "V":
		ret = ""
	}
	fmt.Fprintf(b, "// %s calls ?%s_: %s.\n", exported(f.name), strings.TrimPrefix(f.name, "x"), f.doc)
	fmt.Fprintf(b, "func %s[T scalar.Type](%s)%s {\n", exported(f.name), strings.Join(sig, ", "), ret)
	// Fortran takes scalars by address: copy each into a C variable.
	for _, p := range ps {
		switch p.kind {
		case "c":
			fmt.Fprintf(b, "\tc%s := C.char(%s)\n", p.name, p.name)
		case "i":
			fmt.Fprintf(b, "\tc%s := C.lapis_int(%s)\n", p.name, p.name)
		case "io":
			fmt.Fprintf(b, "\tvar c%s C.lapis_int\n", p.name)
		case "iio":
			fmt.Fprintf(b, "\tc%s := C.lapis_int(*%s)\n", p.name, p.name)
		}
	}
	if f.ret == "" {
		b.WriteString("\tvar cinfo C.lapis_int\n")
	}
	b.WriteString("\tdefer Leave(Enter())\n")
	b.WriteString("\tswitch any(*new(T)).(type) {\n")
	for t, r := range f.f {
		ty := types[t]
		var args, pre, post []string
		nchar := 0
		for _, p := range ps {
			if !p.keeps(t) {
				continue
			}
			switch p.kind {
			case "c":
				args = append(args, "&c"+p.name)
				nchar++
			case "i", "io", "iio":
				args = append(args, "&c"+p.name)
			case "r":
				pre = append(pre, fmt.Sprintf("c%s := %s(%s)", p.name, ty.cReal, p.name))
				args = append(args, "&c"+p.name)
			case "ro":
				pre = append(pre, fmt.Sprintf("var c%s %s", p.name, ty.cReal))
				args = append(args, "&c"+p.name)
				post = append(post, fmt.Sprintf("*%s = float64(c%s)", p.name, p.name))
			case "rio":
				pre = append(pre, fmt.Sprintf("c%s := %s(*%s)", p.name, ty.cReal, p.name))
				args = append(args, "&c"+p.name)
				post = append(post, fmt.Sprintf("*%s = float64(c%s)", p.name, p.name))
			case "P":
				args = append(args, fmt.Sprintf("(*%s)(%s)", ty.cElem, p.name))
			case "R":
				args = append(args, fmt.Sprintf("(*%s)(%s)", ty.cReal, p.name))
			case "I":
				args = append(args, fmt.Sprintf("(*C.lapis_int)(%s)", p.name))
			}
		}
		if f.ret == "" {
			args = append(args, "&cinfo")
		}
		for range nchar {
			args = append(args, "1")
		}
		for _, p := range ps {
			if p.kind == "io" || p.kind == "iio" {
				post = append(post, fmt.Sprintf("*%s = int(c%s)", p.name, p.name))
			}
		}
		fmt.Fprintf(b, "\tcase %s:\n", ty.goType)
		for _, s := range pre {
			fmt.Fprintf(b, "\t\t%s\n", s)
		}
		call := fmt.Sprintf("C.%s_(%s)", r, strings.Join(args, ", "))
		if f.ret == "R" {
			fmt.Fprintf(b, "\t\tret = float64(%s)\n", call)
		} else {
			fmt.Fprintf(b, "\t\t%s\n", call)
		}
		for _, s := range post {
			fmt.Fprintf(b, "\t\t%s\n", s)
		}
	}
	b.WriteString("\tdefault:\n\t\tpanic(\"clib: no ?" + strings.TrimPrefix(f.name, "x") + " for this element type\") // unreachable: Scalar has four types\n")
	b.WriteString("\t}\n")
	switch f.ret {
	case "R":
		b.WriteString("\treturn ret\n")
	case "":
		b.WriteString("\treturn int(cinfo)\n")
	}
	b.WriteString("}\n\n")
}
