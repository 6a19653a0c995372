package gonumlapack_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/lapis-go/lapis/gonumlapack"
)

// TestDgetrsOneRHS checks Implementation.Dgetrs with one right-hand side (its
// ?trsv path; gonum's testlapack only solves nrhs >= 3) against gonum's
// pure-Go Dgetrs on the same factors, for both transposes, sizes across
// the block boundaries, lda > n and ldb > 1 (a strided column), with NaN
// in b's padding that must survive.
func TestDgetrsOneRHS(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 7))
	for _, n := range []int{1, 2, 5, 64, 65, 130} {
		for _, ldb := range []int{1, 3} {
			for _, trans := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				t.Run(fmt.Sprintf("n=%d/ldb=%d/trans=%c", n, ldb, trans), func(t *testing.T) {
					lda := n + 2
					a := make([]float64, n*lda)
					for i := range a {
						a[i] = 2*rnd.Float64() - 1
					}
					ipiv := make([]int, n)
					if !(gonumlapack.Implementation{}).Dgetrf(n, n, a, lda, ipiv) {
						t.Fatal("Dgetrf: singular")
					}
					b := make([]float64, (n-1)*ldb+1)
					for i := range b {
						b[i] = math.NaN()
					}
					for i := range n {
						b[i*ldb] = 2*rnd.Float64() - 1
					}
					want := append([]float64(nil), b...)
					gonum.Implementation{}.Dgetrs(trans, n, 1, a, lda, ipiv, want, ldb)
					gonumlapack.Implementation{}.Dgetrs(trans, n, 1, a, lda, ipiv, b, ldb)
					for i, v := range b {
						if i%ldb != 0 {
							if !math.IsNaN(v) {
								t.Fatalf("padding b[%d] = %v, want NaN untouched", i, v)
							}
							continue
						}
						if d := math.Abs(v - want[i]); d > 1e-10*math.Max(1, math.Abs(want[i])) {
							t.Fatalf("x[%d] = %v, gonum %v (diff %g)", i/ldb, v, want[i], d)
						}
					}
				})
			}
		}
	}
}
