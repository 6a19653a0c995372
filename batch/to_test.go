package batch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// toLayouts are the layouts the out-of-place tests put inputs and
// destinations in: compact column-major, row-major matrices, the batch
// axis innermost, and a strided view inside NaN padding (every other
// matrix of a larger, padded storage).
var toLayouts = []string{"compact", "rowmajor", "inner", "strided"}

// toBatch returns a view [n, c, count] in layout kind over a new slice
// (returned too) filled with NaN, its elements set from val(i, j, m).
func toBatch[T Scalar](kind string, n, c, count int, val func(i, j, m int) T) (views.View[T], []T) {
	var (
		data []T
		v    views.View[T]
	)
	switch kind {
	case "compact":
		data = make([]T, n*c*count)
		v = must(views.FromColMajor(data, n, c, count)).View()
	case "rowmajor":
		data = make([]T, n*c*count)
		v = must(must(views.FromColMajor(data, c, n, count)).View().Permute(1, 0, 2))
	case "inner":
		data = make([]T, n*c*count)
		v = must(must(views.FromColMajor(data, count, n, c)).View().Permute(1, 2, 0))
	case "strided":
		data = make([]T, (n+2)*(c+1)*(2*count+1))
		s := must(views.FromColMajor(data, n+2, c+1, 2*count+1)).View()
		v = must(must(must(s.Slice(0, 1, n+1, 1)).Slice(1, 0, c, 1)).Slice(2, 1, 1+2*count, 2))
	}
	for i := range data {
		data[i] = tm.NaN[T]()
	}
	for m := range count {
		for j := range c {
			for i := range n {
				v.Set(val(i, j, m), i, j, m)
			}
		}
	}
	return v, data
}

// sameBits reports whether x and y hold the same bits (NaN padding
// included).
func sameBits[T Scalar](x, y []T) bool {
	size := int(unsafe.Sizeof(*new(T)))
	if len(x) != len(y) {
		return false
	}
	if len(x) == 0 {
		return true
	}
	return slices.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), len(x)*size), unsafe.Slice((*byte)(unsafe.Pointer(&y[0])), len(y)*size))
}

// toCase is one out-of-place operation: run calls the To form on
// (dst, inputs), ref the in-place form on a copy (ref's destination,
// made in the same layout and filled with the input it replaces).
type toCase[T Scalar] struct {
	name string
	run  func(dst views.View[T], in []views.View[T]) error
	ref  func(dst views.View[T], in []views.View[T]) error
}

func toCases[T Scalar]() []toCase[T] {
	return []toCase[T]{
		{"solve", // in: a, b; dst has b's shape
			func(x views.View[T], in []views.View[T]) error { return SolveTo(x, in[0], in[1]) },
			func(x views.View[T], in []views.View[T]) error {
				lu := in[0].ToColMajor()
				defer lu.Release()
				return Gesv(lu.View(), x)
			}},
		{"inv", // in: a
			func(d views.View[T], in []views.View[T]) error { return InvTo(d, in[0]) },
			func(d views.View[T], _ []views.View[T]) error { return InvTo(d, d) }},
		{"cholesky-lower", // in: a
			func(d views.View[T], in []views.View[T]) error { return CholeskyTo(Lower, d, in[0]) },
			func(d views.View[T], _ []views.View[T]) error { return choleskyRef(Lower, d) }},
		{"cholesky-upper",
			func(d views.View[T], in []views.View[T]) error { return CholeskyTo(Upper, d, in[0]) },
			func(d views.View[T], _ []views.View[T]) error { return choleskyRef(Upper, d) }},
		{"cholsolve", // in: f, b; dst has b's shape
			func(x views.View[T], in []views.View[T]) error { return CholeskySolveTo(Lower, x, in[0], in[1]) },
			func(x views.View[T], in []views.View[T]) error { return Potrs(Lower, in[0], x) }},
	}
}

// choleskyRef is CholeskyTo in place: Cholesky, then zeros in the other
// strict triangle.
func choleskyRef[T Scalar](uplo Uplo, d views.View[T]) error {
	err := Potrf(uplo, d)
	eachMatrix(d, func(m views.View[T]) {
		n := m.Layout().Dim(0)
		for j := range n {
			for i := range n {
				if uplo == Lower && i < j || uplo == Upper && i > j {
					m.Set(0, i, j)
				}
			}
		}
	})
	return err
}

