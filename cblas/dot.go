package cblas

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/pool"
)

// The pure-Go level-1 loops, shared by the view-level routines (Dot,
// Axpy, Iamax) and the gonum adapter. A vector is the address of its
// element 0 and a signed stride in elements, so that a negative stride
// walks backwards from there (not BLAS's convention of a pointer to the
// lowest address).

// complexStridedDot reports whether a dot product of n elements of T with
// increments incX and incY must be computed in Go rather than by the
// library. OpenBLAS 0.3.21's cblas_{c,z}dot{u,c}_sub (kernel/x86_64/zdot.c,
// with the Haswell, Sandybridge, Zen and SkylakeX kernels) read one
// element beyond the vector whenever its increment is not 1: above the
// last element for a positive increment, below the lowest for a negative
// one, and that address may not be mapped (a SIGSEGV seen in lapis's own
// suite; shown by guard_test.go with mmap guard pages). lapis never hands
// such a call to the library, whatever its version: a strided vector is
// memory-bound, so the Go loop costs little against the kernel's strided
// path.
func complexStridedDot[T Scalar](n, incX, incY int) bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return n > 1 && (incX != 1 || incY != 1)
	}
	return false
}

// dotGo returns sum_i op(x_i) y_i over n elements, op conjugating when
// conjX is set (a no-op for real types).
func dotGo[T Scalar](n int, px unsafe.Pointer, sx int, py unsafe.Pointer, sy int, conjX bool) T {
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
	sz := int(unsafe.Sizeof(s))
	for i := 0; i < n; i++ {
		s += *(*T)(unsafe.Add(px, i*sx*sz)) * *(*T)(unsafe.Add(py, i*sy*sz))
	}
	return s
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

// axpyGo computes y_i += alpha x_i over n elements.
func axpyGo[T Scalar](n int, alpha T, px unsafe.Pointer, sx int, py unsafe.Pointer, sy int) {
	sz := int(unsafe.Sizeof(alpha))
	for i := 0; i < n; i++ {
		*(*T)(unsafe.Add(py, i*sy*sz)) += alpha * *(*T)(unsafe.Add(px, i*sx*sz))
	}
}

// iamaxGo is the index of the largest |Re| + |Im| over n elements by the
// rule of reference BLAS (and gonum): the first index whose measure
// exceeds that of every element before it, starting from element 0. A NaN
// is therefore the answer only at index 0; elsewhere it never compares
// greater and is passed over. It dispatches on T once, not per element.
func iamaxGo[T Scalar](n int, px unsafe.Pointer, sx int) int {
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

// iamaxParts is iamaxGo over elements of parts values of F each (1 for a
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

// first0 returns the address of element 0 of a BLAS vector given as its
// lowest address p and increment inc (negative: element 0 is the last in
// memory), n >= 1.
func first0[T Scalar](p unsafe.Pointer, n, inc int) unsafe.Pointer {
	if inc >= 0 {
		return p
	}
	var z T
	return unsafe.Add(p, (n-1)*(-inc)*int(unsafe.Sizeof(z)))
}

// Complex level-2 kernels that read past their vectors. OpenBLAS 0.3.21's
// Haswell kernels do, found by guard_test.go with mmap guard pages:
// cgemv_n/zgemv_n (a column-major a, BLAS "N") read x one increment step
// beyond its last element (below the first for a negative increment),
// chemv reads x and zhemv y one element past the end; LAPACK's own calls
// into them (clarf, clauu2) do the same on its operands (lapack's
// operands keep slack for that). lapis hands these kernels its vectors
// in pooled buffers with overReadSpare elements to spare after them, at
// unit stride: O(n) copies against the O(n^2) of the product, done for
// every complex call whatever the library version (no count, no strict
// refusal: they are not layout copies).

const overReadSpare = 4

// padIn copies the n elements of the BLAS vector v into a pooled buffer,
// in BLAS's order, and returns it as a unit-stride vector.
func padIn[T Scalar](v vec, n int) (vec, *pool.Buf[T]) {
	b := pool.Get[T](n + overReadSpare)
	clear(b.Data[n:])
	forBLAS[T](v, n, func(i int, p *T) { b.Data[i] = *p })
	return vec{ptr: unsafe.Pointer(&b.Data[0]), inc: 1, n: n}, b
}

// padOut copies the padded vector b back into the BLAS vector dst and
// returns b to the pool.
func padOut[T Scalar](dst vec, n int, b *pool.Buf[T]) {
	forBLAS[T](dst, n, func(i int, p *T) { *p = b.Data[i] })
	pool.Put(b)
}

// forBLAS calls f with element i of the BLAS vector v (lowest address
// v.ptr, increment v.inc: a negative increment starts from the end).
func forBLAS[T Scalar](v vec, n int, f func(i int, p *T)) {
	var z T
	sz, inc := int(unsafe.Sizeof(z)), int(v.inc)
	p0 := first0[T](v.ptr, n, inc)
	for i := 0; i < n; i++ {
		f(i, (*T)(unsafe.Add(p0, i*inc*sz)))
	}
}
