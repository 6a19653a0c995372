package blasgo

import (
	"math"
	"unsafe"

	"github.com/lapis-go/lapis/internal/scalar"
)

// The pure-Go level-1 loops. A vector is the address of its element 0 and
// a signed stride in elements, so that a negative stride walks backwards
// from there (not BLAS's convention of a pointer to the lowest address;
// First0 converts).

// Dot returns sum_i op(x_i) y_i over n elements, op conjugating when
// conjX is set (a no-op for real types).
func Dot[T scalar.Type](n int, px unsafe.Pointer, sx int, py unsafe.Pointer, sy int, conjX bool) T {
	var s T
	if conjX {
		switch p := any(&s).(type) {
		case *complex64:
			re, im := dotcPairs[float32](n, px, sx, py, sy)
			*p = complex(re, im)
			return s
		case *complex128:
			re, im := dotcPairs[float64](n, px, sx, py, sy)
			*p = complex(re, im)
			return s
		}
	}
	if sx == 1 && sy == 1 {
		return dotUnit(unsafe.Slice((*T)(px), n), unsafe.Slice((*T)(py), n))
	}
	sz := int(unsafe.Sizeof(s))
	for i := 0; i < n; i++ {
		s += *(*T)(unsafe.Add(px, i*sx*sz)) * *(*T)(unsafe.Add(py, i*sy*sz))
	}
	return s
}

