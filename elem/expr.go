package elem

import (
	"slices"
	"unsafe"

	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Expr is an element-wise expression over views, evaluated in one pass
// over memory by Eval or EvalTo:
//
//	e := elem.X(a).Add(elem.X(a.T())).Scale(0.5) // (a + a^T)/2
//	err := elem.EvalTo(dst, e)
//
// An expression that is a linear combination of at most three views
// (Add, Sub, Scale, Neg: a*x + b*y + z, (a + a^T)/2) runs as one
// specialised kernel; any other (with Mul or Div) runs as a small
// program over blocks of elements held in cache, each operation a tight
// loop over its block, never a loop that interprets each element. An
// expression over more than three distinct views evaluates its largest
// parts into temporaries first. The views broadcast to the result's
// shape as in Add; a view used twice (x*x) is read once.
//
// A linear combination is evaluated with its coefficients folded: (a +
// b) - b is computed as 1*a + 0*b, which gives a where the rounded a + b
// - b might not (and (a + a)*0.5 does not overflow where a + a would).
//
// An Expr holds its views: build it again after a view's tensor is
// released. Building allocates; evaluating into a destination does not,
// unless the expression has more than three distinct views (its parts go
// to temporaries then).
type Expr[T Scalar] struct{ n *node[T] }

// node is an expression node: a leaf (a view) or an operation on one or
// two nodes.
type node[T Scalar] struct {
	op    opcode // opLeaf, opScale, opNeg, opAdd, opSub, opMul, opDiv
	alpha T
	a, b  *node[T]
	v     views.View[T]
}

// opLeaf marks a leaf node (never a kernel's operation).
const opLeaf opcode = 255

// X is the expression of the view v.
func X[T Scalar](v views.View[T]) Expr[T] { return Expr[T]{&node[T]{op: opLeaf, v: v}} }

// Add is e + f.
func (e Expr[T]) Add(f Expr[T]) Expr[T] { return e.with(opAdd, f, 0) }

// Sub is e - f.
func (e Expr[T]) Sub(f Expr[T]) Expr[T] { return e.with(opSub, f, 0) }

// Mul is e * f, element by element.
func (e Expr[T]) Mul(f Expr[T]) Expr[T] { return e.with(opMul, f, 0) }

// Div is e / f, element by element.
func (e Expr[T]) Div(f Expr[T]) Expr[T] { return e.with(opDiv, f, 0) }

// Scale is alpha * e.
func (e Expr[T]) Scale(alpha T) Expr[T] { return e.with(opScale, Expr[T]{}, alpha) }

// Neg is -e.
func (e Expr[T]) Neg() Expr[T] { return e.with(opNeg, Expr[T]{}, 0) }

func (e Expr[T]) with(op opcode, f Expr[T], alpha T) Expr[T] {
	return Expr[T]{&node[T]{op: op, a: e.n, b: f.n, alpha: alpha}}
}

// each calls f with each leaf's view.
func (n *node[T]) each(f func(*views.View[T])) {
	switch {
	case n.op == opLeaf:
		f(&n.v)
	case n.op >= opAdd:
		n.a.each(f)
		n.b.each(f)
	default:
		n.a.each(f)
	}
}

// Eval returns the value of e as a new column-major tensor of the
// broadcast shape of its views.
func Eval[T Scalar](e Expr[T]) (*views.Tensor[T], error) {
	const op = "elem.Eval"
	var c compiled[T]
	if err := c.leaves(op, e.n); err != nil {
		return nil, err
	}
	var shapes [][]int
	var names []string
	e.n.each(func(v *views.View[T]) {
		shapes = append(shapes, v.Shape())
		names = append(names, "e")
	})
	shape, err := broadcastShape(op, names, shapes...)
	if err != nil {
		return nil, err
	}
	t, err := result[T](op, shape)
	if err != nil {
		return nil, err
	}
	if err := EvalTo(t.View(), e); err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// EvalTo sets dst to the value of e; the views of e broadcast to dst's
// shape. As for AddTo, dst may be one of them element for element and
// must share no memory with them otherwise.
func EvalTo[T Scalar](dst views.View[T], e Expr[T]) error {
	const op = "elem.EvalTo"
	if e.n == nil {
		return layout.Errorf(layout.ErrShape, op, "e", "the zero Expr; build one with elem.X")
	}
	if err := output(op, &dst); err != nil {
		return err
	}
	var c compiled[T]
	if err := c.leaves(op, e.n); err != nil {
		return err
	}
	if c.n > loop.MaxOps-1 {
		if err := checkLeaves(op, &dst, e.n); err != nil {
			return err
		}
		return evalSplit(op, &dst, e.n)
	}
	var ls [loop.MaxOps - 1]layout.Layout
	var src sources
	for i := range c.n {
		l, err := input(op, "e", &dst, &c.v[i])
		if err != nil {
			return err
		}
		ls[i] = l
		data, _, conj := c.v[i].Ref()
		src.base[i], src.conj[i] = unsafe.Pointer(unsafe.SliceData(data)), conj
	}
	var prog program[T]
	k, ok := c.kernel(e.n, &prog)
	if !ok { // too large for a program (the views passed input above)
		return evalSplit(op, &dst, e.n)
	}
	var g *program[T]
	if k.op == opProg {
		g = &prog
	}
	applySources(&k, g, &dst, &src, &ls[0], &ls[1], &ls[2])
	return nil
}

// checkLeaves checks every view of n as input checks an operand of dst:
// it broadcasts to dst's shape and shares no memory with dst other than
// element for element.
func checkLeaves[T Scalar](op string, dst *views.View[T], n *node[T]) error {
	var err error
	n.each(func(v *views.View[T]) {
		if err == nil {
			_, err = input(op, "e", dst, v)
		}
	})
	return err
}

// evalSplit evaluates an expression over more than three views: its
// operands' subtrees into temporaries, then itself.
func evalSplit[T Scalar](op string, dst *views.View[T], n *node[T]) error {
	if n.op == opLeaf {
		return ScaleTo(*dst, 1, n.v)
	}
	var tmps []*views.Tensor[T]
	defer func() {
		for _, t := range tmps {
			t.Release()
		}
	}()
	sub := func(m *node[T]) (*node[T], error) {
		if m == nil || m.op == opLeaf {
			return m, nil
		}
		t, err := Eval(Expr[T]{m})
		if err != nil {
			return nil, err
		}
		tmps = append(tmps, t)
		return &node[T]{op: opLeaf, v: t.View()}, nil
	}
	a, err := sub(n.a)
	if err != nil {
		return err
	}
	b, err := sub(n.b)
	if err != nil {
		return err
	}
	return EvalTo(*dst, Expr[T]{&node[T]{op: n.op, alpha: n.alpha, a: a, b: b}})
}

// compiled is an expression reduced to its distinct views (at most
// loop.MaxOps-1 are evaluated in one pass; n counts them all).
type compiled[T Scalar] struct {
	v [loop.MaxOps - 1]views.View[T]
	n int
}

// leaves collects the distinct views of n, checking each.
func (c *compiled[T]) leaves(op string, n *node[T]) error {
	if n == nil {
		return layout.Errorf(layout.ErrShape, op, "e", "an operation is missing an operand (the zero Expr)")
	}
	if n.op != opLeaf {
		if err := c.leaves(op, n.a); err != nil {
			return err
		}
		if n.op >= opAdd {
			return c.leaves(op, n.b)
		}
		return nil
	}
	if err := live(op, "e", &n.v); err != nil {
		return err
	}
	if c.index(&n.v) < 0 {
		if c.n < len(c.v) {
			c.v[c.n] = n.v
		}
		c.n++
	}
	return nil
}

// index is the operand index of the view v, or -1.
func (c *compiled[T]) index(v *views.View[T]) int {
	for i := range min(c.n, len(c.v)) {
		if sameView(&c.v[i], v) {
			return i
		}
	}
	return -1
}

// sameView reports whether v and w are the same view of the same memory.
func sameView[T Scalar](v, w *views.View[T]) bool {
	vd, vl, vc := v.Ref()
	wd, wl, wc := w.Ref()
	vs, vst := vl.Axes()
	ws, wst := wl.Axes()
	return vc == wc && unsafe.SliceData(vd) == unsafe.SliceData(wd) && vl.Origin() == wl.Origin() &&
		slices.Equal(vs, ws) && slices.Equal(vst, wst)
}

// kernel returns the kernel evaluating n: a linear combination of the
// views as one of the arithmetic kernels, anything else as a program
// (ok is false when n needs more than progSlots slots).
func (c *compiled[T]) kernel(n *node[T], prog *program[T]) (k kern[T], ok bool) {
	var coef [loop.MaxOps - 1]T
	if c.linear(n, 1, &coef) {
		switch c.n {
		case 1:
			return kern[T]{op: opScale, alpha: coef[0]}, true
		case 2:
			return kern[T]{op: opAxpby, alpha: coef[0], beta: coef[1]}, true
		default:
			return kern[T]{op: opLin3, alpha: coef[0], beta: coef[1], gamma: coef[2]}, true
		}
	}
	k = kern[T]{op: opProg, nprog: c.n}
	return k, prog.compile(c, n)
}

// linear adds scale times n's coefficients of the views to coef and
// reports whether n is a linear combination of them.
func (c *compiled[T]) linear(n *node[T], scale T, coef *[loop.MaxOps - 1]T) bool {
	switch n.op {
	case opLeaf:
		coef[c.index(&n.v)] += scale
		return true
	case opScale:
		return c.linear(n.a, scale*n.alpha, coef)
	case opNeg:
		return c.linear(n.a, -scale, coef)
	case opAdd:
		return c.linear(n.a, scale, coef) && c.linear(n.b, scale, coef)
	case opSub:
		return c.linear(n.a, scale, coef) && c.linear(n.b, -scale, coef)
	}
	return false
}

// progChunk is the block of elements a program runs each instruction
// over, and progSlots the most values it holds at once.
const (
	progChunk = 64
	progSlots = 16
)

// program is an expression compiled to instructions over slots: slot i <
// the number of views holds view i's block, the others the nodes'
// values; the last instruction's slot is the result.
type program[T Scalar] struct {
	code  [progCode]instr[T]
	ncode int
	nleaf int
	out   int
}

// progCode is the most instructions a program holds; a larger expression
// evaluates its parts into temporaries first (evalSplit).
const progCode = 128

type instr[T Scalar] struct {
	op      opcode
	d, a, b int
	alpha   T
}

// compile writes n's instructions, slots used as a stack (a node's
// operands are done with when it runs), and reports whether they fit in
// progSlots.
func (g *program[T]) compile(c *compiled[T], n *node[T]) bool {
	g.nleaf = c.n
	g.out = g.emit(c, n, c.n)
	return g.out < progSlots
}

// emit writes n's instructions with free slots from next up and returns
// the slot holding its value (progSlots or more: too deep).
func (g *program[T]) emit(c *compiled[T], n *node[T], next int) int {
	if n.op == opLeaf {
		return c.index(&n.v)
	}
	a := g.emit(c, n.a, next)
	if a >= progSlots {
		return a
	}
	b := -1
	if n.op >= opAdd {
		if b = g.emit(c, n.b, max(next, a+1)); b >= progSlots {
			return b
		}
	}
	// The result goes into an operand's slot when that holds a temporary
	// (element by element, d[j] = a[j] op b[j] may overwrite a[j]): a
	// chain such as x*x*x*... then uses one slot, not one per level.
	d := next
	switch {
	case a >= g.nleaf:
		d = a
	case b >= g.nleaf:
		d = b
	}
	if d >= progSlots || g.ncode == progCode {
		return progSlots
	}
	g.code[g.ncode] = instr[T]{op: n.op, d: d, a: a, b: b, alpha: n.alpha}
	g.ncode++
	return d
}

// run evaluates the program over n elements of the operands at p with
// byte strides s, a block at a time. A view contiguous along the line
// (and not conjugated) is read in place, and the last instruction writes
// a contiguous destination in place; the others go through the blocks'
// buffers, which stay in L1.
func (g *program[T]) run(k *kern[T], n int, p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int) {
	var buf [progSlots][progChunk]T
	var slot [progSlots][]T
	sz := int(unsafe.Sizeof(*new(T)))
	for lo := 0; lo < n; lo += progChunk {
		m := min(progChunk, n-lo)
		for i := range g.nleaf {
			q, st := unsafe.Add(p[1+i], lo*s[1+i]), s[1+i]
			if st == sz && !k.conj[1+i] {
				slot[i] = unsafe.Slice((*T)(q), m)
				continue
			}
			x := buf[i][:m]
			for j := range x {
				x[j] = *(*T)(unsafe.Add(q, j*st))
			}
			if k.conj[1+i] {
				conjLine(x)
			}
			slot[i] = x
		}
		for i := g.nleaf; i < progSlots; i++ {
			slot[i] = buf[i][:m]
		}
		direct := s[0] == sz && !k.conjOut
		for c, in := range g.code[:g.ncode] {
			d := slot[in.d]
			if direct && c == g.ncode-1 {
				d = unsafe.Slice((*T)(unsafe.Add(p[0], lo*sz)), m)
			}
			a := slot[in.a][:len(d)]
			switch in.op {
			case opScale:
				for j := range d {
					d[j] = in.alpha * a[j]
				}
			case opNeg:
				for j := range d {
					d[j] = -a[j]
				}
			case opAdd:
				b := slot[in.b][:len(d)]
				for j := range d {
					d[j] = a[j] + b[j]
				}
			case opSub:
				b := slot[in.b][:len(d)]
				for j := range d {
					d[j] = a[j] - b[j]
				}
			case opMul:
				b := slot[in.b][:len(d)]
				for j := range d {
					d[j] = a[j] * b[j]
				}
			case opDiv:
				b := slot[in.b][:len(d)]
				for j := range d {
					d[j] = a[j] / b[j]
				}
			}
		}
		if direct {
			continue
		}
		r := slot[g.out]
		if k.conjOut {
			conjLine(r)
		}
		for j, x := range r {
			*(*T)(unsafe.Add(p[0], (lo+j)*s[0])) = x
		}
	}
}
