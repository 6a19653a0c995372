package views

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/internal/test/oracle"
	"github.com/lapis-go/lapis/layout"
)

func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

// values lists a view's elements in column-major index order.
func values[T Scalar](v View[T]) []T {
	var out []T
	oracle.ForEach(v.Shape(), func(idx []int) { out = append(out, v.At(idx...)) })
	return out
}

func sameBuffer[T Scalar](a, b []T) bool {
	return len(a) > 0 && len(b) > 0 && unsafe.Pointer(&a[0]) == unsafe.Pointer(&b[0])
}

// TestWorkedExamples replays the examples of the tenferro study
// (shared/seeds/000_*.txt) with values.
func TestWorkedExamples(t *testing.T) {
	a := must(FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	if !slices.Equal(a.Data(), []float64{1, 4, 2, 5, 3, 6}) {
		t.Fatalf("FromRowMajor data = %v, want [1 4 2 5 3 6]", a.Data())
	}
	av := a.View()
	tests := []struct {
		name    string
		v       View[float64]
		strides []int
		offset  int
		compact bool
		values  []float64 // column-major index order
	}{
		{"transpose", av.T(), []int{2, 1}, 0, false, []float64{1, 2, 3, 4, 5, 6}},
		{"reverse columns", must(av.Reverse(1)), []int{1, -2}, 4, false, []float64{3, 6, 2, 5, 1, 4}},
		{"columns 1..", must(av.Slice(1, 1, 3, 1)), []int{1, 2}, 2, true, []float64{2, 5, 3, 6}},
		{"row 1", must(av.Slice(0, 1, 2, 1)), []int{1, 2}, 1, false, []float64{4, 5, 6}},
	}
	for _, tc := range tests {
		l := tc.v.Layout()
		if !slices.Equal(l.Strides(), tc.strides) || l.Offset() != tc.offset || l.IsColMajor() != tc.compact || !slices.Equal(values(tc.v), tc.values) {
			t.Errorf("%s: %v compact %v values %v", tc.name, l, l.IsColMajor(), values(tc.v))
		}
		if !sameBuffer(tc.v.Data(), a.Data()) {
			t.Errorf("%s: view does not share the tensor's buffer", tc.name)
		}
		s, err := tc.v.AsSlice()
		if tc.compact != (err == nil) {
			t.Errorf("%s: AsSlice err = %v", tc.name, err)
		}
		if err == nil && !slices.Equal(s, tc.values) {
			t.Errorf("%s: AsSlice = %v", tc.name, s)
		}
		if err != nil && !errors.Is(err, layout.ErrReshape) {
			t.Errorf("%s: AsSlice err %v does not match ErrReshape", tc.name, err)
		}
	}
	if got := must(av.Reverse(1)).At(0, 0); got != 3 {
		t.Errorf("reverse columns At(0,0) = %v, want 3", got)
	}
	if got := av.T().ToColMajor().Data(); !slices.Equal(got, []float64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("ToColMajor(transpose) = %v", got)
	}

	// The [2,2,3] batch: matrix 1 is borrowed as a slice at offset 4.
	b := must(Zeros[float64](2, 2, 3))
	for i := range b.Data() {
		b.Data()[i] = float64(i)
	}
	m1 := must(b.View().Index(2, 1))
	s := must(m1.AsSlice())
	if m1.Layout().Offset() != 4 || !slices.Equal(s, []float64{4, 5, 6, 7}) || &s[0] != &b.Data()[4] {
		t.Errorf("batch 1: %v as slice %v", m1.Layout(), s)
	}
	// The leading-axis slice [1,2,3] strides [1,2,4] offset 1 reshapes by
	// strides to [6] with stride 2, no copy.
	lead := must(b.View().Slice(0, 1, 2, 1))
	flat := must(lead.Reshape(6))
	if !slices.Equal(flat.Layout().Strides(), []int{2}) || flat.Layout().Offset() != 1 || !slices.Equal(values(flat), []float64{1, 3, 5, 7, 9, 11}) || !sameBuffer(flat.Data(), b.Data()) {
		t.Errorf("leading-axis slice reshaped: %v values %v", flat.Layout(), values(flat))
	}
	if _, err := av.T().Reshape(6); !errors.Is(err, layout.ErrReshape) {
		t.Errorf("flattening a transposed view: err = %v, want ErrReshape", err)
	}
}

// matmul is the plain product of two matrix views.
func matmul(a, b View[float64]) []float64 {
	m, k, n := a.Shape()[0], a.Shape()[1], b.Shape()[1]
	var rows []float64
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for p := 0; p < k; p++ {
				s += a.At(i, p) * b.At(p, j)
			}
			rows = append(rows, s)
		}
	}
	return rows // row by row
}

