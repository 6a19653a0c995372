package batch

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/lapis-go/lapis"
	tk "github.com/lapis-go/lapis/internal/kernel/tiny"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// TestTiny runs the operations the tiny kernels take against the
// per-matrix path (lapis.ForceC(), what batch did before the kernels, and
// per-matrix lapack) for every order 1 to 9 around the kernels' 2..8,
// batch sizes that are not a multiple of the lane count, column-major,
// row-major and batch-innermost layouts, and bad matrices (not positive
// definite, singular, NaN, Inf, ill-conditioned for Solve's and Inv's
// check, or just above its threshold) in the middle and in the last
// (tail) lane: the same failed indices with the same lapack.Error kinds
// and Index, and results within rounding. Where the AVX-512 kernels run,
// float64 runs again on the AVX2 ones.
func TestTiny(t *testing.T) {
	tm.ForTypes(t, testTiny[float32], testTiny[float64])
	if tk.Wide {
		t.Run("float64-avx2", func(t *testing.T) {
			defer tk.SetAVX512(tk.SetAVX512(false))
			testTiny[float64](t)
		})
	}
}

// tinyLayouts makes a batch [n, c, count] from column-major data in three
// layouts: compact column-major, row-major matrices, batch axis innermost.
func tinyBatch[T Scalar](data []T, n, c, count, layout int) views.View[T] {
	switch layout {
	case 0:
		return must(views.FromColMajor(data, n, c, count)).View()
	case 1: // row-major: storage [c, n, count], axes 0 and 1 swapped
		return must(must(views.FromColMajor(data, c, n, count)).View().Permute(1, 0, 2))
	default: // storage [count, n, c]
		return must(must(views.FromColMajor(data, count, n, c)).View().Permute(1, 2, 0))
	}
}

func testTiny[T float32 | float64](t *testing.T) {
	oneThread(t)
	rng := rand.New(rand.NewPCG(21, uint64(len(t.Name()))))
	for n := 1; n <= 9; n++ {
		for _, count := range []int{1, 3, 9, 16, 17} {
			for layout := range 3 {
				for _, bad := range []string{"", "neg", "zero", "nan", "inf", "ill", "poor"} {
					if bad != "" && count < 3 {
						continue
					}
					name := fmt.Sprintf("n=%d/count=%d/layout=%d/bad=%s", n, count, layout, bad)
					spd := make([]T, n*n*count)
					for m := range count {
						tinySPD(rng, n, func(i, j int, v float64) { spd[tinyIdx(layout, n, n, count, i, j, m)] = T(v) })
					}
					// Bad matrices: the middle one and the last one.
					for _, m := range []int{count / 2, count - 1} {
						if bad == "" {
							break
						}
						k := min(n-1, 1+m%2)
						if bad == "ill" || bad == "poor" {
							// The identity with s at (k, k): reciprocal
							// condition number s exactly, 2^-17 (ill) or
							// 2^3 (poor: a candidate of the kernels'
							// check that the exact check clears) times
							// epsilon / 2.
							s := math.Ldexp(scalar.Eps[T]()/2, map[string]int{"ill": -17, "poor": 3}[bad])
							for j := range n {
								for i := range n {
									v := 0.0
									if i == j {
										v = 1
									}
									if i == k && j == k {
										v = s
									}
									spd[tinyIdx(layout, n, n, count, i, j, m)] = T(v)
								}
							}
							continue
						}
						for i := range n {
							switch bad {
							case "neg": // not positive definite at minor k+1
								spd[tinyIdx(layout, n, n, count, k, k, m)] = -1
							case "zero": // a zero column k: singular, pivot k
								spd[tinyIdx(layout, n, n, count, i, k, m)] = 0
								spd[tinyIdx(layout, n, n, count, k, i, m)] = 0
							case "nan":
								spd[tinyIdx(layout, n, n, count, k, k, m)] = T(math.NaN())
							case "inf":
								spd[tinyIdx(layout, n, n, count, k, k, m)] = T(math.Inf(1))
							}
						}
					}
					rhs := make([]T, n*2*count)
					for i := range rhs {
						rhs[i] = T(rng.Float64()*2 - 1)
					}
					tinyCompare(t, name, n, count, layout, spd, rhs)
				}
			}
		}
	}
}

