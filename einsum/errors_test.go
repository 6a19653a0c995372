package einsum

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestParseErrors: a bad spec is lapis.ErrInvalid, and the message names
// the offending character and its position.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		spec    string
		mention []string // what the message must contain
	}{
		{"ij,j$->i", []string{"'$'", "position 4"}},
		{"ij,jk->i1", []string{"'1'", "position 8"}},
		{"i j,jk->ik", nil}, // spaces are ignored: valid
		{"ij,j.k->ik", []string{"'.'", "position 4"}},
		{"ij..,jk->ik", []string{"'.'", "position 2"}},
		{"i...j...,jk", []string{"second \"...\"", "position 5"}},
		{"ij,jk->ik->i", []string{"second \"->\"", "position 9"}},
		{"ij,jk-ik", []string{"'-'", "position 5"}},
		{"ij,jk->k_", []string{"'_'", "position 8"}},
		{"ij,jk->ié", []string{"position 8"}},
	} {
		_, err := Parse(c.spec)
		if c.mention == nil {
			if err != nil {
				t.Errorf("Parse(%q): %v", c.spec, err)
			}
			continue
		}
		if !errors.Is(err, lapis.ErrInvalid) {
			t.Errorf("Parse(%q): %v, want ErrInvalid", c.spec, err)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("Parse(%q): %q does not say %s", c.spec, err, m)
			}
		}
	}
}

// TestSpecErrors: results that name a missing or repeated index, "..." in
// the result only, no operand, and Labels' negative labels are
// lapis.ErrInvalid naming what is wrong.
func TestSpecErrors(t *testing.T) {
	for _, c := range []struct {
		spec    string
		mention string
	}{
		{"ij,jk->ix", "'x'"},
		{"ij,jk->ii", "'i' occurs twice"},
		{"ij,jk->...", "\"...\""},
		{"->i", "'i'"},
	} {
		_, err := Parse(c.spec)
		if !errors.Is(err, lapis.ErrInvalid) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("Parse(%q): %v, want ErrInvalid mentioning %s", c.spec, err, c.mention)
		}
	}
	for _, c := range []struct {
		out     []int
		in      [][]int
		mention string
	}{
		{[]int{0}, [][]int{{0, -1}}, "operand 0, axis 1"},
		{[]int{-2}, [][]int{{0}}, "label -2"},
		{[]int{0, 0}, [][]int{{0}}, "label 0 occurs twice"},
		{[]int{5}, [][]int{{0}}, "label 5"},
		{[]int{}, nil, "no operand"},
	} {
		_, err := Labels(c.out, c.in...)
		if !errors.Is(err, lapis.ErrInvalid) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("Labels(%v, %v): %v, want ErrInvalid mentioning %s", c.out, c.in, err, c.mention)
		}
	}
}

// TestShapeErrors: operands that do not match the spec are
// layout.ErrShape naming the index and both extents (or the ranks), and
// dst is not written.
func TestShapeErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	for _, c := range []struct {
		spec    string
		shapes  [][]int
		dst     []int
		want    error
		mention []string
		dstOnly bool
	}{
		{"ij,jk->ik", [][]int{{3, 4}, {5, 6}}, []int{3, 6}, layout.ErrShape, []string{"'j'", "4 in operand 0", "5 in operand 1"}, false},
		{"ijk,jkl->il", [][]int{{3, 4, 5}, {4, 6, 2}}, []int{3, 2}, layout.ErrShape, []string{"'k'", "5 in operand 0", "6 in operand 1"}, false},
		{"ij,jk,kl->il", [][]int{{3, 4}, {4, 5}, {2, 2}}, []int{3, 2}, layout.ErrShape, []string{"'k'", "5 in operand 1", "2 in operand 2"}, false},
		{"ii->i", [][]int{{3, 4}}, []int{3}, layout.ErrShape, []string{"'i'", "3", "4"}, false},
		{"ij,jk->ik", [][]int{{3, 4, 1}, {4, 5}}, []int{3, 5}, layout.ErrShape, []string{"rank 3"}, false},
		{"...ij,...jk->...ik", [][]int{{2, 3, 4}, {5, 4, 3}}, []int{2, 3, 3}, layout.ErrShape, []string{"axis 0 of \"...\"", "2", "5"}, false},
		{"ij,jk->ik", [][]int{{3, 4}, {4, 5}}, []int{5, 3}, layout.ErrShape, []string{"[5 3]", "[3 5]"}, true},
		{"ij,jk->ik", [][]int{{3, 4}}, []int{3, 5}, lapis.ErrInvalid, []string{"2 operands, not 1"}, false},
	} {
		ops := make([]views.View[float64], len(c.shapes))
		for k, sh := range c.shapes {
			ops[k] = makeView[float64](rng, colMajor, sh...)
		}
		dst := makeDst(colMajor, 7.0, c.dst...)
		err := ContractTo(dst.v, c.spec, ops...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s %v: %v, want %v", c.spec, c.shapes, err, c.want)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s %v: %q does not say %s", c.spec, c.shapes, err, m)
			}
		}
		if bad := dst.untouched(); bad != "" {
			t.Errorf("%s %v: %s", c.spec, c.shapes, bad)
		}
		// Contract, which makes its own dst, fails the same way unless
		// only dst was wrong.
		if _, err := Contract(c.spec, ops...); !c.dstOnly && !errors.Is(err, c.want) {
			t.Errorf("Contract %s %v: %v, want %v", c.spec, c.shapes, err, c.want)
		}
	}
}