// dotUnit is sum_i x[i] y[i] over contiguous vectors with four partial
// sums, so that the additions do not wait on each other (one sum takes
// four times as long from n = 16 on).
func dotUnit[T scalar.Type](x, y []T) T {
	y = y[:len(x)]
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		xs, ys := x[i:i+4:i+4], y[i:i+4:i+4]
		s0 += xs[0] * ys[0]
		s1 += xs[1] * ys[1]
		s2 += xs[2] * ys[2]
		s3 += xs[3] * ys[3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// dotcPairs returns the real and imaginary parts of sum_i conj(x_i) y_i for
// complex elements stored as (re, im) pairs of F.
func dotcPairs[F float32 | float64](n int, px unsafe.Pointer, sx int, py unsafe.Pointer, sy int) (re, im F) {
	sz := 2 * int(unsafe.Sizeof(re))
	for i := 0; i < n; i++ {
		x := (*[2]F)(unsafe.Add(px, i*sx*sz))
		y := (*[2]F)(unsafe.Add(py, i*sy*sz))
		re += x[0]*y[0] + x[1]*y[1]
		im += x[0]*y[1] - x[1]*y[0]
	}
	return re, im
}

// Axpy computes y_i += alpha op(x_i) over n elements, op conjugating
// when conjX is set (a no-op for real types).
func Axpy[T scalar.Type](n int, alpha T, px unsafe.Pointer, sx int, py unsafe.Pointer, sy int, conjX bool) {
	if conjX {
		switch a := any(alpha).(type) {
		case complex64:
			axpycPairs(n, real(a), imag(a), px, sx, py, sy)
			return
		case complex128:
			axpycPairs(n, real(a), imag(a), px, sx, py, sy)
			return
		}
	}
	if sx == 1 && sy == 1 {
		x, y := unsafe.Slice((*T)(px), n), unsafe.Slice((*T)(py), n)
		for i, v := range x {
			y[i] += alpha * v
		}
		return
	}
	sz := int(unsafe.Sizeof(alpha))
	for i := 0; i < n; i++ {
		*(*T)(unsafe.Add(py, i*sy*sz)) += alpha * *(*T)(unsafe.Add(px, i*sx*sz))
	}
}

// axpycPairs computes y_i += alpha conj(x_i) for complex elements stored
// as (re, im) pairs of F, alpha = ar + i ai.
func axpycPairs[F float32 | float64](n int, ar, ai F, px unsafe.Pointer, sx int, py unsafe.Pointer, sy int) {
	sz := 2 * int(unsafe.Sizeof(ar))
	for i := 0; i < n; i++ {
		x := (*[2]F)(unsafe.Add(px, i*sx*sz))
		y := (*[2]F)(unsafe.Add(py, i*sy*sz))
		x0, x1 := x[0], x[1] // before y is written: x may be y (Axpy(a, y.Conj(), y))
		y[0] += ar*x0 + ai*x1
		y[1] += ai*x0 - ar*x1
	}
}

// Scal computes x_i *= alpha over n elements the way OpenBLAS 0.3.21's
// ?scal kernels do, so that both paths give the same special values: alpha
// = 0 stores zeros (x is not read: NaN and Inf become 0), and a complex
// alpha with a zero part multiplies by the other part alone (alpha = 2
// turns (Inf, 0) into (Inf, 0), not the (Inf, NaN) of a full complex
// product). TestScalSpecial holds the two paths to this.
func Scal[T scalar.Type](n int, alpha T, px unsafe.Pointer, sx int) {
	switch a := any(alpha).(type) {
	case complex64:
		scalPairs(n, real(a), imag(a), px, sx)
		return
	case complex128:
		scalPairs(n, real(a), imag(a), px, sx)
		return
	}
	if sx == 1 {
		x := unsafe.Slice((*T)(px), n)
		if alpha == 0 {
			clear(x)
			return
		}
		for i := range x {
			x[i] *= alpha
		}
		return
	}
	sz := int(unsafe.Sizeof(alpha))
	if alpha == 0 {
		for i := 0; i < n; i++ {
			*(*T)(unsafe.Add(px, i*sx*sz)) = 0
		}
		return
	}
	for i := 0; i < n; i++ {
		*(*T)(unsafe.Add(px, i*sx*sz)) *= alpha
	}
}

// scalPairs is Scal for complex elements stored as (re, im) pairs of F,
// alpha = ar + i ai.
func scalPairs[F float32 | float64](n int, ar, ai F, px unsafe.Pointer, sx int) {
	step := 2 * sx * int(unsafe.Sizeof(ar))
	switch {
	case ar == 0 && ai == 0:
		for i := 0; i < n; i++ {
			*(*[2]F)(unsafe.Add(px, i*step)) = [2]F{}
		}
	case ai == 0:
		for i := 0; i < n; i++ {
			x := (*[2]F)(unsafe.Add(px, i*step))
			x[0], x[1] = ar*x[0], ar*x[1]
		}
	case ar == 0:
		for i := 0; i < n; i++ {
			x := (*[2]F)(unsafe.Add(px, i*step))
			x[0], x[1] = -ai*x[1], ai*x[0]
		}
	default:
		for i := 0; i < n; i++ {
			x := (*[2]F)(unsafe.Add(px, i*step))
			x[0], x[1] = ar*x[0]-ai*x[1], ar*x[1]+ai*x[0]
		}
	}
}

// Nrm2 is the Euclidean norm of n elements, without overflow or
// harmful underflow, as BLAS computes it: NaN if an element has a NaN
// part, otherwise +Inf if one has an infinite part. float32 and complex64
// parts are squared and summed in float64, where they can neither
// overflow nor underflow, and the result is rounded to float32 as the
// library's is. float64 parts are summed as plain squares first; only
// when that sum is not a finite number well above the underflow range
// (NaN, Inf, huge or tiny elements) are they summed again, scaled, as
// gonum's Dnrm2 and reference BLAS do.
func Nrm2[T scalar.Type](n int, px unsafe.Pointer, sx int) float64 {
	var z T
	switch any(z).(type) {
	case float32:
		return float64(float32(math.Sqrt(sumSquares32(n, px, sx, 1))))
	case complex64:
		return float64(float32(math.Sqrt(sumSquares32(n, px, sx, 2))))
	case float64:
		return nrm2Float64(n, px, sx, 1)
	}
	return nrm2Float64(n, px, sx, 2)
}

// nrm2Safe is the smallest plain sum of squares nrm2Float64 trusts: each
// square that underflows is off by at most 2^-1075, so n of them change a
// sum above 2^-960 by less than half an ulp for any n below 2^62.
const nrm2Safe = 0x1p-960

// sumSquares32 is the sum of the squares of the parts (1 or 2 per
// element) of n elements of float32 parts, in float64.
func sumSquares32(n int, px unsafe.Pointer, sx, parts int) float64 {
	if parts == 1 && sx == 1 {
		x := unsafe.Slice((*float32)(px), n)
		var s0, s1, s2, s3 float64
		i := 0
		for ; i+4 <= n; i += 4 {
			xs := x[i : i+4 : i+4]
			a, b, c, d := float64(xs[0]), float64(xs[1]), float64(xs[2]), float64(xs[3])
			s0 += a * a
			s1 += b * b
			s2 += c * c
			s3 += d * d
		}
		for ; i < n; i++ {
			a := float64(x[i])
			s0 += a * a
		}
		return (s0 + s1) + (s2 + s3)
	}
	// Parts are read one float at a time: a *[2]float32 over a real
	// element would reach past it (checkptr refuses that).
	step := sx * parts * 4
	var s0, s1 float64
	for i := 0; i < n; i++ {
		p := unsafe.Add(px, i*step)
		re := float64(*(*float32)(p))
		s0 += re * re
		if parts == 2 {
			im := float64(*(*float32)(unsafe.Add(p, 4)))
			s1 += im * im
		}
	}
	return s0 + s1
}

// nrm2Float64 is Nrm2 for elements of parts (1 or 2) float64 values.
func nrm2Float64(n int, px unsafe.Pointer, sx, parts int) float64 {
	var s float64
	if parts == 1 && sx == 1 {
		x := unsafe.Slice((*float64)(px), n)
		var s0, s1, s2, s3 float64
		i := 0
		for ; i+4 <= n; i += 4 {
			xs := x[i : i+4 : i+4]
			s0 += xs[0] * xs[0]
			s1 += xs[1] * xs[1]
			s2 += xs[2] * xs[2]
			s3 += xs[3] * xs[3]
		}
		for ; i < n; i++ {
			s0 += x[i] * x[i]
		}
		s = (s0 + s1) + (s2 + s3)
	} else {
		step := sx * parts * 8
		var s0, s1 float64
		for i := 0; i < n; i++ {
			p := unsafe.Add(px, i*step)
			re := *(*float64)(p)
			s0 += re * re
			if parts == 2 {
				im := *(*float64)(unsafe.Add(p, 8))
				s1 += im * im
			}
		}
		s = s0 + s1
	}
	if s >= nrm2Safe && s <= math.MaxFloat64 {
		return math.Sqrt(s)
	}
	return nrm2Scaled(n, px, sx, parts)
}

// nrm2Scaled is the Euclidean norm by a scaled sum of squares (gonum's
// Dnrm2): scale is the largest |part| so far and ssq the sum of the
// squares of |part|/scale.
func nrm2Scaled(n int, px unsafe.Pointer, sx, parts int) float64 {
	scale, ssq := 0.0, 1.0
	for k := 0; k < n*parts; k++ {
		v := *(*float64)(unsafe.Add(px, ((k/parts)*sx*parts+k%parts)*8))
		if v == 0 {
			continue
		}
		a := math.Abs(v)
		if math.IsNaN(a) {
			return math.NaN()
		}
		if scale < a {
			r := scale / a
			ssq = 1 + ssq*r*r
			scale = a
		} else {
			r := a / scale
			ssq += r * r
		}
	}
	if math.IsInf(scale, 1) {
		return math.Inf(1)
	}
	return scale * math.Sqrt(ssq)
}

// Iamax is the index of the largest |Re| + |Im| over n elements by the
// rule of reference BLAS (and gonum): the first index whose measure
// exceeds that of every element before it, starting from element 0. A NaN
// is therefore the answer only at index 0; elsewhere it never compares
// greater and is passed over. It dispatches on T once, not per element.
func Iamax[T scalar.Type](n int, px unsafe.Pointer, sx int) int {
	var z T
	switch any(z).(type) {
	case float32:
		return iamaxParts[float32](n, px, sx, 1)
	case float64:
		return iamaxParts[float64](n, px, sx, 1)
	case complex64:
		return iamaxParts[float32](n, px, sx, 2)
	}
	return iamaxParts[float64](n, px, sx, 2)
}

// iamaxParts is Iamax over elements of parts values of F each (1 for a
// real type, 2 for a complex one), measured by the sum of their moduli.
func iamaxParts[F float32 | float64](n int, px unsafe.Pointer, sx, parts int) int {
	var f F
	step := sx * parts * int(unsafe.Sizeof(f))
	measure := func(p unsafe.Pointer) F {
		re := *(*F)(p)
		m := max(re, -re)
		if parts == 2 {
			im := *(*F)(unsafe.Add(p, unsafe.Sizeof(f)))
			m += max(im, -im)
		}
		return m
	}
	best, arg := measure(px), 0
	for i := 1; i < n; i++ {
		if a := measure(unsafe.Add(px, i*step)); a > best {
			best, arg = a, i
		}
	}
	return arg
}

// First0 returns the address of element 0 of a BLAS vector given as its
// lowest address p and increment inc (negative: element 0 is the last in
// memory), n >= 1.
func First0[T scalar.Type](p unsafe.Pointer, n, inc int) unsafe.Pointer {
	if inc >= 0 {
		return p
	}
	var z T
	return unsafe.Add(p, (n-1)*(-inc)*int(unsafe.Sizeof(z)))
}
