// Package wspace holds LAPACK's workspaces as lapis asks for them: the
// sizes a routine wants, asked once per (routine, element type, shape,
// options) with lwork = -1 and remembered process-wide (Query, Remember),
// and pooled buffers of LAPACK integers (Ints). Package lapack and the
// gonum adapter share the one cache: a shape either of them has asked
// about is not asked about again. Buffers come from internal/rt/pool, so
// that a call in steady state allocates nothing.
package wspace

import (
	"math"
	"sync"
	"unsafe"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
)

// Key identifies a workspace query.
type Key struct {
	Fam  string  // the routine family, "xgesdd"
	Type int     // the element type, scalar.Index
	Dims [4]int  // the shape arguments
	Opts [3]byte // the option arguments (job, uplo, ...)
}

// Sizes is what a query returns: lengths of work (elements), rwork
// (reals) and iwork (integers).
type Sizes struct{ Work, RWork, IWork int }

var (
	mu      sync.Mutex
	cache   = map[Key]Sizes{}
	queries int // queries made, for tests (under mu)
)

// cacheMax bounds the cache; past it the cache starts over (a program
// that sees that many shapes pays one query per call, no more).
const cacheMax = 1 << 12

// Remember returns the remembered sizes for k, or calls query once.
func Remember(k Key, query func() Sizes) Sizes {
	mu.Lock()
	s, ok := cache[k]
	mu.Unlock()
	if ok {
		return s
	}
	s = query()
	mu.Lock()
	queries++
	if len(cache) >= cacheMax {
		clear(cache)
	}
	cache[k] = s
	mu.Unlock()
	return s
}

// Queries returns how many queries Remember has made, for tests.
func Queries() int {
	mu.Lock()
	defer mu.Unlock()
	return queries
}

// Query runs a workspace query: call must invoke the routine with every
// length argument (lwork, lrwork, liwork) set to -1 and the three
// pointers as work, rwork and iwork; LAPACK writes the sizes it wants into
// their first elements.
func Query[T scalar.Type](call func(work, rwork, iwork unsafe.Pointer)) Sizes {
	var w [1]T
	var r [1]float64 // room for one real of either precision
	var i [1]int64   // room for one LAPACK integer of either width
	call(unsafe.Pointer(&w[0]), unsafe.Pointer(&r[0]), unsafe.Pointer(&i[0]))
	s := Sizes{Work: querySize(&w[0]), RWork: queryReal[T](unsafe.Pointer(&r[0]))}
	if clib.LAPACKIntBits == 32 {
		s.IWork = int(*(*int32)(unsafe.Pointer(&i[0])))
	} else {
		s.IWork = int(i[0])
	}
	return s
}

// querySize reads a size LAPACK wrote into the first element of a work
// array during a workspace query (a real number, or an integer).
func querySize[T scalar.Type](w *T) int {
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
func queryReal[T scalar.Type](p unsafe.Pointer) int {
	if scalar.Index[T]()%2 == 0 {
		return roundUp32(*(*float32)(p))
	}
	return int(*(*float64)(p))
}

// roundUp32 reads a size LAPACK returned as a float32: sizes above 2^24
// lose their low bits there, so round up by one unit in the last place.
func roundUp32(v float32) int {
	return int(math.Ceil(float64(v) * (1 + 1.0/(1<<23))))
}

// Ints is a pooled buffer of LAPACK integers (32 or 64 bits,
// clib.LAPACKIntBits). The zero Ints holds nothing.
type Ints struct {
	b32 *pool.Buf[int32]
	b64 *pool.Buf[int64]
}

// GetInts returns a buffer of max(1, n) integers.
func GetInts(n int) Ints {
	if clib.LAPACKIntBits == 32 {
		return Ints{b32: pool.Get[int32](max(1, n))}
	}
	return Ints{b64: pool.Get[int64](max(1, n))}
}

// Put returns the buffer to the pool.
func (b Ints) Put() {
	pool.Put(b.b32)
	pool.Put(b.b64)
}

// Ptr is the buffer's address for LAPACK, nil for the zero Ints.
func (b Ints) Ptr() unsafe.Pointer {
	switch {
	case b.b32 != nil:
		return clib.Ptr(b.b32.Data)
	case b.b64 != nil:
		return clib.Ptr(b.b64.Data)
	}
	return nil
}

// Set stores v at i.
func (b Ints) Set(i, v int) {
	if b.b32 != nil {
		b.b32.Data[i] = int32(v)
	} else {
		b.b64.Data[i] = int64(v)
	}
}

// Get returns the integer at i.
func (b Ints) Get(i int) int {
	if b.b32 != nil {
		return int(b.b32.Data[i])
	}
	return int(b.b64.Data[i])
}