// TestOverlapErrors: a destination sharing memory with an operand, or
// reaching an element twice (broadcast), is layout.ErrOverlap, and
// nothing is written (the operand it shares memory with is unchanged).
func TestOverlapErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	a := makeView[float64](rng, colMajor, 4, 4)
	b := makeView[float64](rng, colMajor, 4, 4)
	aBefore := append([]float64(nil), a.Data()...)
	aT := a.T()
	firstCols := mustView(a.Slice(1, 0, 2, 1)) // columns 0-1 of a
	midCols := mustView(a.Slice(1, 1, 3, 1))   // columns 1-2 of a: column 1 is in both
	bcast := makeDst(broadcast, 7.0, 4, 4)     // stride 0 on axis 0
	for _, c := range []struct {
		name string
		dst  views.View[float64]
		spec string
		ops  []views.View[float64]
	}{
		{"dst is operand 0", a, "ij,jk->ik", []views.View[float64]{a, b}},
		{"dst is operand 1", a, "ij,jk->ik", []views.View[float64]{b, a}},
		{"dst is operand 0 transposed", aT, "ij,jk->ik", []views.View[float64]{a, b}},
		{"dst is part of an operand", firstCols, "ij,jk->ik", []views.View[float64]{b, midCols}},
		{"dst of an element-wise product", a, "ij,ij->ij", []views.View[float64]{a, b}},
		{"dst of a sum", mustView(a.Index(1, 0)), "ij->i", []views.View[float64]{a}},
		{"dst of an assignment", aT, "ij->ij", []views.View[float64]{a}},
		{"dst broadcast", bcast.v, "ij,jk->ik", []views.View[float64]{a, b}},
		{"dst broadcast, element-wise", bcast.v, "ij,ij->ij", []views.View[float64]{a, b}},
	} {
		err := ContractTo(c.dst, c.spec, c.ops...)
		if !errors.Is(err, layout.ErrOverlap) {
			t.Errorf("%s: %v, want ErrOverlap", c.name, err)
		}
		for i, x := range a.Data() {
			if x != aBefore[i] {
				t.Fatalf("%s: element %d of the operand changed from %v to %v", c.name, i, aBefore[i], x)
			}
		}
		if bad := bcast.untouched(); bad != "" {
			t.Errorf("%s: %s", c.name, bad)
		}
	}
	// In strict mode too the overlap is the error (layout.ErrOverlap), not
	// the copy a plan would make for such a dst or operand. (The spec has
	// a space so that no plan cached above is used: with one, Execute's
	// overlap check comes first.)
	prev := lapis.SetStrict(true)
	for _, c := range []struct {
		name string
		dst  views.View[float64]
		ops  []views.View[float64]
	}{
		{"strict, dst broadcast", bcast.v, []views.View[float64]{a, b}},
		{"strict, dst is operand 0 reversed", a, []views.View[float64]{mustView(a.Reverse(0)), b}},
		{"strict, dst is operand 0", a, []views.View[float64]{a, b}},
	} {
		if err := ContractTo(c.dst, "ij,jk ->ik", c.ops...); !errors.Is(err, layout.ErrOverlap) {
			t.Errorf("%s: %v, want ErrOverlap", c.name, err)
		}
	}
	lapis.SetStrict(prev)
	// Operands may share memory with each other: a*a^T.
	shape, want := oracle(t, "ij,kj->ik", a, a)
	dst := makeDst(colMajor, nanOf[float64](), shape...)
	if err := ContractTo(dst.v, "ij,kj->ik", a, a); err != nil {
		t.Fatalf("a a^T: %v", err)
	}
	if bad := mismatch(dst.v, shape, want, 64); bad != "" {
		t.Errorf("a a^T: %s", bad)
	}
}

