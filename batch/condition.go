package batch

import (
	"errors"
	"math"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/cond"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// The conditioning check of Solve and Inv (the conditioning check of lapack.Solve): each
// matrix's norm is taken before it is factored and its reciprocal
// condition number computed from the factors; an ill-conditioned matrix
// (below machine epsilon) is reported in the *Error with its result
// written. lapis.NoConditionCheck turns it off. Matrices of order up to
// condSmall are read in place through their strides, whatever the layout
// (no copy, no cgo call); larger ones go through lapack.

// small is how the check reads the matrices of a batch of order n <=
// cond.Max: straight from memory, element (i, j) of the matrix LAPACK
// factors at offset off + i*s0 + j*s1 (a conjugated view's stored values:
// conjugation changes neither norm).
type small[T Scalar] struct {
	base   unsafe.Pointer
	s0, s1 int
	inf    bool // the infinity norm: the factored matrix is a row-major one's storage
}

// smallOf describes the batch v for the check.
func smallOf[T Scalar](v views.View[T]) small[T] {
	m := first(v)
	l := m.Layout()
	r := small[T]{base: unsafe.Pointer(unsafe.SliceData(v.Data())), s0: l.Stride(0), s1: l.Stride(1)}
	if _, _, ok := storage(m); ok {
		r.s0, r.s1, r.inf = r.s1, r.s0, true
	}
	return r
}

// factored returns the view LAPACK factors for matrix m (its storage when
// m is row-major) and the norm to take of it.
func factored[T Scalar](m views.View[T]) (views.View[T], lapack.Norm) {
	if s, _, ok := storage(m); ok {
		return s, lapack.InfNorm
	}
	return m, lapack.OneNorm
}

// matrixNorm is the norm condNorm chooses of matrix m as it will be
// factored (Inv's per-matrix check).
func matrixNorm[T Scalar](m views.View[T], opts []lapis.Option) float64 {
	n := m.Layout().Dim(0)
	if n <= cond.Max {
		var f cond.Matrix[T]
		r := smallOf(m)
		f.Load(r.base, m.Layout().Offset(), r.s0, r.s1, n)
		return f.Norm(r.inf)
	}
	s, norm := factored(m)
	return largeNorm(norm, s, opts)
}

// largeNorm is lange's norm of a matrix above condSmall (in Go when lange
// would have to copy it).
func largeNorm[T Scalar](norm lapack.Norm, m views.View[T], opts []lapis.Option) float64 {
	if _, ok := m.Layout().Matrix(); ok && !m.IsConj() {
		v, _ := lapack.Lange(norm, m, opts...)
		return v
	}
	n := m.Layout().Dim(0)
	if norm == lapack.InfNorm {
		m = m.T()
	}
	best := 0.0
	for j := 0; j < n; j++ {
		sum := 0.0
		for i := 0; i < n; i++ {
			sum += cond.Abs(m.At(i, j))
		}
		best = max(best, sum)
	}
	return best
}

// batchNorms returns, in flat batch order, the norm of each matrix of a
// as it will be factored. Above cond.Max, where the norm is lapack.Lange's,
// a matrix the finite-input rule rl refuses is skipped (NaN): it will
// not be computed, and LAPACK does not see it.
func batchNorms[T Scalar](a views.View[T], shape []int, opts []lapis.Option, rl *rule[T]) []float64 {
	norms := make([]float64, count(shape))
	n := a.Layout().Dim(0)
	if len(norms) == 0 || n == 0 {
		return norms
	}
	if n > cond.Max {
		for t := range norms {
			if !rl.finite(t) {
				norms[t] = math.NaN()
				continue
			}
			norms[t] = matrixNorm(matrixAt(a, shape, t), opts)
		}
		return norms
	}
	r := smallOf(a)
	var f cond.Matrix[T]
	eachOffset(a, shape, func(t, off int) {
		f.Load(r.base, off, r.s0, r.s1, n)
		norms[t] = f.Norm(r.inf)
	})
	return norms
}

// conditioned checks, after Solve (a holds each matrix's LU factors) or
// Inv (inverse: a holds the inverses) returned err, every matrix that did
// not fail, and adds the ill-conditioned ones to the *Error. Up to order
// cond.Max the reciprocal condition number is computed here in place
// (from the factors, or exactly as 1 / (||A|| ||A^-1||) from the
// inverse); lapack builds the error for the rare matrix below epsilon,
// and checks the larger orders itself (CheckCondition, CheckInverse).
func conditioned[T Scalar](op string, shape []int, a views.View[T], norms []float64, err error, inverse bool, opts []lapis.Option) error {
	var be *Error
	if err != nil && !errors.As(err, &be) {
		return err // not a per-matrix failure: nothing was computed for sure
	}
	failed := func(t int) bool { return be != nil && be.Failed[t] != nil }
	check := func(t int) {
		s, norm := factored(matrixAt(a, shape, t))
		var cerr error
		if inverse {
			cerr = checkInverse(op, norm, s, norms[t], opts)
		} else {
			cerr = checkCondition(op, norm, s, norms[t], opts)
		}
		var le *lapack.Error
		if errors.As(cerr, &le) {
			if be == nil {
				be = &Error{Op: op, Shape: shape, Failed: map[int]*lapack.Error{}}
			}
			be.Failed[t] = le
		}
	}
	n := a.Layout().Dim(0)
	if n > cond.Max {
		for t := range norms {
			if !failed(t) {
				check(t)
			}
		}
	} else if n > 0 && len(norms) > 0 {
		r := smallOf(a)
		var f cond.Matrix[T]
		eps := scalar.Eps[T]() / 2
		eachOffset(a, shape, func(t, off int) {
			if failed(t) || norms[t] == 0 {
				return
			}
			f.Load(r.base, off, r.s0, r.s1, n)
			inv := f.Norm(r.inf)
			if !inverse {
				inv = f.InvNorm(r.inf)
			}
			if rcond := 1 / (norms[t] * inv); rcond < eps || math.IsNaN(rcond) {
				check(t)
			}
		})
	}
	if be == nil {
		return nil
	}
	return newError(op, shape, be.Failed)
}

// eachOffset calls f with the flat index and the data offset of every
// matrix of the batch v, in flat batch order (axis 2 fastest).
func eachOffset[T Scalar](v views.View[T], shape []int, f func(t, off int)) {
	total := count(shape)
	if total == 0 {
		return
	}
	l := v.Layout()
	idx := make([]int, len(shape))
	off := l.Offset()
	for t := 0; t < total; t++ {
		f(t, off)
		for k := range idx { // next index, axis 2 fastest
			idx[k]++
			off += l.Stride(2 + k)
			if idx[k] < shape[k] {
				break
			}
			off -= idx[k] * l.Stride(2+k)
			idx[k] = 0
		}
	}
}