// TestRowMajorReadAsColMajor shows the silent error FromRowMajor exists to
// prevent: row-major data adopted as column-major is another matrix, and
// nothing can detect it.
func TestRowMajorReadAsColMajor(t *testing.T) {
	aRows := []float64{1, 2, 3, 4, 5, 6} // [[1 2 3] [4 5 6]]
	bRows := []float64{1, 0, 0, 1, 1, 1} // [[1 0] [0 1] [1 1]]
	aBad := must(FromColMajor(aRows, 2, 3))
	bBad := must(FromColMajor(bRows, 3, 2))
	if got := matmul(aBad.View(), bBad.View()); !slices.Equal(got, []float64{1, 9, 2, 12}) {
		t.Errorf("misread product = %v, want the wrong [1 9 2 12]", got)
	}
	aOK := must(FromRowMajor(aRows, 2, 3))
	bOK := must(FromRowMajor(bRows, 3, 2))
	if got := matmul(aOK.View(), bOK.View()); !slices.Equal(got, []float64{4, 5, 10, 11}) {
		t.Errorf("product = %v, want [4 5 10 11]", got)
	}
}

func TestConj(t *testing.T) {
	z := must(FromColMajor([]complex128{1 + 2i, 3 - 1i, -2i, 5}, 2, 2))
	h := z.View().H()
	if h.At(0, 1) != 3+1i || h.At(1, 0) != 2i || !h.IsConj() {
		t.Errorf("H: At(0,1) = %v, At(1,0) = %v", h.At(0, 1), h.At(1, 0))
	}
	if _, err := h.AsSlice(); !errors.Is(err, layout.ErrReshape) {
		t.Errorf("AsSlice of a conjugated view: %v", err)
	}
	if got := h.ToColMajor().Data(); !slices.Equal(got, []complex128{1 - 2i, 2i, 3 + 1i, 5}) {
		t.Errorf("ToColMajor(H) = %v", got)
	}
	c := z.View().Conj()
	c.Set(7+7i, 1, 1) // stored conjugated
	if z.At(1, 1) != 7-7i || c.At(1, 1) != 7+7i {
		t.Errorf("Set through Conj: stored %v", z.At(1, 1))
	}
	// Conjugated to conjugated copies plainly; conjugated to plain conjugates.
	dst := must(Zeros[complex128](2, 2))
	if err := Copy(dst.View().Conj(), c); err != nil || !slices.Equal(dst.Data(), z.Data()) {
		t.Errorf("conj -> conj copy: %v, %v", dst.Data(), err)
	}
	f := must(Zeros[complex64](1))
	f.Set(1+1i, 0)
	if got := f.View().Conj().At(0); got != 1-1i {
		t.Errorf("complex64 conj = %v", got)
	}
	r := must(Zeros[float32](2))
	if r.View().Conj().IsConj() || !IsComplex[complex64]() || IsComplex[float64]() {
		t.Errorf("Conj on a real view must do nothing")
	}
}

