package einsum

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/lapis-go/lapis/internal/kernel/gemm"
	"github.com/lapis-go/lapis/layout"
)

// pairwise lowers the contraction of nodes a and b into a tensor with the
// labels keep (the destination when final). Each label is classified:
//
//	batch  in a, b and the result     a batch axis of the product
//	left   in a and the result        the rows M
//	right  in b and the result        the columns N
//	summed in a and b                 the inner dimension K
//
// With no summed label the step is an element-wise product (the
// element-wise engine, broadcasting), with neither left nor right labels a
// batched dot product (its reduction), and otherwise one batched GEMM,
// C[M, N, batch] = A[M, K, batch] B[K, N, batch], on the operands' own
// memory when each group's strides fuse into one dimension BLAS can take.
// Labels of extent 1 take no part.
func (pl *planner[T]) pairwise(a, b node, keep []int, final bool, next *lookahead) node {
	ext := pl.pr.ext
	var m, n, k, bt, ones []int
	for _, lb := range keep {
		if ext[lb] == 1 {
			ones = append(ones, lb)
			continue
		}
		switch inA, inB := slices.Contains(a.labels, lb), slices.Contains(b.labels, lb); {
		case inA && inB:
			bt = append(bt, lb)
		case inA:
			m = append(m, lb)
		default:
			n = append(n, lb)
		}
	}
	for _, lb := range a.labels {
		if ext[lb] != 1 && slices.Contains(b.labels, lb) && !slices.Contains(keep, lb) {
			k = append(k, lb)
		}
	}
	var c node
	if final {
		c = node{labels: pl.pr.out, l: pl.p.dst.l, conj: pl.p.dst.conj, at: place{op: inDst}}
	}
	switch {
	case len(k) == 0:
		if !final {
			c = pl.temp(keep)
		}
		pl.elementwise(instr{kind: kMul, out: arg{at: c.at, l: c.l, conj: c.conj},
			a: pl.over(a, c.labels), b: pl.over(b, c.labels), final: final}, c.labels)
		return c
	case len(m) == 0 && len(n) == 0:
		if !final {
			c = pl.temp(keep)
		}
		x := append(slices.Clone(c.labels), k...) // the result's axes, then the summed ones
		pl.elementwise(instr{kind: kDot, out: arg{at: c.at, l: c.l, conj: c.conj},
			a: pl.over(a, x), b: pl.over(b, x), nsum: len(k), final: final}, c.labels)
		return c
	}
	return pl.gemm(a, b, c, m, n, k, bt, ones, final, next)
}

// elementwise emits in; when it is final, with a buffer of the
// destination's shape for alpha and beta.
func (pl *planner[T]) elementwise(in instr, labels []int) {
	if in.final {
		t := pl.temp(labels)
		in.tmp = &arg{at: t.at, l: t.l}
	}
	pl.emit(in)
}

