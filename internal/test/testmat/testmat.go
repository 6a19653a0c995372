// Package testmat makes test operands for the cgo packages: views of every
// layout class over buffers padded with NaN (the padding must survive
// every call), random values of the four element types, and a plain
// complex128 reference matrix with the few operations reconstruction tests
// need. Only tests import it.
package testmat

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Kind is the layout class of a test operand.
type Kind int

const (
	ColPacked  Kind = iota
	ColStrided      // column-major, ld > rows
	RowPacked
	RowStrided // row-major, ld > cols
	General    // every other row: no BLAS description
	Reversed   // negative strides: no BLAS description
	NumKinds
)

var kindNames = [...]string{"col", "colpad", "row", "rowpad", "general", "reversed"}

func (k Kind) String() string { return kindNames[k] }

// Addressable reports whether BLAS and LAPACK can take the class as
// (pointer, ld, transpose).
func (k Kind) Addressable() bool { return k < General }

// Operand is a rows x cols view of class Kind over Buf.
type Operand[T views.Scalar] struct {
	V    views.View[T]
	Buf  []T
	Kind Kind
}

// New makes a rows x cols operand of class k with random values.
func New[T views.Scalar](rng *rand.Rand, rows, cols int, k Kind) Operand[T] {
	o := Empty[T](rows, cols, k)
	for i := range rows {
		for j := range cols {
			o.V.Set(Random[T](rng), i, j)
		}
	}
	return o
}

// From makes an operand of class k holding m.
func From[T views.Scalar](m M, k Kind) Operand[T] {
	o := Empty[T](m.R, m.C, k)
	for i := range m.R {
		for j := range m.C {
			o.V.Set(FromComplex[T](m.At(i, j)), i, j)
		}
	}
	return o
}

// Empty makes a rows x cols operand of class k whose every element,
// inside the view and out, is NaN.
func Empty[T views.Scalar](rows, cols int, k Kind) Operand[T] {
	var l layout.Layout
	var err error
	pad := 3
	switch k {
	case ColPacked:
		l, err = layout.ColMajor(rows, cols)
	case ColStrided:
		l, err = layout.New([]int{rows, cols}, []int{1, rows + pad}, 1)
	case RowPacked:
		l, err = layout.RowMajor(rows, cols)
	case RowStrided:
		l, err = layout.New([]int{rows, cols}, []int{cols + pad, 1}, 2)
	case General:
		l, err = layout.New([]int{rows, cols}, []int{2, 2 * max(1, rows)}, 1)
	case Reversed:
		l, err = layout.New([]int{rows, cols}, []int{-1, -max(1, rows)}, max(0, rows*cols-1)+pad)
	}
	if err != nil {
		panic(err)
	}
	size := pad
	if _, hi, ok := l.Span(); ok {
		size += hi + 1
	}
	buf := make([]T, size)
	for i := range buf {
		buf[i] = NaN[T]()
	}
	v, err := views.FromSlice(buf, l)
	if err != nil {
		panic(err)
	}
	return Operand[T]{V: v, Buf: buf, Kind: k}
}

