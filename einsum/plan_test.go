package einsum

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis/internal/kernel/gemm"
	"github.com/lapis-go/lapis/internal/rt/pool"

	tm "github.com/lapis-go/lapis/internal/test/testmat"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/views"
)

// finals are contractions whose last instruction is each kind that writes
// the destination with alpha and beta: a gemm, an element-wise product, a
// batched dot, an assignment (after own-index sums, or a transpose).
var finals = []feature{
	{"gemm", "ij,jk->ik", [][]int{{3, 4}, {4, 5}}},
	{"gemm-batched", "ijb,jkb->ikb", [][]int{{3, 4, 2}, {4, 5, 2}}},
	{"gemm-out-transposed", "ij,jk->ki", [][]int{{3, 4}, {4, 5}}},
	{"mul", "ij,ij->ij", [][]int{{3, 4}, {3, 4}}},
	{"outer", "i,j->ij", [][]int{{3}, {4}}},
	{"dot", "bi,bi->b", [][]int{{5, 3}, {5, 3}}},
	{"sum", "ijk->j", [][]int{{2, 3, 4}}},
	{"assign", "ij->ji", [][]int{{3, 4}}},
	{"trace", "ii->", [][]int{{4, 4}}},
	{"chain", "ij,jk,kl->il", [][]int{{3, 4}, {4, 5}, {5, 2}}},
	{"empty-inner", "ij,jk->ik", [][]int{{3, 0}, {0, 5}}},
}

// TestExecuteAlphaBeta: Execute sets dst = alpha*contraction + beta*dst
// into destinations of every class, and with beta = 0 overwrites a NaN
// in dst (dst is not read).
func TestExecuteAlphaBeta(t *testing.T) {
	tm.ForTypes(t, testAlphaBeta[float32], testAlphaBeta[float64], testAlphaBeta[complex64], testAlphaBeta[complex128])
}

func testAlphaBeta[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	alpha, beta := tm.FromComplex[T](1.5+0.5i), tm.FromComplex[T](-0.75+0.25i)
	a, b := toC(alpha), toC(beta)
	for _, f := range finals {
		for _, oc := range []class{colMajor, rowMajor, reversed, conjugated} {
			for _, dc := range dstClasses {
				ops := make([]views.View[T], len(f.shapes))
				for k, sh := range f.shapes {
					ops[k] = makeView[T](rng, oc, sh...)
				}
				what := fmt.Sprintf("%s %s ops:%v dst:%v %T", f.name, f.spec, oc, dc, alpha)
				s, err := Parse(f.spec)
				if err != nil {
					t.Fatal(err)
				}
				shape, want := oracle(t, f.spec, ops...)
				n := termsOf(t, f.spec, ops)
				dst := makeDst(dc, T(0), shape...)
				p, err := NewPlan(s, dst.v, ops, Options{})
				if err != nil {
					t.Errorf("%s: NewPlan: %v", what, err)
					continue
				}
				ws := make([]T, p.Workspace())

				// beta != 0: dst holds random values first.
				before := make([]complex128, len(want))
				i := 0
				eachIndex(shape, func(idx []int) {
					x := complex(2*rng.Float64()-1, 2*rng.Float64()-1)
					dst.v.Set(tm.FromComplex[T](x), idx...)
					before[i] = toC(dst.v.At(idx...))
					i++
				})
				if err := p.Execute(alpha, ops, beta, dst.v, ws); err != nil {
					t.Errorf("%s: Execute(alpha, beta): %v", what, err)
					continue
				}
				axpby := make([]complex128, len(want))
				for i := range want {
					axpby[i] = a*want[i] + b*before[i]
				}
				if bad := mismatch(dst.v, shape, axpby, n); bad != "" {
					t.Errorf("%s: alpha=%v beta=%v: %s", what, alpha, beta, bad)
				}

				// beta == 0: a NaN in dst is overwritten.
				eachIndex(shape, func(idx []int) { dst.v.Set(nanOf[T](), idx...) })
				if err := p.Execute(alpha, ops, 0, dst.v, ws); err != nil {
					t.Errorf("%s: Execute(alpha, 0): %v", what, err)
					continue
				}
				scaled := make([]complex128, len(want))
				for i := range want {
					scaled[i] = a * want[i]
				}
				if bad := mismatch(dst.v, shape, scaled, n); bad != "" {
					t.Errorf("%s: alpha=%v beta=0 over NaN: %s", what, alpha, bad)
				}
				// alpha = 1, beta = 0 over NaN: the direct path.
				eachIndex(shape, func(idx []int) { dst.v.Set(nanOf[T](), idx...) })
				if err := p.Execute(1, ops, 0, dst.v, ws); err != nil {
					t.Errorf("%s: Execute(1, 0): %v", what, err)
					continue
				}
				if bad := mismatch(dst.v, shape, want, n); bad != "" {
					t.Errorf("%s: alpha=1 beta=0 over NaN: %s", what, bad)
				}
				if bad := dst.outside(); bad != "" {
					t.Errorf("%s: %s", what, bad)
				}
			}
		}
	}
}

