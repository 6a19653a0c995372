package batch

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/rt/coreset"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Batched LAPACK equals package lapack matrix by matrix: each test runs a
// batch op on batches of several shapes and layouts (compact, padded,
// row-major matrices, reversed batch axes, extents 0 and 1, one singular
// matrix in the middle) and the lapack routine on a copy of each matrix,
// and compares bit for bit (the same routine runs on the same data).

// cloneBatch copies a test batch (same layout, own buffer).
func cloneBatch[T Scalar](b tbatch[T]) tbatch[T] {
	buf := slices.Clone(b.buf)
	v, err := views.FromSlice(buf, b.v.Layout())
	if err != nil {
		panic(err)
	}
	if b.v.IsConj() {
		v = v.Conj()
	}
	return tbatch[T]{v: v, buf: buf}
}

// spdBatch makes a batch of positive definite (Hermitian) matrices.
func spdBatch[T Scalar](rng *rand.Rand, n int, shape []int, kind tm.Kind) tbatch[T] {
	b := newBatch[T](rng, n, n, shape, kind)
	b.each(func(m views.View[T]) {
		x := tm.Rand(rng, n, n, !tm.IsComplex[T]())
		p := x.Mul(x.H())
		for i := range n {
			for j := range n {
				v := p.At(i, j)
				if i == j {
					v += complex(float64(n), 0)
				}
				m.Set(tm.FromComplex[T](v), i, j)
			}
		}
	})
	return b
}

type batchCase struct {
	shape   []int
	kind    tm.Kind
	reverse bool // reverse batch axis 2
}

var batchCases = []batchCase{
	{[]int{7}, tm.ColPacked, false},
	{[]int{3, 2}, tm.ColStrided, true},
	{[]int{2, 1, 3}, tm.RowPacked, false},
	{[]int{0}, tm.ColPacked, false},
	{[]int{1}, tm.General, false},
	{[]int{5}, tm.General, true},
}

// orient applies the case's batch-axis reversal.
func orient[T Scalar](c batchCase, b tbatch[T]) tbatch[T] {
	if c.reverse && len(c.shape) > 0 && c.shape[0] > 1 {
		b.v, _ = b.v.Reverse(2)
	}
	return b
}

// equalBatches checks two batches hold the same values bit for bit.
func equalBatches[T Scalar](t *testing.T, what string, got, want views.View[T]) {
	t.Helper()
	g, w := flatMatrices(got), flatMatrices(want)
	for i := range g {
		if !slices.EqualFunc(g[i].D, w[i].D, func(x, y complex128) bool { return x == y || x != x && y != y }) {
			t.Fatalf("%s: matrix %d differs from the per-matrix result", what, i)
		}
	}
}

// closeBatches checks two batches agree within tol (relative, Frobenius,
// matrix by matrix).
func closeBatches[T Scalar](t *testing.T, what string, got, want views.View[T], tol float64) {
	t.Helper()
	g, w := flatMatrices(got), flatMatrices(want)
	for i := range g {
		tm.Close(t, fmt.Sprintf("%s matrix %d", what, i), g[i], w[i], tol)
	}
}

// equalOrClose is equalBatches on the kernel sets whose results do not
// depend on where the operands lie, closeBatches within tol on the SSE
// sets (coreset.AlignmentRounding).
func equalOrClose[T Scalar](t *testing.T, what string, got, want views.View[T], tol float64) {
	t.Helper()
	if coreset.AlignmentRounding(lapis.KernelSet().InUse) {
		closeBatches(t, what, got, want, tol)
		return
	}
	equalBatches(t, what, got, want)
}

// equalOrCloseValues is equalOrClose for slices of values: got and want
// equal, or on the SSE sets within tol relative to want's largest
// magnitude (at least 1).
func equalOrCloseValues[S views.Scalar](t *testing.T, what string, got, want []S, tol float64) {
	t.Helper()
	if !coreset.AlignmentRounding(lapis.KernelSet().InUse) {
		if !slices.Equal(got, want) {
			t.Fatalf("%s differ", what)
		}
		return
	}
	scale := 1.0
	for _, w := range want {
		scale = max(scale, tm.Abs(w))
	}
	for i := range want {
		if d := tm.Abs(got[i] - want[i]); !(d <= tol*scale) {
			t.Fatalf("%s: element %d is %v, want %v (difference %.3g > %.3g)", what, i, got[i], want[i], d, tol*scale)
		}
	}
}

