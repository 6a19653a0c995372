package npy_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/npy"
	"github.com/lapis-go/lapis/views"
)

// val is the test value of flat index k: k + 0.5, and -k i for complex
// types (exact in float32 for the sizes used here).
func val[T views.Scalar](k int) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(k) + 0.5).(T)
	case float64:
		return any(float64(k) + 0.5).(T)
	case complex64:
		return any(complex(float32(k)+0.5, -float32(k))).(T)
	default:
		return any(complex(float64(k)+0.5, -float64(k))).(T)
	}
}

// forEach calls f with every index of shape, in row-major order.
func forEach(shape []int, f func(idx []int)) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	idx := make([]int, len(shape))
	for range n {
		f(idx)
		for a := len(shape) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
}

// cIndex is the row-major (C order) flat index of idx.
func cIndex(shape, idx []int) int {
	k := 0
	for a, i := range idx {
		k = k*shape[a] + i
	}
	return k
}

// rowMajor returns a row-major view of shape whose element idx is
// val(cIndex(idx)): numpy's np.arange-like array.
func rowMajor[T views.Scalar](t *testing.T, shape ...int) views.View[T] {
	t.Helper()
	l, err := layout.RowMajor(shape...)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]T, l.Len())
	for k := range data {
		data[k] = val[T](k)
	}
	v, err := views.FromSlice(data, l)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// sameElems fails unless got and want have the same shape and elements
// (bit for bit).
func sameElems[T views.Scalar](t *testing.T, what string, got, want views.View[T]) {
	t.Helper()
	if !got.Layout().SameShape(want.Layout()) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape(), want.Shape())
	}
	bad := 0
	forEach(want.Shape(), func(idx []int) {
		if g, w := got.At(idx...), want.At(idx...); g != w && bad < 5 {
			bad++
			t.Errorf("%s: element %v = %v, want %v", what, idx, g, w)
		}
	})
}

var shapes = [][]int{{}, {5}, {3, 4}, {2, 3, 4}, {2, 1, 3, 2}, {0, 3}, {3, 0}, {1, 1}}

// views of the same logical array in every way Write distinguishes.
func variants[T views.Scalar](t *testing.T, shape []int) map[string]views.View[T] {
	rm := rowMajor[T](t, shape...)
	out := map[string]views.View[T]{"rowmajor": rm}
	out["colmajor"] = rm.ToColMajor().View()
	if len(shape) > 0 && shape[0] > 1 {
		// reversed twice: same elements, negative strides (general)
		r, _ := rm.Reverse(0)
		c := r.ToColMajor().View()
		rr, _ := c.Reverse(0)
		out["reversed"] = rr
	}
	if len(shape) >= 1 {
		// a column-major view with padding between columns: strided, not
		// contiguous
		big := append([]int{shape[0] + 1}, shape[1:]...)
		bt, _ := views.Zeros[T](big...)
		sub, _ := bt.View().Slice(0, 0, shape[0], 1)
		forEach(shape, func(idx []int) { sub.Set(rm.At(idx...), idx...) })
		out["padded"] = sub
	}
	if len(shape) >= 2 {
		// the compact copy of the matrix-transposed array, transposed back:
		// strides [d1, 1, d0*d1, ...]
		q, _ := rm.Transpose(0, 1)
		qq, _ := q.ToColMajor().View().Transpose(0, 1)
		out["transposed"] = qq
	}
	if views.IsComplex[T]() {
		// the conjugate of the conjugate data: same values, conj flag set
		c := rm.ToColMajor()
		for i, x := range c.Data() {
			c.Data()[i] = scalar.Conj(x)
		}
		out["conj"] = c.View().Conj()
	}
	return out
}