// fusing are contractions whose groups fuse on the operands' and dst's
// memory in the class given (used for every operand and dst): each must
// run with no copy, counted nowhere, and succeed in strict mode.
var fusing = []struct {
	spec    string
	shapes  [][]int
	ops, to class // the operands' class and dst's
	single  bool  // one matrix product: exactly one C call (ForceC)
}{
	{"ij,jk->ik", [][]int{{30, 40}, {40, 50}}, colMajor, colMajor, true},
	{"ij,jk->ik", [][]int{{30, 40}, {40, 50}}, rowMajor, rowMajor, true},
	{"ij,jk->ik", [][]int{{30, 40}, {40, 50}}, rowMajor, colMajor, true},
	{"ji,jk->ik", [][]int{{40, 30}, {40, 50}}, colMajor, colMajor, true},
	{"ijk,jkl->il", [][]int{{30, 4, 5}, {4, 5, 20}}, colMajor, colMajor, true},
	{"ijk,jkl->il", [][]int{{30, 4, 5}, {4, 5, 20}}, rowMajor, rowMajor, true},
	{"ijk,jkl->li", [][]int{{30, 4, 5}, {4, 5, 20}}, colMajor, colMajor, true},
	{"abcd,cdef->abef", [][]int{{6, 5, 4, 5}, {4, 5, 6, 5}}, colMajor, colMajor, true},
	{"abcd,cdef->abef", [][]int{{6, 5, 4, 5}, {4, 5, 6, 5}}, rowMajor, rowMajor, true},
	{"ijb,jkb->ikb", [][]int{{30, 40, 3}, {40, 50, 3}}, colMajor, colMajor, false},
	{"bij,bjk->bik", [][]int{{3, 30, 40}, {3, 40, 50}}, rowMajor, rowMajor, false},
	{"ijbc,jkbc->ikbc", [][]int{{20, 30, 2, 3}, {30, 20, 2, 3}}, colMajor, colMajor, false},
	// Conjugated operands fuse as plain ones (the flag is metadata).
	{"ij,jk->ik", [][]int{{30, 40}, {40, 50}}, conjugated, conjugated, true},
	{"ijk,jkl->il", [][]int{{30, 4, 5}, {4, 5, 20}}, conjugated, conjugated, true},
	{"ij,jk->ik", [][]int{{30, 40}, {40, 50}}, conjugated, colMajor, true},
	{"ijb,jkb->ikb", [][]int{{30, 40, 3}, {40, 50, 3}}, conjugated, colMajor, false},
}

// TestZeroCopy: the fusing contractions make no copy (Plan.Copies and
// lapis.ReadStats, which counts batch.Gemm's copies too), reach C
// (ForceC: one call for a single product), and succeed in strict mode,
// through the option and through SetStrict.
func TestZeroCopy(t *testing.T) {
	tm.ForTypes(t, testZeroCopy[float32], testZeroCopy[float64], testZeroCopy[complex64], testZeroCopy[complex128])
}

func testZeroCopy[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, c := range fusing {
		what := fmt.Sprintf("%s %v ops:%v dst:%v %T", c.spec, c.shapes, c.ops, c.to, *new(T))
		s, _ := Parse(c.spec)
		ops := make([]views.View[T], len(c.shapes))
		for k, sh := range c.shapes {
			ops[k] = makeView[T](rng, c.ops, sh...)
		}
		shape, want := oracle(t, c.spec, ops...)
		n := termsOf(t, c.spec, ops)
		dc := c.to
		dst := makeDst(dc, nanOf[T](), shape...)

		p, err := NewPlan(s, dst.v, ops, Options{Call: []lapis.Option{lapis.ForceC()}})
		if err != nil {
			t.Errorf("%s: NewPlan: %v", what, err)
			continue
		}
		if p.Copies() != 0 {
			t.Errorf("%s: Plan.Copies() = %d, want 0\n%v", what, p.Copies(), p)
		}
		ws := make([]T, p.Workspace())
		s0 := lapis.ReadStats()
		err = p.Execute(1, ops, 0, dst.v, ws)
		s1 := lapis.ReadStats()
		if err != nil {
			t.Errorf("%s: Execute: %v", what, err)
			continue
		}
		if d := s1.Copies - s0.Copies; d != 0 {
			t.Errorf("%s: ReadStats counts %d copies, want 0 (the groups fuse)\n%v", what, d, p)
		}
		// A batch may run on the Go-assembly kernel (counted in Small)
		// whatever ForceC says; a single product goes to C once.
		if d := s1.Calls - s0.Calls + s1.Small - s0.Small; d < 1 || c.single && s1.Calls-s0.Calls != 1 {
			t.Errorf("%s: %d C calls, %d Go kernel runs (single product: %v)", what, s1.Calls-s0.Calls, s1.Small-s0.Small, c.single)
		}
		if bad := mismatch(dst.v, shape, want, n); bad != "" {
			t.Errorf("%s: %s", what, bad)
		}

		// Strict by option: planned and executed.
		dst = makeDst(dc, nanOf[T](), shape...)
		p, err = NewPlan(s, dst.v, ops, Options{Call: []lapis.Option{lapis.Strict(true)}})
		if err == nil {
			err = p.Execute(1, ops, 0, dst.v, nil)
		}
		if err != nil {
			t.Errorf("%s: strict (option): %v", what, err)
		} else if bad := mismatch(dst.v, shape, want, n); bad != "" {
			t.Errorf("%s: strict (option): %s", what, bad)
		}

		// Strict process-wide: ContractTo.
		dst = makeDst(dc, nanOf[T](), shape...)
		prev := lapis.SetStrict(true)
		err = ContractTo(dst.v, c.spec, ops...)
		lapis.SetStrict(prev)
		if err != nil {
			t.Errorf("%s: strict (SetStrict): %v", what, err)
		} else if bad := mismatch(dst.v, shape, want, n); bad != "" {
			t.Errorf("%s: strict (SetStrict): %s", what, bad)
		}
	}
}

