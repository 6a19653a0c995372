package einsum

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tm "github.com/lapis-go/lapis/internal/test/testmat"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/views"
)

// class is a layout class of an operand or a destination: how the view
// reaches its elements in memory.
type class uint8

const (
	colMajor   class = iota // a compact column-major tensor's view
	rowMajor                // C order: a column-major tensor of the reversed shape, its axes reversed (a permuted view, no copy)
	strided                 // every axis sliced with step 2 (no two elements adjacent)
	reversed                // every axis walked backwards (negative strides)
	broadcast               // the first axis of extent > 1 repeats one slice (stride 0)
	conjugated              // column-major with the conjugation flag set
	nClasses
)

var classNames = [nClasses]string{"col", "row", "strided", "reversed", "broadcast", "conj"}

func (c class) String() string { return classNames[c] }

// dstClasses are the classes a destination may have (a broadcast one
// reaches an element twice: an error, see errors_test.go).
var dstClasses = []class{colMajor, rowMajor, strided, reversed, conjugated}

// makeView returns a view of the given shape and class over random values
// in [-1, 1).
func makeView[T Scalar](rng *rand.Rand, c class, shape ...int) views.View[T] {
	n := len(shape)
	if n == 0 {
		c = colMajor
	}
	switch c {
	case rowMajor:
		rev := slices.Clone(shape)
		slices.Reverse(rev)
		perm := make([]int, n)
		for i := range perm {
			perm[i] = n - 1 - i
		}
		return mustView(fill[T](rng, rev...).View().Permute(perm...))
	case strided:
		base := make([]int, n)
		for i, d := range shape {
			base[i] = 2 * d
		}
		v := fill[T](rng, base...).View()
		for a, d := range shape {
			v = mustView(v.Slice(a, 0, 2*d, 2))
		}
		return v
	case reversed:
		v := fill[T](rng, shape...).View()
		for a := range shape {
			v = mustView(v.Reverse(a))
		}
		return v
	case broadcast:
		a := slices.IndexFunc(shape, func(d int) bool { return d > 1 })
		if a < 0 {
			return fill[T](rng, shape...).View()
		}
		base := slices.Clone(shape)
		base[a] = 1
		return mustView(fill[T](rng, base...).View().BroadcastTo(shape...))
	case conjugated:
		return fill[T](rng, shape...).View().Conj()
	}
	return fill[T](rng, shape...).View()
}

func mustView[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

func nanOf[T Scalar]() T { return tm.FromComplex[T](complex(math.NaN(), math.NaN())) }

// guarded is a destination whose whole buffer was filled with a value, so
// that writes outside the view (and, after an error, any write) show.
type guarded[T Scalar] struct {
	v      views.View[T]
	before []T
}

// makeDst returns a destination of the class and shape, its buffer (the
// view's elements and the gaps between them) all set to x.
func makeDst[T Scalar](c class, x T, shape ...int) guarded[T] {
	v := makeView[T](rand.New(rand.NewPCG(0, 0)), c, shape...)
	d := v.Data()
	for i := range d {
		d[i] = x
	}
	return guarded[T]{v, slices.Clone(d)}
}

func sameVal[T Scalar](a, b T) bool {
	x, y := toC(a), toC(b)
	return x == y || cmplx.IsNaN(x) && cmplx.IsNaN(y)
}

// untouched reports the first element of the buffer that changed ("" when
// none did).
func (g guarded[T]) untouched() string {
	for i, x := range g.v.Data() {
		if !sameVal(x, g.before[i]) {
			return fmt.Sprintf("element %d of dst's buffer changed from %v to %v", i, g.before[i], x)
		}
	}
	return ""
}

// outside reports the first element of the buffer outside the view that
// changed ("" when none did).
func (g guarded[T]) outside() string {
	in := map[int]bool{}
	l := g.v.Layout()
	eachIndex(g.v.Shape(), func(idx []int) { in[l.OffsetOf(idx...)] = true })
	for i, x := range g.v.Data() {
		if !in[i] && !sameVal(x, g.before[i]) {
			return fmt.Sprintf("element %d of dst's buffer, outside the view, changed from %v to %v", i, g.before[i], x)
		}
	}
	return ""
}

// eachIndex calls f with every index of shape, axis 0 fastest.
func eachIndex(shape []int, f func(idx []int)) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	idx := make([]int, len(shape))
	for o := range n {
		r := o
		for a, d := range shape {
			idx[a], r = r%d, r/d
		}
		f(idx)
	}
}