// TestExecuteErrors: Execute refuses operands, a destination or a
// workspace other than the plan's (layout.ErrShape), a dst overlapping an
// operand (layout.ErrOverlap), a released tensor (lapis.ErrReleased); the
// destination is not written. NewPlan refuses a Path out of range and a
// bad Order (lapis.ErrInvalid).
func TestExecuteErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	s, _ := Parse("ij,jk,kl->il")
	ops := []views.View[float64]{
		makeView[float64](rng, colMajor, 3, 4),
		makeView[float64](rng, colMajor, 4, 5),
		makeView[float64](rng, colMajor, 5, 2),
	}
	dst := makeDst(colMajor, 7.0, 3, 2)
	p, err := NewPlan(s, dst.v, ops, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Workspace() == 0 {
		t.Fatalf("a three-operand chain has an intermediate; Workspace() = 0\n%v", p)
	}
	other := makeView[float64](rng, rowMajor, 3, 4)
	released := fill[float64](rng, 4, 5)
	relView := released.View()
	released.Release()
	for _, c := range []struct {
		name string
		ops  []views.View[float64]
		dst  views.View[float64]
		ws   []float64
		want error
	}{
		{"operand laid out otherwise", []views.View[float64]{other, ops[1], ops[2]}, dst.v, nil, layout.ErrShape},
		{"dst laid out otherwise", ops, makeDst(rowMajor, 7.0, 3, 2).v, nil, layout.ErrShape},
		{"too few operands", ops[:2], dst.v, nil, layout.ErrShape},
		{"workspace too short", ops, dst.v, make([]float64, p.Workspace()-1), layout.ErrShape},
		{"released operand", []views.View[float64]{ops[0], relView, ops[2]}, dst.v, nil, lapis.ErrReleased},
	} {
		err := p.Execute(1, c.ops, 0, c.dst, c.ws)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if bad := dst.untouched(); bad != "" {
			t.Errorf("%s: %s", c.name, bad)
		}
	}
	// A plan made for a dst laid out as an operand, run on that operand.
	sq, _ := Parse("ij,jk->ik")
	a := makeView[float64](rng, colMajor, 3, 3)
	b := makeView[float64](rng, colMajor, 3, 3)
	q, err := NewPlan(sq, a, []views.View[float64]{a, b}, Options{})
	if err != nil {
		t.Fatalf("NewPlan (no data read): %v", err)
	}
	before := append([]float64(nil), a.Data()...)
	if err := q.Execute(1, []views.View[float64]{a, b}, 0, a, nil); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Execute with dst = operand: %v, want ErrOverlap", err)
	}
	for i, x := range a.Data() {
		if x != before[i] {
			t.Fatalf("Execute with dst = operand wrote element %d", i)
		}
	}
	// Options NewPlan refuses.
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"path out of range", Options{Path: Path(7)}},
		{"order too short", Options{Order: [][2]int{{0, 1}}}},
		{"order repeats a position", Options{Order: [][2]int{{0, 0}, {0, 1}}}},
		{"order past the tensors left", Options{Order: [][2]int{{0, 1}, {0, 2}}}},
		{"order negative", Options{Order: [][2]int{{-1, 1}, {0, 1}}}},
	} {
		if _, err := NewPlan(s, dst.v, ops, c.o); !errors.Is(err, lapis.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", c.name, err)
		}
	}
	if bad := dst.untouched(); bad != "" {
		t.Errorf("%s", bad)
	}
}

