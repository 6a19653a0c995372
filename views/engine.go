package views

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis/layout"
)

// The copy engine. Every copy lapis makes (ToColMajor, FromRowMajor, Copy,
// and the copy-in/copy-out of the BLAS and LAPACK packages) runs here:
//
//  1. plan: drop extent-1 axes, flip axes so the destination is written
//     forwards, order axes by destination stride (smallest innermost), fuse
//     axes that are contiguous in both operands;
//  2. kernel: a contiguous inner run is one memmove; when the source's most
//     contiguous axis is another one (the transpose case), the two axes are
//     cut into cache blocks walked with a 4x4 register kernel; otherwise a
//     strided inner loop;
//  3. large copies are split along one axis across goroutines.
//
// copyElems (copy.go) is the plain reference the engine is tested against.

// copyPlan is a copy reduced to its loops. Axis 0 is the innermost; tr is
// the axis along which the source is most contiguous when that is not axis
// 0 (the transpose case), else -1. Offsets and strides are in elements.
type copyPlan struct {
	rank       int
	tr         int
	nt         bool // large enough for non-temporal stores (engine_simd.go)
	doff, soff int
	n          [layout.MaxRank]int
	ds, ss     [layout.MaxRank]int
}

// makePlan builds the plan for dst[i] = src[i]; the layouts have equal
// shapes. ok is false when there is nothing to copy.
func makePlan(dst, src layout.Layout) (p copyPlan, ok bool) {
	p.doff, p.soff, p.tr = dst.Offset(), src.Offset(), -1
	for k := 0; k < dst.Rank(); k++ {
		n, ds, ss := dst.Dim(k), dst.Stride(k), src.Stride(k)
		if n == 0 {
			return p, false
		}
		if n == 1 {
			continue
		}
		if ds < 0 { // walk this axis backwards so dst is written forwards
			p.doff += (n - 1) * ds
			p.soff += (n - 1) * ss
			ds, ss = -ds, -ss
		}
		// Insertion sort by destination stride, then |source stride|.
		j := p.rank
		for j > 0 && (p.ds[j-1] > ds || (p.ds[j-1] == ds && abs(p.ss[j-1]) > abs(ss))) {
			p.n[j], p.ds[j], p.ss[j] = p.n[j-1], p.ds[j-1], p.ss[j-1]
			j--
		}
		p.n[j], p.ds[j], p.ss[j] = n, ds, ss
		p.rank++
	}
	// Fuse axis k+1 into k where both operands continue contiguously.
	r := 0
	for k := 1; k < p.rank; k++ {
		if p.ds[k] == p.ds[r]*p.n[r] && p.ss[k] == p.ss[r]*p.n[r] {
			p.n[r] *= p.n[k]
			continue
		}
		r++
		p.n[r], p.ds[r], p.ss[r] = p.n[k], p.ds[k], p.ss[k]
	}
	if p.rank > 0 {
		p.rank = r + 1
	}
	// The transpose case: the source is more contiguous along another axis.
	for k := 1; k < p.rank; k++ {
		if abs(p.ss[k]) < abs(p.ss[0]) && (p.tr < 0 || abs(p.ss[k]) < abs(p.ss[p.tr])) {
			p.tr = k
		}
	}
	return p, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Settings of the engine.
var (
	copyThreads atomic.Int64 // 0: GOMAXPROCS
	// parMinElems is the smallest copy, in elements per goroutine, that is
	// split across goroutines; smaller copies never start one. A variable
	// so that tests can force the parallel path on small inputs. It was
	// 64Ki: a 500 x 500 copy then split in two, and the LAPACK call after
	// it (gonumlapack's Dgetrf) ran 1.33x netlib's time instead of 1.05x
	// with one goroutine, on the shared 2-core machine (the waiting
	// goroutine resumes on the helper's thread, away from the half of the
	// data its own core's cache holds, and a second core is not free).
	parMinElems = 1 << 18
)

// SetCopyThreads bounds the number of goroutines one copy may use (n <= 0:
// GOMAXPROCS, the default). It returns the previous setting.
func SetCopyThreads(n int) int {
	return int(copyThreads.Swap(int64(max(n, 0))))
}

// CopyThreads returns the number of goroutines one large copy may use.
func CopyThreads() int {
	n := runtime.GOMAXPROCS(0)
	if c := int(copyThreads.Load()); c > 0 {
		n = min(n, c)
	}
	return n
}

// Cache blocking of the transpose case. The source is read in strips one
// cache line wide (cols elements) and rows tall; the destination is
// written in columns rows long. A strip of each operand fits in L1, and a
// super x super block of each fits in L2 (and its rows and columns in the
// TLB). The sizes come from the CPU's caches as cpuid reports them, with
// common defaults when it does not; BenchmarkTune (tune_test.go) measures
// the alternatives.
type blocking struct{ rows, cols, super int }

// blocks holds the blocking for 4-, 8- and 16-byte elements.
var blocks = func() (b [3]blocking) {
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
		cols := max(4, line/size) // 4: the register kernel's width
		// super^2 * size * 2 operands <= l2 / 2
		super := 16
		for (2*super)*(2*super)*size*4 <= l2 && super < 1024 {
			super *= 2
		}
		// rows * line * 2 operands <= l1 / 2
		rows := min(super, max(16, l1/(4*cols*size))&^3)
		b[i] = blocking{rows: rows, cols: cols, super: super}
	}
	return b
}()