// mismatch is checkAgainst's comparison without stopping the test: the
// first element of got (any layout) that differs from the oracle's
// column-major values, "" when none does.
func mismatch[T Scalar](got views.View[T], shape []int, want []complex128, terms int) string {
	if !slices.Equal(got.Shape(), shape) {
		return fmt.Sprintf("shape %v, want %v", got.Shape(), shape)
	}
	tol := 8 * float64(terms+1) * eps[T]()
	bad := ""
	o := 0
	eachIndex(shape, func(idx []int) {
		g := toC(got.At(idx...))
		if bad == "" && (cmplx.Abs(g-want[o]) > tol*(1+cmplx.Abs(want[o])) || cmplx.IsNaN(g)) {
			bad = fmt.Sprintf("element %v = %v, want %v", idx, g, want[o])
		}
		o++
	})
	return bad
}

// termsOf is the number of products summed into each element of the result
// (at least 64): the scale of the rounding error allowed.
func termsOf[T Scalar](tb testing.TB, subscripts string, ops []views.View[T]) int {
	s, err := Parse(subscripts)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := resolve(&s, ops, nil)
	if err != nil {
		tb.Fatal(err)
	}
	all, out := 1, 1
	for _, e := range p.ext {
		all *= e
	}
	for _, d := range p.shape() {
		out *= d
	}
	if out == 0 {
		return 64
	}
	return max(64, all/out)
}

// feature is one contraction of the table every layout and type runs.
type feature struct {
	name, spec string
	shapes     [][]int
}

