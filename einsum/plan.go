package einsum

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Options configure a plan. The zero value is the default: the greedy
// path, no memory limit, the process-wide settings for the BLAS calls.
type Options struct {
	Path        Path           // how the pairwise order is found
	Order       [][2]int       // the order to use, in opt_einsum's form (overrides Path)
	MemoryLimit int            // the most elements of one intermediate; 0: no limit
	Call        []lapis.Option // options of every call the plan makes (lapis.Strict)
}

// Plan is a contraction prepared for operands and a destination of given
// shapes, strides and conjugation flags: parsed, its path found, each
// pairwise step lowered to the calls it makes and its workspace laid out.
// Execute runs it on any operands laid out the same way. A Plan is
// immutable and may be executed by several goroutines at once, each with
// its own workspace.
type Plan[T Scalar] struct {
	spec    Spec
	ops     []shapeKey // what the plan was made for, per operand
	dst     shapeKey
	path    []pair
	prog    []instr
	ws      int // workspace elements
	copies  int // operand copies each execution makes
	flops   float64
	largest [2]int // elements of the two largest workspace buffers
	live    int    // the most elements of buffers in use at one instruction
	call    []lapis.Option
	first   refusal // the first copy (strict mode's error names it)
}

// refusal is what strict mode's error says of a copy.
type refusal struct {
	name string
	l    layout.Layout
	why  string
}

// shapeKey is what a plan depends on of one view.
type shapeKey struct {
	l    layout.Layout
	conj bool
}

// place says where an instruction's view lies: in operand op (op >= 0),
// in workspace buffer buf (op == inWS), or in the destination (op == inDst).
type place struct {
	op  int
	off int // workspace offset (inWS)
}

const (
	inWS  = -1
	inDst = -2
)

// arg is an instruction's view: where it lies, its layout and its flag.
type arg struct {
	at   place
	l    layout.Layout
	conj bool
}

type kind uint8

const (
	kCopy   kind = iota // out = a (a copy of an operand, counted)
	kSum                // out = sum of a over its last nsum axes
	kDot                // out = sum of a*b over their last nsum axes
	kMul                // out = a*b (broadcast)
	kGemm               // out = a b, batched (batch.Gemm)
	kAssign             // out = a (the result of a one-operand contraction)
	kLanes              // out = a b, batched with the batch innermost (gemm.Lanes)
)

// instr is one call of a plan. final instructions write the destination
// and take alpha and beta: directly (kGemm, kAssign), or through tmp when
// alpha is not 1 or beta not 0 (kSum, kDot, kMul: into tmp, then
// dst = alpha*tmp + beta*dst). A kGemm whose destination cannot be given
// to BLAS runs into tmp (holding dst when beta is not 0) and copies back.
type instr struct {
	kind  kind
	out   arg
	a, b  arg
	nsum  int
	final bool
	tmp   *arg

	conjScalars bool // alpha and beta are conjugated (flags turned: see gemm)
	conjPass    bool // dst is conjugated in place around the call
}

// node is a tensor while the plan is made: an operand (after diagonals,
// broadcasts and sums of its own indices) or an intermediate.
type node struct {
	labels []int // the label of each axis of l
	l      layout.Layout
	conj   bool
	at     place
}

// NewPlan prepares the contraction s of operands laid out as ops into a
// destination laid out as dst (views of any layout; their data is not
// read). Errors: lapis.ErrInvalid for a bad spec, option or path,
// layout.ErrShape for operands or a destination that do not match the spec,
// lapis.ErrCopyRefused in strict mode when a step would copy an operand.
func NewPlan[T Scalar](s Spec, dst views.View[T], ops []views.View[T], o Options) (*Plan[T], error) {
	p := &Plan[T]{spec: s, call: o.Call}
	for k := range ops {
		if err := ops[k].CheckLive("einsum.NewPlan", fmt.Sprintf("ops[%d]", k)); err != nil {
			return nil, err
		}
		p.ops = append(p.ops, shapeKey{ops[k].Layout(), ops[k].IsConj()})
	}
	if err := dst.CheckLive("einsum.NewPlan", "dst"); err != nil {
		return nil, err
	}
	if err := usable("einsum.NewPlan", &dst, ops, true); err != nil {
		return nil, err
	}
	p.dst = shapeKey{dst.Layout(), dst.IsConj()}
	pr, err := resolve(&s, ops, dst.Shape())
	if err != nil {
		return nil, err
	}
	if err := p.lower(pr, o); err != nil {
		return nil, err
	}
	if p.copies > 0 && lapis.Configure(o.Call...).Strict {
		return nil, p.refused()
	}
	return p, nil
}

