// Package split hands out the pieces of a batch to the goroutines that
// share it so that each CPU works on the same matrices from one call to
// the next.
//
// A batch's pieces 0..n-1 are cut into one region of consecutive pieces
// per worker:
//
//	pieces   0 1 2 3 | 4 5 6 7 | 8 9 10 11
//	region   0       | 1       | 2
//	           front ->   <- back
//
// A worker starts in its home region, the one of the CPU it runs on
// (CPU() modulo the number of regions), and takes its pieces from the
// front; when its home is done it takes the other regions' pieces from
// their backs, so that it meets their owners only at their last pieces.
// Why: on a machine whose cores do not share a last-level cache (the
// 2-vCPU Zen 5 VMs lapis is measured on), a line written by one core
// and read by the other next call crosses between the caches; two
// threads copying the halves of a 5 MB buffer took 73-80 us when each
// kept its half and 109-114 us, as long as one thread copying all of
// it, when they swapped halves every call. Goroutines move between CPUs
// freely, so the home follows the CPU, not the goroutine.
//
// Each piece is handed out exactly once whatever the CPUs: two workers
// with the same home share that region's front, and a worker whose CPU
// is unknown (CPU's ok false) takes the homes in the order the workers
// arrive. What a piece computes must not depend on which worker runs it.
package split

import (
	"fmt"
	"sync/atomic"
)

// Split is one batch's pieces, cut into regions. Its methods are safe for
// concurrent use; a Split is used for one batch and not reused.
type Split struct {
	regions []region
	arrived atomic.Int64 // workers that asked for a home, for CPU-less homes
}

// region is the pieces [front, back) not yet handed out, packed in one
// word (front in the low 32 bits) so that one compare-and-swap takes a
// piece from either end; padded to its own cache line.
type region struct {
	fb atomic.Uint64
	_  [56]byte
}

// MaxPieces is the most pieces a Split holds.
const MaxPieces = 1<<32 - 1

// New returns the split of pieces pieces (0 <= pieces <= MaxPieces) into
// regions regions (regions >= 1). It panics otherwise: the caller sets
// both, and no user input reaches them unchecked.
func New(pieces, regions int) *Split {
	if pieces < 0 || pieces > MaxPieces || regions < 1 {
		panic(fmt.Sprintf("split: New(%d, %d): want 0 <= pieces <= %d, regions >= 1", pieces, regions, MaxPieces))
	}
	s := &Split{regions: make([]region, regions)}
	for r := range s.regions {
		lo, hi := pieces*r/regions, pieces*(r+1)/regions
		s.regions[r].fb.Store(uint64(hi)<<32 | uint64(lo))
	}
	return s
}

// Worker is one goroutine's cursor over a Split: its home region and the
// region it is taking pieces from.
type Worker struct {
	s          *Split
	home, from int
}

// Worker returns a cursor for the calling goroutine, its home the
// region of the CPU it runs on now (see CPU).
func (s *Split) Worker() Worker {
	if len(s.regions) == 1 { // one home: no CPU to ask
		return Worker{s: s}
	}
	home := 0
	if cpu, ok := CPU(); ok {
		home = cpu % len(s.regions)
	} else {
		home = s.arrival()
	}
	return Worker{s: s, home: home, from: home}
}

// arrival returns the home of the next worker to arrive: the regions in
// turn.
func (s *Split) arrival() int {
	return int((s.arrived.Add(1) - 1) % int64(len(s.regions)))
}

// Next returns the next piece for w, and false when every piece of the
// split has been handed out.
func (w *Worker) Next() (piece int, ok bool) {
	n := len(w.s.regions)
	for w.from < w.home+n {
		r := &w.s.regions[w.from%n]
		if p, ok := r.take(w.from == w.home); ok {
			return p, true
		}
		w.from++
	}
	return 0, false
}

// take hands out r's front piece (front) or its back one, and false when
// r has none left.
func (r *region) take(front bool) (int, bool) {
	for {
		fb := r.fb.Load()
		lo, hi := uint32(fb), uint32(fb>>32)
		if lo >= hi {
			return 0, false
		}
		p, next := lo, fb+1 // front: lo+1 in the low word, which cannot carry (lo < hi)
		if !front {
			hi--
			p, next = hi, uint64(hi)<<32|uint64(lo)
		}
		if r.fb.CompareAndSwap(fb, next) {
			return int(p), true
		}
	}
}
