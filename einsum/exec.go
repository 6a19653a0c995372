package einsum

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/elem"
	"github.com/lapis-go/lapis/internal/kernel/gemm"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Scalar is the element types: float32, float64, complex64, complex128.
type Scalar = views.Scalar

// Execute sets dst = alpha * contraction + beta * dst for operands and a
// destination laid out as the plan's (shapes, strides, offsets and
// conjugation flags; the data may be any). ws is the workspace, at least
// Workspace() elements; with nil, Execute allocates one. When beta is 0,
// dst is not read (a NaN there is overwritten). Given dst and ws, Execute
// allocates nothing for tensors of rank up to 8.
//
// Errors (dst is not written on error): layout.ErrShape for operands or a
// destination laid out otherwise than the plan's, or a workspace too
// short; layout.ErrOverlap when dst shares memory with an operand or
// overlaps itself, or ws shares memory with either; lapis.ErrReleased for a view of a released tensor;
// lapis.ErrCopyRefused when the plan copies and strict mode is on; and
// what the BLAS calls return.
func (p *Plan[T]) Execute(alpha T, ops []views.View[T], beta T, dst views.View[T], ws []T) error {
	if err := p.check(ops, &dst); err != nil {
		return err
	}
	if ws == nil {
		ws = pool.Make[T](p.ws, p.ws) // NewPlan checked the size
	}
	if len(ws) < p.ws {
		return layout.Errorf(layout.ErrShape, "einsum.Execute", "ws",
			"has %d elements; the plan needs %d (Workspace)", len(ws), p.ws)
	}
	if p.ws > 0 {
		w, _ := views.FromSlice(ws[:p.ws], must(layout.ColMajor(p.ws)))
		if views.Overlaps(w, dst) {
			return layout.Errorf(layout.ErrOverlap, "einsum.Execute", "ws", "shares memory with dst")
		}
		for k := range ops {
			if views.Overlaps(w, ops[k]) {
				return layout.Errorf(layout.ErrOverlap, "einsum.Execute", "ws", "shares memory with operand %d", k)
			}
		}
	}
	for i := range p.prog {
		if err := p.run(&p.prog[i], alpha, ops, beta, dst, ws); err != nil {
			return err
		}
	}
	return nil
}

// check checks Execute's operands and destination against the plan's.
func (p *Plan[T]) check(ops []views.View[T], dst *views.View[T]) error {
	const op = "einsum.Execute"
	if len(ops) != len(p.ops) {
		return layout.Errorf(layout.ErrShape, op, "ops", "has %d operands; the plan takes %d", len(ops), len(p.ops))
	}
	if err := zeroViews(op, dst, ops); err != nil {
		return err
	}
	if err := matches(op, "dst", dst, &p.dst); err != nil {
		return err
	}
	for k := range ops {
		if err := matches(op, "ops", &ops[k], &p.ops[k]); err != nil {
			return err
		}
	}
	if err := overlaps(op, dst, ops, false); err != nil {
		return err
	}
	if p.copies > 0 && lapis.Configure(p.call...).Strict {
		return p.refused()
	}
	return nil
}

// usable checks what every call needs of its views: none is the zero
// View (zeroViews) and dst is writable (overlaps).
func usable[T Scalar](op string, dst *views.View[T], ops []views.View[T], layoutOnly bool) error {
	if err := zeroViews(op, dst, ops); err != nil {
		return err
	}
	return overlaps(op, dst, ops, layoutOnly)
}

// zeroViews is views' error for the first zero View among dst and ops
// (layout.ErrBounds).
func zeroViews[T Scalar](op string, dst *views.View[T], ops []views.View[T]) error {
	if dst.IsZero() {
		return errop.ZeroView(op, "dst")
	}
	for k := range ops {
		if ops[k].IsZero() {
			return errop.ZeroView(op, fmt.Sprintf("ops[%d]", k))
		}
	}
	return nil
}

