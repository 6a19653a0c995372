package scalar

import (
	"fmt"
	"math"
	"testing"
)

// TestMatrixFinite: AllFinite and MatrixFinite against an element-by-
// element oracle (IsFinite at every index of the part read), for the
// four types, every layout class MatrixFinite tells apart (compact,
// column-major with a leading dimension, row-major, strided both ways,
// negative strides), each triangle, and a NaN, +Inf or -Inf (in either
// part of a complex) at every position, in and out of the part read; and
// InterleavedFinite against it (testInterleavedFinite).
func TestMatrixFinite(t *testing.T) {
	testMatrixFinite[float32](t)
	testMatrixFinite[float64](t)
	testMatrixFinite[complex64](t)
	testMatrixFinite[complex128](t)
}

func testMatrixFinite[T Type](t *testing.T) {
	name := fmt.Sprintf("%T", *new(T))
	bads := []T{valueOf[T](math.NaN(), false), valueOf[T](math.Inf(1), false), valueOf[T](math.Inf(-1), false)}
	if IsComplex[T]() {
		bads = append(bads, valueOf[T](math.NaN(), true), valueOf[T](math.Inf(-1), true))
	}
	type geom struct {
		what           string
		rows, cols     int
		s0, s1, origin int // origin: where element (0, 0) lies from the start of the buffer
	}
	var geoms []geom
	for _, d := range [][2]int{{1, 1}, {1, 5}, {5, 1}, {4, 4}, {7, 3}, {3, 9}, {40, 37}} {
		r, c := d[0], d[1]
		geoms = append(geoms,
			geom{"compact", r, c, 1, r, 0},
			geom{"ld", r, c, 1, r + 3, 0},
			geom{"row-major", r, c, c, 1, 0},
			geom{"row-major ld", r, c, c + 2, 1, 0},
			geom{"strided", r, c, 2, 2*r + 1, 0},
			geom{"reversed rows", r, c, -1, r, r - 1},
			geom{"reversed both", r, c, -c - 1, -1, (r-1)*(c+1) + c - 1},
		)
	}
	for _, g := range geoms {
		size := 1
		for i := range g.rows {
			for j := range g.cols {
				size = max(size, g.origin+i*g.s0+j*g.s1+1)
			}
		}
		data := make([]T, size+2)
		for k := range data {
			data[k] = valueOf[T](float64(k%7-3), false) // finite here
		}
		for _, tri := range []byte{0, 'L', 'U'} {
			read := func(i, j int) bool {
				return tri == 0 || tri == 'L' && i >= j || tri == 'U' && i <= j
			}
			label := fmt.Sprintf("%s/%s %dx%d/tri=%q", name, g.what, g.rows, g.cols, tri)
			if !MatrixFinite(data, g.origin, g.s0, g.s1, g.rows, g.cols, tri) {
				t.Fatalf("%s: finite matrix reported not finite", label)
			}
			for i := range g.rows {
				for j := range g.cols {
					for _, bad := range bads {
						k := g.origin + i*g.s0 + j*g.s1
						keep := data[k]
						data[k] = bad
						if got, want := MatrixFinite(data, g.origin, g.s0, g.s1, g.rows, g.cols, tri), !read(i, j); got != want {
							t.Fatalf("%s: %v at (%d, %d): MatrixFinite %v, want %v", label, bad, i, j, got, want)
						}
						data[k] = keep
					}
				}
			}
		}
	}
	// AllFinite across its blocks of 256 and its unrolled tail.
	for _, n := range []int{0, 1, 3, 4, 5, 255, 256, 257, 1000} {
		xs := make([]T, n)
		if !AllFinite(xs) {
			t.Fatalf("%s: AllFinite of %d zeros", name, n)
		}
		for k := range n {
			for _, bad := range bads {
				xs[k] = bad
				if AllFinite(xs) {
					t.Fatalf("%s: AllFinite missed %v at %d of %d", name, bad, k, n)
				}
				xs[k] = 0
			}
		}
	}
	testInterleavedFinite(t, bads)
	// The scan allocates nothing.
	data := make([]T, 64*64)
	if n := testing.AllocsPerRun(10, func() { MatrixFinite(data, 0, 1, 64, 64, 64, 'L') }); n != 0 {
		t.Errorf("%s: MatrixFinite allocates %v times", name, n)
	}
}

