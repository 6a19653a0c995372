package loop

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/lapis-go/lapis/layout"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// walk returns the offsets tuples a plan visits, axis 0 and Tr expanded
// as a kernel would.
func walk(p *Plan) [][MaxOps]int {
	var out [][MaxOps]int
	if p.Rank == 0 {
		return append(out, p.Off)
	}
	var idx [layout.MaxRank]int
	off := p.Off
	for {
		ntr := 1
		if p.Tr >= 0 {
			ntr = p.N[p.Tr]
		}
		for j := range ntr {
			for i := range p.N[0] {
				var t [MaxOps]int
				for o := range p.Ops {
					t[o] = off[o] + i*p.S[o][0]
					if p.Tr >= 0 {
						t[o] += j * p.S[o][p.Tr]
					}
				}
				out = append(out, t)
			}
		}
		if !p.Next(&idx, &off) {
			if off != p.Off {
				panic("Next did not return to the start")
			}
			return out
		}
	}
}

// oracle returns the offset tuples of every index of the layouts'
// common shape.
func oracle(ls []*layout.Layout) [][MaxOps]int {
	shape := ls[0].Shape()
	n := 1
	for _, e := range shape {
		n *= e
	}
	var out [][MaxOps]int
	idx := make([]int, len(shape))
	for range n {
		var t [MaxOps]int
		for o, l := range ls {
			t[o] = l.OffsetOf(idx...)
		}
		out = append(out, t)
		for a := range idx {
			if idx[a]++; idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return out
}

func sorted(ts [][MaxOps]int) [][MaxOps]int {
	slices.SortFunc(ts, func(a, b [MaxOps]int) int {
		for o := range a {
			if a[o] != b[o] {
				return a[o] - b[o]
			}
		}
		return 0
	})
	return ts
}

// randomLayout returns a layout of the shape: a permuted, sliced,
// reversed or broadcast view of a larger buffer.
func randomLayout(r *rand.Rand, shape []int) layout.Layout {
	big := make([]int, len(shape))
	for k, e := range shape {
		big[k] = e
		if e > 0 && r.IntN(3) == 0 {
			big[k] = 2*e + 1
		}
	}
	l := must(layout.ColMajor(big...))
	if r.IntN(2) == 0 {
		l = must(layout.RowMajor(big...))
	}
	for k, e := range shape {
		if big[k] != e {
			step := 1 + r.IntN(2)
			if (e-1)*step >= big[k] {
				step = 1
			}
			l = must(l.Slice(k, 0, (e-1)*step+1, step))
		}
		if r.IntN(4) == 0 {
			l = must(l.Reverse(k))
		}
	}
	if r.IntN(4) == 0 && len(shape) > 0 { // broadcast one axis
		k := r.IntN(len(shape))
		sub := slices.Clone(shape)
		sub[k] = 1
		b := must(must(layout.ColMajor(sub...)).BroadcastTo(shape...))
		return b
	}
	return l
}

// TestPlanVisitsEveryIndex: for random shapes and layouts of one to four
// operands, the plan visits each index once with every operand's offset
// (the destination's offsets, when it repeats along reduced axes, as the
// layout gives them).
func TestPlanVisitsEveryIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for c := range 3000 {
		rank := r.IntN(6)
		shape := make([]int, rank)
		for k := range shape {
			shape[k] = 1 + r.IntN(4)
			if r.IntN(12) == 0 {
				shape[k] = 0
			}
		}
		ops := 1 + r.IntN(MaxOps)
		ls := make([]*layout.Layout, ops)
		for o := range ls {
			l := randomLayout(r, shape)
			ls[o] = &l
		}
		p, ok := Make(ls[0], ls[1:]...)
		want := oracle(ls)
		if !ok {
			if len(want) != 0 {
				t.Fatalf("case %d %v: not ok, want %d positions", c, shape, len(want))
			}
			continue
		}
		got := walk(&p)
		if p.Len() != len(got) || !slices.Equal(sorted(got), sorted(want)) {
			t.Fatalf("case %d shape %v layouts %v: plan %+v visits %v, want %v", c, shape, ls, p, got, want)
		}
	}
}

func TestPlanFuses(t *testing.T) {
	// A compact [4, 5, 6] copy is one contiguous run.
	l := must(layout.ColMajor(4, 5, 6))
	p, _ := Make(&l, &l)
	if p.Rank != 1 || p.N[0] != 120 || p.Tr != -1 {
		t.Errorf("compact plan: rank %d n %v tr %d", p.Rank, p.N[:p.Rank], p.Tr)
	}
	// The transpose of a batch keeps the batch axis outside and marks Tr.
	src := must(must(layout.ColMajor(5, 4, 3)).T())
	dst := must(layout.ColMajor(4, 5, 3))
	p, _ = Make(&dst, &src)
	if p.Rank != 3 || p.Tr != 1 || p.S[1][p.Tr] != 1 {
		t.Errorf("transpose plan: rank %d tr %d ss %v", p.Rank, p.Tr, p.S[1][:p.Rank])
	}
	// A + A^T: the destination orders the loops, A^T's axis is Tr.
	a := must(layout.ColMajor(6, 6))
	at := must(a.T())
	p, _ = Make(&a, &a, &at)
	if p.Rank != 2 || p.Tr != 1 || p.S[0][0] != 1 {
		t.Errorf("a + a^T: rank %d tr %d strides %v", p.Rank, p.Tr, p.S[:3])
	}
}

// TestPlanReductions: a reduced axis (destination stride 0) goes inside
// when the operand is contiguous along it and outside otherwise.
func TestPlanReductions(t *testing.T) {
	x := must(layout.ColMajor(100, 30))
	cols := must(must(layout.ColMajor(1, 30)).BroadcastTo(100, 30)) // sum along axis 0
	rows := must(must(layout.ColMajor(100)).BroadcastTo(100, 30))   // sum along axis 1
	p, _ := Make(&cols, &x)
	if p.S[0][0] != 0 || p.S[1][0] != 1 || p.Tr != -1 {
		t.Errorf("column sums: inner strides %d, %d, tr %d; want the reduced axis inside", p.S[0][0], p.S[1][0], p.Tr)
	}
	p, _ = Make(&rows, &x)
	if p.S[0][0] != 1 || p.S[1][0] != 1 || p.Tr != -1 {
		t.Errorf("row sums: inner strides %d, %d, tr %d; want the kept axis inside", p.S[0][0], p.S[1][0], p.Tr)
	}
	// The same over a row-major x: its contiguous axis goes inside.
	xr := must(layout.RowMajor(100, 30))
	p, _ = Make(&rows, &xr)
	if p.S[1][0] != 1 && p.S[1][p.Tr] != 1 {
		t.Errorf("row sums of a row-major x: strides %v tr %d", p.S[:2], p.Tr)
	}
	// A full reduction is not split.
	all := must(must(layout.ColMajor(1, 1)).BroadcastTo(1000, 1000))
	big := must(layout.ColMajor(1000, 1000))
	p, _ = Make(&all, &big)
	old := ParMinElems
	ParMinElems = 10
	defer func() { ParMinElems = old }()
	if w := Workers(&p); w != 1 {
		t.Errorf("full reduction: %d workers, want 1", w)
	}
}

// TestParallelParts: the parts of a split plan cover it once, each
// writing its own region, for plans split along axis 0, Tr and an outer
// axis.
func TestParallelParts(t *testing.T) {
	old := ParMinElems
	ParMinElems = 7
	defer func() { ParMinElems = old }()
	prev := SetThreads(3)
	defer SetThreads(prev)
	a := must(layout.ColMajor(37, 23))
	at := must(must(layout.ColMajor(23, 37)).T())
	b := must(layout.ColMajor(9, 8, 5))
	br := must(layout.RowMajor(9, 8, 5))
	cases := []struct {
		name string
		ls   []*layout.Layout
	}{
		{"contiguous", []*layout.Layout{&a, &a}},
		{"transpose", []*layout.Layout{&a, &at}},
		{"permute", []*layout.Layout{&b, &br, &b}},
	}
	for _, c := range cases {
		p, _ := Make(c.ls[0], c.ls[1:]...)
		if w := Workers(&p); w != min(3, runtime.GOMAXPROCS(0)) && w != 1 {
			t.Fatalf("%s: %d workers", c.name, w)
		}
		const w = 3
		var mu sync.Mutex
		var got [][MaxOps]int
		Parallel(&p, w, 4, func(q *Plan) {
			v := walk(q)
			mu.Lock()
			got = append(got, v...)
			mu.Unlock()
		})
		if want := oracle(c.ls); !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("%s: parts visit %d positions, want %d once each", c.name, len(got), len(want))
		}
	}
}

func ExampleMake() {
	a := must(layout.ColMajor(3, 4))
	at := must(must(layout.ColMajor(4, 3)).T())
	p, _ := Make(&a, &a, &at)
	fmt.Println(p.Rank, p.N[:p.Rank], p.Tr)
	// Output: 2 [3 4] 1
}
