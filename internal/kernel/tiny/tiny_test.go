package tiny

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

var tinyOpNames = [nTinyOps]string{"chol", "cholsolve", "solve", "inv", "det"}

// tinyCase is a run of count matrices of order n (and right-hand sides)
// stored with the given strides in one slice each, padded with NaN.
type tinyCase[T float32 | float64] struct {
	n, count, nrhs int
	a, b           []T
	am, bm         Mat // P set by mats
	aoff, boff     int
}

// layouts: element strides (rs, cs, bs) of an n x n (or n x r) run: compact
// column-major, row-major, innermost batch, padded and reversed batch.
func tinyLayouts(n, r, count int) [][3]int {
	return [][3]int{
		{1, n, n * r},
		{r, 1, n * r},
		{count, count * n, 1},
		{2, 2*n + 1, -(2*n + 1) * r},
	}
}

func newTinyCase[T float32 | float64](rng *rand.Rand, op Op, n, count, nrhs, li int) *tinyCase[T] {
	c := &tinyCase[T]{n: n, count: count, nrhs: nrhs}
	mk := func(rows, cols int, l [3]int) ([]T, Mat, int) {
		rs, cs, bs := l[0], l[1], l[2]
		lo, hi := 0, 0
		for _, e := range []int{(rows - 1) * rs, (cols - 1) * cs, (count - 1) * bs} {
			if e < 0 {
				lo += e
			} else {
				hi += e
			}
		}
		s := make([]T, hi-lo+1)
		for i := range s {
			s[i] = T(math.NaN())
		}
		return s, Mat{RS: rs, CS: cs, BS: bs}, -lo
	}
	c.a, c.am, c.aoff = mk(n, n, tinyLayouts(n, n, count)[li])
	c.b, c.bm, c.boff = mk(n, nrhs, tinyLayouts(n, nrhs, count)[li])
	for t := range count {
		// Diagonally weighted random matrices: SPD for the Cholesky
		// operations (m m^T + n I), general otherwise.
		var m [64]float64
		for i := range m {
			m[i] = rng.Float64()*2 - 1
		}
		for j := range n {
			for i := range n {
				v := m[i+j*n]
				if op == Cholesky || op == CholeskySolve {
					v = 0
					for k := range n {
						v += m[i+k*n] * m[j+k*n]
					}
					if i == j {
						v += float64(n)
					}
				}
				c.a[c.aoff+i*c.am.RS+j*c.am.CS+t*c.am.BS] = T(v)
			}
			for r := range nrhs {
				c.b[c.boff+j*c.bm.RS+r*c.bm.CS+t*c.bm.BS] = T(rng.Float64()*2 - 1)
			}
		}
		if op == CholeskySolve { // the factor, as the Go path makes it
			p := c.args(t)
			tinyLane[T](Cholesky, n, p, 0)
		}
	}
	return c
}

func (c *tinyCase[T]) mats() (Mat, Mat) {
	am, bm := c.am, c.bm
	am.P, bm.P = unsafe.Pointer(&c.a[c.aoff]), unsafe.Pointer(&c.b[c.boff])
	return am, bm
}

// args returns the arguments of lane 0 = matrix t.
func (c *tinyCase[T]) args(t int) *tinyArgs {
	size := int(unsafe.Sizeof(T(0)))
	am, bm := c.mats()
	pa, pb := unsafe.Add(am.P, t*am.BS*size), unsafe.Add(bm.P, t*bm.BS*size)
	return &tinyArgs{a: pa, ars: am.RS * size, acs: am.CS * size, aout: pa,
		b: pb, brs: bm.RS * size, bcs: bm.CS * size, bout: pb, nrhs: c.nrhs}
}

func (c *tinyCase[T]) clone() *tinyCase[T] {
	d := *c
	d.a, d.b = append([]T(nil), c.a...), append([]T(nil), c.b...)
	return &d
}

func (c *tinyCase[T]) run(op Op, impl tinyImpl, check *Check) ([]T, []int) {
	am, bm := c.mats()
	det := make([]T, c.count)
	return det, tiny(op, c.n, c.count, am, bm, c.nrhs, det, check, nil, impl, nil)
}

