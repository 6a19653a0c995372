//go:build unix

package npy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis"
)

// writeBig writes a float64 .npy file of the shape whose element k (in
// file order) is k, streaming it so that the test's heap never
// holds the data.
func writeBig(t testing.TB, path string, fortran bool, shape ...int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(appendHeader(nil, Float64, fortran, shape))
	n := 1
	for _, d := range shape {
		n *= d
	}
	buf := make([]byte, 0, 1<<16)
	for k := range n {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(float64(k)))
		if len(buf) == cap(buf) || k == n-1 {
			w.Write(buf)
			buf = buf[:0]
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Map copies nothing: the view's data lies in the mapping, and reading
// elements does not grow the Go heap by anything like the file's size.
func TestMapNoCopy(t *testing.T) {
	const rows, cols = 1024, 8192 // 64 MiB of float64
	p := filepath.Join(t.TempDir(), "big.npy")
	writeBig(t, p, false, rows, cols)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := Map[float64](p)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	v := m.View()
	if x := v.At(700, 4321); x != 700*cols+4321 {
		t.Fatalf("element (700, 4321) = %v, want %v", x, 700*cols+4321)
	}
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 1<<20 {
		t.Errorf("Map and one read grew the heap by %d bytes (the file is %d)", grew, rows*cols*8)
	}
	first := uintptr(unsafe.Pointer(&v.Data()[0]))
	lo := uintptr(unsafe.Pointer(&m.mem[0]))
	if first < lo || first+uintptr(rows*cols*8) > lo+uintptr(len(m.mem)) {
		t.Fatalf("data at %#x is not inside the mapping [%#x, %#x)", first, lo, lo+uintptr(len(m.mem)))
	}
	if first-lo != 128 || len(v.Data()) != rows*cols {
		t.Errorf("data at offset %d, %d elements: want the file's bytes from 128 on", first-lo, len(v.Data()))
	}
	if l := v.Layout(); !l.IsRowMajor() || l.Stride(0) != cols {
		t.Errorf("layout %v, want row-major strides [%d 1]", l, cols)
	}
	// touching every page still allocates nothing on the heap
	s := 0.0
	d := v.Data()
	for k := 0; k < len(d); k += 512 {
		s += d[k]
	}
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 1<<20 {
		t.Errorf("reading every page grew the heap by %d bytes", grew)
	}
	if want := float64((len(d)/512 - 1) * len(d) / 2); s != want {
		t.Errorf("sum of every 512th element %v, want %v", s, want)
	}
}

func TestMap(t *testing.T) {
	dir := t.TempDir()
	for _, fortran := range []bool{false, true} {
		p := filepath.Join(dir, "m.npy")
		writeBig(t, p, fortran, 3, 4, 2)
		m, err := Map[float64](p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ReadFile[float64](p)
		if err != nil {
			t.Fatal(err)
		}
		v := m.View()
		if !v.Layout().SameStrides(r.Layout()) || m.Header().FortranOrder != fortran {
			t.Errorf("fortran %v: Map %v, ReadFile %v", fortran, v.Layout(), r.Layout())
		}
		if fortran != v.Layout().IsColMajor() {
			t.Errorf("fortran %v: layout %v", fortran, v.Layout())
		}
		for i := range 3 {
			for j := range 4 {
				for k := range 2 {
					if v.At(i, j, k) != r.At(i, j, k) {
						t.Fatalf("(%d %d %d): %v != %v", i, j, k, v.At(i, j, k), r.At(i, j, k))
					}
				}
			}
		}
		// writes are private: the view changes, the file does not
		v.Set(-1, 0, 0, 0)
		if v.At(0, 0, 0) != -1 {
			t.Error("a write through the mapped view was lost")
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		if err := m.Close(); err != nil {
			t.Fatal("second Close:", err)
		}
		if m.View().Len() != 0 {
			t.Error("View after Close is not the zero View")
		}
		// the view taken before Close is released, not a fault
		if err := v.CheckLive("op", "v"); !errors.Is(err, lapis.ErrReleased) {
			t.Errorf("view after Close: %v, want lapis.ErrReleased", err)
		}
		if _, err := v.T().Permute(2, 1, 0); !errors.Is(err, lapis.ErrReleased) {
			t.Errorf("transform of a view after Close: %v, want lapis.ErrReleased", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, v); !errors.Is(err, lapis.ErrReleased) {
			t.Errorf("Write of a view after Close: %v, want lapis.ErrReleased", err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Error("At of a view after Close did not panic")
				}
			}()
			v.At(0, 0, 0)
		}()
		again, _ := ReadFile[float64](p)
		if again.At(0, 0, 0) != 0 {
			t.Errorf("the write reached the file: %v", again.At(0, 0, 0))
		}
	}

	// rank 0 and empty
	for want, shape := range [][]int{{0, 3}, {}} {
		p := filepath.Join(dir, "small.npy")
		writeBig(t, p, false, shape...)
		m, err := Map[float64](p)
		if err != nil {
			t.Fatal(shape, err)
		}
		if n := m.View().Len(); n != want {
			t.Errorf("%v: %d elements", shape, n)
		}
		m.Close()
	}

	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	good := appendHeader(nil, Float64, false, []int{2})
	good = binary.LittleEndian.AppendUint64(good, math.Float64bits(1))
	good = binary.LittleEndian.AppendUint64(good, math.Float64bits(2))
	be := []byte(strings.Replace(string(good), "'<f8'", "'>f8'", 1))
	// a header of 63 bytes: the data starts at byte 73
	dict := "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"
	odd := append([]byte(magic+"\x01\x00"), 63, 0)
	odd = append(odd, dict+strings.Repeat(" ", 63-len(dict)-1)+"\n"...)
	odd = append(odd, good[len(good)-16:]...)
	if v, err := ReadFile[float64](write("odd.npy", odd)); err != nil || v.At(1) != 2 {
		t.Fatalf("unaligned file: ReadFile %v %v", v, err)
	}
	for _, tc := range []struct {
		name string
		file []byte
		want error
	}{
		{"big-endian", be, ErrDtype},
		{"unaligned", odd, ErrUnaligned},
		{"truncated", good[:len(good)-1], ErrTruncated},
		{"not npy", []byte("hello"), ErrFormat},
	} {
		if _, err := Map[float64](write(tc.name, tc.file)); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := Map[float32](write("good", good)); !errors.Is(err, ErrDtype) {
		t.Errorf("wrong T: %v", err)
	}
	if _, err := Map[float64](filepath.Join(dir, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
