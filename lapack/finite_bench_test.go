package lapack

import (
	"fmt"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/views"
)

var scanSink error

// BenchmarkNotFiniteScan measures the finite-input rule's scan against
// the calls it guards (docs/bench/nan-scan.md), float64, one OpenBLAS
// thread: op=scan is checkFinite alone on what Solve reads (a and b,
// n x n and n x 1) or Cholesky reads (a's lower triangle); op=solve,
// op=cholesky the whole helpers (scan, working copy, LAPACK, for Solve
// the conditioning check); op=copy the helpers' working copy of a alone
// (views.Copy into a compact buffer); op=gesv, op=potrf and op=syevd the
// in-place routines on such a copy (copy included: subtract op=copy).
//
//	go test -run '^$' -bench NotFiniteScan -count 6 ./lapack
func BenchmarkNotFiniteScan(b *testing.B) {
	if err := lapis.SetThreads(1); err == nil {
		defer lapis.SetThreads(lapis.AutoThreads)
	}
	for _, n := range []int{4, 100, 1000} {
		a, rhs := benchSPD(n)
		av, bv := a.View(), rhs.View()
		w, _ := views.Zeros[float64](n, n)
		x, _ := views.Zeros[float64](n, 1)
		wv, xv := w.View(), x.View()
		b.Run(fmt.Sprintf("op=scan/n=%d/reads=a,b", n), func(b *testing.B) {
			for b.Loop() {
				scanSink = checkFinite("lapack.Solve", finite.All("a", av), finite.All("b", bv))
			}
		})
		b.Run(fmt.Sprintf("op=scan/n=%d/reads=a-lower", n), func(b *testing.B) {
			for b.Loop() {
				scanSink = checkFinite("lapack.Cholesky", readTriangle("a", av, Lower))
			}
		})
		b.Run(fmt.Sprintf("op=copy/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				_ = views.Copy(wv, av)
			}
		})
		b.Run(fmt.Sprintf("op=solve/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				t, err := Solve(av, bv)
				if err != nil {
					b.Fatal(err)
				}
				t.Release()
			}
		})
		b.Run(fmt.Sprintf("op=cholesky/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				t, err := Cholesky(av)
				if err != nil {
					b.Fatal(err)
				}
				t.Release()
			}
		})
		ipiv := make([]int32, n)
		b.Run(fmt.Sprintf("op=gesv/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				_ = views.Copy(wv, av)
				_ = views.Copy(xv, bv)
				if err := Gesv(wv, xv, ipiv); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("op=potrf/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				_ = views.Copy(wv, av)
				if err := Potrf(Lower, wv); err != nil {
					b.Fatal(err)
				}
			}
		})
		if n <= 100 {
			wr := make([]float64, n)
			b.Run(fmt.Sprintf("op=syevd/n=%d", n), func(b *testing.B) {
				for b.Loop() {
					_ = views.Copy(wv, av)
					if err := Syevd(JobVectors, Lower, wv, wr); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchSPD returns a symmetric positive definite n x n matrix
// (diagonally dominant, pseudo-random) and a right-hand side.
func benchSPD(n int) (a, b *views.Tensor[float64]) {
	a, _ = views.Zeros[float64](n, n)
	b, _ = views.Zeros[float64](n, 1)
	d := a.Data()
	seed := uint64(1)
	for j := range n {
		for i := j; i < n; i++ {
			seed = seed*6364136223846793005 + 1442695040888963407
			x := float64(seed>>11)/(1<<53) - 0.5
			if i == j {
				x += float64(n)
			}
			d[i+j*n], d[j+i*n] = x, x
		}
	}
	for i, bd := 0, b.Data(); i < n; i++ {
		bd[i] = float64(i%5) - 2
	}
	return a, b
}