// gemm lowers a batched product. It chooses the order of the labels of
// each group (M, N, K) among the orders in which one of the group's two
// tensors fuses it (by increasing stride), and copies the tensors that do
// not fuse the chosen orders, or whose matrix BLAS cannot take. A row or
// column group may also keep only the labels that fuse in one of its
// tensors (the longest such prefix of its order) and loop over the rest
// as batch axes (the tensor that lacks them repeats), trading copies for
// more, smaller products. Of these choices it takes the cheapest: each
// element copied costs 1 (a destination's 2: in and out), each product
// beyond the first loopCost, and the products their productCost. An
// intermediate result is laid out to fuse; the destination, when final
// and it does not fuse, is computed in a buffer and copied.
func (pl *planner[T]) gemm(a, b, c node, m, n, k, bt, ones []int, final bool, next *lookahead) node {
	type choice struct {
		om, on, ok          []int
		looped              []int // row and column labels looped over
		copyA, copyB, copyC bool
		cost                float64 // in elements copied (float64: products of huge extents)
	}
	// conj(C) = conj(alpha) A B + conj(beta) conj(C) is C = alpha conj(A)
	// conj(B) + beta C: into a conjugated destination, or from two
	// conjugated operands (which BLAS takes only transposed), the product
	// runs on the data as stored with every flag turned and the scalars
	// conjugated. An intermediate then carries the flag; a destination
	// that is not conjugated is conjugated in place around the call.
	turned := final && c.conj || a.conj && b.conj
	outPass := false
	if turned {
		a.conj, b.conj = !a.conj, !b.conj
		switch {
		case !final:
			c.conj = true // set on the new intermediate below
		case c.conj:
			c.conj = false
		default:
			outPass = true
		}
	}
	ms, ns := []node{a}, []node{b}
	if final {
		ms, ns = append(ms, c), append(ns, c)
	}
	oks := [][]int{pl.natural(a, k), pl.natural(b, k)}
	best := choice{cost: -1}
	for _, sm := range pl.splits(m, ms...) {
		for _, sn := range pl.splits(n, ns...) {
			looped := slices.Concat(sm.looped, sn.looped)
			bl := slices.Concat(bt, looped)
			if len(looped) > 0 && len(bl) > maxBatchAxes {
				continue
			}
			for _, ok := range oks {
				ch := choice{om: sm.fused, on: sn.fused, ok: ok, looped: looped}
				ch.copyC = final && !pl.fits(c, ch.om, ch.on, bl, false)
				ct := false // C's matrix is row-major: BLAS computes C^T = B^T A^T
				if final && !ch.copyC {
					m, _ := pl.matrix(c, ch.om, ch.on, bl).Matrix()
					ct = m.Trans
				}
				ch.copyA = !pl.fits(a, ch.om, ok, bl, ct)
				ch.copyB = !pl.fits(b, ok, ch.on, bl, ct)
				if ch.copyA {
					ch.cost += float64(a.l.Len())
				}
				if ch.copyB {
					ch.cost += float64(b.l.Len())
				}
				if ch.copyC {
					ch.cost += 2 * float64(c.l.Len())
				}
				calls := pl.size(looped)
				ch.cost += float64(calls-1)*loopCost + pl.productCost(calls, pl.size(ch.om), pl.size(ch.on), pl.size(ok))
				if best.cost < 0 || ch.cost < best.cost {
					best = ch
				}
			}
		}
	}
	if final && (best.copyA || best.copyB || best.copyC) {
		if in, ok := pl.lanes(a, b, c, m, n, k, bt, turned); ok {
			pl.emit(in)
			return c
		}
	}
	ref := a
	if final {
		ref = c
	}
	bt = pl.natural(ref, slices.Concat(bt, best.looped))
	if best.copyA {
		a = pl.copyOf(a, slices.Concat(best.om, best.ok, bt), "operand A")
	}
	if best.copyB {
		b = pl.copyOf(b, slices.Concat(best.ok, best.on, bt), "operand B")
	}
	in := instr{kind: kGemm, final: final, conjScalars: turned, conjPass: outPass && !best.copyC}
	in.a = arg{at: a.at, l: pl.matrix(a, best.om, best.ok, bt), conj: a.conj}
	in.b = arg{at: b.at, l: pl.matrix(b, best.ok, best.on, bt), conj: b.conj}
	switch {
	case !final:
		c = pl.temp(pl.orient(slices.Concat(best.om, best.on, bt, ones), slices.Concat(best.on, best.om, bt, ones), next, a.conj || b.conj))
		c.conj = turned
	case best.copyC:
		t := pl.temp(slices.Concat(best.om, best.on, bt, ones))
		in.tmp = &arg{at: t.at, l: pl.over(t, c.labels).l}
		pl.counted("dst", c.l, "its indices do not fuse into the product's rows and columns, or it is conjugated")
		c = node{labels: t.labels, l: t.l, at: t.at}
	}
	in.out = arg{at: c.at, l: pl.matrix(c, best.om, best.on, bt), conj: c.conj && !turned}
	pl.emit(in)
	return c
}

