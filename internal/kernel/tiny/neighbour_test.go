package tiny

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkTinyNeighbour measures how much one goroutine slows down
// while another goroutine keeps the machine's other CPU busy: the
// ceiling a two-worker batch meets before any cost of its own. The
// victim runs alone, then with a partner running, in alternation within
// each iteration (the host's slow and fast phases so fall on both); it
// reports the median and the 90th percentile over iterations of
// t_partner / t_alone (slowdown: 1 means the partner costs nothing, and
// two workers each slowed by s reach at most 2/s) and the victim's time
// alone.
//
// Victims: clock, a chain of dependent integer operations in registers
// (it touches no memory: its slowdown is the CPU's own speed), and the
// out-of-place kernels (TinyTo, as batch's direct pass runs them) on
// half of a batch of 10000 matrices of order 8, compact (chol in
// float32, the shortest of batch's two-worker misses, and cholsolve in
// float64). Partners: idle (the victim alone again: the noise), clock,
// l3 (copies between two 4 MiB buffers in 128 KiB pieces, which Go's
// copy moves through the caches), dram (the same on 32 MiB buffers) and
// same (the victim's operation on the other half of the batch: a
// two-worker batch).
//
//	go test -run '^$' -bench TinyNeighbour -benchtime 20x ./internal/kernel
func BenchmarkTinyNeighbour(b *testing.B) {
	victims := []struct {
		name string
		work func() func() // returns one round of the victim's work
		same func() func() // the partner "same": the same work on the other half
	}{
		{"clock", clockWork, clockWork},
		{"chol-float32", func() func() { return halfTo[float32](Cholesky, 0) }, func() func() { return halfTo[float32](Cholesky, 1) }},
		{"cholsolve-float64", func() func() { return halfTo[float64](CholeskySolve, 0) }, func() func() { return halfTo[float64](CholeskySolve, 1) }},
	}
	partners := []struct {
		name string
		work func() func()
	}{
		{"idle", nil},
		{"clock", clockWork},
		{"l3", func() func() { return streamWork(4 << 20) }},
		{"dram", func() func() { return streamWork(32 << 20) }},
		{"same", nil},
	}
	for _, v := range victims {
		for _, p := range partners {
			b.Run(fmt.Sprintf("victim=%s/partner=%s", v.name, p.name), func(b *testing.B) {
				victim := v.work()
				var partner func()
				switch {
				case p.name == "same":
					partner = v.same()
				case p.work != nil:
					partner = p.work()
				}
				var slowdowns []float64
				var alone time.Duration
				for b.Loop() {
					t0 := timeRounds(victim, nil)
					t1 := timeRounds(victim, partner)
					slowdowns = append(slowdowns, t1.Seconds()/t0.Seconds())
					alone += t0
				}
				slices.Sort(slowdowns)
				b.ReportMetric(slowdowns[len(slowdowns)/2], "slowdown")
				b.ReportMetric(slowdowns[len(slowdowns)*9/10], "slowdown-p90")
				b.ReportMetric(float64(alone.Microseconds())/float64(len(slowdowns)), "us-alone")
			})
		}
	}
}

// neighbourRounds is how many rounds of the victim one timing takes:
// several milliseconds, so that the partner's start is noise.
const neighbourRounds = 40

// timeRounds times neighbourRounds calls of victim while partner (nil:
// none) runs in a loop on another goroutine, started before the timing.
func timeRounds(victim, partner func()) time.Duration {
	var stop, started atomic.Bool
	var wg sync.WaitGroup
	if partner != nil {
		wg.Go(func() {
			for !stop.Load() {
				partner()
				started.Store(true)
			}
		})
		for !started.Load() {
		}
	}
	t := time.Now()
	for range neighbourRounds {
		victim()
	}
	d := time.Since(t)
	stop.Store(true)
	wg.Wait()
	return d
}

// clockWork returns a round of about 0.3 ms of dependent integer
// operations that stay in registers.
func clockWork() func() {
	var sink atomic.Uint64
	return func() {
		x := uint64(1)
		for i := range uint64(300_000) {
			x = x*0x9e3779b97f4a7c15 + i
		}
		sink.Store(x)
	}
}

// streamWork returns a round of copies between two buffers of size bytes
// each, in 128 KiB pieces (below the 1 MiB from which Go's copy stores
// around the caches), repeated to about 4 MiB a round.
func streamWork(size int) func() {
	const piece = 128 << 10
	src, dst := make([]byte, size), make([]byte, size)
	for i := range src {
		src[i] = byte(i)
	}
	at := 0
	return func() {
		for range (4 << 20) / piece {
			copy(dst[at:at+piece], src[at:at+piece])
			at = (at + piece) % size
		}
	}
}

// halfTo returns a round of op (TinyTo, out of place, as batch's direct
// pass) on half h of a compact batch of 10000 matrices of order 8.
func halfTo[T float32 | float64](op Op, h int) func() {
	const n, count = 8, 10000
	size := int(unsafe.Sizeof(T(0)))
	rng := rand.New(rand.NewPCG(8, uint64(op)))
	c := newTinyCase[T](rng, Cholesky, n, count, 1, 0) // SPD matrices
	am, bm := c.mats()
	if op == CholeskySolve { // solve with the factors
		if fl := Run[T](Cholesky, n, count, am, bm, 0, nil, nil, nil); len(fl) > 0 {
			panic(fmt.Sprintf("BenchmarkTinyNeighbour: %d matrices flagged by Cholesky", len(fl)))
		}
	}
	lo, hi := h*count/2, (h+1)*count/2
	am.P = unsafe.Add(am.P, lo*am.BS*size)
	bm.P = unsafe.Add(bm.P, lo*bm.BS*size)
	nrhs := 0
	var out Out
	if op == CholeskySolve {
		nrhs = 1
		x := make([]T, (hi-lo)*bm.BS)
		out.B = unsafe.Pointer(unsafe.SliceData(x))
	} else {
		f := make([]T, (hi-lo)*am.BS)
		out.A = unsafe.Pointer(unsafe.SliceData(f))
	}
	var fl []int
	return func() {
		if fl = To[T](op, n, hi-lo, am, bm, out, nrhs, nil, nil, fl[:0]); len(fl) > 0 {
			panic(fmt.Sprintf("BenchmarkTinyNeighbour: %d matrices flagged", len(fl)))
		}
	}
}
