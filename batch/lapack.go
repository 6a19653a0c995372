package batch

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/lapis-go/lapis"
	tk "github.com/lapis-go/lapis/internal/kernel/tiny"
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Batched LAPACK. Every function takes batches [rows, cols, B...] whose
// batch shapes agree and works on each matrix in place, as the lapack
// routine it is named after does, through package lapack: a compact
// column-major batch (or one whose matrices are each column-major) is
// used in place with no copy; LAPACK's workspace size is queried once
// (lapack remembers it) and each worker takes its buffers from the pool.
// Matrices run in parallel on the workers when there are many (OpenBLAS
// then runs one thread per call). One matrix failing does not stop the
// others: the call returns an *Error listing the failed batch indices.

// Error reports the matrices of a batch that LAPACK could not handle,
// or that hold a NaN or an infinity where the call reads; all the others
// were computed. It matches the sentinels of package lapack
// (errors.Is(err, lapack.ErrSingular)) and lapis.ErrNotFinite, and
// yields each *lapack.Error to errors.As. Its text starts with Op, and
// each matrix's *lapack.Error names Op too (the function called, not the
// lapack routine it runs per matrix).
type Error struct {
	Op     string                // the function called, e.g. "batch.Solve"
	Shape  []int                 // the batch shape
	Failed map[int]*lapack.Error // flat batch index (axis 2 fastest) -> LAPACK's error
}

// newError returns the *Error of the call op for the failed matrices,
// each of whose errors it renames to op (copies).
func newError(op string, shape []int, failed map[int]*lapack.Error) *Error {
	for t, le := range failed {
		if le.Op != op {
			failed[t] = le.WithOp(op).(*lapack.Error)
		}
	}
	return &Error{Op: op, Shape: shape, Failed: failed}
}

// WithOp returns a copy of e, and of its matrices' errors, that names op
// as the function called (batch.Solve reports batch.SolveTo's errors).
func (e *Error) WithOp(op string) error {
	failed := make(map[int]*lapack.Error, len(e.Failed))
	for t, le := range e.Failed {
		failed[t] = le
	}
	return newError(op, e.Shape, failed)
}

// Indices returns the failed matrices' flat batch indices, in order
// (Index turns one into the index along each batch axis).
func (e *Error) Indices() []int {
	idx := make([]int, 0, len(e.Failed))
	for t := range e.Failed {
		idx = append(idx, t)
	}
	sort.Ints(idx)
	return idx
}

func (e *Error) Error() string {
	idx := e.Indices()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d matrices failed:", e.Op, len(idx), count(e.Shape))
	for i, t := range idx {
		if i == 3 {
			fmt.Fprintf(&b, " ...")
			break
		}
		// Each matrix's error without the call's name, said once above.
		fmt.Fprintf(&b, " %v: %s;", e.Index(t), strings.TrimPrefix(e.Failed[t].Error(), e.Op+": "))
	}
	return strings.TrimSuffix(b.String(), ";")
}

// Unwrap returns the failed matrices' errors, in batch order.
func (e *Error) Unwrap() []error {
	idx := e.Indices()
	errs := make([]error, len(idx))
	for i, t := range idx {
		errs[i] = e.Failed[t]
	}
	return errs
}

// Index turns a flat batch index into the index along each batch axis.
func (e *Error) Index(flat int) []int {
	idx := make([]int, len(e.Shape))
	for i, d := range e.Shape {
		idx[i] = flat % d
		flat /= d
	}
	return idx
}

// operands checks that the batches are live (not views of released
// tensors: lapis.ErrReleased), have rank >= 2 and one batch shape,
// matrix extents the LAPACK integer holds (extents), and, when they are
// written, that none has indices sharing an element and no two share
// memory. It returns the batch shape. It, destination and Gemm's and
// Mul's first loop are where views enter the package.
func operands[T Scalar](op string, names []string, vs []views.View[T]) ([]int, error) {
	return checkOperands(op, names, vs, true)
}

func checkOperands[T Scalar](op string, names []string, vs []views.View[T], written bool) ([]int, error) {
	for i := range vs {
		if err := vs[i].CheckLive(op, names[i]); err != nil {
			return nil, err
		}
	}
	var shape []int
	for i, v := range vs {
		if written && v.Layout().HasOverlap() {
			return nil, layout.Errorf(layout.ErrOverlap, op, names[i], "%s is broadcast or has indices sharing an element; it is written in place", v.Layout().String())
		}
		for j := range i {
			if written && views.Overlaps(v, vs[j]) {
				return nil, layout.Errorf(layout.ErrOverlap, op, names[i], "shares memory with %s", names[j])
			}
		}
		if v.Rank() < 2 {
			if v.IsZero() {
				return nil, errop.ZeroView(op, names[i])
			}
			hint := ""
			if f := readsBroadcast[op]; f != "" && names[i] == "b" && v.Rank() == 1 {
				hint = "; " + f + " takes a vector b"
			}
			return nil, layout.Errorf(layout.ErrShape, op, names[i], "rank %d, want at least 2 ([rows, cols, batch...])%s", v.Rank(), hint)
		}
		s := batchShape(v)
		if i == 0 {
			shape = s
		} else if !slices.Equal(s, shape) {
			hint := ""
			if names[i] == "b" {
				hint = rhsHint(op, v, shape)
			}
			return nil, layout.Errorf(layout.ErrShape, op, names[i], "batch shape %v (shape %v), want %s's %v%s", s, v.Shape(), names[0], shape, hint)
		}
	}
	return shape, extents(op, names, vs...)
}

