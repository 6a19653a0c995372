package lapack

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// How each argument reaches LAPACK: the matrices (arg, read by prepare
// from the description operand.Matrix that cblas uses too), the working
// copies of the helpers, the workspaces and the pivot vectors.
//
// The one dispatch rule, as in cblas: a view whose layout.Matrix() is
// column-major and unconjugated goes to LAPACK in place with its leading
// dimension; a row-major view goes in place as the transposed (or, when
// conjugated, conjugate-transposed) stored matrix to routines that take a
// transpose argument for it; anything else is copied through the views
// copy engine into a pooled compact buffer (and copied back if LAPACK
// writes it), counted in lapis.Stats.Copies, and refused in strict mode.

// IntBits is the width of the LAPACK integer lapis was compiled for.
const IntBits = clib.LAPACKIntBits

// Operand modes.
const (
	read  = 1 << iota // LAPACK reads it: a copy is loaded first
	write             // LAPACK writes it: a copy is written back
	// LAPACK takes op(A) for it: a row-major view goes in place with
	// trans 'T' or 'C'.
	transposable
	// A right-hand side: a rank-1 view is taken as an n x 1 matrix.
	rhs
	// An operand of a routine whose complex form reads past it (hasSpare).
	overRead
	// With overRead: the routine reduces it to tridiagonal form (?sytrd,
	// through ?symv), which reads past it in real types too on some
	// kernel sets (overReads).
	tridiagonal
	// A Hermitian (real: symmetric) matrix read and written through one
	// triangle (potrf, potri, pocon): a row-major view goes in place as its
	// storage with the triangle swapped (uploChar), which holds the same
	// matrix or its conjugate, and the factor or inverse written there reads
	// back correctly through the view (docs/lapack.md, "Layouts").
	hermitian
	// As hermitian, for routines that also solve with the factor (potrs,
	// posv): there the storage of an unconjugated complex row-major view
	// would solve with conj(a), so only real and conjugated views qualify.
	hermitianSolve
)

// arg is a matrix argument as LAPACK takes it: the stored column-major
// rows x cols matrix at ptr with leading dimension ld, read as op(stored)
// with trans 'N', 'T' or 'C'; or a compact copy of the view (buf, tv) that
// finish writes back to dst. span is what it reaches of the caller's
// memory, for the overlap checks.
type arg[T Scalar] struct {
	ptr        unsafe.Pointer
	rows, cols int // the stored matrix
	ld         int
	trans      byte
	span       operand.Span
	buf        *pool.Buf[T]  // a copy's memory (scratch)
	tv         views.View[T] // the copy in buf
	dst        views.View[T]
	mode       int
}