// TestTo runs SolveTo, InvTo, CholeskyTo and CholeskySolveTo against the
// in-place forms on a copy in the destination's layout, bit for bit
// (the destination's whole storage, its NaN padding included), for
// every order the tiny kernels take and one they do not (per-matrix
// path), inputs and destinations in each layout (the destination in the
// input's layout and in another), batch sizes 0, 1 and 13 (not a
// multiple of the lanes), with a singular matrix (index 5), a nearly
// singular one (index 7: a candidate of the conditioning check) and,
// for Cholesky, one that is not positive definite (index 9): the same
// failed indices and kinds. The inputs must come back bit for bit.
func TestTo(t *testing.T) {
	tm.ForTypes(t, testTo[float32], testTo[float64], testTo[complex64], testTo[complex128])
}

func testTo[T Scalar](t *testing.T) {
	oneThread(t)
	rng := rand.New(rand.NewPCG(14, uint64(len(t.Name()))))
	orders := []int{2, 3, 4, 5, 6, 7, 8, 11}
	if tm.IsComplex[T]() {
		orders = []int{2, 5, 11}
	}
	for _, n := range orders {
		for _, count := range []int{0, 1, 13} {
			for li, lin := range toLayouts {
				for _, lout := range []string{lin, toLayouts[(li+1)%len(toLayouts)]} {
					name := fmt.Sprintf("n=%d/count=%d/in=%s/out=%s", n, count, lin, lout)
					testToCase[T](t, rng, name, n, count, lin, lout)
				}
			}
		}
	}
}

// toInputs makes the inputs of case c: SPD matrices (bad ones at 5, 7
// and 9 modulo 20), right-hand sides with 2 columns, and for
// cholsolve the factor of the SPD matrices.
func toInputs[T Scalar](t *testing.T, rng *rand.Rand, c string, n, count int, kind string) (in []views.View[T], data [][]T) {
	spd := make([]T, n*n*count)
	for m := range count {
		tinySPD(rng, n, func(i, j int, v float64) { spd[i+j*n+m*n*n] = T(tm.FromParts[T](v, 0)) })
	}
	bad := func(i, j, m int) T {
		x := spd[i+j*n+m*n*n]
		switch {
		case m%20 == 5 && c != "cholsolve": // singular: all ones
			return tm.FromParts[T](1, 0)
		case m%20 == 7 && c != "cholsolve" && j == 1: // column 1 near column 0
			return spd[i+m*n*n] * tm.FromParts[T](1+4*scalar.Eps[T]()*float64(i%2), 0)
		case m%20 == 9 && i == j && c != "cholsolve": // not positive definite
			return -x
		}
		return x
	}
	a, ad := toBatch(kind, n, n, count, bad)
	rhs := make([]T, n*2*count)
	for i := range rhs {
		rhs[i] = tm.Random[T](rng)
	}
	b, bd := toBatch(kind, n, 2, count, func(i, j, m int) T { return rhs[i+j*n+m*n*2] })
	switch c {
	case "solve":
		return []views.View[T]{a, b}, [][]T{ad, bd}
	case "cholsolve":
		if err := Potrf(Lower, a); err != nil {
			t.Fatalf("factor: %v", err)
		}
		return []views.View[T]{a, b}, [][]T{ad, bd}
	}
	return []views.View[T]{a}, [][]T{ad}
}

func testToCase[T Scalar](t *testing.T, rng *rand.Rand, name string, n, count int, lin, lout string) {
	for _, c := range toCases[T]() {
		what := name + "/" + c.name
		seed := rng.Uint64()
		in, data := toInputs[T](t, rand.New(rand.NewPCG(seed, 1)), c.name, n, count, lin)
		saved := make([][]T, len(data))
		for i := range data {
			saved[i] = slices.Clone(data[i])
		}
		out := in[len(in)-1] // the input whose shape the destination has
		cols := out.Layout().Dim(1)
		mk := func() (views.View[T], []T) {
			return toBatch(lout, n, cols, count, func(i, j, m int) T { return out.At(i, j, m) })
		}
		dst, dd := mk()
		ref, rd := mk()
		errGot := c.run(dst, in)
		for i := range data {
			if !sameBits(data[i], saved[i]) {
				t.Fatalf("%s: input %d changed", what, i)
			}
		}
		errRef := c.ref(ref, in)
		if !sameBits(dd, rd) {
			t.Fatalf("%s: the destination differs from the in-place form on a copy", what)
		}
		sameFailures(t, what, errGot, errRef)
		if count == 13 && (c.name == "solve" || c.name == "inv") {
			var be *Error
			if !errors.As(errGot, &be) || be.Failed[5] == nil || !errors.Is(be.Failed[5], lapack.ErrSingular) {
				t.Errorf("%s: %v, want matrix 5 singular", what, errGot)
			}
		}
		if count == 13 && c.name == "cholesky-lower" {
			var be *Error
			if !errors.As(errGot, &be) || be.Failed[9] == nil || !errors.Is(be.Failed[9], lapack.ErrNotPositiveDefinite) {
				t.Errorf("%s: %v, want matrix 9 not positive definite", what, errGot)
			}
		}
	}
}

