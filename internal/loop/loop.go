// Package loop is the one loop planner of lapis's traversal engine. The
// copy engine of package views and the element-wise operations and
// reductions of package elem hand it a destination and up to three
// operands of one shape (broadcast operands with stride 0 along the axes
// they repeat; a reduction's destination with stride 0 along the axes it
// sums) and walk the loops it plans:
//
//  1. plan (Make): drop extent-1 axes, flip axes so that the destination
//     (or, along a reduced axis, the first operand) is walked forwards,
//     order the axes by that stride (smallest innermost), fuse axes that
//     are contiguous in every operand, and mark the transpose axis: the
//     axis along which an operand is more contiguous than along the
//     innermost one, which the kernels walk in cache blocks together with
//     the innermost axis (Blocking);
//  2. walk (Next): an odometer over the remaining outer axes, each
//     position an inner kernel call of the caller's;
//  3. split (Workers, Parallel): a large plan is cut along its outermost
//     written axis into parts run on goroutines (ParMinElems).
//
// The package knows nothing of element types: strides and offsets are in
// elements until Bytes scales them. It is pure Go.
package loop

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis/layout"
)

// MaxOps is the number of operands a plan holds: the destination and up
// to three sources.
const MaxOps = 4

// Plan is a traversal reduced to its loops. Axis 0 is the innermost; Tr
// is the axis walked in cache blocks with axis 0 (an operand is more
// contiguous along it than along axis 0), or -1. Operand 0 is the
// destination. Strides and offsets are in elements, or in bytes after
// Bytes.
type Plan struct {
	Rank int // loops; 0 with ok: a single element
	Ops  int
	Tr   int
	N    [layout.MaxRank]int
	Off  [MaxOps]int
	S    [MaxOps][layout.MaxRank]int
}

// Make plans the traversal of dst and srcs, which have dst's shape. ok is
// false when there is nothing to do (an extent 0).
func Make(dst *layout.Layout, srcs ...*layout.Layout) (p Plan, ok bool) {
	p.Ops, p.Tr = 1+len(srcs), -1
	p.Off[0] = dst.Offset()
	for i, s := range srcs {
		p.Off[1+i] = s.Offset()
	}
	shape, dstr := dst.Axes()
	for k, n := range shape {
		if n == 0 {
			return p, false
		}
		if n == 1 {
			continue
		}
		var st [MaxOps]int
		st[0] = dstr[k]
		for i, s := range srcs {
			st[1+i] = s.Stride(k)
		}
		// Walk forwards along the operand that orders this axis.
		if lead := st[0]; lead < 0 || lead == 0 && p.Ops > 1 && st[1] < 0 {
			for o := range p.Ops {
				p.Off[o] += (n - 1) * st[o]
				st[o] = -st[o]
			}
		}
		key, tie := p.keys(&st)
		// Insertion sort by key, then tie.
		j := p.Rank
		for j > 0 {
			pk, pt := p.keysAt(j - 1)
			if pk < key || pk == key && pt <= tie {
				break
			}
			p.N[j] = p.N[j-1]
			for o := range p.Ops {
				p.S[o][j] = p.S[o][j-1]
			}
			j--
		}
		p.N[j] = n
		for o := range p.Ops {
			p.S[o][j] = st[o]
		}
		p.Rank++
	}
	p.fuse()
	p.markTranspose()
	return p, true
}

// keys returns an axis's sort keys: the destination's stride (a reduced
// axis, stride 0 there, sorts by the operands' smallest stride) and, to
// break ties, the operands' smallest non-zero stride.
func (p *Plan) keys(st *[MaxOps]int) (key, tie int) {
	tie = 0
	for o := 1; o < p.Ops; o++ {
		if s := abs(st[o]); s != 0 && (tie == 0 || s < tie) {
			tie = s
		}
	}
	key = abs(st[0])
	if key == 0 {
		key = tie
	}
	return key, tie
}

func (p *Plan) keysAt(k int) (key, tie int) {
	var st [MaxOps]int
	for o := range p.Ops {
		st[o] = p.S[o][k]
	}
	return p.keys(&st)
}

// fuse merges axis k+1 into k wherever every operand continues
// contiguously.
func (p *Plan) fuse() {
	if p.Rank == 0 {
		return
	}
	r := 0
	for k := 1; k < p.Rank; k++ {
		fusable := true
		for o := range p.Ops {
			if p.S[o][k] != p.S[o][r]*p.N[r] {
				fusable = false
				break
			}
		}
		if fusable {
			p.N[r] *= p.N[k]
			continue
		}
		r++
		p.N[r] = p.N[k]
		for o := range p.Ops {
			p.S[o][r] = p.S[o][k]
		}
	}
	p.Rank = r + 1
}

// markTranspose sets Tr to the axis along which some source is most
// contiguous, when that source is less contiguous along axis 0 (the
// transpose case); a source that repeats along axis 0 (stride 0) has no
// such axis.
func (p *Plan) markTranspose() {
	best := 0
	for o := 1; o < p.Ops; o++ {
		s0 := abs(p.S[o][0])
		for k := 1; k < p.Rank; k++ {
			if s := abs(p.S[o][k]); s != 0 && s < s0 && (best == 0 || s < best) {
				p.Tr, best = k, s
			}
		}
	}
}

// Bytes scales the strides and offsets from elements to bytes.
func (p *Plan) Bytes(size int) {
	for o := range p.Ops {
		p.Off[o] *= size
		for k := range p.Rank {
			p.S[o][k] *= size
		}
	}
}