// tinyAsmImpls are the assembly implementations this machine runs: the
// tests run each (the AVX-512 kernels do not hide the AVX2 ones, nor
// one AVX-512 set the other).
func tinyAsmImpls() []tinyImpl {
	var r []tinyImpl
	if Fast {
		r = append(r, tinyAVX2)
	}
	if Wide {
		r = append(r, tinyAVX512, tinyAVX512NoScatter)
	}
	return r
}

// TestTinyImpls checks that tiny runs the implementation asked for: the
// lane count of each one's kernels, and Tiny's choice.
func TestTinyImpls(t *testing.T) {
	for _, impl := range tinyAsmImpls() {
		for n := MinN; n <= MaxN; n++ {
			k, lanes := tinyKernel[float64](Solve, n, impl)
			want := 4
			if impl >= tinyAVX512 && n >= 3 {
				want = 8
			}
			if k == nil || lanes != want {
				t.Errorf("%s: n = %d: kernel %v, %d lanes, want %d", impl, n, k != nil, lanes, want)
			}
			want32 := 8
			if impl >= tinyAVX512 && n >= 3 {
				want32 = 16
			}
			if k, l32 := tinyKernel[float32](Solve, n, impl); k == nil || l32 != want32 {
				t.Errorf("%s: n = %d: float32 kernel %v, %d lanes, want %d", impl, n, k != nil, l32, want32)
			}
		}
	}
	if Wide && tinyBest != tinyWide() || !Wide && Fast && tinyBest != tinyAVX2 {
		t.Errorf("Tiny runs %s (Fast %v, Wide %v)", tinyBest, Fast, Wide)
	}
}

func sameBits[T float32 | float64](x, y T) bool {
	return x == y || (x != x && y != y)
}

// TestTinyAgainstGo runs every kernel against the Go lanes (tinyLane) on
// the same data: float64 bit for bit, float32 within a few ulps (its Go
// fma rounds twice); the same flags; padding untouched.
func TestTinyAgainstGo(t *testing.T) {
	if !Fast {
		t.Skip("no assembly kernels on this machine or build")
	}
	for _, impl := range tinyAsmImpls() {
		t.Run(impl.String(), func(t *testing.T) {
			testTinyAgainstGo[float64](t, impl)
			testTinyAgainstGo[float32](t, impl)
		})
	}
}

func testTinyAgainstGo[T float32 | float64](t *testing.T, impl tinyImpl) {
	rng := rand.New(rand.NewPCG(1, 2))
	tol := 0.0
	if unsafe.Sizeof(T(0)) == 4 {
		tol = 64 * 0x1p-23
	}
	for op := range nTinyOps {
		for n := MinN; n <= MaxN; n++ {
			for _, count := range []int{1, 3, 4, 5, 8, 9, 15, 16, 17, 23, 33, 203} {
				for li := range 4 {
					for _, nrhs := range []int{1, 3} {
						if nrhs > 1 && op != Solve && op != CholeskySolve {
							continue
						}
						name := fmt.Sprintf("%T/%s/n=%d/count=%d/layout=%d/nrhs=%d", T(0), tinyOpNames[op], n, count, li, nrhs)
						c := newTinyCase[T](rng, op, n, count, nrhs, li)
						if count > 2 { // one bad matrix: a NaN or a zero column
							bad := c.clone()
							bad.a[c.aoff+(n-1)*c.am.RS+(n-1)*c.am.CS+(count/2)*c.am.BS] = T(math.NaN())
							compareTiny(t, name+"/nan", op, impl, bad, tol)
						}
						if count > 100 {
							// Bad matrices in the first, a middle, two
							// adjacent and the last groups: a kernel's
							// run of groups stops at each and resumes.
							bad := c.clone()
							for _, m := range []int{0, 37, 38, 49, count - 1} {
								bad.a[c.aoff+(n-1)*c.am.RS+(n-1)*c.am.CS+m*c.am.BS] = T(math.NaN())
							}
							compareTiny(t, name+"/nans", op, impl, bad, tol)
						}
						compareTiny(t, name, op, impl, c, tol)
					}
				}
			}
		}
	}
}