func testRoundTrip[T views.Scalar](t *testing.T) {
	for _, shape := range shapes {
		for name, v := range variants[T](t, shape) {
			var buf bytes.Buffer
			if err := npy.Write(&buf, v); err != nil {
				t.Fatalf("%v %s: Write: %v", shape, name, err)
			}
			if buf.Len()%64 != 0 && v.Len() == 0 || (buf.Len()-v.Len()*npy.DtypeOf[T]().Size())%64 != 0 {
				t.Errorf("%v %s: data does not start at a multiple of 64 (file %d bytes)", shape, name, buf.Len())
			}
			h, err := npy.ReadHeader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v %s: ReadHeader: %v", shape, name, err)
			}
			wantF := !(v.Layout().IsRowMajor() && !v.IsConj()) && v.Len() > 0
			if h.FortranOrder != wantF || h.Dtype != npy.DtypeOf[T]() || h.ByteOrder != binary.LittleEndian || h.Version != 1 {
				t.Errorf("%v %s: header %+v, want fortran_order %v", shape, name, h, wantF)
			}
			got, err := npy.Read[T](bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v %s: Read: %v", shape, name, err)
			}
			sameElems(t, "Read", got, v)
			if h.FortranOrder && !got.Layout().IsColMajor() || !h.FortranOrder && !got.Layout().IsRowMajor() {
				t.Errorf("%v %s: Read gave %+v for fortran_order %v", shape, name, got, h.FortranOrder)
			}
			tt, err := npy.ReadTensor[T](bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v %s: ReadTensor: %v", shape, name, err)
			}
			sameElems(t, "ReadTensor", tt.View(), v)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	t.Run("float32", testRoundTrip[float32])
	t.Run("float64", testRoundTrip[float64])
	t.Run("complex64", testRoundTrip[complex64])
	t.Run("complex128", testRoundTrip[complex128])
}

// A Fortran-order file's data is adopted by ReadTensor, and Write of a
// contiguous view writes its bytes as they are.
func TestNoReorder(t *testing.T) {
	a, _ := views.FromColMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	var buf bytes.Buffer
	if err := npy.Write(&buf, a.View()); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()[len(buf.Bytes())-48:]
	for k := range 6 {
		if x := math.Float64frombits(binary.LittleEndian.Uint64(raw[8*k:])); x != float64(k+1) {
			t.Fatalf("data[%d] = %v: Write reordered a column-major tensor", k, x)
		}
	}
	v, _ := npy.Read[float64](bytes.NewReader(buf.Bytes()))
	if s, err := v.AsSlice(); err != nil || len(s) != 6 || s[1] != 2 {
		t.Fatalf("Read of a Fortran file: %v %v, want the data as stored", s, err)
	}
	rm := rowMajor[float64](t, 2, 3)
	buf.Reset()
	npy.Write(&buf, rm)
	raw = buf.Bytes()[len(buf.Bytes())-48:]
	if x := math.Float64frombits(binary.LittleEndian.Uint64(raw[8:])); x != 1.5 {
		t.Fatalf("row-major view written as %v at data[1], want its own order (1.5)", x)
	}
}

// Several arrays written one after the other read back in turn.
func TestStream(t *testing.T) {
	var buf bytes.Buffer
	npy.Write(&buf, rowMajor[float64](t, 2, 3))
	npy.Write(&buf, rowMajor[complex64](t, 4))
	r := io.MultiReader(&buf) // no Len: Read cannot look ahead
	a, err := npy.Read[float64](r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := npy.Read[complex64](r)
	if err != nil {
		t.Fatal(err)
	}
	sameElems(t, "first", a, rowMajor[float64](t, 2, 3))
	sameElems(t, "second", b, rowMajor[complex64](t, 4))
}

// npyFile makes a .npy file with the given header text (padded as numpy
// pads it), version and data.
func npyFile(dict string, version int, data []byte) []byte {
	pre := 10
	if version > 1 {
		pre = 12
	}
	total := pre + len(dict) + 1
	total += (64 - total%64) % 64
	hdr := dict + strings.Repeat(" ", total-pre-len(dict)-1) + "\n"
	out := []byte("\x93NUMPY")
	out = append(out, byte(version), 0)
	if version > 1 {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(hdr)))
	} else {
		out = binary.LittleEndian.AppendUint16(out, uint16(len(hdr)))
	}
	return append(append(out, hdr...), data...)
}

