package elem

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/kernel/sum"
	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Reductions. Each reduces x over the given axes (all of them when none
// are given): the plain word drops those axes from the result (Sum(x, 0)
// of an [m, n] x is its [n] column sums; Sum(x) is a rank-0 tensor), and
// ...To writes a destination whose shape is x's with those axes dropped
// or of extent 1 (kept, so that the result broadcasts against x).
//
// Sums (Sum, Mean, Dot) are pairwise: along a line x is contiguous in,
// in blocks of 128 elements with 8 accumulators, the blocks added in a
// binary tree (numpy's pairwise sum), and across the other reduced axes
// the reduction is split in halves until at most 128 partial sums are
// added in sequence per element, the halves added pairwise. The rounding
// error grows with the logarithm of the number of terms, not the number.

// Sum returns the sums of x over axes (all when none), dropping them.
func Sum[T Scalar](x views.View[T], axes ...int) (*views.Tensor[T], error) {
	return reduce("elem.Sum", rSum, &x, nil, axes)
}

// SumTo sets dst to the sums of x over axes (all when none); dst has x's
// shape with those axes dropped or of extent 1.
func SumTo[T Scalar](dst, x views.View[T], axes ...int) error {
	return reduceTo("elem.SumTo", rSum, &dst, &x, nil, axes)
}

// Mean returns the means of x over axes (all when none), dropping them.
func Mean[T Scalar](x views.View[T], axes ...int) (*views.Tensor[T], error) {
	return reduce("elem.Mean", rMean, &x, nil, axes)
}

// MeanTo sets dst to the means of x over axes (as SumTo). The mean of no
// elements is NaN, as numpy's.
func MeanTo[T Scalar](dst, x views.View[T], axes ...int) error {
	return reduceTo("elem.MeanTo", rMean, &dst, &x, nil, axes)
}

// Prod returns the products of x over axes (all when none), dropping them.
func Prod[T Scalar](x views.View[T], axes ...int) (*views.Tensor[T], error) {
	return reduce("elem.Prod", rProd, &x, nil, axes)
}

// ProdTo sets dst to the products of x over axes (as SumTo).
func ProdTo[T Scalar](dst, x views.View[T], axes ...int) error {
	return reduceTo("elem.ProdTo", rProd, &dst, &x, nil, axes)
}

// Max returns the largest elements of x over axes (all when none),
// dropping them; NaN where any of them is NaN. Real types only, and the
// axes must not be empty (an error matching layout.ErrShape).
func Max[T Scalar](x views.View[T], axes ...int) (*views.Tensor[T], error) {
	return reduce("elem.Max", rMax, &x, nil, axes)
}

// MaxTo sets dst to the largest elements of x over axes (as Max, SumTo).
func MaxTo[T Scalar](dst, x views.View[T], axes ...int) error {
	return reduceTo("elem.MaxTo", rMax, &dst, &x, nil, axes)
}

// Min returns the smallest elements of x over axes (as Max).
func Min[T Scalar](x views.View[T], axes ...int) (*views.Tensor[T], error) {
	return reduce("elem.Min", rMin, &x, nil, axes)
}

// MinTo sets dst to the smallest elements of x over axes (as Max, SumTo).
func MinTo[T Scalar](dst, x views.View[T], axes ...int) error {
	return reduceTo("elem.MinTo", rMin, &dst, &x, nil, axes)
}

// Dot returns the sums of x*y over axes (all when none), dropping them:
// Sum(Mul(x, y)) in one pass, y broadcast to x's shape. It does not
// conjugate: pass x.Conj() for the inner product of complex vectors.
func Dot[T Scalar](x, y views.View[T], axes ...int) (*views.Tensor[T], error) {
	return reduce("elem.Dot", rDot, &x, &y, axes)
}

// DotTo sets dst to the sums of x*y over axes (as Dot, SumTo).
func DotTo[T Scalar](dst, x, y views.View[T], axes ...int) error {
	return reduceTo("elem.DotTo", rDot, &dst, &x, &y, axes)
}

// Norm returns the norms of x over axes (all when none), dropping them:
// for each position of the other axes, the vector norm of the elements
// along the axes (L2 over all the elements of a matrix is its Frobenius
// norm; the operator norms of a matrix are lapack.Lange's). The 2-norm
// is scaled by the largest |x| first, so that it neither overflows nor
// underflows where the norm itself does not (LAPACK's nrm2, where numpy
// squares in place); it reads x twice. Norms are real: for complex T they
// are held in the real parts. The norm of no elements is 0.
func Norm[T Scalar](x views.View[T], kind NormKind, axes ...int) (*views.Tensor[T], error) {
	r, err := kind.rop("elem.Norm")
	if err != nil {
		return nil, err
	}
	return reduce("elem.Norm", r, &x, nil, axes)
}

// NormTo sets dst to the norms of x over axes (as Norm, SumTo).
func NormTo[T Scalar](dst, x views.View[T], kind NormKind, axes ...int) error {
	r, err := kind.rop("elem.NormTo")
	if err != nil {
		return err
	}
	return reduceTo("elem.NormTo", r, &dst, &x, nil, axes)
}

// NormKind is a vector norm.
type NormKind int

const (
	L1        NormKind = 1  // sum of |x|
	L2        NormKind = 2  // sqrt of the sum of |x|^2
	LInf      NormKind = -1 // max of |x|
	Frobenius          = L2 // L2 over a matrix's elements
)

func (k NormKind) rop(op string) (rop, error) {
	switch k {
	case L1:
		return rAbsSum, nil
	case L2:
		return rNorm2, nil
	case LInf:
		return rMaxAbs, nil
	}
	return 0, layout.Errorf(lapis.ErrInvalid, op, "kind", "norm %d; want elem.L1, elem.L2 (Frobenius) or elem.LInf", int(k))
}

// rop is a reduction.
type rop uint8

const (
	rSum rop = iota
	rMean
	rProd
	rMax
	rMin
	rDot
	rAbsSum // the 1-norm: sum of |x|
	rMaxAbs // the max-norm: max of |x|
	rSsq    // the 2-norm's sum of (|x|/s)^2, s the max-norm (source 2)
	rNorm2  // the 2-norm: rMaxAbs, then rSsq, then s*sqrt(ssq)
)

// pairwise reports whether r sums (and so is split for accuracy).
func (r rop) pairwise() bool {
	return r == rSum || r == rMean || r == rDot || r == rAbsSum || r == rSsq
}

// identity is r's starting value.
func identity[T Scalar](r rop) T {
	switch r {
	case rProd:
		return scalar.FromFloat[T](1)
	case rMax:
		return scalar.FromFloat[T](math.Inf(-1))
	case rMin:
		return scalar.FromFloat[T](math.Inf(1))
	}
	return 0
}

// reduction is one reduction call: the operation, its sources and the
// mask of reduced axes.
type reduction[T Scalar] struct {
	r       rop
	k       rkern[T]
	reduced [layout.MaxRank]bool
	rank    int
}

// reduce runs r into a new tensor of x's shape with axes dropped.
func reduce[T Scalar](op string, r rop, x, y *views.View[T], axes []int) (*views.Tensor[T], error) {
	if err := live(op, "x", x); err != nil {
		return nil, err
	}
	var red reduction[T]
	if err := red.axes(op, x.Shape(), axes); err != nil {
		return nil, err
	}
	shape := red.shape(x.Shape(), false)
	t, err := result[T](op, shape)
	if err != nil {
		return nil, err
	}
	dst := t.View()
	if err := reduceTo(op, r, &dst, x, y, axes); err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// axes sets the mask of reduced axes of a rank-len(shape) x (all when
// axes is empty), refusing an axis out of range or given twice.
func (red *reduction[T]) axes(op string, shape []int, axes []int) error {
	red.rank = len(shape)
	if len(axes) == 0 {
		for k := range shape {
			red.reduced[k] = true
		}
		return nil
	}
	for _, a := range axes {
		switch {
		case a < 0 || a >= len(shape):
			return layout.Errorf(layout.ErrShape, op, "axes", "axis %d out of range for x of rank %d", a, len(shape))
		case red.reduced[a]:
			return layout.Errorf(lapis.ErrInvalid, op, "axes", "axis %d given twice", a)
		}
		red.reduced[a] = true
	}
	return nil
}

// reduceTo checks the arguments and runs r into dst.
func reduceTo[T Scalar](op string, r rop, dst, x, y *views.View[T], axes []int) error {
	if r == rMax || r == rMin {
		if err := realOnly[T](op); err != nil {
			return err
		}
	}
	if err := output(op, dst); err != nil {
		return err
	}
	if err := live(op, "x", x); err != nil {
		return err
	}
	if y != nil {
		if err := live(op, "y", y); err != nil {
			return err
		}
	}
	red := reduction[T]{r: r}
	red.k.op = r
	xd, xl, xconj := x.Ref()
	xshape, _ := xl.Axes() // not Shape(): no copy
	if err := red.axes(op, xshape, axes); err != nil {
		return err
	}
	// dst's layout expanded to x's shape: its axes where x's are kept,
	// stride 0 along the reduced ones.
	dd, dl, dconj := dst.Ref()
	de, err := red.expand(op, dl, xl)
	if err != nil {
		return err
	}
	if views.Overlaps(*dst, *x) {
		return layout.Errorf(layout.ErrOverlap, op, "dst", "shares memory with x; write the result to other memory")
	}
	xs := opnd[T]{xd, *xl, xconj}
	var ys opnd[T]
	if y != nil {
		yd, yl, yconj := y.Ref()
		b, err := yl.BroadcastTo(xshape...)
		if err != nil {
			return layout.Errorf(layout.ErrShape, op, "y", "shape %v does not broadcast to x's %v", yl.Shape(), xl.Shape())
		}
		if views.Overlaps(*dst, *y) {
			return layout.Errorf(layout.ErrOverlap, op, "dst", "shares memory with y; write the result to other memory")
		}
		ys = opnd[T]{yd, b, yconj}
	}
	if r == rMax || r == rMin {
		for k := range red.rank {
			if red.reduced[k] && xl.Dim(k) == 0 && dl.Len() > 0 {
				return layout.Errorf(layout.ErrShape, op, "x", "the %s of no elements: axis %d is empty (%s)", map[rop]string{rMax: "maximum", rMin: "minimum"}[r], k, xl.String())
			}
		}
	}
	// conj(f(x, y)) = f(conj(x), conj(y)) for every reduction here.
	red.k.conj[1], red.k.conj[2] = xconj != dconj, ys.conj != dconj
	if !scalar.IsComplex[T]() {
		red.k.conj = [loop.MaxOps]bool{}
	}
	rep := red.collapse(&de, &xs, &ys, y != nil)
	if r == rNorm2 {
		red.r, red.k.op = rMaxAbs, rMaxAbs
	}
	red.run(opnd[T]{dd, de, false}, xs, ys)
	if r == rNorm2 {
		red.norm2(opnd[T]{dd, de, false}, xs)
	}
	if rep > 1 {
		red.repeat(r, dd, de, rep)
	}
	if r == rMean {
		count := 1
		for k := range red.rank {
			if red.reduced[k] {
				count *= xl.Dim(k)
			}
		}
		keep := red.keep(de) // the mean of nothing is 0/0: NaN, as numpy's
		dv, _ := views.FromSlice(dd, keep)
		apply(&kern[T]{op: opScale, alpha: 1 / scalar.FromFloat[T](float64(count))}, &dv, &dv, nil, &keep, nil)
	}
	return nil
}

// collapse cuts to extent 1 each reduced axis along which x (and y) only
// repeats one element (stride 0: a broadcast) and returns the number of
// repeats cut: the reduction of the rest, adjusted by repeat, is the
// reduction of all, in time for the distinct elements only.
func (red *reduction[T]) collapse(de *layout.Layout, x, y *opnd[T], dot bool) int {
	rep := 1
	for k := range red.rank {
		n := x.l.Dim(k)
		if !red.reduced[k] || n <= 1 || x.l.Stride(k) != 0 || dot && y.l.Stride(k) != 0 {
			continue
		}
		rep *= n
		x.l, _ = x.l.Slice(k, 0, 1, 1)
		if dot {
			y.l, _ = y.l.Slice(k, 0, 1, 1)
		}
		*de, _ = de.Slice(k, 0, 1, 1)
	}
	return rep
}

// repeat turns the reduction r of the distinct elements in d (layout
// de) into that of all of them, each repeated rep times: sums times rep,
// the 2-norm times sqrt(rep), products to the power rep; extremes and
// the max-norm are unchanged, and a mean is a sum here (divided by the
// full count after).
func (red *reduction[T]) repeat(r rop, dd []T, de layout.Layout, rep int) {
	keep := red.keep(de)
	dv, _ := views.FromSlice(dd, keep)
	switch r {
	case rSum, rMean, rDot, rAbsSum:
		apply(&kern[T]{op: opScale, alpha: scalar.FromFloat[T](float64(rep))}, &dv, &dv, nil, &keep, nil)
	case rNorm2:
		apply(&kern[T]{op: opScale, alpha: scalar.FromFloat[T](math.Sqrt(float64(rep)))}, &dv, &dv, nil, &keep, nil)
	case rProd:
		apply(&kern[T]{op: opPow, pow: rep}, &dv, &dv, nil, &keep, nil)
	}
}

// power is x^n by repeated squaring (n >= 1).
func power[T Scalar](x T, n int) T {
	r := scalar.FromFloat[T](1)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
	}
	return r
}

// expand returns dst's layout dl over x's shape (the reduced axes of
// stride 0), after checking that dl is x's shape with the reduced axes
// of extent 1 (kept) or dropped.
func (red *reduction[T]) expand(op string, dl, xl *layout.Layout) (layout.Layout, error) {
	xs, _ := xl.Axes()
	ds, dstr := dl.Axes()
	var shape, strides [layout.MaxRank]int
	copy(shape[:], xs)
	switch {
	case red.kept(ds, xs):
		for k := range xs {
			if !red.reduced[k] {
				strides[k] = dstr[k]
			}
		}
	case red.dropped(ds, xs):
		j := 0
		for k := range xs {
			if !red.reduced[k] {
				strides[k] = dstr[j]
				j++
			}
		}
	default:
		// Copies of the shapes: dl's own slices would escape to the heap on
		// every call, not only on this error.
		return layout.Layout{}, layout.Errorf(layout.ErrShape, op, "dst", "shape %v, want %v (the reduced axes dropped) or %v (kept, extent 1)", dl.Shape(), red.shape(xl.Shape(), false), red.shape(xl.Shape(), true))
	}
	return layout.New(shape[:len(xs)], strides[:len(xs)], dl.Offset())
}

// kept reports whether ds is xs with the reduced axes of extent 1.
func (red *reduction[T]) kept(ds, xs []int) bool {
	if len(ds) != len(xs) {
		return false
	}
	for k, e := range xs {
		if red.reduced[k] && ds[k] != 1 || !red.reduced[k] && ds[k] != e {
			return false
		}
	}
	return true
}

// dropped reports whether ds is xs without the reduced axes.
func (red *reduction[T]) dropped(ds, xs []int) bool {
	j := 0
	for k, e := range xs {
		if red.reduced[k] {
			continue
		}
		if j >= len(ds) || ds[j] != e {
			return false
		}
		j++
	}
	return j == len(ds)
}

// shape is x's shape xs with the reduced axes dropped or of extent 1.
func (red *reduction[T]) shape(xs []int, keep bool) []int {
	var out []int
	for k, e := range xs {
		switch {
		case !red.reduced[k]:
			out = append(out, e)
		case keep:
			out = append(out, 1)
		}
	}
	if out == nil {
		out = []int{}
	}
	return out
}

// keep returns the expanded destination layout de with the reduced axes
// of extent 1: each destination element once (also where x is empty).
func (red *reduction[T]) keep(de layout.Layout) layout.Layout {
	var shape, strides [layout.MaxRank]int
	for k := range red.rank {
		shape[k], strides[k] = de.Dim(k), de.Stride(k)
		if red.reduced[k] {
			shape[k] = 1
		}
	}
	l, _ := layout.New(shape[:red.rank], strides[:red.rank], de.Offset())
	return l
}

// norm2 finishes the 2-norm in d, which holds max |x| (the scale s):
// the sum of (|x|/s)^2 into a compact temporary, then d = s*sqrt(sum).
func (red *reduction[T]) norm2(d, x opnd[T]) {
	keep := red.keep(d.l)
	tl := keep.Compact()
	buf := pool.Get[T](tl.Len())
	clear(buf.Data)
	xs, _ := x.l.Axes()
	te, _ := tl.BroadcastTo(xs...)
	ssq := reduction[T]{r: rSsq, k: rkern[T]{op: rSsq}, reduced: red.reduced, rank: red.rank}
	ssq.run(opnd[T]{buf.Data, te, false}, x, opnd[T]{d.data, d.l, false})
	dv, _ := views.FromSlice(d.data, keep)
	tv, _ := views.FromSlice(buf.Data, tl)
	apply(&kern[T]{op: opNorm2}, &dv, &dv, &tv, &keep, &tl)
	pool.Put(buf)
}

// normFinish is the 2-norm from its scale s (max |x|) and the sum q of
// (|x|/s)^2: s itself where s is 0, infinite or NaN.
func normFinish[T Scalar](s, q T) T {
	sc := real(scalar.Complex128(s))
	if sc == 0 || math.IsInf(sc, 0) || math.IsNaN(sc) {
		return s
	}
	return scalar.FromFloat[T](sc * math.Sqrt(real(scalar.Complex128(q))))
}

// opnd is an operand of a reduction: data, layout and conjugation.
type opnd[T Scalar] struct {
	data []T
	l    layout.Layout
	conj bool
}

// pairwiseRun is the most partial sums a pairwise reduction adds in
// sequence into one element before it splits in halves.
const pairwiseRun = 128

// run reduces x (and y) into d, whose layout is expanded to x's shape.
// A sum with more than pairwiseRun terms per element outside the
// innermost line is split in halves along the reduced axis of x with the
// largest stride: the first half into d, the second into a compact
// temporary added to d after.
//
// With more than one goroutine allowed and at least 2*loop.ParMinElems
// elements, the two halves run at once, the goroutines shared between
// them (par).
func (red *reduction[T]) run(d, x, y opnd[T]) { red.runPar(d, x, y, loop.Threads()) }

func (red *reduction[T]) runPar(d, x, y opnd[T], par int) {
	var p loop.Plan
	var ok bool
	if y.data != nil {
		p, ok = loop.Make(&d.l, &x.l, &y.l)
	} else {
		p, ok = loop.Make(&d.l, &x.l)
	}
	keep := red.keep(d.l)
	if !ok { // nothing to add: the identity wherever dst has elements
		red.fill(d.data, keep)
		return
	}
	if a := red.splitAxis(&p, &x.l); a >= 0 {
		n := x.l.Dim(a)
		h := n / 2
		half := func(o opnd[T], lo, hi int) opnd[T] {
			if o.data != nil {
				o.l, _ = o.l.Slice(a, lo, hi, 1)
			}
			return o
		}
		if par > 1 && x.l.Len() >= 2*loop.ParMinElems {
			// A copy of red for the goroutine (it holds no pointers): red
			// itself stays on its caller's stack.
			rc := new(reduction[T])
			*rc = *red
			d1, x1, y1 := half(d, 0, h), half(x, 0, h), half(y, 0, h)
			var wg sync.WaitGroup
			wg.Go(func() { rc.runPar(d1, x1, y1, par/2) })
			buf, tl := red.secondHalf(keep, half(x, h, n), half(y, h, n), a, par-par/2)
			wg.Wait()
			red.merge(d, keep, buf, tl)
			return
		}
		red.runPar(half(d, 0, h), half(x, 0, h), half(y, 0, h), par)
		buf, tl := red.secondHalf(keep, half(x, h, n), half(y, h, n), a, par)
		red.merge(d, keep, buf, tl)
		return
	}
	red.fill(d.data, keep)
	var base [loop.MaxOps]unsafe.Pointer
	base[0] = unsafe.Pointer(unsafe.SliceData(d.data))
	base[1] = unsafe.Pointer(unsafe.SliceData(x.data))
	if y.data != nil {
		base[2] = unsafe.Pointer(unsafe.SliceData(y.data))
	}
	p.Bytes(int(unsafe.Sizeof(*new(T))))
	if w := loop.Workers(&p); w > 1 {
		k, b := red.k, base
		loop.Parallel(&p, w, loop.BlockingFor(unsafe.Sizeof(*new(T))).Super, func(q *loop.Plan) {
			walk(kernel[T]{r: &k}, q, &b)
		})
		return
	}
	walk(kernel[T]{r: &red.k}, &p, &base)
}

// secondHalf reduces x (and y), the second half of a split along axis a,
// into a compact temporary of the destination's kept shape keep.
func (red *reduction[T]) secondHalf(keep layout.Layout, x, y opnd[T], a, par int) (*pool.Buf[T], layout.Layout) {
	tl := keep.Compact()
	buf := pool.Get[T](tl.Len())
	clear(buf.Data)
	xs, _ := x.l.Axes()
	te, _ := tl.BroadcastTo(xs...)
	te, _ = te.Slice(a, 0, x.l.Dim(a), 1)
	red.runPar(opnd[T]{buf.Data, te, false}, x, y, par)
	return buf, tl
}

// merge adds the temporary buf (layout tl) into d's kept layout and frees
// it.
func (red *reduction[T]) merge(d opnd[T], keep layout.Layout, buf *pool.Buf[T], tl layout.Layout) {
	dv, _ := views.FromSlice(d.data, keep)
	tv, _ := views.FromSlice(buf.Data, tl)
	apply(&kern[T]{op: opAdd}, &dv, &dv, &tv, &keep, &tl)
	pool.Put(buf)
}

// splitAxis returns the reduced axis of x to split a pairwise sum along
// (-1: no split): when more than pairwiseRun terms per element are added
// outside the plan's innermost line, the reduced axis with the largest
// stride in x and extent 2 or more.
func (red *reduction[T]) splitAxis(p *loop.Plan, xl *layout.Layout) int {
	if !red.r.pairwise() {
		return -1
	}
	terms := 1
	for k := range red.rank {
		if red.reduced[k] {
			terms *= xl.Dim(k)
		}
	}
	if p.Rank > 0 && p.S[0][0] == 0 { // the innermost line is summed pairwise
		terms /= p.N[0]
	}
	if terms <= pairwiseRun {
		return -1
	}
	best, bs := -1, -1
	for k := range red.rank {
		if s := abs(xl.Stride(k)); red.reduced[k] && xl.Dim(k) > 1 && s > bs {
			best, bs = k, s
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// fill sets every element of the destination (layout keep over data) to
// the reduction's identity.
func (red *reduction[T]) fill(data []T, keep layout.Layout) {
	dv, err := views.FromSlice(data, keep)
	if err != nil || keep.Len() == 0 {
		return
	}
	apply(&kern[T]{op: opFill, alpha: identity[T](red.r)}, &dv, nil, nil, nil, nil)
}

// rkern is a reduction's kernel: a line either runs along a reduced axis
// (the destination's stride 0: one accumulator, added to the one
// destination element) or along a kept one (each destination element
// gets its own source element).
type rkern[T Scalar] struct {
	op   rop
	conj [loop.MaxOps]bool
}

// columns runs a sum into a line of the destination from n1 contiguous
// lines of x (the destination's stride along them 0) four lines at a
// time, so that each destination element is loaded and stored once per
// four; it reports false, doing nothing, for any other block.
func (k *rkern[T]) columns(n0, n1 int, p *[loop.MaxOps]unsafe.Pointer, s0, s1 *[loop.MaxOps]int) bool {
	sz := int(unsafe.Sizeof(*new(T)))
	if (k.op != rSum && k.op != rMean) || k.conj[1] || n1 < 4 || s0[0] != sz || s0[1] != sz || s1[0] != 0 {
		return false
	}
	d := unsafe.Slice((*T)(p[0]), n0)
	x1 := s1[1]
	j := 0
	for ; j+4 <= n1; j += 4 {
		a := unsafe.Slice((*T)(unsafe.Add(p[1], j*x1)), n0)[:len(d)]
		b := unsafe.Slice((*T)(unsafe.Add(p[1], (j+1)*x1)), n0)[:len(d)]
		c := unsafe.Slice((*T)(unsafe.Add(p[1], (j+2)*x1)), n0)[:len(d)]
		e := unsafe.Slice((*T)(unsafe.Add(p[1], (j+3)*x1)), n0)[:len(d)]
		for i := range d {
			d[i] += (a[i] + b[i]) + (c[i] + e[i])
		}
	}
	for ; j < n1; j++ {
		a := unsafe.Slice((*T)(unsafe.Add(p[1], j*x1)), n0)[:len(d)]
		for i := range d {
			d[i] += a[i]
		}
	}
	return true
}

func (k *rkern[T]) line(n int, p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int) {
	sz := int(unsafe.Sizeof(*new(T)))
	flat := !k.conj[1] && !k.conj[2] && s[1] == sz && (k.op != rDot || s[2] == sz) && k.op < rAbsSum
	if s[0] == 0 {
		d := (*T)(p[0])
		*d = k.combine(*d, k.fold(n, p, s, flat))
		return
	}
	if flat && s[0] == sz {
		d, x := unsafe.Slice((*T)(p[0]), n), unsafe.Slice((*T)(p[1]), n)
		switch k.op {
		case rSum, rMean:
			for i := range d {
				d[i] += x[i]
			}
			return
		case rDot:
			y := unsafe.Slice((*T)(p[2]), n)
			for i := range d {
				d[i] += x[i] * y[i]
			}
			return
		}
	}
	for i := range n {
		d := (*T)(unsafe.Add(p[0], i*s[0]))
		*d = k.combine(*d, k.term(p, s, i))
	}
}

// term is element i's contribution: x, x*y for Dot, |x| for the norms,
// (|x|/s)^2 for the 2-norm's sum of squares (0 where the scale s is 0 or
// infinite: the result is then s itself, normFinish).
func (k *rkern[T]) term(p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int, i int) T {
	x := k.ld(p, s, 1, i)
	switch k.op {
	case rDot:
		x *= k.ld(p, s, 2, i)
	case rAbsSum, rMaxAbs:
		x = absOf(x)
	case rSsq:
		sc := k.ld(p, s, 2, i)
		if sc == 0 || scalar.Complex128(sc) == scalar.Complex128(scalar.FromFloat[T](math.Inf(1))) {
			return 0
		}
		x = absOf(x) / sc
		x *= x
	}
	return x
}

// ld loads element i of source o, conjugated where k says.
func (k *rkern[T]) ld(p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int, o, i int) T {
	x := *(*T)(unsafe.Add(p[o], i*s[o]))
	if k.conj[o] {
		x = scalar.Conj(x)
	}
	return x
}

// combine adds x into the accumulated value d by the reduction's rule.
func (k *rkern[T]) combine(d, x T) T {
	switch k.op {
	case rProd:
		return d * x
	case rMax:
		return orderOf(opMax, d, x)
	case rMin:
		return orderOf(opMin, d, x)
	case rMaxAbs: // |x| is real, as a T: compare real parts
		return maxAbs(d, x)
	}
	return d + x
}

// maxAbs is the larger of the real values d and x held in T, NaN if
// either is NaN.
func maxAbs[T Scalar](d, x T) T {
	a, b := real(scalar.Complex128(d)), real(scalar.Complex128(x))
	if math.IsNaN(b) || b > a {
		return x
	}
	return d
}

// fold reduces the n elements of the line (sources 1 and 2 at p, byte
// strides s) to one value.
func (k *rkern[T]) fold(n int, p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int, flat bool) T {
	switch {
	case flat && (k.op == rSum || k.op == rMean):
		return pairSum(unsafe.Slice((*T)(p[1]), n))
	case flat && k.op == rDot:
		return pairDot(unsafe.Slice((*T)(p[1]), n), unsafe.Slice((*T)(p[2]), n))
	case k.op.pairwise():
		return k.pairStrided(p, s, 0, n)
	case flat && (k.op == rMax || k.op == rMin):
		return foldOrder(k.op, unsafe.Slice((*T)(p[1]), n))
	}
	acc := identity[T](k.op)
	for i := range n {
		acc = k.combine(acc, k.term(p, s, i))
	}
	return acc
}

// pairSum is numpy's pairwise sum: up to 128 elements with 8
// accumulators, longer runs in halves (multiples of 8).
func pairSum[T Scalar](a []T) T {
	n := len(a)
	switch {
	case n < 8:
		var s T
		for _, x := range a {
			s += x
		}
		return s
	case n <= pairwiseRun:
		m := n &^ 7
		s := block8(a[:m])
		for i := m; i < n; i++ {
			s += a[i]
		}
		return s
	}
	h := n / 2
	h -= h % 8
	return pairSum(a[:h]) + pairSum(a[h:])
}

// block8 is the eight-way sum of a (len a positive multiple of 8):
// eight partial sums, each of every eighth value, added as
// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)); in AVX2 for float64 and float32
// (internal/kernel/sum, bit-identical to the Go loop).
func block8[T Scalar](a []T) T {
	switch x := any(a).(type) {
	case []float64:
		r := sum.Block64(x)
		return *(*T)(unsafe.Pointer(&r))
	case []float32:
		r := sum.Block32(x)
		return *(*T)(unsafe.Pointer(&r))
	}
	return sum.Go(a)
}

// pairDot is pairSum of a[i]*b[i].
func pairDot[T Scalar](a, b []T) T {
	n := len(a)
	b = b[:n]
	switch {
	case n < 8:
		var s T
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	case n <= pairwiseRun:
		r0, r1, r2, r3 := a[0]*b[0], a[1]*b[1], a[2]*b[2], a[3]*b[3]
		r4, r5, r6, r7 := a[4]*b[4], a[5]*b[5], a[6]*b[6], a[7]*b[7]
		i := 8
		for ; i+8 <= n; i += 8 {
			x, y := a[i:i+8:i+8], b[i:i+8:i+8]
			r0, r1, r2, r3 = r0+x[0]*y[0], r1+x[1]*y[1], r2+x[2]*y[2], r3+x[3]*y[3]
			r4, r5, r6, r7 = r4+x[4]*y[4], r5+x[5]*y[5], r6+x[6]*y[6], r7+x[7]*y[7]
		}
		s := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			s += a[i] * b[i]
		}
		return s
	}
	h := n / 2
	h -= h % 8
	return pairDot(a[:h], b[:h]) + pairDot(a[h:], b[h:])
}

// pairStrided is pairSum (pairDot for Dot) of elements [lo, hi) of a
// strided or conjugated line.
func (k *rkern[T]) pairStrided(p *[loop.MaxOps]unsafe.Pointer, s *[loop.MaxOps]int, lo, hi int) T {
	if n := hi - lo; n > pairwiseRun {
		h := n / 2
		h -= h % 8
		return k.pairStrided(p, s, lo, lo+h) + k.pairStrided(p, s, lo+h, hi)
	}
	var r [8]T
	i := lo
	for ; i+8 <= hi; i += 8 {
		for j := range r {
			r[j] += k.term(p, s, i+j)
		}
	}
	acc := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
	for ; i < hi; i++ {
		acc += k.term(p, s, i)
	}
	return acc
}

// foldOrder is the maximum or minimum (op) of a non-empty real line.
func foldOrder[T Scalar](op rop, a []T) T {
	switch a := any(a).(type) {
	case []float32:
		return any(foldReal(op, a)).(T)
	case []float64:
		return any(foldReal(op, a)).(T)
	}
	panic(fmt.Sprintf("elem: %T has no order", a))
}

func foldReal[F Real](op rop, a []F) F {
	acc := a[0]
	if op == rMax {
		for _, x := range a[1:] {
			acc = max(acc, x)
		}
		return acc
	}
	for _, x := range a[1:] {
		acc = min(acc, x)
	}
	return acc
}