func compareTiny[T float32 | float64](t *testing.T, name string, op Op, impl tinyImpl, c *tinyCase[T], tol float64) {
	t.Helper()
	x, y := c.clone(), c.clone()
	// Every matrix a candidate of the conditioning check (Solve, Inv):
	// the kernels' norms are compared too, alternately one and infinity.
	inf := c.count%2 == 1
	cx, cy := &Check{Inf: inf, Thresh: math.Inf(1)}, &Check{Inf: inf, Thresh: math.Inf(1)}
	dx, fx := x.run(op, impl, cx)
	dy, fy := y.run(op, tinyGo, cy)
	if fmt.Sprint(fx) != fmt.Sprint(fy) {
		t.Errorf("%s: flagged %v (asm), %v (Go)", name, fx, fy)
		return
	}
	close := func(u, v T) bool {
		if sameBits(u, v) {
			return true
		}
		return math.Abs(float64(u-v)) <= tol*math.Max(1, math.Abs(float64(v)))
	}
	for i := range x.a {
		if !close(x.a[i], y.a[i]) {
			t.Errorf("%s: a[%d] = %v (asm), %v (Go)", name, i, x.a[i], y.a[i])
			return
		}
	}
	for i := range x.b {
		if !close(x.b[i], y.b[i]) {
			t.Errorf("%s: b[%d] = %v (asm), %v (Go)", name, i, x.b[i], y.b[i])
			return
		}
	}
	if fmt.Sprint(ills(cx.Ill)) != fmt.Sprint(ills(cy.Ill)) {
		t.Errorf("%s: check candidates %v (asm), %v (Go)", name, ills(cx.Ill), ills(cy.Ill))
		return
	}
	for i, u := range cx.Ill {
		v := cy.Ill[i]
		if !close(T(u.ANorm), T(v.ANorm)) || !close(T(u.Rcond), T(v.Rcond)) {
			t.Errorf("%s: matrix %d: norm %v, rcond %v (asm); %v, %v (Go)", name, u.T, u.ANorm, u.Rcond, v.ANorm, v.Rcond)
			return
		}
	}
	if (op == Solve || op == Inv) && len(cy.Ill) != c.count-len(fy) {
		t.Errorf("%s: %d check candidates, want every one of the %d matrices not flagged", name, len(cy.Ill), c.count-len(fy))
	}
	if op == Det {
		flagged := map[int]bool{}
		for _, f := range fx {
			flagged[f] = true
		}
		for i := range dx {
			if !flagged[i] && !close(dx[i], dy[i]) {
				t.Errorf("%s: det[%d] = %v (asm), %v (Go)", name, i, dx[i], dy[i])
				return
			}
		}
	}
}

func ills(c []Ill) []int {
	var r []int
	for _, x := range c {
		r = append(r, x.T)
	}
	return r
}

// TestTinyCondition checks the kernels' reciprocal condition numbers
// (TinyCheck's Rcond, one and infinity norms) against 1 / (||A|| ||A^-1||)
// from a float64 Gauss-Jordan inverse of each original matrix, and that
// Thresh selects exactly the matrices below it.
func TestTinyCondition(t *testing.T) {
	testTinyCondition[float64](t, 1e-9)
	testTinyCondition[float32](t, 1e-3)
}