// prepare reads the rank-2 view v (argument name of op) as a LAPACK
// operand; a right-hand side (mode rhs) may also be a rank-1 view, taken
// as one column. A view of a released tensor is an error matching
// lapis.ErrReleased (views.View.CheckLive), as in every other place a
// view enters the package: storageCopy, workCopy and asMatrix for the
// helpers.
func prepare[T Scalar](op, name string, v views.View[T], mode int, cfg lapis.Config) (o arg[T], err error) {
	if err := v.CheckLive(op, name); err != nil {
		return o, err
	}
	if v.Rank() == 1 && mode&rhs != 0 {
		v, _ = v.Reshape(v.Layout().Dim(0), 1) // a rank-1 view always reshapes
	}
	if v.Rank() != 2 {
		want := "2"
		if mode&rhs != 0 {
			want = "1 or 2"
		}
		return o, rankErr(op, name, v, want)
	}
	var d operand.Matrix[T]
	d.Read(&v) // v is live and of rank 2
	o.span = d.Span
	ok, conj := d.BLAS, d.Conj
	if ok {
		o.ptr = d.Ptr
	}
	switch {
	case ok && conj && d.Rows*d.Cols == 0:
		conj = false // nothing to conjugate
	case ok && conj && d.Rows == 1 && d.Cols == 1:
		// A 1 x 1 matrix is its own transpose: conj(a) = a^H, which goes
		// in place as 'C' wherever LAPACK takes a transpose (as for n x n).
		d.Trans = true
	}
	o.mode = mode
	// A matrix LAPACK could take in place but without room after it for
	// the library's over-read is copied (not refused in strict mode: its
	// layout is fine).
	spare := ok && mode&overRead != 0 && !hasSpare(v, d.LD, mode)
	switch {
	case !spare && ok && !d.Trans && !conj:
		o.rows, o.cols, o.ld, o.trans = d.Rows, d.Cols, d.LD, 'N'
	case !spare && ok && d.Trans && (mode&(transposable|hermitian) != 0 ||
		mode&hermitianSolve != 0 && (conj || !views.IsComplex[T]())):
		o.rows, o.cols, o.ld, o.trans = d.Cols, d.Rows, d.LD, 'T'
		if conj {
			o.trans = 'C'
		}
	default:
		l := v.Layout()
		if mode&write != 0 && l.HasOverlap() {
			return o, layout.Errorf(layout.ErrOverlap, op, name, "%s has indices sharing an element; LAPACK cannot write it", l.String())
		}
		if cfg.Strict && !spare {
			return o, layout.Errorf(lapis.ErrCopyRefused, op, name, "%s (class %v%s) needs a copy and strict mode is on", l.String(), l.Class(), conjNote(conj))
		}
		rows, cols := l.Dim(0), l.Dim(1)
		if err := operand.LAPACKInts(op, name, rows, cols, max(1, rows)); err != nil {
			return o, err // before the copy, not after it
		}
		spareCols := 0
		if mode&overRead != 0 && overReads[T](mode) {
			spareCols = 1 // room for the library's over-read (hasSpare)
		}
		if err := o.scratch(op, name, v, rows*spareCols, mode&read != 0); err != nil {
			return o, err
		}
		o.rows, o.cols, o.ld, o.trans = rows, cols, max(1, rows), 'N'
		if rows > 0 && cols > 0 {
			o.ptr = unsafe.Pointer(&o.buf.Data[0])
		}
	}
	if err := operand.LAPACKInts(op, name, o.rows, o.cols, o.ld); err != nil {
		o.release()
		return o, err
	}
	return o, nil
}

func conjNote(conj bool) string {
	if conj {
		return ", conjugated"
	}
	return ""
}

// finish writes a copy back to the caller's view (write mode) and
// releases it. Call it only after LAPACK succeeded or failed in a way that
// leaves a documented result; release drops a copy without writing it.
func (o *arg[T]) finish() {
	if o.buf != nil && o.mode&write != 0 {
		// Cannot fail: same shape, and the destination was checked for
		// self-overlap.
		_ = views.Copy(o.dst, o.tv)
	}
	o.release()
}

// hasSpare reports whether the library may read past the matrix v (leading
// dimension ld) as it stands. OpenBLAS 0.3.21's complex level-2 kernels
// read one increment step beyond the vectors they are given (see
// cblas.Gemv), and its LAPACK hands them rows and columns of its
// operands: clarf through cgemv_n in c/zgelqf, c/zgesvd and c/zgesdd,
// clauu2 through cdotc in c/zpotri (found by guard_test.go), and the
// Hermitian reductions and reflector updates of heevd, heevr, geev and
// unmqr do the same kinds of calls. The step is at most ld elements past
// the matrix's last element, so a complex operand of those routines
// (mode overRead) goes in place only when that much of its slice's
// capacity follows it; otherwise it is copied into a buffer with a spare column
// (counted in Stats.Copies, not refused in strict mode). Real operands
// qualify, except those of the tridiagonal reductions on the kernel sets
// that over-read real symv (overReads). For an owned tensor of a batch,
// the matrices after it
// are that room; for a pooled buffer, usually its capacity.
func hasSpare[T Scalar](v views.View[T], ld, mode int) bool {
	if !overReads[T](mode) {
		return true
	}
	_, hi, ok := v.Layout().Span()
	return !ok || cap(v.Data())-(hi+1) >= ld
}

// overReads reports whether the library's kernels may read past an
// operand of T in mode: complex ones always, real ones of the tridiagonal
// reductions on the kernel sets whose ssymv and dsymv do
// (coreset.RealSymvOverRead: ssyevd and ssyevr read one element past
// their matrix through them).
func overReads[T Scalar](mode int) bool {
	return views.IsComplex[T]() || mode&tridiagonal != 0 && blasgo.RealSymvOverRead
}