// CheckPadding fails t if any element outside o's view (of any rank) is
// no longer NaN.
func (o Operand[T]) CheckPadding(t testing.TB, what string) {
	t.Helper()
	inside := map[int]bool{}
	l := o.V.Layout()
	shape := l.Shape()
	idx := make([]int, len(shape))
	for range l.Len() {
		inside[l.OffsetOf(idx...)] = true
		for a := range idx { // next index, axis 0 fastest
			if idx[a]++; idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	for i, x := range o.Buf {
		if !inside[i] && !IsNaN(x) {
			t.Fatalf("%s: padding at %d overwritten with %v", what, i, x)
		}
	}
}

// FromParts returns re + im*i as a T (im is dropped for real types).
func FromParts[T views.Scalar](re, im float64) T {
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

// FromComplex converts c to T (dropping the imaginary part for reals).
func FromComplex[T views.Scalar](c complex128) T { return FromParts[T](real(c), imag(c)) }

func NaN[T views.Scalar]() T { return FromParts[T](math.NaN(), math.NaN()) }

func IsNaN[T views.Scalar](x T) bool { return cmplx.IsNaN(scalar.Complex128(x)) }

// Random returns a standard normal value (real and imaginary parts).
func Random[T views.Scalar](rng *rand.Rand) T {
	return FromParts[T](rng.NormFloat64(), rng.NormFloat64())
}

func Abs[T views.Scalar](x T) float64 { return cmplx.Abs(scalar.Complex128(x)) }

// IsComplex reports whether T is complex64 or complex128.
func IsComplex[T views.Scalar]() bool { return views.IsComplex[T]() }

func TypeName[T views.Scalar]() string { var z T; return fmt.Sprintf("%T", z) }

// M is a reference matrix: R x C complex128 values, column-major.
type M struct {
	R, C int
	D    []complex128
}

// Zeros returns the r x c zero matrix.
func Zeros(r, c int) M { return M{R: r, C: c, D: make([]complex128, r*c)} }

// Eye returns the n x n identity.
func Eye(n int) M {
	m := Zeros(n, n)
	for i := range n {
		m.Set(i, i, 1)
	}
	return m
}

// Of reads a rank-2 (or rank-1, as a column) view.
func Of[T views.Scalar](v views.View[T]) M {
	l := v.Layout()
	r, c := l.Dim(0), 1
	if l.Rank() == 2 {
		c = l.Dim(1)
	}
	m := Zeros(r, c)
	for i := range r {
		for j := range c {
			if l.Rank() == 2 {
				m.Set(i, j, scalar.Complex128(v.At(i, j)))
			} else {
				m.Set(i, j, scalar.Complex128(v.At(i)))
			}
		}
	}
	return m
}

// Rand returns an r x c matrix of standard normal values, real when real
// is true.
func Rand(rng *rand.Rand, r, c int, real bool) M {
	m := Zeros(r, c)
	for i := range m.D {
		m.D[i] = complex(rng.NormFloat64(), 0)
		if !real {
			m.D[i] += complex(0, rng.NormFloat64())
		}
	}
	return m
}

func (m M) At(i, j int) complex128     { return m.D[j*m.R+i] }
func (m M) Set(i, j int, v complex128) { m.D[j*m.R+i] = v }

// Mul returns m n.
func (m M) Mul(n M) M {
	if m.C != n.R {
		panic(fmt.Sprintf("testmat: Mul of %dx%d and %dx%d", m.R, m.C, n.R, n.C))
	}
	p := Zeros(m.R, n.C)
	for j := range n.C {
		for k := range m.C {
			b := n.At(k, j)
			for i := range m.R {
				p.D[j*p.R+i] += m.At(i, k) * b
			}
		}
	}
	return p
}

// H returns the conjugate transpose.
func (m M) H() M {
	h := Zeros(m.C, m.R)
	for i := range m.R {
		for j := range m.C {
			h.Set(j, i, cmplx.Conj(m.At(i, j)))
		}
	}
	return h
}

// T returns the transpose.
func (m M) T() M {
	t := Zeros(m.C, m.R)
	for i := range m.R {
		for j := range m.C {
			t.Set(j, i, m.At(i, j))
		}
	}
	return t
}

// Sub returns m - n.
func (m M) Sub(n M) M {
	d := Zeros(m.R, m.C)
	for i := range m.D {
		d.D[i] = m.D[i] - n.D[i]
	}
	return d
}

// Norm returns the Frobenius norm.
func (m M) Norm() float64 {
	s := 0.0
	for _, v := range m.D {
		a := cmplx.Abs(v)
		s += a * a
	}
	return math.Sqrt(s)
}

// Cols returns columns [lo, hi).
func (m M) Cols(lo, hi int) M {
	return M{R: m.R, C: hi - lo, D: append([]complex128(nil), m.D[lo*m.R:hi*m.R]...)}
}

// Close fails t unless |got - want| <= tol * max(1, |want|) (Frobenius).
func Close(t testing.TB, what string, got, want M, tol float64) {
	t.Helper()
	if got.R != want.R || got.C != want.C {
		t.Fatalf("%s: shape %dx%d, want %dx%d", what, got.R, got.C, want.R, want.C)
	}
	if d := got.Sub(want).Norm(); !(d <= tol*max(1, want.Norm())) {
		t.Fatalf("%s: |got - want| = %.3g > %.3g (|want| = %.3g)", what, d, tol*max(1, want.Norm()), want.Norm())
	}
}

// Add returns m + n.
func (m M) Add(n M) M {
	d := Zeros(m.R, m.C)
	for i := range m.D {
		d.D[i] = m.D[i] + n.D[i]
	}
	return d
}

// Rows returns rows [lo, hi).
func (m M) Rows(lo, hi int) M {
	out := Zeros(hi-lo, m.C)
	for i := lo; i < hi; i++ {
		for j := range m.C {
			out.Set(i-lo, j, m.At(i, j))
		}
	}
	return out
}

// ForTypes runs the four instantiations of one generic test, for float32,
// float64, complex64 and complex128 in that order, as subtests.
func ForTypes(t *testing.T, fs ...func(*testing.T)) {
	for i, f := range fs {
		t.Run([]string{"float32", "float64", "complex64", "complex128"}[i], f)
	}
}