// features covers each kind of step the lowering makes (gemm, batched gemm
// with the batch on either side, element-wise, batched dot, own-index
// sums, diagonals, assignment), implicit outputs, "...", chains, and
// extents 0 and 1.
var features = []feature{
	{"matmul", "ij,jk->ik", [][]int{{3, 4}, {4, 5}}},
	{"matmul-out-transposed", "ij,jk->ki", [][]int{{3, 4}, {4, 5}}},
	{"matmul-a-transposed", "ji,jk->ik", [][]int{{4, 3}, {4, 5}}},
	{"matvec", "ij,j->i", [][]int{{3, 4}, {4}}},
	{"batch-right", "ijb,jkb->ikb", [][]int{{3, 4, 2}, {4, 5, 2}}},
	{"batch-left", "bij,bjk->bik", [][]int{{2, 3, 4}, {2, 4, 5}}},
	{"batch-middle", "ibj,jbk->ibk", [][]int{{3, 2, 4}, {4, 2, 5}}},
	{"batch-two-axes", "ijbc,jkbc->ikbc", [][]int{{2, 3, 2, 3}, {3, 2, 2, 3}}},
	{"tensordot-2", "ijk,jkl->il", [][]int{{3, 4, 5}, {4, 5, 2}}},
	{"tensordot-2-swapped", "ijk,kjl->il", [][]int{{3, 4, 2}, {2, 4, 3}}},
	{"tensordot-4d", "abcd,cdef->abef", [][]int{{2, 3, 4, 5}, {4, 5, 3, 2}}},
	{"tensordot-mixed", "abc,bda->cd", [][]int{{2, 3, 4}, {3, 5, 2}}},
	{"trace", "ii->", [][]int{{4, 4}}},
	{"trace-implicit", "ii", [][]int{{4, 4}}},
	{"diagonal", "ii->i", [][]int{{4, 4}}},
	{"diagonal-3", "iii->i", [][]int{{3, 3, 3}}},
	{"diagonal-then-matmul", "iij,jk->ik", [][]int{{3, 3, 4}, {4, 2}}},
	{"diagonal-both", "ii,ij->j", [][]int{{3, 3}, {3, 4}}},
	{"sum-all", "ij->", [][]int{{3, 4}}},
	{"sum-axes", "ijk->j", [][]int{{2, 3, 4}}},
	{"sum-own-then-matmul", "ij,jk->k", [][]int{{3, 4}, {4, 5}}},
	{"sum-own-both", "aij,jkb->ik", [][]int{{2, 3, 4}, {4, 5, 3}}},
	{"transpose", "ij->ji", [][]int{{3, 4}}},
	{"permute", "ijk->kij", [][]int{{2, 3, 4}}},
	{"outer", "i,j->ij", [][]int{{3}, {4}}},
	{"outer-matrices", "ij,kl->ijkl", [][]int{{2, 3}, {3, 2}}},
	{"outer-interleaved", "ij,k->ikj", [][]int{{2, 3}, {4}}},
	{"elementwise", "ij,ij->ij", [][]int{{3, 4}, {3, 4}}},
	{"elementwise-transposed", "ij,ji->ij", [][]int{{3, 4}, {4, 3}}},
	{"elementwise-broadcast", "ij,j->ij", [][]int{{3, 4}, {4}}},
	{"batched-dot", "bi,bi->b", [][]int{{5, 3}, {5, 3}}},
	{"batched-dot-2", "bij,bji->b", [][]int{{2, 3, 4}, {2, 4, 3}}},
	{"dot-implicit", "i,i", [][]int{{7}, {7}}},
	{"full-contraction", "ijk,kji->", [][]int{{2, 3, 4}, {4, 3, 2}}},
	{"implicit-matmul", "ij,jk", [][]int{{3, 4}, {4, 5}}},
	{"implicit-order", "ba,cb", [][]int{{3, 4}, {5, 3}}},
	{"ellipsis-right", "ij...,jk...->ik...", [][]int{{3, 4, 2, 5}, {4, 2, 2}}},
	{"ellipsis-implicit", "ij...,jk...", [][]int{{3, 4, 2}, {4, 2, 2}}},
	{"ellipsis-left", "...ij,...jk->...ik", [][]int{{2, 3, 3, 4}, {2, 4, 5}}},
	{"ellipsis-left-implicit", "...ij,...jk", [][]int{{2, 3, 4}, {2, 4, 5}}},
	{"ellipsis-extent1", "...ij,...jk->...ik", [][]int{{1, 3, 3, 4}, {2, 1, 4, 5}}},
	{"ellipsis-middle", "i...j,j...k->i...k", [][]int{{3, 2, 4}, {4, 2, 5}}},
	{"ellipsis-alone", "...,...->...", [][]int{{3, 2}, {3, 2}}},
	{"chain-3", "ij,jk,kl->il", [][]int{{3, 4}, {4, 5}, {5, 2}}},
	{"chain-4", "ij,jk,kl,lm->im", [][]int{{7, 2}, {2, 7}, {7, 2}, {2, 7}}},
	{"ring-5", "ab,bc,cd,de,ea->", [][]int{{2, 3}, {3, 4}, {4, 2}, {2, 3}, {3, 2}}},
	{"chain-5-batched", "bij,bjk,bkl,blm,bmn->bin", [][]int{{2, 2, 3}, {2, 3, 2}, {2, 2, 3}, {2, 3, 2}, {2, 2, 3}}},
	{"vector-matrix-vector", "i,ij,j->", [][]int{{3}, {3, 4}, {4}}},
	{"hadamard-3", "ij,ij,ij->ij", [][]int{{3, 4}, {3, 4}, {3, 4}}},
	{"extent0-rows", "ij,jk->ik", [][]int{{0, 4}, {4, 5}}},
	{"extent0-inner", "ij,jk->ik", [][]int{{3, 0}, {0, 5}}},
	{"extent0-cols", "ij,jk->ik", [][]int{{3, 4}, {4, 0}}},
	{"extent0-batch", "ijb,jkb->ikb", [][]int{{3, 4, 0}, {4, 5, 0}}},
	{"extent0-dot", "i,i->", [][]int{{0}, {0}}},
	{"extent0-trace", "ii->", [][]int{{0, 0}}},
	{"extent0-sum", "ij->j", [][]int{{0, 3}}},
	{"extent0-chain", "ij,jk,kl->il", [][]int{{3, 4}, {4, 0}, {0, 2}}},
	{"extent1-all", "ij,jk->ik", [][]int{{1, 1}, {1, 1}}},
	{"extent1-inner", "ij,jk->ik", [][]int{{3, 1}, {1, 5}}},
	{"extent1-rows", "ij,jk->ik", [][]int{{1, 4}, {4, 5}}},
	{"extent1-repeat", "ij,j->i", [][]int{{3, 4}, {1}}},
	{"extent1-repeat-batch", "bij,bjk->bik", [][]int{{1, 3, 4}, {5, 4, 2}}},
	{"extent1-repeat-both", "ij,ij->ij", [][]int{{3, 1}, {1, 4}}},
	{"extent1-repeat-inner", "ij,jk->ik", [][]int{{3, 4}, {1, 5}}},
}

