package operand

import (
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// span is the oracle: the lowest and one past the highest address of v's
// elements, read element by element.
func span(v views.View[float64]) Span {
	shape := v.Shape()
	n := 1
	for _, e := range shape {
		n *= e
	}
	if n == 0 {
		return Span{}
	}
	l, data := v.Layout(), v.Data()
	s := Span{Lo: ^uintptr(0)}
	idx := make([]int, len(shape))
	for range n {
		p := uintptr(unsafe.Pointer(&data[l.OffsetOf(idx...)]))
		s.Lo, s.Hi = min(s.Lo, p), max(s.Hi, p+8)
		for a := range idx {
			if idx[a]++; idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return s
}

// matrices returns rank-2 views of every layout class over data.
func matrices(t *testing.T, data []float64) map[string]views.View[float64] {
	t.Helper()
	must := func(v views.View[float64], err error) views.View[float64] {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	at := func(shape, strides []int, off int) views.View[float64] {
		l, err := layout.New(shape, strides, off)
		if err != nil {
			t.Fatal(err)
		}
		return must(views.FromSlice(data, l))
	}
	cm := at([]int{5, 4}, []int{1, 6}, 2) // column-major, ld 6
	return map[string]views.View[float64]{
		"column-major": cm,
		"row-major":    cm.T(),
		"conjugated":   cm.Conj(),
		"slice":        must(cm.Slice(0, 1, 4, 1)),
		"reversed":     must(cm.Reverse(1)),
		"stepped":      must(cm.Slice(0, 0, 5, 2)),
		"general":      at([]int{3, 3}, []int{2, 7}, 1),
		"broadcast":    at([]int{3, 4}, []int{0, 2}, 0),
		"empty":        at([]int{0, 4}, []int{1, 1}, 0),
		"1x1":          at([]int{1, 1}, []int{1, 1}, 3),
	}
}

func TestMatrixRead(t *testing.T) {
	data := make([]float64, 40)
	for name, v := range matrices(t, data) {
		var d Matrix[float64]
		if !d.Read(&v) {
			t.Errorf("%s: Read refused a live rank-2 view", name)
			continue
		}
		if want := span(v); d.Span != want {
			t.Errorf("%s: Span %+v, want %+v", name, d.Span, want)
		}
		if got, want := d.Span, ViewSpan(v); got != want {
			t.Errorf("%s: Read's span %+v, ViewSpan's %+v", name, got, want)
		}
		if d.Rows != v.Shape()[0] || d.Cols != v.Shape()[1] || d.Conj != v.IsConj() {
			t.Errorf("%s: %d x %d conj %v, want %v conj %v", name, d.Rows, d.Cols, d.Conj, v.Shape(), v.IsConj())
		}
		m, ok := v.Layout().Matrix()
		if d.BLAS != ok {
			t.Errorf("%s: BLAS %v, layout's Matrix says %v", name, d.BLAS, ok)
		}
		if ok && (d.LD != m.LD || d.Trans != m.Trans) {
			t.Errorf("%s: ld %d trans %v, want %d %v", name, d.LD, d.Trans, m.LD, m.Trans)
		}
		if v.Len() > 0 && d.Ptr != unsafe.Pointer(&data[v.Layout().Offset()]) {
			t.Errorf("%s: Ptr is not element (0, 0)", name)
		}
		// The stored matrix reaches exactly the span (a BLAS description).
		if ok && v.Len() > 0 {
			r, c := d.Rows, d.Cols // the stored matrix: transposed when Trans
			if d.Trans {
				r, c = c, r
			}
			if hi := uintptr(d.Ptr) + uintptr(r-1+(c-1)*d.LD+1)*8; hi != d.Hi {
				t.Errorf("%s: stored %d x %d ld %d ends at %#x, span at %#x", name, r, c, d.LD, hi, d.Hi)
			}
		}
	}
}

func TestMatrixReadRefuses(t *testing.T) {
	data := make([]float64, 8)
	vt, _ := views.FromColMajor(data, 8)
	vec := vt.View()
	tens, _ := views.Zeros[float64](2, 2)
	gone := tens.View()
	tens.Release()
	for name, v := range map[string]views.View[float64]{"rank 1": vec, "released": gone, "zero View": {}} {
		d := Matrix[float64]{Rows: 9}
		if d.Read(&v) || d != (Matrix[float64]{}) {
			t.Errorf("%s: Read accepted it or left %+v", name, d)
		}
	}
}

func TestSpanOverlaps(t *testing.T) {
	data := make([]float64, 20)
	other := make([]float64, 4)
	at, _ := views.FromColMajor(data[:10], 10)
	a := at.View()
	for _, c := range []struct {
		s    Span
		want bool
	}{
		{SliceSpan(data[9:12]), true},   // shares element 9
		{SliceSpan(data[10:12]), false}, // adjacent
		{SliceSpan(data[:0]), false},    // empty
		{SliceSpan(other), false},
		{ViewSpan(a), true},
	} {
		if got := ViewSpan(a).Overlaps(c.s); got != c.want {
			t.Errorf("%+v overlaps %+v: %v, want %v", ViewSpan(a), c.s, got, c.want)
		}
		if got := c.s.Overlaps(ViewSpan(a)); got != c.want {
			t.Errorf("not symmetric for %+v", c.s)
		}
	}
	var empty Span
	if empty.Overlaps(empty) {
		t.Error("empty spans overlap")
	}
}
