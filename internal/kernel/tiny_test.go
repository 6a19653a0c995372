package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
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

func newTinyCase[T float32 | float64](rng *rand.Rand, op TinyOp, n, count, nrhs, li int) *tinyCase[T] {
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
				if op == TinyCholesky || op == TinyCholeskySolve {
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
		if op == TinyCholeskySolve { // the factor, as the Go path makes it
			p := c.args(t)
			tinyLane[T](TinyCholesky, n, p, 0)
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
	return &tinyArgs{a: unsafe.Add(am.P, t*am.BS*size), ars: am.RS * size, acs: am.CS * size,
		b: unsafe.Add(bm.P, t*bm.BS*size), brs: bm.RS * size, bcs: bm.CS * size, nrhs: c.nrhs}
}

func (c *tinyCase[T]) clone() *tinyCase[T] {
	d := *c
	d.a, d.b = append([]T(nil), c.a...), append([]T(nil), c.b...)
	return &d
}

func (c *tinyCase[T]) run(op TinyOp, asm bool) ([]T, []int) {
	am, bm := c.mats()
	det := make([]T, c.count)
	return det, tiny(op, c.n, c.count, am, bm, c.nrhs, det, nil, asm)
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
	testTinyAgainstGo[float64](t)
	testTinyAgainstGo[float32](t)
}

func testTinyAgainstGo[T float32 | float64](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tol := 0.0
	if unsafe.Sizeof(T(0)) == 4 {
		tol = 64 * 0x1p-23
	}
	for op := range nTinyOps {
		for n := MinTiny; n <= MaxTiny; n++ {
			for _, count := range []int{1, 3, 4, 5, 8, 9, 17} {
				for li := range 4 {
					for _, nrhs := range []int{1, 3} {
						if nrhs > 1 && op != TinySolve && op != TinyCholeskySolve {
							continue
						}
						name := fmt.Sprintf("%T/%s/n=%d/count=%d/layout=%d/nrhs=%d", T(0), tinyOpNames[op], n, count, li, nrhs)
						c := newTinyCase[T](rng, op, n, count, nrhs, li)
						if count > 2 { // one bad matrix: a NaN or a zero column
							bad := c.clone()
							bad.a[c.aoff+(n-1)*c.am.RS+(n-1)*c.am.CS+(count/2)*c.am.BS] = T(math.NaN())
							compareTiny(t, name+"/nan", op, bad, tol)
						}
						compareTiny(t, name, op, c, tol)
					}
				}
			}
		}
	}
}

func compareTiny[T float32 | float64](t *testing.T, name string, op TinyOp, c *tinyCase[T], tol float64) {
	t.Helper()
	x, y := c.clone(), c.clone()
	dx, fx := x.run(op, true)
	dy, fy := y.run(op, false)
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
	if op == TinyDet {
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
		{"aix", unsafe.Offsetof(p.aix), 64}, {"bix", unsafe.Offsetof(p.bix), 128},
		{"aix4", unsafe.Offsetof(p.aix4), 192}, {"bix4", unsafe.Offsetof(p.bix4), 224}, {"pf", unsafe.Offsetof(p.pf), 256},
	} {
		if f.got != f.want {
			t.Errorf("tinyArgs.%s at %d, gentiny assumes %d", f.name, f.got, f.want)
		}
	}
}
