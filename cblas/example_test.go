package cblas_test

import (
	"fmt"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/views"
)

// Gemm with a transposed operand: the transpose is a view, BLAS reads it
// as "T", nothing is copied.
func ExampleGemm() {
	a, _ := views.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3) // [[1 2 3] [4 5 6]]
	c, _ := views.Zeros[float64](2, 2)
	at := a.View().T()
	before := lapis.ReadStats()
	if err := cblas.Gemm(1, a.View(), at, 0, c.View(), lapis.ForceC()); err != nil {
		panic(err)
	}
	d := lapis.ReadStats()
	fmt.Println("A A^T =", c.At(0, 0), c.At(0, 1), c.At(1, 0), c.At(1, 1))
	fmt.Println("C calls:", d.Calls-before.Calls, "copies:", d.Copies-before.Copies)
	// Output:
	// A A^T = 14 32 32 77
	// C calls: 1 copies: 0
}

// Row-major data from Go goes to BLAS as it is: a view with row-major
// strides is read "T".
func ExampleGemv() {
	rows := []float64{1, 2, 3, 4, 5, 6} // 2 x 3, row by row
	a, _ := views.FromColMajor(rows, 3, 2)
	at := a.View().T() // the 2 x 3 matrix, row-major
	x, _ := views.FromColMajor([]float64{1, 0, -1}, 3)
	y, _ := views.Zeros[float64](2)
	if err := cblas.Gemv(1, at, x.View(), 0, y.View()); err != nil {
		panic(err)
	}
	fmt.Println(y.Data())
	// Output: [-2 -2]
}

// Strict mode refuses an operand BLAS cannot address instead of copying it.
func ExampleStrict() {
	a, _ := views.Zeros[float64](4, 4)
	rev, _ := a.View().Reverse(1) // negative column stride: layout.General
	c, _ := views.Zeros[float64](4, 4)
	err := cblas.Gemm(1, rev, a.View(), 0, c.View(), lapis.Strict(true))
	fmt.Println(err)
	// Output: cblas.Gemm: a: a General layout (shape [4 4] strides [1 -4] offset 12, class General) needs a copy and strict mode is on (operand needs a copy)
}

// Mul returns the product as a new column-major tensor: no output to make
// by hand. Release gives its buffer back to the pool.
func ExampleMul() {
	a, _ := views.FromRows([][]float64{
		{1, 2, 3},
		{4, 5, 6},
	})
	at := a.View().T()
	c, err := cblas.Mul(a.View(), at) // A A^T
	if err != nil {
		panic(err)
	}
	defer c.Release()
	fmt.Println(c)

	_, err = cblas.Mul(a.View(), a.View())
	fmt.Println(err)
	// Output:
	// Tensor[float64] shape [2 2]
	// [[14 32]
	//  [32 77]]
	// cblas.Mul: b: 2 rows, want a's 3 columns (bad shape)
}
