package elem

import (
	"math/rand/v2"
	"testing"
)

// FuzzElem runs a random operation, element-wise or reduction, on views
// of random shapes (ranks 0-6, extents 0-4), layout classes (strided,
// reversed, row-major, broadcast, conjugated) and broadcast operands
// (an extent 1 or missing trailing axes), against the index-by-index
// oracles.
func FuzzElem(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		f.Add(s, uint8(s), uint8(s>>3))
	}
	f.Fuzz(func(t *testing.T, seed uint64, op, rank uint8) {
		r := rand.New(rand.NewPCG(seed, uint64(op)))
		n := int(rank % 7)
		shape := make([]int, n)
		for k := range shape {
			shape[k] = r.IntN(5)
		}
		if prod(shape) > 400 {
			return
		}
		// An operand may lack trailing axes or have extent 1 where dst does
		// not: the broadcast rule.
		sub := func() []int {
			s := shape[:r.IntN(n+1)]
			out := make([]int, len(s))
			for k, e := range s {
				out[k] = e
				if r.IntN(4) == 0 {
					out[k] = 1
				}
			}
			return out
		}
		class := func() string { return classes[r.IntN(len(classes))] }
		ops := opCases[complex128]()
		reds := redCases[complex128]()
		if i := int(op) % (len(ops) + len(reds)); i < len(ops) {
			c := ops[i]
			if c.real {
				return
			}
			dst := makeView[complex128](r, shape, class(), true)
			a := makeView[complex128](r, sub(), class(), false)
			b := makeView[complex128](r, sub(), class(), false)
			if err := c.to(dst, a, b); err != nil {
				t.Fatalf("%s %v: %v", c.name, shape, err)
			}
			indices(shape, func(idx []int) {
				if got, want := dst.At(idx...), c.want(at(a, idx), at(b, idx)); !agree(got, want) {
					t.Fatalf("%s %v a %v b %v at %v: %v, want %v", c.name, shape, a.Shape(), b.Shape(), idx, got, want)
				}
			})
		} else {
			c := reds[i-len(ops)]
			if c.real {
				return
			}
			x := makeView[complex128](r, shape, class(), false)
			y := makeView[complex128](r, shape, class(), false)
			reduced := make([]bool, n)
			var axes []int
			for k := range n {
				if r.IntN(2) == 0 {
					axes, reduced[k] = append(axes, k), true
				}
			}
			if len(axes) == 0 {
				for k := range reduced {
					reduced[k] = true
				}
			}
			want := redOracle(c, x, y, reduced)
			dst := makeView[complex128](r, want.Shape(), class(), true)
			if err := c.to(dst, x, y, axes...); err != nil {
				t.Fatalf("%s %v axes %v: %v", c.name, shape, axes, err)
			}
			indices(want.Shape(), func(idx []int) {
				if got, w := dst.At(idx...), want.At(idx...); !agree(got, w) {
					t.Fatalf("%s %v axes %v at %v: %v, want %v", c.name, shape, axes, idx, got, w)
				}
			})
		}
	})
}