// planner holds the state of lowering one problem.
type planner[T Scalar] struct {
	p     *Plan[T]
	pr    *problem
	nodes []node
	bufs  []buffer

	err error // the first layout that could not be made (sizes beyond an int)
}

// made returns l, or records err (a layout whose size overflows an int:
// an intermediate or a broadcast of the operands' extents) for lower to
// return.
func (pl *planner[T]) made(l layout.Layout, err error) layout.Layout {
	if err != nil && pl.err == nil {
		pl.err = err
	}
	return l
}

// buffer is a workspace buffer: its size and the instructions that use
// it, first to last.
type buffer struct {
	n, first, last int
	off            int
}

// lower turns the problem into the plan's instructions.
func (p *Plan[T]) lower(pr *problem, o Options) error {
	pl := &planner[T]{p: p, pr: pr}
	for k := range pr.in {
		n, err := pl.operand(k)
		if err != nil {
			return err
		}
		pl.nodes = append(pl.nodes, n)
	}
	// Indices of one operand only, not in the result: summed first.
	for k := range pl.nodes {
		pl.nodes[k] = pl.sumOwn(k)
	}
	info := &shapeInfo{out: pr.out, ext: pr.ext}
	for _, n := range pl.nodes {
		info.labels = append(info.labels, n.labels)
	}
	var err error
	switch {
	case o.Order != nil:
		p.path, err = checkPath(o.Order, len(pl.nodes))
	case o.Path == Optimal:
		p.path, err = info.optimal(o.MemoryLimit)
	case o.Path == Greedy:
		p.path, err = info.greedy(o.MemoryLimit)
	default:
		err = layout.Errorf(lapis.ErrInvalid, "einsum.NewPlan", "Path", "%v is not a Path", o.Path)
	}
	if err != nil {
		return err
	}
	keeps, uses := walk(info, len(pl.nodes), p.path)
	cur := pl.nodes
	made := map[int]node{} // by id: operands 0..n-1, step i's result n+i
	for k, n := range cur {
		made[k] = n
	}
	for i, st := range p.path {
		a, b := cur[st[0]], cur[st[1]]
		p.flops += info.flops(a.labels, b.labels)
		final := i == len(p.path)-1
		var next *lookahead
		if u, ok := uses[len(pl.nodes)+i]; ok {
			if partner, ok := made[u.partner]; ok {
				next = &lookahead{partner: partner, keep: keeps[u.step]}
			}
		}
		c := pl.pairwise(a, b, keeps[i], final, next)
		made[len(pl.nodes)+i] = c
		cur = append(without(cur, st[0], st[1]), c)
	}
	if len(p.path) == 0 {
		pl.assign(cur[0])
	}
	if pl.err != nil {
		return pl.err
	}
	pl.layout()
	return pool.Check[T]("einsum.NewPlan", "workspace", p.ws)
}

// use is the step that consumes a tensor and the tensor (by id) it is
// contracted with there.
type use struct{ step, partner int }

