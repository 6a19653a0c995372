package lapack

import (
	"math"
	"sync"
	"unsafe"

	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
)

// Workspaces. A routine that needs one asks LAPACK for its size once per
// (routine, element type, shape, options) with lwork = -1, remembers the
// answer, and takes the buffers from internal/rt/pool, so that a call in
// steady state allocates nothing.

// wsKey identifies a workspace query.
type wsKey struct {
	fam  string
	typ  int
	dims [4]int
	opts [3]byte
}

// wsSize is what a query returns: lengths of work (elements), rwork
// (reals) and iwork (integers).
type wsSize struct{ work, rwork, iwork int }

var (
	wsMu      sync.Mutex
	wsCache   = map[wsKey]wsSize{}
	wsQueries int // queries made, for tests (under wsMu)
)

// wsCacheMax bounds the cache; past it the cache starts over (a program
// that sees that many shapes pays one query per call, no more).
const wsCacheMax = 1 << 12

// workspaceSize returns the remembered size for k, or calls query once.
func workspaceSize(k wsKey, query func() wsSize) wsSize {
	wsMu.Lock()
	s, ok := wsCache[k]
	wsMu.Unlock()
	if ok {
		return s
	}
	s = query()
	wsMu.Lock()
	wsQueries++
	if len(wsCache) >= wsCacheMax {
		clear(wsCache)
	}
	wsCache[k] = s
	wsMu.Unlock()
	return s
}

// workspace holds the pooled buffers of one call.
type workspace[T Scalar] struct {
	work  *pool.Buf[T]
	rwork *pool.Buf[T] // reals at T's precision, packed into T-sized cells
	iwork ints
}

func getWorkspace[T Scalar](s wsSize) workspace[T] {
	w := workspace[T]{work: pool.Get[T](max(1, s.work))}
	if s.rwork > 0 { // pool.Get allocates a handle even for nothing
		w.rwork = pool.Get[T](realCells[T](s.rwork))
	}
	if s.iwork > 0 {
		w.iwork = getInts(s.iwork)
	}
	return w
}

func (w *workspace[T]) put() {
	pool.Put(w.work)
	pool.Put(w.rwork)
	w.iwork.put()
}

func (w *workspace[T]) workPtr() unsafe.Pointer { return ptrOf(w.work.Data) }
func (w *workspace[T]) rworkPtr() unsafe.Pointer {
	if w.rwork == nil {
		return nil
	}
	return ptrOf(w.rwork.Data)
}
func (w *workspace[T]) iworkPtr() unsafe.Pointer { return w.iwork.ptr() }

// realCells returns how many elements of T hold n reals of T's precision
// (a complex element holds two).
func realCells[T Scalar](n int) int {
	if scalar.Index[T]() >= 2 {
		return (n + 1) / 2
	}
	return n
}

// querySize reads a size LAPACK wrote into the first element of a work
// array during a workspace query (a real number, or an integer).
func querySize[T Scalar](w *T) int {
	switch p := any(w).(type) {
	case *float32:
		return roundUp32(*p)
	case *float64:
		return int(*p)
	case *complex64:
		return roundUp32(real(*p))
	case *complex128:
		return int(real(*p))
	}
	return 0
}

// queryReal reads the real LAPACK wrote at p (a real of T's precision).
func queryReal[T Scalar](p unsafe.Pointer) int {
	if scalar.Index[T]()%2 == 0 {
		return roundUp32(*(*float32)(p))
	}
	return int(*(*float64)(p))
}

// ints is a pooled buffer of LAPACK integers (32 or 64 bits, IntBits).
type ints struct {
	b32 *pool.Buf[int32]
	b64 *pool.Buf[int64]
}

func getInts(n int) ints {
	if IntBits == 32 {
		return ints{b32: pool.Get[int32](max(1, n))}
	}
	return ints{b64: pool.Get[int64](max(1, n))}
}

func (b ints) put() {
	pool.Put(b.b32)
	pool.Put(b.b64)
}

func (b ints) ptr() unsafe.Pointer {
	switch {
	case b.b32 != nil:
		return ptrOf(b.b32.Data)
	case b.b64 != nil:
		return ptrOf(b.b64.Data)
	}
	return nil
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
		return ptrOf(p.dst)
	}
	return ptrOf(p.b64.Data)
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

// roundUp32 reads a size LAPACK returned as a float32: sizes above 2^24
// lose their low bits there, so round up by one unit in the last place.
func roundUp32(v float32) int {
	return int(math.Ceil(float64(v) * (1 + 1.0/(1<<23))))
}

// query runs a workspace query: call must invoke the routine with every
// length argument (lwork, lrwork, liwork) set to -1 and the three
// pointers as work, rwork and iwork; LAPACK writes the sizes it wants into
// their first elements.
func query[T Scalar](call func(work, rwork, iwork unsafe.Pointer)) wsSize {
	var w [1]T
	var r [1]float64 // room for one real of either precision
	var i [1]int64   // room for one LAPACK integer of either width
	call(unsafe.Pointer(&w[0]), unsafe.Pointer(&r[0]), unsafe.Pointer(&i[0]))
	s := wsSize{work: querySize(&w[0]), rwork: queryReal[T](unsafe.Pointer(&r[0]))}
	if IntBits == 32 {
		s.iwork = int(*(*int32)(unsafe.Pointer(&i[0])))
	} else {
		s.iwork = int(i[0])
	}
	return s
}

// flops is the work m*n*k a call reports to the thread policy
// (internal/rt/threads), in float64 so that it cannot overflow.
func flops(m, n, k int) float64 { return float64(m) * float64(n) * float64(k) }
