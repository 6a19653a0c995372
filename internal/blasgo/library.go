package blasgo

import (
	"math"
	"sync"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/coreset"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
)

// Library defects that give wrong answers or read past an operand, and
// what lapis does instead, decided from what lapis.Info and
// lapis.KernelSet report at run time. The crashes were found with mmap
// guard pages (cblas's guard_test.go).

// ComplexStridedDot reports whether a dot product of n elements of T with
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
func ComplexStridedDot[T scalar.Type](n, incX, incY int) bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return n > 1 && (incX != 1 || incY != 1)
	}
	return false
}

// CasumDefect says why the linked library's complex64 ?asum adds the
// wrong elements ("" when it does not: coreset.CasumDefect). Where it
// says so, AsumC and IamaxC compute complex64 sums in Go. It is a
// variable so that tests can force the Go sum.
var CasumDefect = sync.OnceValue(func() string {
	info := lapis.Info()
	return coreset.CasumDefect(info.Library, info.Version, info.Core)
})

// AsumC is ?asum by the library for n elements at p, inc > 0 apart, or
// in Go for complex64 where CasumDefect says the library's is wrong.
func AsumC[T scalar.Type](n int, p unsafe.Pointer, inc int) float64 {
	if _, c64 := any(*new(T)).(complex64); c64 && CasumDefect() != "" {
		return casumGo(n, p, inc)
	}
	return clib.Asum[T](n, p, inc)
}

// casumGo is sum |Re x[i]| + |Im x[i]| over n complex64 elements at p,
// inc elements apart, added in float64 and rounded to float32 as the
// library's result is.
func casumGo(n int, p unsafe.Pointer, inc int) float64 {
	x := unsafe.Slice((*[2]float32)(p), (n-1)*inc+1)
	var s0, s1 float64
	for i := 0; i < n; i++ {
		e := x[i*inc]
		s0 += float64(abs32(e[0]))
		s1 += float64(abs32(e[1]))
	}
	return float64(float32(s0 + s1))
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// IamaxC is i?amax by the library for n elements at p, inc > 0 apart,
// held to Iamax's rule. Libraries agree with reference BLAS except where
// NaN is involved, and there they differ (OpenBLAS 0.3.21's Haswell
// kernels return the first NaN for some positions and ignore it for
// others). ?asum is NaN exactly when an element is, so one more library
// pass, far cheaper than a Go scan, tells whether the library's answer
// stands; when it does not, the elements are scanned in Go. The caller
// counts two library calls.
func IamaxC[T scalar.Type](n int, p unsafe.Pointer, inc int) int {
	if !math.IsNaN(AsumC[T](n, p, inc)) {
		return clib.Iamax[T](n, p, inc)
	}
	return Iamax[T](n, p, inc)
}

// RealSymvOverRead is whether the kernel set in use reads past real
// ?symv's operands (coreset.RealSymvOverRead): cblas.Symv and gonumblas's
// Ssymv and Dsymv compute in Go (gonum's symv) there, and package lapack
// gives real operands room after them.
var RealSymvOverRead = coreset.RealSymvOverRead(lapis.KernelSet().InUse)

// Complex level-2 kernels that read past their vectors. OpenBLAS 0.3.21's
// Haswell kernels do, found by cblas's guard_test.go with mmap guard pages:
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

// padIn copies the n elements of the BLAS vector (p, inc) into a pooled
// buffer, in BLAS's order, and returns its address (increment 1).
func padIn[T scalar.Type](p unsafe.Pointer, inc, n int) (unsafe.Pointer, *pool.Buf[T]) {
	b := pool.Get[T](n + overReadSpare)
	clear(b.Data[n:])
	forBLAS[T](p, inc, n, func(i int, e *T) { b.Data[i] = *e })
	return unsafe.Pointer(&b.Data[0]), b
}

// OverReadSafe runs call with the BLAS vectors x (nx elements, read) and
// y (ny elements, read and written), each an address and an increment, as
// the library's complex level-2 kernels can take them: for complex T in
// pooled buffers with spare elements (padIn) at increment 1, y copied
// back afterwards; for real T as they are.
func OverReadSafe[T scalar.Type](x unsafe.Pointer, incX, nx int, y unsafe.Pointer, incY, ny int, call func(x unsafe.Pointer, incX int, y unsafe.Pointer, incY int)) {
	if !scalar.IsComplex[T]() {
		call(x, incX, y, incY)
		return
	}
	px, bx := padIn[T](x, incX, nx)
	py, by := padIn[T](y, incY, ny)
	call(px, 1, py, 1)
	pool.Put(bx)
	forBLAS[T](y, incY, ny, func(i int, e *T) { *e = by.Data[i] })
	pool.Put(by)
}

// forBLAS calls f with element i of the BLAS vector (p, inc): p is its
// lowest address, and a negative increment starts from the end.
func forBLAS[T scalar.Type](p unsafe.Pointer, inc, n int, f func(i int, e *T)) {
	var z T
	sz := int(unsafe.Sizeof(z))
	p0 := First0[T](p, n, inc)
	for i := 0; i < n; i++ {
		f(i, (*T)(unsafe.Add(p0, i*inc*sz)))
	}
}