func (o *arg[T]) release() {
	if o.buf != nil {
		pool.Put(o.buf)
		o.buf = nil
	}
}

// scratch makes o a compact column-major copy of v (its elements loaded
// when load, zeros otherwise) in a pooled buffer with spare elements after
// it, counted as a copy; finish writes it back to v.
func (o *arg[T]) scratch(op, name string, v views.View[T], spare int, load bool) error {
	l := v.Layout().Compact()
	size := l.Len() + spare
	if size < l.Len() || !pool.CanHold[T](size) {
		return layout.Errorf(layout.ErrOverflow, op, name, "a copy of %s with %d spare elements is too large", v.Layout().String(), spare)
	}
	o.buf = pool.Get[T](size)
	o.tv, _ = views.FromSlice(o.buf.Data, l) // l reaches the first Len() elements
	if load {
		_ = views.Copy(o.tv, v) // same shape, fresh memory
	} else {
		clear(o.buf.Data)
	}
	policy.Copies.Add(1)
	o.dst = v
	return nil
}

// viewShape returns the shape of the view o was read from (rows, cols of
// op(stored)).
func (o *arg[T]) viewShape() (rows, cols int) {
	if o.trans == 'N' {
		return o.rows, o.cols
	}
	return o.cols, o.rows
}

// noOverlap checks that no two of the operands share memory (errors name
// the later one).
func noOverlap[T Scalar](op string, names []string, ops ...*arg[T]) error {
	for i := range ops {
		for j := range i {
			if ops[i].span.Overlaps(ops[j].span) {
				return layout.Errorf(layout.ErrOverlap, op, names[i], "shares memory with %s", names[j])
			}
		}
	}
	return nil
}

// sliceApart checks that the vector argument s shares no memory with the
// operands (the check is conservative, by address ranges, as for
// operands).
func sliceApart[T Scalar, E any](op, name string, s []E, ops ...*arg[T]) error {
	sv := operand.SliceSpan(s)
	for _, o := range ops {
		if sv.Overlaps(o.span) {
			return layout.Errorf(layout.ErrOverlap, op, name, "shares memory with a matrix argument")
		}
	}
	return nil
}

// sliceLen checks that a vector argument has at least n elements.
func sliceLen(op, name string, have, n int) error {
	if have < n {
		return layout.Errorf(layout.ErrShape, op, name, "length %d, want at least %d", have, n)
	}
	return nil
}

// rankErr is the error for an argument of the wrong rank (want: "2", "1
// or 2"); a batch of matrices is sent to package batch, to the function
// of op's name there when batch has one (inBatch).
func rankErr[T Scalar](op, name string, v views.View[T], want string) error {
	if v.IsZero() {
		return errop.ZeroView(op, name)
	}
	hint := ""
	if v.Rank() > 2 {
		hint = "; for a batch of matrices use package batch"
		if f := strings.TrimPrefix(op, "lapack."); slices.Contains(inBatch, f) {
			hint += " (batch." + f + ")"
		}
	}
	return layout.Errorf(layout.ErrShape, op, name, "rank %d, want %s (%s)%s", v.Rank(), want, v.Layout().String(), hint)
}

// inBatch lists the functions of this package that package batch has
// too, for batches [rows, cols, B...] (hints_test.go calls each hint).
var inBatch = []string{"Solve", "Inv", "Cholesky", "CholeskySolve", "LeastSquares", "Det", "LogDet",
	"Gesv", "Getrf", "Potrf", "Potrs", "Geqrf", "Gels", "Gesdd", "Syevd"}

// uploChar is LAPACK's uplo for the triangle u of the view o was read
// from: a view that went in transposed has its triangles swapped.
func uploChar[T Scalar](u cblas.Uplo, o *arg[T]) byte {
	if (u == cblas.Lower) == (o.trans == 'N') {
		return 'L'
	}
	return 'U'
}

func diagChar(d cblas.Diag) byte {
	if d == cblas.Unit {
		return 'U'
	}
	return 'N'
}

func checkUplo(op string, u cblas.Uplo) error {
	if u != cblas.Upper && u != cblas.Lower {
		return layout.Errorf(lapis.ErrInvalid, op, "uplo", "value %d is neither cblas.Upper nor cblas.Lower", u)
	}
	return nil
}

