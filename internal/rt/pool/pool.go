// Package pool is a size-classed pool of element buffers, one set of classes
// per element type, safe for concurrent use. lapis takes the buffers of the
// tensors its copy engine makes, and later its BLAS/LAPACK workspaces, from
// here, so that a loop that releases what it makes allocates nothing in
// steady state.
//
// Capacities are rounded up to one of four steps per power of two (at most
// 25% over the request; 64 elements at least). Buffers come back with
// whatever they held: callers that need zeros clear them. The pool holds
// buffers weakly (sync.Pool): the garbage collector may drop idle ones.
package pool

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
)

// Elem is the set of element types the pool serves: the four BLAS types
// and LAPACK's integers (pivots, integer workspaces; 32 or 64 bits wide).
type Elem interface {
	scalar.Type | int32 | int64
}

// Buf is a pooled buffer. Data has the requested length; its capacity is the
// class size. Return it with Put and do not use it afterwards.
type Buf[T Elem] struct {
	Data  []T
	class int
	// Gen is the buffer's generation: the owner that handed it out
	// (views.Tensor.View records it) advances it when it gives the buffer
	// back (Tensor.Release), so that holders can tell the buffer was
	// returned since.
	Gen Gen
}

// Gen is a generation counter: one atomic load tells a holder of a
// recorded value whether it is still current (Load() == recorded). It
// wraps after 2^32 advances, so a holder that waits through exactly a
// multiple of 2^32 Puts of one buffer sees it current again.
type Gen struct{ n uint32 } // accessed atomically only

// Load returns the current generation.
func (g *Gen) Load() uint32 { return atomic.LoadUint32(&g.n) }

// Advance moves the generation on: every holder of the current one sees
// it is no longer current.
func (g *Gen) Advance() { atomic.AddUint32(&g.n, 1) }

// Dead is a generation no holder is current at: a holder records Dead
// with generation 0 for memory that is gone already (views.Tensor.View of
// a released tensor).
var Dead = func() *Gen {
	return &Gen{n: 1}
}()

// ErrReleased is matched (errors.Is) by the error of a call given a view
// of a tensor that was released (views.Tensor.Release) after the view was
// made, or made from a released tensor; lapis.ErrReleased is this value.
var ErrReleased = errors.New("use after Release")

const (
	minCap     = 64
	numClasses = 4 * 60 // up to 2^62 elements
)

var pools [6][numClasses]sync.Pool

func typeIndex[T Elem]() int {
	switch any(*new(T)).(type) {
	case float32:
		return 0
	case float64:
		return 1
	case complex64:
		return 2
	case complex128:
		return 3
	case int32:
		return 4
	}
	return 5
}

// class returns the class index and capacity for n > 0 elements.
func class(n int) (int, int) {
	if n <= minCap {
		return 0, minCap
	}
	e := bits.Len(uint(n - 1)) // 2^(e-1) < n <= 2^e, e >= 7
	half := 1 << (e - 1)
	step := half >> 2
	k := (n - half + step - 1) / step // 1..4
	return 1 + 4*(e-7) + (k - 1), half + k*step
}

// Get returns a buffer of length n (n >= 0) with unspecified contents. A
// buffer of length 0 is not pooled: Data is nil.
func Get[T Elem](n int) *Buf[T] {
	if n <= 0 {
		return &Buf[T]{class: -1}
	}
	mustFit[T](n)
	c, capacity := class(n)
	p := &pools[typeIndex[T]()][c]
	if b, ok := p.Get().(*Buf[T]); ok {
		b.Data = b.Data[:n]
		return b
	}
	return &Buf[T]{Data: make([]T, n, capacity), class: c}
}

// Poison, when set, makes Put fill floating-point buffers with NaN, so that
// a view kept past its tensor's Release reads NaN rather than the values
// of whoever gets the buffer next. It is set by default under the race
// detector (a debugging build); views.SetReleaseCheck sets it.
var Poison atomic.Bool

func init() { Poison.Store(raceEnabled) }

// Put returns b to the pool. Putting nil or an empty buffer does nothing.
// It leaves the generation alone: a holder that handed out its
// generation (views.Tensor.Release) advances it before Put, so that
// buffers nobody recorded (workspaces) cost no atomic operation.
func Put[T Elem](b *Buf[T]) {
	if b == nil || b.class < 0 || cap(b.Data) == 0 {
		return
	}
	if Poison.Load() {
		poison(b.Data[:cap(b.Data)])
	}
	pools[typeIndex[T]()][b.class].Put(b)
}

