package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLapackImplsAgree runs every impl of every BenchmarkLapack op once on
// small matrices and checks that they compute the same thing as impl=c,
// after checking impl=c itself: its gesv solution's residual, its Cholesky
// factor's product.
func TestLapackImplsAgree(t *testing.T) {
	defer setBLASThreads(setBLASThreads(1))
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 37
	for _, op := range []lapackOp{
		gesvOp(rng, n, 1), gesvOp(rng, n, 5), potrfOp(rng, n), geqrfOp(rng, n),
		svdOp(rng, "gesdd", n), svdOp(rng, "gesvd", n), syevdOp(rng, n),
		svdOp(rng, "svd-helper", n), syevdOp(rng, n, "eigsym-helper"),
	} {
		var want []float64
		for _, impl := range op.impls {
			impl.restore()
			if err := impl.call(); err != nil {
				t.Fatalf("op=%s impl=%s: %v", op.name, impl.name, err)
			}
			got := impl.result()
			if want == nil {
				if impl.name != "c" {
					t.Fatalf("op=%s: first impl is %s, not c", op.name, impl.name)
				}
				want = append([]float64(nil), got...)
				continue
			}
			if len(got) != len(want) {
				t.Fatalf("op=%s impl=%s: %d results, want %d", op.name, impl.name, len(got), len(want))
			}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-9*(1+math.Abs(want[i])) {
					t.Fatalf("op=%s impl=%s: result[%d] = %v, c has %v", op.name, impl.name, i, got[i], want[i])
				}
			}
		}
	}
}

// TestLapackRef checks the C reference against the definitions: a x = b
// for dgesv, L Lᵀ = a for dpotrf, and that info reaches Go (a singular a).
func TestLapackRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const n, nrhs = 50, 3
	a, b := random(rng, n*n), random(rng, n*nrhs)
	for i := range n {
		a[i+i*n] += n
	}
	lu, x := slices.Clone(a), slices.Clone(b)
	if err := newDgesvRef(n, nrhs, lu, x).call(); err != nil {
		t.Fatal(err)
	}
	for k := range nrhs {
		for i := range n {
			r := -b[i+k*n]
			for j := range n {
				r += a[i+j*n] * x[j+k*n]
			}
			if math.Abs(r) > 1e-12*n {
				t.Fatalf("dgesv: (a x - b)[%d][%d] = %v", i, k, r)
			}
		}
	}

	s := spdDmat(rng, n).col
	l := slices.Clone(s)
	if err := (&dpotrfRef{n: n, a: l}).call(); err != nil {
		t.Fatal(err)
	}
	l = lowerCol(n, l)
	for i := range n {
		for j := range n {
			r := -s[i+j*n]
			for k := range n {
				r += l[i+k*n] * l[j+k*n]
			}
			if math.Abs(r) > 1e-12*math.Abs(s[i+j*n])*n {
				t.Fatalf("dpotrf: (L Lᵀ - a)[%d][%d] = %v", i, j, r)
			}
		}
	}

	z := make([]float64, n*n) // singular: info = 1 (u[0][0] = 0)
	if err := newDgesvRef(n, 1, z, make([]float64, n)).call(); err == nil || err.Error() != "dgesv: info = 1" {
		t.Fatalf("dgesv of zeros: err = %v, want info = 1", err)
	}
}
