package batch

import (
	"errors"
	"math"
	"slices"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/strided"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Gemm computes c[:, :, t] = alpha a[:, :, t] b[:, :, t] + beta c[:, :, t]
// for every batch index t of c ([M, N, B...]), with a [M, K, B...] and b
// [K, N, B...] broadcast over c's batch axes (an axis of extent 1, or a
// missing one, repeats its matrix; c must not be broadcast). Each matrix
// may have any layout cblas.Gemm takes; the BLAS description (flag,
// leading dimension) is derived once per call, not per matrix.
//
// How it runs: when a is one matrix and b's and c's batches are contiguous
// column blocks, the whole batch is one gemm with N*B columns (and when b
// is one matrix and a's and c's batches are row blocks, one gemm with M*B
// rows). Otherwise the batch axes are merged where every operand steps
// through them as one, and each run of matrices along the first remaining
// axis is one the strided product (internal/strided) call (no cgo call per matrix); chunks run
// on up to lapis.Workers() goroutines when the matrices are small (each call
// then on one OpenBLAS thread: see the package documentation), and as one
// chunk under cblas's thread policy when they are large. Results do not depend on the split. Operands no
// BLAS flag describes are copied once per run (counted in
// lapis.ReadStats().Copies, refused in strict mode).
//
// Errors (nothing is written to c on error): layout.ErrShape for ranks,
// matrix shapes or batch axes that do not match or broadcast (and, on the
// C path, more than 8 batch axes that cannot be merged into fewer),
// layout.ErrOverlap when c is broadcast, has self-overlap or shares memory
// with a or b, layout.ErrOverflow for sizes beyond the BLAS integer,
// lapis.ErrCopyRefused in strict mode.
func Gemm[T Scalar](alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	const op = "batch.Gemm"
	names := [3]string{"a", "b", "c"}
	for i, v := range [3]*views.View[T]{&a, &b, &c} {
		if err := v.CheckLive(op, names[i]); err != nil {
			return err
		}
		if err := rankAtLeast2(op, names[i], v); err != nil {
			return err
		}
	}
	la, lb, lc := a.Layout(), b.Layout(), c.Layout()
	m, k, n := la.Dim(0), la.Dim(1), lb.Dim(1)
	switch {
	case lb.Dim(0) != k:
		return layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d columns", lb.Dim(0), k)
	case lc.Dim(0) != m || lc.Dim(1) != n:
		return layout.Errorf(layout.ErrShape, op, "c", "matrices %dx%d, want %dx%d", lc.Dim(0), lc.Dim(1), m, n)
	}
	// The batch geometry lives in arrays on the stack (rank up to
	// MaxInline each): a call on a batch allocates nothing unless it is
	// split across workers.
	var geom [4][layout.MaxInline]int
	shape := appendBatchShape(geom[0][:0], &lc)
	sa, err := broadcastStridesTo(geom[1][:0], op, "a", &la, shape)
	if err != nil {
		return err
	}
	sb, err := broadcastStridesTo(geom[2][:0], op, "b", &lb, shape)
	if err != nil {
		return err
	}
	if lc.HasOverlap() {
		return layout.Errorf(layout.ErrOverlap, op, "c", "%s is broadcast or has indices sharing an element; it cannot be written", lc.String())
	}
	for _, in := range []struct {
		name string
		v    views.View[T]
	}{{"a", a}, {"b", b}} {
		if views.Overlaps(c, in.v) {
			return layout.Errorf(layout.ErrOverlap, op, "c", "the output shares memory with the input %s; write the result to other memory", in.name)
		}
	}
	total := count(shape)
	if total == 0 || m == 0 || n == 0 {
		return nil
	}
	if done, err := fold(alpha, a, b, beta, c, sa, sb, total, opts); done {
		return err
	}
	// The rest runs as the strided product (internal/strided) calls, one per run of matrices
	// along the first batch axis left after merging (usually one per
	// chunk): cblas derives the BLAS description once per run and loops
	// in C or on the Go-assembly kernel, with no cgo call per matrix.
	sc := batchStrides(lc, geom[3][:0])
	var mbuf [4 * layout.MaxInline]int
	flat := mbuf[:]
	if l := 4 * len(shape); l > len(flat) {
		flat = make([]int, l)
	}
	l := len(shape)
	nm := mergeInto(flat, shape, sa, sb, sc)
	shape = flat[:nm]
	st := [3][]int{flat[l : l+nm], flat[2*l : 2*l+nm], flat[3*l : 3*l+nm]}
	chunks := chunksFor(total, m*n*k)
	if m*n*k < bigFlops { // one OpenBLAS thread per call, however the batch is split
		sec := threads.Begin(threads.Single, 0)
		defer sec.End()
	}
	if chunks == 1 {
		return gemmRuns(op, alpha, beta, shape, st, 0, total, &a, &b, &c, opts)
	}
	// Split: the goroutines get copies, so that only this path allocates.
	g := gemmSplit[T]{op: op, alpha: alpha, beta: beta, shape: slices.Clone(shape), opts: slices.Clone(opts)}
	for i := range 3 {
		g.st[i] = slices.Clone(st[i])
	}
	g.v = [3]views.View[T]{a, b, c}
	errs := make([]error, chunks)
	run(chunks, func(ch int) {
		errs[ch] = gemmRuns(g.op, g.alpha, g.beta, g.shape, g.st, ch*total/chunks, (ch+1)*total/chunks, &g.v[0], &g.v[1], &g.v[2], g.opts)
	})
	return errors.Join(errs...)
}

// gemmSplit is what the workers of a split Gemm share.
type gemmSplit[T Scalar] struct {
	op          string
	alpha, beta T
	shape       []int
	st          [3][]int
	v           [3]views.View[T]
	opts        []lapis.Option
}

// gemmRuns is Gemm on the runs of matrices lo <= t < hi (as runs): one
// strided product (internal/strided) per run, stopping at the first
// error.
func gemmRuns[T Scalar](op string, alpha, beta T, shape []int, st [3][]int, lo, hi int, a, b, c *views.View[T], opts []lapis.Option) error {
	for t := lo; t < hi; {
		n := runLen(shape, t, hi)
		ra, rb, rc := runOf(a, shape, st[0], t, n), runOf(b, shape, st[1], t, n), runOf(c, shape, st[2], t, n)
		if err := strided.Gemm(op, alpha, ra, rb, beta, rc, opts...); err != nil {
			return err
		}
		t += n
	}
	return nil
}

// Mul returns the products a[:, :, t] b[:, :, t] as a new compact
// column-major batch [M, N, B...] (from the pool, views.Zeros: Release it
// when done), computed by Gemm with alpha 1 and beta 0. The batch shape
// B... broadcasts a's and b's batch axes as Gemm does: axis by axis, equal
// extents, or extent 1 (or a missing axis, on the right) repeating its
// matrix over the other's extent.
//
// Errors are Gemm's, named batch.Mul: layout.ErrShape for ranks below 2,
// matrix shapes that do not match or batch axes that do not broadcast,
// layout.ErrOverflow for an output beyond lapis's allocation bound (128
// TiB) or sizes beyond the BLAS integer, lapis.ErrCopyRefused in strict
// mode. On error Mul returns nil and keeps nothing it allocated.
func Mul[T Scalar](a, b views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "batch.Mul"
	for _, x := range []struct {
		name string
		v    *views.View[T]
	}{{"a", &a}, {"b", &b}} {
		if err := x.v.CheckLive(op, x.name); err != nil {
			return nil, err
		}
		if err := rankAtLeast2(op, x.name, x.v); err != nil {
			return nil, err
		}
	}
	la, lb := a.Layout(), b.Layout()
	if lb.Dim(0) != la.Dim(1) {
		return nil, layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d columns", lb.Dim(0), la.Dim(1))
	}
	shape := []int{la.Dim(0), lb.Dim(1)}
	for axis := 2; axis < max(la.Rank(), lb.Rank()); axis++ {
		da, db := 1, 1
		if axis < la.Rank() {
			da = la.Dim(axis)
		}
		if axis < lb.Rank() {
			db = lb.Dim(axis)
		}
		switch {
		case da == db || db == 1:
			shape = append(shape, da)
		case da == 1:
			shape = append(shape, db)
		default:
			return nil, layout.Errorf(layout.ErrShape, op, "b", "batch axis %d has extent %d, a's has %d (one of them must be 1 to broadcast)", axis, db, da)
		}
	}
	if err := buffer[T](op, "b", "the output", shape...); err != nil {
		return nil, err
	}
	c, err := views.Zeros[T](shape...)
	if err != nil {
		return nil, errop.Rename(err, op) // unreachable: buffer checked the count
	}
	if err := Gemm(1, a, b, 0, c.View(), opts...); err != nil {
		c.Release()
		return nil, errop.Rename(err, op)
	}
	return c, nil
}

// runs calls f on the runs of matrices lo <= t < hi of the batches vs
// (flat index t over the merged batch shape, whose strides for vs[i] are
// st[i]): each run a rank-3 view [rows, cols, r] of matrices one stride
// apart along the first merged axis. It stops at the first error.
func runs[T Scalar](shape []int, st [][]int, lo, hi int, vs []views.View[T], f func(r []views.View[T]) error) error {
	r := make([]views.View[T], len(vs))
	for t := lo; t < hi; {
		n := runLen(shape, t, hi)
		for i := range vs {
			r[i] = runOf(&vs[i], shape, st[i], t, n)
		}
		if err := f(r); err != nil {
			return err
		}
		t += n
	}
	return nil
}

// runLen is the length of the run that starts at matrix t (flat index
// over the merged batch shape): up to hi, and not past the end of the
// first merged axis (runs, the finite-input rule's scan and the tiny
// kernels' calls all cut the batch so).
func runLen(shape []int, t, hi int) int {
	d0 := 1
	if len(shape) > 0 {
		d0 = shape[0]
	}
	return min(hi-t, d0-t%d0)
}

// runOf is the run of n matrices of v from matrix t, v's batch strides
// over the merged shape being st.
func runOf[T Scalar](v *views.View[T], shape, st []int, t, n int) views.View[T] {
	s0 := 0
	if len(shape) > 0 {
		s0 = st[0]
	}
	return runView(*v, flatOffset(t, shape, st), n, s0)
}

// runView returns the rank-3 view [rows, cols, n] of v's matrices starting
// off elements after matrix 0, stride apart.
func runView[T Scalar](v views.View[T], off, n, stride int) views.View[T] {
	l := v.Layout()
	rl, err := layout.New([]int{l.Dim(0), l.Dim(1), n}, []int{l.Stride(0), l.Stride(1), stride}, l.Offset()+off)
	if err != nil {
		panic("batch: a run outside its batch: " + err.Error()) // unreachable: the run lies inside v
	}
	r, err := views.FromSlice(v.Data(), rl)
	if err != nil {
		panic("batch: a run outside its batch: " + err.Error()) // unreachable, as above
	}
	if v.IsConj() {
		r = r.Conj()
	}
	return r
}

// chunkFlops is the work (m*n*k summed over matrices) worth a chunk of its
// own, and bigFlops the m*n*k above which one matrix is left to OpenBLAS's
// threads instead of splitting the batch.
var (
	chunkFlops = 1 << 16
	bigFlops   = 128 * 128 * 128
)

// chunksFor splits total matrices of mnk flops each into chunks for the
// workers: one chunk for large matrices (OpenBLAS threads them) or little
// work, otherwise up to lapis.Workers() chunks of at least chunkFlops each.
func chunksFor(total, mnk int) int {
	if mnk >= bigFlops {
		return 1
	}
	byWork := max(1, total*mnk/chunkFlops)
	return min(total, parallelWorkers(), byWork)
}

// fold runs the batch as one gemm when the layouts allow it: a broadcast
// (one matrix) and b, c reshapable to [K, N*B] and [M, N*B]; or b
// broadcast and a, c (axes permuted to [M, B..., K]) reshapable to
// [M*B, K] and [M*B, N]. done reports whether it ran.
func fold[T Scalar](alpha T, a, b views.View[T], beta T, c views.View[T], sa, sb []int, total int, opts []lapis.Option) (done bool, err error) {
	m, k, n := a.Layout().Dim(0), a.Layout().Dim(1), b.Layout().Dim(1)
	addressable := func(v views.View[T], err error) (views.View[T], bool) {
		if err != nil {
			return v, false
		}
		_, ok := v.Layout().Matrix()
		return v, ok
	}
	// The folded product has n*total columns or m*total rows: fold only
	// when that fits the BLAS integer.
	if !fitsBLAS(n*total) || !fitsBLAS(m*total) {
		return false, nil
	}
	if total == 1 { // one matrix each: no reshape to try
		return true, cblas.Gemm(alpha, first(a), first(b), beta, first(c), opts...)
	}
	if isBroadcast(sa) && !isBroadcast(sb) {
		bf, okb := addressable(b.Reshape(k, n*total))
		cf, okc := addressable(c.Reshape(m, n*total))
		if okb && okc {
			return true, cblas.Gemm(alpha, first(a), bf, beta, cf, opts...)
		}
	}
	if isBroadcast(sb) && !isBroadcast(sa) && a.Rank() == c.Rank() {
		perm := make([]int, c.Rank())
		perm[0], perm[len(perm)-1] = 0, 1
		for i := 1; i < len(perm)-1; i++ {
			perm[i] = i + 1
		}
		ap, _ := a.Permute(perm...)
		cp, _ := c.Permute(perm...)
		af, oka := addressable(ap.Reshape(m*total, k))
		cf, okc := addressable(cp.Reshape(m*total, n))
		if oka && okc {
			return true, cblas.Gemm(alpha, af, first(b), beta, cf, opts...)
		}
	}
	return false, nil
}

// fitsBLAS reports whether v fits the BLAS library's integer.
func fitsBLAS(v int) bool { return cblas.IntBits == 64 || v <= math.MaxInt32 }

// rankAtLeast2 is the error for the operand name when it is not a batch
// of matrices ([rows, cols, batch...]), nil when it is: the zero View's
// own error, or its rank's.
func rankAtLeast2[T Scalar](op, name string, v *views.View[T]) error {
	if v.Rank() >= 2 {
		return nil
	}
	if v.IsZero() {
		return errop.ZeroView(op, name)
	}
	return layout.Errorf(layout.ErrShape, op, name, "rank %d, want at least 2 ([rows, cols, batch...])", v.Rank())
}