func f64s(xs ...float64) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// Every header form numpy (or Python 2's numpy) writes, and the byte
// orders.
func TestHeaderForms(t *testing.T) {
	be := func(xs ...float64) []byte {
		var b []byte
		for _, x := range xs {
			b = binary.BigEndian.AppendUint64(b, math.Float64bits(x))
		}
		return b
	}
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"v1", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", 1, f64s(1, 2, 3, 4))},
		{"v2", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", 2, f64s(1, 2, 3, 4))},
		{"v3", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", 3, f64s(1, 2, 3, 4))},
		{"bigendian", npyFile("{'descr': '>f8', 'fortran_order': False, 'shape': (2, 2), }", 1, be(1, 2, 3, 4))},
		{"native=", npyFile("{'descr': '=f8', 'fortran_order': False, 'shape': (2, 2), }", 1, f64s(1, 2, 3, 4))},
		{"native|", npyFile("{'descr': '|f8', 'fortran_order': False, 'shape': (2, 2), }", 1, f64s(1, 2, 3, 4))},
		{"fortran", npyFile("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }", 1, f64s(1, 3, 2, 4))},
		{"python2 long", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2L, 2L), }", 1, f64s(1, 2, 3, 4))},
		{"key order, double quotes", npyFile(`{"shape": (2,2), "fortran_order": False, "descr": "<f8"}`, 1, f64s(1, 2, 3, 4))},
		{"growth padding", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }"+strings.Repeat(" ", 21), 1, f64s(1, 2, 3, 4))},
		{"trailing data", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", 1, f64s(1, 2, 3, 4, 5))},
	} {
		v, err := npy.Read[float64](bytes.NewReader(tc.file))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if v.At(0, 0) != 1 || v.At(0, 1) != 2 || v.At(1, 0) != 3 || v.At(1, 1) != 4 {
			t.Errorf("%s: read %v, want [[1 2] [3 4]]", tc.name, v)
		}
	}
	// big-endian complex: each part swapped
	var b []byte
	b = binary.BigEndian.AppendUint32(b, math.Float32bits(1.5))
	b = binary.BigEndian.AppendUint32(b, math.Float32bits(-2))
	v, err := npy.Read[complex64](bytes.NewReader(npyFile("{'descr': '>c8', 'fortran_order': False, 'shape': (), }", 1, b)))
	if err != nil || v.At() != complex(1.5, -2) {
		t.Errorf("big-endian complex64 scalar: %v %v", v, err)
	}
}

// Every kind of bad input is an error matching its sentinel and naming
// the problem; none panics.
func TestErrors(t *testing.T) {
	ok := "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"
	good := npyFile(ok, 1, f64s(1, 2))
	for _, tc := range []struct {
		name string
		file []byte
		want error
		text string
	}{
		{"empty", nil, npy.ErrTruncated, "ends after 0 bytes"},
		{"short magic", []byte("\x93NUM"), npy.ErrTruncated, "preamble"},
		{"bad magic", []byte("PK\x03\x04 this is a zip"), npy.ErrFormat, "not a .npy file"},
		{"version 4", append([]byte("\x93NUMPY\x04\x00"), good[8:]...), npy.ErrFormat, "version 4.0"},
		{"version 1.1", append([]byte("\x93NUMPY\x01\x01"), good[8:]...), npy.ErrFormat, "version 1.1"},
		{"no header length", []byte("\x93NUMPY\x01\x00\x10"), npy.ErrTruncated, "preamble"},
		{"header past the end", good[:40], npy.ErrTruncated, "runs past the end"},
		{"v2 huge header length", []byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f{}"), npy.ErrTruncated, "runs past the end"},
		{"truncated data", good[:len(good)-3], npy.ErrTruncated, "the data is 13 bytes, but shape (2,) of float64 needs 16"},
		{"no data", good[:len(good)-16], npy.ErrTruncated, "the data is 0 bytes"},
		{"int32", npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 1, f64s(1)), npy.ErrDtype, "'<i4' (int32) is not supported"},
		{"bool", npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", 1, nil), npy.ErrDtype, "'|b1'"},
		{"object", npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", 1, nil), npy.ErrDtype, "Python objects"},
		{"float16", npyFile("{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", 1, nil), npy.ErrDtype, "float16"},
		{"structured", npyFile("{'descr': [('x', '<f8'), ('y', '<i4')], 'fortran_order': False, 'shape': (2,), }", 1, nil), npy.ErrDtype, "structured dtype (a list of 2 fields)"},
		{"subarray", npyFile("{'descr': ('<f8', (2,)), 'fortran_order': False, 'shape': (2,), }", 1, nil), npy.ErrDtype, "sub-array"},
		{"wrong T", npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 1, f64s(1)), npy.ErrDtype, "holds float32 (descr '<f4'), not float64"},
		{"negative extent", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, -3), }", 1, nil), npy.ErrFormat, "extent 1 is negative (-3)"},
		{"huge extent", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", 1, nil), layout.ErrOverflow, "does not fit an int"},
		{"product overflow", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 1, nil), layout.ErrOverflow, "size in bytes does not fit"},
		{"bytes overflow", npyFile("{'descr': '<c16', 'fortran_order': False, 'shape': (1152921504606846976,), }", 1, nil), layout.ErrOverflow, "size in bytes"},
		{"lying shape", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }", 1, f64s(1, 2)), npy.ErrTruncated, "needs 8000000000000"},
		{"rank 65", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': ("+strings.Repeat("1, ", 65)+"), }", 1, f64s(1)), layout.ErrShape, "rank 65"},
		{"no shape", npyFile("{'descr': '<f8', 'fortran_order': False, }", 1, nil), npy.ErrFormat, "no 'shape' key"},
		{"no descr", npyFile("{'fortran_order': False, 'shape': (2,), }", 1, nil), npy.ErrFormat, "no 'descr' key"},
		{"extra key", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1}", 1, nil), npy.ErrFormat, "unexpected key 'x'"},
		{"twice", npyFile("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", 1, nil), npy.ErrFormat, "'descr' appears twice"},
		{"fortran 1", npyFile("{'descr': '<f8', 'fortran_order': 1, 'shape': (2,), }", 1, nil), npy.ErrFormat, "fortran_order is a Python int"},
		{"shape int", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2), }", 1, nil), npy.ErrFormat, "shape is a Python int, not a tuple"},
		{"shape list", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': [2], }", 1, nil), npy.ErrFormat, "shape is a Python list"},
		{"shape float", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2.0,), }", 1, nil), npy.ErrFormat, "not a decimal int"},
		{"not a dict", npyFile("['descr', '<f8']", 1, nil), npy.ErrFormat, "not a dict"},
		{"unclosed dict", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), ", 1, nil), npy.ErrFormat, "not a Python literal"},
		{"unclosed string", npyFile("{'descr': '<f8, 'fortran_order': False, 'shape': (2,)}", 1, nil), npy.ErrFormat, "not a Python literal"},
		{"call", npyFile("{'descr': dtype('<f8'), 'fortran_order': False, 'shape': (2,)}", 1, nil), npy.ErrFormat, "the name 'dtype' is not a literal"},
		{"garbage after", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2,)} x", 1, nil), npy.ErrFormat, "after the dict"},
		{"deep", npyFile("{'descr': "+strings.Repeat("[", 100)+strings.Repeat("]", 100)+", 'fortran_order': False, 'shape': (2,)}", 1, nil), npy.ErrFormat, "nested more than"},
		{"leading zero", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (02,), }", 1, nil), npy.ErrFormat, "leading zero"},
		{"NUL", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\x00", 1, nil), npy.ErrFormat, "after the dict"},
	} {
		_, err := npy.Read[float64](bytes.NewReader(tc.file))
		t.Logf("%s: %v", tc.name, err)
		if !errors.Is(err, tc.want) || err == nil || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: %v\n want an error matching %q containing %q", tc.name, err, tc.want, tc.text)
		}
		var le *layout.Error
		if !errors.As(err, &le) || !strings.HasPrefix(le.Op, "npy.") {
			t.Errorf("%s: %v is not a *layout.Error naming npy", tc.name, err)
		}
		// the same through a reader that cannot tell its length
		_, err2 := npy.Read[float64](io.MultiReader(bytes.NewReader(tc.file)))
		if !errors.Is(err2, tc.want) && !(tc.want == npy.ErrTruncated && errors.Is(err2, npy.ErrFormat)) {
			t.Errorf("%s (unsized reader): %v, want %q", tc.name, err2, tc.want)
		}
	}
	if !errors.Is(npy.ErrTruncated, npy.ErrFormat) {
		t.Error("ErrTruncated does not match ErrFormat")
	}
}

