package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// refDgemm is the test oracle: the plain triple loop of Dgemm's definition.
func refDgemm(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int) {
	at := func(i, p int) float64 {
		if transA {
			return a[p+i*lda]
		}
		return a[i+p*lda]
	}
	bt := func(p, j int) float64 {
		if transB {
			return b[j+p*ldb]
		}
		return b[p+j*ldb]
	}
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			var s float64
			if alpha != 0 {
				for p := 0; p < k; p++ {
					s += at(i, p) * bt(p, j)
				}
			}
			if beta == 0 {
				c[i+j*ldc] = alpha * s
			} else {
				c[i+j*ldc] = alpha*s + beta*c[i+j*ldc]
			}
		}
	}
}

// impl is one implementation of Dgemm's computation for m, n, k >= 1 and
// alpha != 0.
type impl struct {
	name string
	f    func(m, n, k int, alpha float64, a []float64, lda int, transA bool, b []float64, ldb int, transB bool, beta float64, c []float64, ldc int)
}

func impls() []impl {
	out := []impl{{"go", dgemmGo}, {"Dgemm", Dgemm}}
	if Fast {
		out = append(out, impl{"asm", dgemmAsm})
	}
	return out
}

// matrix is a rows x cols column-major matrix stored with leading
// dimension ld in a buffer whose padding (rows rows..ld-1, and a few
// elements past the end) holds NaN that no call may change.
type matrix struct {
	rows, cols, ld int
	buf            []float64
}

const tail = 5 // NaN elements after the last column

func newMatrix(rng *rand.Rand, rows, cols, pad int, fill float64) matrix {
	ld := max(1, rows) + pad
	x := matrix{rows, cols, ld, make([]float64, ld*max(0, cols-1)+rows+tail)}
	for i := range x.buf {
		x.buf[i] = math.NaN()
	}
	for j := 0; j < cols; j++ {
		for i := 0; i < rows; i++ {
			x.buf[i+j*ld] = fill
			if fill == 0 {
				x.buf[i+j*ld] = 2*rng.Float64() - 1
			}
		}
	}
	return x
}

func (x matrix) inside(e int) bool {
	return e%x.ld < x.rows && e/x.ld < x.cols
}

func (x matrix) checkPadding(t *testing.T, name string) {
	t.Helper()
	for e, v := range x.buf {
		if !x.inside(e) && !math.IsNaN(v) {
			t.Fatalf("%s: padding element %d of %s = %v, want NaN", name, e, "matrix", v)
		}
	}
}

// check runs f on one case and compares it with refDgemm. With beta 0, c
// starts as NaN; with alpha 0, a and b are NaN (neither may be read).
func check(t *testing.T, rng *rand.Rand, f impl, m, n, k int, transA, transB bool, alpha, beta float64, pad int) {
	t.Helper()
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	fillAB, fillC := 0.0, 0.0
	if alpha == 0 {
		fillAB = math.NaN()
	}
	if beta == 0 {
		fillC = math.NaN()
	}
	a := newMatrix(rng, ar, ac, rng.IntN(pad+1), fillAB)
	b := newMatrix(rng, br, bc, rng.IntN(pad+1), fillAB)
	c := newMatrix(rng, m, n, rng.IntN(pad+1), fillC)
	want := append([]float64(nil), c.buf...)
	refDgemm(m, n, k, alpha, a.buf, a.ld, transA, b.buf, b.ld, transB, beta, want, c.ld)
	f.f(m, n, k, alpha, a.buf, a.ld, transA, b.buf, b.ld, transB, beta, c.buf, c.ld)
	name := fmt.Sprintf("%s m=%d n=%d k=%d transA=%v transB=%v alpha=%v beta=%v lda=%d ldb=%d ldc=%d", f.name, m, n, k, transA, transB, alpha, beta, a.ld, b.ld, c.ld)
	// Entries of a, b, c lie in [-1, 1]: |alpha a b + beta c| <= |alpha| k + |beta|.
	tol := 4 * float64(k+2) * 0x1p-52 * (math.Abs(alpha)*float64(k) + math.Abs(beta) + 1)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			g, w := c.buf[i+j*c.ld], want[i+j*c.ld]
			if math.IsNaN(g) || math.Abs(g-w) > tol {
				t.Fatalf("%s: c[%d, %d] = %v, want %v", name, i, j, g, w)
			}
		}
	}
	a.checkPadding(t, name+" a")
	b.checkPadding(t, name+" b")
	c.checkPadding(t, name+" c")
}

var trans = []bool{false, true}

// TestDgemmSizes: every m, n, k in 1..20, all transposes, ld > rows.
func TestDgemmSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	top := 20
	if testing.Short() {
		top = 10
	}
	for _, f := range impls() {
		for m := 1; m <= top; m++ {
			for n := 1; n <= top; n++ {
				for k := 1; k <= top; k++ {
					for _, ta := range trans {
						for _, tb := range trans {
							check(t, rng, f, m, n, k, ta, tb, 2*rng.Float64()-1, 2*rng.Float64()-1, 3)
						}
					}
				}
			}
		}
	}
}

// TestDgemmScalars: alpha and beta 0, 1, -1 and others, including beta = 0
// over NaN in c and -0.
func TestDgemmScalars(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	scalars := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.25}
	for _, f := range impls() {
		for _, alpha := range scalars {
			if alpha == 0 && f.name != "Dgemm" {
				continue // only Dgemm takes alpha = 0
			}
			for _, beta := range scalars {
				for _, s := range [][3]int{{1, 1, 1}, {3, 5, 2}, {8, 4, 7}, {9, 5, 3}, {13, 6, 16}, {16, 16, 16}} {
					for _, ta := range trans {
						for _, tb := range trans {
							check(t, rng, f, s[0], s[1], s[2], ta, tb, alpha, beta, 2)
						}
					}
				}
			}
		}
	}
}