// sameFailures checks that got and want fail for the same matrices with
// the same kinds of error (their Op differs: the To form's name).
func sameFailures(t *testing.T, what string, got, want error) {
	t.Helper()
	var g, w *Error
	if errors.As(got, &g) != errors.As(want, &w) || (g == nil) != (got == nil) || (w == nil) != (want == nil) {
		t.Fatalf("%s: error %v, in place %v", what, got, want)
	}
	if g == nil {
		return
	}
	if len(g.Failed) != len(w.Failed) || !slices.Equal(g.Shape, w.Shape) {
		t.Fatalf("%s: failed %v, in place %v", what, got, want)
	}
	for k, e := range w.Failed {
		ge := g.Failed[k]
		if ge == nil {
			t.Fatalf("%s: matrix %d fails in place (%v), not out of place", what, k, e)
		}
		for _, s := range []error{lapack.ErrSingular, lapack.ErrIllConditioned, lapack.ErrNotPositiveDefinite} {
			if errors.Is(ge, s) != errors.Is(e, s) {
				t.Fatalf("%s: matrix %d: %v, in place %v", what, k, ge, e)
			}
		}
		if ge.Info != e.Info || ge.Rcond != e.Rcond {
			t.Fatalf("%s: matrix %d: %+v, in place %+v", what, k, ge, e)
		}
	}
}

// TestToAlias: a destination that is exactly its input runs the
// operation in place (CholeskyTo then zeros the other triangle too).
func TestToAlias(t *testing.T) {
	oneThread(t)
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{3, 8, 11} {
		for _, c := range toCases[float64]() {
			for _, lin := range toLayouts {
				what := fmt.Sprintf("n=%d/%s/%s", n, lin, c.name)
				seed := rng.Uint64()
				in, data := toInputs[float64](t, rand.New(rand.NewPCG(seed, 1)), c.name, n, 13, lin)
				rin, rdata := toInputs[float64](t, rand.New(rand.NewPCG(seed, 1)), c.name, n, 13, lin)
				last := len(in) - 1
				errGot := c.run(in[last], in)
				errRef := c.ref(rin[last], rin)
				for i := range data {
					if !sameBits(data[i], rdata[i]) {
						t.Fatalf("%s: operand %d differs from the in-place form", what, i)
					}
				}
				sameFailures(t, what, errGot, errRef)
			}
		}
	}
}

// TestToErrors: a destination that overlaps an input without being it,
// or has the wrong shape, is refused with an error naming it (and the
// input), and nothing is written.
func TestToErrors(t *testing.T) {
	const n, count = 4, 6
	store := make([]float64, n*n*(count+1)+n*2*(count+1))
	for i := range store {
		store[i] = float64(i%7) + 1
	}
	saved := slices.Clone(store)
	mats := must(views.FromColMajor(store[:n*n*(count+1)], n, n, count+1)).View()
	rhs := must(views.FromColMajor(store[n*n*(count+1):], n, 2, count+1)).View()
	a := must(mats.Slice(2, 0, count, 1))
	shifted := must(mats.Slice(2, 1, count+1, 1)) // a moved by one matrix
	b := must(rhs.Slice(2, 0, count, 1))
	bShifted := must(rhs.Slice(2, 1, count+1, 1))
	other := must(views.Zeros[float64](n, n, count)).View()
	otherB := must(views.Zeros[float64](n, 2, count)).View()
	wrong := must(views.Zeros[float64](n, n, count+1)).View()
	for _, tc := range []struct {
		name      string
		err       error
		sentinel  error
		arg, with string
	}{
		{"inv overlap", InvTo(shifted, a), layout.ErrOverlap, "dst", "a"},
		{"cholesky overlap", CholeskyTo(Lower, shifted, a), layout.ErrOverlap, "dst", "a"},
		{"solve overlap b", SolveTo(bShifted, a, b), layout.ErrOverlap, "x", "b"},
		{"solve x on a", SolveTo(must(must(mats.Slice(1, 0, 2, 1)).Slice(2, 0, count, 1)), a, b), layout.ErrOverlap, "x", "a"},
		{"cholsolve overlap b", CholeskySolveTo(Lower, bShifted, a, b), layout.ErrOverlap, "x", "b"},
		{"cholsolve x on f", CholeskySolveTo(Lower, must(must(mats.Slice(1, 0, 2, 1)).Slice(2, 0, count, 1)), a, b), layout.ErrOverlap, "x", "f"},
		{"inv shape", InvTo(wrong, a), layout.ErrShape, "dst", "a"},
		{"cholesky shape", CholeskyTo(Upper, wrong, a), layout.ErrShape, "dst", "a"},
		{"solve shape", SolveTo(other, a, b), layout.ErrShape, "x", "b"},
		{"cholsolve shape", CholeskySolveTo(Lower, other, a, b), layout.ErrShape, "x", "b"},
		{"cholesky uplo", CholeskyTo(Uplo(99), other, a), lapis.ErrInvalid, "uplo", ""},
		{"solve ok", SolveTo(otherB, a, b, lapis.NoConditionCheck()), nil, "", ""},
	} {
		if tc.sentinel == nil {
			var be *Error
			if tc.err != nil && !errors.As(tc.err, &be) {
				t.Errorf("%s: %v", tc.name, tc.err)
			}
			continue
		}
		var le *layout.Error
		if !errors.Is(tc.err, tc.sentinel) || !errors.As(tc.err, &le) || le.Arg != tc.arg {
			t.Errorf("%s: %v, want %v on %s", tc.name, tc.err, tc.sentinel, tc.arg)
			continue
		}
		if le.Op == "" || tc.with != "" && !containsWord(tc.err.Error(), tc.with) {
			t.Errorf("%s: %v does not name %s", tc.name, tc.err, tc.with)
		}
	}
	if !sameBits(store, saved) {
		t.Errorf("a refused call wrote")
	}
	// Strict mode refuses a row-major x as Solve refuses a row-major b,
	// on the tiny path too.
	xr := must(must(views.Zeros[float64](2, n, count)).View().Permute(1, 0, 2))
	err := SolveTo(xr, a, b, lapis.Strict(true))
	var le *layout.Error
	if !errors.Is(err, lapis.ErrCopyRefused) || !errors.As(err, &le) || le.Arg != "x" {
		t.Errorf("strict SolveTo into a row-major x: %v, want a refusal naming x", err)
	}
}