// poison fills d with NaN (floating-point types; integers are left).
func poison[T Elem](d []T) {
	nan := math.NaN()
	switch d := any(d).(type) {
	case []float32:
		for i := range d {
			d[i] = float32(nan)
		}
	case []float64:
		for i := range d {
			d[i] = nan
		}
	case []complex64:
		for i := range d {
			d[i] = complex(float32(nan), float32(nan))
		}
	case []complex128:
		for i := range d {
			d[i] = complex(nan, nan)
		}
	}
}

// Return is Put for a buffer whose generation was handed out: it advances
// the generation first, so that every holder of it sees the buffer gone.
func Return[T Elem](b *Buf[T]) {
	b.Gen.Advance()
	Put(b)
}

// MaxBytes is the largest buffer lapis asks for, so that a size beyond it
// is an error the caller reports, not a panic in make or the Go runtime's
// fatal "out of memory": 128 TiB (below the runtime's limit on one
// allocation on 64-bit systems, 256 TiB), or less where the process can
// fill less (memBytes: RAM and swap, ulimit -v, the cgroup's memory
// limit; a larger buffer could not be written in full, and asking for it
// kills the process).
var MaxBytes = min(1<<47, memBytes())

// ErrTooLarge is matched (errors.Is) by the error of a call whose result,
// copy or workspace would be larger than MaxBytes; lapis.ErrTooLarge is
// this value.
var ErrTooLarge = errors.New("too large for this machine's memory")

// Check is the allocation gate: every buffer whose size comes from a
// caller's shapes passes here before it is allocated. It returns nil when
// a buffer of the product of shape elements of E fits MaxBytes, and
// otherwise a *layout.Error naming op and arg (the operand the buffer is
// for) that matches ErrTooLarge and says the shape, the element type and
// the bytes; an element count beyond an int matches layout.ErrOverflow
// instead, as the layout of such a shape does. Negative extents count as
// 0 (the shape checks report them).
func Check[E Elem](op, arg string, shape ...int) error {
	n, ok := uint64(1), true
	for _, d := range shape {
		hi, lo := bits.Mul64(n, uint64(max(d, 0)))
		n, ok = lo, ok && hi == 0
	}
	size := uint64(unsafe.Sizeof(*new(E)))
	hi, bytes := bits.Mul64(n, size)
	if ok && hi == 0 && n <= math.MaxInt && bytes <= MaxBytes {
		return nil
	}
	shape = append([]int(nil), shape...) // only this path keeps it: shape does not escape
	if !ok || n > math.MaxInt {
		return layout.Errorf(layout.ErrOverflow, op, arg, "%v %T elements: more than an int holds", shape, *new(E))
	}
	need := "more than 16 EiB"
	if hi == 0 {
		need = FormatBytes(bytes)
	}
	return layout.Errorf(ErrTooLarge, op, arg, "%v %T elements take %s, over the %s lapis allocates at most here",
		shape, *new(E), need, FormatBytes(MaxBytes))
}

// FormatBytes writes n bytes with a binary unit, three significant digits
// at most: 512 B, 1.5 KiB, 1.01 MiB, 8 TiB.
func FormatBytes(n uint64) string {
	if n < 1024 {
		return strconv.FormatUint(n, 10) + " B"
	}
	x, u := float64(n)/1024, 0
	for x >= 1024 && u < 5 {
		x, u = x/1024, u+1
	}
	d := 2
	if x >= 10 {
		d = 1
	}
	num := strings.TrimRight(strconv.FormatFloat(x, 'f', d, 64), "0")
	return strings.TrimSuffix(num, ".") + " " + "KMGTPE"[u:u+1] + "iB"
}

// mustFit is the gate's backstop in Get and Make: a request beyond
// MaxBytes that no entry point checked panics with the gate's error (a
// run-time panic the caller can recover, as make's "len out of range"),
// never Go's fatal out-of-memory. Entry points call Check first and
// return its error; reaching this panic is a bug in lapis.
func mustFit[E Elem](n int) {
	if n > 0 && !CanHold[E](n) {
		panic(Check[E]("pool", "n", n))
	}
}

// Make returns make([]E, n, c) after the gate's backstop (mustFit) on c.
// It is for buffers that must not come from the pool (a slice with spare
// capacity that LAPACK may over-read).
func Make[E Elem](n, c int) []E {
	mustFit[E](c)
	return make([]E, n, c)
}

// CanHold reports whether a buffer of n elements of T stays within
// MaxBytes (and n is not negative).
func CanHold[T Elem](n int) bool {
	return n >= 0 && uint64(n) <= MaxBytes/uint64(unsafe.Sizeof(*new(T)))
}
