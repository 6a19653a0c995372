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
	w := ct.View().T()
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

// A matrix written as Go writes it, row by row, becomes a column-major
// tensor with one copy; printing shows its values.
func ExampleFromRows() {
	a, err := views.FromRows([][]float64{
		{1, 2, 3},
		{4, 5, 6},
	})
	if err != nil {
		panic(err)
	}
	defer a.Release()
	fmt.Println(a)
	fmt.Println(a.Data()) // column-major storage

	_, err = views.FromRows([][]float64{{1, 2}, {3}})
	fmt.Println(err)
	// Output:
	// Tensor[float64] shape [2 3]
	// [[1 2 3]
	//  [4 5 6]]
	// [1 4 2 5 3 6]
	// views.FromRows: rows: row 1 has length 1, want 2 (the length of row 0) (bad shape)
}

func ExampleEye() {
	i3, _ := views.Eye[float32](3)
	fmt.Println(i3)
	// Output:
	// Tensor[float32] shape [3 3]
	// [[1 0 0]
	//  [0 1 0]
	//  [0 0 1]]
}

func ExampleFull() {
	c, _ := views.Full(1-2i, 2)
	fmt.Println(c)
	fmt.Println(c.View().Conj()) // conjugated views print conjugated values
	// Output:
	// Tensor[complex128] shape [2]
	// [(1-2i) (1-2i)]
	// View[complex128] shape [2]
	// [(1+2i) (1+2i)]
}

// %v (and Println, String) print the values: a batch [M, N, B] as a stack
// of matrices headed by their batch index; float verbs apply to every
// element; %+v prints the layout instead.
func ExampleTensor_Format() {
	t, _ := views.Zeros[float64](2, 2, 3)
	for i := range t.Data() {
		t.Data()[i] = float64(i) / 2
	}
	fmt.Println(t)
	m, _ := t.View().Index(2, 1)
	fmt.Printf("%.2f\n", m)
	fmt.Printf("%+v\n", m)
	// Output:
	// Tensor[float64] shape [2 2 3]
	// [:, :, 0] =
	// [[  0   1]
	//  [0.5 1.5]]
	// [:, :, 1] =
	// [[  2   3]
	//  [2.5 3.5]]
	// [:, :, 2] =
	// [[  4   5]
	//  [4.5 5.5]]
	// View[float64] shape [2 2]
	// [[2.00 3.00]
	//  [2.50 3.50]]
	// View[float64]{shape [2 2] strides [1 2] offset 4 data len 12}
}

// Above 1000 elements every long axis shows 3 entries at each end.
func ExampleView_Format() {
	t, _ := views.Zeros[float64](2000, 2000)
	for i := range t.Data() {
		t.Data()[i] = float64(i)
	}
	fmt.Printf("%.0f\n", t.View())
	// Output:
	// View[float64] shape [2000 2000]
	// [[   0 2000 4000 ... 3994000 3996000 3998000]
	//  [   1 2001 4001 ... 3994001 3996001 3998001]
	//  [   2 2002 4002 ... 3994002 3996002 3998002]
	//  ...
	//  [1997 3997 5997 ... 3995997 3997997 3999997]
	//  [1998 3998 5998 ... 3995998 3997998 3999998]
	//  [1999 3999 5999 ... 3995999 3997999 3999999]]
}
