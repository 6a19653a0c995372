package views

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis/layout"
)

// forTypes runs f for the four element types (internal/test/testmat imports
// views, so its ForTypes cannot be used here).
func forTypes(t *testing.T, fs ...func(*testing.T)) {
	for i, f := range fs {
		t.Run([]string{"float32", "float64", "complex64", "complex128"}[i], f)
	}
}

// num returns x as a T (imaginary part dropped for real types).
func num[T Scalar](re, im float64) T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(re)
	case *float64:
		*p = re
	case *complex64:
		*p = complex(float32(re), float32(im))
	case *complex128:
		*p = complex(re, im)
	}
	return z
}

// rowsOf returns an m x n matrix as rows, element (i, j) = 10*i + j
// (+ i(j+1) for complex types).
func rowsOf[T Scalar](m, n int) [][]T {
	rows := make([][]T, m)
	for i := range rows {
		rows[i] = make([]T, n)
		for j := range rows[i] {
			rows[i][j] = num[T](float64(10*i+j), float64(j+1))
		}
	}
	return rows
}

func TestConstructors(t *testing.T) {
	forTypes(t, testConstructors[float32], testConstructors[float64], testConstructors[complex64], testConstructors[complex128])
}

func testConstructors[T Scalar](t *testing.T) {
	// FromRows: shape, values, column-major storage; sizes on both sides
	// of the 16-row block.
	for _, sz := range [][2]int{{2, 3}, {1, 1}, {3, 1}, {1, 4}, {15, 2}, {16, 3}, {17, 5}, {40, 33}, {4, 0}} {
		m, n := sz[0], sz[1]
		rows := rowsOf[T](m, n)
		x := must(FromRows(rows))
		if !slices.Equal(x.Shape(), []int{m, n}) || !x.Layout().IsColMajor() {
			t.Fatalf("FromRows %dx%d: shape %v layout %v", m, n, x.Shape(), x.Layout())
		}
		for i := range m {
			for j := range n {
				if x.At(i, j) != rows[i][j] || x.Data()[j*m+i] != rows[i][j] {
					t.Fatalf("FromRows %dx%d: (%d, %d) = %v, want %v", m, n, i, j, x.At(i, j), rows[i][j])
				}
			}
		}
		rows[0] = append(rows[0][:0:0], rows[0]...) // not retained: the copy does not change
		x.Release()
	}
	for _, rows := range [][][]T{nil, {}} {
		if x := must(FromRows(rows)); !slices.Equal(x.Shape(), []int{0, 0}) || x.Len() != 0 {
			t.Errorf("FromRows(%v): shape %v", rows, x.Shape())
		}
	}
	for _, tc := range []struct {
		rows [][]T
		want string
	}{
		{[][]T{{1, 2}, {3}}, "views.FromRows: rows: row 1 has length 1, want 2 (the length of row 0) (bad shape)"},
		{[][]T{{1}, {2}, {3, 4}}, "views.FromRows: rows: row 2 has length 2, want 1 (the length of row 0) (bad shape)"},
		{[][]T{{}, {1}}, "views.FromRows: rows: row 1 has length 1, want 0 (the length of row 0) (bad shape)"},
	} {
		x, err := FromRows(tc.rows)
		if x != nil || !errors.Is(err, layout.ErrShape) || err.Error() != tc.want {
			t.Errorf("FromRows(%v) = %v, %v; want nil, %q", tc.rows, x, err, tc.want)
		}
	}

	// Full and Eye take dirty pool buffers: fill one first.
	dirty := must(Full(num[T](7, 7), 100))
	dirty.Release()
	one := num[T](1, 0)
	for _, n := range []int{0, 1, 2, 5} {
		e := must(Eye[T](n))
		if !slices.Equal(e.Shape(), []int{n, n}) {
			t.Fatalf("Eye(%d): shape %v", n, e.Shape())
		}
		for i := range n {
			for j := range n {
				if want := map[bool]T{true: one}[i == j]; e.At(i, j) != want {
					t.Fatalf("Eye(%d): (%d, %d) = %v", n, i, j, e.At(i, j))
				}
			}
		}
		e.Release()
	}
	x := num[T](2.5, -1)
	for _, shape := range [][]int{{}, {3}, {2, 3}, {2, 0, 4}, {3, 2, 2, 2}} {
		f := must(Full(x, shape...))
		if !slices.Equal(f.Shape(), shape) && !(len(shape) == 0 && f.Rank() == 0) || f.Len() != len(f.Data()) {
			t.Fatalf("Full(%v): shape %v", shape, f.Shape())
		}
		for i, y := range f.Data() {
			if y != x {
				t.Fatalf("Full(%v): element %d = %v", shape, i, y)
			}
		}
		f.Release()
	}
	for _, tc := range []struct {
		name string
		f    func() (*Tensor[T], error)
		is   error
		want string
	}{
		{"Eye(-1)", func() (*Tensor[T], error) { return Eye[T](-1) }, layout.ErrShape, "views.Eye: n: -1 is negative (bad shape)"},
		{"Eye(2^32)", func() (*Tensor[T], error) { return Eye[T](1 << 32) }, layout.ErrOverflow, "views.Eye: n: 4294967296 x 4294967296 elements do not fit in an int (integer overflow)"},
		{"Full(x, 2, -1)", func() (*Tensor[T], error) { return Full(x, 2, -1) }, layout.ErrShape, "views.Full: shape: extent -1 of axis 1 is negative (bad shape)"},
		{"Full(x, 2^40, 2^40)", func() (*Tensor[T], error) { return Full(x, 1<<40, 1<<40) }, layout.ErrOverflow, "views.Full: shape: element count of [1099511627776 1099511627776] does not fit in an int (integer overflow)"},
	} {
		got, err := tc.f()
		if got != nil || !errors.Is(err, tc.is) || err.Error() != tc.want {
			t.Errorf("%s = %v, %v; want nil, %q", tc.name, got, err, tc.want)
		}
	}
}

