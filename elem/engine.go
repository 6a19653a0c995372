package elem

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// apply runs k over every index of dst: dst = k(a, b), the sources read
// through la and lb (their layouts broadcast to dst's shape; unused ones
// nil). The plan is the copy engine's (internal/loop): loops ordered by
// dst's strides, axes fused where every operand is contiguous, and an
// operand contiguous along another axis than dst (A + A^T) walked in
// cache blocks; large operations are split across goroutines as copies
// are.
func apply[T Scalar](k *kern[T], dst, a, b *views.View[T], la, lb *layout.Layout) {
	dd, dl, dconj := dst.Ref()
	var p loop.Plan
	var ok bool
	switch k.op.arity() {
	case 0:
		p, ok = loop.Make(dl)
	case 1:
		p, ok = loop.Make(dl, la)
	default:
		p, ok = loop.Make(dl, la, lb)
	}
	if !ok {
		return
	}
	var base [loop.MaxOps]unsafe.Pointer
	base[0] = unsafe.Pointer(unsafe.SliceData(dd))
	if a != nil {
		ad, _, aconj := a.Ref()
		base[1], k.conj[1] = unsafe.Pointer(unsafe.SliceData(ad)), aconj
	}
	if b != nil {
		bd, _, bconj := b.Ref()
		base[2], k.conj[2] = unsafe.Pointer(unsafe.SliceData(bd)), bconj
	}
	k.conjugate(dconj)
	p.Bytes(int(unsafe.Sizeof(*new(T))))
	if w := loop.Workers(&p); w > 1 {
		kk, bb := *k, base
		loop.Parallel(&p, w, loop.BlockingFor(unsafe.Sizeof(*new(T))).Super, func(q *loop.Plan) {
			walk[T](&kk, q, &bb)
		})
		return
	}
	walk[T](k, &p, &base)
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
	case opMap, opZip:
		k.conjOut = out
	case opAbs: // |conj(x)| = |x|, and the result is real
	default:
		if out {
			k.conj[1], k.conj[2] = !k.conj[1], !k.conj[2]
			k.alpha, k.beta = scalar.Conj(k.alpha), scalar.Conj(k.beta)
		}
	}
}

// liner is a kernel: one call covers a line of n elements of the
// operands at p with byte strides s (kern, rkern).
type liner interface {
	line(n int, p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int)
}

// walk runs k over the plan p (strides in bytes) from the operands'
// bases; T is the element type.
func walk[T Scalar, K liner](k K, p *loop.Plan, base *[loop.MaxOps]unsafe.Pointer) {
	var s0 [loop.MaxOps]int
	for o := range p.Ops {
		s0[o] = p.S[o][0]
	}
	n0 := 1
	if p.Rank > 0 {
		n0 = p.N[0]
	}
	var idx [layout.MaxRank]int
	off := p.Off
	for {
		var ptr [loop.MaxOps]unsafe.Pointer
		for o := range p.Ops {
			ptr[o] = unsafe.Add(base[o], off[o])
		}
		if p.Tr >= 0 {
			tiles[T](k, p, &ptr, &s0)
		} else {
			k.line(n0, &ptr, &s0)
		}
		if !p.Next(&idx, &off) {
			return
		}
	}
}

// tiles runs k over the block of axes 0 and p.Tr at ptr: in super-blocks
// that fit in L2, each in strips one cache line wide along Tr (where an
// operand is contiguous) and Rows long along axis 0 (where dst is), one
// line of the kernel per position along Tr.
func tiles[T Scalar, K liner](k K, p *loop.Plan, ptr *[loop.MaxOps]unsafe.Pointer, s0 *[loop.MaxOps]int) {
	bk := loop.BlockingFor(unsafe.Sizeof(*new(T)))
	n0, n1, tr := p.N[0], p.N[p.Tr], p.Tr
	for J := 0; J < n1; J += bk.Super {
		je := min(J+bk.Super, n1)
		for I := 0; I < n0; I += bk.Super {
			ie := min(I+bk.Super, n0)
			for jb := J; jb < je; jb += bk.Cols {
				for ib := I; ib < ie; ib += bk.Rows {
					rows := min(ib+bk.Rows, ie) - ib
					for j := jb; j < min(jb+bk.Cols, je); j++ {
						var q [loop.MaxOps]unsafe.Pointer
						for o := range p.Ops {
							q[o] = unsafe.Add(ptr[o], ib*s0[o]+j*p.S[o][tr])
						}
						k.line(rows, &q, s0)
					}
				}
			}
		}
	}
}
