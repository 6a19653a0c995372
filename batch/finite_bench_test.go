package batch

import (
	"fmt"
	"testing"

	"github.com/lapis-go/lapis/views"
)

var benchSink bool

// BenchmarkFiniteLooks measures what the finite-input rule adds to a
// call that succeeds: per call, the rule's construction and the extents
// check (call); per matrix on the per-matrix path, the cheap looks
// (Cholesky's diagonal, a solve's x with one right-hand side, Inv's
// whole inverse). The tiny kernels' success path adds only the per-call
// part. Compare with the per-matrix cost of the operation itself
// (BenchmarkBatchTiny impl=lapis-old in package bench: 0.5-4 us a
// matrix at n = 3 and 8).
//
//	go test -run '^$' -bench FiniteLooks -count 6 ./batch
func BenchmarkFiniteLooks(b *testing.B) {
	for _, n := range []int{3, 8, 16} {
		a := spdStackF64(n, 1)
		m := matrixAt(a, []int{1}, 0)
		x := matrixAt(onesF64(n, 1), []int{1}, 0)
		b.Run(fmt.Sprintf("look=diagonal/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				benchSink = badDiagonal(&m)
			}
		})
		b.Run(fmt.Sprintf("look=solution/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				benchSink = badMatrix(&x)
			}
		})
		b.Run(fmt.Sprintf("look=matrix/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				benchSink = badMatrix(&m)
			}
		})
	}
	a, bb := spdStackF64(8, 10000), onesF64(8, 10000)
	shape := []int{10000}
	b.Run("look=call", func(b *testing.B) {
		for b.Loop() {
			rl := newRule("batch.Gesv", shape, source[float64]{"a", a, 0, true}, source[float64]{"b", bb, 0, true})
			benchSink = rl == nil || extents("batch.Gesv", []string{"a", "b"}, a, bb) != nil
		}
	})
	_ = views.View[float64]{}
}
