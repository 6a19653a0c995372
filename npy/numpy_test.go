package npy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/npy"
	"github.com/lapis-go/lapis/views"
)

var (
	pythonOnce sync.Once
	pythonPath string
)

// numpyPython returns a python3 that imports numpy (python3 on PATH, then
// /usr/bin/python3), or skips the test.
func numpyPython(t testing.TB) string {
	t.Helper()
	pythonOnce.Do(func() {
		for _, p := range []string{"python3", "/usr/bin/python3"} {
			if exec.Command(p, "-c", "import numpy").Run() == nil {
				pythonPath = p
				return
			}
		}
	})
	if pythonPath == "" {
		t.Skip("no python3 with numpy (apt-get install python3-numpy): numpy round trips skipped")
	}
	return pythonPath
}

// runPython runs script with args, input on stdin, and returns stdout.
func runPython(t testing.TB, script string, input any, args ...string) []byte {
	t.Helper()
	py := numpyPython(t)
	in, _ := json.Marshal(input)
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	return out
}

var numpyShapes = [][]int{{}, {5}, {3, 4}, {2, 3, 4}, {2, 1, 3, 2}, {0, 3}}

var descrs = map[npy.Dtype][2]string{
	npy.Float32:    {"<f4", ">f4"},
	npy.Float64:    {"<f8", ">f8"},
	npy.Complex64:  {"<c8", ">c8"},
	npy.Complex128: {"<c16", ">c16"},
}

type numpyFile struct {
	Name  string `json:"name"`
	Descr string `json:"descr"`
	Order string `json:"order"`
	Shape []int  `json:"shape"`
}

// numpy writes files of every dtype, byte order, order and shape; npy
// reads each and compares every element with numpy's a[idx].
const saveScript = `
import json, sys, os
import numpy as np
for f in json.load(sys.stdin):
    shape = tuple(f["shape"])
    n = int(np.prod(shape))
    k = np.arange(n, dtype=np.float64)
    base = k + 0.5
    if f["descr"][1] == "c":
        base = base - 1j * k
    a = base.reshape(shape).astype(f["descr"])
    if f["order"] == "F":
        a = a.copy(order="F")  # (asfortranarray makes a 0-d array 1-d)
    np.save(os.path.join(sys.argv[1], f["name"] + ".npy"), a)
`

func TestNumpyWrites(t *testing.T) {
	numpyPython(t)
	dir := t.TempDir()
	var files []numpyFile
	for d, ds := range descrs {
		for _, ds := range ds {
			for _, order := range []string{"C", "F"} {
				for _, shape := range numpyShapes {
					files = append(files, numpyFile{fmt.Sprintf("%v_%s_%s_%v", d, ds, order, shape), ds, order, shape})
				}
			}
		}
	}
	for i := range files {
		files[i].Name = strings.NewReplacer("<", "le", ">", "be", " ", "x", "[", "", "]", "").Replace(files[i].Name)
	}
	runPython(t, saveScript, files, dir)
	for _, f := range files {
		p := filepath.Join(dir, f.Name+".npy")
		switch f.Descr[1:] {
		case "f4":
			checkNumpyFile[float32](t, p, f)
		case "f8":
			checkNumpyFile[float64](t, p, f)
		case "c8":
			checkNumpyFile[complex64](t, p, f)
		default:
			checkNumpyFile[complex128](t, p, f)
		}
	}
	t.Logf("%d files numpy wrote read back element by element", len(files))
}

func checkNumpyFile[T views.Scalar](t *testing.T, p string, f numpyFile) {
	t.Helper()
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := npy.ReadHeader(fh)
	fh.Close()
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	rl, _ := layout.RowMajor(f.Shape...)
	wantF := f.Order == "F" && !rl.IsColMajor()
	if h.Descr() != f.Descr || h.FortranOrder != wantF || fmt.Sprint(h.Shape) != fmt.Sprint(f.Shape) {
		t.Errorf("%s: header %+v (descr %s), want %s fortran_order %v", f.Name, h, h.Descr(), f.Descr, wantF)
	}
	want := rowMajor[T](t, f.Shape...)
	v, err := npy.ReadFile[T](p)
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	sameElems(t, f.Name, v, want)
	if f.Descr[0] == '<' {
		m, err := npy.Map[T](p)
		if err != nil {
			t.Fatalf("%s: Map: %v", f.Name, err)
		}
		sameElems(t, f.Name+" mapped", m.View(), want)
		if !m.View().Layout().SameStrides(v.Layout()) {
			t.Errorf("%s: Map gave %+v, ReadFile %+v", f.Name, m.View(), v)
		}
		m.Close()
	}
}

