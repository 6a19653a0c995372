package layout

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestChainsAgainstOracle drives the same checker as FuzzChain with many
// pseudo-random inputs, so plain `go test` covers it without fuzzing.
func TestChainsAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	buf := make([]byte, 64)
	for i := 0; i < n; i++ {
		for j := range buf {
			buf[j] = byte(rng.Uint32())
		}
		runChain(t, buf)
	}
}

func FuzzChain(f *testing.F) {
	f.Add([]byte{2, 3, 1, 2, 2, 0, 0})
	f.Add([]byte{3, 2, 9, 2, 11, 3, 13, 1, 1, 6, 2, 1, 3})
	f.Fuzz(func(t *testing.T, data []byte) { runChain(t, data) })
}

// TestWorkedExamples are the [2,3] and [2,2,3] examples of the tenferro
// study (shared/seeds/000_*.txt), at the layout level.
func TestWorkedExamples(t *testing.T) {
	a := must(ColMajor(2, 3))
	tests := []struct {
		name    string
		l       Layout
		shape   []int
		strides []int
		offset  int
		colMaj  bool
	}{
		{"A", a, []int{2, 3}, []int{1, 2}, 0, true},
		{"transpose", must(a.T()), []int{3, 2}, []int{2, 1}, 0, false},
		{"reverse columns", must(a.Reverse(1)), []int{2, 3}, []int{1, -2}, 4, false},
		{"columns 1..", must(a.Slice(1, 1, 3, 1)), []int{2, 2}, []int{1, 2}, 2, true},
		{"row 1", must(a.Slice(0, 1, 2, 1)), []int{1, 3}, []int{1, 2}, 1, false},
		{"batch 1 of [2,2,3]", must(must(ColMajor(2, 2, 3)).Index(2, 1)), []int{2, 2}, []int{1, 2}, 4, true},
		{"leading-axis slice of [2,2,3]", must(must(ColMajor(2, 2, 3)).Slice(0, 1, 2, 1)), []int{1, 2, 3}, []int{1, 2, 4}, 1, false},
		// The study's library refuses this reshape; strides express it.
		{"leading-axis slice reshaped", must(must(must(ColMajor(2, 2, 3)).Slice(0, 1, 2, 1)).Reshape(6)), []int{6}, []int{2}, 1, false},
	}
	for _, tc := range tests {
		if !slices.Equal(tc.l.Shape(), tc.shape) || !slices.Equal(tc.l.Strides(), tc.strides) || tc.l.Offset() != tc.offset || tc.l.IsColMajor() != tc.colMaj {
			t.Errorf("%s: got %v colmajor %v, want shape %v strides %v offset %d colmajor %v", tc.name, tc.l, tc.l.IsColMajor(), tc.shape, tc.strides, tc.offset, tc.colMaj)
		}
	}
	if _, err := must(a.T()).Reshape(6); !errors.Is(err, ErrReshape) {
		t.Errorf("flattening a transposed view: err = %v, want ErrReshape", err)
	}
}

func must(l Layout, err error) Layout {
	if err != nil {
		panic(err)
	}
	return l
}

func TestClass(t *testing.T) {
	tests := []struct {
		name  string
		l     Layout
		class Class
		m     Matrix
	}{
		{"packed", must(ColMajor(3, 4)), ColMajorPacked, Matrix{3, 4, 3, false}},
		{"strided", must(must(ColMajor(5, 4)).Slice(0, 1, 4, 1)), ColMajorStrided, Matrix{3, 4, 5, false}},
		{"row packed", must(RowMajor(3, 4)), RowMajorPacked, Matrix{3, 4, 4, true}},
		{"row strided", must(must(RowMajor(3, 6)).Slice(1, 0, 4, 1)), RowMajorStrided, Matrix{3, 4, 6, true}},
		{"transpose of col", must(must(ColMajor(3, 4)).T()), RowMajorPacked, Matrix{4, 3, 3, true}},
		{"every other row", must(must(ColMajor(6, 4)).Slice(0, 0, 6, 2)), General, Matrix{}},
		{"reversed", must(must(ColMajor(3, 4)).Reverse(1)), General, Matrix{}},
		{"broadcast rows", must(must(ColMajor(1, 4)).BroadcastTo(3, 4)), General, Matrix{}},
		{"broadcast cols", must(must(ColMajor(3)).BroadcastTo(3, 4)), General, Matrix{}},
		{"row of col-major", must(must(ColMajor(5, 4)).Slice(0, 2, 3, 1)), ColMajorStrided, Matrix{1, 4, 5, false}},
		{"column of row-major", must(must(RowMajor(5, 4)).Slice(1, 2, 3, 1)), RowMajorStrided, Matrix{5, 1, 4, true}},
		{"vector", must(ColMajor(7)), ColMajorPacked, Matrix{7, 1, 7, false}},
		{"scalar", must(ColMajor()), ColMajorPacked, Matrix{1, 1, 1, false}},
		{"empty", must(New([]int{0, 3}, []int{5, 7}, 0)), ColMajorPacked, Matrix{0, 3, 1, false}},
		{"batch", must(ColMajor(2, 3, 4)), ColMajorPacked, Matrix{2, 3, 2, false}},
		{"1x1 odd strides", must(New([]int{1, 1}, []int{-3, 0}, 9)), ColMajorPacked, Matrix{1, 1, 1, false}},
	}
	for _, tc := range tests {
		m, ok := tc.l.Matrix()
		if tc.l.Class() != tc.class || m != tc.m || ok != (tc.class != General) {
			t.Errorf("%s (%v): Class %v Matrix %+v %v, want %v %+v", tc.name, tc.l, tc.l.Class(), m, ok, tc.class, tc.m)
		}
	}
	if General.String() != "General" || Class(99).String() != "Class(?)" {
		t.Errorf("Class.String")
	}
}

