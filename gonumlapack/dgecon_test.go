package gonumlapack_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/gonumlapack"
)

// TestDgecon checks Implementation.Dgecon, dgecon's algorithm on the stored
// transpose of the factors, against gonum's pure-Go Dgecon (the same
// algorithm on gonum's storage) for both norms, on matrices whose 1- and
// infinity-norm condition numbers differ by orders of magnitude, graded
// ones that make dlatrs scale, and sizes across the block boundaries, with
// lda > n; and that it copies nothing.
func TestDgecon(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 9))
	for _, n := range []int{1, 2, 5, 31, 64, 65, 130} {
		for _, kind := range []string{"random", "row", "graded"} {
			t.Run(fmt.Sprintf("n=%d/%s", n, kind), func(t *testing.T) {
				lda := n + 3
				a := make([]float64, n*lda)
				for i := range n {
					for j := range n {
						v := rnd.NormFloat64()
						switch kind {
						case "row": // I + small, one heavy row: the two norms differ ~n-fold
							v *= 0.1
							if i == j {
								v++
							}
							if i == 0 {
								v = 100 * (1 + rnd.Float64())
							}
						case "graded": // entries spanning 1e-150 .. 1e150
							v *= math.Pow(10, 300*float64(i+j)/float64(2*n)-150)
						}
						a[i*lda+j] = v
					}
				}
				ipiv := make([]int, n)
				work := make([]float64, 4*n)
				iwork := make([]int, n)
				impls := []lapack.Float64{gonumlapack.Implementation{}, gonum.Implementation{}}
				var got [2][2]float64
				for k, impl := range impls {
					f := append([]float64(nil), a...)
					if !impl.Dgetrf(n, n, f, lda, ipiv) {
						t.Skipf("%T: singular factor", impl) // not expected for these matrices
					}
					for l, norm := range []lapack.MatrixNorm{lapack.MaxColumnSum, lapack.MaxRowSum} {
						anorm := impl.Dlange(norm, n, n, a, lda, work)
						before := lapis.ReadStats().Copies
						got[k][l] = impl.Dgecon(norm, n, f, lda, anorm, work, iwork)
						if k == 0 && lapis.ReadStats().Copies != before {
							t.Errorf("Dgecon copied %d operands, want none", lapis.ReadStats().Copies-before)
						}
					}
				}
				for l, norm := range []string{"1", "inf"} {
					g, w := got[0][l], got[1][l]
					if math.IsNaN(g) || math.Abs(g-w) > 1e-8*math.Abs(w) {
						t.Errorf("%s-norm rcond = %v, gonum's Dgecon %v", norm, g, w)
					}
				}
				if kind == "row" && n >= 5 && !(got[1][0] > 3*got[1][1] || got[1][1] > 3*got[1][0]) {
					t.Errorf("rcond 1-norm %v and inf-norm %v too close to tell the norms apart", got[1][0], got[1][1])
				}
			})
		}
	}
}