// I/O errors of the reader and writer come back wrapped.
func TestIOErrors(t *testing.T) {
	boom := errors.New("boom")
	good := npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", 1, f64s(1, 2))
	_, err := npy.Read[float64](io.MultiReader(bytes.NewReader(good[:len(good)-8]), iotestErr{boom}))
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "npy.Read: data") {
		t.Errorf("read error: %v", err)
	}
	err = npy.Write(failWriter{boom}, rowMajor[float64](t, 2))
	if !errors.Is(err, boom) {
		t.Errorf("write error: %v", err)
	}
	if err := npy.Write(io.Discard, views.View[float64]{}); !errors.Is(err, layout.ErrBounds) {
		t.Errorf("Write of the zero View: %v", err)
	}
}

type iotestErr struct{ err error }

func (r iotestErr) Read([]byte) (int, error) { return 0, r.err }

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.npy")
	want := rowMajor[complex128](t, 3, 2)
	if err := npy.WriteFile(p, want); err != nil {
		t.Fatal(err)
	}
	got, err := npy.ReadFile[complex128](p)
	if err != nil {
		t.Fatal(err)
	}
	sameElems(t, "ReadFile", got, want)
	if _, err := npy.ReadFile[float64](p); !errors.Is(err, npy.ErrDtype) || !strings.Contains(err.Error(), "complex128") {
		t.Errorf("ReadFile as the wrong T: %v", err)
	}
	if _, err := npy.ReadFile[float64](filepath.Join(dir, "none.npy")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// a truncated file is found before its data is allocated
	b, _ := os.ReadFile(p)
	os.WriteFile(p, b[:len(b)-1], 0o644)
	if _, err := npy.ReadFile[complex128](p); !errors.Is(err, npy.ErrTruncated) {
		t.Errorf("truncated file: %v", err)
	}
}