// npy writes; numpy loads and returns every element in C order, which must
// be the view's element at that index.
const loadScript = `
import json, sys, os
import numpy as np
out = {}
for name in json.load(sys.stdin):
    p = os.path.join(sys.argv[1], name)
    if name.endswith(".npz"):
        with np.load(p) as z:
            arrays = {name + ":" + k: z[k] for k in z.files}
    else:
        arrays = {name: np.load(p)}
    for k, a in arrays.items():
        flat = a.ravel(order="C")
        if np.iscomplexobj(a):
            vals = [[float(x.real), float(x.imag)] for x in flat]
        else:
            vals = [[float(x), 0.0] for x in flat]
        fortran = None
        if not name.endswith(".npz"):
            with open(p, "rb") as fh:
                np.lib.format.read_magic(fh)
                fortran = np.lib.format.read_array_header_1_0(fh)[1]
        out[k] = {"dtype": a.dtype.str, "shape": list(a.shape), "fortran": fortran, "vals": vals}
json.dump(out, sys.stdout)
`

type numpyArray struct {
	Dtype   string       `json:"dtype"`
	Shape   []int        `json:"shape"`
	Fortran *bool        `json:"fortran"`
	Vals    [][2]float64 `json:"vals"`
}

func compareNumpy[T views.Scalar](t *testing.T, name string, got numpyArray, v views.View[T]) {
	t.Helper()
	if want := descrs[npy.DtypeOf[T]()][0]; got.Dtype != want || fmt.Sprint(got.Shape) != fmt.Sprint(v.Shape()) {
		t.Errorf("%s: numpy read %s %v, want %s %v", name, got.Dtype, got.Shape, want, v.Shape())
		return
	}
	bad := 0
	forEach(v.Shape(), func(idx []int) {
		x := v.At(idx...)
		var re, im float64
		switch y := any(x).(type) {
		case float32:
			re = float64(y)
		case float64:
			re = y
		case complex64:
			re, im = float64(real(y)), float64(imag(y))
		case complex128:
			re, im = real(y), imag(y)
		}
		k := cIndex(v.Shape(), idx)
		if g := got.Vals[k]; (g[0] != re || g[1] != im) && bad < 5 {
			bad++
			t.Errorf("%s: numpy's a%v = %v, want %v", name, idx, g, x)
		}
	})
}

type written struct {
	check func(t *testing.T, got numpyArray)
}

func addWrites[T views.Scalar](t *testing.T, dir string, todo map[string]written) {
	for _, shape := range numpyShapes {
		for vname, v := range variants[T](t, shape) {
			name := strings.NewReplacer(" ", "x", "[", "", "]", "").Replace(fmt.Sprintf("go_%v_%s_%v.npy", npy.DtypeOf[T](), vname, shape))
			if err := npy.WriteFile(filepath.Join(dir, name), v); err != nil {
				t.Fatal(err)
			}
			wantF := !(v.Layout().IsRowMajor() && !v.IsConj()) && v.Len() > 0
			todo[name] = written{func(t *testing.T, got numpyArray) {
				if got.Fortran == nil || *got.Fortran != wantF {
					t.Errorf("%s: numpy read fortran_order %v, want %v", name, got.Fortran, wantF)
				}
				compareNumpy(t, name, got, v)
			}}
		}
	}
}

