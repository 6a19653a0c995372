package batch_test

import (
	"fmt"

	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/views"
)

// Mul returns the products as a new batch. Here one 2x2 matrix a (a
// missing batch axis) multiplies each of the three matrices of b: a is
// broadcast, and the output has b's batch shape.
func ExampleMul() {
	a, _ := views.FromRows([][]float64{
		{0, 1},
		{1, 0},
	}) // swaps rows
	b, _ := views.Zeros[float64](2, 2, 3)
	for i := range b.Data() {
		b.Data()[i] = float64(i)
	}
	c, err := batch.Mul(a.View(), b.View())
	if err != nil {
		panic(err)
	}
	defer c.Release()
	fmt.Println(c)

	d, _ := views.Zeros[float64](2, 2, 2)
	_, err = batch.Mul(b.View(), d.View()) // 3 and 2 matrices do not broadcast
	fmt.Println(err)
	// Output:
	// Tensor[float64] shape [2 2 3]
	// [:, :, 0] =
	// [[1  3]
	//  [0  2]]
	// [:, :, 1] =
	// [[5  7]
	//  [4  6]]
	// [:, :, 2] =
	// [[9 11]
	//  [8 10]]
	// batch.Mul: b: batch axis 2 has extent 2, a's has 3 (one of them must be 1 to broadcast) (bad shape)
}
