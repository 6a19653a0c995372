package batch

import (
	"slices"
	"unsafe"

	"github.com/lapis-go/lapis"
	tk "github.com/lapis-go/lapis/internal/kernel/tiny"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Out-of-place forms. SolveTo, InvTo, CholeskyTo and CholeskySolveTo
// leave their inputs as they are and write the results into a
// destination, as numpy's functions do: what the in-place function
// computes on a copy, bit for bit. On the tiny kernels a destination
// with its input's strides is written in the same pass, without a copy:
// the kernels read the input and write the results there
// (tinyStage.direct); for any other destination each worker copies a run
// of its piece (at most tinyStageBytes of matrices) into the destination
// and works on it while it is in cache (tinyStage). Elsewhere the whole
// input is copied (the views copy engine) and the in-place function runs
// on the copy.
//
// A destination may be exactly the view of the input whose shape it has
// (x and b, dst and a): the call then runs in place on it. Otherwise it
// must not share memory with any input (layout.ErrOverlap, naming both;
// nothing is written). The inputs may share memory with each other: they
// are only read.

// SolveTo solves a[:, :, t] x[:, :, t] = b[:, :, t] for every matrix of
// the batches a ([n, n, B...]) and b ([n, nrhs, B...]) into x (b's
// shape); a and b are not modified. b may also have fewer batch axes,
// or extent 1 on some, and is then broadcast over a's (read only, as
// Gemm broadcasts its inputs): b [n, nrhs], or the vector [n], holds the
// same right-hand sides for every matrix, and x is [n, nrhs, B...] ([n,
// B...] for a vector b). x receives what Solve leaves in b
// when it runs on a compact column-major copy of a (kept out of sight,
// the LU factors written nowhere the caller sees) and on x holding b:
// the same errors, the same conditioning check (lapis.NoConditionCheck
// turns it off) and, for each singular matrix (in the *Error), x holding
// b's right-hand sides; an ill-conditioned one is reported with its
// solution written. x may be b itself. The tiny kernels run for real
// systems of order 2 to 8 whatever a's layout (its copy is compact).
func SolveTo[T Scalar](x, a, b views.View[T], opts ...lapis.Option) error {
	const op = "batch.SolveTo"
	shape, n, alias, x, b, err := systemsTo(op, []string{"a", "b"}, x, a, b)
	if err != nil {
		return err
	}
	fillX := copier(shape, x, b, nil)
	if alias {
		fillX = func(lo, hi int) {}
	}
	if err := refusedUpFront(op, "x", x, opts); err != nil {
		return err // strict mode, as Solve refuses its b
	}
	// The rule reads the caller's a and b (x, when it is b, is written).
	rl := newRule(op, shape, source[T]{Name: "a", V: a}, source[T]{Name: "b", V: b})
	check := lapis.Configure(opts...).ConditionCheck
	if tinySolves[T](a.Layout().Compact(), x, check, opts) {
		l := a.Layout()
		st := &tinyStage[T]{keepA: true}
		if tinyVectorized[T](l) && (alias || direct(x, b, true)) {
			// One pass: the kernels read a and b where they are and
			// write x alone (a's factors nowhere).
			st.direct = true
			if !alias {
				st.inb = &b
			}
		} else {
			// A scratch the kernels read with whole vectors, in a's
			// batch order where its batch axis has stride 1 (a copy of
			// lines, not a transposition).
			st.scratch, st.inner = true, l.Rank() > 2 && l.Stride(2) == 1
		}
		pack := packer(shape, a, st.inner)
		st.fill = func(lo, hi int, s []T) {
			fillX(lo, hi)
			if s != nil {
				pack(lo, hi, s)
			}
		}
		return tinySolve(op, shape, n, a, x, check, opts, st, rl)
	}
	if err := buffer[T](op, "a", "a compact copy of a", a.Shape()...); err != nil {
		return err
	}
	lu := a.ToColMajor()
	defer lu.Release()
	fillX(0, count(shape))
	return solve(op, shape, n, lu.View(), x, opts, rl)
}

// InvTo writes the inverse of every matrix of the batch a ([n, n, B...])
// into dst (a's shape); a is not modified. dst receives what Inv leaves
// in it after a copy of a (views.Copy(dst, a); InvTo(dst, dst)): the same
// errors and conditioning check, and for each singular matrix (in the
// *Error) its LU factors as Inv leaves them (of its transpose where dst
// is row-major); an ill-conditioned one is reported with its inverse
// written. dst may be a itself (then InvTo is Inv).
func InvTo[T Scalar](dst, a views.View[T], opts ...lapis.Option) error {
	const op = "batch.InvTo"
	shape, err := checkOperands(op, []string{"a"}, []views.View[T]{a}, false)
	if err != nil {
		return err
	}
	n, cols := dims(a)
	if err := squareBatch(op, "a", n, cols); err != nil {
		return err
	}
	alias, err := destination(op, "dst", dst, []string{"a"}, []views.View[T]{a})
	if err != nil {
		return err
	}
	var st *tinyStage[T]
	if !alias {
		st = stageOf[T](copier(shape, dst, a, nil))
		st.direct, st.ina = direct(dst, a, true), &a
	}
	return inv(op, shape, dst, opts, st, newRule(op, shape, source[T]{Name: "a", V: a}))
}

// CholeskyTo writes the Cholesky factor of every positive definite
// matrix of the batch a ([n, n, B...], of which the uplo triangle is
// read) into the uplo triangle of dst (a's shape), with zeros in its
// other strict triangle: dst is the factor as a full matrix, as
// numpy.linalg.cholesky returns it. a is not modified. dst receives what
// Cholesky leaves after a copy of a (views.Copy(dst, a); Potrf(uplo,
// dst)), its other triangle then zeroed: for a matrix that is not
// positive definite (in the *Error), lapack.Potrf's partial factor. dst
// may be a itself (then a's other strict triangle is zeroed too).
func CholeskyTo[T Scalar](uplo Uplo, dst, a views.View[T], opts ...lapis.Option) error {
	const op = "batch.CholeskyTo"
	shape, err := checkOperands(op, []string{"a"}, []views.View[T]{a}, false)
	if err != nil {
		return err
	}
	if err := checkUplo(op, uplo); err != nil {
		return err
	}
	n, cols := dims(a)
	if err := squareBatch(op, "a", n, cols); err != nil {
		return err
	}
	if _, err := destination(op, "dst", dst, []string{"a"}, []views.View[T]{a}); err != nil {
		return err
	}
	st := stageOf[T](copier(shape, dst, a, zeroOpposite[T](uplo)))
	st.direct, st.zero, st.ina = direct(dst, a, false), true, &a
	return cholesky(op, uplo, shape, dst, opts, st, newRule(op, shape, source[T]{Name: "a", V: a, Tri: triangle(uplo)}))
}

// CholeskySolveTo solves a x = b for every matrix into x (b's shape)
// from Cholesky's factors in the uplo triangles of f ([n, n, B...]); f
// and b ([n, nrhs, B...]) are not modified. b may be broadcast over f's
// batch axes as SolveTo's over a's. x receives what
// CholeskySolve leaves in it after a copy of b (views.Copy(x, b);
// Potrs(uplo, f, x)): for a matrix whose factor shows a failed
// Cholesky (in the *Error), b's right-hand sides. x may be b itself
// (then CholeskySolveTo is CholeskySolve).
func CholeskySolveTo[T Scalar](uplo Uplo, x, f, b views.View[T], opts ...lapis.Option) error {
	const op = "batch.CholeskySolveTo"
	if err := checkUplo(op, uplo); err != nil {
		return err
	}
	shape, _, alias, x, b, err := systemsTo(op, []string{"f", "b"}, x, f, b)
	if err != nil {
		return err
	}
	var st *tinyStage[T]
	if !alias {
		st = stageOf[T](copier(shape, x, b, nil))
		st.direct, st.inb = direct(x, b, true), &b
	}
	return choleskySolve(op, uplo, shape, f, x, opts, st, newRule(op, shape, source[T]{Name: "f", V: f, Tri: triangle(uplo)}, source[T]{Name: "b", V: b}))
}

// systemsTo checks the batches of an out-of-place solve: a and b (named
// names) as inputs (systems), b broadcast over a's batch axes (rhs), x as
// the destination of b's results. It returns x and b as the call works
// on them: [n, nrhs, B...] (a vector's x and b with a column axis).
func systemsTo[T Scalar](op string, names []string, x, a, b views.View[T]) (shape []int, n int, alias bool, xm, bm views.View[T], err error) {
	bm, vector, err := rhs(op, a, b)
	if err == nil {
		shape, n, err = systems(op, names, a, bm, false)
	}
	xm = x
	if err == nil && vector {
		xm, err = vectorDest(op, x, bm)
	}
	if err != nil {
		return nil, 0, false, x, b, err
	}
	alias, err = destination(op, "x", xm, []string{names[1], names[0]}, []views.View[T]{bm, a})
	return shape, n, alias, xm, bm, err
}

// rhs returns the right-hand sides b of a call that only reads them
// (SolveTo, CholeskySolveTo, LeastSquares and their allocating forms)
// as the batch [rows, nrhs, B...] it works on, B... a's batch shape: b
// itself when it has a's batch axes; otherwise b broadcast over them,
// read only, by the rule of Gemm's inputs (broadcastStrides: each of b's
// batch axes has a's extent or extent 1, or is missing on the right), so
// that a b with no batch axes, [rows, nrhs] or the vector [rows] (one
// column), gives every matrix the same right-hand sides. vector reports
// a rank-1 b. An a or b of rank below 2 is left to the checks that
// follow (systems, checkOperands).
func rhs[T Scalar](op string, a, b views.View[T]) (bm views.View[T], vector bool, err error) {
	if err := b.CheckLive(op, "b"); err != nil {
		return b, false, err
	}
	if b.Rank() == 1 {
		b, _ = b.Reshape(b.Layout().Dim(0), 1) // a rank-1 view always reshapes
		vector = true
	}
	if a.Rank() < 2 || b.Rank() < 2 || slices.Equal(batchShape(b), batchShape(a)) {
		return b, vector, nil
	}
	shape := batchShape(a)
	if _, err := broadcastStrides(op, "b", b, shape); err != nil {
		return b, vector, err
	}
	l := b.Layout()
	bm, err = b.BroadcastTo(append([]int{l.Dim(0), l.Dim(1)}, shape...)...)
	return bm, vector, errop.Rename(err, op) // only an overflowing count fails
}

// rhsShape is the shape of the solutions of the right-hand sides bm that
// rhs returned: bm's, without the column axis for a vector b ([n,
// B...]).
func rhsShape[T Scalar](bm views.View[T], vector bool) []int {
	s := bm.Shape()
	if vector && len(s) >= 2 {
		s = append(s[:1], s[2:]...)
	}
	return s
}

// vectorDest checks the destination x ([n, B...]) of the solutions of a
// vector b and returns it as the batch [n, 1, B...] the call writes,
// bm's shape.
func vectorDest[T Scalar](op string, x, bm views.View[T]) (views.View[T], error) {
	if err := x.CheckLive(op, "x"); err != nil {
		return x, err
	}
	want := rhsShape(bm, true)
	if !slices.Equal(x.Shape(), want) {
		return x, layout.Errorf(layout.ErrShape, op, "x", "shape %v, want %v (a vector b's solutions: b's length, then a's batch axes)", x.Shape(), want)
	}
	xm, err := x.Reshape(bm.Shape()...) // an axis of extent 1 more: always a view
	return xm, errop.Rename(err, op)
}

// checkUplo checks a Cholesky triangle before anything is written.
func checkUplo(op string, uplo Uplo) error {
	if uplo != Upper && uplo != Lower {
		return layout.Errorf(lapis.ErrInvalid, op, "uplo", "value %d is neither batch.Upper nor batch.Lower", uplo)
	}
	return nil
}

// destination checks the destination dst (named name) of an out-of-place
// form: that it is live (lapis.ErrReleased), the shape of the input ins[0] it receives the results of, no
// indices sharing an element, and no memory shared with any input
// (names[i] is ins[i]'s name) unless it is exactly ins[0] (alias: the
// form runs in place).
func destination[T Scalar](op, name string, dst views.View[T], names []string, ins []views.View[T]) (alias bool, err error) {
	if err := dst.CheckLive(op, name); err != nil {
		return false, err
	}
	if !dst.Layout().SameShape(ins[0].Layout()) {
		if dst.IsZero() {
			return false, errop.ZeroView(op, name)
		}
		return false, layout.Errorf(layout.ErrShape, op, name, "shape %v, want %s's shape %v (the destination has the shape of the input whose results it receives)", dst.Shape(), names[0], ins[0].Shape())
	}
	if dst.Layout().HasOverlap() {
		return false, layout.Errorf(layout.ErrOverlap, op, name, "%s is broadcast or has indices sharing an element; it is written", dst.Layout().String())
	}
	for i, in := range ins {
		if i == 0 && sameView(dst, in) {
			alias = true
			continue
		}
		if views.Overlaps(dst, in) {
			return false, layout.Errorf(layout.ErrOverlap, op, name, "shares memory with %s (%s may be %s itself, which runs the call in place, but must not otherwise overlap an input)", names[i], name, names[0])
		}
	}
	return alias, nil
}

// sameView reports whether a and b are the same view: the same memory,
// layout and conjugation.
func sameView[T Scalar](a, b views.View[T]) bool {
	la, lb := a.Layout(), b.Layout()
	return unsafe.SliceData(a.Data()) == unsafe.SliceData(b.Data()) && a.IsConj() == b.IsConj() &&
		la.Offset() == lb.Offset() && la.SameShape(lb) && la.SameStrides(lb)
}

// direct reports whether the kernels write an out-of-place form's
// destination dst in the pass that reads its input in, without a staged
// copy (tinyStage.direct): when the two have the same strides, so that each
// result goes to its matrix's offset in dst, except, with innerStaged,
// where the batch axis has stride 1 and dst's matrices have 36 elements or
// more (an order-6 matrix). There the kernels write each of a lane group's
// elements as a line of its own, in as many pages, and for InvTo the staged
// copy (a run's rows copied whole, then worked on in cache) is faster: on
// 10000-matrix batches innermost, one worker, direct against staged,
// float64 InvTo took 130-280 against 102-128 ns a matrix at n = 6 and
// 443-472 against 210-287 at n = 8. Where the kernels write right-hand
// sides (n lines a lane group) direct is as fast or faster (CholeskySolveTo
// n = 8 float64 25 against 33-38, float32 11 against 15-17; SolveTo float32
// n = 8 58-65 against 85-90), as it is at smaller orders (CholeskyTo n = 5
// 25 against 40-53) and for compact batches at every order. CholeskyTo
// passes innerStaged false: innermost at n = 8, in alternated rounds of 300
// calls, direct took 132-183 against 181-234 us (float32) on one worker and
// 78-98 against 123-144 on two, float64 293-347 against 408-617 and 179-228
// against 224-235.
func direct[T Scalar](dst, in views.View[T], innerStaged bool) bool {
	l, d := in.Layout(), dst.Layout()
	innermost := l.Rank() > 2 && l.Stride(2) == 1
	return d.SameStrides(l) && !(innerStaged && innermost && d.Dim(0)*d.Dim(1) >= 36)
}

// stageOf is the stage of an out-of-place form without scratch: fill.
func stageOf[T Scalar](fill func(lo, hi int)) *tinyStage[T] {
	return &tinyStage[T]{fill: func(lo, hi int, _ []T) { fill(lo, hi) }}
}

// copier returns the function that copies matrices lo..hi (flat batch
// indices of batch shape shape) of src into the same matrices of dst, a
// run along their first merged batch axis at a time (runs), each run one
// views.Copy (one memmove when both are compact); fix, when not nil,
// then runs on each run of dst. When dst is src, only fix runs.
func copier[T Scalar](shape []int, dst, src views.View[T], fix func(run views.View[T])) func(lo, hi int) {
	same := sameView(dst, src)
	var bd, bs [layout.MaxInline]int
	mshape, st := merge(shape, batchStrides(dst.Layout(), bd[:0]), batchStrides(src.Layout(), bs[:0]))
	vs := []views.View[T]{dst, src}
	return func(lo, hi int) {
		_ = runs(mshape, st, lo, hi, vs, func(r []views.View[T]) error {
			if !same {
				_ = views.Copy(r[0], r[1]) // the same shape, apart: cannot fail
			}
			if fix != nil {
				fix(r[0])
			}
			return nil
		})
	}
}

// packer returns the function that copies matrices lo..hi of a (batch
// shape shape) into s, a batch [n, n, hi-lo] that is compact or, inner,
// has the batch axis innermost (storage [hi-lo, n, n]).
func packer[T Scalar](shape []int, a views.View[T], inner bool) func(lo, hi int, s []T) {
	n, _ := dims(a)
	var ba [layout.MaxInline]int
	mshape, st := merge(shape, batchStrides(a.Layout(), ba[:0]))
	vs := []views.View[T]{a}
	return func(lo, hi int, s []T) {
		k := hi - lo
		var d views.View[T] // cannot fail: s holds k matrices
		if inner {
			ld := innerLD(k)
			d = must(must(views.FromColMajor(s[:ld*n*n], ld, n, n)).View().Permute(1, 2, 0))
		} else {
			d = must(views.FromColMajor(s[:k*n*n], n, n, k)).View()
		}
		t := lo
		_ = runs(mshape, st, lo, hi, vs, func(r []views.View[T]) error {
			m := r[0].Layout().Dim(2)
			_ = views.Copy(must(d.Slice(2, t-lo, t-lo+m, 1)), r[0]) // in range, apart
			t += m
			return nil
		})
	}
}

// must returns v, for calls that cannot fail (their arguments checked).
func must[V any](v V, err error) V {
	if err != nil {
		panic("batch: " + err.Error())
	}
	return v
}

// zeroOpposite returns CholeskyTo's fix: zeros in the strict triangle
// opposite uplo of each matrix of a run [n, n, k]. With the batch axis
// the run's most contiguous (stride 1), each of the triangle's elements
// is one clear of k; otherwise each matrix takes its triangle's stores,
// at offsets that are the same for all of them.
func zeroOpposite[T Scalar](uplo Uplo) func(r views.View[T]) {
	return func(r views.View[T]) {
		l := r.Layout()
		n, k := l.Dim(0), l.Dim(2)
		s0, s1, s2 := l.Stride(0), l.Stride(1), l.Stride(2)
		var buf [kernelMaxTri]int
		offs := buf[:0]
		for j := range n {
			for i := range n {
				if uplo == Lower && i < j || uplo == Upper && i > j {
					offs = append(offs, i*s0+j*s1)
				}
			}
		}
		if k == 0 || len(offs) == 0 {
			return
		}
		d := r.Data()
		if s2 == 1 {
			for _, o := range offs {
				clear(d[l.Offset()+o:][:k])
			}
			return
		}
		// The stores through a pointer: the run lies inside d (a view),
		// so every element addressed here does.
		size := int(unsafe.Sizeof(*new(T)))
		for i := range offs {
			offs[i] *= size
		}
		p := unsafe.Pointer(&d[l.Offset()])
		for m := range k {
			for _, o := range offs {
				*(*T)(unsafe.Add(p, o)) = 0
			}
			if m+1 < k {
				p = unsafe.Add(p, s2*size)
			}
		}
	}
}

// kernelMaxTri is the size of a strict triangle of the tiny kernels'
// largest order (larger ones append).
const kernelMaxTri = tk.MaxN * (tk.MaxN - 1) / 2