func TestNumpyReads(t *testing.T) {
	numpyPython(t)
	dir := t.TempDir()
	todo := map[string]written{}
	addWrites[float32](t, dir, todo)
	addWrites[float64](t, dir, todo)
	addWrites[complex64](t, dir, todo)
	addWrites[complex128](t, dir, todo)
	var names []string
	for n := range todo {
		names = append(names, n)
	}
	var got map[string]numpyArray
	if err := json.Unmarshal(runPython(t, loadScript, names, dir), &got); err != nil {
		t.Fatal(err)
	}
	for name, w := range todo {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s: numpy did not read it", name)
			continue
		}
		w.check(t, g)
	}
	t.Logf("numpy read %d files npy wrote, element by element", len(todo))
}

// npz: numpy's savez and savez_compressed read by npy, npy's Stored and
// Deflated archives read by numpy, members of mixed dtypes.
func TestNumpyNPZ(t *testing.T) {
	numpyPython(t)
	dir := t.TempDir()
	runPython(t, `
import sys, os
import numpy as np
k = np.arange(12, dtype=np.float64)
a = (k + 0.5).reshape(3, 4)
b = np.asfortranarray((k + 0.5 - 1j * k).reshape(2, 6).astype(np.complex64))
c = (k[:5] + 0.5).astype(">f4")
labels = np.arange(3)  # int64: listed, its header an error, the others read
np.savez(os.path.join(sys.argv[1], "stored.npz"), a=a, b=b, c=c, labels=labels)
np.savez_compressed(os.path.join(sys.argv[1], "deflated.npz"), a=a, b=b, c=c, labels=labels)
`, nil, dir)
	for _, f := range []string{"stored.npz", "deflated.npz"} {
		ar, err := npy.OpenNPZ(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(ar.Names(), " "); got != "a b c labels" {
			t.Errorf("%s: members %q", f, got)
		}
		if _, err := ar.Header("labels"); !errors.Is(err, npy.ErrDtype) || !strings.Contains(err.Error(), "'<i8' (int64)") {
			t.Errorf("%s: int64 member: %v", f, err)
		}
		hb, _ := ar.Header("b")
		if hb.Dtype != npy.Complex64 || !hb.FortranOrder {
			t.Errorf("%s: b's header %+v", f, hb)
		}
		a, err := npy.ReadMember[float64](ar, "a")
		if err != nil {
			t.Fatal(err)
		}
		sameElems(t, f+" a", a, rowMajor[float64](t, 3, 4))
		b, err := npy.ReadMember[complex64](ar, "b")
		if err != nil {
			t.Fatal(err)
		}
		sameElems(t, f+" b", b, rowMajor[complex64](t, 2, 6))
		c, err := npy.ReadMember[float32](ar, "c")
		if err != nil {
			t.Fatal(err)
		}
		sameElems(t, f+" c", c, rowMajor[float32](t, 5))
		if err := ar.Close(); err != nil {
			t.Fatal(err)
		}
	}

	x := rowMajor[float64](t, 3, 4)
	y := rowMajor[complex128](t, 2, 3, 2).ToColMajor().View()
	z, _ := rowMajor[float32](t, 4, 5).Transpose(0, 1)
	todo := map[string]written{}
	for _, c := range []npy.Compression{npy.Stored, npy.Deflated} {
		name := fmt.Sprintf("go%d.npz", c)
		var buf bytes.Buffer
		if err := npy.WriteNPZ(&buf, c, npy.Named("x", x), npy.Named("y", y), npy.Named("z", z)); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644)
		todo[name+":x"] = written{func(t *testing.T, g numpyArray) { compareNumpy(t, name+":x", g, x) }}
		todo[name+":y"] = written{func(t *testing.T, g numpyArray) { compareNumpy(t, name+":y", g, y) }}
		todo[name+":z"] = written{func(t *testing.T, g numpyArray) { compareNumpy(t, name+":z", g, z) }}
	}
	var got map[string]numpyArray
	if err := json.Unmarshal(runPython(t, loadScript, []string{"go0.npz", "go1.npz"}, dir), &got); err != nil {
		t.Fatal(err)
	}
	for name, w := range todo {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s: numpy did not read it", name)
			continue
		}
		w.check(t, g)
	}
}