// perMatrixRef runs f on each matrix of the batches (flat order).
func perMatrixRef[T Scalar](vs []views.View[T], f func(t int, m []views.View[T])) {
	shape := batchShape(vs[0])
	for t := range count(shape) {
		ms := make([]views.View[T], len(vs))
		for i, v := range vs {
			ms[i] = matrixAt(v, shape, t)
		}
		f(t, ms)
	}
}

func TestSolveBatch(t *testing.T) {
	tm.ForTypes(t, testSolveBatch[float32], testSolveBatch[float64], testSolveBatch[complex64], testSolveBatch[complex128])
}

func testSolveBatch[T Scalar](t *testing.T) {
	oneThread(t)
	rng := rand.New(rand.NewPCG(11, uint64(len(t.Name()))))
	for _, bc := range batchCases {
		for _, n := range []int{1, 5, 20} {
			a := orient(bc, newBatch[T](rng, n, n, bc.shape, bc.kind))
			b := orient(bc, newBatch[T](rng, n, 2, bc.shape, tm.ColPacked))
			total := count(bc.shape)
			singular := -1
			if total > 2 { // one singular matrix in the middle
				singular = total / 2
				m := matrixAt(a.v, bc.shape, singular)
				for i := range n {
					m.Set(0, i, 0)
				}
			}
			ra, rb := cloneBatch(a), cloneBatch(b)
			what := fmt.Sprintf("Solve %v %v n=%d", bc.shape, bc.kind, n)
			c0 := lapis.ReadStats().Copies
			err := Gesv(a.v, b.v)
			copies := lapis.ReadStats().Copies - c0
			if singular < 0 && err != nil {
				t.Fatal(what, err)
			}
			var le *lapack.Error
			if singular >= 0 {
				var be *Error
				if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[singular] == nil ||
					!errors.Is(err, lapack.ErrSingular) || !errors.As(err, &le) {
					t.Fatalf("%s: %v", what, err)
				}
			}
			if bc.kind == tm.General && n > 1 && n >= tinySolveMin(true, false) && tinyApplies[T](n, nil) {
				// No copy on the tiny kernels; the singular matrix goes
				// to the per-matrix path, which copies it.
				if want := int64(min(1, singular+1)); copies != want {
					t.Fatalf("%s: %d copies, want %d", what, copies, want)
				}
			} else if bc.kind == tm.General && n > 1 {
				// a's matrices: one copy (in and back) for the run; above
				// order 16 the conditioning check's gecon copies each
				// General factor it reads (not the singular one).
				want := int64(1)
				if n > 16 {
					want += int64(total)
					if singular >= 0 {
						want--
					}
				}
				if copies != want {
					t.Fatalf("%s: %d copies, want %d", what, copies, want)
				}
			} else if copies != 0 {
				t.Fatalf("%s: %d copies, want none", what, copies)
			}
			ipiv := make([]int32, n)
			perMatrixRef([]views.View[T]{ra.v, rb.v}, func(i int, m []views.View[T]) {
				err := lapack.Gesv(m[0], m[1], ipiv)
				var re *lapack.Error
				// (A row-major a is factored as its storage a^T, whose
				// first zero pivot may come at another index.)
				if i == singular && (!errors.As(err, &re) || re.Index != le.Index && bc.kind != tm.RowPacked) {
					t.Fatalf("%s: the batch reports %v, gesv %v", what, le, err)
				}
			})
			_, _, rowMajor := storage(first(a.v))
			small := n <= 16 && !rowMajor // the strided solve (internal/strided)'s own loop
			switch {
			case bc.kind == tm.RowPacked && n > 1:
				// Factored through the storage (a^T) with "T": the same
				// solution, computed in another order.
				closeBatches(t, what+" x", b.v, rb.v, tol[T](n)*100)
			case small:
				// The C loop runs LAPACK's unblocked algorithm: equal to
				// OpenBLAS's gesv within rounding.
				closeBatches(t, what+" x", b.v, rb.v, tol[T](n)*100)
				closeBatches(t, what+" lu", a.v, ra.v, tol[T](n)*100)
			default:
				equalBatches(t, what+" x", b.v, rb.v)
				equalBatches(t, what+" lu", a.v, ra.v)
			}
			checkPadding(t, what, b)
		}
	}
}

// TestBatchOps: every other op against package lapack on each matrix.
func TestBatchOps(t *testing.T) {
	tm.ForTypes(t, testBatchOps[float32, float32], testBatchOps[float64, float64], testBatchOps[complex64, float32], testBatchOps[complex128, float64])
}

// oneThread runs OpenBLAS on one thread until the test ends: the batch
// ops do for small matrices, and the per-matrix reference must too for
// bit-for-bit equality (OpenBLAS's results depend on its thread count).
func oneThread(t testing.TB) {
	prev := lapis.Threads()
	_ = lapis.SetThreads(1)
	t.Cleanup(func() { _ = lapis.SetThreads(prev) })
}