// lanes lowers a final float64 product whose batch is one index of stride
// 1 in a, b and the destination (structure-of-arrays data: bij,bjk->bik
// over column-major tensors), which BLAS cannot take without copying all
// three, to gemm.Lanes: every SIMD lane another matrix of the batch, no
// copy. It applies where the CPU has Lanes's tiles, no operand is
// conjugated, and each of the groups M, N and K fuses in both tensors
// that have it; gemm takes it when its BLAS lowering would copy.
func (pl *planner[T]) lanes(a, b, c node, m, n, k, bt []int, turned bool) (instr, bool) {
	if _, ok := any(*new(T)).(float64); !ok || !gemm.Fast || turned || a.conj || b.conj || c.conj || len(bt) != 1 {
		return instr{}, false
	}
	if pl.pr.ext[bt[0]] < lanesMin {
		return instr{}, false
	}
	for _, x := range [...]node{a, b, c} {
		if pl.stride(x, bt[0]) != 1 {
			return instr{}, false
		}
	}
	om, on, ok := pl.natural(c, m), pl.natural(c, n), pl.natural(a, k)
	if !pl.fuses(a, om) || !pl.fuses(c, om) || !pl.fuses(b, on) || !pl.fuses(c, on) || !pl.fuses(a, ok) || !pl.fuses(b, ok) {
		return instr{}, false
	}
	in := instr{kind: kLanes, final: true}
	in.a = arg{at: a.at, l: pl.matrix(a, om, ok, bt)}
	in.b = arg{at: b.at, l: pl.matrix(b, ok, on, bt)}
	in.out = arg{at: c.at, l: pl.matrix(c, om, on, bt)}
	return in, true
}

// lanesMin is the smallest batch gemm hands to Lanes: below one AVX2
// tile's lanes it runs in Go.
const lanesMin = 4

// loopCost is what gemm counts for each product a loop adds, in elements
// copied: a small product's call costs about as much as copying a few
// hundred elements.
const loopCost = 1024

// productCost is the time of calls products of m x k by k x n, in
// elements copied: a multiply-add costs a fifteenth of an element copied
// at full speed (30 GFLOP/s against 15 GB/s of copies, in and out, on one
// core), and a product runs at d/(d+24) of full speed, d its least
// dimension, so that a loop that leaves small matrices is not taken to
// save a copy of a large product's operand.
func (pl *planner[T]) productCost(calls, m, n, k int) float64 {
	d := float64(min(m, n, k))
	madds := float64(calls) * float64(m) * float64(n) * float64(k)
	return madds / 15 * (d + 24) / max(d, 1)
}

// maxBatchAxes is the most batch axes a product gets when it loops
// (batch.Gemm's C path takes at most 8 that do not merge).
const maxBatchAxes = 8

// split is a row or column group cut into the labels that form the
// matrix dimension (fused) and those looped over as batch axes.
type split struct{ fused, looped []int }

// splits returns the ways gemm tries to lay out group g: in each tensor
// of xs, its order in full, and its longest prefix that fuses there with
// the rest looped.
func (pl *planner[T]) splits(g []int, xs ...node) []split {
	var out []split
	for _, x := range xs {
		o := pl.natural(x, g)
		out = append(out, split{fused: o})
		p := 1
		for p < len(o) && pl.fuses(x, o[:p+1]) {
			p++
		}
		if p < len(o) {
			out = append(out, split{fused: o[:p], looped: o[p:]})
		}
	}
	return out
}

// size is the product of the labels' extents.
func (pl *planner[T]) size(labels []int) int {
	n := 1
	for _, lb := range labels {
		n *= pl.pr.ext[lb]
	}
	return n
}

// lookahead is what the step that consumes an intermediate needs of it:
// the tensor it meets there (already made) and the labels kept there.
type lookahead struct {
	partner node
	keep    []int
}

// orient chooses the axis order of an intermediate that a product writes:
// rows first (C), or columns first (C^T, which BLAS writes as well). It
// takes the columns-first order only when the step that consumes the
// intermediate fuses more of its groups with it, so that no copy is made
// there (TensorOperations.jl's choice of which side is A, made one step
// ahead), and never when the product has a conjugated operand (conj),
// which was fitted to a column-major C.
func (pl *planner[T]) orient(rows, cols []int, next *lookahead, conj bool) []int {
	if next == nil || conj {
		return rows
	}
	score := func(labels []int) int {
		x := pl.compact(labels)
		var summed, own []int
		for _, lb := range labels {
			switch in := slices.Contains(next.partner.labels, lb); {
			case in && !slices.Contains(next.keep, lb):
				summed = append(summed, lb)
			case !in && slices.Contains(next.keep, lb):
				own = append(own, lb)
			}
		}
		n := 0
		if pl.fuses(x, pl.natural(next.partner, summed)) {
			n++
		}
		if pl.fuses(x, pl.natural(x, own)) {
			n++
		}
		return n
	}
	if score(cols) > score(rows) {
		return cols
	}
	return rows
}

