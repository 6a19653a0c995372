package strided

import (
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/kernel/gemm"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/coreset"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Gemm computes c[:, :, t] = alpha a[:, :, t] b[:, :, t] + beta c[:, :, t]
// for t = 0, ..., count-1: a [M, K, count], b [K, N, count] and c [M, N,
// count] are rank-3 views whose axis 2 has any stride (negative
// included); a and b may have extent 1 there (or stride 0) to use one
// matrix for every t. It is cblas.Gemm for a run of matrices: the BLAS
// description of the matrices (flag, leading dimension) is derived once,
// and the products run without a cgo call each. float64 products with
// every side up to 64 run the Go-assembly kernel of internal/kernel/gemm
// (CPUs with AVX2 and FMA) in a Go loop; the others one C loop calling
// BLAS per matrix or, for tiny ones (m <= 8, m*n*k <= 4096), a plain C
// kernel specialised by m (clib.GemmStrided). Layouts, transposes and
// conjugation are as in cblas.Gemm: a General operand is copied once for
// the whole run (one matrix when it is repeated). alpha = 0 or k = 0 make
// c = beta*c without reading a or b, and beta = 0 does not read c, on
// every path.
//
// Errors (nothing is written to c on error), named for op:
// layout.ErrShape for ranks or extents that do not match,
// layout.ErrOverlap when c has self-overlap or repeats a matrix, or
// shares memory with a or b, layout.ErrOverflow for sizes beyond the BLAS
// integer, lapis.ErrCopyRefused in strict mode.
func Gemm[T scalar.Type](op string, alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	if err := checkRuns(op, []string{"a", "b", "c"}, a, b, c); err != nil {
		return err
	}
	la, lb, lc := a.Layout(), b.Layout(), c.Layout()
	m, k, n, count := la.Dim(0), la.Dim(1), lb.Dim(1), lc.Dim(2)
	switch {
	case lb.Dim(0) != k:
		return layout.Errorf(layout.ErrShape, op, "b", "%d rows, want a's %d columns", lb.Dim(0), k)
	case lc.Dim(0) != m || lc.Dim(1) != n:
		return layout.Errorf(layout.ErrShape, op, "c", "matrices %dx%d, want %dx%d", lc.Dim(0), lc.Dim(1), m, n)
	case la.Dim(2) != count && la.Dim(2) != 1:
		return layout.Errorf(layout.ErrShape, op, "a", "%d matrices, want c's %d or 1", la.Dim(2), count)
	case lb.Dim(2) != count && lb.Dim(2) != 1:
		return layout.Errorf(layout.ErrShape, op, "b", "%d matrices, want c's %d or 1", lb.Dim(2), count)
	}
	if err := operand.CheckOutput(op, "c", c, "a b", a, b); err != nil {
		return err
	}
	if count == 0 || m == 0 || n == 0 {
		return nil
	}
	cfg := lapis.Configure(opts...)
	// As in cblas.Gemm: conj(c) = conj(alpha) conj(a) conj(b) + ..., and
	// a row-major c is computed as c^T = b^T a^T.
	if c.IsConj() {
		a, b, c = a.Conj(), b.Conj(), c.Conj()
		alpha, beta = scalar.Conj(alpha), scalar.Conj(beta)
	}
	na, nb := "a", "b"
	if mc, ok := matrix0(c).Layout().Matrix(); ok && mc.Trans {
		a, b, na, nb = swap01(b), swap01(a), nb, na
		c = swap01(c)
		m, n = n, m
	}
	var pa, pb, pc run[T]
	var err error
	scaleOnly := alpha == 0 || k == 0 // a and b are not read
	if !scaleOnly {
		err = pa.input(op, na, a, cfg)
		if err == nil {
			err = pb.input(op, nb, b, cfg)
		}
	}
	if err == nil {
		err = pc.output(op, "c", c, beta != 0, cfg)
	}
	if err == nil {
		err = fitsBLAS(op, na, nb, m, n, k, pa.LD, pb.LD, pc.LD)
	}
	if err != nil {
		pa.release()
		pb.release()
		pc.release()
		return err
	}
	switch {
	case scaleOnly:
		policy.Small.Add(1)
		for t := range count {
			scale(m, n, beta, unsafe.Add(pc.Ptr, t*pc.Stride*int(unsafe.Sizeof(beta))), pc.LD)
		}
	case kernel[T](m, n, k):
		policy.Small.Add(1)
		gemm.DgemmStrided(count, m, n, k, any(alpha).(float64), pa.Ptr, pa.LD, pa.Stride, pa.trans != 0,
			pb.Ptr, pb.LD, pb.Stride, pb.trans != 0, any(beta).(float64), pc.Ptr, pc.LD, pc.Stride)
	default:
		policy.Calls.Add(1)
		tiny := m <= clib.GemmTinyMax && m*n*k <= TinyFlops
		th := threads.Begin(threads.Level3, float64(m)*float64(n)*float64(k)) // each product decides alone
		clib.GemmStrided(count, pa.trans, pb.trans, m, n, k, alpha, pa.Strided, pb.Strided, beta, pc.Strided, tiny)
		th.End()
	}
	pa.release()
	pb.release()
	pc.finish()
	return nil
}

// Where Gemm's products run: float64 products with every side up to
// KernelDim on the Go-assembly kernel (in a run the kernel beats a C loop
// of cblas_dgemm calls up to there: 1000 products of 64x64, 19.5 against
// 21.1 ms, BenchmarkBatchGemm; further than for one call from cblas.Gemm,
// where a cgo call is the alternative); the plain C kernel up to
// TinyFlops with m <= 8 (a 4x4 product 18 ns against 63 ns for a
// cblas_dgemm call). Variables for the tests, which move the limits.
var (
	KernelDim = kernelDim()
	TinyFlops = 16 * 16 * 16
)

// kernelDim is KernelDim for the linked library's kernels, decided once
// the root package has chosen them: 64 where the library's kernels are
// AVX2 or older (the measurement above, Haswell kernels), 12 where
// OpenBLAS runs an AVX-512 set (SkylakeX, Cooperlake, SapphireRapids),
// whose small-matrix kernels beat the Go-assembly one (AVX2) from 16:
// 256 products of n x n x n on one thread (BenchmarkEinsum's gemm rows,
// SkylakeX, this host; Go kernel against a C loop of cblas_dgemm): n = 8
// 5.6 against 22 ms, 12 4.3-4.5 against 4.6-7.7, 16 3.4-4.2 against
// 2.6-2.8, 32 5.4-6.0 against 1.8-1.9, 64 3.9-4.5 against 1.7-1.9.
func kernelDim() int {
	if s, ok := coreset.Lookup(clib.Core()); ok && s.Level >= 4 {
		return 12
	}
	return 64
}

// kernel reports whether the Go-assembly kernel takes an m x n x k
// product of T.
func kernel[T scalar.Type](m, n, k int) bool {
	_, f64 := any(*new(T)).(float64)
	d := KernelDim
	return f64 && gemm.Fast && m <= d && n <= d && k <= d
}

// scale sets the column-major m x n matrix at c (leading dimension ld) to
// beta*c, without reading it when beta is 0 and without touching it when
// beta is 1.
func scale[T scalar.Type](m, n int, beta T, c unsafe.Pointer, ld int) {
	if beta == 1 || m == 0 || n == 0 {
		return
	}
	for j := range n {
		col := unsafe.Slice((*T)(unsafe.Add(c, j*ld*int(unsafe.Sizeof(beta)))), m)
		if beta == 0 {
			clear(col)
			continue
		}
		for i := range col {
			col[i] *= beta
		}
	}
}

// fitsBLAS checks the sizes and leading dimensions of a run's product
// against the BLAS integer (operand.BLASInt); na and nb name the operands read
// as a and b. The names are joined only on error: this runs for every
// chunk of a batch.
func fitsBLAS(op, na, nb string, m, n, k, lda, ldb, ldc int) error {
	vals := [6]int{m, n, k, lda, ldb, ldc}
	for i, v := range vals {
		if clib.Fits(v) {
			continue
		}
		name := [6]string{"m", "n", "k", na, nb, "c"}[i]
		what := ""
		if i >= 3 {
			what = " leading dimension"
		}
		_, err := operand.BLASInt(op, name, what, v)
		return err
	}
	return nil
}