func testBatchOps[T Scalar, R lapack.Real](t *testing.T) {
	oneThread(t)
	rng := rand.New(rand.NewPCG(12, uint64(len(t.Name()))))
	for _, bc := range batchCases {
		total := count(bc.shape)
		what := fmt.Sprintf("%v %v", bc.shape, bc.kind)
		m, n := 6, 4

		// LU and Inv.
		a := orient(bc, newBatch[T](rng, m, n, bc.shape, bc.kind))
		ra := cloneBatch(a)
		ipiv := make([]int32, n*total)
		if err := Getrf(a.v, ipiv); err != nil {
			t.Fatal(err)
		}
		rpiv := make([]int32, n*total)
		perMatrixRef([]views.View[T]{ra.v}, func(i int, mm []views.View[T]) { _ = lapack.Getrf(mm[0], rpiv[i*n:(i+1)*n]) })
		equalBatches(t, "LU "+what, a.v, ra.v)
		if !slices.Equal(ipiv, rpiv) {
			t.Fatalf("LU %s: pivots differ", what)
		}
		sq := orient(bc, newBatch[T](rng, n, n, bc.shape, bc.kind))
		rsq := cloneBatch(sq)
		if err := InvTo(sq.v, sq.v); err != nil {
			t.Fatal(err)
		}
		p := make([]int32, n)
		perMatrixRef([]views.View[T]{rsq.v}, func(_ int, mm []views.View[T]) { _ = lapack.Getrf(mm[0], p); _ = lapack.Getri(mm[0], p) })
		if bc.kind == tm.RowPacked || tinyApplies[T](n, nil) { // inverted through the storage, or by the tiny kernels
			closeBatches(t, "Inv "+what, sq.v, rsq.v, tol[T](n)*100)
		} else {
			equalBatches(t, "Inv "+what, sq.v, rsq.v)
		}

		// Det and LogDet leave a alone.
		d := orient(bc, newBatch[T](rng, n, n, bc.shape, bc.kind))
		before := slices.Clone(d.buf)
		det, err := Det(d.v)
		if err != nil {
			t.Fatal(err)
		}
		logAbs, sign, err := LogDet(d.v)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(before, d.buf, func(x, y T) bool { return x == y || tm.IsNaN(x) && tm.IsNaN(y) }) {
			t.Fatalf("Det %s: a changed", what)
		}
		perMatrixRef([]views.View[T]{d.v}, func(i int, mm []views.View[T]) {
			wd, _ := lapack.Det(mm[0])
			wl, ws, _ := lapack.LogDet(mm[0])
			near := func(x, y float64) bool { return x == y || math.Abs(x-y) <= tol[T](n)*max(1, math.Abs(y)) }
			if tinyApplies[T](n, nil) { // the tiny kernels: within rounding
				if tm.Abs(det[i]-wd) > tol[T](n)*tm.Abs(wd) || !near(logAbs[i], wl) || sign[i] != ws {
					t.Fatalf("Det %s matrix %d: %v %v %v, want %v %v %v", what, i, det[i], logAbs[i], sign[i], wd, wl, ws)
				}
			} else if det[i] != wd || logAbs[i] != wl || sign[i] != ws {
				t.Fatalf("Det %s matrix %d: %v %v %v, want %v %v %v", what, i, det[i], logAbs[i], sign[i], wd, wl, ws)
			}
		})

		// Cholesky and CholeskySolve.
		s := orient(bc, spdBatch[T](rng, n, bc.shape, bc.kind))
		rs := cloneBatch(s)
		rhs := orient(bc, newBatch[T](rng, n, 3, bc.shape, tm.ColStrided))
		rrhs := cloneBatch(rhs)
		if err := Potrf(cblas.Lower, s.v); err != nil {
			t.Fatal(err)
		}
		if err := Potrs(cblas.Lower, s.v, rhs.v); err != nil {
			t.Fatal(err)
		}
		perMatrixRef([]views.View[T]{rs.v, rrhs.v}, func(_ int, mm []views.View[T]) {
			_ = lapack.Potrf(cblas.Lower, mm[0])
			_ = lapack.Potrs(cblas.Lower, mm[0], mm[1])
		})
		if tinyApplies[T](n, nil) { // the tiny kernels: within rounding
			closeBatches(t, "Cholesky "+what, s.v, rs.v, tol[T](n)*100)
			closeBatches(t, "CholeskySolve "+what, rhs.v, rrhs.v, tol[T](n)*100)
		} else {
			equalBatches(t, "Cholesky "+what, s.v, rs.v)
			equalBatches(t, "CholeskySolve "+what, rhs.v, rrhs.v)
		}

		// QR and LeastSquares.
		q := orient(bc, newBatch[T](rng, m, n, bc.shape, bc.kind))
		rq := cloneBatch(q)
		tau, rtau := make([]T, n*total), make([]T, n*total)
		if err := Geqrf(q.v, tau); err != nil {
			t.Fatal(err)
		}
		perMatrixRef([]views.View[T]{rq.v}, func(i int, mm []views.View[T]) { _ = lapack.Geqrf(mm[0], rtau[i*n:(i+1)*n]) })
		equalOrClose(t, "QR "+what, q.v, rq.v, tol[T](n)*100)
		equalOrCloseValues(t, "QR "+what+" tau", tau, rtau, tol[T](n)*100)
		ls := orient(bc, newBatch[T](rng, m, n, bc.shape, bc.kind))
		lb := orient(bc, newBatch[T](rng, m, 2, bc.shape, tm.RowPacked))
		rls, rlb := cloneBatch(ls), cloneBatch(lb)
		if err := Gels(ls.v, lb.v); err != nil {
			t.Fatal(err)
		}
		perMatrixRef([]views.View[T]{rls.v, rlb.v}, func(_ int, mm []views.View[T]) { _ = lapack.Gels(mm[0], mm[1]) })
		equalOrClose(t, "LeastSquares "+what, lb.v, rlb.v, tol[T](n)*1000)

		// SVD and EigSym.
		sv := orient(bc, newBatch[T](rng, m, n, bc.shape, bc.kind))
		rsv := cloneBatch(sv)
		u, vt := orient(bc, newBatch[T](rng, m, n, bc.shape, tm.ColPacked)), orient(bc, newBatch[T](rng, n, n, bc.shape, tm.RowPacked))
		ru, rvt := cloneBatch(u), cloneBatch(vt)
		sing, rsing := make([]R, n*total), make([]R, n*total)
		if err := Gesdd(sv.v, sing, u.v, vt.v); err != nil {
			t.Fatal(err)
		}
		perMatrixRef([]views.View[T]{rsv.v, ru.v, rvt.v}, func(i int, mm []views.View[T]) {
			_ = lapack.Gesdd(lapack.JobSome, mm[0], rsing[i*n:(i+1)*n], mm[1], mm[2])
		})
		// Bit for bit is what the library gives on its AVX sets; on the SSE
		// sets (Nehalem and older) cgesdd's and cheevd's rounding depends
		// on where their workspace lies, so there the promise is agreement
		// to rounding: values within tol(n) of the largest, vectors within
		// 100 tol(n) (well separated here: no sign flips).
		equalOrCloseValues(t, "SVD "+what+" singular values", sing, rsing, tol[T](n))
		equalOrClose(t, "SVD u "+what, u.v, ru.v, tol[T](n)*100)
		equalOrClose(t, "SVD vt "+what, vt.v, rvt.v, tol[T](n)*100)
		e := orient(bc, spdBatch[T](rng, n, bc.shape, bc.kind))
		re := cloneBatch(e)
		w, rw := make([]R, n*total), make([]R, n*total)
		if err := Syevd(cblas.Upper, e.v, w); err != nil {
			t.Fatal(err)
		}
		perMatrixRef([]views.View[T]{re.v}, func(i int, mm []views.View[T]) {
			_ = lapack.Syevd(lapack.JobVectors, cblas.Upper, mm[0], rw[i*n:(i+1)*n])
		})
		equalOrCloseValues(t, "EigSym "+what+" eigenvalues", w, rw, tol[T](n))
		equalOrClose(t, "EigSym "+what, e.v, re.v, tol[T](n)*100)
	}
}