// Len returns the number of positions the plan walks.
func (p *Plan) Len() int {
	n := 1
	for k := range p.Rank {
		n *= p.N[k]
	}
	return n
}

// Next advances the odometer over the axes other than 0 and Tr: idx holds
// the indices, off the operands' offsets (updated by the strides). It
// returns false, with idx and off back at the start, after the last
// position.
func (p *Plan) Next(idx *[layout.MaxRank]int, off *[MaxOps]int) bool {
	for k := 1; k < p.Rank; k++ {
		if k == p.Tr {
			continue
		}
		idx[k]++
		for o := range p.Ops {
			off[o] += p.S[o][k]
		}
		if idx[k] < p.N[k] {
			return true
		}
		for o := range p.Ops {
			off[o] -= idx[k] * p.S[o][k]
		}
		idx[k] = 0
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Settings of the parallel split, shared by every traversal.
var (
	threads atomic.Int64 // 0: GOMAXPROCS
	// ParMinElems is the smallest traversal, in elements per goroutine,
	// that is split across goroutines; smaller ones never start one. A
	// variable so that tests can force the parallel path on small inputs.
	// It was 64Ki: a 500 x 500 copy then split in two, and the LAPACK
	// call after it (gonumlapack's Dgetrf) ran 1.33x netlib's time
	// instead of 1.05x with one goroutine, on the shared 2-core machine
	// (the waiting goroutine resumes on the helper's thread, away from the
	// half of the data its own core's cache holds, and a second core is
	// not free).
	ParMinElems = 1 << 18
)

// SetThreads bounds the goroutines one traversal may use (n <= 0:
// GOMAXPROCS, the default) and returns the previous setting.
func SetThreads(n int) int { return int(threads.Swap(int64(max(n, 0)))) }

// Threads returns the number of goroutines one large traversal may use.
func Threads() int {
	n := runtime.GOMAXPROCS(0)
	if c := int(threads.Load()); c > 0 {
		n = min(n, c)
	}
	return n
}

// Workers returns the number of goroutines p is split across: 1 (run it
// on the caller) unless p has at least 2*ParMinElems positions, more than
// one goroutine is allowed and the destination advances along some axis
// (a full reduction is not split here).
func Workers(p *Plan) int {
	w := min(Threads(), p.Len()/ParMinElems)
	if w < 2 || p.splitAxis() < 0 {
		return 1
	}
	return w
}

// splitAxis is the outermost axis the destination advances along: parts
// cut along a reduced axis would write the same elements.
func (p *Plan) splitAxis() int {
	a := p.Rank - 1
	for a >= 0 && p.S[0][a] == 0 {
		a--
	}
	return a
}

// Parallel runs body on workers parts of p (Workers), on goroutines but
// for the first, and returns when all are done. The parts cut the split
// axis in multiples of block positions when it is 0 or Tr (the caller's
// cache blocks), so that each part writes its own region. Call it only
// when Workers says so: it allocates.
func Parallel(p *Plan, workers, block int, body func(*Plan)) {
	a := p.splitAxis()
	n := p.N[a]
	chunk := (n + workers - 1) / workers
	if a == 0 || a == p.Tr {
		chunk = (chunk + block - 1) / block * block
	}
	var wg sync.WaitGroup
	for lo := chunk; lo < n; lo += chunk {
		sub := *p
		sub.N[a] = min(chunk, n-lo)
		for o := range p.Ops {
			sub.Off[o] += lo * p.S[o][a]
		}
		wg.Go(func() { body(&sub) })
	}
	first := *p
	first.N[a] = min(chunk, n)
	body(&first)
	wg.Wait()
}

// Blocking is the cache blocking of the transpose case. The operand
// contiguous along Tr is read in strips one cache line wide (Cols
// elements) and Rows tall; the destination is written in columns Rows
// long. A strip of each operand fits in L1, and a Super x Super block of
// each fits in L2 (and its rows and columns in the TLB).
type Blocking struct{ Rows, Cols, Super int }

// Blocks holds the blocking for 4-, 8- and 16-byte elements, from the
// CPU's caches as cpuid reports them (common defaults when it does not);
// views' BenchmarkTune measures the alternatives. Tests shrink them.
var Blocks = func() (b [3]Blocking) {
	l1, l2, line := cpuid.CPU.Cache.L1D, cpuid.CPU.Cache.L2, cpuid.CPU.CacheLine
	if l1 <= 0 {
		l1 = 32 << 10
	}
	if l2 <= 0 {
		l2 = 1 << 20
	}
	if line <= 0 {
		line = 64
	}
	for i, size := range []int{4, 8, 16} {
		cols := max(4, line/size) // 4: the copy's register kernel's width
		// super^2 * size * 2 operands <= l2 / 2
		super := 16
		for (2*super)*(2*super)*size*4 <= l2 && super < 1024 {
			super *= 2
		}
		// rows * line * 2 operands <= l1 / 2
		rows := min(super, max(16, l1/(4*cols*size))&^3)
		b[i] = Blocking{Rows: rows, Cols: cols, Super: super}
	}
	return b
}()

// BlockingFor returns the blocking for elements of size bytes.
func BlockingFor(size uintptr) Blocking {
	switch size {
	case 4:
		return Blocks[0]
	case 8:
		return Blocks[1]
	}
	return Blocks[2]
}