// walk runs the path on labels only. It returns the labels each step
// keeps (those its result needs: in the result or in a tensor left) and,
// by tensor id (operands 0..n-1, step i's result n+i), the step that
// consumes the tensor.
func walk(info *shapeInfo, n int, path []pair) (keeps [][]int, uses map[int]use) {
	ids := make([]int, n)
	labels := slices.Clone(info.labels)
	for k := range ids {
		ids[k] = k
	}
	uses = map[int]use{}
	for i, st := range path {
		a, b := ids[st[0]], ids[st[1]]
		rest := without(ids, st[0], st[1])
		restLabels := make([][]int, len(rest))
		for j, id := range rest {
			restLabels[j] = labels[id]
		}
		keep := info.keep(labels[a], labels[b], restLabels)
		keeps = append(keeps, keep)
		uses[a], uses[b] = use{i, b}, use{i, a}
		labels = append(labels, keep)
		ids = append(rest, n+i)
	}
	return keeps, uses
}

// operand is operand k as a node: a repeated index becomes the diagonal
// (one axis, its strides added), an axis of extent 1 whose index has
// another extent repeats (stride 0), and an index of extent 1 that the
// result has not is dropped. Metadata only.
func (pl *planner[T]) operand(k int) (node, error) {
	l := pl.p.ops[k].l
	var labels, shape, strides []int
	for a, lb := range pl.pr.in[k] {
		if pl.pr.ext[lb] == 1 && !slices.Contains(pl.pr.out, lb) {
			continue // a sum over one element: index 0, dropped
		}
		s := l.Stride(a)
		if l.Dim(a) == 1 && pl.pr.ext[lb] != 1 {
			s = 0
		}
		if i := slices.Index(labels, lb); i >= 0 {
			strides[i] += s
			continue
		}
		labels, shape, strides = append(labels, lb), append(shape, pl.pr.ext[lb]), append(strides, s)
	}
	nl, err := layout.New(shape, strides, l.Offset())
	if err != nil {
		return node{}, err
	}
	return node{labels: labels, l: nl, conj: pl.p.ops[k].conj, at: place{op: k}}, nil
}

// sumOwn sums node k over its indices that no other node has and the
// result has not, into a workspace buffer.
func (pl *planner[T]) sumOwn(k int) node {
	n := pl.nodes[k]
	var keep, sum []int
	for i, lb := range n.labels {
		needed := slices.Contains(pl.pr.out, lb)
		for j, m := range pl.nodes {
			needed = needed || j != k && slices.Contains(m.labels, lb)
		}
		if needed {
			keep = append(keep, i)
		} else {
			sum = append(sum, i)
		}
	}
	if len(sum) == 0 {
		return n
	}
	x := must(n.l.Permute(append(slices.Clone(keep), sum...)...))
	out := pl.temp(pick(n.labels, keep))
	pl.emit(instr{kind: kSum, out: arg{at: out.at, l: out.l}, a: arg{at: n.at, l: x, conj: n.conj}, nsum: len(sum)})
	return out
}

// assign is the last instruction of a contraction with one operand: the
// node, its axes in the result's order, into dst.
func (pl *planner[T]) assign(n node) {
	perm := make([]int, len(pl.pr.out))
	for i, lb := range pl.pr.out {
		perm[i] = slices.Index(n.labels, lb)
	}
	x := must(n.l.Permute(perm...))
	pl.emit(instr{kind: kAssign, out: pl.dstArg(), a: arg{at: n.at, l: x, conj: n.conj}, final: true})
}

// dstArg is the destination as an instruction's view.
func (pl *planner[T]) dstArg() arg {
	return arg{at: place{op: inDst}, l: pl.p.dst.l, conj: pl.p.dst.conj}
}

// temp returns a node over a new compact column-major workspace buffer
// with the given labels, used from the next instruction on.
func (pl *planner[T]) temp(labels []int) node {
	n := pl.compact(labels)
	pl.bufs = append(pl.bufs, buffer{n: n.l.Len(), first: len(pl.p.prog), last: len(pl.p.prog)})
	n.at = place{op: inWS, off: len(pl.bufs) - 1}
	return n
}

// compact is a node with the given labels, laid out compact column-major
// (in no memory yet).
func (pl *planner[T]) compact(labels []int) node {
	shape := make([]int, len(labels))
	for i, lb := range labels {
		shape[i] = pl.pr.ext[lb]
	}
	return node{labels: labels, l: pl.made(layout.ColMajor(shape...))}
}

