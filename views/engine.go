package views

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/layout"
)

// The copy engine. Every copy lapis makes (ToColMajor, FromRowMajor, Copy,
// and the copy-in/copy-out of the BLAS and LAPACK packages) runs here:
//
//  1. plan (internal/loop, the planner the element-wise layer shares):
//     drop extent-1 axes, flip axes so the destination is written forwards,
//     order axes by destination stride (smallest innermost), fuse axes that
//     are contiguous in both operands;
//  2. kernel: a contiguous inner run is one memmove; when the source's most
//     contiguous axis is another one (the transpose case), the two axes are
//     cut into cache blocks walked with a 4x4 register kernel; otherwise a
//     strided inner loop;
//  3. large copies are split along one axis across goroutines.
//
// copyElems (copy.go) is the plain reference the engine is tested against.

// copyPlan is a copy reduced to its loops by the one planner
// (internal/loop): operand 0 the destination, 1 the source, strides and
// offsets in bytes.
type copyPlan struct {
	loop.Plan
	nt bool // large enough for non-temporal stores (engine_simd.go)
}

// SetCopyThreads bounds the number of goroutines one copy (or element-wise
// operation) may use (n <= 0: GOMAXPROCS, the default). It returns the
// previous setting.
func SetCopyThreads(n int) int { return loop.SetThreads(n) }

// CopyThreads returns the number of goroutines one large copy may use.
func CopyThreads() int { return loop.Threads() }

// blockingOf returns the cache blocking for T.
func blockingOf[T Scalar]() loop.Blocking {
	var z T
	return loop.BlockingFor(unsafe.Sizeof(z))
}

// engineCopy copies src into dst (same shape, dst without self-overlap,
// memory not shared), conjugating if cf is not nil.
func engineCopy[T Scalar](dst, src View[T], cf func(T) T) {
	var p copyPlan
	var ok bool
	if p.Plan, ok = loop.Make(&dst.l, &src.l); !ok {
		return
	}
	var z T
	sz := int(unsafe.Sizeof(z))
	p.nt = p.Len()*sz >= ntMinBytes
	p.Bytes(sz)
	d, s := unsafe.Pointer(unsafe.SliceData(dst.data)), unsafe.Pointer(unsafe.SliceData(src.data))
	if w := loop.Workers(&p.Plan); w > 1 {
		nt := p.nt
		loop.Parallel(&p.Plan, w, blockingOf[T]().Super, func(q *loop.Plan) {
			runPlan(&copyPlan{*q, nt}, d, s, cf)
		})
		return
	}
	runPlan(&p, d, s, cf)
}

// runPlan walks the outer axes of p (all but 0 and tr) with an odometer and
// runs the inner kernel at each position. d and s are the bases of the
// destination and source data.
func runPlan[T Scalar](p *copyPlan, d, s unsafe.Pointer, cf func(T) T) {
	if p.Rank == 0 {
		put(unsafe.Add(d, p.Off[0]), 0, get[T](unsafe.Add(s, p.Off[1]), 0), cf)
		return
	}
	var idx [layout.MaxRank]int
	off := p.Off
	n0, ds, ss, tr := p.N[0], &p.S[0], &p.S[1], p.Tr
	for {
		dp, sp := unsafe.Add(d, off[0]), unsafe.Add(s, off[1])
		switch {
		case tr >= 0 && simdOK(p, cf):
			transposeSIMD(dp, sp, n0, p.N[tr], ds[tr], ss[0], p.nt)
		case tr >= 0:
			tile2D(dp, sp, n0, ds[0], ss[0], p.N[tr], ds[tr], ss[tr], blockingOf[T](), cf)
		case ds[0] == int(unsafe.Sizeof(*new(T))) && ss[0] == ds[0] && cf == nil:
			copy(unsafe.Slice((*T)(dp), n0), unsafe.Slice((*T)(sp), n0))
		default:
			line(dp, sp, n0, ds[0], ss[0], cf)
		}
		if !p.Next(&idx, &off) {
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
// the source's. It walks super-blocks, each in strips of bk.Cols source
// columns by bk.Rows rows, each strip in 4 x 4 register kernels.
func tile2D[T Scalar](d, s unsafe.Pointer, n0, d0, s0, n1, d1, s1 int, bk loop.Blocking, cf func(T) T) {
	for J := 0; J < n1; J += bk.Super {
		for I := 0; I < n0; I += bk.Super {
			for jb := J; jb < min(J+bk.Super, n1); jb += bk.Cols {
				je := min(jb+bk.Cols, J+bk.Super, n1)
				for ib := I; ib < min(I+bk.Super, n0); ib += bk.Rows {
					ie := min(ib+bk.Rows, I+bk.Super, n0)
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
