package elem

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// sources are the operands of applySources: their data (as pointers to
// element 0 of their slices), conjugation and layouts broadcast to the
// destination's shape. Layouts apart from the rest: the compiler's escape
// analysis does not tell the fields of one array element apart, and the
// layouts (on the caller's stack) would follow the data to the heap.
type sources struct {
	base [loop.MaxOps - 1]unsafe.Pointer
	conj [loop.MaxOps - 1]bool
}

// apply runs k over every index of dst: dst = k(a, b), the sources read
// through la and lb (their layouts broadcast to dst's shape; unused ones
// nil).
func apply[T Scalar](k *kern[T], dst, a, b *views.View[T], la, lb *layout.Layout) {
	var src sources
	if a != nil {
		data, _, conj := a.Ref()
		src.base[0], src.conj[0] = unsafe.Pointer(unsafe.SliceData(data)), conj
	}
	if b != nil {
		data, _, conj := b.Ref()
		src.base[1], src.conj[1] = unsafe.Pointer(unsafe.SliceData(data)), conj
	}
	applySources(k, nil, dst, &src, la, lb, nil)
}

// applySources runs k over every index of dst from the sources (k's arity
// of them) read through the layouts l0, l1, l2. The plan is the copy
// engine's (internal/loop): loops ordered by dst's strides, axes fused
// where every operand is contiguous, and an operand contiguous along
// another axis than dst (A + A^T) walked in blocks; large operations are
// split across goroutines as copies are.
// g is k's program when k.op is opProg.
func applySources[T Scalar](k *kern[T], g *program[T], dst *views.View[T], src *sources, l0, l1, l2 *layout.Layout) {
	dd, dl, dconj := dst.Ref()
	var p loop.Plan
	var ok bool
	switch k.nsrc() {
	case 0:
		p, ok = loop.Make(dl)
	case 1:
		p, ok = loop.Make(dl, l0)
	case 2:
		p, ok = loop.Make(dl, l0, l1)
	default:
		p, ok = loop.Make(dl, l0, l1, l2)
	}
	if !ok {
		return
	}
	var base [loop.MaxOps]unsafe.Pointer
	base[0] = unsafe.Pointer(unsafe.SliceData(dd))
	for i := range k.nsrc() {
		base[1+i], k.conj[1+i] = src.base[i], src.conj[i]
	}
	k.conjugate(dconj)
	p.Bytes(int(unsafe.Sizeof(*new(T))))
	if w := loop.Workers(&p); w > 1 {
		// Copies for the goroutines: the program by value (it holds no
		// pointers), so that the caller's program stays on its stack.
		kk, bb := *k, base
		var gg *program[T]
		if g != nil {
			gg = new(program[T])
			*gg = *g
		}
		loop.Parallel(&p, w, loop.BlockingFor(unsafe.Sizeof(*new(T))).Super, func(q *loop.Plan) {
			walk(kernel[T]{e: &kk, g: gg}, q, &bb)
		})
		return
	}
	walk(kernel[T]{e: k, g: g}, &p, &base)
}

// conjugate settles the conjugation flags: for real types there is
// nothing to conjugate; into a conjugated destination, an operation that
// conjugation distributes over (conj(a + b) = conj(a) + conj(b), and so
// for the scalars) conjugates its sources and scalars instead, so that
// only Map and Zip conjugate their results.
func (k *kern[T]) conjugate(out bool) {
	if !scalar.IsComplex[T]() {
		k.conj, k.conjOut = [loop.MaxOps]bool{}, false
		return
	}
	switch k.op {
	case opMap, opZip, opProg:
		k.conjOut = out
	case opAbs: // |conj(x)| = |x|, and the result is real
	default:
		if out {
			k.conj[1], k.conj[2], k.conj[3] = !k.conj[1], !k.conj[2], !k.conj[3]
			k.alpha, k.beta, k.gamma = scalar.Conj(k.alpha), scalar.Conj(k.beta), scalar.Conj(k.gamma)
		}
	}
}

// kernel is what a traversal runs: an element-wise kernel or a
// reduction's. A struct of the two, called directly, not an interface,
// a func value or a type parameter: through those the compiler cannot
// see that the operands' pointers stay on the stack, and every call
// would allocate.
type kernel[T Scalar] struct {
	e *kern[T]
	r *rkern[T]
	g *program[T] // e's program, for opProg
}

