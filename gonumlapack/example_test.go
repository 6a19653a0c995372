package gonumlapack_test

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/gonumblas"
	"github.com/lapis-go/lapis/gonumlapack"
)

// gonum/mat on the linked BLAS and LAPACK: after the two Use lines a
// Cholesky factorisation runs on OpenBLAS (dlansy for the norm, dpotrf,
// dpocon for the condition number mat.Cholesky keeps), and so does its
// solve (two triangular solves through gonumblas).
func Example() {
	blas64.Use(gonumblas.Implementation{})
	lapack64.Use(gonumlapack.Implementation{})

	a := mat.NewSymDense(2, []float64{4, 2, 2, 3})
	before := lapis.ReadStats().Lapack
	var chol mat.Cholesky
	if !chol.Factorize(a) {
		fmt.Println("not positive definite")
		return
	}
	var x mat.VecDense
	if err := chol.SolveVecTo(&x, mat.NewVecDense(2, []float64{2, 1})); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x = %.3f, LAPACK calls: %d\n", mat.Formatted(x.T()), lapis.ReadStats().Lapack-before)
	// Output:
	// x = [0.500  0.000], LAPACK calls: 3
}