// overlaps checks that dst reaches no element twice and, unless
// layoutOnly (NewPlan: the data may change before Execute), shares no
// memory with an operand (layout.ErrOverlap).
func overlaps[T Scalar](op string, dst *views.View[T], ops []views.View[T], layoutOnly bool) error {
	_, dl, _ := dst.Ref()
	if dl.HasOverlap() {
		return layout.Errorf(layout.ErrOverlap, op, "dst", "%s reaches an element twice", dl.String())
	}
	for k := range ops {
		if !layoutOnly && views.Overlaps(*dst, ops[k]) {
			return layout.Errorf(layout.ErrOverlap, op, "dst", "shares memory with operand %d", k)
		}
	}
	return nil
}

// matches checks that v is live and laid out as k.
func matches[T Scalar](op, name string, v *views.View[T], k *shapeKey) error {
	if err := v.CheckLive(op, name); err != nil {
		return err
	}
	_, l, conj := v.Ref()
	if conj != k.conj || l.Origin() != k.l.Offset() || !l.SameShape(k.l) || !l.SameStrides(k.l) {
		return layout.Errorf(layout.ErrShape, op, name,
			"is %s (conjugated %v); the plan was made for %s (conjugated %v)", l.String(), conj, k.l.String(), k.conj)
	}
	return nil
}

// run executes one instruction.
func (p *Plan[T]) run(in *instr, alpha T, ops []views.View[T], beta T, dst views.View[T], ws []T) error {
	a, out := p.view(&in.a, ops, dst, ws), p.view(&in.out, ops, dst, ws)
	var b views.View[T]
	if in.kind == kDot || in.kind == kMul || in.kind == kGemm || in.kind == kLanes {
		b = p.view(&in.b, ops, dst, ws)
	}
	direct := !in.final || alpha == 1 && beta == 0
	var tmp views.View[T]
	if in.tmp != nil {
		tmp = p.view(in.tmp, ops, dst, ws)
	}
	if in.kind != kGemm && in.kind != kLanes && !direct {
		out = tmp
	}
	var err error
	switch in.kind {
	case kCopy:
		policy.Copies.Add(1)
		err = views.Copy(out, a)
	case kAssign:
		return combine(dst, alpha, a, beta)
	case kSum:
		err = elem.SumTo(out, a, tail(a.Rank(), in.nsum)...)
	case kDot:
		err = elem.DotTo(out, a, b, tail(a.Rank(), in.nsum)...)
	case kMul:
		err = elem.MulTo(out, a, b)
	case kLanes:
		return lanes(alpha, a, b, beta, out)
	case kGemm:
		if in.conjScalars {
			alpha, beta = scalar.Conj(alpha), scalar.Conj(beta)
		}
		if !in.final {
			return p.gemm(1, a, b, 0, out)
		}
		if in.conjPass {
			if beta != 0 {
				if err := elem.ConjTo(dst, dst); err != nil {
					return err
				}
			}
			if err := p.gemm(alpha, a, b, beta, out); err != nil {
				return err
			}
			return elem.ConjTo(dst, dst)
		}
		if in.tmp == nil {
			return p.gemm(alpha, a, b, beta, out)
		}
		policy.Copies.Add(1)
		if in.conjScalars {
			dst = dst.Conj() // the buffer holds the conjugate of dst as seen
		}
		if beta != 0 {
			if err := views.Copy(tmp, dst); err != nil {
				return err
			}
		}
		if err := p.gemm(alpha, a, b, beta, out); err != nil {
			return err
		}
		return views.Copy(dst, tmp)
	}
	if err != nil || direct {
		return err
	}
	return combine(dst, alpha, tmp, beta)
}

// gemm is one product: cblas.Gemm for one matrix (no batch axes: it
// costs less to call), batch.Gemm otherwise.
func (p *Plan[T]) gemm(alpha T, a, b views.View[T], beta T, c views.View[T]) error {
	if c.Rank() == 2 {
		return cblas.Gemm(alpha, a, b, beta, c, p.call...)
	}
	return batch.Gemm(alpha, a, b, beta, c, p.call...)
}