// copying are contractions that cannot run on the memory as it is: an
// operand whose summed group does not fuse in an order the other agrees
// on ('abc,bda': a,b fuse in the first as (a,b), in the second not at
// all), and a destination BLAS cannot write.
var copying = []struct {
	name, spec string
	shapes     [][]int
	ops, dst   class
}{
	{"groups-do-not-fuse", "abc,bda->cd", [][]int{{2, 3, 4}, {3, 5, 2}}, colMajor, colMajor},
	{"groups-do-not-fuse-C", "abc,bda->cd", [][]int{{2, 3, 4}, {3, 5, 2}}, rowMajor, rowMajor},
	{"strided-operands", "ij,jk->ik", [][]int{{3, 4}, {4, 5}}, strided, colMajor},
	{"reversed-dst", "ij,jk->ik", [][]int{{3, 4}, {4, 5}}, colMajor, reversed},
}

// TestCopies: a plan that copies says how many copies (Copies() > 0),
// ReadStats counts exactly those, the result is right; in strict mode
// (option or SetStrict) NewPlan, ContractTo and Execute refuse with
// lapis.ErrCopyRefused and leave dst untouched.
func TestCopies(t *testing.T) {
	t.Run("float64", testCopies[float64])
	t.Run("complex64", testCopies[complex64])
}

func testCopies[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, c := range copying {
		what := fmt.Sprintf("%s %s %v ops:%v dst:%v %T", c.name, c.spec, c.shapes, c.ops, c.dst, *new(T))
		s, _ := Parse(c.spec)
		ops := make([]views.View[T], len(c.shapes))
		for k, sh := range c.shapes {
			ops[k] = makeView[T](rng, c.ops, sh...)
		}
		shape, want := oracle(t, c.spec, ops...)
		dst := makeDst(c.dst, nanOf[T](), shape...)
		p, err := NewPlan(s, dst.v, ops, Options{})
		if err != nil {
			t.Errorf("%s: NewPlan: %v", what, err)
			continue
		}
		if p.Copies() == 0 {
			t.Errorf("%s: Copies() = 0, want > 0\n%v", what, p)
		}
		s0 := lapis.ReadStats()
		err = p.Execute(1, ops, 0, dst.v, nil)
		s1 := lapis.ReadStats()
		if err != nil {
			t.Errorf("%s: Execute: %v", what, err)
			continue
		}
		if d := s1.Copies - s0.Copies; d != int64(p.Copies()) {
			t.Errorf("%s: ReadStats counts %d copies, Plan.Copies() says %d\n%v", what, d, p.Copies(), p)
		}
		if bad := mismatch(dst.v, shape, want, 64); bad != "" {
			t.Errorf("%s: %s", what, bad)
		}

		// Strict by option: NewPlan refuses.
		_, err = NewPlan(s, dst.v, ops, Options{Call: []lapis.Option{lapis.Strict(true)}})
		if !errors.Is(err, lapis.ErrCopyRefused) {
			t.Errorf("%s: strict NewPlan: %v, want ErrCopyRefused", what, err)
		}
		// Strict process-wide: ContractTo refuses, and so does Execute of
		// the plan made before; dst is untouched.
		sentinel := makeDst(c.dst, tm.FromComplex[T](7), shape...)
		prev := lapis.SetStrict(true)
		err1 := ContractTo(sentinel.v, c.spec, ops...)
		err2 := p.Execute(1, ops, 0, sentinel.v, nil)
		lapis.SetStrict(prev)
		for _, err := range []error{err1, err2} {
			if !errors.Is(err, lapis.ErrCopyRefused) {
				t.Errorf("%s: strict: %v, want ErrCopyRefused", what, err)
			}
		}
		if bad := sentinel.untouched(); bad != "" {
			t.Errorf("%s: strict: %s", what, bad)
		}
		// Strict(false) overrides SetStrict(true).
		prev = lapis.SetStrict(true)
		q, err := NewPlan(s, dst.v, ops, Options{Call: []lapis.Option{lapis.Strict(false)}})
		if err == nil {
			err = q.Execute(1, ops, 0, dst.v, nil)
		}
		lapis.SetStrict(prev)
		if err != nil {
			t.Errorf("%s: Strict(false) under SetStrict(true): %v", what, err)
		}
	}
}

