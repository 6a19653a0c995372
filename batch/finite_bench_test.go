package batch

import (
	"fmt"
	"testing"

	"github.com/lapis-go/lapis"
)

var benchSink int

// BenchmarkNotFiniteScan measures what the finite-input rule's scan adds
// to a batch call (docs/bench/nan-scan.md): op=scan is the rule's scan
// of every matrix of the call's inputs (rule.bad over the batch, as the
// workers run it piece by piece), op=solve and op=cholesky the whole
// call (batch.Solve, batch.Cholesky, scan included), path=tiny on the
// tiny kernels (n = 3, 8; they apply the rule in their own pass, so the
// scan rows are what that saves), path=c per matrix through LAPACK
// (lapis.ForceC(); n = 16 on the strided solve's C loop).
//
//	go test -run '^$' -bench NotFiniteScan -count 6 ./batch
func BenchmarkNotFiniteScan(b *testing.B) {
	const count = 10000
	for _, n := range []int{3, 8, 16} {
		a, bb := spdStackF64(n, count), onesF64(n, count)
		shape := []int{count}
		paths := []string{"tiny", "c"}
		if n > 8 {
			paths = paths[1:]
		}
		b.Run(fmt.Sprintf("op=scan/n=%d/inputs=a,b", n), func(b *testing.B) {
			rl := newRule("batch.Solve", shape, source[float64]{Name: "a", V: a}, source[float64]{Name: "b", V: bb})
			var dst []int
			for b.Loop() {
				dst = rl.bad(0, count, dst[:0])
			}
			benchSink = len(dst)
		})
		b.Run(fmt.Sprintf("op=scan/n=%d/inputs=a-lower", n), func(b *testing.B) {
			rl := newRule("batch.Cholesky", shape, source[float64]{Name: "a", V: a, Tri: 'L'})
			var dst []int
			for b.Loop() {
				dst = rl.bad(0, count, dst[:0])
			}
			benchSink = len(dst)
		})
		for _, path := range paths {
			var opts []lapis.Option
			if path == "c" {
				opts = append(opts, lapis.ForceC())
			}
			b.Run(fmt.Sprintf("op=solve/n=%d/path=%s", n, path), func(b *testing.B) {
				for b.Loop() {
					x, err := Solve(a, bb, opts...)
					if err != nil {
						b.Fatal(err)
					}
					x.Release()
				}
			})
			b.Run(fmt.Sprintf("op=cholesky/n=%d/path=%s", n, path), func(b *testing.B) {
				for b.Loop() {
					l, err := Cholesky(Lower, a, opts...)
					if err != nil {
						b.Fatal(err)
					}
					l.Release()
				}
			})
		}
	}
}
