// Package spin runs a function on a team of goroutines that are already
// running: the caller and n-1 goroutines that spin between calls,
// yielding their P at every turn (as batch's tiny workers do between
// pieces), so that a call pays no wake-up. It is for benchmarks that
// measure what several goroutines can do without the cost of handing
// them the work (bench's memory floor, split's BenchmarkLocality).
package spin

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Team is n goroutines, the caller of Run among them. Run must not be
// called concurrently with itself or after Stop.
type Team struct {
	n     int
	gen   atomic.Int64 // Run's calls so far; -1: stop
	f     func(g int)
	left  atomic.Int64 // goroutines yet to finish this call's f
	ended sync.WaitGroup
}

// New starts the n-1 spinning goroutines of a team of n (n >= 1). They
// keep a CPU busy until Stop.
func New(n int) *Team {
	t := &Team{n: max(1, n)}
	for g := 1; g < t.n; g++ {
		t.ended.Go(func() {
			for seen := int64(0); ; {
				switch gen := t.gen.Load(); {
				case gen < 0:
					return
				case gen == seen:
					runtime.Gosched()
				default:
					seen = gen
					t.f(g)
					t.left.Add(-1)
				}
			}
		})
	}
	return t
}

// N returns the team's size.
func (t *Team) N() int { return t.n }

// Run calls f(g) on every member g of the team at once, f(0) on the
// caller, and returns when all have returned.
func (t *Team) Run(f func(g int)) {
	t.f = f
	t.left.Store(int64(t.n - 1))
	t.gen.Add(1)
	f(0)
	for t.left.Load() > 0 {
		runtime.Gosched()
	}
}

// Stop ends the spinning goroutines and waits for them.
func (t *Team) Stop() {
	t.gen.Store(-1)
	t.ended.Wait()
}