// TestNoAllocs proves that view transforms of rank <= MaxInline allocate
// nothing.
func TestNoAllocs(t *testing.T) {
	l := must(ColMajor(2, 3, 4, 5, 1, 2, 3, 2))
	var sink Layout
	var ok bool
	ops := map[string]func(){
		"Permute":     func() { sink, _ = l.Permute(7, 6, 5, 4, 3, 2, 1, 0) },
		"T":           func() { sink, _ = l.T() },
		"Transpose":   func() { sink, _ = l.Transpose(2, 5) },
		"Slice":       func() { sink, _ = l.Slice(3, 4, 0, -2) },
		"Reverse":     func() { sink, _ = l.Reverse(2) },
		"Index":       func() { sink, _ = l.Index(7, 1) },
		"Reshape":     func() { sink, _ = l.Reshape(6, 20, 12) },
		"BroadcastTo": func() { sink, _ = must(ColMajor(2, 1, 4)).BroadcastTo(2, 3, 4, 5, 6, 7, 8, 9) },
		"Matrix":      func() { _, ok = l.Matrix() },
		"HasOverlap":  func() { ok = l.HasOverlap() },
		"Span":        func() { _, _, ok = l.Span() },
		"New":         func() { sink, _ = New([]int{2, 3}, []int{3, 1}, 0) },
		"SameShape":   func() { ok = l.SameShape(l) },
		"SameStrides": func() { ok = l.SameStrides(l) },
	}
	for name, f := range ops {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
	_, _ = sink, ok
}

// TestSameShapeStrides: SameShape and SameStrides compare extents and
// strides only (not the offset, nor each other), ranks included, inline
// and external alike.
func TestSameShapeStrides(t *testing.T) {
	a := must(ColMajor(2, 3))
	high := must(ColMajor(make32(2)...))
	for _, c := range []struct {
		name          string
		l, m          Layout
		shape, stride bool
	}{
		{"itself", a, a, true, true},
		{"sliced (offset moved)", must(a.Slice(1, 1, 3, 1)), must(a.Slice(1, 0, 2, 1)), true, true},
		{"transposed square", must(ColMajor(3, 3)), must(must(ColMajor(3, 3)).T()), true, false},
		{"other rank", a, must(ColMajor(2, 3, 1)), false, false},
		{"row-major", a, must(RowMajor(2, 3)), true, false},
		{"rank 32", high, must(ColMajor(make32(2)...)), true, true},
		{"rank 32 reversed", high, must(high.Reverse(31)), true, false},
	} {
		if got := c.l.SameShape(c.m); got != c.shape {
			t.Errorf("%s: SameShape %v, want %v", c.name, got, c.shape)
		}
		if got := c.l.SameStrides(c.m); got != c.stride {
			t.Errorf("%s: SameStrides %v, want %v", c.name, got, c.stride)
		}
	}
}

// TestRun checks Run against the definition: the offsets a layout
// reaches, in column-major or row-major index order, are offset, offset+1,
// and so on.
func TestRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 4000 {
		rank := rng.IntN(5)
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = 1 + rng.IntN(3)
		}
		l := must(ColMajor(shape...))
		if rng.IntN(2) == 0 {
			l = must(RowMajor(shape...))
		}
		for range rng.IntN(3) {
			if rank == 0 {
				break
			}
			a := rng.IntN(rank)
			switch rng.IntN(3) {
			case 0:
				l = must(l.Transpose(a, rng.IntN(rank)))
			case 1:
				l = must(l.Reverse(a))
			default:
				l = must(l.Slice(a, 0, l.Dim(a), 2))
			}
		}
		n, off, ok := l.Run()
		want, wantOK := runOracle(l)
		if ok != wantOK || ok && (n != l.Len() || off != want) {
			t.Fatalf("%s: Run = %d, %d, %v; want %d, %d, %v", l.String(), n, off, ok, l.Len(), want, wantOK)
		}
	}
	r32 := must(ColMajor(make32(1)...))
	if _, _, ok := r32.Run(); ok {
		t.Error("rank 32: Run reported a run beyond MaxInline")
	}
}