// TestPathChain: on 'ij,jk,kl,lm->im' with 300x20 / 20x300 operands the
// cheapest order contracts jk with kl first (2.04e6 multiply-adds);
// Optimal finds it, Greedy is no worse, and the left-to-right order given
// through Options.Order costs 5.4e6. All three give the same result.
func TestPathChain(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	const spec = "ij,jk,kl,lm->im"
	s, _ := Parse(spec)
	ops := []views.View[float64]{
		makeView[float64](rng, colMajor, 300, 20), makeView[float64](rng, colMajor, 20, 300),
		makeView[float64](rng, colMajor, 300, 20), makeView[float64](rng, colMajor, 20, 300),
	}
	leftToRight := [][2]int{{0, 1}, {0, 2}, {0, 1}} // (ij jk) -> ik; (kl ik) -> il; (lm il)
	plans := map[string]*Plan[float64]{}
	results := map[string]*views.Tensor[float64]{}
	for name, o := range map[string]Options{
		"greedy":  {Path: Greedy},
		"optimal": {Path: Optimal},
		"given":   {Order: leftToRight},
	} {
		dst := mustView(views.Zeros[float64](300, 300))
		p, err := NewPlan(s, dst.View(), ops, o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := p.Execute(1, ops, 0, dst.View(), nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		plans[name], results[name] = p, dst
	}
	og, oo, ol := plans["greedy"].Flops(), plans["optimal"].Flops(), plans["given"].Flops()
	t.Logf("flops: greedy %g (%v), optimal %g (%v), left to right %g (%v)",
		og, plans["greedy"].Order(), oo, plans["optimal"].Order(), ol, plans["given"].Order())
	if oo != 2.04e6 {
		t.Errorf("Optimal: %g multiply-adds, want 2.04e6", oo)
	}
	if oo > og {
		t.Errorf("Optimal %g > Greedy %g", oo, og)
	}
	if ol != 5.4e6 || 2*og > ol || 2*oo > ol {
		t.Errorf("left to right: %g multiply-adds, want 5.4e6 (greedy %g, optimal %g)", ol, og, oo)
	}
	if got := plans["given"].Order(); !slices.Equal(got, [][2]int{{0, 1}, {0, 2}, {0, 1}}) {
		t.Errorf("given order comes back as %v", got)
	}
	ref := results["given"].Data()
	for _, name := range []string{"greedy", "optimal"} {
		for i, x := range results[name].Data() {
			if d := x - ref[i]; d > 1e-9*(1+abs64(ref[i])) || -d > 1e-9*(1+abs64(ref[i])) {
				t.Fatalf("%s: element %d = %v, left to right gives %v", name, i, x, ref[i])
			}
		}
	}
}

func abs64(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestPathMemoryLimit: a MemoryLimit below the intermediate the default
// path makes forces another order (same result), and one no order meets
// is an error matching lapis.ErrInvalid, for Greedy and Optimal.
func TestPathMemoryLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const spec = "ab,bc,cd->ad"
	for _, c := range []struct {
		path      Path
		shapes    [][]int // a, b, c, d extents through the shapes
		fits      int     // a limit that the default's intermediate exceeds
		tooLow    int     // a limit no order meets
		free, lim [][2]int
	}{
		// Greedy takes (ab, bc) -> ac (30 elements, removes 52 - 30);
		// within 10 it must take (bc, cd) -> bd (4 elements).
		{Greedy, [][]int{{10, 4}, {4, 3}, {3, 1}}, 10, 3, [][2]int{{0, 1}, {0, 1}}, [][2]int{{1, 2}, {0, 1}}},
		// Optimal takes (ab, bc) -> ac (10 elements, 60 + 0 multiply-adds
		// against 63); within 9 it must take (bc, cd) -> bd (9 elements).
		{Optimal, [][]int{{2, 3}, {3, 5}, {5, 3}}, 9, 8, [][2]int{{0, 1}, {0, 1}}, [][2]int{{1, 2}, {0, 1}}},
	} {
		s, _ := Parse(spec)
		ops := make([]views.View[float64], 3)
		for k, sh := range c.shapes {
			ops[k] = makeView[float64](rng, colMajor, sh...)
		}
		shape, want := oracle(t, spec, ops...)
		for _, lim := range []int{0, c.fits} {
			dst := makeDst(colMajor, nanOf[float64](), shape...)
			p, err := NewPlan(s, dst.v, ops, Options{Path: c.path, MemoryLimit: lim})
			if err != nil {
				t.Errorf("%v limit %d: %v", c.path, lim, err)
				continue
			}
			wantOrder := c.free
			if lim > 0 {
				wantOrder = c.lim
			}
			if got := p.Order(); !slices.Equal(got, wantOrder) {
				t.Errorf("%v limit %d: order %v, want %v (flops %g)", c.path, lim, got, wantOrder, p.Flops())
			}
			if err := p.Execute(1, ops, 0, dst.v, nil); err != nil {
				t.Errorf("%v limit %d: %v", c.path, lim, err)
			} else if bad := mismatch(dst.v, shape, want, 64); bad != "" {
				t.Errorf("%v limit %d: %s", c.path, lim, bad)
			}
		}
		dst := makeDst(colMajor, nanOf[float64](), shape...)
		if _, err := NewPlan(s, dst.v, ops, Options{Path: c.path, MemoryLimit: c.tooLow}); !errors.Is(err, lapis.ErrInvalid) {
			t.Errorf("%v limit %d: %v, want ErrInvalid", c.path, c.tooLow, err)
		}
	}
}

// TestPathOptimalLimit: Optimal takes MaxOptimal operands, not one more.
func TestPathOptimalLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for _, n := range []int{MaxOptimal, MaxOptimal + 1} {
		in := make([][]int, n)
		ops := make([]views.View[float64], n)
		for k := range n {
			in[k] = []int{k, k + 1} // a chain of 2x2 matrices
			ops[k] = makeView[float64](rng, colMajor, 2, 2)
		}
		s, err := Labels([]int{0, n}, in...)
		if err != nil {
			t.Fatal(err)
		}
		dst := makeDst(colMajor, nanOf[float64](), 2, 2)
		p, err := NewPlan(s, dst.v, ops, Options{Path: Optimal})
		switch {
		case n > MaxOptimal && !errors.Is(err, lapis.ErrInvalid):
			t.Errorf("Optimal with %d operands: %v, want ErrInvalid", n, err)
		case n <= MaxOptimal && err != nil:
			t.Errorf("Optimal with %d operands: %v", n, err)
		case n <= MaxOptimal:
			if err := p.Execute(1, ops, 0, dst.v, nil); err != nil {
				t.Fatal(err)
			}
			shape, want := oracle(t, lettersOf([]int{0, n}, in), ops...)
			if bad := mismatch(dst.v, shape, want, 64); bad != "" {
				t.Errorf("Optimal with %d operands: %s", n, bad)
			}
		}
		// Greedy takes any number.
		if _, err := NewPlan(s, dst.v, ops, Options{Path: Greedy}); err != nil {
			t.Errorf("Greedy with %d operands: %v", n, err)
		}
	}
}

// TestNoAlloc: Execute with dst and the workspace given allocates nothing
// (rank <= 8): gemms (one product, a batch, with copies, a chain), an
// own-index sum, element-wise products, a batched dot, with alpha 1 and
// beta 0 and with alpha and beta.
func TestNoAlloc(t *testing.T) {
	tm.ForTypes(t, testNoAlloc[float32], testNoAlloc[float64], testNoAlloc[complex64], testNoAlloc[complex128])
}

func testNoAlloc[T Scalar](t *testing.T) {
	if pool.Poison.Load() {
		t.Skip("under the race detector (which poisons pooled buffers) allocation counts include its instrumentation; test.sh's allocs step runs this")
	}
	rng := rand.New(rand.NewPCG(11, 11))
	for _, c := range []struct {
		name, spec string
		shapes     [][]int
		ops, dst   class
	}{
		{"gemm", "ij,jk->ik", [][]int{{8, 8}, {8, 8}}, colMajor, colMajor},
		{"gemm-C-order", "ijk,jkl->il", [][]int{{8, 4, 2}, {4, 2, 8}}, rowMajor, rowMajor},
		{"gemm-batched", "ijb,jkb->ikb", [][]int{{8, 8, 4}, {8, 8, 4}}, colMajor, colMajor},
		{"gemm-copies", "ij,jk->ik", [][]int{{8, 8}, {8, 8}}, strided, reversed},
		{"gemm-conj", "ij,jk->ik", [][]int{{8, 8}, {8, 8}}, conjugated, colMajor},
		{"gemm-conj-dst", "ij,jk->ik", [][]int{{8, 8}, {8, 8}}, colMajor, conjugated},
		{"chain", "ij,jk,kl->il", [][]int{{8, 8}, {8, 8}, {8, 8}}, colMajor, colMajor},
		{"sum", "ijk->j", [][]int{{4, 5, 6}}, colMajor, colMajor},
		{"elementwise", "ij,ij->ij", [][]int{{8, 8}, {8, 8}}, colMajor, colMajor},
		{"elementwise-strided", "ij,ji->ij", [][]int{{8, 8}, {8, 8}}, strided, reversed},
		{"dot", "bi,bi->b", [][]int{{8, 8}, {8, 8}}, colMajor, colMajor},
	} {
		s, _ := Parse(c.spec)
		ops := make([]views.View[T], len(c.shapes))
		for k, sh := range c.shapes {
			ops[k] = makeView[T](rng, c.ops, sh...)
		}
		shape, _ := oracle(t, c.spec, ops...)
		dst := makeDst(c.dst, T(0), shape...)
		p, err := NewPlan(s, dst.v, ops, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ws := make([]T, p.Workspace())
		for _, ab := range [][2]T{{1, 0}, {2, 0.5}} {
			var runErr error
			allocs := testing.AllocsPerRun(20, func() {
				if err := p.Execute(ab[0], ops, ab[1], dst.v, ws); err != nil {
					runErr = err
				}
			})
			if runErr != nil {
				t.Fatalf("%s: %v", c.name, runErr)
			}
			if allocs != 0 {
				t.Errorf("%s %s (alpha %v, beta %v): %v allocations per Execute, want 0\n%v", c.name, c.spec, ab[0], ab[1], allocs, p)
			}
		}
	}
}

// TestConcurrent: one Plan executed by several goroutines at once, each
// with its own destination and workspace, and ContractTo called from
// several goroutines (the plan cache), give the oracle's values (run with
// -race).
func TestConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	specs := large // sizes that reach C, the batch split over workers
	type job struct {
		spec  string
		ops   []views.View[complex128]
		shape []int
		want  []complex128
	}
	var jobs []job
	for _, f := range specs {
		ops := make([]views.View[complex128], len(f.shapes))
		for k, sh := range f.shapes {
			ops[k] = makeView[complex128](rng, class(k)%nClasses, sh...)
		}
		shape, want := oracle(t, f.spec, ops...)
		jobs = append(jobs, job{f.spec, ops, shape, want})
	}
	shared := jobs[6] // chain-3: a workspace
	s, _ := Parse(shared.spec)
	proto := makeDst(rowMajor, nanOf[complex128](), shared.shape...)
	p, err := NewPlan(s, proto.v, shared.ops, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if large[6].name != "chain-3" || p.Workspace() == 0 {
		t.Fatalf("want a plan with a workspace, got %s\n%v", large[6].name, p)
	}
	const workers = 8
	errs := make(chan string, workers*2)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 20 {
				// The shared plan, into a dst laid out as the plan's.
				dst := makeDst(rowMajor, nanOf[complex128](), shared.shape...)
				if err := p.Execute(1, shared.ops, 0, dst.v, make([]complex128, p.Workspace())); err != nil {
					errs <- err.Error()
					return
				}
				if bad := mismatch(dst.v, shared.shape, shared.want, 64); bad != "" {
					errs <- "shared plan: " + bad
					return
				}
				// ContractTo through the cache.
				j := jobs[(w+i)%len(jobs)]
				d2 := makeDst(dstClasses[i%len(dstClasses)], nanOf[complex128](), j.shape...)
				if err := ContractTo(d2.v, j.spec, j.ops...); err != nil {
					errs <- j.spec + ": " + err.Error()
					return
				}
				if bad := mismatch(d2.v, j.shape, j.want, 64); bad != "" {
					errs <- j.spec + ": " + bad
					return
				}
			}
		}()
	}
	for range workers {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestCopiesCounted: for every feature, every class of the operands
// (uniform and mixed) and of dst, and the four types, the copies
// lapis.ReadStats counts during Execute (einsum's and any batch.Gemm or
// cblas makes) are exactly the ones Plan.Copies announces: a plan that
// says 0 copies runs on the operands' memory, and strict mode's decision
// at NewPlan is the one that holds.
func TestCopiesCounted(t *testing.T) {
	tm.ForTypes(t, testCopiesCounted[float32], testCopiesCounted[float64], testCopiesCounted[complex64], testCopiesCounted[complex128])
}

func testCopiesCounted[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	failures := 0
	for _, set := range []struct {
		fs   []feature
		opts []lapis.Option
	}{{features, nil}, {large, []lapis.Option{lapis.ForceC()}}} {
		for _, f := range set.fs {
			s, _ := Parse(f.spec)
			for r := range 2 * nClasses {
				ops, cls := classOperands[T](rng, f.shapes, r)
				shape, _ := oracle(t, f.spec, ops...)
				for _, dc := range dstClasses {
					dst := makeDst(dc, nanOf[T](), shape...)
					p, err := NewPlan(s, dst.v, ops, Options{Call: set.opts})
					if err != nil {
						t.Fatalf("%s: %v", describeCase(f.spec, ops, cls, dc), err)
					}
					s0 := lapis.ReadStats()
					if err := p.Execute(1, ops, 0, dst.v, nil); err != nil {
						t.Fatalf("%s: %v", describeCase(f.spec, ops, cls, dc), err)
					}
					if d := lapis.ReadStats().Copies - s0.Copies; d != int64(p.Copies()) {
						if failures++; failures <= 12 {
							t.Errorf("%s: ReadStats counts %d copies, Plan.Copies() = %d", describeCase(f.spec, ops, cls, dc), d, p.Copies())
						}
					}
				}
			}
		}
	}
	if failures > 12 {
		t.Errorf("... %d cases in all", failures)
	}
}

// TestIntermediateOrientation: an intermediate is laid out so that the
// step consuming it fuses with it. In 'xyj,jk,kxm->ym' taken (A B) first,
// X[x,y,k] is then summed with D over (k,x) in D's order; only X laid out
// columns first, [k,x,y], fuses that group: no copy anywhere, in strict
// mode too, and the values are the oracle's.
func TestIntermediateOrientation(t *testing.T) {
	t.Run("float64", testOrientation[float64])
	t.Run("complex128", testOrientation[complex128])
}

func testOrientation[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	const spec = "xyj,jk,kxm->ym"
	s, _ := Parse(spec)
	ops := []views.View[T]{
		makeView[T](rng, colMajor, 3, 4, 5), makeView[T](rng, colMajor, 5, 6), makeView[T](rng, colMajor, 6, 3, 7),
	}
	shape, want := oracle(t, spec, ops...)
	dst := makeDst(colMajor, nanOf[T](), shape...)
	o := Options{Order: [][2]int{{0, 1}, {0, 1}}, Call: []lapis.Option{lapis.Strict(true)}}
	p, err := NewPlan(s, dst.v, ops, o)
	if err != nil {
		t.Fatalf("strict NewPlan: %v", err)
	}
	s0 := lapis.ReadStats()
	if err := p.Execute(1, ops, 0, dst.v, nil); err != nil {
		t.Fatalf("Execute: %v\n%v", err, p)
	}
	if d := lapis.ReadStats().Copies - s0.Copies; d != 0 || p.Copies() != 0 {
		t.Errorf("%d copies counted, Plan.Copies() = %d; want 0\n%v", d, p.Copies(), p)
	}
	if bad := mismatch(dst.v, shape, want, 64); bad != "" {
		t.Errorf("%s", bad)
	}
}

// TestLoopedLabels: a destination whose row or column indices do not fuse
// is not copied when looping over them costs less (TCCG's ccsd_t and
// intensli shapes, small): the plan's product has more batch axes than
// the contraction has batch indices, no copy of dst, and the oracle's
// values, for every type.
func TestLoopedLabels(t *testing.T) {
	tm.ForTypes(t, testLoopedLabels[float32], testLoopedLabels[float64], testLoopedLabels[complex64], testLoopedLabels[complex128])
}

func testLoopedLabels[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, c := range []struct {
		spec   string
		shapes [][]int
	}{
		// ccsd_t0: C[a,b,c,d,e,f] = A[d,e,g,a] B[g,f,b,c]; rows (a | d, e), columns (b, c | f).
		{"dega,gfbc->abcdef", [][]int{{3, 2, 4, 12}, {4, 2, 10, 10}}},
		// intensli5: C[a,b,c,d,e] = A[e,f,b,a,d] B[c,f]; rows (a, b | d, e).
		{"efbad,cf->abcde", [][]int{{2, 3, 12, 16, 2}, {8, 3}}},
	} {
		ops := make([]views.View[T], len(c.shapes))
		for k, sh := range c.shapes {
			ops[k] = makeView[T](rng, colMajor, sh...)
		}
		shape, want := oracle(t, c.spec, ops...)
		dst := makeDst(colMajor, nanOf[T](), shape...)
		p, err := NewPlan(must2(Parse(c.spec)), dst.v, ops, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var gemm *instr
		for i := range p.prog {
			if p.prog[i].kind == kGemm {
				gemm = &p.prog[i]
			}
		}
		if gemm == nil || gemm.tmp != nil || gemm.out.l.Rank() <= 2 {
			t.Fatalf("%s: want one product into dst with looped batch axes, no copy of dst:\n%v", c.spec, p)
		}
		if err := p.Execute(1, ops, 0, dst.v, nil); err != nil {
			t.Fatal(err)
		}
		checkAgainst(t, c.spec, dst.v, shape, want, 64)
	}
}

// TestWorkspacePeak: the workspace is the least it can be, the most
// elements of buffers in use at one instruction (buffers whose lifetimes
// do not meet share memory); for a linear chain, where each step consumes
// at most one intermediate, that is at most its largest buffer plus the
// next largest.
func TestWorkspacePeak(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	s, mps := mpsInner(rng, 16, 4)
	cases := []struct {
		name string
		p    *Plan[complex128]
	}{
		{"mps", must2(NewPlan(s, must2(views.Zeros[complex128]()).View(), mps, Options{Order: mpsOrder(16)}))},
	}
	for _, spec := range []string{"ij,jk,kl,lm->im", "ab,bc,cd,de,ef,fg->ag", "ij,jk,kl,lm,mn->in"} {
		sp := must2(Parse(spec))
		n := sp.Operands()
		ops := make([]views.View[complex128], n)
		for k := range ops {
			r, c := 30, 7
			if k%2 == 1 {
				r, c = 7, 30
			}
			ops[k] = fill[complex128](rng, r, c).View()
		}
		dst := must2(views.Zeros[complex128](30, ops[n-1].Shape()[1])).View()
		for _, path := range []Path{Greedy, Optimal} {
			cases = append(cases, struct {
				name string
				p    *Plan[complex128]
			}{spec + " " + path.String(), must2(NewPlan(sp, dst, ops, Options{Path: path}))})
		}
	}
	for _, c := range cases {
		if c.p.Workspace() != c.p.live {
			t.Errorf("%s: workspace %d elements, %d in use at most\n%v", c.name, c.p.Workspace(), c.p.live, c.p)
		}
		if bound := c.p.largest[0] + c.p.largest[1]; c.name == "mps" && c.p.Workspace() > bound {
			t.Errorf("%s: workspace %d elements, more than the two largest buffers %v\n%v", c.name, c.p.Workspace(), c.p.largest, c.p)
		}
	}
}

// TestLanesLowering: a product whose batch index has stride 1 in both
// operands and the destination (bij,bjk->bik column-major, ijb,jkb->ikb
// in C order) runs on gemm.Lanes with no copy for float64 where the CPU
// has its tiles (strict mode accepts it), with alpha and beta, and right
// for every type (the other types copy for BLAS).
func TestLanesLowering(t *testing.T) {
	t.Run("float64", testLanesLowering[float64])
	t.Run("float32", testLanesLowering[float32])
	t.Run("complex128", testLanesLowering[complex128])
}

func testLanesLowering[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	_, isF64 := any(*new(T)).(float64)
	for _, c := range []struct {
		spec   string
		shapes [][]int
		cls    class
	}{
		{"bij,bjk->bik", [][]int{{13, 5, 7}, {13, 7, 6}}, colMajor},
		{"bij,bjk->bik", [][]int{{16, 4, 4}, {16, 4, 8}}, colMajor},
		{"ijb,jkb->ikb", [][]int{{5, 70, 9}, {70, 3, 9}}, rowMajor},
		{"bij,bjk->bik", [][]int{{3, 5, 7}, {3, 7, 6}}, colMajor}, // below lanesMin: BLAS, with copies
	} {
		what := fmt.Sprintf("%s %v %v %T", c.spec, c.shapes, c.cls, *new(T))
		s, _ := Parse(c.spec)
		ops := []views.View[T]{makeView[T](rng, c.cls, c.shapes[0]...), makeView[T](rng, c.cls, c.shapes[1]...)}
		shape, want := oracle(t, c.spec, ops...)
		dst := makeDst(c.cls, tm.FromComplex[T](0.5), shape...)
		wantLanes := isF64 && gemm.Fast && c.shapes[0][0] >= 4
		p, err := NewPlan(s, dst.v, ops, Options{Call: []lapis.Option{lapis.Strict(wantLanes)}})
		if err != nil {
			t.Fatalf("%s: NewPlan: %v", what, err)
		}
		if (p.Copies() == 0) != wantLanes {
			t.Errorf("%s: %d copies; want none only on the Lanes path (%v)\n%v", what, p.Copies(), wantLanes, p)
		}
		alpha, beta := tm.FromComplex[T](-0.75), tm.FromComplex[T](2)
		for o := range want {
			want[o] = toC(alpha)*want[o] + toC(beta)*0.5
		}
		s0 := lapis.ReadStats()
		if err := p.Execute(alpha, ops, beta, dst.v, nil); err != nil {
			t.Fatalf("%s: Execute: %v", what, err)
		}
		if d := lapis.ReadStats().Small - s0.Small; wantLanes && d != 1 {
			t.Errorf("%s: %d products outside BLAS; want 1 (Lanes)", what, d)
		}
		if bad := mismatch(dst.v, shape, want, 80); bad != "" {
			t.Errorf("%s: %s", what, bad)
		}
		if bad := dst.outside(); bad != "" {
			t.Errorf("%s: %s", what, bad)
		}
	}
}