// run contracts the feature's operands in the classes given, one per
// operand, into a destination of class dc filled with NaN, and returns
// what is wrong ("" when nothing is): a value that is not the oracle's, a
// NaN left, a write outside the destination's view.
func runFeature[T Scalar](tb testing.TB, spec string, ops []views.View[T], dc class) string {
	shape, want := oracle(tb, spec, ops...)
	dst := makeDst(dc, nanOf[T](), shape...)
	if err := ContractTo(dst.v, spec, ops...); err != nil {
		return "ContractTo: " + err.Error()
	}
	if bad := mismatch(dst.v, shape, want, termsOf(tb, spec, ops)); bad != "" {
		return bad
	}
	return dst.outside()
}

// describeCase names a case: type, spec, shapes, the operands' classes, dst's.
func describeCase[T Scalar](spec string, ops []views.View[T], cls []class, dc class) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%T %q", *new(T), spec)
	for k, v := range ops {
		fmt.Fprintf(&b, " %v:%v", v.Shape(), cls[k])
	}
	fmt.Fprintf(&b, " -> dst:%v", dc)
	return b.String()
}

// TestFeatures: every feature against the oracle, for the four types, with
// every operand in each class (dst column-major), dst in each class
// (operands column-major), every operand in each class with dst in each
// class, and the classes mixed across the operands.
func TestFeatures(t *testing.T) {
	tm.ForTypes(t, testFeatures[float32], testFeatures[float64], testFeatures[complex64], testFeatures[complex128])
}

func testFeatures[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for _, f := range features {
		t.Run(f.name, func(t *testing.T) {
			failures := 0
			try := func(cls []class, dc class) {
				ops := make([]views.View[T], len(f.shapes))
				for k, sh := range f.shapes {
					ops[k] = makeView[T](rng, cls[k], sh...)
				}
				if bad := runFeature(t, f.spec, ops, dc); bad != "" && failures < 8 {
					failures++
					t.Errorf("%s: %s", describeCase(f.spec, ops, cls, dc), bad)
				}
			}
			uniform := func(c class) []class {
				cls := make([]class, len(f.shapes))
				for k := range cls {
					cls[k] = c
				}
				return cls
			}
			for c := range nClasses {
				for _, dc := range dstClasses {
					try(uniform(c), dc)
				}
			}
			// Mixed: operand k in class (k+r) mod nClasses.
			for r := range nClasses {
				cls := make([]class, len(f.shapes))
				for k := range cls {
					cls[k] = (class(k) + r) % nClasses
				}
				try(cls, dstClasses[int(r)%len(dstClasses)])
			}
		})
	}
}

// classOperands returns operands of the shapes in round r of 2*nClasses:
// all in class r, or (r >= nClasses, mixed) operand k in class (k+r) mod
// nClasses.
func classOperands[T Scalar](rng *rand.Rand, shapes [][]int, r class) ([]views.View[T], []class) {
	cls := make([]class, len(shapes))
	ops := make([]views.View[T], len(shapes))
	for k, sh := range shapes {
		cls[k] = r % nClasses
		if r >= nClasses {
			cls[k] = (class(k) + r) % nClasses
		}
		ops[k] = makeView[T](rng, cls[k], sh...)
	}
	return ops, cls
}

// TestContract: Contract returns a new column-major tensor of the result,
// from operands of every class.
func TestContract(t *testing.T) {
	tm.ForTypes(t, testContract[float32], testContract[float64], testContract[complex64], testContract[complex128])
}