// TestZeroView: the zero View (views.View[T]{}, no view of anything) as an
// operand or as dst is an error matching layout.ErrBounds, as every
// function of the views package gives for it; not a panic.
func TestZeroView(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 18))
	b := makeView[float64](rng, colMajor, 3, 4)
	dst := makeDst(colMajor, 7.0, 3, 4)
	var zero views.View[float64]
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"operand (ContractTo)", func() error { return ContractTo(dst.v, ",ij->ij", zero, b) }},
		{"dst (ContractTo)", func() error { return ContractTo(zero, "ij->", b) }},
		{"operand (Contract)", func() error { _, err := Contract("->", zero); return err }},
	} {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			err = c.call()
		}()
		if !errors.Is(err, layout.ErrBounds) {
			t.Errorf("zero View as %s: %v, want an error matching layout.ErrBounds", c.name, err)
		}
		if bad := dst.untouched(); bad != "" {
			t.Errorf("zero View as %s: %s", c.name, bad)
		}
	}
}

// TestWorkspaceOverlap: a workspace that shares memory with dst or an
// operand is refused (layout.ErrOverlap) before anything is written.
func TestWorkspaceOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	buf := make([]float64, 200)
	a := must2(views.FromSlice(buf, must2(layout.New([]int{4, 5}, []int{1, 4}, 0))))
	for i := range 20 {
		buf[i] = rng.Float64()
	}
	dbuf := make([]float64, 100)
	dst := must2(views.FromSlice(dbuf, must2(layout.ColMajor(4, 6))))
	// Strided b: a copy, so the plan has a workspace.
	bs := must2(fill[float64](rng, 10, 6).View().Slice(0, 0, 10, 2))
	p := must2(NewPlan(must2(Parse("ij,jk->ik")), dst, []views.View[float64]{a, bs}, Options{}))
	if p.Workspace() == 0 {
		t.Fatalf("no workspace: %v", p)
	}
	before := slices.Clone(dst.Data())
	for _, c := range []struct {
		name string
		ws   []float64
	}{
		{"ws over operand 0", buf[10 : 10+p.Workspace()]},
		{"ws over dst", dbuf[:p.Workspace()]},
	} {
		err := p.Execute(1, []views.View[float64]{a, bs}, 0, dst, c.ws)
		if !errors.Is(err, layout.ErrOverlap) {
			t.Errorf("%s: %v, want layout.ErrOverlap", c.name, err)
		}
		if !slices.Equal(before, dst.Data()) {
			t.Errorf("%s: dst written on error", c.name)
		}
	}
	if err := p.Execute(1, []views.View[float64]{a, bs}, 0, dst, buf[20:20+p.Workspace()]); err != nil {
		t.Errorf("ws beside the operand in one buffer: %v", err)
	}
}

// TestHugeBroadcast: a broadcast operand whose copy would not fit in
// memory gives an error matching lapis.ErrTooLarge (the workspace), not an
// out-of-memory crash, and so does a result that would not.
func TestHugeBroadcast(t *testing.T) {
	one := must2(views.Full(1.0, 1, 1))
	huge := must2(one.View().BroadcastTo(1<<22, 1<<22)) // 2^44 elements, stride 0
	y := must2(views.Full(2.0, 1<<22, 1))
	_, err := Contract("ij,jk->ik", huge, y.View())
	if !errors.Is(err, lapis.ErrTooLarge) {
		t.Fatalf("Contract over a 2^44-element broadcast: %v, want lapis.ErrTooLarge", err)
	}
	row := must2(views.Full(1.0, 1, 8))
	tall := must2(row.View().BroadcastTo(1<<40, 8))
	_, err = Contract("ij,j->i", tall, must2(views.Full(2.0, 8)).View())
	if !errors.Is(err, lapis.ErrTooLarge) {
		t.Fatalf("a result of 2^40 elements: %v, want lapis.ErrTooLarge", err)
	}
}
