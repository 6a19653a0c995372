package lapack

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
)

// Workspaces. A routine that needs one asks LAPACK for its size once per
// (routine, element type, shape, options) with lwork = -1 (internal/rt/
// lwork remembers the answer, for lapack and the gonum adapter alike) and
// takes the buffers from internal/rt/pool, so that a call in steady state
// allocates nothing.

// workspace holds the pooled buffers of one call.
type workspace[T Scalar] struct {
	work  *pool.Buf[T]
	rwork *pool.Buf[T] // reals at T's precision, packed into T-sized cells
	iwork wspace.Ints
}

func getWorkspace[T Scalar](s wspace.Sizes) workspace[T] {
	w := workspace[T]{work: pool.Get[T](max(1, s.Work))}
	if s.RWork > 0 { // pool.Get allocates a handle even for nothing
		w.rwork = pool.Get[T](realCells[T](s.RWork))
	}
	if s.IWork > 0 {
		w.iwork = wspace.GetInts(s.IWork)
	}
	return w
}

func (w *workspace[T]) put() {
	pool.Put(w.work)
	pool.Put(w.rwork)
	w.iwork.Put()
}

func (w *workspace[T]) workPtr() unsafe.Pointer { return clib.Ptr(w.work.Data) }
func (w *workspace[T]) rworkPtr() unsafe.Pointer {
	if w.rwork == nil {
		return nil
	}
	return clib.Ptr(w.rwork.Data)
}
func (w *workspace[T]) iworkPtr() unsafe.Pointer { return w.iwork.Ptr() }

// realCells returns how many elements of T hold n reals of T's precision
// (a complex element holds two).
func realCells[T Scalar](n int) int {
	if scalar.Index[T]() >= 2 {
		return (n + 1) / 2
	}
	return n
}

// pivots hands a caller's []int32 pivot slice to LAPACK: directly when
// LAPACK's integer is 32 bits, through a pooled 64-bit buffer otherwise
// (done copies it back).
type pivots struct {
	dst []int32
	b64 *pool.Buf[int64]
}

func pivotsFor(ipiv []int32, n int, load bool) pivots {
	if IntBits == 32 {
		return pivots{dst: ipiv[:n]}
	}
	p := pivots{dst: ipiv[:n], b64: pool.Get[int64](max(1, n))}
	if load {
		for i, v := range p.dst {
			p.b64.Data[i] = int64(v)
		}
	}
	return p
}

func (p pivots) ptr() unsafe.Pointer {
	if p.b64 == nil {
		return clib.Ptr(p.dst)
	}
	return clib.Ptr(p.b64.Data)
}

func (p pivots) done(store bool) {
	if p.b64 == nil {
		return
	}
	if store {
		for i := range p.dst {
			p.dst[i] = int32(p.b64.Data[i])
		}
	}
	pool.Put(p.b64)
}

// flops is the work m*n*k a call reports to the thread policy
// (internal/rt/threads), in float64 so that it cannot overflow.
func flops(m, n, k int) float64 { return float64(m) * float64(n) * float64(k) }