// containsWord reports whether s contains w as a word.
func containsWord(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i:i+len(w)] == w && (i == 0 || !isLetter(s[i-1])) && (i+len(w) == len(s) || !isLetter(s[i+len(w)])) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// TestToWorkers: a batch large enough to be split over 3 workers (order
// 8, 3300 matrices, one in ten singular or not positive definite: enough
// that the slow path runs on several workers too) gives the same bits on
// 1, 2 and 3 workers, in the compact and innermost layouts.
func TestToWorkers(t *testing.T) {
	oneThread(t)
	const n, count = 8, 3300
	for _, lin := range []string{"compact", "inner"} {
		for _, c := range toCases[float64]() {
			var want []float64
			var wantErr error
			for _, w := range []int{1, 2, 3} {
				prev, _ := lapis.SetWorkers(w)
				in, _ := toInputs[float64](t, rand.New(rand.NewPCG(8, 8)), c.name, n, count, lin)
				out := in[len(in)-1]
				dst, dd := toBatch("compact", n, out.Layout().Dim(1), count, func(i, j, m int) float64 { return out.At(i, j, m) })
				err := c.run(dst, in)
				lapis.SetWorkers(prev)
				what := fmt.Sprintf("%s/%s/workers=%d", lin, c.name, w)
				if w == 1 {
					want, wantErr = dd, err
					continue
				}
				if !sameBits(dd, want) {
					t.Fatalf("%s: differs from one worker", what)
				}
				sameFailures(t, what, err, wantErr)
			}
		}
	}
}

// TestToDirect checks which path the out-of-place forms take on the
// tiny kernels: one pass (the kernels read the input and write the
// destination, no staging copy) when the destination has its input's
// strides (and, for SolveTo, a is read with whole vectors), but for
// batches whose batch axis has stride 1 and whose destination matrices
// have 36 elements or more (direct: inv from order 6; cholesky is direct
// there too); the staged copy otherwise. The results are TestTo's.
func TestToDirect(t *testing.T) {
	const count = 40
	for _, n := range []int{4, 6} {
		for _, c := range toCases[float64]() {
			for _, lin := range toLayouts {
				for _, lout := range toLayouts {
					in, _ := toInputs[float64](t, rand.New(rand.NewPCG(1, 2)), c.name, n, count, lin)
					out := in[len(in)-1]
					dst, _ := toBatch(lout, n, out.Layout().Dim(1), count, func(i, j, m int) float64 { return 0 })
					before := tinyDirectRuns.Load()
					_ = c.run(dst, in) // failures: TestTo's
					ran := tinyDirectRuns.Load() != before
					want := lin == lout && (c.name != "solve" || lin != "strided") && (lin != "inner" || n < 6 || c.name != "inv")
					if ran != want {
						t.Errorf("n=%d %s: in=%s out=%s: direct %v, want %v", n, c.name, lin, lout, ran, want)
					}
				}
			}
		}
	}
}