// blockingOf returns the blocking for T.
func blockingOf[T Scalar]() blocking {
	var z T
	switch unsafe.Sizeof(z) {
	case 4:
		return blocks[0]
	case 8:
		return blocks[1]
	}
	return blocks[2]
}

// engineCopy copies src into dst (same shape, dst without self-overlap,
// memory not shared), conjugating if cf is not nil.
func engineCopy[T Scalar](dst, src View[T], cf func(T) T) {
	p, ok := makePlan(dst.l, src.l)
	if !ok {
		return
	}
	total := 1
	for k := 0; k < p.rank; k++ {
		total *= p.n[k]
	}
	var z T
	p.nt = total*int(unsafe.Sizeof(z)) >= ntMinBytes
	workers := min(CopyThreads(), total/parMinElems)
	d, s := unsafe.Pointer(unsafe.SliceData(dst.data)), unsafe.Pointer(unsafe.SliceData(src.data))
	if workers < 2 || p.rank == 0 {
		runPlan(&p, d, s, cf)
		return
	}
	// Split the axis written last in dst (largest stride) into chunks, in
	// whole cache blocks, so that each goroutine writes its own region.
	a := p.rank - 1
	n := p.n[a]
	chunk := (n + workers - 1) / workers
	if a == 0 || a == p.tr {
		b := blockingOf[T]().super
		chunk = (chunk + b - 1) / b * b
	}
	var wg sync.WaitGroup
	for lo := chunk; lo < n; lo += chunk {
		sub := p
		sub.n[a] = min(chunk, n-lo)
		sub.doff += lo * p.ds[a]
		sub.soff += lo * p.ss[a]
		wg.Go(func() { runPlan(&sub, d, s, cf) })
	}
	first := p
	first.n[a] = min(chunk, n)
	runPlan(&first, d, s, cf)
	wg.Wait()
}

// runPlan walks the outer axes of p (all but 0 and tr) with an odometer and
// runs the inner kernel at each position. d and s are the bases of the
// destination and source data.
func runPlan[T Scalar](p *copyPlan, d, s unsafe.Pointer, cf func(T) T) {
	var z T
	sz := int(unsafe.Sizeof(z))
	if p.rank == 0 {
		put(d, p.doff*sz, get[T](s, p.soff*sz), cf)
		return
	}
	var idx [layout.MaxRank]int
	do, so := p.doff*sz, p.soff*sz
	for {
		dp, sp := unsafe.Add(d, do), unsafe.Add(s, so)
		switch {
		case p.tr >= 0 && simdOK(p, cf):
			transposeSIMD(dp, sp, p.n[0], p.n[p.tr], p.ds[p.tr]*sz, p.ss[0]*sz, p.nt)
		case p.tr >= 0:
			tile2D(dp, sp, p.n[0], p.ds[0]*sz, p.ss[0]*sz, p.n[p.tr], p.ds[p.tr]*sz, p.ss[p.tr]*sz, blockingOf[T](), cf)
		case p.ds[0] == 1 && p.ss[0] == 1 && cf == nil:
			copy(unsafe.Slice((*T)(dp), p.n[0]), unsafe.Slice((*T)(sp), p.n[0]))
		default:
			line(dp, sp, p.n[0], p.ds[0]*sz, p.ss[0]*sz, cf)
		}
		// Advance the odometer over axes 1.. except tr.
		k := 1
		for ; k < p.rank; k++ {
			if k == p.tr {
				continue
			}
			idx[k]++
			do += p.ds[k] * sz
			so += p.ss[k] * sz
			if idx[k] < p.n[k] {
				break
			}
			do -= idx[k] * p.ds[k] * sz
			so -= idx[k] * p.ss[k] * sz
			idx[k] = 0
		}
		if k == p.rank {
			return
		}
	}
}

func get[T Scalar](p unsafe.Pointer, off int) T { return *(*T)(unsafe.Add(p, off)) }

func put[T Scalar](p unsafe.Pointer, off int, x T, cf func(T) T) {
	if cf != nil {
		x = cf(x)
	}
	*(*T)(unsafe.Add(p, off)) = x
}

// line copies n elements with byte strides dd and sd.
func line[T Scalar](d, s unsafe.Pointer, n, dd, sd int, cf func(T) T) {
	// Pointers are advanced only while they stay inside the operands:
	// pointer arithmetic past the end is invalid in Go (checkptr).
	if cf != nil {
		for i := range n {
			*(*T)(d) = cf(*(*T)(s))
			if i+1 < n {
				d, s = unsafe.Add(d, dd), unsafe.Add(s, sd)
			}
		}
		return
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		x0, x1 := *(*T)(s), *(*T)(unsafe.Add(s, sd))
		x2, x3 := *(*T)(unsafe.Add(s, 2*sd)), *(*T)(unsafe.Add(s, 3*sd))
		*(*T)(d), *(*T)(unsafe.Add(d, dd)) = x0, x1
		*(*T)(unsafe.Add(d, 2*dd)), *(*T)(unsafe.Add(d, 3*dd)) = x2, x3
		if i+4 < n {
			d, s = unsafe.Add(d, 4*dd), unsafe.Add(s, 4*sd)
		}
	}
	for ; i < n; i++ {
		*(*T)(d) = *(*T)(s)
		if i+1 < n {
			d, s = unsafe.Add(d, dd), unsafe.Add(s, sd)
		}
	}
}

