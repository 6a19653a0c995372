// Package ew holds the SIMD lines of package elem's arithmetic: d = a op
// b, d = alpha*a + beta*b and d = alpha*a over n contiguous float64 or
// float32 values. There are two sets, in amd64 assembly: AVX-512 (ZMM
// registers, the last values under an opmask) where the CPU has AVX-512
// F, DQ and VL, else AVX2 (YMM registers, the last values one at a
// time) where it has AVX2; SetAVX512 switches between them. Elsewhere,
// and with -tags purego, the lines report false and the caller runs its
// Go loop. Each line is the Go loop's arithmetic, one IEEE operation per
// step and no fused multiply-add, so that both sets and the Go loops give
// bit-identical results.
package ew

// Op is an arithmetic operation of Binary.
type Op uint8

const (
	Add Op = iota
	Sub
	Mul
	Div
)

// Fast reports whether the lines run in assembly on this CPU.
func Fast() bool { return fast }

// SetAVX512 makes the lines run in AVX-512 (on, where the CPU has it) or
// in AVX2 (off), and returns the previous setting: a seam for the tests
// and benchmarks that compare the two. It must not be called while a line
// runs.
func SetAVX512(on bool) (prev bool) {
	prev, wide = wide, on && avx512
	return prev
}

// Binary64 sets d[i] = a[i] op b[i] for i < len(d) (a and b at least as
// long) and reports true, or reports false (doing nothing) when there is
// no assembly for it here: the caller runs its Go loop.
func Binary64(op Op, d, a, b []float64) bool {
	if !fast || len(d) == 0 {
		return false
	}
	a, b = a[:len(d)], b[:len(d)]
	switch op {
	case Add:
		add64(&d[0], &a[0], &b[0], len(d))
	case Sub:
		sub64(&d[0], &a[0], &b[0], len(d))
	case Mul:
		mul64(&d[0], &a[0], &b[0], len(d))
	case Div:
		div64(&d[0], &a[0], &b[0], len(d))
	}
	return true
}

// Binary32 is Binary64 for float32.
func Binary32(op Op, d, a, b []float32) bool {
	if !fast || len(d) == 0 {
		return false
	}
	a, b = a[:len(d)], b[:len(d)]
	switch op {
	case Add:
		add32(&d[0], &a[0], &b[0], len(d))
	case Sub:
		sub32(&d[0], &a[0], &b[0], len(d))
	case Mul:
		mul32(&d[0], &a[0], &b[0], len(d))
	case Div:
		div32(&d[0], &a[0], &b[0], len(d))
	}
	return true
}

// Axpby64 sets d[i] = alpha*a[i] + beta*b[i], as Binary64.
func Axpby64(d, a, b []float64, alpha, beta float64) bool {
	if !fast || len(d) == 0 {
		return false
	}
	a, b = a[:len(d)], b[:len(d)]
	axpby64(&d[0], &a[0], &b[0], len(d), alpha, beta)
	return true
}

// Axpby32 is Axpby64 for float32.
func Axpby32(d, a, b []float32, alpha, beta float32) bool {
	if !fast || len(d) == 0 {
		return false
	}
	a, b = a[:len(d)], b[:len(d)]
	axpby32(&d[0], &a[0], &b[0], len(d), alpha, beta)
	return true
}

// Scale64 sets d[i] = alpha*a[i], as Binary64.
func Scale64(d, a []float64, alpha float64) bool {
	if !fast || len(d) == 0 {
		return false
	}
	a = a[:len(d)]
	scale64(&d[0], &a[0], len(d), alpha)
	return true
}

// Scale32 is Scale64 for float32.
func Scale32(d, a []float32, alpha float32) bool {
	if !fast || len(d) == 0 {
		return false
	}
	a = a[:len(d)]
	scale32(&d[0], &a[0], len(d), alpha)
	return true
}
