package elem

import (
	"math"
	"math/cmplx"
	"unsafe"

	"github.com/lapis-go/lapis/internal/kernel/ew"
	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/internal/scalar"
)

// The element-wise kernels. A kernel call covers one line of the plan:
// n elements of the destination and its sources at byte strides. A line
// contiguous in every operand with nothing to conjugate runs as plain
// slice loops, one per operation (the switch is outside the loop);
// anything else runs the strided loops, which read conjugated sources and
// repeated (stride 0) ones.

// opcode is an element-wise operation.
type opcode uint8

const (
	opFill  opcode = iota // d = alpha
	opScale               // d = alpha*a
	opNeg                 // d = -a
	opAbs                 // d = |a|
	opMap                 // d = f(a)
	opAdd                 // d = a + b
	opSub                 // d = a - b
	opMul                 // d = a * b
	opDiv                 // d = a / b
	opMax                 // d = max(a, b), NaN propagating
	opMin                 // d = min(a, b), NaN propagating
	opAxpby               // d = alpha*a + beta*b
	opZip                 // d = f(a, b)
	opNorm2               // d = normFinish(a, b): a 2-norm from its scale a and scaled sum of squares b
	opLin3                // d = alpha*a + beta*b + gamma*c
	opProg                // d = an expression's program (expr.go) over nprog sources
	opPow                 // d = a^pow (pow >= 1), by repeated squaring
)

// arity is the number of sources op reads.
func (op opcode) arity() int {
	switch {
	case op == opFill:
		return 0
	case op < opAdd:
		return 1
	case op == opLin3:
		return 3
	case op == opPow:
		return 1
	}
	return 2
}

// kern is an operation with its parameters: the scalars, the sources
// read conjugated (complex types only; index 1 and 2), whether the result
// is stored conjugated (Map and Zip into a conjugated view; the other
// operations conjugate their sources and scalars instead), and the
// function of Map and Zip.
type kern[T Scalar] struct {
	op                 opcode
	alpha, beta, gamma T
	conj               [loop.MaxOps]bool
	conjOut            bool
	f1                 func(T) T
	f2                 func(T, T) T
	nprog              int // opProg's sources (the program travels apart: kernel.g)
	pow                int // opPow's exponent
}

// nsrc is the number of sources k reads.
func (k *kern[T]) nsrc() int {
	if k.op == opProg {
		return k.nprog
	}
	return k.op.arity()
}

// conjugated reports whether any operand needs conjugating.
func (k *kern[T]) conjugated() bool {
	return k.conjOut || k.conj[1] || k.conj[2] || k.conj[3]
}

// line runs k over n elements at p with byte strides s.
func (k *kern[T]) line(n int, p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int) {
	sz := int(unsafe.Sizeof(*new(T)))
	flat := s[0] == sz && !k.conjugated()
	for o := 1; o <= k.nsrc(); o++ {
		flat = flat && s[o] == sz
	}
	if flat {
		k.flat(n, p)
		return
	}
	k.strided(n, p, s)
}

// flat runs k over n contiguous elements.
func (k *kern[T]) flat(n int, p *[loop.MaxOps]unsafe.Pointer) {
	d := unsafe.Slice((*T)(p[0]), n)
	var a, b []T
	if k.op.arity() > 0 {
		a = unsafe.Slice((*T)(p[1]), n)
	}
	if k.op.arity() > 1 {
		b = unsafe.Slice((*T)(p[2]), n)
	}
	if simdLine(k.op, d, a, b, k.alpha, k.beta) {
		return
	}
	switch k.op {
	case opFill:
		x := k.alpha
		for i := range d {
			d[i] = x
		}
	case opScale:
		x := k.alpha
		a = a[:len(d)]
		for i := range d {
			d[i] = x * a[i]
		}
	case opNeg:
		a = a[:len(d)]
		for i := range d {
			d[i] = -a[i]
		}
	case opAbs:
		absLine(d, a)
	case opMap:
		f := k.f1
		a = a[:len(d)]
		for i := range d {
			d[i] = f(a[i])
		}
	case opAdd:
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = a[i] + b[i]
		}
	case opSub:
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = a[i] - b[i]
		}
	case opMul:
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = a[i] * b[i]
		}
	case opDiv:
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = a[i] / b[i]
		}
	case opMax, opMin:
		orderLine(k.op, d, a, b)
	case opAxpby:
		x, y := k.alpha, k.beta
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = T(x*a[i]) + T(y*b[i])
		}
	case opZip:
		f := k.f2
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = f(a[i], b[i])
		}
	case opNorm2:
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = normFinish(a[i], b[i])
		}
	case opPow:
		a = a[:len(d)]
		for i := range d {
			d[i] = power(a[i], k.pow)
		}
	case opLin3:
		c := unsafe.Slice((*T)(p[3]), n)
		x, y, z := k.alpha, k.beta, k.gamma
		a, b, c = a[:len(d)], b[:len(d)], c[:len(d)]
		for i := range d {
			d[i] = T(x*a[i]) + T(y*b[i]) + T(z*c[i])
		}
	}
}