// square checks that the view o was read from is n x n and returns n.
func square[T Scalar](op, name string, o *arg[T]) (int, error) {
	r, c := o.viewShape()
	if r != c {
		return 0, layout.Errorf(layout.ErrShape, op, name, "shape [%d %d], want a square matrix", r, c)
	}
	return r, nil
}

// rowsMatch checks that the view o was read from has n rows.
func rowsMatch[T Scalar](op, name string, o *arg[T], n int, of string) error {
	if r, _ := o.viewShape(); r != n {
		return layout.Errorf(layout.ErrShape, op, name, "%d rows, want %d (%s)", r, n, of)
	}
	return nil
}

// releaseAll drops every operand's copy without writing it back (the
// error path before LAPACK ran).
func releaseAll[T Scalar](ops ...*arg[T]) {
	for _, o := range ops {
		o.release()
	}
}

// finishAll writes back and releases every operand.
func finishAll[T Scalar](ops ...*arg[T]) {
	for _, o := range ops {
		o.finish()
	}
}

// The working copies of the helpers users reach for first (Solve, Inv,
// Det, LU and Cholesky in solve.go, QR and LeastSquares in qr.go, SVD in
// svd.go, EigSym and Eig in eig.go). They never modify their arguments:
// each works on one compact copy of its input (its working copy, not
// counted in lapis.Stats.Copies: the call would need it whatever the
// layout) and returns new tensors, compact column-major, whose buffers
// come from the pool (Release them to reuse). Where a LAPACK routine takes
// a transpose argument (Solve, Det), the working copy of a row-major input
// is a plain copy of its storage, solved with "T": no transposing copy.

// storageCopy returns a compact copy of the square matrix a's storage and
// how LAPACK must read it to mean a: "N" for a column-major view (or any
// view that is not row-major), "T" for a row-major one (the copy is a^T),
// "C" for a conjugated row-major one (the copy is a^H).
func storageCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], Op, int, error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, NoTrans, 0, err
	}
	if a.Rank() != 2 {
		return nil, NoTrans, 0, rankErr(op, "a", a, "2")
	}
	n := a.Layout().Dim(0)
	if a.Layout().Dim(1) != n {
		return nil, NoTrans, 0, layout.Errorf(layout.ErrShape, op, "a", "shape %v, want a square matrix", a.Shape())
	}
	if err := copyFits[T](op, "a", n, n); err != nil {
		return nil, NoTrans, 0, err
	}
	if m, ok := a.Layout().Matrix(); ok && m.Trans {
		s := a.T()
		trans := Trans
		if a.IsConj() {
			s, trans = s.Conj(), ConjTrans
		}
		return s.ToColMajor(), trans, n, nil
	}
	return a.ToColMajor(), NoTrans, n, nil
}

// squareCopy is workCopy for a square a: it checks the shape first and
// returns the copy and the order.
func squareCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], int, error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, 0, err
	}
	if a.Rank() == 2 && a.Layout().Dim(0) != a.Layout().Dim(1) {
		return nil, 0, layout.Errorf(layout.ErrShape, op, "a", "shape %v, want a square matrix", a.Shape())
	}
	t, err := workCopy(op, a)
	if err != nil {
		return nil, 0, err
	}
	return t, a.Layout().Dim(0), nil
}

// workCopy returns a compact column-major copy of the rank-2 view a.
func workCopy[T Scalar](op string, a views.View[T]) (*views.Tensor[T], error) {
	if err := a.CheckLive(op, "a"); err != nil {
		return nil, err
	}
	if a.Rank() != 2 {
		return nil, rankErr(op, "a", a, "2")
	}
	rows, cols := a.Layout().Dim(0), a.Layout().Dim(1)
	if err := copyFits[T](op, "a", rows, cols+1); err != nil {
		return nil, err
	}
	t := spareZeros[T](rows, cols)
	_ = views.Copy(t.View(), a) // same shape, fresh memory
	return t, nil
}

