package batch

import (
	"unsafe"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/kernel"
	"github.com/lapis-go/lapis/internal/policy"
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
// rows). Otherwise one C call per chunk loops over the matrices, calling
// BLAS for each or, for tiny matrices, a plain kernel; chunks run on up to
// Workers() goroutines when the matrices are small (OpenBLAS then runs one
// thread per call), and as one chunk with OpenBLAS's own threads when they
// are large. Results do not depend on the split. Operands no BLAS flag
// describes are copied once for the whole batch (counted in
// cblas.ReadStats().Copies, refused in strict mode).
//
// Errors (nothing is written to c on error): layout.ErrShape for ranks,
// matrix shapes or batch axes that do not match or broadcast (and, on the
// C path, more than 8 batch axes that cannot be merged into fewer),
// layout.ErrOverlap when c is broadcast, has self-overlap or shares memory
// with a or b, layout.ErrOverflow for sizes beyond the BLAS integer,
// cblas.ErrCopyRefused in strict mode.
func Gemm[T Scalar](alpha T, a, b views.View[T], beta T, c views.View[T], opts ...cblas.Option) error {
	const op = "batch.Gemm"
	for _, x := range []struct {
		name string
		v    *views.View[T]
	}{{"a", &a}, {"b", &b}, {"c", &c}} {
		if x.v.Rank() < 2 {
			return layout.Errorf(layout.ErrShape, op, x.name, "rank %d, want at least 2 ([rows, cols, batch...])", x.v.Rank())
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
	shape := batchShape(c)
	sa, err := broadcastStrides(op, "a", a, shape)
	if err != nil {
		return err
	}
	sb, err := broadcastStrides(op, "b", b, shape)
	if err != nil {
		return err
	}
	if lc.HasOverlap() {
		return layout.Errorf(layout.ErrOverlap, op, "c", "%s is broadcast or has indices sharing an element; it cannot be written", lc.String())
	}
	if views.Overlaps(c, a) || views.Overlaps(c, b) {
		return layout.Errorf(layout.ErrOverlap, op, "c", "output overlaps an input in memory")
	}
	total := count(shape)
	if total == 0 || m == 0 || n == 0 {
		return nil
	}
	if done, err := fold(alpha, a, b, beta, c, sa, sb, total, opts); done {
		return err
	}
	cfg := policy.Configure(opts)

	// Make c's matrices column-major and unconjugated where they can be,
	// as cblas.Gemm does: conj(c) = conj(alpha) conj(a) conj(b) + ...,
	// and c^T = b^T a^T.
	if c.IsConj() {
		a, b, c = a.Conj(), b.Conj(), c.Conj()
		alpha, beta = conj(alpha), conj(beta)
	}
	na, nb := "a", "b"
	if mc, ok := first(c).Layout().Matrix(); ok && mc.Trans {
		a, b, sa, sb, na, nb = transpose(b), transpose(a), sb, sa, nb, na
		c = transpose(c)
		m, n = n, m
	}
	pa, err := input(op, na, a, sa, cfg)
	if err != nil {
		return err
	}
	defer pa.release()
	pb, err := input(op, nb, b, sb, cfg)
	if err != nil {
		return err
	}
	defer pb.release()
	pc, err := output(op, c, beta != 0, cfg)
	if err != nil {
		return err
	}
	if err := fits(op, []string{"m", "n", "k", na + " leading dimension", nb + " leading dimension", "c leading dimension"},
		m, n, k, pa.ld, pb.ld, pc.ld); err != nil {
		pc.release()
		return err
	}
	if k == 0 { // a and b have no elements: keep their (nil) pointers still
		pa.strides, pb.strides = make([]int, len(shape)), make([]int, len(shape))
	}
	shape, st := merge(shape, pa.strides, pb.strides, pc.strides)
	chunks := chunksFor(total, m*n*k)
	if useKernel[T](m, n, k) {
		// float64 products the Go-assembly kernel beats OpenBLAS on: a Go
		// loop, no cgo at all.
		policy.Small.Add(int64(chunks))
		it := odometer{shape: shape, strides: st}
		f := func(ch int) {
			lo, hi := ch*total/chunks, (ch+1)*total/chunks
			kernelChunk(it, lo, hi, m, n, k, any(alpha).(float64), any(&pa).(*operand[float64]),
				any(&pb).(*operand[float64]), any(beta).(float64), any(&pc).(*operand[float64]))
		}
		if chunks == 1 {
			f(0) // no OpenBLAS here: the caller's thread will do
		} else {
			run(chunks, f)
		}
		pc.finish()
		return nil
	}
	// The C loop walks at most maxBatchRank axes; the axes beyond them
	// (rare: they would not merge) are walked here, one C call per index.
	inner, outer := shape, []int(nil)
	if len(shape) > maxBatchRank {
		inner, outer = shape[:maxBatchRank], shape[maxBatchRank:]
	}
	nInner, nOuter := count(inner), count(outer)
	g := newGeometry(inner, st[0], st[1], st[2])
	tiny := m <= tinyMax && n <= tinyMax && k <= tinyMax && m*n*k <= tinyFlops
	if m*n*k < bigFlops { // one OpenBLAS thread per call, however the batch is split
		defer singleThreaded()()
	}
	if nOuter > 1 {
		chunks = min(chunks, nOuter)
	}
	policy.Calls.Add(int64(chunks))
	run(chunks, func(ch int) {
		if nOuter == 1 {
			lo, hi := ch*total/chunks, (ch+1)*total/chunks
			gemmChunk(&g, lo, hi, pa.trans, pb.trans, m, n, k, alpha, pa.ptr, pa.ld, pb.ptr, pb.ld, beta, pc.ptr, pc.ld, tiny)
			return
		}
		var sz T
		es := int(unsafe.Sizeof(sz))
		for o := ch * nOuter / chunks; o < (ch+1)*nOuter/chunks; o++ {
			var off [3]int
			x := o
			for i, d := range outer {
				for p := range off {
					off[p] += (x % d) * st[p][maxBatchRank+i]
				}
				x /= d
			}
			gemmChunk(&g, 0, nInner, pa.trans, pb.trans, m, n, k, alpha, unsafe.Add(pa.ptr, es*off[0]), pa.ld,
				unsafe.Add(pb.ptr, es*off[1]), pb.ld, beta, unsafe.Add(pc.ptr, es*off[2]), pc.ld, tiny)
		}
	})
	pc.finish()
	return nil
}

// useKernel reports whether a batch of m x n x k float64 products runs
// internal/kernel.Dgemm (AVX2 and FMA present): every side up to 64. In a
// batch the kernel beats a C loop of cblas_dgemm calls up to there (1000
// products of 64x64: 19.5 against 21.1 ms, BenchmarkBatchGemm), further
// than for one call from cblas, where a cgo call is the alternative.
func useKernel[T Scalar](m, n, k int) bool {
	_, f64 := any(*new(T)).(float64)
	return f64 && kernel.Fast && m <= kernelDim && n <= kernelDim && k <= kernelDim && m*n*k <= kernelFlops
}

var (
	kernelDim   = 64
	kernelFlops = 64 * 64 * 64
)

// odometer walks the flat batch indices of a geometry in Go.
type odometer struct {
	shape   []int
	strides [][]int // a, b, c
}

// kernelChunk runs products lo <= t < hi with the Go-assembly kernel,
// unchecked: Gemm has checked every matrix of the batch (shapes, leading
// dimensions, and views over their slices, which hold every element).
// The chunk is cut into runs along the first batch axis, each one call of
// kernel.DgemmStrided.
func kernelChunk(it odometer, lo, hi, m, n, k int, alpha float64, a, b *operand[float64], beta float64, c *operand[float64]) {
	d0, s0 := 1, [3]int{}
	if len(it.shape) > 0 {
		d0 = it.shape[0]
		s0 = [3]int{it.strides[0][0], it.strides[1][0], it.strides[2][0]}
	}
	for t := lo; t < hi; {
		var off [3]int
		x := t
		for i, d := range it.shape {
			for o := range off {
				off[o] += (x % d) * it.strides[o][i]
			}
			x /= d
		}
		run := min(hi-t, d0-t%d0)
		kernel.DgemmStrided(run, m, n, k, alpha, unsafe.Add(a.ptr, 8*off[0]), a.ld, s0[0], a.trans != 0,
			unsafe.Add(b.ptr, 8*off[1]), b.ld, s0[1], b.trans != 0, beta, unsafe.Add(c.ptr, 8*off[2]), c.ld, s0[2])
		t += run
	}
}

// tinyFlops is the largest m*n*k the plain kernel takes instead of BLAS
// (README: how it was measured).
var tinyFlops = 16 * 16 * 16

// chunkFlops is the work (m*n*k summed over matrices) worth a chunk of its
// own, and bigFlops the m*n*k above which one matrix is left to OpenBLAS's
// threads instead of splitting the batch.
var (
	chunkFlops = 1 << 16
	bigFlops   = 128 * 128 * 128
)

// chunksFor splits total matrices of mnk flops each into chunks for the
// workers: one chunk for large matrices (OpenBLAS threads them) or little
// work, otherwise up to Workers() chunks of at least chunkFlops each.
func chunksFor(total, mnk int) int {
	if mnk >= bigFlops {
		return 1
	}
	byWork := max(1, total*mnk/chunkFlops)
	return min(total, Workers(), byWork)
}

// transpose swaps the matrix axes of a batch view.
func transpose[T Scalar](v views.View[T]) views.View[T] {
	t, _ := v.Transpose(0, 1) // rank >= 2
	return t
}

// operand is one batch operand as the C loop takes it: element (0, 0) of
// matrix 0 at ptr, every matrix stored column-major with leading dimension
// ld and read as op (0 "N", 1 "T", 2 "C"), the matrices strides apart.
type operand[T Scalar] struct {
	ptr     unsafe.Pointer
	ld      int
	trans   int
	strides []int
	tmp     *views.Tensor[T]
	dst     views.View[T] // where tmp goes back (outputs)
}

func (o *operand[T]) release() {
	if o.tmp != nil {
		o.tmp.Release()
		o.tmp = nil
	}
}

// finish copies an output's temporary back and releases it.
func (o *operand[T]) finish() {
	if o.tmp != nil {
		_ = views.Copy(o.dst, o.tmp.View()) // same shape; dst checked
		o.release()
	}
}

// input describes the batch v (batch strides s, 0 where broadcast).
func input[T Scalar](op, name string, v views.View[T], s []int, cfg policy.Config) (o operand[T], err error) {
	f := first(v)
	m, ok := f.Layout().Matrix()
	switch {
	case ok && !m.Trans && !v.IsConj():
		o.ld, o.trans = m.LD, 0
	case ok && m.Trans:
		o.ld, o.trans = m.LD, 1
		if v.IsConj() {
			o.trans = 2
		}
	default:
		return copied(op, name, v, s, true, cfg)
	}
	o.ptr, o.strides = elem0(f), s
	return o, nil
}

// output describes the output batch c (column-major, unconjugated by now,
// or copied).
func output[T Scalar](op string, c views.View[T], load bool, cfg policy.Config) (o operand[T], err error) {
	f := first(c)
	m, ok := f.Layout().Matrix()
	if ok && !m.Trans && !c.IsConj() {
		o.ptr, o.ld = elem0(f), m.LD
		o.strides = c.Layout().Strides()[2:]
		return o, nil
	}
	return copied(op, "c", c, c.Layout().Strides()[2:], load, cfg)
}

// copied makes a compact column-major copy of the batch v for one call:
// broadcast axes are copied once (the copy keeps stride 0 there). Outputs
// (load false or true) are copied back by finish.
func copied[T Scalar](op, name string, v views.View[T], s []int, load bool, cfg policy.Config) (o operand[T], err error) {
	if cfg.Strict {
		return o, layout.Errorf(cblas.ErrCopyRefused, op, name, "%s (matrices of class %v) needs a copy and strict mode is on", v.Layout().String(), first(v).Layout().Class())
	}
	src := v
	for i, x := range s {
		if x == 0 && i+2 < src.Rank() && src.Layout().Dim(i+2) > 1 {
			src, _ = src.Slice(i+2, 0, 1, 1) // broadcast: one copy of the matrix
		}
	}
	if load {
		o.tmp = src.ToColMajor()
	} else if o.tmp, err = views.Zeros[T](src.Shape()...); err != nil {
		return o, err
	}
	policy.Copies.Add(1)
	o.dst = v
	l := o.tmp.Layout()
	o.ld, o.trans = max(1, l.Dim(0)), 0
	o.strides = make([]int, len(s))
	for i := range s {
		if i+2 < l.Rank() && l.Dim(i+2) > 1 {
			o.strides[i] = l.Stride(i + 2)
		}
	}
	if o.tmp.Len() > 0 {
		o.ptr = unsafe.Pointer(&o.tmp.Data()[0])
	}
	return o, nil
}

// elem0 returns the address of element (0, 0) of the rank-2 view f, nil
// when it has none.
func elem0[T Scalar](f views.View[T]) unsafe.Pointer {
	if f.Len() == 0 {
		return nil
	}
	return unsafe.Pointer(&f.Data()[f.Layout().Offset()])
}

// libraryIntBits is the integer width the linked library reports.
var libraryIntBits = cblas.Info().LibraryIntBits

// fits checks that sizes and leading dimensions (named by names) fit the
// BLAS integer, and that the library's integer is the one lapis was
// compiled for.
func fits(op string, names []string, vals ...int) error {
	if libraryIntBits != IntBits {
		return layout.Errorf(cblas.ErrLibrary, op, names[0], "lapis was compiled for %d-bit BLAS integers but the library uses %d-bit ones", IntBits, libraryIntBits)
	}
	for i, v := range vals {
		if int(blasInt(v)) != v {
			return layout.Errorf(layout.ErrOverflow, op, names[i], "%d does not fit the BLAS library's %d-bit integer", v, IntBits)
		}
	}
	return nil
}

func conj[T Scalar](x T) T {
	switch p := any(&x).(type) {
	case *complex64:
		*p = complex(real(*p), -imag(*p))
	case *complex128:
		*p = complex(real(*p), -imag(*p))
	}
	return x
}

// fold runs the batch as one gemm when the layouts allow it: a broadcast
// (one matrix) and b, c reshapable to [K, N*B] and [M, N*B]; or b
// broadcast and a, c (axes permuted to [M, B..., K]) reshapable to
// [M*B, K] and [M*B, N]. done reports whether it ran.
func fold[T Scalar](alpha T, a, b views.View[T], beta T, c views.View[T], sa, sb []int, total int, opts []cblas.Option) (done bool, err error) {
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
	if int(blasInt(n*total)) != n*total || int(blasInt(m*total)) != m*total {
		return false, nil
	}
	if isBroadcast(sa) && !isBroadcast(sb) || total == 1 {
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