// natural returns the labels of g in increasing order of their strides in
// x (by label on ties): the order in which x fuses g, when it does.
func (pl *planner[T]) natural(x node, g []int) []int {
	o := slices.Clone(g)
	slices.SortStableFunc(o, func(p, q int) int {
		sp, sq := abs(pl.stride(x, p)), abs(pl.stride(x, q))
		return cmp.Or(cmp.Compare(sp, sq), cmp.Compare(p, q))
	})
	return o
}

// fits reports whether x, its rows in order r and its columns in order c,
// is a batch of matrices BLAS takes as they are: each group fuses (each
// label's stride the previous one's times its extent), the matrix is
// column- or row-major (layout.Matrix), and, when x is conjugated, it
// reaches BLAS transposed, as "C" (its orientation differs from the
// product's, ct: BLAS has no conjugate without transpose).
func (pl *planner[T]) fits(x node, r, c, bt []int, ct bool) bool {
	if !pl.fuses(x, r) || !pl.fuses(x, c) {
		return false
	}
	m, ok := pl.matrix(x, r, c, bt).Matrix()
	return ok && (!x.conj || m.Trans != ct)
}

// fuses reports whether the labels o of x step as one dimension.
func (pl *planner[T]) fuses(x node, o []int) bool {
	for i := 1; i < len(o); i++ {
		if pl.stride(x, o[i]) != pl.stride(x, o[i-1])*pl.pr.ext[o[i-1]] {
			return false
		}
	}
	return true
}

// matrix is x as a batch [rows, cols, bt...]: the groups r and c fused
// (each the extent product, the first label's stride), the batch labels as
// they are.
func (pl *planner[T]) matrix(x node, r, c, bt []int) layout.Layout {
	shape := make([]int, 0, 2+len(bt))
	strides := make([]int, 0, 2+len(bt))
	for _, g := range [2][]int{r, c} {
		d, s := 1, 1
		for i, lb := range g {
			d *= pl.pr.ext[lb]
			if i == 0 {
				s = pl.stride(x, lb)
			}
		}
		shape, strides = append(shape, d), append(strides, s)
	}
	for _, lb := range bt {
		shape, strides = append(shape, pl.pr.ext[lb]), append(strides, pl.stride(x, lb))
	}
	return pl.made(layout.New(shape, strides, x.l.Offset()))
}

// over is x read through the axes labels: each label's stride in x, 0 (a
// repeat) for a label x lacks.
func (pl *planner[T]) over(x node, labels []int) arg {
	shape := make([]int, len(labels))
	strides := make([]int, len(labels))
	for i, lb := range labels {
		shape[i], strides[i] = pl.pr.ext[lb], pl.stride(x, lb)
	}
	return arg{at: x.at, l: pl.made(layout.New(shape, strides, x.l.Offset())), conj: x.conj}
}

// stride is label lb's stride in x (0 when x lacks it).
func (pl *planner[T]) stride(x node, lb int) int {
	if i := slices.Index(x.labels, lb); i >= 0 {
		return x.l.Stride(i)
	}
	return 0
}

// copyOf emits a copy of x into a compact buffer with the given labels
// first (in that order, x's others after them) and returns the copy. A
// conjugated x is conjugated by the copy (which is made anyway): the
// copy is column-major, which BLAS cannot take conjugated.
func (pl *planner[T]) copyOf(x node, first []int, name string) node {
	var labels []int // first's labels that x has (not those it repeats)
	for _, lb := range first {
		if slices.Contains(x.labels, lb) {
			labels = append(labels, lb)
		}
	}
	for _, lb := range x.labels {
		if !slices.Contains(labels, lb) {
			labels = append(labels, lb)
		}
	}
	src := pl.over(x, labels)
	t := pl.temp(labels)
	pl.counted(pl.nameOf(x, name), x.l, "its indices do not fuse into the matrix dimensions BLAS takes")
	pl.emit(instr{kind: kCopy, out: arg{at: t.at, l: t.l}, a: src})
	return t
}

// counted records a copy each execution makes, and the first one's reason
// (strict mode's error).
func (pl *planner[T]) counted(name string, l layout.Layout, why string) {
	if pl.p.copies == 0 {
		pl.p.first = refusal{name, l, why}
	}
	pl.p.copies++
}

// nameOf names node x in messages: its operand, or an intermediate.
func (pl *planner[T]) nameOf(x node, role string) string {
	if x.at.op >= 0 {
		return fmt.Sprintf("ops[%d]", x.at.op)
	}
	return "an intermediate (" + role + ")"
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
