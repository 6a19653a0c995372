package cblas

import (
	"testing"

	"github.com/lapis-go/lapis/views"
)

// BenchmarkReleaseCheck is the cost of the released-view check on the call
// it weighs most on: a 4 x 4 product of views of pooled tensors
// (src=tensor: each operand's generation loaded and compared) and of slices
// (src=slice: one nil test each). Compare binaries built before and after
// the check, alternated (docs/bench/release-check.md).
func BenchmarkReleaseCheck(b *testing.B) {
	mk := func() *views.Tensor[float64] {
		t, err := views.Zeros[float64](4, 4)
		if err != nil {
			b.Fatal(err)
		}
		for i, d := 0, t.Data(); i < len(d); i++ {
			d[i] = float64(i%7) - 3
		}
		return t
	}
	ta, tb, tc := mk(), mk(), mk()
	fromSlice := func(t *views.Tensor[float64]) views.View[float64] {
		v, err := views.FromSlice(append([]float64(nil), t.Data()...), t.Layout())
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	for _, src := range []string{"tensor", "slice"} {
		a, bb, c := ta.View(), tb.View(), tc.View()
		if src == "slice" {
			a, bb, c = fromSlice(ta), fromSlice(tb), fromSlice(tc)
		}
		b.Run("op=gemm/n=4/src="+src, func(b *testing.B) {
			for b.Loop() {
				if err := Gemm(1, a, bb, 0, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
