// Package finite is the finite-input rule's scan, shared by package
// lapack's helpers and in-place routines and by package batch per matrix
// ("NaN and Inf" in package lapack): which operand of a computation holds
// a NaN or an infinity where the computation reads it, and which element.
// The callers turn what it finds into their error (an *lapack.Error
// matching lapis.ErrNotFinite).
package finite

import (
	"fmt"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// Overflow is the rule's explanation for a result that came out with a
// NaN from input the scan found finite; the error names "result".
const Overflow = "NaN from finite input (an overflow inside LAPACK)"

// Input is an operand a computation reads: all of V, or its triangle Tri
// ('L' or 'U') of a square matrix. Name is the argument's name.
type Input[T scalar.Type] struct {
	Name string
	V    views.View[T]
	Tri  byte
}

// All is the input v, read whole.
func All[T scalar.Type](name string, v views.View[T]) Input[T] { return Input[T]{Name: name, V: v} }

// Finite reports whether in holds no NaN or infinity where it is read. It
// scans along the contiguous axis (scalar.MatrixFinite), stopping at the
// first column or row that holds one; nothing is copied or allocated. A
// view that is not of rank 1 or 2 is not scanned (its rank is an argument
// error).
func (in *Input[T]) Finite() bool {
	data, l, _ := in.V.Ref() // nothing copied: a View and its Layout are large values
	shape, strides := l.Axes()
	switch len(shape) {
	case 1:
		return scalar.MatrixFinite(data, l.Origin(), strides[0], 0, shape[0], 1, 0)
	case 2:
		return scalar.MatrixFinite(data, l.Origin(), strides[0], strides[1], shape[0], shape[1], in.Tri)
	}
	return true
}

// First scans ins, each once, and returns the name of the first that
// holds a NaN or an infinity where it is read and a sentence naming its
// first such element (column-major order); found is false when all are
// finite.
func First[T scalar.Type](ins ...Input[T]) (name, detail string, found bool) {
	for i := range ins {
		if !ins[i].Finite() {
			if d := ins[i].where(); d != "" {
				return ins[i].Name, d, true
			}
		}
	}
	return "", "", false
}

// where names in's first NaN or infinity, "" when it has none. It runs
// once the scan has found one, and reads element by element.
func (in *Input[T]) where() string {
	v := in.V
	if v.Rank() == 1 {
		v, _ = v.Reshape(v.Len(), 1)
	}
	if v.Rank() != 2 || v.Len() == 0 {
		return ""
	}
	rows, cols := v.Layout().Dim(0), v.Layout().Dim(1)
	for j := range cols {
		i0, i1 := 0, rows
		switch in.Tri {
		case 'L':
			i0 = j
		case 'U':
			i1 = min(j+1, rows)
		}
		for i := i0; i < i1; i++ {
			if x := v.At(i, j); !scalar.IsFinite(x) {
				at := fmt.Sprintf("element (%d, %d)", i, j)
				if in.V.Rank() == 1 {
					at = fmt.Sprintf("element %d", i)
				}
				return fmt.Sprintf("%s is %v; the computation needs finite numbers", at, x)
			}
		}
	}
	return ""
}
