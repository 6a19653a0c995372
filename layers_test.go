package lapis_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The packages' levels: a package may import only packages of a lower
// level (or internal packages, checked apart). Packages not listed (cmd,
// bench, examples, their internals) sit above every level.
var levels = map[string]int{
	"layout":  0,
	"views":   1,
	"":        2, // the root package lapis
	"cblas":   3,
	"elem":    3,
	"lapack":  4,
	"batch":   5,
	"fortran": 5,
	"dist":    5,
	"einsum":  6,
	"npy":     2,

	// The gonum adapters, above the packages whose C layer they share.
	"gonumblas":   4,
	"gonumlapack": 5,
}

// cgoFree are the packages that must build without cgo, with everything
// of the module they import.
var cgoFree = []string{"layout", "views", "npy"}

// cgoOwners are the packages of the library that may import "C" (with
// their internal packages): internal/clib, the one C layer for BLAS and
// LAPACK, and the packages for the other C libraries, ScaLAPACK and MPI
// (dist) and ISO_Fortran_binding.h (fortran). Every other package reaches
// C through them; cmd, bench and examples are programs above the library.
var cgoOwners = []string{"internal/clib", "dist", "fortran", "cmd", "bench", "examples"}

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
	CgoFiles   []string
}

func TestLayers(t *testing.T) {
	const mod = "github.com/lapis-go/lapis"
	out, err := exec.Command("go", "list", "-json", mod+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs[strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, mod), "/")] = p
	}
	rel := func(path string) (string, bool) {
		if path == mod {
			return "", true
		}
		r, ok := strings.CutPrefix(path, mod+"/")
		return r, ok
	}
	for name, p := range pkgs {
		for _, imp := range p.Imports {
			r, ok := rel(imp)
			if !ok {
				continue
			}
			if strings.HasPrefix(r, "internal/") {
				continue // internal packages serve every level
			}
			lp, known := levels[name]
			li := levels[r]
			if strings.HasPrefix(name, "internal/test/entry") {
				continue // test support that calls every public package: above every level
			}
			if strings.HasPrefix(name, "internal/") {
				if li > levels[""] {
					t.Errorf("internal package %s imports %s: internal packages import at most layout, views and the root package", name, imp)
				}
				continue
			}
			if known && li >= lp && r != name {
				t.Errorf("%q (level %d) imports %q (level %d): packages import only lower levels", name, lp, r, li)
			}
		}
	}
	for name, p := range pkgs {
		owned := false
		for _, o := range cgoOwners {
			owned = owned || name == o || strings.HasPrefix(name, o+"/")
		}
		if len(p.CgoFiles) > 0 && !owned {
			t.Errorf("package %q imports \"C\" (%v): C belongs in internal/clib", p.ImportPath, p.CgoFiles)
		}
	}
	for _, name := range cgoFree {
		full := strings.TrimSuffix(mod+"/"+name, "/")
		p, ok := pkgs[name]
		if !ok {
			t.Fatalf("package %q not found", name)
		}
		for _, d := range append([]string{p.ImportPath}, p.Deps...) {
			if d == "runtime/cgo" {
				t.Errorf("package %q depends on cgo (runtime/cgo)", full)
			}
			if r, ok := rel(d); ok && len(pkgs[r].CgoFiles) > 0 {
				t.Errorf("package %q imports %s, which uses cgo", full, d)
			}
		}
	}
}