func testContract[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, f := range features {
		for c := range nClasses {
			ops := make([]views.View[T], len(f.shapes))
			for k, sh := range f.shapes {
				ops[k] = makeView[T](rng, c, sh...)
			}
			shape, want := oracle(t, f.spec, ops...)
			got, err := Contract(f.spec, ops...)
			if err != nil {
				t.Errorf("%s %s: %v", f.name, c, err)
				continue
			}
			if !got.Layout().IsColMajor() {
				t.Errorf("%s %s: result %s is not compact column-major", f.name, c, got.Layout().String())
			}
			if bad := mismatch(got.View(), shape, want, termsOf(t, f.spec, ops)); bad != "" {
				t.Errorf("%s %s %T: %s", f.name, c, *new(T), bad)
			}
			got.Release()
		}
	}
}

// TestEllipsisShapes: "..." axes align by the batch rule (leading axes
// align, a missing trailing axis or one of extent 1 repeats), and the
// implicit output puts them last, after the letters that occur once in
// alphabetical order (upper case first).
func TestEllipsisShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		spec   string
		shapes [][]int
		want   []int
	}{
		{"...ij,...jk", [][]int{{2, 3, 4}, {2, 4, 5}}, []int{3, 5, 2}},              // implicit: "..." last
		{"ij...,jk...", [][]int{{3, 4, 2, 6}, {4, 5, 2}}, []int{3, 5, 2, 6}},        // op 1 lacks the trailing 6: it repeats
		{"...ij,...jk->...ik", [][]int{{2, 6, 3, 4}, {2, 4, 5}}, []int{2, 6, 3, 5}}, // leading axes align (numpy would align 6 with 2)
		{"...ij,...jk->...ik", [][]int{{1, 3, 4}, {7, 4, 5}}, []int{7, 3, 5}},       // extent 1 repeats
		{"...i,...i", [][]int{{2, 3}, {2, 3}}, []int{2}},                            // i summed, "..." kept
		{"i...,i...->...", [][]int{{3, 2, 4}, {3, 2}}, []int{2, 4}},
		{"...,i->i...", [][]int{{2}, {3}}, []int{3, 2}},
		{"bZ,bA", [][]int{{2, 3}, {2, 4}}, []int{4, 3}},              // implicit: upper case first, alphabetical
		{" i j , j k -> k i ", [][]int{{2, 3}, {3, 4}}, []int{4, 2}}, // spaces are ignored
	} {
		ops := make([]views.View[float64], len(c.shapes))
		for k, sh := range c.shapes {
			ops[k] = makeView[float64](rng, colMajor, sh...)
		}
		got, err := Contract(c.spec, ops...)
		if err != nil {
			t.Errorf("%s %v: %v", c.spec, c.shapes, err)
			continue
		}
		if !slices.Equal(got.Shape(), c.want) {
			t.Errorf("%s %v: shape %v, want %v", c.spec, c.shapes, got.Shape(), c.want)
			continue
		}
		shape, want := oracle(t, c.spec, ops...)
		if bad := mismatch(got.View(), shape, want, 64); bad != "" {
			t.Errorf("%s %v: %s", c.spec, c.shapes, bad)
		}
	}
}

// TestLabels: the integer-label form gives what the letters give, labels
// far apart and large included, through NewPlan and Execute.
func TestLabels(t *testing.T) {
	tm.ForTypes(t, testLabels[float32], testLabels[float64], testLabels[complex64], testLabels[complex128])
}

func testLabels[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, c := range []struct {
		out    []int
		in     [][]int
		shapes [][]int
	}{
		{[]int{0, 2}, [][]int{{0, 1}, {1, 2}}, [][]int{{3, 4}, {4, 5}}},                   // matmul
		{[]int{1000, 7}, [][]int{{1000, 3, 5}, {3, 5, 7}}, [][]int{{3, 4, 2}, {4, 2, 5}}}, // tensordot, large labels
		{[]int{}, [][]int{{4, 4}}, [][]int{{3, 3}}},                                       // trace: empty output is a scalar
		{[]int{9}, [][]int{{9, 9}}, [][]int{{3, 3}}},                                      // diagonal
		{[]int{0, 1, 2}, [][]int{{0, 1, 2}, {0, 1, 2}}, [][]int{{2, 3, 2}, {2, 3, 2}}},    // element-wise
		{[]int{2, 0}, [][]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, [][]int{{2, 3}, {3, 4}, {4, 2}, {2, 2}}},
		{[]int{5}, [][]int{{5, 6}, {5, 6}}, [][]int{{4, 3}, {4, 3}}}, // batched dot
	} {
		s, err := Labels(c.out, c.in...)
		if err != nil {
			t.Fatal(err)
		}
		letters := lettersOf(c.out, c.in)
		for cl := range nClasses {
			for _, dc := range []class{colMajor, rowMajor, reversed} {
				ops := make([]views.View[T], len(c.shapes))
				for k, sh := range c.shapes {
					ops[k] = makeView[T](rng, cl, sh...)
				}
				shape, want := oracle(t, letters, ops...)
				dst := makeDst(dc, nanOf[T](), shape...)
				p, err := NewPlan(s, dst.v, ops, Options{})
				if err != nil {
					t.Errorf("%v (%s) %v -> %v: %v", s, letters, cl, dc, err)
					continue
				}
				if err := p.Execute(1, ops, 0, dst.v, nil); err != nil {
					t.Errorf("%v (%s) %v -> %v: Execute: %v", s, letters, cl, dc, err)
					continue
				}
				if bad := mismatch(dst.v, shape, want, 64); bad != "" {
					t.Errorf("%v (%s) %v -> %v %T: %s", s, letters, cl, dc, *new(T), bad)
				}
			}
		}
	}
}

