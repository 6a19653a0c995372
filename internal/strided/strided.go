// Package strided runs a run of matrices (a rank-3 view [rows, cols,
// count] whose axis 2 has any stride) through BLAS or LAPACK in one cgo
// call: Gemm, the strided-batch product, and Gesv, the strided-batch
// solve, which package batch is built on. Each operand is described once
// for the whole run (pointer, leading dimension, transpose flag, stride
// between matrices: a run), and a run BLAS or LAPACK cannot take as it
// is (a matrix that is neither column- nor row-major, a conjugated one
// where no flag says so) is copied for the call into a compact
// column-major tensor, counted in lapis.Stats.Copies and refused in
// strict mode.
package strided

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// run is one operand as the C loops take it: matrix 0 at Ptr, each
// stored column-major with leading dimension LD and read as trans (0 "N",
// 1 "T", 2 "C"), Stride elements apart; or a compact copy (back) that
// finish writes back for an output.
type run[T scalar.Type] struct {
	clib.Strided
	trans int
	back  *operand.CopyBack[T]
}

// matrix0 returns matrix 0 of a rank-3 run.
func matrix0[T scalar.Type](v views.View[T]) views.View[T] {
	f, _ := v.Index(2, 0) // extent >= 1 when called
	return f
}

// swap01 swaps the matrix axes of a run.
func swap01[T scalar.Type](v views.View[T]) views.View[T] {
	t, _ := v.Transpose(0, 1) // rank 3
	return t
}

// input describes the input run v, which BLAS reads as op(stored).
func (r *run[T]) input(op, name string, v views.View[T], cfg lapis.Config) error {
	f := matrix0(v)
	m, ok := f.Layout().Matrix()
	switch {
	case ok && !m.Trans && !v.IsConj():
		r.LD, r.trans = m.LD, 0
	case ok && m.Trans:
		r.LD, r.trans = m.LD, 1
		if v.IsConj() {
			r.trans = 2
		}
	default:
		return r.copied(op, name, v, true, cfg)
	}
	r.Ptr, r.Stride = operand.ElemPtr(f), runStride(v)
	return nil
}

// output describes a run that is written (and read first when load):
// in place when its matrices are column-major and unconjugated, else a
// compact copy.
func (r *run[T]) output(op, name string, v views.View[T], load bool, cfg lapis.Config) error {
	f := matrix0(v)
	if m, ok := f.Layout().Matrix(); ok && !m.Trans && !v.IsConj() {
		r.Ptr, r.LD, r.Stride = operand.ElemPtr(f), m.LD, runStride(v)
		return nil
	}
	return r.copied(op, name, v, load, cfg)
}

// runStride is the stride between a run's matrices (0 for one matrix).
func runStride[T scalar.Type](v views.View[T]) int {
	if v.Layout().Dim(2) == 1 {
		return 0
	}
	return v.Layout().Stride(2)
}

// copied makes a compact column-major copy of the run v for one call; a
// repeated input matrix (stride 0) is copied once. An output's copy goes
// back in finish.
func (r *run[T]) copied(op, name string, v views.View[T], load bool, cfg lapis.Config) (err error) {
	if cfg.Strict {
		return operand.Refused(op, name, matrix0(v).Layout(), "a layout BLAS cannot take as it is")
	}
	src := v
	if load && v.Layout().Dim(2) > 1 && v.Layout().Stride(2) == 0 {
		src, _ = v.Slice(2, 0, 1, 1) // in range
	}
	r.back = &operand.CopyBack[T]{Dst: v}
	if load {
		r.back.Tmp = src.ToColMajor()
	} else if r.back.Tmp, err = views.Zeros[T](v.Shape()...); err != nil {
		return err
	}
	policy.Copies.Add(1)
	t := r.back.Tmp.View()
	r.LD, r.trans, r.Stride = max(1, t.Layout().Dim(0)), 0, runStride(t)
	r.Ptr = operand.ElemPtr(t)
	return nil
}

// release frees a copy without writing it back (inputs; errors).
func (r *run[T]) release() { r.back.Release() }

// finish copies an output's temporary back and frees it.
func (r *run[T]) finish() { r.back.Finish() }

// checkRuns checks that each named view is a live rank-3 view.
func checkRuns[T scalar.Type](op string, names []string, vs ...views.View[T]) error {
	for i, v := range vs {
		if err := v.CheckLive(op, names[i]); err != nil {
			return err
		}
		switch {
		case v.IsZero():
			return errop.ZeroView(op, names[i])
		case v.Rank() != 3:
			return layout.Errorf(layout.ErrShape, op, names[i], "rank %d, want 3 ([rows, cols, count])", v.Rank())
		}
	}
	return nil
}
