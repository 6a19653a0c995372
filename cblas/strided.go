package cblas

import (
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/kernel/gemm"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// gemmStrided computes c[:, :, t] = alpha a[:, :, t] b[:, :, t] +
// beta c[:, :, t] for t = 0, ..., count-1: a [M, K, count], b [K, N, count]
// and c [M, N, count] are rank-3 views whose axis 2 has any stride
// (negative included); a and b may have extent 1 there (or stride 0) to
// use one matrix for every t. It is Gemm for a run of matrices, and what
// package batch is built on: the BLAS description of the matrices (flag,
// leading dimension) is derived once, and the products run without a cgo
// call each. float64 products with every side up to 64 run the
// Go-assembly kernel of internal/kernel/gemm (CPUs with AVX2 and FMA) in a Go
// loop; the others one C loop calling BLAS per matrix or, for tiny ones
// (m <= 8, m*n*k <= 4096), a plain C kernel specialised by m. Layouts,
// transposes, conjugation and copies are as in Gemm: a General operand is
// copied once for the whole run (one matrix when it is repeated), counted
// and refused in strict mode. alpha = 0 or k = 0 make c = beta*c without
// reading a or b, and beta = 0 does not read c, on every path (as Gemm).
//
// Errors (nothing is written to c on error): layout.ErrShape for ranks or
// extents that do not match, layout.ErrOverlap when c has self-overlap or
// repeats a matrix, or shares memory with a or b, layout.ErrOverflow for
// sizes beyond the BLAS integer, lapis.ErrCopyRefused in strict mode.
func gemmStrided[T Scalar](alpha T, a, b views.View[T], beta T, c views.View[T], opts ...lapis.Option) error {
	const op = "cblas.GemmStrided"
	for _, x := range []struct {
		name string
		v    *views.View[T]
	}{{"a", &a}, {"b", &b}, {"c", &c}} {
		if x.v.IsZero() {
			return errop.ZeroView(op, x.name)
		}
		if x.v.Rank() != 3 {
			return layout.Errorf(layout.ErrShape, op, x.name, "rank %d, want 3 ([rows, cols, count])", x.v.Rank())
		}
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
	if err := checkOutput(op, "c", c, "a b", a, b); err != nil {
		return err
	}
	if count == 0 || m == 0 || n == 0 {
		return nil
	}
	cfg := configure(opts)
	// As in Gemm: conj(c) = conj(alpha) conj(a) conj(b) + ..., and a
	// row-major c is computed as c^T = b^T a^T.
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
	scaleOnly := alpha == 0 || k == 0 // a and b are not read: see Gemm
	if !scaleOnly {
		err = pa.input(op, na, a, cfg)
		if err == nil {
			err = pb.input(op, nb, b, cfg)
		}
	}
	if err == nil {
		err = pc.output(op, c, beta != 0, cfg)
	}
	if err == nil {
		err = fitsAll(op, []string{"m", "n", "k", na + " leading dimension", nb + " leading dimension", "c leading dimension"},
			m, n, k, pa.ld, pb.ld, pc.ld)
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
		var z T
		for t := 0; t < count; t++ {
			cm := mat{ptr: unsafe.Add(pc.ptr, t*pc.stride*int(unsafe.Sizeof(z))), ld: int(pc.ld), rows: m, cols: n}
			scaleGo(m, n, beta, &cm)
		}
	case stridedKernel[T](m, n, k):
		policy.Small.Add(1)
		gemm.DgemmStrided(count, m, n, k, any(alpha).(float64), pa.ptr, pa.ld, pa.stride, pa.trans != 0,
			pb.ptr, pb.ld, pb.stride, pb.trans != 0, any(beta).(float64), pc.ptr, pc.ld, pc.stride)
	default:
		policy.Calls.Add(1)
		tiny := m <= clib.GemmTinyMax && m*n*k <= stridedTinyFlops
		th := level3(m, n, k) // each product decides alone
		clib.GemmStrided(count, pa.trans, pb.trans, m, n, k, alpha, pa.strided(), pb.strided(), beta, pc.strided(), tiny)
		th.End()
	}
	pa.release()
	pb.release()
	pc.finish()
	return nil
}

// Where gemmStrided's products run: float64 products with every side up
// to stridedKernelDim on the Go-assembly kernel (in a run the kernel beats
// a C loop of cblas_dgemm calls up to there: 1000 products of 64x64, 19.5
// against 21.1 ms, BenchmarkBatchGemm; further than for one call from
// Gemm, where a cgo call is the alternative); the plain C kernel up to
// stridedTinyFlops with m <= 8 (a 4x4 product 18 ns against 63 ns for a
// cblas_dgemm call).
var (
	stridedKernelDim = 64
	stridedTinyFlops = 16 * 16 * 16
)

func stridedKernel[T Scalar](m, n, k int) bool {
	d := stridedKernelDim
	return useKernel[T]() && m <= d && n <= d && k <= d
}

// matrix0 returns matrix 0 of a rank-3 run.
func matrix0[T Scalar](v views.View[T]) views.View[T] {
	f, _ := v.Index(2, 0) // extent >= 1 when called
	return f
}

// swap01 swaps the matrix axes of a run.
func swap01[T Scalar](v views.View[T]) views.View[T] {
	t, _ := v.Transpose(0, 1) // rank 3
	return t
}

// run is one operand of gemmStrided as the loops take it: matrix 0 at ptr,
// each stored column-major with leading dimension ld and read as trans (0
// "N", 1 "T", 2 "C"), stride elements apart; or a compact copy (back) that
// finish writes back for an output.
type run[T Scalar] struct {
	ptr    unsafe.Pointer
	ld     int
	trans  int
	stride int
	back   *copyBack[T]
}

// input describes the input run v.
func (r *run[T]) input(op, name string, v views.View[T], cfg config) error {
	f := matrix0(v)
	m, ok := f.Layout().Matrix()
	switch {
	case ok && !m.Trans && !v.IsConj():
		r.ld, r.trans = m.LD, 0
	case ok && m.Trans:
		r.ld, r.trans = m.LD, 1
		if v.IsConj() {
			r.trans = 2
		}
	default:
		return r.copied(op, name, v, true, cfg)
	}
	r.ptr, r.stride = elemPtr(f), runStride(v)
	return nil
}

// output describes the output run c (column-major and unconjugated by now,
// or copied).
func (r *run[T]) output(op string, c views.View[T], load bool, cfg config) error {
	f := matrix0(c)
	if m, ok := f.Layout().Matrix(); ok && !m.Trans && !c.IsConj() {
		r.ptr, r.ld, r.stride = elemPtr(f), m.LD, runStride(c)
		return nil
	}
	return r.copied(op, "c", c, load, cfg)
}

// runStride is the stride between a run's matrices (0 for one matrix).
func runStride[T Scalar](v views.View[T]) int {
	if v.Layout().Dim(2) == 1 {
		return 0
	}
	return v.Layout().Stride(2)
}

// copied makes a compact column-major copy of the run v for one call; a
// repeated input matrix (stride 0) is copied once. An output's copy goes
// back in finish.
func (r *run[T]) copied(op, name string, v views.View[T], load bool, cfg config) (err error) {
	if cfg.Strict {
		return refuse(op, name, matrix0(v).Layout(), "a layout BLAS cannot take as it is")
	}
	src := v
	if load && v.Layout().Dim(2) > 1 && v.Layout().Stride(2) == 0 {
		src, _ = v.Slice(2, 0, 1, 1) // in range
	}
	r.back = &copyBack[T]{dst: v}
	if load {
		r.back.tmp = src.ToColMajor()
	} else if r.back.tmp, err = views.Zeros[T](v.Shape()...); err != nil {
		return err
	}
	policy.Copies.Add(1)
	t := r.back.tmp.View()
	r.ld, r.trans, r.stride = max(1, t.Layout().Dim(0)), 0, runStride(t)
	r.ptr = elemPtr(t)
	return nil
}

// release frees a copy without writing it back (inputs; errors).
func (r *run[T]) release() { r.back.release() }

// finish copies an output's temporary back and frees it.
func (r *run[T]) finish() { r.back.finish() }

// fitsAll checks sizes and leading dimensions (named by names) with blasInt.
func fitsAll(op string, names []string, vals ...int) error {
	for i, v := range vals {
		if _, err := blasInt(op, names[i], "", v); err != nil {
			return err
		}
	}
	return nil
}

// strided is r as the C loop takes it.
func (r *run[T]) strided() clib.Strided { return clib.Strided{Ptr: r.ptr, LD: r.ld, Stride: r.stride} }
