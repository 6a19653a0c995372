package gonumblas_test

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis/gonumblas"
)

// gonum/mat on the linked BLAS: after the two Use lines every product of
// mat.Dense (and, with cblas128, mat.CDense) runs on OpenBLAS.
func Example() {
	blas64.Use(gonumblas.Implementation{})
	cblas128.Use(gonumblas.Implementation{})

	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	b := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	var c mat.Dense
	c.Mul(a, b) // dgemm
	fmt.Println(mat.Formatted(&c))
	// Output:
	// ⎡ 4   5⎤
	// ⎣10  11⎦
}