// TestCopyAliased copies a square matrix onto its own transpose, in place.
func TestCopyAliased(t *testing.T) {
	a := must(FromRowMajor([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 3))
	want := a.View().T().ToColMajor().Data()
	if err := Copy(a.View(), a.View().T()); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Data(), want) {
		t.Errorf("in-place transpose = %v, want %v", a.Data(), want)
	}
	// Shifted overlap along a vector: dst[i] = src[i] with src = dst+1.
	buf := []float64{0, 1, 2, 3, 4, 5}
	dst := must(FromSlice(buf, must(layout.New([]int{5}, []int{1}, 0))))
	src := must(FromSlice(buf, must(layout.New([]int{5}, []int{1}, 1))))
	if err := Copy(dst, src); err != nil || !slices.Equal(buf, []float64{1, 2, 3, 4, 5, 5}) {
		t.Errorf("shifted copy = %v, %v", buf, err)
	}
}

func TestErrors(t *testing.T) {
	buf := []float64{1, 2, 3, 4, 5, 6}
	a := must(FromColMajor(buf, 2, 3))
	bc := must(must(a.View().Slice(1, 0, 1, 1)).BroadcastTo(2, 3))
	dst := must(Zeros[float64](3, 2))
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"FromSlice past end", err2(FromSlice(buf, must(layout.ColMajor(7)))), layout.ErrBounds},
		{"FromSlice below start", err2(FromSlice(buf, must(layout.New([]int{3}, []int{-1}, 1)))), layout.ErrBounds},
		{"FromColMajor length", err2(FromColMajor(buf, 2, 2)), layout.ErrShape},
		{"FromColMajor negative", err2(FromColMajor(buf, -6)), layout.ErrShape},
		{"FromRowMajor length", err2(FromRowMajor(buf, 4, 2)), layout.ErrShape},
		{"Zeros overflow", err2(Zeros[float64](1<<40, 1<<40)), layout.ErrOverflow},
		{"Copy shape", Copy(dst.View(), a.View()), layout.ErrShape},
		{"Copy rank", Copy(must(dst.View().Reshape(6)), a.View()), layout.ErrShape},
		{"Copy into broadcast", Copy(bc, a.View()), layout.ErrOverlap},
		{"Slice", err2(a.View().Slice(0, 0, 3, 1)), layout.ErrBounds},
		{"Index", err2(a.View().Index(2, 0)), layout.ErrAxis},
		{"Permute", err2(a.View().Permute(0, 0)), layout.ErrAxis},
		{"Transpose", err2(a.View().Transpose(0, 5)), layout.ErrAxis},
		{"Reverse", err2(a.View().Reverse(3)), layout.ErrAxis},
		{"Reshape", err2(a.View().T().Reshape(6)), layout.ErrReshape},
		{"BroadcastTo", err2(a.View().BroadcastTo(3, 3)), layout.ErrShape},
		{"AsSlice", err2(a.View().T().AsSlice()), layout.ErrReshape},
	}
	for _, tc := range tests {
		var le *layout.Error
		if !errors.Is(tc.err, tc.want) || !errors.As(tc.err, &le) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if !slices.Equal(buf, []float64{1, 2, 3, 4, 5, 6}) || slices.ContainsFunc(dst.Data(), func(x float64) bool { return x != 0 }) {
		t.Errorf("a failed call wrote data")
	}
}