// runOracle reports whether l's offsets in column-major or in row-major
// index order count up by one, and the first of them.
func runOracle(l Layout) (first int, ok bool) {
	shape := l.Shape()
	for _, rowMajor := range []bool{false, true} {
		idx := make([]int, len(shape))
		want, good := l.Offset(), true
		for k := range l.Len() {
			r := k
			for i := range shape {
				j := i
				if rowMajor {
					j = len(shape) - 1 - i
				}
				idx[j], r = r%shape[j], r/shape[j]
			}
			if l.OffsetOf(idx...) != want+k {
				good = false
				break
			}
		}
		if good {
			return l.Offset(), true
		}
	}
	return 0, false
}

// make32 returns 32 extents of d.
func make32(d int) []int {
	s := make([]int, 32)
	for i := range s {
		s[i] = d
	}
	return s
}

// TestHighRank checks rank 32 (beyond MaxInline) against the oracle and
// that the inline and external storage do not alias between values.
func TestHighRank(t *testing.T) {
	shape := make([]int, 32)
	strides := make([]int, 32)
	for k := range shape {
		shape[k] = 1
		strides[k] = k + 1
	}
	shape[3], shape[17], shape[30] = 2, 3, 2
	strides[17] = -5
	l := must(New(shape, strides, 20))
	r := refNew(shape, strides, 20)
	check(t, "rank 32", l, r)
	p := make([]int, 32)
	for k := range p {
		p[k] = 31 - k
	}
	lp := must(l.Permute(p...))
	check(t, "rank 32 permuted", lp, r.permute(p))
	check(t, "rank 32 original after permute", l, r)
	ls := must(l.Slice(17, 2, -1, -2))
	check(t, "rank 32 sliced", ls, r.slice(17, 2, -1, -2))
	check(t, "rank 32 original after slice", l, r)
	li := must(l.Index(17, 1))
	check(t, "rank 32 indexed", li, r.index(17, 1))
	if _, err := New(make([]int, MaxRank+1), make([]int, MaxRank+1), 0); !errors.Is(err, ErrShape) {
		t.Errorf("rank MaxRank+1: %v", err)
	}
}