func testTinyCondition[T float32 | float64](t *testing.T, tol float64) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, op := range []Op{Solve, Inv} {
		for n := MinN; n <= MaxN; n++ {
			for li := range 4 {
				for _, inf := range []bool{false, true} {
					const count = 11
					c := newTinyCase[T](rng, op, n, count, 1, li)
					want := make([]float64, count)
					for m := range count {
						a := make([]float64, n*n)
						for j := range n {
							for i := range n {
								a[i+j*n] = float64(c.a[c.aoff+i*c.am.RS+j*c.am.CS+m*c.am.BS])
							}
						}
						want[m] = 1 / (norm(a, n, inf) * norm(gaussJordan(a, n), n, inf))
					}
					// Thresholds below every matrix, between each two
					// neighbours and above all: Solve's kernels take
					// the exact norms only for a lane group where their
					// bound leaves a candidate, so every group must meet
					// both paths, and a bound that fell below ||A^-1||
					// would lose the matrices just under a threshold.
					sorted := append([]float64(nil), want...)
					slices.Sort(sorted)
					threshs := []float64{sorted[0] / 2, 2 * sorted[count-1]}
					for k := 1; k < count; k++ {
						threshs = append(threshs, (sorted[k-1]+sorted[k])/2)
					}
					for _, impl := range append(tinyAsmImpls(), tinyGo) {
						for ti, thresh := range threshs {
							name := fmt.Sprintf("%T/%s/n=%d/layout=%d/inf=%v/impl=%s/thresh=%d", T(0), tinyOpNames[op], n, li, inf, impl, ti)
							check := &Check{Inf: inf, Thresh: thresh}
							c.clone().run(op, impl, check)
							var got []int
							for _, x := range check.Ill {
								got = append(got, x.T)
								if math.Abs(x.Rcond-want[x.T]) > tol*want[x.T] {
									t.Errorf("%s: matrix %d: rcond %v, want %v", name, x.T, x.Rcond, want[x.T])
								}
							}
							var exp []int
							for m, w := range want {
								if w < check.Thresh {
									exp = append(exp, m)
								}
							}
							if fmt.Sprint(got) != fmt.Sprint(exp) {
								t.Errorf("%s: candidates %v, want %v", name, got, exp)
							}
						}
					}
				}
			}
		}
	}
}

func norm(a []float64, n int, inf bool) float64 {
	best := 0.0
	for j := range n {
		s := 0.0
		for i := range n {
			if inf {
				s += math.Abs(a[j+i*n])
			} else {
				s += math.Abs(a[i+j*n])
			}
		}
		best = max(best, s)
	}
	return best
}

func gaussJordan(a []float64, n int) []float64 {
	m := append([]float64(nil), a...)
	inv := make([]float64, n*n)
	for i := range n {
		inv[i+i*n] = 1
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r+c*n]) > math.Abs(m[p+c*n]) {
				p = r
			}
		}
		for j := range n {
			m[c+j*n], m[p+j*n] = m[p+j*n], m[c+j*n]
			inv[c+j*n], inv[p+j*n] = inv[p+j*n], inv[c+j*n]
		}
		d := m[c+c*n]
		for j := range n {
			m[c+j*n] /= d
			inv[c+j*n] /= d
		}
		for r := range n {
			if r != c {
				f := m[r+c*n]
				for j := range n {
					m[r+j*n] -= f * m[c+j*n]
					inv[r+j*n] -= f * inv[c+j*n]
				}
			}
		}
	}
	return inv
}

// TestTinyArgsOffsets checks the field offsets gentiny's kernels assume.
func TestTinyArgsOffsets(t *testing.T) {
	var p tinyArgs
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"a", unsafe.Offsetof(p.a), 0}, {"ars", unsafe.Offsetof(p.ars), 8}, {"acs", unsafe.Offsetof(p.acs), 16},
		{"b", unsafe.Offsetof(p.b), 24}, {"brs", unsafe.Offsetof(p.brs), 32}, {"bcs", unsafe.Offsetof(p.bcs), 40},
		{"nrhs", unsafe.Offsetof(p.nrhs), 48}, {"det", unsafe.Offsetof(p.det), 56},
		{"aix", unsafe.Offsetof(p.aix), 64}, {"bix", unsafe.Offsetof(p.bix), 192},
		{"aix4", unsafe.Offsetof(p.aix4), 320}, {"bix4", unsafe.Offsetof(p.bix4), 384}, {"pf", unsafe.Offsetof(p.pf), 448},
		{"cond", unsafe.Offsetof(p.cond), 456}, {"mode", unsafe.Offsetof(p.mode), 464}, {"bseq", unsafe.Offsetof(p.bseq), 472},
		{"thresh", unsafe.Offsetof(p.thresh), 480}, {"inf", unsafe.Offsetof(p.inf), 488},
		{"aout", unsafe.Offsetof(p.aout), 496}, {"bout", unsafe.Offsetof(p.bout), 504}, {"zero", unsafe.Offsetof(p.zero), 512},
		{"groups", unsafe.Offsetof(p.groups), 520}, {"astep", unsafe.Offsetof(p.astep), 528}, {"aostep", unsafe.Offsetof(p.aostep), 536},
		{"bstep", unsafe.Offsetof(p.bstep), 544}, {"bostep", unsafe.Offsetof(p.bostep), 552}, {"dstep", unsafe.Offsetof(p.dstep), 560},
	} {
		if f.got != f.want {
			t.Errorf("tinyArgs.%s at %d, gentiny assumes %d", f.name, f.got, f.want)
		}
	}
}