// lettersOf writes integer labels as the letters of an equivalent spec.
func lettersOf(out []int, in [][]int) string {
	name := map[int]byte{}
	letter := func(l int) byte {
		if _, ok := name[l]; !ok {
			name[l] = byte('a' + len(name))
		}
		return name[l]
	}
	var b strings.Builder
	for k, t := range in {
		if k > 0 {
			b.WriteByte(',')
		}
		for _, l := range t {
			b.WriteByte(letter(l))
		}
	}
	b.WriteString("->")
	for _, l := range out {
		b.WriteByte(letter(l))
	}
	return b.String()
}

// large are features at sizes where the products go to the C library
// (ForceC), with the batch split over workers.
var large = []feature{
	{"matmul", "ij,jk->ik", [][]int{{17, 19}, {19, 23}}},
	{"batch-right", "ijb,jkb->ikb", [][]int{{9, 11, 6}, {11, 13, 6}}},
	{"batch-left", "bij,bjk->bik", [][]int{{6, 9, 11}, {6, 11, 13}}},
	{"tensordot-2", "ijk,jkl->il", [][]int{{9, 5, 6}, {5, 6, 11}}},
	{"tensordot-4d", "abcd,cdef->abef", [][]int{{3, 5, 4, 5}, {4, 5, 6, 3}}},
	{"tensordot-mixed", "abc,bda->cd", [][]int{{5, 6, 7}, {6, 8, 5}}},
	{"chain-3", "ij,jk,kl->il", [][]int{{9, 10}, {10, 11}, {11, 7}}},
	{"batched-dot", "bi,bi->b", [][]int{{40, 30}, {40, 30}}},
	{"ellipsis", "ij...,jk...->ik...", [][]int{{9, 10, 3, 2}, {10, 8, 3}}},
}

// TestFeaturesC: the large features against the oracle through NewPlan
// and Execute with lapis.ForceC, every class of the operands (uniform and
// mixed) into every class of destination, for the four types.
func TestFeaturesC(t *testing.T) {
	tm.ForTypes(t, testFeaturesC[float32], testFeaturesC[float64], testFeaturesC[complex64], testFeaturesC[complex128])
}

func testFeaturesC[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	for _, f := range large {
		s, err := Parse(f.spec)
		if err != nil {
			t.Fatal(err)
		}
		for r := range 2 * nClasses {
			ops, cls := classOperands[T](rng, f.shapes, r)
			shape, want := oracle(t, f.spec, ops...)
			for _, dc := range dstClasses {
				what := describeCase(f.spec, ops, cls, dc)
				dst := makeDst(dc, nanOf[T](), shape...)
				p, err := NewPlan(s, dst.v, ops, Options{Call: []lapis.Option{lapis.ForceC()}})
				if err != nil {
					t.Errorf("%s: NewPlan: %v", what, err)
					continue
				}
				if err := p.Execute(1, ops, 0, dst.v, nil); err != nil {
					t.Errorf("%s: Execute: %v", what, err)
					continue
				}
				if bad := mismatch(dst.v, shape, want, termsOf(t, f.spec, ops)); bad != "" {
					t.Errorf("%s: %s", what, bad)
				}
			}
		}
	}
}