// lines runs the kernel over an n0 x n1 block at p: lines of n0 elements
// at byte strides s0, the lines s1 apart. The arithmetic operations on
// operands with nothing to conjugate run in the generated block kernels
// (zkernels.go), one dispatch for the block; the others line by line.
func (k kernel[T]) lines(n0, n1 int, p *[loop.MaxOps]unsafe.Pointer, s0, s1 *[loop.MaxOps]int) {
	if k.e != nil && blockOps(k.e.op) && !k.e.conjugated() {
		k.e.block(n0, n1, p, s0, s1)
		return
	}
	if k.r != nil && k.r.columns(n0, n1, p, s0, s1) {
		return
	}
	q := *p
	for j := range n1 {
		if j > 0 {
			for o := range q {
				if q[o] != nil {
					q[o] = unsafe.Add(p[o], j*s1[o])
				}
			}
		}
		switch {
		case k.g != nil:
			k.g.run(k.e, n0, &q, s0)
		case k.e != nil:
			k.e.line(n0, &q, s0)
		default:
			k.r.line(n0, &q, s0)
		}
	}
}

// walk runs k over the plan p (strides in bytes) from the operands'
// bases; T is the element type.
// Without a transpose axis, axes 0 and 1 go to the kernel as one block
// (the odometer walks the rest): one call covers many lines, and a
// reduction along axis 1 can add several lines at once.
func walk[T Scalar](k kernel[T], p *loop.Plan, base *[loop.MaxOps]unsafe.Pointer) {
	var s0, s1 [loop.MaxOps]int
	for o := range p.Ops {
		s0[o] = p.S[o][0]
	}
	n0, n1 := 1, 1
	if p.Rank > 0 {
		n0 = p.N[0]
	}
	odo := p
	if p.Tr < 0 && p.Rank > 1 {
		n1 = p.N[1]
		for o := range p.Ops {
			s1[o] = p.S[o][1]
		}
		q := *p
		q.Tr = 1 // the odometer skips axis 1 as it skips a transpose axis
		odo = &q
	}
	var idx [layout.MaxRank]int
	off := p.Off
	for {
		var ptr [loop.MaxOps]unsafe.Pointer
		for o := range p.Ops {
			ptr[o] = unsafe.Add(base[o], off[o])
		}
		if p.Tr >= 0 {
			tiles(k, p, &ptr, &s0)
		} else {
			k.lines(n0, n1, &ptr, &s0, &s1)
		}
		if !odo.Next(&idx, &off) {
			return
		}
	}
}

// tiles runs k over the block of axes 0 and p.Tr at ptr, in
// super-blocks of the size the copy engine blocks transposes in (they fit
// in L2). A source contiguous along Tr instead of axis 0 (a^T in
// a + a^T) is packed first, block by block, into a compact column-major
// buffer by the copy engine (its transposing kernels read the source a
// row at a time, so the hardware prefetches it), and the kernel then runs
// on lines contiguous in every operand: one call per super-block. Read
// in place, that source would miss the cache once per element's line
// with nothing prefetched, and A + A^T took 2.2x the time of A + A.
func tiles[T Scalar](k kernel[T], p *loop.Plan, ptr *[loop.MaxOps]unsafe.Pointer, s0 *[loop.MaxOps]int) {
	sz := int(unsafe.Sizeof(*new(T)))
	super := loop.BlockingFor(uintptr(sz)).Super
	n0, n1 := p.N[0], p.N[p.Tr]
	var s1 [loop.MaxOps]int
	var bufs [loop.MaxOps]*pool.Buf[T]
	for o := range p.Ops {
		s1[o] = p.S[o][p.Tr]
		if o > 0 && s1[o] != 0 && abs(s1[o]) < abs(s0[o]) {
			bufs[o] = pool.Get[T](super * super)
		}
	}
	for J := 0; J < n1; J += super {
		cols := min(super, n1-J)
		for I := 0; I < n0; I += super {
			rows := min(super, n0-I)
			var q [loop.MaxOps]unsafe.Pointer
			bs0, bs1 := *s0, s1
			for o := range p.Ops {
				q[o] = unsafe.Add(ptr[o], I*s0[o]+J*s1[o])
				if bufs[o] != nil {
					pack(bufs[o].Data, q[o], rows, cols, s0[o]/sz, s1[o]/sz)
					q[o], bs0[o], bs1[o] = unsafe.Pointer(&bufs[o].Data[0]), sz, rows*sz
				}
			}
			k.lines(rows, cols, &q, &bs0, &bs1)
		}
	}
	for _, b := range bufs {
		if b != nil {
			pool.Put(b)
		}
	}
}