// TestBatchParallel: a large batch split over workers gives the serial
// result bit for bit, and the race detector sees the workers.
func TestBatchParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	n := 12
	a := newBatch[float64](rng, n, n, []int{400}, tm.ColPacked)
	b := newBatch[float64](rng, n, 2, []int{400}, tm.ColPacked)
	var got [][]float64
	for _, w := range []int{1, 3} {
		prev, _ := lapis.SetWorkers(w)
		ac, bcp := cloneBatch(a), cloneBatch(b)
		if err := Gesv(ac.v, bcp.v); err != nil {
			t.Fatal(err)
		}
		lapis.SetWorkers(prev)
		got = append(got, bcp.buf)
	}
	if !slices.EqualFunc(got[0], got[1], sameFloat) {
		t.Fatal("3 workers differ from 1")
	}
}

func TestBatchLapackErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	a := newBatch[float64](rng, 3, 3, []int{4}, tm.ColPacked)
	b := newBatch[float64](rng, 3, 1, []int{5}, tm.ColPacked)
	one, _ := first(a.v).Reshape(3, 3, 1)
	bcast, _ := one.BroadcastTo(3, 3, 4)
	g := newBatch[float64](rng, 9, 9, []int{4}, tm.General) // order 9: past the tiny kernels, which need no copy
	cases := map[string]error{
		"batch shapes": Gesv(a.v, b.v),
		"broadcast a":  Gesv(bcast, must(first(b.v).Reshape(3, 1, 1))),
		"short ipiv":   Getrf(a.v, make([]int32, 3)),
		"strict":       InvTo(g.v, g.v, lapis.Strict(true)),
		"overlap":      Gesv(a.v, must(a.v.Slice(1, 0, 1, 1))),
	}
	for name, err := range cases {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
		var be *Error
		if errors.As(err, &be) {
			t.Errorf("%s: a per-matrix error for an argument error: %v", name, err)
		}
	}
	if !errors.Is(cases["strict"], lapis.ErrCopyRefused) {
		t.Errorf("strict: %v", cases["strict"])
	}
}

