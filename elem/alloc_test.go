package elem

import (
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/internal/rt/pool"
)

// TestNoAllocs: into a given destination, operations on views of rank up
// to 8 allocate nothing in steady state, on every path: the fast path for
// compact operands, the planned one (strided, broadcast, conjugated,
// rank 8), the packed transpose, and reductions split for pairwise sums.
func TestNoAllocs(t *testing.T) {
	if pool.Poison.Load() {
		t.Skip("under the race detector (which poisons pooled buffers) allocation counts include its instrumentation")
	}
	r := rand.New(rand.NewPCG(9, 9))
	m := makeView[complex128](r, []int{40, 30}, "colmajor", false)
	mt := makeView[complex128](r, []int{30, 40}, "colmajor", false).T()
	d := makeView[complex128](r, []int{40, 30}, "colmajor", true)
	s := makeView[complex128](r, []int{40, 30}, "strided", true)
	b := makeView[complex128](r, []int{40, 30}, "broadcast", false)
	r8 := []int{2, 3, 2, 2, 3, 2, 2, 2}
	x8 := makeView[complex128](r, r8, "reversed", false)
	d8 := makeView[complex128](r, r8, "strided", true)
	tall := makeView[float64](r, []int{600, 4}, "colmajor", false)
	wide := makeView[float64](r, []int{4, 600}, "colmajor", false)
	col := makeView[float64](r, []int{4}, "colmajor", true)
	row := makeView[float64](r, []int{1, 4}, "strided", true)
	two := makeView[float64](r, []int{4, 600}, "rowmajor", false)
	lin := X(m).Add(X(mt)).Scale(0.5)
	prog := X(m).Mul(X(b)).Sub(X(m).Div(X(mt)))
	deep := X(m)
	for range 30 {
		deep = deep.Mul(X(m)).Add(X(b))
	}
	bcast := must(makeView[float64](r, []int{4, 1}, "colmajor", false).BroadcastTo(4, 600))
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"compact", func() error { return AddTo(d, m, m) }},
		{"strided, broadcast", func() error { return AxpbyTo(s, 2, m, 3, b) }},
		{"conjugated", func() error { return MulTo(s, m.Conj(), b) }},
		{"transposed", func() error { return AddTo(d, m, mt) }},
		{"rank 8", func() error { return SubTo(d8, x8, x8) }},
		{"map", func() error { return MapTo(d8, x8, func(z complex128) complex128 { return z * z }) }},
		{"fill", func() error { return Fill(s, 1) }},
		{"sum along the contiguous axis", func() error { return SumTo(row, tall, 0) }},
		{"sum along the strided axis (split)", func() error { return SumTo(col, wide, 1) }},
		{"dot", func() error { return DotTo(col, wide, two, 1) }},
		{"max", func() error { return MaxTo(col, wide, 1) }},
		{"2-norm", func() error { return NormTo(col, wide, L2, 1) }},
		{"expression, linear", func() error { return EvalTo(s, lin) }},
		{"expression, program", func() error { return EvalTo(d, prog) }},
		{"deep expression", func() error { return EvalTo(d, deep) }},
		{"product of a broadcast", func() error { return ProdTo(col, bcast, 1) }},
	} {
		if err := c.f(); err != nil { // warm the pools
			t.Fatalf("%s: %v", c.name, err)
		}
		if n := testing.AllocsPerRun(20, func() { _ = c.f() }); n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", c.name, n)
		}
	}
}
