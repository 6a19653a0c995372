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

// gesvd runs impl's Dgesvd on a copy of the row-major m x n a (lda n),
// with a workspace query first, and returns s, u (m x m or m x k, ldu m)
// and vt (n x n or k x n, ldvt n).
func gesvd(t *testing.T, impl lapack.Float64, jobU, jobVT lapack.SVDJob, m, n int, a []float64) (s, u, vt []float64) {
	t.Helper()
	a = append([]float64(nil), a...)
	s = make([]float64, min(m, n))
	u = make([]float64, m*m)
	vt = make([]float64, n*n)
	for i := range u {
		u[i] = math.NaN()
	}
	for i := range vt {
		vt[i] = math.NaN()
	}
	work := []float64{0}
	impl.Dgesvd(jobU, jobVT, m, n, a, n, s, u, m, vt, n, work, -1)
	work = make([]float64, int(work[0]))
	if !impl.Dgesvd(jobU, jobVT, m, n, a, n, s, u, m, vt, n, work, len(work)) {
		t.Fatalf("%T.Dgesvd(%c, %c, %d, %d) failed", impl, jobU, jobVT, m, n)
	}
	return s, u, vt
}

// TestDgesvdVectors pins what the package docs promise about
// Dgesvd's singular vectors: by default (?gesvd) the same as gonum's at
// every size; with DivideAndConquer (?gesdd) the same as gonum's pure-Go
// Dgesvd for min(m, n) <= 25 unless 1.6 <= max/min < 11/6, and up to the
// sign of each pair otherwise; and U and VT the same whichever jobs ask
// for them.
func TestDgesvdVectors(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 7))
	for _, tc := range []struct {
		m, n     int
		qr       bool
		sameSign bool // the singular vectors equal gonum's, not only up to sign
	}{
		{4, 2, false, true},
		{3, 11, false, true},
		{25, 25, false, true},
		{40, 25, false, false}, // 1.6 <= m/n < 11/6: ?gesvd reduces R of A = Q R, ?gesdd A itself
		{46, 25, false, true},
		{25, 46, false, true},
		{30, 30, false, false},
		{60, 45, false, false},
		{45, 60, false, false},
		{30, 30, true, true},
		{60, 45, true, true},
		{45, 60, true, true},
	} {
		t.Run(fmt.Sprintf("m=%d/n=%d/qr=%t", tc.m, tc.n, tc.qr), func(t *testing.T) {
			m, n, k := tc.m, tc.n, min(tc.m, tc.n)
			a := make([]float64, m*n)
			for i := range a {
				a[i] = rnd.NormFloat64()
			}
			impl := gonumlapack.Implementation{DivideAndConquer: !tc.qr}
			s, u, vt := gesvd(t, impl, lapack.SVDStore, lapack.SVDStore, m, n, a)
			ws, wu, wvt := gesvd(t, gonum.Implementation{}, lapack.SVDStore, lapack.SVDStore, m, n, a)
			const tol = 1e-10
			flips := 0
			for j := range k {
				if d := math.Abs(s[j] - ws[j]); d > tol*ws[0] {
					t.Errorf("s[%d] = %v, gonum %v", j, s[j], ws[j])
				}
				// Pair j may be negated as a whole: u_j and v_j together.
				sign := 1.0
				if u[j]*wu[j] < 0 || (u[j] == 0 && vt[j*n]*wvt[j*n] < 0) {
					sign = -1
					flips++
				}
				// MKL's dgesvd is its own, not the reference algorithm
				// gonum's follows: its signs are its own too.
				if tc.sameSign && sign < 0 && lapis.Info().Library != "MKL" {
					t.Errorf("pair %d negated relative to gonum", j)
				}
				for i := range m {
					if d := math.Abs(u[i*m+j] - sign*wu[i*m+j]); d > tol {
						t.Fatalf("u[%d,%d] = %v, gonum %v (sign %v)", i, j, u[i*m+j], wu[i*m+j], sign)
					}
				}
				for i := range n {
					if d := math.Abs(vt[j*n+i] - sign*wvt[j*n+i]); d > tol {
						t.Fatalf("vt[%d,%d] = %v, gonum %v (sign %v)", j, i, vt[j*n+i], wvt[j*n+i], sign)
					}
				}
			}
			t.Logf("%d of %d singular vector pairs negated relative to gonum", flips, k)

			// One-sided and full jobs give the U and VT of the two-sided
			// thin job (the same LAPACK computation, the rest discarded).
			_, u1, _ := gesvd(t, impl, lapack.SVDStore, lapack.SVDNone, m, n, a)
			_, _, vt1 := gesvd(t, impl, lapack.SVDNone, lapack.SVDStore, m, n, a)
			_, ua, vta := gesvd(t, impl, lapack.SVDAll, lapack.SVDAll, m, n, a)
			sameBlock(t, "U from job (S, N)", u1, u, m, m, k, 0)
			sameBlock(t, "U from job (A, A)", ua, u, m, m, k, tol)
			sameBlock(t, "VT from job (N, S)", vt1, vt, n, k, n, 0)
			sameBlock(t, "VT from job (A, A)", vta, vt, n, k, n, tol)
		})
	}
}

// sameBlock checks the rows x cols block of the row-major got (leading
// dimension ld) against want's within tol (0: bit for bit; NaN never
// passes).
func sameBlock(t *testing.T, what string, got, want []float64, ld, rows, cols int, tol float64) {
	t.Helper()
	for i := range rows {
		for j := range cols {
			if g, w := got[i*ld+j], want[i*ld+j]; !(math.Abs(g-w) <= tol) { // NaN fails
				t.Fatalf("%s differs at [%d,%d]: %v, job (S, S) %v", what, i, j, g, w)
			}
		}
	}
}

// BenchmarkGonumDgesvd times Implementation.Dgesvd's two algorithms, ?gesvd (the
// default) and ?gesdd (DivideAndConquer), with the jobs mat.SVD passes for
// SVDThin (S, S) and SVDFull (A, A), on a square matrix:
//
//	go test -run '^$' -bench GonumDgesvd -count 3 ./gonumlapack | go run ./bench/report -ratios gesvd/gesdd
func BenchmarkGonumDgesvd(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{100, 500} {
		a := make([]float64, n*n)
		for i := range a {
			a[i] = 2*rnd.Float64() - 1
		}
		for _, job := range []lapack.SVDJob{lapack.SVDStore, lapack.SVDAll} {
			for _, impl := range []struct {
				name string
				l    gonumlapack.Implementation
			}{{"gesdd", gonumlapack.Implementation{DivideAndConquer: true}}, {"gesvd", gonumlapack.Implementation{}}} {
				b.Run(fmt.Sprintf("op=dgesvd/job=%c/n=%d/impl=%s", job, n, impl.name), func(b *testing.B) {
					s, u, vt := make([]float64, n), make([]float64, n*n), make([]float64, n*n)
					work := []float64{0}
					impl.l.Dgesvd(job, job, n, n, a, n, s, u, n, vt, n, work, -1)
					work = make([]float64, int(work[0]))
					c := make([]float64, len(a))
					for b.Loop() {
						copy(c, a)
						if !impl.l.Dgesvd(job, job, n, n, c, n, s, u, n, vt, n, work, len(work)) {
							b.Fatal("Dgesvd failed")
						}
					}
				})
			}
		}
	}
}
