package npy_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/npy"
	"github.com/lapis-go/lapis/views"
)

// numpy's stack of B n x n matrices, an array a of shape (B, n, n) in C
// order, read as lapis's batch [n, n, B] with no copy.
func ExampleRead() {
	const B, n = 2, 2
	// The bytes np.save(f, a) writes for
	// a = np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]): C order, the
	// matrices one after the other, each row by row.
	l, _ := layout.RowMajor(B, n, n)
	a, _ := views.FromSlice([]float64{1, 2, 3, 4, 5, 6, 7, 8}, l)
	var f bytes.Buffer
	npy.Write(&f, a) // a row-major view: written as it is, fortran_order False

	v, _ := npy.Read[float64](&f) // shape [B n n]: v.At(b, i, j) == a[b, i, j]
	m, _ := v.Permute(1, 2, 0)    // shape [n n B]: m.At(i, j, b) == a[b, i, j]
	fmt.Println(v.Layout())
	fmt.Println(m.Layout(), m.Layout().Class())
	m1, _ := m.Index(2, 1) // numpy's a[1]
	fmt.Println(m1)
	fmt.Println("one buffer:", &m.Data()[0] == &v.Data()[0])
	// Output:
	// shape [2 2 2] strides [4 2 1] offset 0
	// shape [2 2 2] strides [2 1 4] offset 0 RowMajorPacked
	// View[float64] shape [2 2]
	// [[5 6]
	//  [7 8]]
	// one buffer: true
}

// A file mapped into memory: the view reads the file's pages in place.
func ExampleMap() {
	dir, _ := os.MkdirTemp("", "npy")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "x.npy")
	t, _ := views.FromColMajor([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	npy.WriteFile(p, t.View()) // column-major: fortran_order True, no reorder

	m, err := npy.Map[float32](p)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close() // after Close, m's views must not be used
	v := m.View()
	fmt.Println(m.Header().FortranOrder, v.Layout().IsColMajor(), v.At(1, 2))
	// Output:
	// true true 6
}

// Members of mixed dtypes: the header says which element type to read.
func ExampleReadMember() {
	x, _ := views.FromColMajor([]float64{1, 2, 3}, 3)
	z, _ := views.FromColMajor([]complex64{1i, 2}, 2)
	var f bytes.Buffer
	npy.WriteNPZ(&f, npy.Deflated, npy.Named("x", x.View()), npy.Named("z", z.View()))

	ar, _ := npy.ReadNPZ(bytes.NewReader(f.Bytes()), int64(f.Len()))
	for _, name := range ar.Names() {
		h, _ := ar.Header(name)
		switch h.Dtype {
		case npy.Float64:
			v, _ := npy.ReadMember[float64](ar, name)
			fmt.Println(name, h.Dtype, v.At(2))
		case npy.Complex64:
			v, _ := npy.ReadMember[complex64](ar, name)
			fmt.Println(name, h.Dtype, v.At(0))
		}
	}
	// Output:
	// x float64 3
	// z complex64 (0+1i)
}
