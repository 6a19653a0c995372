package npy

import (
	"encoding/binary"
	"io"
	"os"

	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/views"
)

// Write writes v to w as a .npy file (version 1.0; 2.0 only if the header
// needed more than 64 KiB) with a little-endian descr and v's shape, so
// that numpy's np.load(f)[i0, i1, ...] is v.At(i0, i1, ...). How the data
// goes out follows numpy's own rule for np.save:
//
//   - v's elements form one contiguous run in row-major order (a view
//     Read from a C-order file, a row-major view over Go data, any rank-1
//     or smaller contiguous view): written as they are, fortran_order
//     False;
//   - otherwise, if they form one contiguous column-major run (a Tensor's
//     view, a Fortran-order file): written as they are, fortran_order
//     True;
//   - otherwise (strided, permuted, reversed, broadcast or conjugated
//     views): copied once, in column-major order, into a pooled buffer
//     that is released after the write, and written with fortran_order
//     True.
//
// The zero View is an error matching layout.ErrBounds, a view of a
// released tensor one matching lapis.ErrReleased (nothing is written);
// errors of w are returned wrapped. On an error of w the output is
// incomplete.
func Write[T views.Scalar](w io.Writer, v views.View[T]) error {
	if err := writable("npy.Write", "v", v); err != nil {
		return err
	}
	return write(w, v, "npy.Write")
}

// WriteFile is Write to a new file at path (truncated if it exists, so v
// must not be a view Map made of that file). On error the file may be left
// incomplete.
func WriteFile[T views.Scalar](path string, v views.View[T]) error {
	if err := writable("npy.WriteFile", "v", v); err != nil {
		return err // before the file is truncated
	}
	f, err := os.Create(path)
	if err != nil {
		return ioErr("npy.WriteFile", "path", err)
	}
	err = write(f, v, "npy.WriteFile")
	if cerr := f.Close(); err == nil && cerr != nil {
		err = ioErr("npy.WriteFile", path, cerr)
	}
	return err
}

// writable checks that v can be written: live, not the zero View, and a
// view that needs a compact copy first (neither row- nor column-major, or
// conjugated) of a size the allocation gate passes.
func writable[T views.Scalar](op, name string, v views.View[T]) error {
	if err := v.CheckLive(op, name); err != nil {
		return err
	}
	if v.IsZero() {
		return errop.ZeroView(op, name)
	}
	if l := v.Layout(); (v.IsConj() || !(l.IsRowMajor() || l.IsColMajor())) && !pool.CanHold[T](l.Len()) {
		return pool.Check[T](op, name, l.Shape()...) // the shape only on this path: Shape allocates
	}
	return nil
}

// write writes v, which writable passed, as Write describes.
func write[T views.Scalar](w io.Writer, v views.View[T], op string) error {
	l := v.Layout()
	n := l.Len()
	var data []T
	fortran := false
	switch {
	case n == 0:
	case !v.IsConj() && l.IsRowMajor():
		data = v.Data()[l.Offset() : l.Offset()+n]
	case !v.IsConj() && l.IsColMajor():
		data, fortran = v.Data()[l.Offset():l.Offset()+n], true
	default:
		t := v.ToColMajor()
		defer t.Release()
		data, fortran = t.Data(), true
	}
	if _, err := w.Write(appendHeader(nil, DtypeOf[T](), fortran, l.Shape())); err != nil {
		return ioErr(op, "header", err)
	}
	if err := writeData(w, data); err != nil {
		return ioErr(op, "data", err)
	}
	return nil
}

// writeData writes the elements little-endian: as they are on a
// little-endian machine, through a byte-swapped buffer otherwise.
func writeData[T views.Scalar](w io.Writer, data []T) error {
	b := asBytes(data)
	if nativeOrder != binary.LittleEndian {
		unit := DtypeOf[T]().unit()
		buf := make([]T, min(len(data), 1<<17))
		for len(data) > 0 {
			k := copy(buf, data)
			data = data[k:]
			swapBytes(asBytes(buf[:k]), unit)
			if _, err := w.Write(asBytes(buf[:k])); err != nil {
				return err
			}
		}
		return nil
	}
	if len(b) == 0 {
		return nil
	}
	_, err := w.Write(b)
	return err
}