func TestPanics(t *testing.T) {
	a := must(Zeros[float64](2, 3))
	bc := must(must(a.View().Slice(1, 0, 1, 1)).BroadcastTo(2, 3))
	cases := map[string]func(){
		"At out of range":     func() { a.View().At(2, 0) },
		"At wrong rank":       func() { a.View().At(0) },
		"Tensor.At":           func() { a.At(0, 3) },
		"Tensor.Set":          func() { a.Set(1, -1, 0) },
		"Set on broadcast":    func() { bc.Set(1, 0, 0) },
		"At on the zero View": func() { View[float64]{}.At() },
	}
	for name, f := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

func err2[V any](_ V, err error) error { return err }

func TestNoAllocs(t *testing.T) {
	x := must(Zeros[complex128](2, 3, 4, 5, 1, 2, 3, 2))
	v := x.View()
	var sink View[complex128]
	ops := map[string]func(){
		"View":        func() { sink = x.View() },
		"Permute":     func() { sink, _ = v.Permute(7, 6, 5, 4, 3, 2, 1, 0) },
		"T":           func() { sink = v.T() },
		"H":           func() { sink = v.H() },
		"Conj":        func() { sink = v.Conj() },
		"Transpose":   func() { sink, _ = v.Transpose(1, 6) },
		"Slice":       func() { sink, _ = v.Slice(3, 4, -1, -1) },
		"Reverse":     func() { sink, _ = v.Reverse(0) },
		"Index":       func() { sink, _ = v.Index(2, 3) },
		"Reshape":     func() { sink, _ = v.Reshape(6, 20, 12) },
		"BroadcastTo": func() { sink, _ = v.BroadcastTo(2, 3, 4, 5, 7, 2, 3, 2) },
		"FromSlice":   func() { sink, _ = FromSlice(x.Data(), v.Layout()) },
		"AsSlice":     func() { _, _ = v.AsSlice() },
		"At":          func() { _ = v.At(1, 2, 3, 4, 0, 1, 2, 1) },
		"Matrix2":     func() { _, _, _, _ = v.Matrix2() },
		"Vector1":     func() { _, _, _, _, _ = v.Vector1() },
	}
	for name, f := range ops {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
	_ = sink
}

func TestAccessors(t *testing.T) {
	x := must(Zeros[float32](2, 3, 4))
	x.Set(5, 1, 2, 3)
	v := must(x.View().Index(0, 1))
	if x.Rank() != 3 || x.Len() != 24 || !slices.Equal(x.Shape(), []int{2, 3, 4}) || !x.Layout().IsColMajor() || x.At(1, 2, 3) != 5 {
		t.Errorf("Tensor accessors: %v %v %v", x.Rank(), x.Len(), x.Shape())
	}
	if v.Rank() != 2 || v.Len() != 12 || !slices.Equal(v.Shape(), []int{3, 4}) || v.At(2, 3) != 5 || len(v.Data()) != 24 {
		t.Errorf("View accessors: %v", v)
	}
	want := map[string]string{
		View[float32]{}.String():                                     "View[float32]{zero: no data}",
		View[float64]{}.String():                                     "View[float64]{zero: no data}",
		View[complex64]{}.String():                                   "View[complex64]{zero: no data}",
		fmt.Sprintf("%+v", must(Zeros[complex128](2)).View().Conj()): "View[complex128]{shape [2] strides [1] offset 0 conj data len 2}",
	}
	for got, w := range want {
		if got != w {
			t.Errorf("String = %q, want %q", got, w)
		}
	}
	z := must(Zeros[complex64](3, 4))
	h := z.View().H()
	if m, first, conj, ok := h.Matrix2(); !ok || !conj || first != &z.Data()[0] || m != (layout.Matrix{Rows: 4, Cols: 3, LD: 3, Trans: true}) {
		t.Errorf("Matrix2 of a conjugate transpose = %+v, %p, %v, %v", m, first, conj, ok)
	}
	xv := x.View()
	if _, first, _, ok := xv.Matrix2(); ok || first != nil {
		t.Errorf("Matrix2 of a rank-3 view = %p, %v, want not ok", first, ok)
	}
	r := must(must(Zeros[complex64](7)).View().Slice(0, 5, 0, -2))
	r = r.Conj()
	if n, s, first, conj, ok := r.Vector1(); !ok || !conj || n != 3 || s != -2 || first != &r.Data()[5] {
		t.Errorf("Vector1 of a reversed conjugated slice = %d, %d, %p, %v, %v", n, s, first, conj, ok)
	}
	if _, _, first, _, ok := xv.Vector1(); ok || first != nil {
		t.Errorf("Vector1 of a rank-3 view = %p, %v, want not ok", first, ok)
	}
	e := must(Zeros[float64](0, 3))
	if s, err := e.View().AsSlice(); err != nil || len(s) != 0 || e.View().ToColMajor().Len() != 0 {
		t.Errorf("empty AsSlice = %v, %v", s, err)
	}
}

// The zero View is not a view of anything: every function given one says
// so with layout.ErrBounds, and the methods that cannot return an error
// panic with that message (never a crash inside unsafe code).
func TestZeroView(t *testing.T) {
	var z View[complex128]
	a := must(Zeros[complex128](2, 3)).View()
	for name, err := range map[string]error{
		"Copy(z, z)":     Copy(z, z),
		"Copy(z, a00)":   Copy(z, must(must(a.Index(1, 0)).Index(0, 0))),
		"Copy(a00, z)":   Copy(must(must(a.Index(1, 0)).Index(0, 0)), z),
		"AsSlice":        err2(z.AsSlice()),
		"Reshape(1)":     err2(z.Reshape(1)),
		"Reshape()":      err2(z.Reshape()),
		"BroadcastTo(3)": err2(z.BroadcastTo(3)),
		"Permute()":      err2(z.Permute()),
	} {
		if !errors.Is(err, layout.ErrBounds) || !strings.Contains(err.Error(), "zero View") {
			t.Errorf("%s: error %v, want layout.ErrBounds naming the zero View", name, err)
		}
	}
	if Overlaps(z, a) || Overlaps(a, z) || Overlaps(z, z) {
		t.Error("the zero View overlaps something")
	}
	if s := z.String(); !strings.Contains(s, "zero") {
		t.Errorf("String = %q", s)
	}
	// The zero View has no elements, as a nil slice has none, and copies
	// to the zero Tensor.
	if z.Len() != 0 {
		t.Errorf("Len = %d, want 0", z.Len())
	}
	if c := z.ToColMajor(); c.Len() != 0 || c.View().Len() != 0 {
		t.Errorf("ToColMajor: Len %d, its view's %d; want 0", c.Len(), c.View().Len())
	} else {
		c.Release()
	}
	for name, f := range map[string]func(){
		"At":        func() { z.At() },
		"Set":       func() { z.Set(1) },
		"Conj().At": func() { z.Conj().At() },
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, "zero View has no data") {
					t.Errorf("%s: panic %q, want the zero View message", name, msg)
				}
			}()
			f()
		}()
	}
}