func tinyIdx(layout, n, c, count, i, j, m int) int {
	switch layout {
	case 0:
		return i + j*n + m*n*c
	case 1:
		return j + i*c + m*n*c
	}
	return m + i*count + j*count*n
}

// tinyCompare runs every operation on copies of a (and b, 2 columns) on
// the default path and with lapis.ForceC(), and compares.
func tinyCompare[T float32 | float64](t *testing.T, name string, n, count, layout int, a, b []T) {
	t.Helper()
	tol := 200 * float64(n) * scalar.Eps[T]()
	type result struct {
		a, b []T
		det  []T
		la   []float64
		sg   []T
		err  error
	}
	do := func(op string, opts ...lapis.Option) result {
		r := result{a: append([]T(nil), a...), b: append([]T(nil), b...)}
		av, bv := tinyBatch(r.a, n, n, count, layout), tinyBatch(r.b, n, 2, count, layout)
		switch op {
		case "Cholesky":
			r.err = Potrf(Lower, av, opts...)
		case "CholeskyUpper":
			r.err = Potrf(Upper, av, opts...)
		case "CholeskySolve":
			// Factor on the reference path, so that both solve the same
			// factor (failed factors included).
			_ = Potrf(Lower, av, lapis.ForceC())
			r.err = Potrs(Lower, av, bv, opts...)
		case "Solve":
			r.err = Gesv(av, bv, opts...)
		case "Inv":
			r.err = InvTo(av, av, opts...)
		case "SolveNoCheck":
			r.err = Gesv(av, bv, append(opts, lapis.NoConditionCheck())...)
		case "InvNoCheck":
			r.err = InvTo(av, av, append(opts, lapis.NoConditionCheck())...)
		case "Det":
			r.det, r.err = Det(av, opts...)
		case "LogDet":
			r.la, r.sg, r.err = LogDet(av, opts...)
		}
		return r
	}
	for _, op := range []string{"Cholesky", "CholeskyUpper", "CholeskySolve", "Solve", "Inv", "SolveNoCheck", "InvNoCheck", "Det", "LogDet"} {
		what := name + "/" + op
		got, want := do(op), do(op, lapis.ForceC())
		var ge, we *Error
		errors.As(got.err, &ge)
		errors.As(want.err, &we)
		if (got.err == nil) != (want.err == nil) || (ge == nil) != (we == nil) {
			t.Fatalf("%s: error %v, the per-matrix path %v", what, got.err, want.err)
		}
		if ge != nil {
			if len(ge.Failed) != len(we.Failed) {
				t.Fatalf("%s: failed %v, the per-matrix path %v", what, ge, we)
			}
			for i, e := range we.Failed {
				g := ge.Failed[i]
				if g == nil || g.Index != e.Index || !errors.Is(g, errors.Unwrap(e)) || g.Routine != e.Routine {
					t.Fatalf("%s: matrix %d: %v, the per-matrix path %v", what, i, g, e)
				}
			}
		}
		near := func(x, y T) bool {
			if x == y || tm.IsNaN(x) && tm.IsNaN(y) {
				return true
			}
			return tm.Abs(x-y) <= tol*max(1, tm.Abs(y))
		}
		for i := range got.a {
			if !near(got.a[i], want.a[i]) {
				t.Fatalf("%s: a[%d] = %v, the per-matrix path %v", what, i, got.a[i], want.a[i])
			}
		}
		for i := range got.b {
			if !near(got.b[i], want.b[i]) {
				t.Fatalf("%s: b[%d] = %v, the per-matrix path %v", what, i, got.b[i], want.b[i])
			}
		}
		for i := range got.det {
			if !near(got.det[i], want.det[i]) {
				t.Fatalf("%s: det[%d] = %v, the per-matrix path %v", what, i, got.det[i], want.det[i])
			}
		}
		for i := range got.la {
			if d := math.Abs(got.la[i] - want.la[i]); !(d <= tol*max(1, math.Abs(want.la[i]))) && got.la[i] != want.la[i] && !(math.IsNaN(got.la[i]) && math.IsNaN(want.la[i])) || !near(got.sg[i], want.sg[i]) {
				t.Fatalf("%s: logdet[%d] = %v %v, the per-matrix path %v %v", what, i, got.la[i], got.sg[i], want.la[i], want.sg[i])
			}
		}
	}
	_ = lapack.ErrSingular
}