// emit appends in, extending the lifetime of every buffer it uses.
func (pl *planner[T]) emit(in instr) {
	i := len(pl.p.prog)
	for _, a := range []*arg{&in.out, &in.a, &in.b, in.tmp} {
		if a != nil && a.at.op == inWS {
			b := &pl.bufs[a.at.off]
			b.first, b.last = min(b.first, i), max(b.last, i)
		}
	}
	pl.p.prog = append(pl.p.prog, in)
}

// layout places the buffers in one workspace, first fit by lifetime, and
// rewrites the instructions' buffer numbers into offsets.
func (pl *planner[T]) layout() {
	order := make([]int, len(pl.bufs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return pl.bufs[b].n - pl.bufs[a].n })
	for k := 0; k < min(2, len(order)); k++ {
		pl.p.largest[k] = pl.bufs[order[k]].n
	}
	for i := range pl.p.prog {
		n := 0
		for _, b := range pl.bufs {
			if b.first <= i && i <= b.last {
				n += b.n
			}
		}
		pl.p.live = max(pl.p.live, n)
	}
	var placed []int
	for _, i := range order {
		b := &pl.bufs[i]
		off := 0
		for moved := true; moved; {
			moved = false
			for _, j := range placed {
				c := pl.bufs[j]
				live := b.first <= c.last && c.first <= b.last
				if live && off < c.off+c.n && c.off < off+b.n {
					off, moved = c.off+c.n, true
				}
			}
		}
		b.off = off
		placed = append(placed, i)
		pl.p.ws = max(pl.p.ws, off+b.n)
	}
	for i := range pl.p.prog {
		in := &pl.p.prog[i]
		for _, a := range []*arg{&in.out, &in.a, &in.b, in.tmp} {
			if a != nil && a.at.op == inWS {
				a.at.off = pl.bufs[a.at.off].off
			}
		}
	}
}

// Workspace returns the number of elements of the workspace Execute needs.
func (p *Plan[T]) Workspace() int { return p.ws }

// Copies returns the number of operand copies each execution makes (0
// when every step goes to BLAS or the element-wise engine on the
// operands' own memory).
func (p *Plan[T]) Copies() int { return p.copies }

// Flops returns the multiply-adds of the path.
func (p *Plan[T]) Flops() float64 { return p.flops }

// Order returns the plan's path in opt_einsum's form.
func (p *Plan[T]) Order() [][2]int {
	out := make([][2]int, len(p.path))
	for i, st := range p.path {
		out[i] = st
	}
	return out
}

// String describes the plan: its path and each instruction.
func (p *Plan[T]) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "einsum %q: %d steps, %.3g multiply-adds, workspace %d elements, %d copies\n",
		p.spec.text, len(p.path), p.flops, p.ws, p.copies)
	names := [...]string{kCopy: "copy", kSum: "sum", kDot: "dot", kMul: "mul", kGemm: "gemm", kAssign: "assign", kLanes: "lanes"}
	for _, in := range p.prog {
		fmt.Fprintf(&b, "  %s %v <- %v", names[in.kind], in.out.l.Shape(), in.a.l.Shape())
		if in.kind == kDot || in.kind == kMul || in.kind == kGemm || in.kind == kLanes {
			fmt.Fprintf(&b, ", %v", in.b.l.Shape())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// pick returns labels[i] for each i of idx.
func pick(labels, idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = labels[i]
	}
	return out
}

// must is for layouts built from checked ones (permutations and subsets of
// valid layouts cannot fail).
func must(l layout.Layout, err error) layout.Layout {
	if err != nil {
		panic("einsum: " + err.Error())
	}
	return l
}

// refused is strict mode's error for the plan's first copy.
func (p *Plan[T]) refused() error {
	return operand.Refused("einsum.NewPlan", p.first.name, p.first.l, p.first.why)
}