// stridedChunk is the block of elements strided gathers at a time.
const stridedChunk = 32

// strided runs k over n elements at byte strides s (a source's may be
// 0: repeated), or with operands to conjugate: a block at a time, the
// sources gathered into buffers (conjugated where k says), k.flat over
// the block, the result conjugated where k says and scattered. One path
// for every operation: the arithmetic is flat's.
func (k *kern[T]) strided(n int, p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int) {
	var buf [loop.MaxOps][stridedChunk]T
	var q [loop.MaxOps]unsafe.Pointer
	for o := range q {
		q[o] = unsafe.Pointer(&buf[o][0])
	}
	for lo := 0; lo < n; lo += stridedChunk {
		m := min(stridedChunk, n-lo)
		for o := 1; o <= k.nsrc(); o++ {
			x, src, st := buf[o][:m], p[o], s[o]
			for i := range x {
				x[i] = *(*T)(unsafe.Add(src, (lo+i)*st))
			}
			if k.conj[o] {
				conjLine(x)
			}
		}
		k.flat(m, &q)
		d := buf[0][:m]
		if k.conjOut {
			conjLine(d)
		}
		for i, x := range d {
			*(*T)(unsafe.Add(p[0], (lo+i)*s[0])) = x
		}
	}
}

// absLine sets d[i] = |a[i]| (for complex types, |a[i]| + 0i).
func absLine[T Scalar](d, a []T) {
	switch d := any(d).(type) {
	case []float32:
		a := any(a).([]float32)[:len(d)]
		for i := range d {
			d[i] = float32(math.Abs(float64(a[i])))
		}
	case []float64:
		a := any(a).([]float64)[:len(d)]
		for i := range d {
			d[i] = math.Abs(a[i])
		}
	case []complex64:
		a := any(a).([]complex64)[:len(d)]
		for i := range d {
			d[i] = complex(float32(cmplx.Abs(complex128(a[i]))), 0)
		}
	case []complex128:
		a := any(a).([]complex128)[:len(d)]
		for i := range d {
			d[i] = complex(cmplx.Abs(a[i]), 0)
		}
	}
}

// orderLine sets d[i] = max(a[i], b[i]) or min (op); NaN propagates, as
// in numpy's maximum and minimum. T is real (realOnly checked it).
func orderLine[T Scalar](op opcode, d, a, b []T) {
	switch d := any(d).(type) {
	case []float32:
		orderReal(op, d, any(a).([]float32), any(b).([]float32))
	case []float64:
		orderReal(op, d, any(a).([]float64), any(b).([]float64))
	}
}

func orderReal[F Real](op opcode, d, a, b []F) {
	a, b = a[:len(d)], b[:len(d)]
	if op == opMax {
		for i := range d {
			d[i] = max(a[i], b[i])
		}
		return
	}
	for i := range d {
		d[i] = min(a[i], b[i])
	}
}

// simdLine runs the arithmetic op on a contiguous line in assembly
// (internal/kernel/ew: AVX2, bit-identical to the Go loops) and reports
// true, or reports false when there is none for op, T or this CPU.
func simdLine[T Scalar](op opcode, d, a, b []T, alpha, beta T) bool {
	if !ew.Fast() || len(d) < 8 {
		return false
	}
	switch d := any(d).(type) {
	case []float64:
		a, b := any(a).([]float64), any(b).([]float64)
		al, be := *(*float64)(unsafe.Pointer(&alpha)), *(*float64)(unsafe.Pointer(&beta))
		switch op {
		case opAdd, opSub, opMul, opDiv:
			return ew.Binary64(ew.Op(op-opAdd), d, a, b)
		case opAxpby:
			return ew.Axpby64(d, a, b, al, be)
		case opScale:
			return ew.Scale64(d, a, al)
		}
	case []float32:
		a, b := any(a).([]float32), any(b).([]float32)
		al, be := *(*float32)(unsafe.Pointer(&alpha)), *(*float32)(unsafe.Pointer(&beta))
		switch op {
		case opAdd, opSub, opMul, opDiv:
			return ew.Binary32(ew.Op(op-opAdd), d, a, b)
		case opAxpby:
			return ew.Axpby32(d, a, b, al, be)
		case opScale:
			return ew.Scale32(d, a, al)
		}
	}
	return false
}

// conjLine conjugates x in place (complex types).
func conjLine[T Scalar](x []T) {
	for i := range x {
		x[i] = scalar.Conj(x[i])
	}
}

// absOf is |x| for one element (absLine's rule).
func absOf[T Scalar](x T) T {
	d := [1]T{}
	absLine(d[:], []T{x})
	return d[0]
}

// orderOf is max(x, y) or min (orderLine's rule) for one element.
func orderOf[T Scalar](op opcode, x, y T) T {
	d := [1]T{}
	orderLine(op, d[:], []T{x}, []T{y})
	return d[0]
}