// tile2D copies an n0 x n1 block, dst(i, j) = src(i, j), with byte strides
// (d0, d1) and (s0, s1). Axis 0 is the destination's contiguous one, axis 1
// the source's. It walks super-blocks, each in strips of bk.cols source
// columns by bk.rows rows, each strip in 4 x 4 register kernels.
func tile2D[T Scalar](d, s unsafe.Pointer, n0, d0, s0, n1, d1, s1 int, bk blocking, cf func(T) T) {
	for J := 0; J < n1; J += bk.super {
		for I := 0; I < n0; I += bk.super {
			for jb := J; jb < min(J+bk.super, n1); jb += bk.cols {
				je := min(jb+bk.cols, J+bk.super, n1)
				for ib := I; ib < min(I+bk.super, n0); ib += bk.rows {
					ie := min(ib+bk.rows, I+bk.super, n0)
					strip(d, s, ib, ie, jb, je, d0, s0, d1, s1, cf)
				}
			}
		}
	}
}

// strip copies rows [ib, ie) x columns [jb, je) in 4 x 4 kernels, with
// strided lines for the edges and for conjugation.
func strip[T Scalar](d, s unsafe.Pointer, ib, ie, jb, je, d0, s0, d1, s1 int, cf func(T) T) {
	for j := jb; j < je; j += 4 {
		if j+4 > je || cf != nil {
			for jj := j; jj < min(j+4, je); jj++ {
				line(unsafe.Add(d, ib*d0+jj*d1), unsafe.Add(s, ib*s0+jj*s1), ie-ib, d0, s0, cf)
			}
			continue
		}
		i := ib
		for ; i+4 <= ie; i += 4 {
			kern4x4[T](unsafe.Add(d, i*d0+j*d1), unsafe.Add(s, i*s0+j*s1), d0, s0, d1, s1)
		}
		for ; i < ie; i++ {
			line[T](unsafe.Add(d, i*d0+j*d1), unsafe.Add(s, i*s0+j*s1), 4, d1, s1, nil)
		}
	}
}

// kern4x4 copies a 4 x 4 block: rows along the byte strides d0/s0, columns
// along d1/s1. It reads the source row by row (along s1, contiguous in the
// transpose case) and writes the destination column by column (along d0).
func kern4x4[T Scalar](d, s unsafe.Pointer, d0, s0, d1, s1 int) {
	r0, r1 := s, unsafe.Add(s, s0)
	r2, r3 := unsafe.Add(s, 2*s0), unsafe.Add(s, 3*s0)
	a0, a1, a2, a3 := *(*T)(r0), *(*T)(unsafe.Add(r0, s1)), *(*T)(unsafe.Add(r0, 2*s1)), *(*T)(unsafe.Add(r0, 3*s1))
	b0, b1, b2, b3 := *(*T)(r1), *(*T)(unsafe.Add(r1, s1)), *(*T)(unsafe.Add(r1, 2*s1)), *(*T)(unsafe.Add(r1, 3*s1))
	c0, c1, c2, c3 := *(*T)(r2), *(*T)(unsafe.Add(r2, s1)), *(*T)(unsafe.Add(r2, 2*s1)), *(*T)(unsafe.Add(r2, 3*s1))
	e0, e1, e2, e3 := *(*T)(r3), *(*T)(unsafe.Add(r3, s1)), *(*T)(unsafe.Add(r3, 2*s1)), *(*T)(unsafe.Add(r3, 3*s1))
	c := d
	*(*T)(c), *(*T)(unsafe.Add(c, d0)), *(*T)(unsafe.Add(c, 2*d0)), *(*T)(unsafe.Add(c, 3*d0)) = a0, b0, c0, e0
	c = unsafe.Add(d, d1)
	*(*T)(c), *(*T)(unsafe.Add(c, d0)), *(*T)(unsafe.Add(c, 2*d0)), *(*T)(unsafe.Add(c, 3*d0)) = a1, b1, c1, e1
	c = unsafe.Add(d, 2*d1)
	*(*T)(c), *(*T)(unsafe.Add(c, d0)), *(*T)(unsafe.Add(c, 2*d0)), *(*T)(unsafe.Add(c, 3*d0)) = a2, b2, c2, e2
	c = unsafe.Add(d, 3*d1)
	*(*T)(c), *(*T)(unsafe.Add(c, d0)), *(*T)(unsafe.Add(c, 2*d0)), *(*T)(unsafe.Add(c, 3*d0)) = a3, b3, c3, e3
}