// spareZeros returns a zero rows x cols column-major tensor whose slice
// has one column of capacity after it: room for the over-read of
// OpenBLAS's complex LAPACK (hasSpare), so that the helpers' own buffers
// go to LAPACK in place, with no copy their design does not need.
func spareZeros[T Scalar](rows, cols int) *views.Tensor[T] {
	buf := pool.Make[T](rows*cols, rows*(cols+1))
	t, _ := views.FromColMajor(buf, rows, cols) // the length is the product
	return t
}

// copyFits checks, before a working copy of a rows x cols matrix is made,
// that its extents fit the LAPACK integer and its buffer can be allocated.
func copyFits[T Scalar](op, name string, rows, cols int) error {
	if err := operand.LAPACKInts(op, name, rows, cols); err != nil {
		return err
	}
	return pool.Check[T](op, name, rows, cols)
}

// asMatrix returns b as a matrix: a rank-1 view is one column.
func asMatrix[T Scalar](op string, b views.View[T]) (views.View[T], error) {
	if err := b.CheckLive(op, "b"); err != nil {
		return b, err
	}
	switch b.Rank() {
	case 1:
		return b.Reshape(b.Layout().Dim(0), 1) // a rank-1 view always reshapes
	case 2:
		return b, nil
	}
	return b, rankErr(op, "b", b, "1 or 2")
}

// Workspaces. A routine that needs one asks LAPACK for its size once per
// (routine, element type, shape, options) with lwork = -1 (internal/rt/
// lwork remembers the answer, for lapack and the gonum adapter alike) and
// takes the buffers from internal/rt/pool, so that a call in steady state
// allocates nothing.

// workspace holds the pooled buffers of one call.
type workspace[T Scalar] struct {
	work  *pool.Buf[T]
	rwork *pool.Buf[T] // reals at T's precision, packed into T-sized cells
	iwork wspace.Ints
}

func getWorkspace[T Scalar](s wspace.Sizes) workspace[T] {
	w := workspace[T]{work: pool.Get[T](max(1, s.Work))}
	if s.RWork > 0 { // pool.Get allocates a handle even for nothing
		w.rwork = pool.Get[T](realCells[T](s.RWork))
	}
	if s.IWork > 0 {
		w.iwork = wspace.GetInts(s.IWork)
	}
	return w
}

func (w *workspace[T]) put() {
	pool.Put(w.work)
	pool.Put(w.rwork)
	w.iwork.Put()
}

func (w *workspace[T]) workPtr() unsafe.Pointer { return clib.Ptr(w.work.Data) }
func (w *workspace[T]) rworkPtr() unsafe.Pointer {
	if w.rwork == nil {
		return nil
	}
	return clib.Ptr(w.rwork.Data)
}
func (w *workspace[T]) iworkPtr() unsafe.Pointer { return w.iwork.Ptr() }

// realCells returns how many elements of T hold n reals of T's precision
// (a complex element holds two).
func realCells[T Scalar](n int) int {
	if scalar.Index[T]() >= 2 {
		return (n + 1) / 2
	}
	return n
}

// pivots hands a caller's []int32 pivot slice to LAPACK: directly when
// LAPACK's integer is 32 bits, through a pooled 64-bit buffer otherwise
// (done copies it back).
type pivots struct {
	dst []int32
	b64 *pool.Buf[int64]
}

func pivotsFor(ipiv []int32, n int, load bool) pivots {
	if IntBits == 32 {
		return pivots{dst: ipiv[:n]}
	}
	p := pivots{dst: ipiv[:n], b64: pool.Get[int64](max(1, n))}
	if load {
		for i, v := range p.dst {
			p.b64.Data[i] = int64(v)
		}
	}
	return p
}

func (p pivots) ptr() unsafe.Pointer {
	if p.b64 == nil {
		return clib.Ptr(p.dst)
	}
	return clib.Ptr(p.b64.Data)
}

func (p pivots) done(store bool) {
	if p.b64 == nil {
		return
	}
	if store {
		for i := range p.dst {
			p.dst[i] = int32(p.b64.Data[i])
		}
	}
	pool.Put(p.b64)
}

// flops is the work m*n*k a call reports to the thread policy
// (internal/rt/threads), in float64 so that it cannot overflow.
func flops(m, n, k int) float64 { return float64(m) * float64(n) * float64(k) }
