// Package split hands out the work of a batch to the goroutines that
// share it, in chunks that shrink as the work runs out, so that each CPU
// works on the same matrices from one call to the next and the workers
// finish together.
//
// A batch's units 0..n-1 (batch's: lane groups of matrices) are cut into
// one region of consecutive units per worker:
//
//	units    0 ...     | ...       | ...   n-1
//	region   0         | 1         | 2
//	           front ->       <- back
//
// A worker starts in its home region, the one of the CPU it runs on
// (CPU() modulo the number of regions), and takes its chunks from the
// front; when its home is done it takes the other regions' chunks from
// their backs, so that it meets their owners only at their last units.
// Why: on a machine whose cores do not share a last-level cache (the
// 2-vCPU Zen 5 VMs lapis is measured on), a line written by one core
// and read by the other next call crosses between the caches; two
// threads copying the halves of a 5 MB buffer took 73-80 us when each
// kept its half and 109-114 us, as long as one thread copying all of
// it, when they swapped halves every call. Goroutines move between CPUs
// freely, so the home follows the CPU, not the goroutine.
//
// A chunk is half of what its region has left, and at least the grain
// (guided self-scheduling): an owner starts with half its region, so a
// batch is cut into a few long runs (whose memory streams the hardware
// prefetchers follow without restarting), and the last chunks are
// small, so that workers whose CPUs run at different speeds, or that
// started at different times, still finish within a grain of each
// other. A thief takes half of what is left too, so that a worker that
// never arrives leaves its region to the others in a few chunks.
//
// Each unit is handed out exactly once whatever the CPUs: two workers
// with the same home share that region's front, and a worker whose CPU
// is unknown (CPU's ok false) takes the homes in the order the workers
// arrive. What a unit computes must not depend on which worker runs it.
package split

import (
	"fmt"
	"sync/atomic"
)

// Split is one batch's units, cut into regions. Its methods are safe for
// concurrent use; a Split is used for one batch and not reused.
type Split struct {
	regions []region
	grain   uint32
	arrived atomic.Int64 // workers that asked for a home, for CPU-less homes
	inline  [4]region    // the regions of a split into at most 4: no second allocation
}

// region is the units [front, back) not yet handed out, packed in one
// word (front in the low 32 bits) so that one compare-and-swap takes a
// chunk from either end; padded to its own cache line.
type region struct {
	fb atomic.Uint64
	_  [56]byte
}

// MaxUnits is the most units a Split holds.
const MaxUnits = 1<<32 - 1

// New returns the split of n units (0 <= n <= MaxUnits) into regions
// regions (regions >= 1) of as equal lengths as can be, handed out in
// chunks of at least grain units (grain >= 1; a region's last chunk may
// be shorter). It panics otherwise: the caller sets all three, and no
// user input reaches them unchecked.
func New(n, regions, grain int) *Split {
	if n < 0 || n > MaxUnits || regions < 1 || grain < 1 {
		panic(fmt.Sprintf("split: New(%d, %d, %d): want 0 <= n <= %d, regions >= 1, grain >= 1", n, regions, grain, MaxUnits))
	}
	s := &Split{grain: uint32(min(grain, MaxUnits))}
	if regions <= len(s.inline) {
		s.regions = s.inline[:regions]
	} else {
		s.regions = make([]region, regions)
	}
	for r := range s.regions {
		lo, hi := n*r/regions, n*(r+1)/regions
		s.regions[r].fb.Store(uint64(hi)<<32 | uint64(lo))
	}
	return s
}

// Worker is one goroutine's cursor over a Split: its home region and the
// region it is taking chunks from.
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

// Next returns the next chunk of units [lo, hi) for w, and false when
// every unit of the split has been handed out.
func (w *Worker) Next() (lo, hi int, ok bool) {
	n := len(w.s.regions)
	for w.from < w.home+n {
		r := &w.s.regions[w.from%n]
		if lo, hi, ok := r.take(w.from == w.home, w.s.grain); ok {
			return lo, hi, true
		}
		w.from++
	}
	return 0, 0, false
}

// take hands out a chunk of r from its front (front) or its back: half
// of what r has left, at least grain units (all of them if fewer); false
// when r has none left.
func (r *region) take(front bool, grain uint32) (lo, hi int, ok bool) {
	for {
		fb := r.fb.Load()
		f, b := uint32(fb), uint32(fb>>32)
		if f >= b {
			return 0, 0, false
		}
		size := min(b-f, max(grain, (b-f)/2))
		lo, hi, next := f, f+size, uint64(b)<<32|uint64(f+size)
		if !front {
			lo, hi, next = b-size, b, uint64(b-size)<<32|uint64(f)
		}
		if r.fb.CompareAndSwap(fb, next) {
			return int(lo), int(hi), true
		}
	}
}
