package cblas

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Test operands: a view of a given class over a buffer padded with NaN.
// The padding must survive every call.

type kind int

const (
	colPacked kind = iota
	colStrided
	rowPacked
	rowStrided
	general  // every other row: no BLAS description
	reversed // negative strides: no BLAS description
	nKinds
)

var kindNames = [...]string{"col", "colpad", "row", "rowpad", "general", "reversed"}

func (k kind) String() string { return kindNames[k] }

func (k kind) addressable() bool { return k < general }

type operand[T views.Scalar] struct {
	v    views.View[T]
	buf  []T
	kind kind
}

// fromParts returns re + im*i as a T (im is dropped for real types).
func fromParts[T views.Scalar](re, im float64) T {
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

func nan[T views.Scalar]() T { return fromParts[T](math.NaN(), math.NaN()) }

func one[T views.Scalar]() T { return fromParts[T](1, 0) }

// scale multiplies by a real number.
func scale[T views.Scalar](x T, r float64) T { return x * fromParts[T](r, 0) }

func isNaN[T views.Scalar](x T) bool {
	switch v := any(x).(type) {
	case float32:
		return v != v
	case float64:
		return v != v
	case complex64:
		return cmplx.IsNaN(complex128(v))
	case complex128:
		return cmplx.IsNaN(v)
	}
	return false
}

func random[T views.Scalar](rng *rand.Rand) T {
	return fromParts[T](rng.NormFloat64(), rng.NormFloat64())
}

// newOperand makes a rows x cols view of class k with random values.
func newOperand[T views.Scalar](rng *rand.Rand, rows, cols int, k kind) operand[T] {
	var l layout.Layout
	var err error
	pad := 3
	switch k {
	case colPacked:
		l, err = layout.ColMajor(rows, cols)
	case colStrided:
		l, err = layout.New([]int{rows, cols}, []int{1, rows + pad}, 1)
	case rowPacked:
		l, err = layout.RowMajor(rows, cols)
	case rowStrided:
		l, err = layout.New([]int{rows, cols}, []int{cols + pad, 1}, 2)
	case general:
		l, err = layout.New([]int{rows, cols}, []int{2, 2 * rows}, 1)
	case reversed:
		l, err = layout.New([]int{rows, cols}, []int{-1, -rows}, rows*cols)
	}
	if err != nil {
		panic(err)
	}
	_, hi, _ := l.Span()
	buf := make([]T, hi+1+pad)
	for i := range buf {
		buf[i] = nan[T]()
	}
	v, err := views.FromSlice(buf, l)
	if err != nil {
		panic(err)
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			v.Set(random[T](rng), i, j)
		}
	}
	return operand[T]{v: v, buf: buf, kind: k}
}

// checkPadding fails if any element outside o's view is no longer NaN.
func (o operand[T]) checkPadding(t *testing.T, what string) {
	t.Helper()
	inside := map[int]bool{}
	l := o.v.Layout()
	r, c := 1, 1
	if l.Rank() > 0 {
		r = l.Dim(0)
	}
	if l.Rank() > 1 {
		c = l.Dim(1)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			idx := []int{i, j}[:l.Rank()]
			inside[l.OffsetOf(idx...)] = true
		}
	}
	for i, x := range o.buf {
		if !inside[i] && !isNaN(x) {
			t.Fatalf("%s: padding at %d overwritten with %v", what, i, x)
		}
	}
}

func abs[T views.Scalar](x T) float64 {
	switch v := any(x).(type) {
	case float32:
		return math.Abs(float64(v))
	case float64:
		return math.Abs(v)
	case complex64:
		return cmplx.Abs(complex128(v))
	case complex128:
		return cmplx.Abs(v)
	}
	return 0
}

func eps[T views.Scalar]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 1.2e-7
	}
	return 2.3e-16
}

func typeName[T views.Scalar]() string { var z T; return fmt.Sprintf("%T", z) }

// snapshot returns the values of a rank-2 view, row by row.
func snapshot[T views.Scalar](v views.View[T]) [][]T {
	out := make([][]T, v.Layout().Dim(0))
	for i := range out {
		out[i] = make([]T, v.Layout().Dim(1))
		for j := range out[i] {
			out[i][j] = v.At(i, j)
		}
	}
	return out
}