// pack copies the rows x cols block at q (element strides r and c, any
// sign) into buf, column-major, through the copy engine.
func pack[T Scalar](buf []T, q unsafe.Pointer, rows, cols, r, c int) {
	// The block's lowest element, from which its slice starts.
	lo := 0
	if r < 0 {
		lo += (rows - 1) * r
	}
	if c < 0 {
		lo += (cols - 1) * c
	}
	span := (rows-1)*abs(r) + (cols-1)*abs(c) + 1
	data := unsafe.Slice((*T)(unsafe.Add(q, lo*int(unsafe.Sizeof(*new(T))))), span)
	sl, _ := layout.New([]int{rows, cols}, []int{r, c}, -lo)
	dl, _ := layout.ColMajor(rows, cols)
	src, _ := views.FromSlice(data, sl)
	dst, _ := views.FromSlice(buf, dl)
	_ = views.Copy(dst, src) // same shape, separate memory
}

// flatArgs is the fast path's test: dst is one compact run of memory
// (views.View.Run), each of its sources (arity of them) is laid out as dst
// (the same extents and strides), nothing is conjugated, and each source
// is dst element for element or shares no memory with it. Then the
// operation is one line of n elements from the pointers p, and no plan is
// made: for small operands the plan would cost more than the work.
// Anything else (or a view that is not live) takes the general path,
// which also says what is wrong.
func flatArgs[T Scalar](dst, a, b *views.View[T], arity int) (n int, p [loop.MaxOps]unsafe.Pointer, ok bool) {
	first, n, ok := dst.Run()
	if !ok {
		return 0, p, false
	}
	_, dl, _ := dst.Ref()
	shape, strides := dl.Axes()
	p[0] = unsafe.Pointer(first)
	sz := uintptr(unsafe.Sizeof(*new(T)))
	end := uintptr(p[0]) + uintptr(n)*sz
	for o, v := range [2]*views.View[T]{a, b} {
		if o >= arity {
			break
		}
		sfirst, _, ok := v.Run()
		_, sl, _ := v.Ref()
		sshape, sstrides := sl.Axes()
		if !ok || !slices.Equal(sshape, shape) || !slices.Equal(sstrides, strides) {
			return 0, p, false
		}
		s := unsafe.Pointer(sfirst)
		if s != p[0] && n > 0 && uintptr(s) < end && uintptr(p[0]) < uintptr(s)+uintptr(n)*sz {
			return 0, p, false // partial overlap: the general path refuses it
		}
		p[1+o] = s
	}
	return n, p, true
}

// runFlat runs k over the n-element line at p, split across goroutines
// as the planner splits (loop.Workers) when it is long.
func runFlat[T Scalar](k *kern[T], n int, p *[loop.MaxOps]unsafe.Pointer) {
	if n == 0 {
		return
	}
	w := 1
	if n >= 2*loop.ParMinElems {
		w = min(loop.Threads(), n/loop.ParMinElems)
	}
	if w < 2 {
		k.flat(n, p)
		return
	}
	sz := int(unsafe.Sizeof(*new(T)))
	chunk := (n + w - 1) / w
	var wg sync.WaitGroup
	kk := *k
	for lo := chunk; lo < n; lo += chunk {
		var q [loop.MaxOps]unsafe.Pointer
		for o, ptr := range p {
			if ptr != nil {
				q[o] = unsafe.Add(ptr, lo*sz)
			}
		}
		m := min(chunk, n-lo)
		wg.Go(func() { kk.flat(m, &q) })
	}
	k.flat(min(chunk, n), p)
	wg.Wait()
}