// BenchmarkTinySolvePath measures the crossover that tinySolveMin(false)
// encodes: Solve without the conditioning check on 10000 float64 systems
// (compact [n, n, 10000], one right-hand side, the copy that keeps a
// included) by the tiny kernels (path=kernel) and by the strided solve (internal/strided)'s
// C loop (path=cloop), one worker.
//
//	go test -run '^$' -bench TinySolvePath -count 5 ./batch
func BenchmarkTinySolvePath(b *testing.B) {
	oneThread(b)
	prev, _ := lapis.SetWorkers(1)
	defer lapis.SetWorkers(prev)
	rng := rand.New(rand.NewPCG(14, 2))
	opts := []lapis.Option{lapis.NoConditionCheck()}
	for n := 2; n <= 8; n++ {
		const count = 10000
		a0, b0 := make([]float64, n*n*count), make([]float64, n*count)
		for i := range a0 { // diagonally dominant
			a0[i] = rng.Float64()*2 - 1
			if i%(n*n)%(n+1) == 0 {
				a0[i] += float64(n)
			}
		}
		for i := range b0 {
			b0[i] = rng.Float64()*2 - 1
		}
		a, x := slices.Clone(a0), slices.Clone(b0)
		av := must(views.FromColMajor(a, n, n, count)).View()
		xv := must(views.FromColMajor(x, n, 1, count)).View()
		shape := []int{count}
		for _, path := range []string{"kernel", "cloop"} {
			b.Run(fmt.Sprintf("n=%d/path=%s", n, path), func(b *testing.B) {
				for b.Loop() {
					copy(a, a0)
					copy(x, b0)
					var err error
					if path == "kernel" {
						err = tinySolve("batch.Gesv", shape, n, av, xv, false, opts, nil, nil)
					} else {
						err = solveBatch("batch.Gesv", shape, n, av, xv, opts, nil)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestTinyWorkers: batches large enough to be split (chunks taken by the
// workers, each from its CPU's region first: package split), with bad
// matrices scattered over the chunks, give the one-worker results bit for
// bit with 2 and 3 workers: the same outputs, the same failed indices and
// kinds.
func TestTinyWorkers(t *testing.T) {
	oneThread(t)
	rng := rand.New(rand.NewPCG(31, 32))
	// Split in 2 and 3 (tinyChunkWork); many: a matrix in 5 is flagged,
	// enough that the slow path is split too (tiny's redos).
	for _, c := range []struct {
		n, count int
		many     bool
	}{{3, 40001, false}, {8, 3100, false}, {8, 3100, true}} {
		n, count := c.n, c.count
		a := make([]float64, n*n*count)
		for m := range count {
			tinySPD(rng, n, func(i, j int, v float64) { a[i+j*n+m*n*n] = v })
		}
		bad := []int{0, 7, count / 3, count / 2, count - 9, count - 1}
		if c.many {
			bad = nil
			for m := 0; m < count; m += 5 {
				bad = append(bad, m)
			}
		}
		for _, m := range bad {
			switch m % 3 {
			case 0:
				a[n*n*m+n+1] = math.NaN()
			case 1:
				a[n*n*m] = -1 // not positive definite
			default:
				for i := range n { // a zero column: singular
					a[n*n*m+i] = 0
				}
			}
		}
		b := make([]float64, n*2*count)
		for i := range b {
			b[i] = rng.Float64()*2 - 1
		}
		for _, op := range []string{"Cholesky", "Solve", "Inv", "Det"} {
			var ref []float64
			var refErr string
			for _, w := range []int{1, 2, 3} {
				prev, _ := lapis.SetWorkers(w)
				ac, bc := slices.Clone(a), slices.Clone(b)
				av := must(views.FromColMajor(ac, n, n, count)).View()
				bv := must(views.FromColMajor(bc, n, 2, count)).View()
				var err error
				var out []float64
				switch op {
				case "Cholesky":
					err, out = Potrf(Lower, av), ac
				case "Solve":
					err, out = Gesv(av, bv), append(ac, bc...)
				case "Inv":
					err, out = InvTo(av, av), ac
				case "Det":
					out, err = Det(av)
				}
				lapis.SetWorkers(prev)
				var be *Error
				if !errors.As(err, &be) {
					if op != "Det" || err != nil { // Det fails for none of them
						t.Fatalf("n=%d/%s/workers=%d: %v, want a *batch.Error", n, op, w, err)
					}
					be = &Error{}
				}
				var keys []string
				for i, e := range be.Failed {
					keys = append(keys, fmt.Sprintf("%d:%v", i, e))
				}
				slices.Sort(keys)
				got := fmt.Sprint(keys)
				if w == 1 {
					ref, refErr = out, got
					continue
				}
				if got != refErr {
					t.Errorf("n=%d/%s/workers=%d: failed %s, one worker %s", n, op, w, got, refErr)
				}
				if !slices.EqualFunc(out, ref, sameFloat) {
					t.Errorf("n=%d/%s/workers=%d: results differ from one worker's", n, op, w)
				}
			}
		}
	}
}

// tinySPD makes G G^T + n I for an n x n G of random entries in [-1, 1)
// (drawn column by column from rng), a positive definite matrix, and
// passes its elements to set.
func tinySPD(rng *rand.Rand, n int, set func(i, j int, v float64)) {
	g := make([]float64, n*n)
	for i := range g {
		g[i] = rng.Float64()*2 - 1
	}
	for j := range n {
		for i := range n {
			v := 0.0
			for k := range n {
				v += g[i+k*n] * g[j+k*n]
			}
			if i == j {
				v += float64(n)
			}
			set(i, j, v)
		}
	}
}

// TestTinyConcurrentCallers: several goroutines calling split tiny
// batches at once share the tiny workers (and the CPUs' regions of
// package split with each other's pieces); every call gives the
// one-worker results bit for bit.
func TestTinyConcurrentCallers(t *testing.T) {
	const n, count, callers, rounds = 8, 3100, 4, 10 // split in two (tinyChunkWork)
	rng := rand.New(rand.NewPCG(41, 42))
	inputs := make([][]float64, callers)
	for c := range inputs {
		inputs[c] = make([]float64, n*n*count)
		for m := range count {
			tinySPD(rng, n, func(i, j int, v float64) { inputs[c][i+j*n+m*n*n] = v })
		}
	}
	view := func(s []float64) views.View[float64] { return must(views.FromColMajor(s, n, n, count)).View() }
	ops := []struct {
		name string
		f    func(dst, a views.View[float64]) error
	}{
		{"CholeskyTo", func(dst, a views.View[float64]) error { return CholeskyTo(Lower, dst, a) }},
		{"InvTo", func(dst, a views.View[float64]) error { return InvTo(dst, a) }},
	}
	prev, _ := lapis.SetWorkers(1)
	defer lapis.SetWorkers(prev)
	want := make([][][]float64, len(ops))
	for o, op := range ops {
		for c := range callers {
			dst := make([]float64, n*n*count)
			if err := op.f(view(dst), view(inputs[c])); err != nil {
				t.Fatalf("%s, one worker: %v", op.name, err)
			}
			want[o] = append(want[o], dst)
		}
	}
	lapis.SetWorkers(2)
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for c := range callers {
		wg.Go(func() {
			dst := make([]float64, n*n*count)
			for r := range rounds {
				o := (c + r) % len(ops)
				clear(dst)
				if err := ops[o].f(view(dst), view(inputs[c])); err != nil {
					errs <- fmt.Errorf("%s, caller %d, round %d: %v", ops[o].name, c, r, err)
					return
				}
				if !slices.Equal(dst, want[o][c]) {
					errs <- fmt.Errorf("%s, caller %d, round %d: differs from one worker's result", ops[o].name, c, r)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
