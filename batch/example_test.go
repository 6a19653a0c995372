package batch_test

import (
	"errors"
	"fmt"

	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/lapack"
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

// Batched small systems: factor 3 SPD 2x2 matrices at once and solve with
// the factors, in place (Potrf, Potrs). Matrix 1 is not positive
// definite: Potrf reports it, the others are factored, and Potrs reports
// it again instead of solving from its partial factor.
func ExamplePotrs() {
	a, _ := views.FromColMajor([]float64{
		4, 2, 2, 3, // matrix 0 (column-major)
		1, 2, 2, 1, // matrix 1: not positive definite
		9, 0, 0, 4, // matrix 2
	}, 2, 2, 3)
	b, _ := views.FromColMajor([]float64{2, 1, 1, 1, 9, 8}, 2, 1, 3) // one right-hand side each
	err := batch.Potrf(batch.Lower, a.View())
	fmt.Println("Potrf:", err)
	err = batch.Potrs(batch.Lower, a.View(), b.View())
	var be *batch.Error
	if errors.As(err, &be) {
		for _, i := range be.Indices() {
			fmt.Println("Potrs: matrix", i, "failed:", errors.Is(err, lapack.ErrNotPositiveDefinite))
		}
	}
	fmt.Printf("x0 = %.3f, x2 = %.3f\n", b.Data()[0:2], b.Data()[4:6])
	// Output:
	// Potrf: batch.Potrf: 1 of 3 matrices failed: [1]: dpotrf: matrix is not positive definite: its leading minor of order 2 is not positive definite
	// Potrs: matrix 1 failed: true
	// x0 = [0.500 0.000], x2 = [1.000 2.000]
}

// The out-of-place forms keep their inputs: CholeskyTo writes each
// factor as a full matrix (zeros above the diagonal for Lower, as
// numpy.linalg.cholesky returns it) and SolveTo the solutions, while a
// and b stay as they were.
func ExampleCholeskyTo() {
	a, _ := views.FromColMajor([]float64{
		4, 2, 2, 3, // matrix 0 (column-major)
		9, 3, 3, 5, // matrix 1
	}, 2, 2, 2)
	b, _ := views.FromColMajor([]float64{6, 5, 12, 8}, 2, 1, 2)
	l, _ := views.Zeros[float64](2, 2, 2)
	x, _ := views.Zeros[float64](2, 1, 2)
	if err := batch.CholeskyTo(batch.Lower, l.View(), a.View()); err != nil {
		panic(err)
	}
	if err := batch.SolveTo(x.View(), a.View(), b.View()); err != nil {
		panic(err)
	}
	fmt.Println("L:", l.Data())
	fmt.Println("x:", x.Data())
	fmt.Println("a:", a.Data())
	// Output:
	// L: [2 1 0 1.4142135623730951 3 1 0 2]
	// x: [1 1 1 1]
	// a: [4 2 2 3 9 3 3 5]
}

// The allocating forms return new batches and keep their operands:
// Solve solves 2 systems at once, Inv inverts them.
func ExampleSolve() {
	a, _ := views.FromColMajor([]float64{
		2, 0, 0, 4, // matrix 0: diag(2, 4)
		1, 1, 0, 1, // matrix 1: [1 0; 1 1]
	}, 2, 2, 2)
	b, _ := views.FromColMajor([]float64{2, 4, 1, 3}, 2, 1, 2)
	x, err := batch.Solve(a.View(), b.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	inv, _ := batch.Inv(a.View())
	fmt.Println("x:", x.Data())
	fmt.Println("inverses:", inv.Data())
	fmt.Println("a kept:", a.Data()[:4])
	// Output:
	// x: [1 1 1 2]
	// inverses: [0.5 0 0 0.25 1 -1 0 1]
	// a kept: [2 0 0 4]
}

// Solve broadcasts a b with no batch axes over a's batch, as Mul
// broadcasts its operands: here the same right-hand side for each of
// three systems, b a vector, x one column per matrix ([2, 3]).
func ExampleSolve_broadcast() {
	a, _ := views.Zeros[float64](2, 2, 3) // diag(1, 1), diag(2, 2), diag(4, 4)
	for k, d := range []float64{1, 2, 4} {
		a.Set(d, 0, 0, k)
		a.Set(d, 1, 1, k)
	}
	b, _ := views.FromColMajor([]float64{4, 8}, 2)
	x, err := batch.Solve(a.View(), b.View())
	if err != nil {
		panic(err)
	}
	defer x.Release()
	fmt.Println(x.Shape(), x.Data())

	err = batch.Gesv(a.View(), b.View()) // in place: b cannot be broadcast
	fmt.Println(err)
	// Output:
	// [2 3] [4 8 2 4 1 2]
	// batch.Gesv: b: rank 1, want at least 2 ([rows, cols, batch...]); batch.Solve(a, b) takes a vector b (bad shape)
}
