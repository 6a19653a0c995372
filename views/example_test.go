package views_test

import (
	"fmt"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Row-major data (as a Go [][]float64 or numpy would lay it out), brought in
// three ways; all read the same matrix [[1 2 3] [4 5 6]].
func Example_rowMajorImport() {
	rows := []float64{1, 2, 3, 4, 5, 6} // 2 x 3, row by row

	// 1. FromRowMajor: one reordering copy into an owned column-major tensor.
	t, _ := views.FromRowMajor(rows, 2, 3)
	fmt.Println("FromRowMajor data:", t.Data())

	// 2. A view with row-major strides [3, 1] over the rows: no copy.
	l, _ := layout.RowMajor(2, 3)
	v, _ := views.FromSlice(rows, l)
	fmt.Println("strided view:", v.At(0, 1), v.At(1, 0), v.Layout())

	// 3. The transpose of a column-major [3, 2] view: no copy either.
	ct, _ := views.FromColMajor(rows, 3, 2)
	w, _ := ct.View().T()
	fmt.Println("transpose view:", w.At(0, 1), w.At(1, 0), w.Layout().Class())

	// Output:
	// FromRowMajor data: [1 4 2 5 3 6]
	// strided view: 2 4 shape [2 3] strides [3 1] offset 0
	// transpose view: 2 4 RowMajorPacked
}

// Each matrix of a column-major batch [M, N, B] is one contiguous block:
// Index on the batch axis borrows it as a plain slice, no copy.
func Example_batchSlicing() {
	t, _ := views.Zeros[float64](2, 2, 3)
	for i := range t.Data() {
		t.Data()[i] = float64(i)
	}
	m1, _ := t.View().Index(2, 1)
	s, _ := m1.AsSlice()
	fmt.Println(m1.Layout(), s)
	s[0] = 40 // writes through to the tensor
	fmt.Println(t.At(0, 0, 1))
	// Output:
	// shape [2 2] strides [1 2] offset 4 [4 5 6 7]
	// 40
}

// Reverse walks an axis backwards with a negative stride, no copy.
func Example_reverse() {
	a, _ := views.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	r, _ := a.View().Reverse(1)
	fmt.Println(r.Layout(), r.At(0, 0), r.At(1, 2))
	c := r.ToColMajor()
	fmt.Println(c.Data())
	// Output:
	// shape [2 3] strides [1 -2] offset 4 3 4
	// [3 6 2 5 1 4]
}
