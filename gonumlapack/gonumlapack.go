package gonumlapack

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"

	"github.com/lapis-go/lapis/gonumblas"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Implementation implements gonum's lapack.Float64 on the linked LAPACK;
// see the package documentation.
type Implementation struct {
	// DivideAndConquer makes Dgesvd run LAPACK's ?gesdd (divide and
	// conquer, 3-5x faster for n = 500) instead of ?gesvd (bidiagonal QR
	// iteration), the algorithm of gonum's own Dgesvd and of gonum/netlib
	// and so the default: a drop-in gives what the interface's own
	// algorithm gives. With it the singular values agree to rounding but
	// some singular vector pairs come out negated (valid, but not what
	// programs whose tests pin gonum's vectors expect: gonum's stat
	// TestPrincipalComponents fails). Set it where only the subspaces
	// matter:
	//
	//	lapack64.Use(gonumlapack.Implementation{DivideAndConquer: true})
	DivideAndConquer bool
}

var _ lapack.Float64 = Implementation{}

// blasImpl is the BLAS of the solves.
var blasImpl gonumblas.Implementation

// fits panics, with lapis's message (gonum has none: its integers are
// Go ints), if a value does not fit LAPACK's integer.
func fits(vals ...int) {
	if err := operand.LAPACKInts("gonumlapack.Implementation", "argument", vals...); err != nil {
		panic(err.Error())
	}
}

// rowView returns gonum's row-major m x n matrix a (leading dimension lda,
// m and n > 0) as a view.
func rowView(m, n int, a []float64, lda int) views.View[float64] {
	l, err := layout.New([]int{m, n}, []int{lda, 1}, 0)
	if err != nil {
		panic(err.Error()) // unreachable: gonum's checks passed
	}
	v, err := views.FromSlice(a, l)
	if err != nil {
		panic(err.Error()) // unreachable: gonum's length checks passed
	}
	return v
}

// colCopy is a compact column-major copy of a row-major matrix (counted in
// Stats.Copies). The zero value is no copy: a nil pointer, ld 1.
type colCopy struct {
	buf *pool.Buf[float64]
	v   views.View[float64]
	ld  int
}

// colMajor copies gonum's row-major m x n matrix a into a pooled
// column-major buffer (only allocates it when load is false: an output).
func colMajor(m, n int, a []float64, lda int, load bool) colCopy {
	c := colCopy{ld: max(1, m), buf: pool.Get[float64](max(1, m) * n)}
	policy.Copies.Add(1)
	if m == 0 || n == 0 {
		return c
	}
	l, _ := layout.New([]int{m, n}, []int{1, c.ld}, 0) // fits: the buffer was allocated
	c.v, _ = views.FromSlice(c.buf.Data, l)
	if load {
		_ = views.Copy(c.v, rowView(m, n, a, lda)) // same shape, fresh memory
	}
	return c
}

// store copies the column-major copy back to gonum's row-major a.
func (c *colCopy) store(m, n int, a []float64, lda int) {
	if c.buf != nil && m > 0 && n > 0 {
		_ = views.Copy(rowView(m, n, a, lda), c.v)
	}
}

func (c *colCopy) ptr() unsafe.Pointer {
	if c.buf == nil {
		return nil
	}
	return clib.Ptr(c.buf.Data)
}

func (c *colCopy) ldOr1() int { return max(1, c.ld) }

func (c *colCopy) put() {
	pool.Put(c.buf)
	c.buf = nil
}

// workBuf is the workspace of a LAPACK call: the caller's work when lwork
// reaches need, a pooled buffer of need elements otherwise.
type workBuf struct {
	buf *pool.Buf[float64]
	ptr unsafe.Pointer
	n   int
}

func workspace(work []float64, lwork, need int) workBuf {
	need = max(1, need)
	if lwork >= need {
		return workBuf{ptr: clib.Ptr(work), n: lwork}
	}
	b := pool.Get[float64](need)
	return workBuf{buf: b, ptr: clib.Ptr(b.Data), n: need}
}

func (w workBuf) put() { pool.Put(w.buf) }

// intsOf returns LAPACK integers holding k[i]+add.
func intsOf(k []int, add int) wspace.Ints {
	b := wspace.GetInts(len(k))
	for i, v := range k {
		b.Set(i, v+add)
	}
	return b
}

// storeInts writes b[i]+add into k.
func storeInts(b wspace.Ints, k []int, add int) {
	for i := range k {
		k[i] = b.Get(i) + add
	}
}

// Options of the stored transpose.

func uploT(u blas.Uplo) byte {
	if u == blas.Upper {
		return 'L'
	}
	return 'U'
}

func diagChar(d blas.Diag) byte {
	if d == blas.Unit {
		return 'U'
	}
	return 'N'
}

func sideT(s blas.Side) byte {
	if s == blas.Left {
		return 'R'
	}
	return 'L'
}

func transChar(t blas.Transpose) byte {
	if t == blas.NoTrans {
		return 'N'
	}
	return 'T'
}

// normT is the norm of S = A^T equal to norm of A.
func normT(n lapack.MatrixNorm) byte {
	switch n {
	case lapack.MaxColumnSum:
		return 'I'
	case lapack.MaxRowSum:
		return 'O'
	}
	return byte(n)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// query runs a workspace query of a real routine and returns its work size.
func query(call func(work, iwork unsafe.Pointer)) int {
	return wspace.Query[float64](func(work, _, iwork unsafe.Pointer) { call(work, iwork) }).Work
}