func TestNPZ(t *testing.T) {
	a := rowMajor[float64](t, 2, 3)
	b := rowMajor[complex64](t, 4).Conj()
	c := rowMajor[float32](t)
	for _, comp := range []npy.Compression{npy.Stored, npy.Deflated} {
		var buf bytes.Buffer
		if err := npy.WriteNPZ(&buf, comp, npy.Named("a", a), npy.Named("b", b), npy.Named("dir/c", c)); err != nil {
			t.Fatal(err)
		}
		ar, err := npy.ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(ar.Names(), " "); got != "a b dir/c" {
			t.Errorf("names %q", got)
		}
		for name, want := range map[string]npy.Dtype{"a": npy.Float64, "b": npy.Complex64, "dir/c": npy.Float32} {
			h, err := ar.Header(name)
			if err != nil || h.Dtype != want {
				t.Errorf("%s: %v %v, want %v", name, h.Dtype, err, want)
			}
		}
		ga, err := npy.ReadMember[float64](ar, "a")
		if err != nil {
			t.Fatal(err)
		}
		sameElems(t, "a", ga, a)
		gb, err := npy.ReadMember[complex64](ar, "b")
		if err != nil {
			t.Fatal(err)
		}
		sameElems(t, "b", gb, b)
		gc, err := npy.ReadMember[float32](ar, "dir/c")
		if err != nil {
			t.Fatal(err)
		}
		sameElems(t, "c", gc, c)
		if _, err := npy.ReadMember[float32](ar, "a"); !errors.Is(err, npy.ErrDtype) || !strings.Contains(err.Error(), "member 'a'") {
			t.Errorf("wrong T: %v", err)
		}
		if _, err := npy.ReadMember[float32](ar, "z"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "a, b, dir/c") {
			t.Errorf("missing member: %v", err)
		}
		if _, err := ar.Header("z"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing member: %v", err)
		}
		// a corrupted byte in a member's data fails the zip checksum (or
		// the deflate stream)
		zr, _ := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		off, _ := zr.File[0].DataOffset()
		c := int64(zr.File[0].CompressedSize64)
		for _, at := range []int64{off + c/2, off + c - 2} {
			raw := bytes.Clone(buf.Bytes())
			raw[at] ^= 0x55
			ar2, err := npy.ReadNPZ(bytes.NewReader(raw), int64(len(raw)))
			if err == nil {
				_, err = npy.ReadMember[float64](ar2, "a")
			}
			t.Logf("corrupted: %v", err)
			if !errors.Is(err, npy.ErrFormat) || !strings.Contains(err.Error(), "member 'a'") {
				t.Errorf("compression %d, byte %d of the member corrupted: %v", comp, at-off, err)
			}
		}
	}
	for _, tc := range []struct {
		name    string
		members []npy.Member
		want    error
		comp    npy.Compression
	}{
		{"duplicate", []npy.Member{npy.Named("a", a), npy.Named("a", a)}, fs.ErrInvalid, npy.Stored},
		{"empty name", []npy.Member{npy.Named("", a)}, fs.ErrInvalid, npy.Stored},
		{"zero member", []npy.Member{{}}, fs.ErrInvalid, npy.Stored},
		{"zero view", []npy.Member{npy.Named("z", views.View[float64]{})}, layout.ErrBounds, npy.Stored},
		{"bad compression", []npy.Member{npy.Named("a", a)}, fs.ErrInvalid, 7},
	} {
		var buf bytes.Buffer
		if err := npy.WriteNPZ(&buf, tc.comp, tc.members...); !errors.Is(err, tc.want) || buf.Len() != 0 {
			t.Errorf("%s: %v (%d bytes written), want %v and nothing written", tc.name, err, buf.Len(), tc.want)
		}
	}
	if _, err := npy.ReadNPZ(bytes.NewReader(f64s(1, 2, 3)), 24); !errors.Is(err, npy.ErrFormat) {
		t.Errorf("not a zip: %v", err)
	}
	// a member with a bad header is named
	p := filepath.Join(t.TempDir(), "bad.npz")
	var buf bytes.Buffer
	npy.WriteNPZ(&buf, npy.Stored, npy.Named("x", a))
	raw := buf.Bytes()
	i := bytes.Index(raw, []byte("'<f8'"))
	copy(raw[i:], "'<i8'")
	os.WriteFile(p, raw, 0o644)
	ar, err := npy.OpenNPZ(p)
	if err != nil {
		t.Fatal(err)
	}
	defer ar.Close()
	if _, err := ar.Header("x"); !errors.Is(err, npy.ErrDtype) || !strings.Contains(err.Error(), "member 'x'") {
		t.Errorf("bad member header: %v", err)
	}
	if _, err := npy.ReadMember[float64](ar, "x"); !errors.Is(err, npy.ErrDtype) {
		t.Errorf("bad member header: %v", err)
	}
}