// readsBroadcast names, for the functions that write their right-hand
// sides b in place (so b must have a's batch axes), the call that reads
// b instead and broadcasts it over a's batch axes (rhs).
var readsBroadcast = map[string]string{
	"batch.Gesv":  "batch.Solve(a, b)",
	"batch.Potrs": "batch.CholeskySolve(uplo, f, b)",
	"batch.Gels":  "batch.LeastSquares(a, b)",
}

// rhsHint is what the error for right-hand sides b whose batch shape is
// not shape (a's) suggests, each suggestion a call that works
// (hints_test.go): the reshape to [n, 1, B...] of a b [n, B...] that
// holds one right-hand side per matrix and can be so reshaped; and, where
// b is written in place here but would broadcast over a's batch axes, the
// call that reads it broadcast.
func rhsHint[T Scalar](op string, b views.View[T], shape []int) string {
	var hints []string
	if l := b.Layout(); slices.Equal(b.Shape()[1:], shape) {
		dims := append([]int{l.Dim(0), 1}, shape...)
		if _, err := b.Reshape(dims...); err == nil {
			hints = append(hints, fmt.Sprintf("one right-hand side per matrix is [n, 1, batch...]: b.Reshape(%s)", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(dims)), ", "), "[]")))
		}
	}
	if f := readsBroadcast[op]; f != "" {
		if _, err := broadcastStrides(op, "b", b, shape); err == nil {
			hints = append(hints, fmt.Sprintf("b is written in place here, so it is not broadcast; %s solves every matrix with b's right-hand sides", f))
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return "; " + strings.Join(hints, "; ")
}

// matrixAt returns matrix t (flat index) of the batch v.
func matrixAt[T Scalar](v views.View[T], shape []int, t int) views.View[T] {
	idx := make([]int, len(shape))
	for i, d := range shape {
		idx[i] = t % d
		t /= d
	}
	for i := len(idx) - 1; i >= 0; i-- {
		v, _ = v.Index(2+i, idx[i]) // in range
	}
	return v
}

// perMatrix runs f on every matrix of the batches vs (batch shape
// shape): f(t, mats, scratch) with mats the matrices at flat index t and
// scratch a per-chunk value made by newScratch. The first matrix runs
// alone first: an error that is not LAPACK's (an argument error or a
// strict-mode refusal, the same for every matrix of a batch) is returned
// before anything else is written. LAPACK's errors are collected into an
// *Error. work is the cost of one matrix, for the split into chunks.
func perMatrix[T Scalar, S any](op string, shape []int, vs []views.View[T], work int, newScratch func() S,
	f func(t int, mats []views.View[T], scratch S) error) error {
	total := count(shape)
	if total == 0 {
		return nil
	}
	var fs failures
	span := func(lo, hi int) {
		scratch := newScratch()
		mats := make([]views.View[T], len(vs))
		for t := lo; t < hi; t++ {
			for i, v := range vs {
				mats[i] = matrixAt(v, shape, t)
			}
			fs.record(t, f(t, mats, scratch))
		}
	}
	if work < bigFlops { // one OpenBLAS thread per call, however the batch is split
		defer singleThreaded()()
	}
	run(1, func(int) { span(0, 1) })
	if fs.fatal != nil {
		return fs.err(op, shape)
	}
	if rest := total - 1; rest > 0 {
		chunks := chunksFor(rest, work)
		run(chunks, func(ch int) { span(1+ch*rest/chunks, 1+(ch+1)*rest/chunks) })
	}
	return fs.err(op, shape)
}

// failures collects the per-matrix errors of a batch call from the
// goroutines that run it: LAPACK's by batch index, and the first other
// error (a refused copy, say), which ends the call.
type failures struct {
	mu     sync.Mutex
	failed map[int]*lapack.Error
	fatal  error
}

// record notes matrix t's error, if any.
func (f *failures) record(t int, err error) {
	if err == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var le *lapack.Error
	switch {
	case errors.As(err, &le):
		if f.failed == nil {
			f.failed = map[int]*lapack.Error{}
		}
		f.failed[t] = le
	case f.fatal == nil:
		f.fatal = err
	}
}

// err is the call's result once its goroutines are done: the first error
// that is not LAPACK's, else an *Error listing the failed matrices.
func (f *failures) err(op string, shape []int) error {
	if f.fatal != nil {
		return errop.Rename(f.fatal, op) // a per-matrix call's, as op's
	}
	if len(f.failed) > 0 {
		return newError(op, shape, f.failed)
	}
	return nil
}

// dims returns the rows and columns of a batch's matrices.
func dims[T Scalar](v views.View[T]) (int, int) { return v.Layout().Dim(0), v.Layout().Dim(1) }

func noScratch() struct{} { return struct{}{} }

// pivots is a per-chunk pivot buffer.
func pivots(n int) func() []int32 { return func() []int32 { return make([]int32, n) } }

// Gesv solves a[:, :, t] x = b[:, :, t] for every matrix of the batches a
// ([n, n, B...]) and b ([n, nrhs, B...]), in place: b receives x and a the
// LU factors (lapack.Gesv). A singular matrix is reported in the *Error;
// its b is left unchanged. A row-major matrix of a is factored through its
// storage, which holds a^T (a^H when conjugated), without a copy: a then
// holds the LU factors of a^T as lapack.Getrs(lapack.Trans, ...) reads
// them. Real systems of order 2 to 8 with column-major matrices run on
// the tiny kernels (tinySolveMin: with the conditioning check every
// order, without it from order 5 when they gather); other systems of
// order n <= 16 with column-major matrices are solved in one C loop per
// chunk with LAPACK's unblocked algorithm (getf2 and the triangular
// solves) instead of one gesv call each: the same method, a fraction of
// the cost, results equal within rounding to gesv's.
// Ill-conditioned matrices (reciprocal condition number below machine
// epsilon: the conditioning check of lapack.Solve) are reported in the *Error with their
// solution written, unless lapis.NoConditionCheck is passed; on the
// tiny kernels the check is made in their pass (tinyCond).
//
// NaN and Inf: a matrix holding one where the call reads is reported in
// the *Error and not computed (see the package documentation).
func Gesv[T Scalar](a, b views.View[T], opts ...lapis.Option) error {
	const op = "batch.Gesv"
	shape, n, err := systems(op, []string{"a", "b"}, a, b, true)
	if err != nil {
		return err
	}
	return solve(op, shape, n, a, b, opts, newRule(op, shape, source[T]{Name: "a", V: a}, source[T]{Name: "b", V: b}))
}

// systems checks the batches of a solve, a ([n, n, B...]) and b ([n,
// nrhs, B...]), named names (written: as operands checks them, else as
// inputs only), and returns the batch shape and n.
func systems[T Scalar](op string, names []string, a, b views.View[T], written bool) (shape []int, n int, err error) {
	shape, err = checkOperands(op, names, []views.View[T]{a, b}, written)
	if err != nil {
		return nil, 0, err
	}
	n, cols := dims(a)
	if err := squareBatch(op, names[0], n, cols); err != nil {
		return nil, 0, err
	}
	if r, _ := dims(b); r != n {
		return nil, 0, layout.Errorf(layout.ErrShape, op, names[1], "%d rows, want %s's order %d", r, names[0], n)
	}
	return shape, n, nil
}

// solve is Solve on the checked batches, rl the finite-input rule.
func solve[T Scalar](op string, shape []int, n int, a, b views.View[T], opts []lapis.Option, rl *rule[T]) error {
	if err := refusedUpFront(op, "b", b, opts); err != nil {
		return err
	}
	check := lapis.Configure(opts...).ConditionCheck
	if _, _, rowMajor := storage(first(a)); !rowMajor && tinySolves[T](a.Layout(), b, check, opts) {
		return tinySolve(op, shape, n, a, b, check, opts, nil, rl)
	}
	var norms []float64
	if check {
		norms = batchNorms(a, shape, opts, rl)
	}
	err := solveBatch(op, shape, n, a, b, opts, rl)
	if check {
		err = conditioned(op, shape, a, norms, err, false, opts)
	}
	return err
}

// tinySolves reports whether Solve gives a system with matrices of
// layout la (a column-major one) and right-hand sides b to the tiny
// kernels.
func tinySolves[T Scalar](la layout.Layout, b views.View[T], check bool, opts []lapis.Option) bool {
	n, nrhs := la.Dim(0), b.Layout().Dim(1)
	return n >= tinySolveMin(check, tinyVectorized[T](la)) && tinyApplies[T](n, opts) && nrhs >= 1 && nrhs <= tk.MaxRHS
}

// tinySolve is Solve on the tiny kernels, with the conditioning check in
// their pass when check is set. With st (SolveTo), b is the destination
// and a the input, which st packs into the workers' scratch.
func tinySolve[T Scalar](op string, shape []int, n int, a, b views.View[T], check bool, opts []lapis.Option, st *tinyStage[T], rl *rule[T]) error {
	var tc *tinyCond[T]
	if check {
		tc = &tinyCond[T]{exact: func(t int, anorm float64, lu []T) error {
			m := matrixAt(a, shape, t)
			if lu != nil {
				f, _ := views.FromColMajor(lu, n, n) // cannot fail
				m = f.View()
			}
			return checkCondition(op, lapack.OneNorm, m, anorm, opts)
		}}
	}
	ta, tb := tinyOf(a, false), tinyOf(b, false)
	return runTiny(op, tk.Solve, shape, ta, &tb, nil, tc, st, func(t int) error {
		if err := rl.check(t); err != nil {
			return err
		}
		// The system as stridedSolve solves it: a run of one.
		ra := runView(a, matrixAt(a, shape, t).Layout().Offset()-a.Layout().Offset(), 1, 0)
		rb := runView(b, matrixAt(b, shape, t).Layout().Offset()-b.Layout().Offset(), 1, 0)
		if s, ok := st.restage(t, n); ok {
			ra = s
		}
		var anorm float64
		if tc != nil {
			anorm = matrixNorm(first(ra), opts)
		}
		failed, err := gesvRun(op, ra, rb, opts)
		if err == nil && failed[0] != nil {
			err = failed[0]
		}
		if err == nil && tc != nil {
			err = checkCondition(op, lapack.OneNorm, first(ra), anorm, opts)
		}
		x := first(rb)
		return rl.result(err, err == nil && nanMatrix(&x))
	})
}

// solveBatch is Solve's computation on the checked batches, by
// stridedSolve's C loop or per matrix.
func solveBatch[T Scalar](op string, shape []int, n int, a, b views.View[T], opts []lapis.Option, rl *rule[T]) error {
	if done, err := stridedSolve(op, shape, a, b, opts, rl); done {
		return err
	}
	return perMatrix(op, shape, []views.View[T]{a, b}, n*n*n, pivots(n), func(t int, m []views.View[T], ipiv []int32) error {
		if err := rl.check(t); err != nil {
			return err
		}
		s, trans, ok := storage(m[0])
		var err error
		if !ok {
			err = lapack.Gesv(m[0], m[1], ipiv, opts...)
		} else if err = lapack.Getrf(s, ipiv, opts...); err == nil {
			// A row-major matrix is solved through its storage, a^T (a^H
			// when conjugated): factor that, solve with "T" ("C"). No copy.
			err = lapack.Getrs(trans, s, ipiv, m[1], opts...)
		}
		return rl.result(err, err == nil && nanMatrix(&m[1]))
	})
}

// squareBatch checks that a batch's matrices are square.
func squareBatch(op, name string, rows, cols int) error {
	if rows != cols {
		return layout.Errorf(layout.ErrShape, op, name, "matrices %dx%d, want square ones", rows, cols)
	}
	return nil
}

// refusedUpFront returns strict mode's refusal for an operand whose
// matrices LAPACK cannot take in place (column-major, unconjugated), before
// any matrix is touched: Solve factors a before it reaches b.
func refusedUpFront[T Scalar](op, name string, v views.View[T], opts []lapis.Option) error {
	if !lapis.Configure(opts...).Strict {
		return nil
	}
	if m, ok := first(v).Layout().Matrix(); !ok || m.Trans || v.IsConj() {
		return layout.Errorf(lapis.ErrCopyRefused, op, name, "%s (matrices of class %v) needs a copy and strict mode is on", v.Layout().String(), first(v).Layout().Class())
	}
	return nil
}

// vectorApart checks that the vector output s (tau, s, w) shares no memory
// with any matrix of the batches: package lapack checks each matrix's
// part of it against that matrix only.
func vectorApart[T Scalar, E any](op, name string, s []E, vs ...views.View[T]) error {
	ss := operand.SliceSpan(s)
	for _, v := range vs {
		if ss.Overlaps(operand.ViewSpan(v)) {
			return layout.Errorf(layout.ErrOverlap, op, name, "shares memory with a batch of matrices")
		}
	}
	return nil
}

// stridedSolve runs Solve for batches whose matrices of a are not
// row-major: as the strided solve (internal/strided) calls, one per run of matrices along
// the first merged batch axis (usually one per chunk), so that small
// systems are solved in one C loop with no cgo call each. done is false
// for row-major a (then nothing was done).
func stridedSolve[T Scalar](op string, shape []int, a, b views.View[T], opts []lapis.Option, rl *rule[T]) (done bool, err error) {
	if _, _, rowMajor := storage(first(a)); rowMajor {
		return false, nil
	}
	n := a.Layout().Dim(0)
	total := count(shape)
	var ba, bb [layout.MaxInline]int
	mshape, st := merge(shape, batchStrides(a.Layout(), ba[:0]), batchStrides(b.Layout(), bb[:0]))
	chunks := chunksFor(total, n*n*n)
	if n*n*n < bigFlops { // one OpenBLAS thread per call, however the batch is split
		defer singleThreaded()()
	}
	var mu sync.Mutex
	failed := map[int]*lapack.Error{}
	errs := make([]error, chunks)
	run(chunks, func(ch int) {
		t := ch * total / chunks
		errs[ch] = runs(mshape, st, t, (ch+1)*total/chunks, []views.View[T]{a, b}, func(r []views.View[T]) error {
			f, err := stridedRun(op, rl, t, r[0], r[1], opts)
			mu.Lock()
			for i, e := range f {
				failed[t+i] = e
			}
			mu.Unlock()
			t += r[0].Layout().Dim(2)
			return err
		})
	})
	if err := errors.Join(errs...); err != nil {
		return true, err
	}
	if len(failed) > 0 {
		return true, newError(op, shape, failed)
	}
	return true, nil
}

// stridedRun solves the run of systems ra ([n, n, k]) and rb ([n, nrhs,
// k]) that starts at matrix t with lapack's strided solve, in pieces
// that leave out the matrices the finite-input rule rl refuses. failed
// maps indices in the run to their errors: LAPACK's, the rule's, and
// the rule's result error for a solution that came out with a NaN.
func stridedRun[T Scalar](op string, rl *rule[T], t int, ra, rb views.View[T], opts []lapis.Option) (failed map[int]*lapack.Error, err error) {
	k := ra.Layout().Dim(2)
	if piece := rl.piece(); k > piece {
		// Scanned a piece at a time, just before LAPACK reads it.
		for lo := 0; lo < k; lo += piece {
			hi := min(k, lo+piece)
			sa, _ := ra.Slice(2, lo, hi, 1) // in range
			sb, _ := rb.Slice(2, lo, hi, 1)
			f, err := stridedRun(op, rl, t+lo, sa, sb, opts)
			for i, e := range f {
				if failed == nil {
					failed = map[int]*lapack.Error{}
				}
				failed[lo+i] = e
			}
			if err != nil {
				return failed, err
			}
		}
		return failed, nil
	}
	bad := rl.bad(t, t+k, nil)
	add := func(i int, err error) {
		var le *lapack.Error
		if errors.As(err, &le) {
			if failed == nil {
				failed = map[int]*lapack.Error{}
			}
			failed[i] = le
		}
	}
	for lo := 0; lo < k; {
		hi := k
		if len(bad) > 0 {
			hi = bad[0] - t
		}
		if lo < hi {
			sa, sb := ra, rb
			if lo > 0 || hi < k {
				sa, _ = ra.Slice(2, lo, hi, 1) // in range
				sb, _ = rb.Slice(2, lo, hi, 1)
			}
			f, err := gesvRun(op, sa, sb, opts)
			if err != nil {
				return failed, err
			}
			for i, e := range f {
				add(lo+i, e)
			}
			nanMatrices(&sb, func(i int) {
				if failed[lo+i] == nil {
					add(lo+i, rl.result(nil, true))
				}
			})
		}
		if len(bad) == 0 {
			break
		}
		add(hi, rl.notFinite(bad[0]))
		bad, lo = bad[1:], hi+1
	}
	return failed, nil
}

// storage returns, for a row-major square matrix m, the column-major view
// of its storage and the operator that makes it m (Trans, or ConjTrans
// for a conjugated view); ok is false for any other layout.
func storage[T Scalar](m views.View[T]) (s views.View[T], trans lapack.Op, ok bool) {
	l, ok := m.Layout().Matrix()
	if !ok || !l.Trans {
		return m, lapack.NoTrans, false
	}
	s = m.T() // rank 2
	trans = lapack.Trans
	if m.IsConj() {
		s, trans = s.Conj(), lapack.ConjTrans
	}
	return s, trans, true
}

// Getrf factors every matrix of the batch a ([m, n, B...]) in place
// (lapack.Getrf); ipiv receives each matrix's min(m, n) pivots one after
// another, in flat batch order (lapack.Perm reads them). Singular matrices
// are reported in the *Error; their factors are complete.
//
// NaN and Inf: a matrix holding one where the call reads is reported in
// the *Error and not computed (see the package documentation).
func Getrf[T Scalar](a views.View[T], ipiv []int32, opts ...lapis.Option) error {
	const op = "batch.Getrf"
	shape, err := operands(op, []string{"a"}, []views.View[T]{a})
	if err != nil {
		return err
	}
	m, n := dims(a)
	k := min(m, n)
	if len(ipiv) < k*count(shape) {
		return layout.Errorf(layout.ErrShape, op, "ipiv", "length %d, want %d (min(m, n) per matrix)", len(ipiv), k*count(shape))
	}
	rl := newRule(op, shape, source[T]{Name: "a", V: a})
	return perMatrix(op, shape, []views.View[T]{a}, m*n*k, noScratch, func(t int, mats []views.View[T], _ struct{}) error {
		if err := rl.check(t); err != nil {
			return err
		}
		err := lapack.Getrf(mats[0], ipiv[t*k:(t+1)*k], opts...)
		return rl.result(err, err == nil && nanMatrix(&mats[0]))
	})
}

// inv inverts the matrices of the checked batch a in place, with st (InvTo) copying the input
// into a first: piece by piece on the tiny kernels, else all at once.
func inv[T Scalar](op string, shape []int, a views.View[T], opts []lapis.Option, st *tinyStage[T], rl *rule[T]) error {
	n := a.Layout().Dim(0)
	check := lapis.Configure(opts...).ConditionCheck
	invert := func(t int, m views.View[T], ipiv []int32) error {
		// The inverse of a row-major matrix's storage a^T is (a^-1)^T:
		// inverting the storage in place inverts the matrix. No copy.
		if s, _, ok := storage(m); ok {
			m = s
		}
		if err := lapack.Getrf(m, ipiv, opts...); err != nil {
			return err
		}
		err := lapack.Getri(m, ipiv, opts...)
		return rl.result(err, err == nil && nanMatrix(&m))
	}
	if tinyApplies[T](n, opts) {
		// Row-major matrices through their storage, as below; the check
		// in the kernels' pass.
		_, _, rowMajor := storage(first(a))
		var tc *tinyCond[T]
		if check {
			tc = &tinyCond[T]{inf: rowMajor, exact: func(t int, anorm float64, _ []T) error {
				s, norm := factored(matrixAt(a, shape, t))
				return checkInverse(op, norm, s, anorm, opts)
			}}
		}
		return runTiny(op, tk.Inv, shape, tinyOf(a, rowMajor), nil, nil, tc, st, func(t int) error {
			if err := rl.check(t); err != nil {
				return err
			}
			m := matrixAt(a, shape, t)
			var anorm float64
			if tc != nil {
				anorm = matrixNorm(m, opts)
			}
			err := invert(t, m, make([]int32, n))
			if err == nil && tc != nil {
				err = tc.exact(t, anorm, nil)
			}
			return err
		})
	}
	st.restageAll(count(shape))
	var norms []float64
	if check {
		norms = batchNorms(a, shape, opts, rl)
	}
	err := perMatrix(op, shape, []views.View[T]{a}, n*n*n, pivots(n), func(t int, m []views.View[T], ipiv []int32) error {
		if err := rl.check(t); err != nil {
			return err
		}
		return invert(t, m[0], ipiv)
	})
	if check {
		err = conditioned(op, shape, a, norms, err, true, opts)
	}
	return err
}

// Potrf factors every positive definite matrix of the batch a in place
// in its uplo triangle (lapack.Potrf). Matrices that are not positive
// definite are reported in the *Error.
//
// NaN and Inf: a matrix holding one where the call reads is reported in
// the *Error and not computed (see the package documentation).
func Potrf[T Scalar](uplo Uplo, a views.View[T], opts ...lapis.Option) error {
	const op = "batch.Potrf"
	shape, err := operands(op, []string{"a"}, []views.View[T]{a})
	if err != nil {
		return err
	}
	return cholesky(op, uplo, shape, a, opts, nil, newRule(op, shape, source[T]{Name: "a", V: a, Tri: triangle(uplo)}))
}

// cholesky is Cholesky on the checked batch a, with st (CholeskyTo)
// copying the input into a first: piece by piece on the tiny kernels,
// else all at once.
func cholesky[T Scalar](op string, uplo Uplo, shape []int, a views.View[T], opts []lapis.Option, st *tinyStage[T], rl *rule[T]) error {
	n, _ := dims(a)
	factor := func(t int, m views.View[T]) error {
		if err := rl.check(t); err != nil {
			return err
		}
		err := lapack.Potrf(uplo, m, opts...)
		return rl.result(err, err == nil && nanDiagonal(&m))
	}
	if (uplo == Lower || uplo == Upper) && tinyApplies[T](n, opts) {
		// The upper triangle is the lower one of the transpose.
		return runTiny(op, tk.Cholesky, shape, tinyOf(a, uplo == Upper), nil, nil, nil, st, func(t int) error {
			return factor(t, matrixAt(a, shape, t))
		})
	}
	st.restageAll(count(shape))
	return perMatrix(op, shape, []views.View[T]{a}, n*n*n/3, noScratch, func(t int, m []views.View[T], _ struct{}) error {
		return factor(t, m[0])
	})
}

// Potrs solves a x = b for every matrix, in place in b, from
// Cholesky's factors in the uplo triangles of f (lapack.Potrs). A matrix
// whose Cholesky failed is reported again (its factor's diagonal shows
// it: lapack.ErrNotPositiveDefinite, same index) and its b left alone;
// the others are solved.
//
// NaN and Inf: a matrix holding one where the call reads is reported in
// the *Error and not computed (see the package documentation).
func Potrs[T Scalar](uplo Uplo, f, b views.View[T], opts ...lapis.Option) error {
	const op = "batch.Potrs"
	shape, err := operands(op, []string{"f", "b"}, []views.View[T]{f, b})
	if err != nil {
		return err
	}
	return choleskySolve(op, uplo, shape, f, b, opts, nil, newRule(op, shape, source[T]{Name: "f", V: f, Tri: triangle(uplo)}, source[T]{Name: "b", V: b}))
}

// choleskySolve is CholeskySolve on the checked batches, with st
// (CholeskySolveTo) copying the right-hand sides into b first: piece by
// piece on the tiny kernels, else all at once.
func choleskySolve[T Scalar](op string, uplo Uplo, shape []int, f, b views.View[T], opts []lapis.Option, st *tinyStage[T], rl *rule[T]) error {
	n, _ := dims(f)
	potrs := func(t int, f, x views.View[T]) error {
		if err := rl.check(t); err != nil {
			return err
		}
		err := lapack.Potrs(uplo, f, x, opts...)
		return rl.result(err, err == nil && nanMatrix(&x))
	}
	if (uplo == Lower || uplo == Upper) && tinyApplies[T](n, opts) && b.Rank() >= 2 && b.Layout().Dim(0) == n &&
		b.Layout().Dim(1) >= 1 && b.Layout().Dim(1) <= tk.MaxRHS {
		tb := tinyOf(b, false)
		return runTiny(op, tk.CholeskySolve, shape, tinyOf(f, uplo == Upper), &tb, nil, nil, st, func(t int) error {
			return potrs(t, matrixAt(f, shape, t), matrixAt(b, shape, t))
		})
	}
	st.restageAll(count(shape))
	return perMatrix(op, shape, []views.View[T]{f, b}, n*n, noScratch, func(t int, m []views.View[T], _ struct{}) error {
		return potrs(t, m[0], m[1])
	})
}

// Geqrf factors every matrix of the batch a ([m, n, B...]) in place
// (lapack.Geqrf); tau receives each matrix's min(m, n) reflector scalars
// one after another, in flat batch order.
//
// NaN and Inf: a matrix holding one where the call reads is reported in
// the *Error and not computed (see the package documentation).
func Geqrf[T Scalar](a views.View[T], tau []T, opts ...lapis.Option) error {
	const op = "batch.Geqrf"
	shape, err := operands(op, []string{"a"}, []views.View[T]{a})
	if err != nil {
		return err
	}
	m, n := dims(a)
	k := min(m, n)
	if len(tau) < k*count(shape) {
		return layout.Errorf(layout.ErrShape, op, "tau", "length %d, want %d (min(m, n) per matrix)", len(tau), k*count(shape))
	}
	if err := vectorApart(op, "tau", tau[:k*count(shape)], a); err != nil {
		return err
	}
	rl := newRule(op, shape, source[T]{Name: "a", V: a})
	return perMatrix(op, shape, []views.View[T]{a}, m*n*k, noScratch, func(t int, mats []views.View[T], _ struct{}) error {
		if err := rl.check(t); err != nil {
			return err
		}
		err := lapack.Geqrf(mats[0], tau[t*k:(t+1)*k], opts...)
		return rl.result(err, err == nil && (nanMatrix(&mats[0]) || scalar.HasNaN(tau[t*k:(t+1)*k])))
	})
}

// Gels solves min |a x - b| (or the minimum-norm a x = b when
// m < n) for every full-rank matrix of the batch a ([m, n, B...]) in
// place (lapack.Gels): b ([max(m, n), nrhs, B...]) receives x in its first
// n rows. Rank-deficient matrices, exactly or numerically (see
// lapack.Gels), are reported in the *Error; their b still receives gels's
// x. lapis.NoConditionCheck() leaves only the exact test.
//
// NaN and Inf: a matrix holding one where the call reads is reported in
// the *Error and not computed (see the package documentation).
func Gels[T Scalar](a, b views.View[T], opts ...lapis.Option) error {
	const op = "batch.Gels"
	shape, err := operands(op, []string{"a", "b"}, []views.View[T]{a, b})
	if err != nil {
		return err
	}
	m, _ := dims(a)
	read, _ := b.Slice(0, 0, min(m, b.Layout().Dim(0)), 1) // gels reads b's first m rows
	return gels(op, shape, a, b, opts, newRule(op, shape, source[T]{Name: "a", V: a}, source[T]{Name: "b", V: read}))
}

// gels is Gels on the checked batches, rl the finite-input rule.
func gels[T Scalar](op string, shape []int, a, b views.View[T], opts []lapis.Option, rl *rule[T]) error {
	m, n := dims(a)
	return perMatrix(op, shape, []views.View[T]{a, b}, m*n*min(m, n), noScratch, func(t int, mats []views.View[T], _ struct{}) error {
		if err := rl.check(t); err != nil {
			return err
		}
		err := lapack.Gels(mats[0], mats[1], opts...)
		return rl.result(err, err == nil && nanMatrix(&mats[1]))
	})
}

// LogDet returns, for every matrix of the batch a ([n, n, B...]), its
// determinant as sign * exp(logAbs) (lapack.LogDet; a is not modified),
// in flat batch order. Singular matrices give sign 0 and logAbs -Inf.
func LogDet[T Scalar](a views.View[T], opts ...lapis.Option) (logAbs []float64, sign []T, err error) {
	const op = "batch.LogDet"
	shape, err := checkOperands(op, []string{"a"}, []views.View[T]{a}, false)
	if err != nil {
		return nil, nil, err
	}
	n, _ := dims(a)
	total := count(shape)
	if err := buffer[float64](op, "a", "the logarithms", total); err != nil {
		return nil, nil, err
	}
	if err := buffer[T](op, "a", "the signs", total); err != nil {
		return nil, nil, err
	}
	logAbs, sign = make([]float64, total), make([]T, total)
	if n, cols := dims(a); n == cols && tinyApplies[T](n, opts) {
		// Row-major matrices through their storage, as lapack.LogDet.
		_, _, rowMajor := storage(first(a))
		det := make([]T, total)
		slow := make([]bool, total)
		// A matrix the kernels flag goes to lapack.LogDet: one with a NaN
		// or an infinity is refused there by the finite-input rule (its
		// error, named op).
		err = runTiny(op, tk.Det, shape, tinyOf(a, rowMajor), nil, det, nil, nil, func(t int) error {
			slow[t] = true
			var err error
			logAbs[t], sign[t], err = lapack.LogDet(matrixAt(a, shape, t), opts...)
			return err
		})
		for t, d := range det {
			if !slow[t] {
				logAbs[t], sign[t] = logDetOf(d)
			}
		}
		return logAbs, sign, err
	}
	err = perMatrix(op, shape, []views.View[T]{a}, n*n*n, noScratch, func(t int, m []views.View[T], _ struct{}) error {
		var err error
		logAbs[t], sign[t], err = lapack.LogDet(m[0], opts...)
		return err
	})
	return logAbs, sign, err
}

// Det returns the determinant of every matrix of the batch a, in flat
// batch order (a is not modified; see LogDet for large matrices).
func Det[T Scalar](a views.View[T], opts ...lapis.Option) ([]T, error) {
	const op = "batch.Det"
	shape, err := checkOperands(op, []string{"a"}, []views.View[T]{a}, false)
	if err != nil {
		return nil, err
	}
	n, _ := dims(a)
	if err := buffer[T](op, "a", "the determinants", count(shape)); err != nil {
		return nil, err
	}
	det := make([]T, count(shape))
	if n == a.Layout().Dim(1) && tinyApplies[T](n, opts) {
		_, _, rowMajor := storage(first(a))
		err = runTiny(op, tk.Det, shape, tinyOf(a, rowMajor), nil, det, nil, nil, func(t int) error {
			var err error
			det[t], err = lapack.Det(matrixAt(a, shape, t), opts...)
			return err
		})
		return det, err
	}
	err = perMatrix(op, shape, []views.View[T]{a}, n*n*n, noScratch, func(t int, m []views.View[T], _ struct{}) error {
		var err error
		det[t], err = lapack.Det(m[0], opts...)
		return err
	})
	return det, err
}

// Gesdd computes the reduced singular value decomposition of every matrix
// of the batch a ([m, n, B...], destroyed) by divide and conquer
// (lapack.Gesdd, JobSome): s receives each matrix's k = min(m, n) singular
// values one after another (reals of a's precision), u ([m, k, B...]) and
// vt ([k, n, B...]) the vectors.
//
// NaN and Inf: a matrix holding one where the call reads is reported in
// the *Error and not computed (see the package documentation).
func Gesdd[T Scalar, R lapack.Real](a views.View[T], s []R, u, vt views.View[T], opts ...lapis.Option) error {
	const op = "batch.Gesdd"
	shape, err := operands(op, []string{"a", "u", "vt"}, []views.View[T]{a, u, vt})
	if err != nil {
		return err
	}
	m, n := dims(a)
	k := min(m, n)
	if len(s) < k*count(shape) {
		return layout.Errorf(layout.ErrShape, op, "s", "length %d, want %d (min(m, n) per matrix)", len(s), k*count(shape))
	}
	if err := vectorApart(op, "s", s[:k*count(shape)], a, u, vt); err != nil {
		return err
	}
	rl := newRule(op, shape, source[T]{Name: "a", V: a})
	return perMatrix(op, shape, []views.View[T]{a, u, vt}, m*n*k, noScratch, func(t int, mats []views.View[T], _ struct{}) error {
		if err := rl.check(t); err != nil {
			return err
		}
		return lapack.Gesdd(lapack.JobSome, mats[0], s[t*k:(t+1)*k], mats[1], mats[2], opts...)
	})
}

// Syevd computes the eigenvalues and eigenvectors of every symmetric
// (Hermitian) matrix of the batch a ([n, n, B...]), of which the uplo
// triangle is read, by divide and conquer (lapack.Syevd): w receives each
// matrix's n eigenvalues in ascending order one after another (reals of
// a's precision), a the eigenvectors as columns.
//
// NaN and Inf: a matrix holding one where the call reads is reported in
// the *Error and not computed (see the package documentation).
func Syevd[T Scalar, R lapack.Real](uplo Uplo, a views.View[T], w []R, opts ...lapis.Option) error {
	const op = "batch.Syevd"
	shape, err := operands(op, []string{"a"}, []views.View[T]{a})
	if err != nil {
		return err
	}
	n, _ := dims(a)
	if len(w) < n*count(shape) {
		return layout.Errorf(layout.ErrShape, op, "w", "length %d, want %d (n per matrix)", len(w), n*count(shape))
	}
	if err := vectorApart(op, "w", w[:n*count(shape)], a); err != nil {
		return err
	}
	rl := newRule(op, shape, source[T]{Name: "a", V: a, Tri: triangle(uplo)})
	return perMatrix(op, shape, []views.View[T]{a}, 4*n*n*n, noScratch, func(t int, mats []views.View[T], _ struct{}) error {
		if err := rl.check(t); err != nil {
			return err
		}
		return lapack.Syevd(lapack.JobVectors, uplo, mats[0], w[t*n:(t+1)*n], opts...)
	})
}
