package npy

import (
	"errors"
	"os"
	"slices"
	"unsafe"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Mapped is a .npy file mapped into memory: its View reads the file's
// pages in place, with no copy and no read of the data until an element is
// touched. Close unmaps it.
type Mapped[T views.Scalar] struct {
	mem    []byte
	t      *views.Tensor[T] // adopts the mapped data: Close releases it
	view   views.View[T]
	header Header
}

// Map maps the .npy file at path into memory and returns a view of its
// data in place: a Fortran-order file as the compact column-major view, a
// C-order file as the view with row-major strides (element [i0, i1, ...] is
// numpy's a[i0, i1, ...]), the same views Read returns.
//
// The mapping is private copy-on-write (MAP_PRIVATE, PROT_READ|PROT_WRITE,
// numpy's mmap_mode='c'): pages are read from the file (or the page cache)
// when first touched; a write through the view changes this process's copy
// of that page, never the file. T must be the file's dtype (ErrDtype), in
// this machine's byte order (a file of the other order is ErrDtype too:
// swapping would copy it, so ReadFile it), and the data's offset in the
// file must be a multiple of T's alignment (ErrUnaligned; numpy's files
// are 64-byte aligned). A file shorter than its header promises is
// ErrTruncated; header errors are ReadHeader's. Map works on unix systems;
// elsewhere it returns an error matching errors.ErrUnsupported.
func Map[T views.Scalar](path string) (*Mapped[T], error) {
	const op = "npy.Map"
	if !canMap {
		return nil, layout.Errorf(errors.ErrUnsupported, op, "path", "memory mapping needs a unix system; ReadFile reads the file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, ioErr(op, "path", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, ioErr(op, "path", err)
	}
	size := st.Size()
	h, n, err := readHeader(f, op, size)
	if err != nil {
		return nil, err
	}
	if err := checkDtype[T](op, h); err != nil {
		return nil, err
	}
	if h.ByteOrder != nativeOrder {
		return nil, layout.Errorf(ErrDtype, op, "descr",
			"the file's data is %s, not this machine's byte order: mapped it would need a swapping copy, which ReadFile makes", quote(h.Descr()))
	}
	var z T
	if align := int64(unsafe.Alignof(z)); h.DataOffset%align != 0 {
		return nil, layout.Errorf(ErrUnaligned, op, "path",
			"the data starts at byte %d, not a multiple of %s's alignment %d: ReadFile reads it", h.DataOffset, h.Dtype, align)
	}
	need := int64(n) * int64(h.Dtype.Size())
	if size-h.DataOffset < need {
		return nil, layout.Errorf(ErrTruncated, op, "data",
			"the data is %d bytes, but shape %s of %s needs %d", size-h.DataOffset, shapeText(h.Shape), h.Dtype, need)
	}
	if int64(int(size)) != size {
		return nil, layout.Errorf(layout.ErrOverflow, op, "path", "the file's %d bytes do not fit an int", size)
	}
	mem, err := mmap(f, int(size))
	if err != nil {
		return nil, ioErr(op, path, err)
	}
	data := []T{}
	if n > 0 {
		data = unsafe.Slice((*T)(unsafe.Pointer(&mem[h.DataOffset])), n)
	}
	t, v, err := adoptMapped(data, h)
	if err != nil {
		munmap(mem)
		return nil, err
	}
	return &Mapped[T]{mem: mem, t: t, view: v, header: h}, nil
}

// adoptMapped returns a tensor adopting data and the view Read would give
// of it (viewOf): for a C-order file the tensor has numpy's shape reversed
// and the view reverses its axes back, which gives row-major strides.
// Through the tensor, Close's Release makes every view of the mapping an
// error (lapis.ErrReleased) rather than a fault.
func adoptMapped[T views.Scalar](data []T, h Header) (*views.Tensor[T], views.View[T], error) {
	shape := slices.Clone(h.Shape)
	if !h.FortranOrder {
		slices.Reverse(shape)
	}
	t, err := views.FromColMajor(data, shape...)
	if err != nil {
		return nil, views.View[T]{}, err
	}
	v := t.View()
	if !h.FortranOrder && len(shape) > 1 {
		axes := make([]int, len(shape))
		for i := range axes {
			axes[i] = len(shape) - 1 - i
		}
		if v, err = v.Permute(axes...); err != nil {
			return nil, views.View[T]{}, err
		}
	}
	return t, v, nil
}

// View returns the view of the mapped data. After Close the memory is
// gone: views made from it are then views of a released tensor (every
// lapis entry point returns an error matching lapis.ErrReleased, At and
// Set panic), and View returns the zero View. A slice taken with Data
// cannot be caught: touching it after Close kills the program with a
// fault Go cannot recover from.
func (m *Mapped[T]) View() views.View[T] { return m.view }

// Header returns the file's header.
func (m *Mapped[T]) Header() Header {
	h := m.header
	h.Shape = append([]int(nil), h.Shape...)
	return h
}

// Close unmaps the file; views of it are released (see View). A second
// Close does nothing.
func (m *Mapped[T]) Close() error {
	if m.mem == nil {
		return nil
	}
	mem := m.mem
	m.t.Release() // before the memory goes: views of it are now caught
	m.mem, m.t, m.view = nil, nil, views.View[T]{}
	return munmap(mem)
}
