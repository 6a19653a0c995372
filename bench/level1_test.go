package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkLevel1 measures the level-1 calls that small-vector code makes
// most, float64, stride 1, side by side with gonum over the same memory:
// impl=lapis (cblas on views), impl=gonum-mat (gonum's view-level calls on
// a *mat.VecDense: mat.Dot, AddScaledVec, mat.Norm(v, 2), ScaleVec) and
// impl=gonum-raw (gonum's pure-Go BLAS, blas/gonum.Implementation, on the
// slices). Bytes are those read and written per call.
//
//	go test -run '^$' -bench 'BenchmarkLevel1' -benchtime 0.3s -count 5 ./bench | go run ./bench/report -ref gonum-mat,lapis
func BenchmarkLevel1(b *testing.B) {
	var raw gonum.Implementation
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{4, 16, 1024} {
		xs, ys := random(rng, n), random(rng, n)
		l := must(layout.ColMajor(n))
		x, y := must(views.FromSlice(xs, l)), must(views.FromSlice(ys, l))
		xm, ym := mat.NewVecDense(n, xs), mat.NewVecDense(n, ys)
		run := func(op, impl string, bytes int, f func(b *testing.B)) {
			b.Run(fmt.Sprintf("op=%s/n=%d/impl=%s", op, n, impl), func(b *testing.B) {
				b.SetBytes(int64(8 * bytes))
				f(b)
			})
		}
		// The loops are written out in each function (no call through a
		// func value per iteration): at n = 4 gonum-raw takes a few ns.
		var sink float64
		// dot: x . y
		run("dot", "lapis", 2*n, func(b *testing.B) {
			for b.Loop() {
				sink, _ = cblas.Dot(x, y)
			}
		})
		run("dot", "gonum-mat", 2*n, func(b *testing.B) {
			for b.Loop() {
				sink = mat.Dot(xm, ym)
			}
		})
		run("dot", "gonum-raw", 2*n, func(b *testing.B) {
			for b.Loop() {
				sink = raw.Ddot(n, xs, 1, ys, 1)
			}
		})
		// axpy: y += alpha x, alpha tiny so that y keeps its values (and
		// not 1 or -1, which gonum's AddScaledVec turns into AddVec/SubVec)
		const alpha = 1e-12
		run("axpy", "lapis", 3*n, func(b *testing.B) {
			for b.Loop() {
				_ = cblas.Axpy(alpha, x, y)
			}
		})
		run("axpy", "gonum-mat", 3*n, func(b *testing.B) {
			for b.Loop() {
				ym.AddScaledVec(ym, alpha, xm)
			}
		})
		run("axpy", "gonum-raw", 3*n, func(b *testing.B) {
			for b.Loop() {
				raw.Daxpy(n, alpha, xs, 1, ys, 1)
			}
		})
		// nrm2
		run("nrm2", "lapis", n, func(b *testing.B) {
			for b.Loop() {
				sink, _ = cblas.Nrm2(x)
			}
		})
		run("nrm2", "gonum-mat", n, func(b *testing.B) {
			for b.Loop() {
				sink = mat.Norm(xm, 2)
			}
		})
		run("nrm2", "gonum-raw", n, func(b *testing.B) {
			for b.Loop() {
				sink = raw.Dnrm2(n, xs, 1)
			}
		})
		// scal: x *= -1, so that x keeps its magnitudes
		run("scal", "lapis", 2*n, func(b *testing.B) {
			for b.Loop() {
				_ = cblas.Scal(-1.0, x)
			}
		})
		run("scal", "gonum-mat", 2*n, func(b *testing.B) {
			for b.Loop() {
				xm.ScaleVec(-1, xm)
			}
		})
		run("scal", "gonum-raw", 2*n, func(b *testing.B) {
			for b.Loop() {
				raw.Dscal(n, -1, xs, 1)
			}
		})
		_ = sink
	}
}
