package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// seeds returns valid files of every dtype, order and a few ranks, and
// broken ones of each kind TestErrors names.
func seeds() [][]byte {
	var out [][]byte
	for _, d := range []Dtype{Float32, Float64, Complex64, Complex128} {
		for _, f := range []bool{false, true} {
			for _, shape := range [][]int{{}, {3}, {2, 3}, {2, 1, 2}, {0, 3}} {
				n := 1
				for _, x := range shape {
					n *= x
				}
				b := appendHeader(nil, d, f, shape)
				for k := range n * d.Size() {
					b = append(b, byte(k*7+1))
				}
				out = append(out, b)
			}
		}
	}
	hdr := func(dict string, version int) []byte {
		pre := 10
		if version > 1 {
			pre = 12
		}
		total := pre + len(dict) + 1
		total += (64 - total%64) % 64
		b := []byte(magic)
		b = append(b, byte(version), 0)
		if version > 1 {
			b = binary.LittleEndian.AppendUint32(b, uint32(total-pre))
		} else {
			b = binary.LittleEndian.AppendUint16(b, uint16(total-pre))
		}
		b = append(b, dict+strings.Repeat(" ", total-pre-len(dict)-1)+"\n"...)
		return append(b, make([]byte, 16)...)
	}
	for _, dict := range []string{
		"{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }",
		"{'descr': '=c8', 'fortran_order': True, 'shape': (1, 2), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (2L,), }",
		`{"shape": (2,), "fortran_order": False, "descr": "<f8"}`,
		"{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
		"{'descr': '|O', 'fortran_order': False, 'shape': (2,), }",
		"{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (2,), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }",
		"{'descr': '<f8', 'fortran_order': False, }",
		"{'descr': '<f8', 'fortran_order': 0, 'shape': (2,), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (2), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': None}",
		"{'descr': '<f8' 'fortran_order': False, 'shape': (2,)}",
		"{'descr': '<f8', 'fortran_order': False, 'shape': ((((((2,),),),),),)}",
		"[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]",
	} {
		out = append(out, hdr(dict, 1), hdr(dict, 3))
	}
	good := out[7]
	out = append(out, nil, []byte(magic), good[:9], good[:30], good[:len(good)-1],
		append([]byte("\x93NUMPY\x04\x00"), good[8:]...),
		[]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff{}"))
	return out
}

// FuzzHeader: ReadHeader never panics, fails only with the package's
// sentinels, and a header it accepts writes back (appendHeader) and reads
// again as the same header.
func FuzzHeader(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ReadHeader(bytes.NewReader(b))
		if err != nil {
			checkKind(t, err)
			return
		}
		if h.DataOffset > int64(len(b)) || h.Version < 1 || h.Version > 3 || h.Dtype.Size() == 0 {
			t.Fatalf("header %+v from %d bytes", h, len(b))
		}
		re := appendHeader(nil, h.Dtype, h.FortranOrder, h.Shape)
		h2, err := ReadHeader(bytes.NewReader(re))
		if err != nil {
			t.Fatalf("header %+v wrote back as %q: %v", h, re, err)
		}
		if h2.Dtype != h.Dtype || h2.FortranOrder != h.FortranOrder || fmt.Sprint(h2.Shape) != fmt.Sprint(h.Shape) ||
			h2.DataOffset != int64(len(re)) || h2.DataOffset%64 != 0 || h2.ByteOrder != binary.LittleEndian {
			t.Fatalf("header %+v wrote back as %+v", h, h2)
		}
	})
}

// FuzzRead: Read never panics, agrees with itself on a reader that cannot
// tell its length, and what it reads writes back and reads again bit for
// bit.
func FuzzRead(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ReadHeader(bytes.NewReader(b))
		if err != nil {
			if _, err := Read[float64](bytes.NewReader(b)); err == nil {
				t.Fatal("Read accepted what ReadHeader refused")
			}
			return
		}
		switch h.Dtype {
		case Float32:
			fuzzRead[float32](t, b)
		case Float64:
			fuzzRead[float64](t, b)
		case Complex64:
			fuzzRead[complex64](t, b)
		case Complex128:
			fuzzRead[complex128](t, b)
		}
	})
}

func fuzzRead[T views.Scalar](t *testing.T, b []byte) {
	v, err := Read[T](bytes.NewReader(b))
	_, err2 := Read[T](io.MultiReader(bytes.NewReader(b)))
	if (err == nil) != (err2 == nil) {
		t.Fatalf("sized reader: %v; unsized: %v", err, err2)
	}
	if err != nil {
		checkKind(t, err)
		return
	}
	var buf bytes.Buffer
	if err := Write(&buf, v); err != nil {
		t.Fatal(err)
	}
	w, err := Read[T](&buf)
	if err != nil {
		t.Fatal(err)
	}
	x, y := v.ToColMajor(), w.ToColMajor()
	if !bytes.Equal(asBytes(x.Data()), asBytes(y.Data())) || !v.Layout().SameShape(w.Layout()) {
		t.Fatalf("read %v, wrote and read back %v", v, w)
	}
}

func checkKind(t *testing.T, err error) {
	t.Helper()
	var le *layout.Error
	if !errors.As(err, &le) {
		t.Fatalf("%v is not a *layout.Error", err)
	}
	for _, s := range []error{ErrFormat, ErrDtype, layout.ErrOverflow, layout.ErrShape} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%v matches none of the sentinels", err)
}

// appendHeader switches to version 2.0 when the header does not fit
// version 1.0's 16-bit length.
func TestHeaderVersion2(t *testing.T) {
	shape := make([]int, 30000) // more than any Layout, only to grow the text
	b := appendHeader(nil, Float64, true, shape)
	if b[6] != 2 || len(b)%64 != 0 || int(binary.LittleEndian.Uint32(b[8:])) != len(b)-12 || b[len(b)-1] != '\n' {
		t.Fatalf("version %d, %d bytes, length field %d", b[6], len(b), binary.LittleEndian.Uint32(b[8:]))
	}
	if _, err := ReadHeader(bytes.NewReader(b)); !errors.Is(err, layout.ErrShape) {
		t.Fatalf("rank 30000: %v", err)
	}
	small := appendHeader(nil, Float64, true, []int{3})
	if small[6] != 1 || len(small) != 128 {
		t.Fatalf("version %d, %d bytes", small[6], len(small))
	}
}