// TestTinyTo checks TinyTo against Tiny on a copy, on every
// implementation: the inputs unchanged; each matrix's results in the
// outputs bit for bit what Tiny leaves in place (with TinyOut.Zero,
// zeros in the Cholesky factor's strict upper triangle; with a nil A,
// nothing of a's: Solve's factors, Cholesky's, Inv's), written only there; flagged matrices, the padding and what
// the operation does not return left as they were; the same flags,
// determinants and check candidates.
func TestTinyTo(t *testing.T) {
	for _, impl := range append(tinyAsmImpls(), tinyGo) {
		t.Run(impl.String(), func(t *testing.T) {
			testTinyTo[float64](t, impl)
			testTinyTo[float32](t, impl)
		})
	}
}

func testTinyTo[T float32 | float64](t *testing.T, impl tinyImpl) {
	rng := rand.New(rand.NewPCG(5, 6))
	const mark = -12345.5 // the outputs' contents before the call
	for op := range nTinyOps {
		for n := MinN; n <= MaxN; n++ {
			for _, count := range []int{1, 8, 17, 33} {
				for li := range 4 {
					for _, v := range []struct {
						nrhs      int
						noA, zero bool
					}{{nrhs: 1}, {nrhs: 3}, {nrhs: 1, noA: true}, {nrhs: 1, zero: true}} {
						if v.nrhs > 1 && op != Solve && op != CholeskySolve || v.zero && op != Cholesky {
							continue
						}
						name := fmt.Sprintf("%T/%s/n=%d/count=%d/layout=%d/%+v", T(0), tinyOpNames[op], n, count, li, v)
						c := newTinyCase[T](rng, op, n, count, v.nrhs, li)
						if count > 2 {
							c.a[c.aoff+(n-1)*c.am.RS+(n-1)*c.am.CS+(count/2)*c.am.BS] = T(math.NaN())
						}
						ref, in, out := c.clone(), c.clone(), c.clone()
						for i := range out.a {
							out.a[i] = mark
						}
						for i := range out.b {
							out.b[i] = mark
						}
						check := func() *Check {
							if op == Solve || op == Inv {
								return &Check{Thresh: math.Inf(1)}
							}
							return nil
						}
						rdet, rck := make([]T, count), check()
						ram, rbm := ref.mats()
						rf := tiny(op, n, count, ram, rbm, v.nrhs, rdet, rck, nil, impl, nil)
						odet, ock := make([]T, count), check()
						o := Out{A: unsafe.Pointer(&out.a[out.aoff]), B: unsafe.Pointer(&out.b[out.boff]), Zero: v.zero}
						if v.noA {
							o.A = nil
						}
						iam, ibm := in.mats()
						of := tiny(op, n, count, iam, ibm, v.nrhs, odet, ock, nil, impl, &o)
						if fmt.Sprint(of) != fmt.Sprint(rf) {
							t.Errorf("%s: flagged %v, in place %v", name, of, rf)
							continue
						}
						if !slices.EqualFunc(in.a, c.a, sameBits[T]) || !slices.EqualFunc(in.b, c.b, sameBits[T]) {
							t.Errorf("%s: an input changed", name)
						}
						if ock != nil && fmt.Sprint(ills(ock.Ill)) != fmt.Sprint(ills(rck.Ill)) {
							t.Errorf("%s: check candidates %v, in place %v", name, ills(ock.Ill), ills(rck.Ill))
						}
						// What the outputs must hold: the marks, and the
						// in-place results of the matrices not flagged.
						wa, wb := slices.Repeat([]T{mark}, len(out.a)), slices.Repeat([]T{mark}, len(out.b))
						for m := range count {
							if slices.Contains(rf, m) {
								continue
							}
							if op == Det && !sameBits(odet[m], rdet[m]) {
								t.Errorf("%s: det[%d] = %v, in place %v", name, m, odet[m], rdet[m])
							}
							for j := range n {
								for i := range n {
									e := c.aoff + i*c.am.RS + j*c.am.CS + m*c.am.BS
									switch {
									case v.noA: // a's results go nowhere
									case op == Cholesky && i >= j, op == Solve, op == Inv:
										wa[e] = ref.a[e]
									case op == Cholesky && v.zero:
										wa[e] = 0
									}
								}
								for r := range v.nrhs {
									if op == Solve || op == CholeskySolve {
										e := c.boff + j*c.bm.RS + r*c.bm.CS + m*c.bm.BS
										wb[e] = ref.b[e]
									}
								}
							}
						}
						for i := range wa {
							if !sameBits(out.a[i], wa[i]) {
								t.Errorf("%s: a's output [%d] = %v, want %v", name, i, out.a[i], wa[i])
								break
							}
						}
						for i := range wb {
							if !sameBits(out.b[i], wb[i]) {
								t.Errorf("%s: b's output [%d] = %v, want %v", name, i, out.b[i], wb[i])
								break
							}
						}
					}
				}
			}
		}
	}
}

