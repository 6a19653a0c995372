package npy

import (
	"io"
	"math/bits"
	"os"
	"unsafe"

	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Read reads one .npy array from r and returns a view of it, the file's
// data as it was stored in one new slice (byte-swapped to this machine's
// order if need be), never reordered: a Fortran-order file gives a compact
// column-major view, a C-order file a view with row-major strides whose
// element [i0, i1, ...] is numpy's a[i0, i1, ...]. T must be the file's
// dtype. Read leaves r just after the data, so a stream of arrays written
// one after the other reads back with repeated calls.
//
// Errors are ReadHeader's, plus ErrDtype when T is not the file's dtype
// (the error names both; read it with the matching T) and ErrTruncated when
// r ends before the data does. When r can tell how much it holds (see
// ReadHeader), a header promising more is an error before anything is
// allocated; otherwise the slice grows as data arrives (from 16 MiB,
// doubling), so a lying header costs a few times what r really holds, not
// what the header claims.
func Read[T views.Scalar](r io.Reader) (views.View[T], error) {
	v, _, err := read[T](r, "npy.Read", avail(r))
	return v, err
}

// ReadFile is Read of the file at path.
func ReadFile[T views.Scalar](path string) (views.View[T], error) {
	f, err := os.Open(path)
	if err != nil {
		return views.View[T]{}, ioErr("npy.ReadFile", "path", err)
	}
	defer f.Close()
	v, _, err := read[T](f, "npy.ReadFile", avail(f))
	return v, err
}

// ReadTensor reads one .npy array from r, as Read, and returns it as an
// owned compact column-major tensor: a Fortran-order file's data is
// adopted as it is (views.FromColMajor, no copy), a C-order file's is
// reordered once through the copy engine into a pooled buffer (ToColMajor;
// Release the tensor to give it back). The tensor's shape is numpy's, with
// numpy's axis order. Errors are Read's.
func ReadTensor[T views.Scalar](r io.Reader) (*views.Tensor[T], error) {
	v, _, err := read[T](r, "npy.ReadTensor", avail(r))
	if err != nil {
		return nil, err
	}
	if l := v.Layout(); l.IsColMajor() {
		return views.FromColMajor(v.Data(), l.Shape()...)
	}
	if !pool.CanHold[T](v.Len()) { // the reordered copy beside the data read
		return nil, pool.Check[T]("npy.ReadTensor", "r", v.Shape()...)
	}
	return v.ToColMajor(), nil
}

func read[T views.Scalar](r io.Reader, op string, left int64) (views.View[T], Header, error) {
	h, n, err := readHeader(r, op, left)
	if err != nil {
		return views.View[T]{}, Header{}, err
	}
	if err := checkDtype[T](op, h); err != nil {
		return views.View[T]{}, Header{}, err
	}
	if left >= 0 {
		left -= h.DataOffset
	}
	data, err := readData[T](r, op, h, n, left)
	if err != nil {
		return views.View[T]{}, Header{}, err
	}
	if h.ByteOrder != nativeOrder {
		swapBytes(asBytes(data), h.Dtype.unit())
	}
	v, err := viewOf(data, h)
	return v, h, err
}

func checkDtype[T views.Scalar](op string, h Header) error {
	if want := DtypeOf[T](); h.Dtype != want {
		return layout.Errorf(ErrDtype, op, "T",
			"the file holds %s (descr %s), not %s: read it with T = %s (nothing is converted)",
			h.Dtype, quote(h.Descr()), want, h.Dtype)
	}
	return nil
}

// viewOf describes the data of a file with header h: column-major for
// Fortran order, row-major strides for C order.
func viewOf[T views.Scalar](data []T, h Header) (views.View[T], error) {
	var l layout.Layout
	var err error
	if h.FortranOrder {
		l, err = layout.ColMajor(h.Shape...)
	} else {
		l, err = layout.RowMajor(h.Shape...)
	}
	if err != nil {
		return views.View[T]{}, err
	}
	return views.FromSlice(data, l)
}

// chunk is the most readData allocates ahead of data it has not seen.
const chunk = 16 << 20

// readData reads n elements of h's dtype. left is the number of bytes r
// holds, or -1 if it cannot tell.
func readData[T views.Scalar](r io.Reader, op string, h Header, n int, left int64) ([]T, error) {
	size := h.Dtype.Size()
	need := int64(n) * int64(size) // fits: parseHeader checked
	short := func(got int64) error {
		return layout.Errorf(ErrTruncated, op, "data",
			"the data is %d bytes, but shape %s of %s needs %d", got, shapeText(h.Shape), h.Dtype, need)
	}
	if left >= 0 && left < need {
		return nil, short(left)
	}
	var buf []T
	if left < 0 && need > chunk {
		buf = make([]T, chunk/size)
	} else {
		buf = make([]T, n)
	}
	filled := 0
	for {
		k, err := io.ReadFull(r, asBytes(buf)[filled:])
		filled += k
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, short(int64(filled))
		}
		if err != nil {
			return nil, ioErr(op, "data", err)
		}
		if len(buf) == n {
			return buf, nil
		}
		next := make([]T, min(n, 2*len(buf)))
		copy(next, buf)
		buf = next
	}
}

// asBytes returns the memory of s as bytes.
func asBytes[T views.Scalar](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// swapBytes reverses the byte order of each unit-byte scalar in b (unit 4
// or 8; b holds whole elements of a []T, so it is aligned for them).
func swapBytes(b []byte, unit int) {
	if len(b) == 0 {
		return
	}
	switch unit {
	case 4:
		s := unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
		for i, x := range s {
			s[i] = bits.ReverseBytes32(x)
		}
	case 8:
		s := unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
		for i, x := range s {
			s[i] = bits.ReverseBytes64(x)
		}
	}
}