// TestDgemmShapes: mixed and larger shapes, including a transposed a bigger
// than the packing buffer (m*k > packLen, m > packLen).
func TestDgemmShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	shapes := [][3]int{{1, 40, 1}, {40, 1, 40}, {33, 17, 65}, {64, 64, 64}, {7, 3, 300}, {40, 40, 40}, {300, 2, 3}, {2, 300, 3}}
	for _, f := range impls() {
		for _, s := range shapes {
			for _, ta := range trans {
				for _, tb := range trans {
					check(t, rng, f, s[0], s[1], s[2], ta, tb, 2*rng.Float64()-1, 2*rng.Float64()-1, 9)
				}
			}
		}
	}
}

// TestDgemmEmpty: zero sizes write nothing outside c and, with k = 0,
// scale c by beta.
func TestDgemmEmpty(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	f := impl{"Dgemm", Dgemm}
	for _, s := range [][3]int{{0, 0, 0}, {0, 3, 2}, {3, 0, 2}, {3, 4, 0}, {9, 5, 0}} {
		for _, beta := range []float64{0, 1, -0.5} {
			check(t, rng, f, s[0], s[1], s[2], false, true, 1.5, beta, 2)
		}
	}
}

func TestDgemmPanics(t *testing.T) {
	x := make([]float64, 16)
	cases := map[string]func(){
		"negative": func() { Dgemm(-1, 2, 2, 1, x, 2, false, x, 2, false, 0, x, 2) },
		"lda":      func() { Dgemm(3, 2, 2, 1, x, 2, false, x, 2, false, 0, x[8:], 3) },
		"lda trans": func() {
			Dgemm(3, 2, 4, 1, x, 3, true, x, 4, false, 0, x, 3)
		},
		"short b": func() { Dgemm(2, 3, 4, 1, x, 2, false, x[:10], 4, false, 0, x, 2) },
		"short c": func() { Dgemm(4, 4, 1, 1, x, 4, false, x, 1, false, 0, x[:15], 4) },
	}
	for name, f := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestDgemmNoAllocs(t *testing.T) {
	a, b, c := make([]float64, 256), make([]float64, 256), make([]float64, 256)
	for _, ta := range trans {
		if n := testing.AllocsPerRun(20, func() { Dgemm(16, 16, 16, 1, a, 16, ta, b, 16, false, 0.5, c, 16) }); n != 0 {
			t.Errorf("transA=%v: %v allocations per call", ta, n)
		}
	}
}

// BenchmarkDgemm: op=dgemm, the kernels alone on compact column-major
// n x n x n products (c = a b + 0.5 c).
func BenchmarkDgemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{2, 4, 8, 12, 16, 24, 32, 48, 64} {
		x := newMatrix(rng, n, n, 0, 0)
		y := newMatrix(rng, n, n, 0, 0)
		z := newMatrix(rng, n, n, 0, 0)
		for _, f := range impls() {
			if f.name == "Dgemm" {
				continue
			}
			for _, ta := range trans {
				b.Run(fmt.Sprintf("op=dgemm/n=%d/transA=%v/impl=%s", n, ta, f.name), func(b *testing.B) {
					for b.Loop() {
						f.f(n, n, n, 1, x.buf, n, ta, y.buf, n, false, 0.5, z.buf, n)
					}
					b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}

// TestDgemmStrided: a strided run of products equals Dgemm on each
// matrix, with positive, negative and zero (repeated) strides, both
// transposes of a, and beta 0 over NaN.
func TestDgemmStrided(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, sz := range [][3]int{{4, 4, 4}, {3, 5, 2}, {9, 2, 7}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, ta := range []bool{false, true} {
			for _, strides := range [][3]int{{m * k, k * n, m * n}, {-m * k, 0, -m * n}, {0, k * n, m * n}} {
				const count = 5
				lda, ldb, ldc := max(m, k)+1, max(k, n)+1, m+2
				size := func(ld, cols int) int { return ld*cols + 2*count*max(m, k)*max(k, n) }
				a, b := randSlice(rng, size(lda, max(m, k))), randSlice(rng, size(ldb, max(k, n)))
				c := make([]float64, size(ldc, n))
				for i := range c {
					c[i] = math.NaN()
				}
				want := slices.Clone(c)
				base := func(s int) int { return max(0, -s*(count-1)) }
				oa, ob, oc := base(strides[0]), base(strides[1]), base(strides[2])
				for tt := range count {
					Dgemm(m, n, k, 1.5, a[oa+tt*strides[0]:], lda, ta, b[ob+tt*strides[1]:], ldb, false, 0, want[oc+tt*strides[2]:], ldc)
				}
				if strides[2] == 0 {
					continue // c repeated: the last product wins either way
				}
				DgemmStrided(count, m, n, k, 1.5, unsafe.Pointer(&a[oa]), lda, strides[0], ta, unsafe.Pointer(&b[ob]), ldb, strides[1], false,
					0, unsafe.Pointer(&c[oc]), ldc, strides[2])
				if !slices.EqualFunc(c, want, func(x, y float64) bool { return x == y || x != x && y != y }) {
					t.Fatalf("%dx%dx%d transA=%v strides %v: differs from Dgemm per matrix", m, n, k, ta, strides)
				}
			}
		}
	}
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.NormFloat64()
	}
	return s
}
