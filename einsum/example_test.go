package einsum_test

import (
	"fmt"

	"github.com/lapis-go/lapis/einsum"
	"github.com/lapis-go/lapis/views"
)

// A matrix product, a trace and a batched product with the batch axis on
// the right.
func ExampleContract() {
	a, _ := views.FromRows([][]float64{{1, 2}, {3, 4}})
	b, _ := views.FromRows([][]float64{{5, 6}, {7, 8}})
	c, _ := einsum.Contract("ij,jk->ik", a.View(), b.View())
	tr, _ := einsum.Contract("ii->", a.View())
	fmt.Println(c.At(0, 0), c.At(1, 1), tr.At())
	// Output: 19 50 5
}

// A plan made once and executed with alpha and beta into a destination,
// with a workspace: no allocation per call.
func ExampleNewPlan() {
	x, _ := views.Full(1.0, 3, 4, 2) // [i, j, b]
	y, _ := views.Full(2.0, 4, 5, 2) // [j, k, b]
	dst, _ := views.Full(10.0, 3, 5, 2)
	s, _ := einsum.Parse("ijb,jkb->ikb")
	ops := []views.View[float64]{x.View(), y.View()}
	p, err := einsum.NewPlan(s, dst.View(), ops, einsum.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ws := make([]float64, p.Workspace())
	_ = p.Execute(0.5, ops, 1, dst.View(), ws) // dst = 0.5*x.y + dst
	fmt.Println(dst.At(0, 0, 0), p.Copies())
	// Output: 14 0
}
