package views

import (
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/internal/test/oracle"
	"github.com/lapis-go/lapis/layout"
)

// The oracle here computes every offset by hand (offset + sum of i_k*s_k)
// from the strides it chose, never through the code under test.

func handOffset(idx, strides []int, offset int) int {
	for k := range idx {
		offset += idx[k] * strides[k]
	}
	return offset
}

// handSpan returns the lowest and highest reachable offsets; ok false if
// the shape has no elements.
func handSpan(shape, strides []int, offset int) (lo, hi int, ok bool) {
	lo, hi, ok = offset, offset, true
	oracle.ForEach(shape, func(idx []int) {
		o := handOffset(idx, strides, offset)
		lo, hi = min(lo, o), max(hi, o)
	})
	return lo, hi, oracle.Count(shape) > 0
}

func FuzzFromSlice(f *testing.F) {
	f.Add([]byte{2, 3, 1, 2, 2, 0, 7})
	f.Add([]byte{3, 2, 250, 3, 4, 1, 1, 9, 20})
	f.Fuzz(func(t *testing.T, b []byte) { checkFromSlice(t, &oracle.Source{B: b}) })
}

func checkFromSlice(t *testing.T, s *oracle.Source) {
	rank := s.In(0, 4)
	shape, strides := make([]int, rank), make([]int, rank)
	for k := range shape {
		shape[k], strides[k] = s.In(0, 4), s.In(-6, 6)
	}
	offset := s.In(-4, 30)
	n := s.In(0, 40)
	data := make([]float64, n)
	for i := range data {
		data[i] = float64(i)
	}
	l, err := layout.New(shape, strides, offset)
	if err != nil {
		t.Fatalf("layout.New: %v", err)
	}
	lo, hi, any := handSpan(shape, strides, offset)
	inside := !any || (lo >= 0 && hi < n)
	v, err := FromSlice(data, l)
	if (err == nil) != inside {
		t.Fatalf("FromSlice(len %d, %v): err = %v, oracle inside = %v", n, l, err, inside)
	}
	if err != nil {
		return
	}
	oracle.ForEach(shape, func(idx []int) {
		if got, want := v.At(idx...), data[handOffset(idx, strides, offset)]; got != want {
			t.Fatalf("%v At%v = %v, want %v", l, idx, got, want)
		}
	})
	// Matrix2 is the layout's Matrix with the address of element (0, 0).
	m, first, conj, ok := v.Matrix2()
	wm, wok := l.Matrix()
	wok = wok && rank == 2
	var want *float64
	if wok && v.Len() > 0 {
		want = &data[offset]
	}
	if ok != wok || conj || first != want || (ok && m != wm) {
		t.Fatalf("%v Matrix2 = %+v, %p, %v, %v; want %+v, %p, false, %v", l, m, first, conj, ok, wm, want, wok)
	}
	// Vector1 is the rank-1 layout's extent and stride with the address
	// of element 0.
	vn, vs, vfirst, vconj, vok := v.Vector1()
	var wfirst *float64
	if rank == 1 && v.Len() > 0 {
		wfirst = &data[offset]
	}
	if vok != (rank == 1) || vconj || vfirst != wfirst || (vok && (vn != shape[0] || vs != strides[0])) {
		t.Fatalf("%v Vector1 = %d, %d, %p, %v, %v", l, vn, vs, vfirst, vconj, vok)
	}
}

func FuzzCopy(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 0, 1, 0, 1, 2, 3, 4})
	f.Add([]byte{3, 3, 3, 3, 1, 2, 200, 1, 0, 0, 5, 5, 5, 1, 1})
	f.Add([]byte{2, 4, 4, 9, 1, 1, 1, 1, 3, 3, 7, 7})
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &oracle.Source{B: b}
		switch s.Next() % 4 {
		case 0:
			checkCopy[float32](t, s)
		case 1:
			checkCopy[float64](t, s)
		case 2:
			checkCopy[complex64](t, s)
		default:
			checkCopy[complex128](t, s)
		}
	})
}

func TestCopyAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, 48)
	for i := 0; i < 5000; i++ {
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		s := &oracle.Source{B: b}
		checkCopy[float64](t, s)
		checkCopy[complex128](t, s)
		checkCopy[float32](t, s)
		checkCopy[complex64](t, s)
		checkFromSlice(t, &oracle.Source{B: b})
	}
}