// TestBatchEdgeCases: Gemm with k = 0 and an a without elements (c =
// beta c), Gemm over nine batch axes that do not merge, argument errors
// of Gesv and InvTo before anything is written (strict mode too), and
// Geqrf's tau inside a refused as overlap.
func TestBatchEdgeCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	// k = 0 with a's batch strides not 0: a has no elements (nil pointer),
	// c = beta c.
	at, _ := views.Zeros[float64](2, 4, 2, 3)
	a0 := must(must(at.View().Permute(0, 1, 3, 2)).Slice(1, 0, 0, 1))
	b0, _ := views.Zeros[float64](0, 2, 3, 2)
	c := compact(rng, 2, 2, 3, 2)
	want := slices.Clone(c.buf)
	for i := range want {
		want[i] *= 2
	}
	if err := Gemm(1, a0, b0.View(), 2, c.v); err != nil || !slices.Equal(c.buf, want) {
		t.Fatalf("Gemm with k = 0: %v", err)
	}
	// Nine batch axes that do not merge run on the Go kernel path.
	shape := []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}
	perm := []int{0, 1, 10, 9, 8, 7, 6, 5, 4, 3, 2}
	x := compact(rng, shape...)
	y := compact(rng, shape...)
	z, _ := views.Zeros[float64](shape...)
	xv, yv := must(x.v.Permute(perm...)), must(y.v.Permute(perm...))
	zv := must(z.View().Permute(perm...))
	if err := Gemm(1, xv, yv, 0, zv); err != nil {
		t.Fatalf("nine batch axes: %v", err)
	}
	xs, ys, zs := flatMatrices(xv), flatMatrices(yv), flatMatrices(zv)
	for i := range zs {
		tm.Close(t, fmt.Sprintf("nine batch axes, matrix %d", i), zs[i], xs[i].Mul(ys[i]), tol[float64](2))
	}
	// Argument errors of Solve and Inv come before anything is written.
	ar := newBatch[float64](rng, 3, 3, []int{2}, tm.RowPacked)
	before := slices.Clone(ar.buf)
	if err := Gesv(ar.v, newBatch[float64](rng, 4, 1, []int{2}, tm.ColPacked).v); err == nil {
		t.Fatal("Solve with 4 rows of b: no error")
	}
	g := newBatch[float64](rng, 3, 1, []int{2}, tm.General)
	if err := Gesv(ar.v, g.v, lapis.Strict(true)); !errors.Is(err, lapis.ErrCopyRefused) {
		t.Fatalf("strict Solve with a General b: %v", err)
	}
	rect := newBatch[float64](rng, 3, 4, []int{2}, tm.ColPacked)
	rbefore := slices.Clone(rect.buf)
	if err := InvTo(rect.v, rect.v); err == nil {
		t.Fatal("Inv of 3x4 matrices: no error")
	}
	same := func(x, y float64) bool { return x == y || x != x && y != y }
	if !slices.EqualFunc(before, ar.buf, same) || !slices.EqualFunc(rbefore, rect.buf, same) {
		t.Fatal("a refused call wrote its input")
	}
	// A vector output inside the batch.
	d := []float64{1, 2, 3, 4, 99}
	qa, _ := views.FromSlice(d, must(layout.ColMajor(1, 1, 4)))
	if err := Geqrf(qa, d[1:5]); !errors.Is(err, layout.ErrOverlap) {
		t.Fatalf("QR with tau inside a: %v", err)
	}
}