// lanes is a kLanes product: c = alpha a b + beta c over views [rows,
// cols, batch] whose batch axis has stride 1 (float64: lanes plans no
// other type).
func lanes[T Scalar](alpha T, a, b views.View[T], beta T, c views.View[T]) error {
	origin := func(v views.View[T]) (unsafe.Pointer, layout.Layout) {
		_, l, _ := v.Ref()
		if l.Len() == 0 {
			return nil, *l // not read: nothing in c, or k = 0
		}
		return unsafe.Pointer(&v.Data()[l.Offset()]), *l
	}
	pa, la := origin(a)
	pb, lb := origin(b)
	pc, lc := origin(c)
	policy.Small.Add(1) // a product computed in Go (and its assembly), not by BLAS
	nl, m, n, k := lc.Dim(2), lc.Dim(0), lc.Dim(1), la.Dim(1)
	part := func(lo, hi int) {
		at := func(p unsafe.Pointer) unsafe.Pointer {
			if p == nil {
				return nil
			}
			return unsafe.Add(p, 8*lo) // lanes have stride 1
		}
		gemm.Lanes(hi-lo, m, n, k, any(alpha).(float64),
			at(pa), la.Stride(0), la.Stride(1), at(pb), lb.Stride(0), lb.Stride(1),
			any(beta).(float64), at(pc), lc.Stride(0), lc.Stride(1))
	}
	// Split across batch's workers (lapis.SetWorkers) in whole groups of
	// lanesSplit lanes, each part at least lanesWork multiply-adds.
	w := min(threads.Workers(), nl/lanesSplit, nl*m*n*k/lanesWork)
	if w <= 1 {
		part(0, nl)
		return nil
	}
	var wg sync.WaitGroup
	for i := range w {
		lo, hi := nl/lanesSplit*i/w*lanesSplit, nl/lanesSplit*(i+1)/w*lanesSplit
		if i == w-1 {
			hi = nl
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			part(lo, hi)
		}()
	}
	wg.Wait()
	return nil
}

// A Lanes product is split across goroutines in parts of whole multiples
// of lanesSplit lanes (four AVX-512 lane groups, which Lanes packs
// together), each of at least lanesWork multiply-adds (about 0.3 ms: a
// goroutine's start costs microseconds).
const (
	lanesSplit = 32
	lanesWork  = 1 << 22
)

// combine sets dst = alpha*x + beta*dst, not reading dst when beta is 0.
func combine[T Scalar](dst views.View[T], alpha T, x views.View[T], beta T) error {
	switch {
	case beta == 0 && alpha == 1:
		return views.Copy(dst, x)
	case beta == 0:
		return elem.ScaleTo(dst, alpha, x)
	}
	return elem.AxpbyTo(dst, alpha, x, beta, dst)
}

// tail returns the last n of rank axes.
func tail(rank, n int) []int {
	var axes [layout.MaxInline]int
	s := axes[:0]
	if n > len(axes) {
		s = make([]int, 0, n)
	}
	for i := rank - n; i < rank; i++ {
		s = append(s, i)
	}
	return s
}

// view is an instruction's view over the memory it lies in. Its layout was
// derived from a layout checked against that memory, or from the
// workspace's, so the bounds check cannot fail.
func (p *Plan[T]) view(a *arg, ops []views.View[T], dst views.View[T], ws []T) views.View[T] {
	var data []T
	switch a.at.op {
	case inWS:
		data = ws[a.at.off:]
	case inDst:
		data = dst.Data()
	default:
		data = ops[a.at.op].Data()
	}
	v, err := views.FromSlice(data, a.l)
	if err != nil {
		panic(fmt.Sprintf("einsum: a planned view is out of bounds: %v", err))
	}
	if a.conj {
		v = v.Conj()
	}
	return v
}
