package lapack_test

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// Solve a x = b for a row-major a: LAPACK gets a plain copy of a's storage
// (which is a^T, column-major) and solves with "T"; no transposing copy.
func ExampleSolve() {
	a, _ := views.FromRowMajor([]float64{
		4, 1,
		2, 3,
	}, 2, 2)
	b, _ := views.FromColMajor([]float64{1, 2}, 2)
	x, err := lapack.Solve(a.View(), b.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x = %.3f\n", x.Data())

	singular, _ := views.FromColMajor([]float64{1, 2, 2, 4}, 2, 2)
	_, err = lapack.Solve(singular.View(), b.View())
	var le *lapack.Error
	if errors.Is(err, lapack.ErrSingular) && errors.As(err, &le) {
		fmt.Printf("%s: zero pivot at %d\n", le.Routine, le.Index)
	}
	// Output:
	// x = [0.100 0.600]
	// dgetrf: zero pivot at 1
}

// Cholesky returns L with L L^H = a; a's upper triangle is not read.
func ExampleCholesky() {
	a, _ := views.FromColMajor([]float64{
		4, 2, // column 0
		0, 5, // column 1 (the 0 is above the diagonal: ignored)
	}, 2, 2)
	l, err := lapack.Cholesky(a.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.At(0, 0), l.At(1, 0), l.At(1, 1), l.At(0, 1))
	// Output: 2 1 2 0
}

// SVD of a 3 x 2 matrix: two singular values, u 3 x 2, vt 2 x 2.
func ExampleSVD() {
	a, _ := views.FromColMajor([]float64{
		3, 0, 0,
		0, -2, 0,
	}, 3, 2)
	s, u, vt, err := lapack.SVD(a.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s, u.Shape(), vt.Shape())
	// Output: [3 2] [3 2] [2 2]
}

// EigSym of a symmetric matrix: ascending eigenvalues and orthonormal
// eigenvectors as columns.
func ExampleEigSym() {
	a, _ := views.FromColMajor([]float64{
		2, 1,
		1, 2,
	}, 2, 2)
	w, v, err := lapack.EigSym(a.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("w = %.3f, v[:,1] = ±[%.3f %.3f]\n", w, abs(v.At(0, 1)), abs(v.At(1, 1)))
	// Output: w = [1.000 3.000], v[:,1] = ±[0.707 0.707]
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Least squares from row-major data (a [][]float64 as Go code holds it):
// fit y = c0 + c1 t through four points. A rank-deficient design (a
// column that is twice another) is an error that says so, with the
// minimum-norm x still returned.
func ExampleLeastSquares() {
	a, _ := views.FromRows([][]float64{
		{1, 0},
		{1, 1},
		{1, 2},
		{1, 3},
	})
	y, _ := views.FromColMajor([]float64{1, 3, 5, 7}, 4)
	c, err := lapack.LeastSquares(a.View(), y.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("c = %.3f\n", c.Data())

	bad, _ := views.FromRows([][]float64{{1, 2}, {2, 4}, {3, 6}})
	y3, _ := views.FromColMajor([]float64{1, 2, 3}, 3)
	x, err := lapack.LeastSquares(bad.View(), y3.View())
	var le *lapack.Error
	if errors.Is(err, lapack.ErrRankDeficient) && errors.As(err, &le) {
		fmt.Printf("rank %d; minimum-norm x = %.3f\n", le.Rank, x.Data())
	}
	// Output:
	// c = [1.000 2.000]
	// rank 1; minimum-norm x = [0.200 0.400]
}

// gonum interop: a mat.Dense is viewed in place (row-major strides, no
// copy), solved by LAPACK, and the result turned back into a mat.Dense.
func Example_gonum() {
	a := mat.NewDense(2, 2, []float64{4, 1, 2, 3})
	b := mat.NewDense(2, 1, []float64{1, 2})
	x, err := lapack.Solve(views.FromDense(a), views.FromDense(b))
	if err != nil {
		fmt.Println(err)
		return
	}
	xd, _ := views.ToDense(x.View())
	fmt.Printf("x = %.3f\n", mat.Formatted(xd.T()))
	// Output:
	// x = [0.100  0.600]
}

// Ridge regression by Cholesky, in one expression per step: the normal
// matrix X^T X + lambda I is factored once, and each right-hand side is
// solved from the factor.
func ExampleCholeskySolve() {
	x, _ := views.FromRows([][]float64{{1, 0}, {1, 1}, {1, 2}, {1, 3}})
	y, _ := views.FromColMajor([]float64{1, 3, 5, 7}, 4, 1)
	g, _ := cblas.Mul(x.View().T(), x.View()) // X^T X, a view's transpose: no copy
	for i := range 2 {
		g.Set(g.At(i, i)+0.5, i, i) // + lambda I
	}
	xty, _ := cblas.Mul(x.View().T(), y.View())
	l, err := lapack.Cholesky(g.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	beta, _ := lapack.CholeskySolve(l.View(), xty.View())
	fmt.Printf("beta = %.4f\n", beta.Data())
	// Output:
	// beta = [0.9573 1.9487]
}

// The exponential of a rotation generator is the rotation: x' = g x
// turns x by one radian in unit time. Expm takes any view (g.View().T()
// would give the rotation back) and returns a new column-major tensor.
func ExampleExpm() {
	g, _ := views.FromRows([][]float64{{0, -1}, {1, 0}})
	r, err := lapack.Expm(g.View()) // the rotation by one radian
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Release()
	for i := range 2 {
		fmt.Printf("%7.4f %7.4f\n", r.At(i, 0), r.At(i, 1))
	}
	// Output:
	//  0.5403 -0.8415
	//  0.8415  0.5403
}

// Condition numbers as numpy.linalg.cond computes them: the two norm from
// the singular values, the one norm from the LU factors; a singular
// matrix has condition +Inf.
func ExampleCond() {
	a, _ := views.FromRows([][]float64{{1, 2}, {3, 4}})
	c2, err := lapack.Cond(lapack.TwoNorm, a.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	c1, err := lapack.Cond(lapack.OneNorm, a.View())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("two norm %.4f, one norm %.4f\n", c2, c1)

	singular, _ := views.FromRows([][]float64{{1, 0}, {2, 0}})
	c, err := lapack.Cond(lapack.TwoNorm, singular.View())
	fmt.Println(c, err)
	// Output:
	// two norm 14.9330, one norm 21.0000
	// +Inf <nil>
}