// TestFormat: one table of tensors and views (every layout class, conj,
// broadcast, elided, degenerate) and the text each verb gives.
func TestFormat(t *testing.T) {
	forTypes(t, testFormat[float32], testFormat[float64], testFormat[complex64], testFormat[complex128])
}

func testFormat[T Scalar](t *testing.T) {
	cplx := IsComplex[T]()
	name := typeName[T]()
	// pick returns the real or the complex expectation.
	pick := func(r, c string) string {
		if cplx {
			return c
		}
		return r
	}
	a := must(FromRows(rowsOf[T](2, 3))) // [[0 1 2] [10 11 12]]
	av := a.View()
	rowMajor := must(FromSlice([]T{0, 1, 2, 10, 11, 12}, must(layout.RowMajor(2, 3))))
	if cplx {
		rowMajor = must(FromRows(rowsOf[T](2, 3))).View()
	}
	stack := must(Zeros[T](2, 2, 3))
	for i := range stack.Data() {
		stack.Data()[i] = num[T](float64(i), 0)
	}
	big := must(Zeros[T](40, 30)) // 1200 elements: elided
	for i := range big.Data() {
		big.Data()[i] = num[T](float64(i%100), 0)
	}
	vec := must(Zeros[T](1001))
	released := must(Full(num[T](1, 0), 2, 3))
	released.Release()
	var nilT *Tensor[T]
	scalar := must(Full(num[T](-1.5, 2)))

	mat := pick("[[ 0  1  2]\n [10 11 12]]", "[[ (0+1i)  (1+2i)  (2+3i)]\n [(10+1i) (11+2i) (12+3i)]]")
	for _, tc := range []struct {
		name   string
		value  any
		format string
		want   string
	}{
		{"tensor", a, "%v", "Tensor[" + name + "] shape [2 3]\n" + mat},
		{"tensor %s", a, "%s", "Tensor[" + name + "] shape [2 3]\n" + mat},
		{"view", av, "%v", "View[" + name + "] shape [2 3]\n" + mat},
		{"row-major view", rowMajor, "%v", "View[" + name + "] shape [2 3]\n" + mat},
		{"transpose", av.T(), "%v", "View[" + name + "] shape [3 2]\n" +
			pick("[[0 10]\n [1 11]\n [2 12]]", "[[(0+1i) (10+1i)]\n [(1+2i) (11+2i)]\n [(2+3i) (12+3i)]]")},
		{"reversed", must(av.Reverse(1)), "%v", "View[" + name + "] shape [2 3]\n" +
			pick("[[ 2  1  0]\n [12 11 10]]", "[[ (2+3i)  (1+2i)  (0+1i)]\n [(12+3i) (11+2i) (10+1i)]]")},
		{"conj", av.Conj(), "%v", "View[" + name + "] shape [2 3]\n" +
			pick(mat, "[[ (0-1i)  (1-2i)  (2-3i)]\n [(10-1i) (11-2i) (12-3i)]]")},
		{"row", must(av.Index(0, 1)), "%v", "View[" + name + "] shape [3]\n" + pick("[10 11 12]", "[(10+1i) (11+2i) (12+3i)]")},
		{"broadcast", must(must(must(av.Index(0, 0)).Reshape(1, 3)).BroadcastTo(2, 3)), "%v", "View[" + name + "] shape [2 3]\n" +
			pick("[[0 1 2]\n [0 1 2]]", "[[(0+1i) (1+2i) (2+3i)]\n [(0+1i) (1+2i) (2+3i)]]")},
		{"scalar", scalar, "%v", "Tensor[" + name + "] shape []\n" + pick("-1.5", "(-1.5+2i)")},
		{"float verb", a, "%.1f", "Tensor[" + name + "] shape [2 3]\n" +
			pick("[[ 0.0  1.0  2.0]\n [10.0 11.0 12.0]]", "[[ (0.0+1.0i)  (1.0+2.0i)  (2.0+3.0i)]\n [(10.0+1.0i) (11.0+2.0i) (12.0+3.0i)]]")},
		{"plus flag", must(av.Index(0, 0)), "%+g", "View[" + name + "] shape [3]\n" + pick("[+0 +1 +2]", "[(+0+1i) (+1+2i) (+2+3i)]")},
		{"width", must(av.Index(0, 0)), "%4v", "View[" + name + "] shape [3]\n" + pick("[   0    1    2]", "[(   0  +1i) (   1  +2i) (   2  +3i)]")},
		{"bad verb", a, "%d", "%!d(Tensor[" + name + "] shape [2 3])"},
		{"stack", stack, "%v", "Tensor[" + name + "] shape [2 2 3]\n" + pick(
			"[:, :, 0] =\n[[0  2]\n [1  3]]\n[:, :, 1] =\n[[4  6]\n [5  7]]\n[:, :, 2] =\n[[8 10]\n [9 11]]",
			"[:, :, 0] =\n[[(0+0i)  (2+0i)]\n [(1+0i)  (3+0i)]]\n[:, :, 1] =\n[[(4+0i)  (6+0i)]\n [(5+0i)  (7+0i)]]\n[:, :, 2] =\n[[(8+0i) (10+0i)]\n [(9+0i) (11+0i)]]")},
		{"elided matrix", big, "%v", "Tensor[" + name + "] shape [40 30]\n" + pick(
			"[[ 0 40 80 ... 80 20 60]\n [ 1 41 81 ... 81 21 61]\n [ 2 42 82 ... 82 22 62]\n ...\n [37 77 17 ... 17 57 97]\n [38 78 18 ... 18 58 98]\n [39 79 19 ... 19 59 99]]",
			"[[ (0+0i) (40+0i) (80+0i) ... (80+0i) (20+0i) (60+0i)]\n [ (1+0i) (41+0i) (81+0i) ... (81+0i) (21+0i) (61+0i)]\n [ (2+0i) (42+0i) (82+0i) ... (82+0i) (22+0i) (62+0i)]\n ...\n [(37+0i) (77+0i) (17+0i) ... (17+0i) (57+0i) (97+0i)]\n [(38+0i) (78+0i) (18+0i) ... (18+0i) (58+0i) (98+0i)]\n [(39+0i) (79+0i) (19+0i) ... (19+0i) (59+0i) (99+0i)]]")},
		{"elided vector", vec, "%v", "Tensor[" + name + "] shape [1001]\n" + pick("[0 0 0 ... 0 0 0]", "[(0+0i) (0+0i) (0+0i) ... (0+0i) (0+0i) (0+0i)]")},
		{"not elided at 1000", must(vec.View().Slice(0, 0, 7, 1)), "%v", "View[" + name + "] shape [7]\n" + pick("[0 0 0 0 0 0 0]", "[(0+0i) (0+0i) (0+0i) (0+0i) (0+0i) (0+0i) (0+0i)]")},
		{"empty", must(Zeros[T](0, 3)), "%v", "Tensor[" + name + "] shape [0 3]\n[]"},
		{"empty batch", must(Zeros[T](2, 2, 0)), "%v", "Tensor[" + name + "] shape [2 2 0]\n[]"},
		{"layout", a, "%+v", "Tensor[" + name + "]{shape [2 3] strides [1 2] offset 0 data len 6}"},
		{"layout #", av, "%#v", "View[" + name + "]{shape [2 3] strides [1 2] offset 0 data len 6}"},
		{"layout of a view", av.T().Conj(), "%+v", "View[" + name + "]{shape [3 2] strides [2 1] offset 0" + pick("", " conj") + " data len 6}"},
		{"zero View", View[T]{}, "%v", "View[" + name + "]{zero: no data}"},
		{"zero View %+v", View[T]{}, "%+v", "View[" + name + "]{zero: no data}"},
		{"zero View %.2f", View[T]{}, "%.2f", "View[" + name + "]{zero: no data}"},
		{"released", released, "%v", "Tensor[" + name + "]{shape [2 3]: no data (released)}"},
		{"released %+v", released, "%+v", "Tensor[" + name + "]{shape [2 3]: no data (released)}"},
		{"nil tensor", nilT, "%v", "<nil>"},
	} {
		if got := fmt.Sprintf(tc.format, tc.value); got != tc.want {
			t.Errorf("%s: Sprintf(%q) =\n%s\nwant\n%s", tc.name, tc.format, got, tc.want)
		}
		if s, ok := tc.value.(fmt.Stringer); ok && tc.format == "%v" && tc.name != "nil tensor" {
			if got := s.String(); got != tc.want {
				t.Errorf("%s: String() = %q, want %q", tc.name, got, tc.want)
			}
		}
	}
}

