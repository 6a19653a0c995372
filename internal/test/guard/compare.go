package guard

import (
	"fmt"
	"math"
	"math/cmplx"
	"reflect"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// Compare returns an error unless got and want hold the same values: equal
// numbers within tol relative to the largest magnitude of want (at least
// 1), NaN where want has NaN. Numbers, slices of numbers, views and
// tensors of the four element types are compared by value (a view
// through its logical elements), []any element by element, anything else
// by its fmt.Sprint form.
func Compare(what string, got, want any, tol float64) error {
	gv, gs, gok := flatten(got)
	wv, ws, wok := flatten(want)
	if gok && wok {
		if fmt.Sprint(gs) != fmt.Sprint(ws) {
			return fmt.Errorf("%s: shape %v, want %v", what, gs, ws)
		}
		return closeEnough(what, gv, wv, tol)
	}
	if ga, ok := got.([]any); ok {
		wa, ok := want.([]any)
		if !ok || len(ga) != len(wa) {
			return fmt.Errorf("%s: %d results, want %d", what, len(ga), len(wa))
		}
		for i := range ga {
			if err := Compare(fmt.Sprintf("%s[%d]", what, i), ga[i], wa[i], tol); err != nil {
				return err
			}
		}
		return nil
	}
	if g, w := fmt.Sprint(got), fmt.Sprint(want); g != w {
		return fmt.Errorf("%s: %s, want %s", what, g, w)
	}
	return nil
}

// closeEnough compares two equally long lists of numbers.
func closeEnough(what string, got, want []complex128, tol float64) error {
	scale := 1.0
	for _, w := range want {
		if a := cmplx.Abs(w); a > scale && !math.IsInf(a, 0) {
			scale = a
		}
	}
	for i := range want {
		g, w := got[i], want[i]
		if cmplx.IsNaN(w) || cmplx.IsNaN(g) {
			if cmplx.IsNaN(w) != cmplx.IsNaN(g) {
				return fmt.Errorf("%s: element %d is %v, want %v", what, i, g, w)
			}
			continue
		}
		if g == w {
			continue // equal infinities too
		}
		if d := cmplx.Abs(g - w); !(d <= tol*scale) {
			return fmt.Errorf("%s: element %d is %v, want %v (difference %.3g > %.3g)", what, i, g, w, d, tol*scale)
		}
	}
	return nil
}

// flatten turns x into a list of numbers and a shape, if it is numeric.
func flatten(x any) (vals []complex128, shape []int, ok bool) {
	if v, s, ok := flattenT[float32](x); ok {
		return v, s, true
	}
	if v, s, ok := flattenT[float64](x); ok {
		return v, s, true
	}
	if v, s, ok := flattenT[complex64](x); ok {
		return v, s, true
	}
	if v, s, ok := flattenT[complex128](x); ok {
		return v, s, true
	}
	if x == nil {
		return nil, nil, false
	}
	rv := reflect.ValueOf(x)
	if c, ok := number(rv); ok {
		return []complex128{c}, nil, true
	}
	if rv.Kind() == reflect.Slice {
		if _, ok := number(reflect.Zero(rv.Type().Elem())); !ok {
			return nil, nil, false
		}
		vals = make([]complex128, rv.Len())
		for i := range vals {
			vals[i], _ = number(rv.Index(i))
		}
		return vals, []int{len(vals)}, true
	}
	return nil, nil, false
}

// number converts a numeric reflect.Value to complex128.
func number(v reflect.Value) (complex128, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return complex(float64(v.Int()), 0), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return complex(float64(v.Uint()), 0), true
	case reflect.Float32, reflect.Float64:
		return complex(v.Float(), 0), true
	case reflect.Complex64, reflect.Complex128:
		return v.Complex(), true
	}
	return 0, false
}

// flattenT flattens a view or tensor of T (logical elements, column-major).
func flattenT[T views.Scalar](x any) ([]complex128, []int, bool) {
	var v views.View[T]
	switch y := x.(type) {
	case views.View[T]:
		v = y
	case *views.Tensor[T]:
		if y == nil {
			return nil, []int{}, true
		}
		v = y.View()
	default:
		return nil, nil, false
	}
	t := v.ToColMajor()
	defer t.Release()
	vals := make([]complex128, t.Len())
	for i, e := range t.Data() {
		vals[i] = scalar.Complex128(e)
	}
	return vals, v.Shape(), true
}

func fromComplex[T views.Scalar](c complex128) T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(real(c))
	case *float64:
		*p = real(c)
	case *complex64:
		*p = complex64(c)
	case *complex128:
		*p = c
	}
	return z
}