// Use after Release: the tensor is detached, and with the
// release check on a slice taken before reads NaN, not the next tensor's
// values (views taken before are refused: TestReleasedView).
func TestUseAfterRelease(t *testing.T) {
	prev := SetReleaseCheck(true)
	defer SetReleaseCheck(prev)
	a := must(Zeros[float64](4, 4))
	stale := a.Data()
	a.Release()
	for name, f := range map[string]func(){
		"At":   func() { a.At(0, 0) },
		"Set":  func() { a.Set(1, 0, 0) },
		"Data": func() { a.Data() },
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, "after Release") {
					t.Errorf("%s after Release: panic %q, want one naming Release", name, msg)
				}
			}()
			f()
		}()
	}
	a.Release() // a second Release does nothing
	if x := stale[5]; !math.IsNaN(x) {
		t.Errorf("stale slice reads %v after Release, want NaN", x)
	}
	// Whoever gets the buffer next overwrites the NaN as it always did.
	b := must(Zeros[float64](4, 4))
	if b.At(1, 1) != 0 {
		t.Errorf("a new Zeros reads %v", b.At(1, 1))
	}
}

// TestRef checks that Ref returns the view's own parts: the slice, a
// pointer to the view's layout itself (not a copy), and the conjugation
// flag.
func TestRef(t *testing.T) {
	data := make([]complex128, 12)
	v := must(FromSlice(data, must(layout.New([]int{3, 2}, []int{2, 6}, 1)))).Conj()
	d, l, conj := v.Ref()
	if unsafe.SliceData(d) != unsafe.SliceData(data) || len(d) != len(data) || !conj {
		t.Fatalf("Ref: data %p len %d conj %v", unsafe.SliceData(d), len(d), conj)
	}
	if l != &v.l || l.String() != v.Layout().String() {
		t.Fatalf("Ref: layout %p %v, the view's is at %p: %v", l, l, &v.l, v.Layout())
	}
	r := must(FromSlice([]float64{1}, must(layout.ColMajor()))).Conj()
	if _, _, conj := r.Ref(); conj {
		t.Error("Ref of a real view: conj true")
	}
}