// TestFormatElision: numpy's rule on every axis of a large stack, and the
// cost stays that of the printed elements.
func TestFormatElision(t *testing.T) {
	x := must(Zeros[float64](7, 8, 9, 2))
	for i := range x.Data() {
		x.Data()[i] = float64(i)
	}
	s := x.String()
	var heads []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "[:") || line == "..." {
			heads = append(heads, line)
		}
	}
	want := []string{
		"[:, :, 0, 0] =", "[:, :, 1, 0] =", "[:, :, 2, 0] =", "...", "[:, :, 6, 0] =", "[:, :, 7, 0] =", "[:, :, 8, 0] =",
		"[:, :, 0, 1] =", "[:, :, 1, 1] =", "[:, :, 2, 1] =", "...", "[:, :, 6, 1] =", "[:, :, 7, 1] =", "[:, :, 8, 1] =",
	}
	if !slices.Equal(heads, want) {
		t.Errorf("headings %q\nwant %q", heads, want)
	}
	if want := "[:, :, 8, 1] =\n[[952 959 966 ... 987  994 1001]\n [953 960 967 ... 988  995 1002]\n [954 961 968 ... 989  996 1003]\n ...\n [956 963 970 ... 991  998 1005]\n [957 964 971 ... 992  999 1006]\n [958 965 972 ... 993 1000 1007]]"; !strings.HasSuffix(s, want) {
		t.Errorf("last matrix:\n%s\nwant suffix\n%s", s, want)
	}
	huge := must(Zeros[float64](2000, 2000))
	if n := testing.AllocsPerRun(5, func() { _ = huge.String() }); n > 300 {
		t.Errorf("printing a 2000x2000 tensor: %v allocations", n)
	}
}