// fuzzValue is x as T (with an imaginary part -x-1000 for complex T).
func fuzzValue[T Scalar](x int) T {
	var out any
	switch any(*new(T)).(type) {
	case float32:
		out = float32(x)
	case float64:
		out = float64(x)
	case complex64:
		out = complex(float32(x), float32(-x-1000))
	default:
		out = complex(float64(x), float64(-x-1000))
	}
	return out.(T)
}

// randomStrides returns strides for shape that never overlap: a random
// permutation of compact strides, spread by gaps, some negated, and the
// offset that keeps the lowest offset at pad.
func randomStrides(s *oracle.Source, shape []int, pad int) ([]int, int) {
	rank := len(shape)
	order := s.Perm(rank)
	strides := make([]int, rank)
	st := s.In(1, 2)
	for _, k := range order {
		strides[k] = st
		st *= max(shape[k], 1) + s.In(0, 1)
	}
	offset := pad
	for k := range strides {
		if s.Next()%3 == 0 {
			strides[k] = -strides[k]
			if shape[k] > 0 {
				offset += (shape[k] - 1) * -strides[k]
			}
		}
	}
	return strides, offset
}

func checkCopy[T Scalar](t *testing.T, s *oracle.Source) {
	rank := s.In(0, 6)
	shape := make([]int, rank)
	for k := range shape {
		shape[k] = s.In(0, 9)
	}
	for oracle.Count(shape) > 3000 { // keep each case small
		k := 0
		for i := range shape {
			if shape[i] > shape[k] {
				k = i
			}
		}
		shape[k] /= 2
	}
	dstStrides, dstOff := randomStrides(s, shape, s.In(0, 2))
	var srcStrides []int
	var srcOff int
	if s.Next()%4 == 0 { // arbitrary source strides, overlap and zero allowed
		srcStrides = make([]int, rank)
		for k := range srcStrides {
			srcStrides[k] = s.In(-3, 3)
		}
		lo, _, _ := handSpan(shape, srcStrides, 0)
		srcOff = -lo + s.In(0, 2)
	} else {
		srcStrides, srcOff = randomStrides(s, shape, s.In(0, 2))
	}
	alias := s.Next()%3 == 0
	dconj, sconj := s.Next()%2 == 0, s.Next()%2 == 0

	_, dhi, _ := handSpan(shape, dstStrides, dstOff)
	_, shi, _ := handSpan(shape, srcStrides, srcOff)
	sbuf := make([]T, shi+1+s.In(0, 2))
	for i := range sbuf {
		sbuf[i] = fuzzValue[T](i + 1)
	}
	dbuf := make([]T, dhi+1+s.In(0, 2))
	for i := range dbuf {
		dbuf[i] = fuzzValue[T](-7 - i) // must survive where dst does not reach
	}
	if alias {
		if len(sbuf) < len(dbuf) {
			sbuf = append(sbuf, dbuf[len(sbuf):]...)
		}
		dbuf = sbuf
	}
	before := append([]T(nil), dbuf...)
	srcSnap := append([]T(nil), sbuf...)

	dst := must(FromSlice(dbuf, must(layout.New(shape, dstStrides, dstOff))))
	sv := must(FromSlice(sbuf, must(layout.New(shape, srcStrides, srcOff))))
	if dconj {
		dst = dst.Conj()
	}
	if sconj {
		sv = sv.Conj()
	}
	if err := Copy(dst, sv); err != nil {
		t.Fatalf("Copy(%v, %v): %v", dst, sv, err)
	}
	want := before
	cf := conjFunc[T]()
	oracle.ForEach(shape, func(idx []int) {
		x := srcSnap[handOffset(idx, srcStrides, srcOff)]
		if dconj != sconj && cf != nil {
			x = cf(x)
		}
		want[handOffset(idx, dstStrides, dstOff)] = x
	})
	for i := range dbuf {
		if dbuf[i] != want[i] {
			t.Fatalf("Copy(%v, %v) alias %v: dst buffer[%d] = %v, want %v\ngot  %v\nwant %v", dst, sv, alias, i, dbuf[i], want[i], dbuf, want)
		}
	}
	// ToColMajor of the source (as it is now) agrees with the oracle too.
	tc := sv.ToColMajor()
	k := 0
	oracle.ForEach(shape, func(idx []int) {
		x := sbuf[handOffset(idx, srcStrides, srcOff)]
		if sconj && cf != nil {
			x = cf(x)
		}
		if tc.Data()[k] != x {
			t.Fatalf("ToColMajor(%v)[%d] = %v, want %v", sv, k, tc.Data()[k], x)
		}
		k++
	})
}