// valueOf returns x as T: in the imaginary part when imag (complex T).
func valueOf[T Type](x float64, imag bool) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(x)
	case *float64:
		*p = x
	case *complex64:
		*p = complex(float32(x), 0)
		if imag {
			*p = complex(1, float32(x))
		}
	case *complex128:
		*p = complex(x, 0)
		if imag {
			*p = complex(1, x)
		}
	}
	return v
}

// TestMatrixHasNaN: each element of column- and row-strided matrices in
// turn a NaN (a complex one in either part), against the answer by index.
func TestMatrixHasNaN(t *testing.T) {
	const rows, cols, pad = 5, 4, 2
	for _, s := range [][2]int{{1, rows + pad}, {cols + pad, 1}, {2, 2*rows + 1}} {
		d := make([]complex128, 1+(rows-1)*s[0]+(cols-1)*s[1]+pad)
		if MatrixHasNaN(d, 1, s[0], s[1], rows, cols) {
			t.Fatalf("strides %v: NaN in zeros", s)
		}
		for i := range rows {
			for j := range cols {
				for _, x := range []complex128{complex(math.NaN(), 0), complex(0, math.NaN())} {
					k := 1 + i*s[0] + j*s[1]
					d[k] = x
					if !MatrixHasNaN(d, 1, s[0], s[1], rows, cols) {
						t.Fatalf("strides %v: NaN at (%d, %d) not found", s, i, j)
					}
					d[k] = 0
				}
			}
		}
		d[0], d[len(d)-1] = complex(math.NaN(), 0), complex(math.NaN(), 0) // outside the matrix
		if MatrixHasNaN(d, 1, s[0], s[1], rows, cols) {
			t.Fatalf("strides %v: a NaN outside the matrix found", s)
		}
	}
}

// testInterleavedFinite: InterleavedFinite against MatrixFinite of each
// matrix (itself tested against the element oracle above), runs of 1 to
// 19 matrices with the batch axis innermost (as column-major and as
// row-major matrices), each triangle, and each of bads at every element
// of every matrix (part of TestMatrixFinite).
func testInterleavedFinite[T Type](t *testing.T, bads []T) {
	name := fmt.Sprintf("%T", *new(T))
	for _, d := range [][2]int{{1, 1}, {3, 3}, {4, 2}, {2, 5}} {
		rows, cols := d[0], d[1]
		for _, cnt := range []int{1, 2, 7, 19} {
			for _, rowMajor := range []bool{false, true} {
				ld := cnt + 2 // the lines' stride: room between them
				s0, s1 := ld, rows*ld
				if rowMajor {
					s0, s1 = cols*ld, ld
				}
				data := make([]T, 1+rows*cols*ld)
				for k := range data {
					data[k] = valueOf[T](float64(k%5-2), false)
				}
				all := func(tri byte) bool {
					for m := range cnt {
						if !MatrixFinite(data, 1+m, s0, s1, rows, cols, tri) {
							return false
						}
					}
					return true
				}
				for _, tri := range []byte{0, 'L', 'U'} {
					label := fmt.Sprintf("%s/%dx%d/cnt=%d/rowMajor=%v/tri=%q", name, rows, cols, cnt, rowMajor, tri)
					for k := range data {
						for _, bad := range bads {
							keep := data[k]
							data[k] = bad
							if got, want := InterleavedFinite(data, 1, s0, s1, rows, cols, cnt, tri), all(tri); got != want {
								t.Fatalf("%s: %v at %d: InterleavedFinite %v, want %v", label, bad, k, got, want)
							}
							data[k] = keep
						}
					}
				}
			}
		}
	}
}