// TestErrors produces every error of the package and checks it matches its
// sentinel, names its operation and never panics.
func TestErrors(t *testing.T) {
	a := must(ColMajor(2, 3))
	big := math.MaxInt/2 + 1
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"New length mismatch", err2(New([]int{2}, []int{1, 2}, 0)), ErrShape},
		{"New negative extent", err2(New([]int{-1}, []int{1}, 0)), ErrShape},
		{"New count overflow", err2(New([]int{big, 4}, []int{1, 1}, 0)), ErrOverflow},
		{"New span overflow", err2(New([]int{3}, []int{big}, 0)), ErrOverflow},
		{"New offset overflow", err2(New([]int{2}, []int{1}, math.MaxInt)), ErrOverflow},
		{"New negative span overflow", err2(New([]int{3}, []int{-big}, -10)), ErrOverflow},
		{"ColMajor overflow", err2(ColMajor(1<<40, 1<<40)), ErrOverflow},
		{"RowMajor negative", err2(RowMajor(2, -3)), ErrShape},
		{"ColMajor rank", err2(ColMajor(make([]int, MaxRank+1)...)), ErrShape},
		{"Permute short", err2(a.Permute(0)), ErrAxis},
		{"Permute repeat", err2(a.Permute(1, 1)), ErrAxis},
		{"Permute range", err2(a.Permute(0, 2)), ErrAxis},
		{"Transpose range", err2(a.Transpose(0, 2)), ErrAxis},
		{"T rank 1", err2(must(ColMajor(3)).T()), ErrAxis},
		{"Slice axis", err2(a.Slice(2, 0, 1, 1)), ErrAxis},
		{"Slice step 0", err2(a.Slice(0, 0, 1, 0)), ErrShape},
		{"Slice stop past", err2(a.Slice(1, 0, 4, 1)), ErrBounds},
		{"Slice start negative", err2(a.Slice(1, -1, 2, 1)), ErrBounds},
		{"Slice reverse start past", err2(a.Slice(1, 3, -1, -1)), ErrBounds},
		{"Slice reverse stop below", err2(a.Slice(1, 2, -2, -1)), ErrBounds},
		{"Reverse axis", err2(a.Reverse(-1)), ErrAxis},
		{"Index bounds", err2(a.Index(1, 3)), ErrBounds},
		{"Index axis", err2(a.Index(5, 0)), ErrAxis},
		{"Reshape count", err2(a.Reshape(4)), ErrShape},
		{"Reshape negative", err2(a.Reshape(-6)), ErrShape},
		{"Reshape needs copy", err2(must(a.T()).Reshape(6)), ErrReshape},
		{"Reshape rank", err2(a.Reshape(make([]int, MaxRank+1)...)), ErrShape},
		{"BroadcastTo extent", err2(a.BroadcastTo(3, 3)), ErrShape},
		{"BroadcastTo rank", err2(a.BroadcastTo(2)), ErrShape},
		{"BroadcastTo negative", err2(a.BroadcastTo(2, 3, -1)), ErrShape},
		{"BroadcastTo overflow", err2(a.BroadcastTo(2, 3, big, 4)), ErrOverflow},
	}
	for _, tc := range tests {
		var le *Error
		if !errors.Is(tc.err, tc.want) || !errors.As(tc.err, &le) || le.Op == "" || le.Arg == "" {
			t.Errorf("%s: err = %v, want %v with op and argument", tc.name, tc.err, tc.want)
		}
	}
}

func err2(_ Layout, err error) error { return err }

func TestOffsetOfPanics(t *testing.T) {
	a := must(ColMajor(2, 3))
	for _, idx := range [][]int{{2, 0}, {0, -1}, {0}, {0, 0, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("OffsetOf%v did not panic", idx)
				}
			}()
			a.OffsetOf(idx...)
		}()
	}
}

func TestHasOverlap(t *testing.T) {
	tests := []struct {
		l    Layout
		want bool
	}{
		{must(ColMajor(3, 4)), false},
		{must(must(ColMajor(3, 4)).T()), false},
		{must(New([]int{3, 4}, []int{1, 2}, 0)), true},   // (2,0) and (0,1) share
		{must(New([]int{3, 4}, []int{4, 1}, 0)), false},  // row-major with a gap
		{must(New([]int{3, 4}, []int{-4, 1}, 8)), false}, // negative strides
		{must(must(ColMajor(3)).BroadcastTo(3, 2)), true},
		{must(New([]int{1, 5}, []int{0, 0}, 0)), true},
		{must(New([]int{1, 1}, []int{0, 0}, 0)), false},
		{must(New([]int{0, 5}, []int{0, 0}, 0)), false},
	}
	for _, tc := range tests {
		if got := tc.l.HasOverlap(); got != tc.want {
			t.Errorf("%v: HasOverlap = %v, want %v", tc.l, got, tc.want)
		}
	}
}

// Arithmetic at the edges of int: Slice's count, HasOverlap's reach and
// Reshape's contiguity test do not overflow.
func TestOverflowEdges(t *testing.T) {
	a := must(ColMajor(2, 3))
	if l := must(a.Slice(0, 0, 2, math.MaxInt)); l.Dim(0) != 1 || l.Len() != 3 {
		t.Errorf("Slice with step MaxInt: %v", l)
	}
	if l := must(must(ColMajor(5)).Slice(0, 0, 5, math.MaxInt)); l.Dim(0) != 1 {
		t.Errorf("Slice 0:5:MaxInt: %v", l)
	}
	if l := must(must(ColMajor(5)).Slice(0, 4, -1, math.MinInt)); l.Dim(0) != 1 || l.Offset() != 4 {
		t.Errorf("Slice 4:-1:MinInt: %v", l)
	}
	big := 1<<61 + 1
	if l := must(New([]int{big, 2}, []int{-4, 8}, 0)); !l.HasOverlap() {
		t.Errorf("HasOverlap missed (2,1) ~ (0,0) on %v", l)
	}
	s := 1<<62 + 8
	if l, err := New([]int{2, 2}, []int{s, 2 * s}, 0); err == nil {
		if _, err := l.Reshape(4); err == nil {
			t.Errorf("Reshape of %v succeeded through an overflowing stride", l)
		}
	}
}