// TestTinyInputNotFinite: on every implementation (the Go lanes too), a
// NaN, +Inf or -Inf at any element an operation reads (a's lower
// triangle for Cholesky and CholeskySolve, all of it otherwise; b's
// elements for the solves) flags that matrix alone, in any layout and
// any lane of a full or a partial group; one in the triangle Cholesky
// does not read flags nothing. This is batch's finite-input rule, which
// the kernels apply instead of a separate scan.
func TestTinyInputNotFinite(t *testing.T) {
	impls := append([]tinyImpl{tinyGo}, tinyAsmImpls()...)
	for _, impl := range impls {
		testTinyInputNotFinite[float64](t, impl)
		testTinyInputNotFinite[float32](t, impl)
	}
}

func testTinyInputNotFinite[T float32 | float64](t *testing.T, impl tinyImpl) {
	rng := rand.New(rand.NewPCG(3, 4))
	const count = 19 // full groups and a partial one, for every lane count
	bads := []T{T(math.NaN()), T(math.Inf(1)), T(math.Inf(-1))}
	for op := range nTinyOps {
		for n := MinN; n <= MaxN; n++ {
			for li := range 4 {
				nrhs := 0
				if op == Solve || op == CholeskySolve {
					nrhs = 2
				}
				c := newTinyCase[T](rng, op, n, count, max(nrhs, 1), li)
				c.nrhs = nrhs
				tri := op == Cholesky || op == CholeskySolve
				for _, m := range []int{0, 5, count - 1} {
					for i := range n {
						for j := range n {
							x := c.clone()
							x.a[c.aoff+i*c.am.RS+j*c.am.CS+m*c.am.BS] = bads[(i+j+m)%3]
							_, fl := x.run(op, impl, nil)
							want := "[]"
							if !tri || i >= j {
								want = fmt.Sprint([]int{m})
							}
							if got := fmt.Sprint(fl); got != want {
								t.Fatalf("%s/%T/%s/n=%d/layout=%d: %v at a(%d, %d) of matrix %d: flagged %s, want %s",
									impl, T(0), tinyOpNames[op], n, li, bads[(i+j+m)%3], i, j, m, got, want)
							}
						}
						for r := range nrhs {
							x := c.clone()
							x.b[c.boff+i*c.bm.RS+r*c.bm.CS+m*c.bm.BS] = bads[(i+r+m)%3]
							if _, fl := x.run(op, impl, nil); fmt.Sprint(fl) != fmt.Sprint([]int{m}) {
								t.Fatalf("%s/%T/%s/n=%d/layout=%d: NaN or Inf at b(%d, %d) of matrix %d: flagged %v, want [%d]",
									impl, T(0), tinyOpNames[op], n, li, i, r, m, fl, m)
							}
						}
					}
				}
			}
		}
	}
}
