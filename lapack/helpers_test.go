package lapack

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// The non-destructive helpers: correct results, inputs untouched (padding
// and values), no copies counted for BLAS-addressable inputs.

func TestHelpers(t *testing.T) {
	tm.ForTypes(t, testHelpers[float32], testHelpers[float64], testHelpers[complex64], testHelpers[complex128])
}

// untouched checks that o still holds want and its padding.
func untouched[T Scalar](t *testing.T, what string, o tm.Operand[T], want tm.M) {
	t.Helper()
	o.CheckPadding(t, what)
	got := tm.Of(o.V)
	if !slices.Equal(got.D, want.D) {
		t.Fatalf("%s: the input changed", what)
	}
}

func testHelpers[T Scalar](t *testing.T) {
	rng := newRand(t)
	for _, n := range []int{0, 1, 5, 30} {
		for k := range tm.NumKinds {
			what := fmt.Sprintf("n=%d %v", n, k)
			a := tm.New[T](rng, n, n, k)
			am := tm.Of(a.V)
			for _, vec := range []bool{false, true} {
				var b tm.Operand[T]
				var bv views.View[T]
				if vec {
					b = tm.New[T](rng, n, 1, tm.RowStrided)
					bv, _ = b.V.Index(1, 0) // a strided vector
				} else {
					b = tm.New[T](rng, n, 3, tm.Reversed)
					bv = b.V
				}
				bm := tm.Of(b.V)
				var x *views.Tensor[T]
				var err error
				c := copies(func() { x, err = Solve(a.V, bv) })
				if err != nil {
					t.Fatal(what, err)
				}
				if c != 0 {
					t.Fatalf("Solve %s: %d copies counted", what, c)
				}
				if !slices.Equal(x.Shape(), bv.Shape()) {
					t.Fatalf("Solve %s: shape %v, want %v", what, x.Shape(), bv.Shape())
				}
				untouched(t, "Solve a "+what, a, am)
				untouched(t, "Solve b "+what, b, bm)
				residual[T](t, "Solve "+what, am, tm.Of(x.View()), bm)
				x.Release()
			}

			inv, err := Inv(a.V)
			if err != nil {
				t.Fatal(err)
			}
			untouched(t, "Inv "+what, a, am)
			tm.Close(t, "Inv "+what, am.Mul(tm.Of(inv.View())), tm.Eye(n), tol[T](n)*max(1, am.Norm()*tm.Of(inv.View()).Norm()))

			det, err := Det(a.V)
			if err != nil {
				t.Fatal(err)
			}
			untouched(t, "Det "+what, a, am)
			want := refDet(am)
			if d := cmplx.Abs(scalar.Complex128(det) - want); d > tol[T](n)*max(1, cmplx.Abs(want))*math.Pow(1+am.Norm(), 0) {
				t.Fatalf("Det %s: %v, want %v", what, det, want)
			}
			conjDet, _ := Det(a.V.Conj())
			if d := cmplx.Abs(scalar.Complex128(conjDet) - cmplx.Conj(want)); d > tol[T](n)*max(1, cmplx.Abs(want)) {
				t.Fatalf("Det of conj %s: %v, want %v", what, conjDet, cmplx.Conj(want))
			}

			perm, l, u, err := LU(a.V)
			if err != nil {
				t.Fatal(err)
			}
			untouched(t, "LU "+what, a, am)
			pa := tm.Zeros(n, n)
			for i := range n {
				for j := range n {
					pa.Set(i, j, am.At(perm[i], j))
				}
			}
			tm.Close(t, "LU "+what, tm.Of(l.View()).Mul(tm.Of(u.View())), pa, tol[T](n))

			q, r, err := QR(a.V)
			if err != nil {
				t.Fatal(err)
			}
			untouched(t, "QR "+what, a, am)
			tm.Close(t, "QR "+what, tm.Of(q.View()).Mul(tm.Of(r.View())), am, tol[T](n))

			for _, opts := range [][]lapis.Option{nil, {lapis.QRIteration()}} {
				s, u, vt, err := SVD(a.V, opts...)
				if err != nil {
					t.Fatal(err)
				}
				untouched(t, "SVD "+what, a, am)
				us := tm.Of(u.View())
				for j := range s {
					for i := range n {
						us.Set(i, j, us.At(i, j)*complex(s[j], 0))
					}
				}
				tm.Close(t, fmt.Sprintf("SVD %s %v", what, opts), us.Mul(tm.Of(vt.View())), am, tol[T](n))
			}

			h := am.Add(am.H())
			ho := tm.From[T](h, k)
			hm := tm.Of(ho.V)
			w, v, err := EigSym(ho.V)
			if err != nil {
				t.Fatal(err)
			}
			untouched(t, "EigSym "+what, ho, hm)
			checkEigSym[T](t, "EigSym "+what, hm, w, tm.Of(v.View()))

			pd := tm.From[T](spd[T](rng, n), k)
			pdm := tm.Of(pd.V)
			chol, err := Cholesky(pd.V)
			if err != nil {
				t.Fatal(err)
			}
			untouched(t, "Cholesky "+what, pd, pdm)
			lm := tm.Of(chol.View())
			if !slices.Equal(triangle(lm, cblas.Lower).D, lm.D) {
				t.Fatalf("Cholesky %s: not lower triangular", what)
			}
			tm.Close(t, "Cholesky "+what, lm.Mul(lm.H()), pdm, tol[T](n))

			ew, ev, err := Eig(a.V)
			if err != nil {
				t.Fatal(err)
			}
			untouched(t, "Eig "+what, a, am)
			vm := tm.Of(ev.View())
			for j, lambda := range ew {
				col := vm.Cols(j, j+1)
				av := am.Mul(col)
				for i := range col.D {
					col.D[i] *= lambda
				}
				tm.Close(t, fmt.Sprintf("Eig %s (%d)", what, j), av, col, tol[T](n)*max(1, am.Norm()))
			}
		}
	}
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {9, 4}, {4, 9}} {
		m, n := sz[0], sz[1]
		for _, k := range []tm.Kind{tm.ColPacked, tm.RowStrided, tm.General} {
			a, b := tm.New[T](rng, m, n, k), tm.New[T](rng, m, 2, tm.RowPacked)
			am, bm := tm.Of(a.V), tm.Of(b.V)
			x, err := LeastSquares(a.V, b.V)
			if err != nil {
				t.Fatal(err)
			}
			untouched(t, "LeastSquares a", a, am)
			untouched(t, "LeastSquares b", b, bm)
			checkLeastSquares[T](t, fmt.Sprintf("LeastSquares %dx%d %v", m, n, k), am, tm.Of(x.View()), bm)
			s, u, vt, err := SVD(a.V)
			if err != nil {
				t.Fatal(err)
			}
			if len(s) != min(m, n) || !slices.Equal(u.Shape(), []int{m, min(m, n)}) || !slices.Equal(vt.Shape(), []int{min(m, n), n}) {
				t.Fatalf("SVD %dx%d: shapes %d %v %v", m, n, len(s), u.Shape(), vt.Shape())
			}
			q, r, err := QR(a.V)
			if err != nil {
				t.Fatal(err)
			}
			tm.Close(t, fmt.Sprintf("QR %dx%d", m, n), tm.Of(q.View()).Mul(tm.Of(r.View())), am, tol[T](max(m, n)))
			perm, l, uu, err := LU(a.V)
			if err != nil {
				t.Fatal(err)
			}
			pa := tm.Zeros(m, n)
			for i := range m {
				for j := range n {
					pa.Set(i, j, am.At(perm[i], j))
				}
			}
			tm.Close(t, fmt.Sprintf("LU %dx%d", m, n), tm.Of(l.View()).Mul(tm.Of(uu.View())), pa, tol[T](max(m, n)))
		}
	}
}

// refDet is the determinant by Laplace expansion for n <= 5, and by
// Gaussian elimination with partial pivoting in complex128 otherwise.
func refDet(a tm.M) complex128 {
	n := a.R
	m := tm.Zeros(n, n)
	copy(m.D, a.D)
	det := complex(1, 0)
	for j := range n {
		p := j
		for i := j + 1; i < n; i++ {
			if cmplx.Abs(m.At(i, j)) > cmplx.Abs(m.At(p, j)) {
				p = i
			}
		}
		if p != j {
			for c := range n {
				x, y := m.At(j, c), m.At(p, c)
				m.Set(j, c, y)
				m.Set(p, c, x)
			}
			det = -det
		}
		d := m.At(j, j)
		det *= d
		if d == 0 {
			return 0
		}
		for i := j + 1; i < n; i++ {
			f := m.At(i, j) / d
			for c := j; c < n; c++ {
				m.Set(i, c, m.At(i, c)-f*m.At(j, c))
			}
		}
	}
	return det
}

func TestLogDet(t *testing.T) {
	// A 300 x 300 diagonal of 10s: the determinant overflows float32 and
	// float64 alike, its logarithm does not.
	n := 300
	d, _ := views.Zeros[float32](n, n)
	for i := range n {
		d.Set(-10, i, i)
	}
	logAbs, sign, err := LogDet(d.View())
	if err != nil || sign != 1 || math.Abs(logAbs-float64(n)*math.Log(10)) > 1e-3 {
		t.Fatalf("LogDet: %g, %v, %v", logAbs, sign, err)
	}
	sing, _ := views.Zeros[complex128](3, 3)
	logAbs, sign2, err := LogDet(sing.View())
	if err != nil || sign2 != 0 || !math.IsInf(logAbs, -1) {
		t.Fatalf("LogDet of a singular matrix: %g, %v, %v", logAbs, sign2, err)
	}
	det, err := Det(sing.View())
	if err != nil || det != 0 {
		t.Fatalf("Det of a singular matrix: %v, %v", det, err)
	}
}

func TestHelperErrors(t *testing.T) {
	sing, _ := views.FromColMajor([]float64{1, 2, 2, 4}, 2, 2)
	b, _ := views.FromColMajor([]float64{1, 2}, 2)
	if _, err := Solve(sing.View(), b.View()); !errors.Is(err, ErrSingular) {
		t.Fatalf("Solve: %v", err)
	}
	if !slices.Equal(sing.Data(), []float64{1, 2, 2, 4}) || !slices.Equal(b.Data(), []float64{1, 2}) {
		t.Fatalf("a failed Solve changed its inputs: %v %v", sing.Data(), b.Data())
	}
	if _, err := Inv(sing.View()); !errors.Is(err, ErrSingular) {
		t.Fatalf("Inv: %v", err)
	}
	if _, err := Cholesky(sing.View()); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Fatalf("Cholesky: %v", err)
	}
	rect, _ := views.Zeros[float64](2, 3)
	if _, err := Solve(rect.View(), b.View()); !errors.Is(err, layout.ErrShape) {
		t.Fatalf("Solve of a 2x3: %v", err)
	}
	b3, _ := views.Zeros[float64](3)
	if _, err := Solve(sing.View(), b3.View()); !errors.Is(err, layout.ErrShape) {
		t.Fatalf("Solve with 3 rows of b: %v", err)
	}
	if _, _, err := EigSym(rect.View()); !errors.Is(err, layout.ErrShape) {
		t.Fatalf("EigSym of a 2x3: %v", err)
	}
	if _, _, err := Eig(rect.View()); !errors.Is(err, layout.ErrShape) {
		t.Fatalf("Eig of a 2x3: %v", err)
	}
}

// TestCopyPolicy: a General operand is copied, counted, and refused in
// strict mode (per call and process-wide) with an error naming it, before
// anything is written; a column-major one is never copied.
func TestCopyPolicy(t *testing.T) {
	rng := newRand(t)
	g := tm.New[float64](rng, 4, 4, tm.General)
	before := tm.Of(g.V)
	ipiv := make([]int32, 4)
	err := Getrf(g.V, ipiv, lapis.Strict(true))
	if !errors.Is(err, lapis.ErrCopyRefused) || !errorsMention(err, "a") {
		t.Fatalf("strict Getrf of a General view: %v", err)
	}
	untouched(t, "refused Getrf", g, before)
	prev := lapis.SetStrict(true)
	err = Getrf(g.V, ipiv)
	lapis.SetStrict(prev)
	if !errors.Is(err, lapis.ErrCopyRefused) {
		t.Fatalf("lapis.SetStrict Getrf: %v", err)
	}
	if c := copies(func() { err = Getrf(g.V, ipiv, lapis.Strict(false)) }); err != nil || c != 1 {
		t.Fatalf("Getrf of a General view: %v, %d copies", err, c)
	}
	// A self-overlapping output is refused whatever the mode.
	bc, _ := views.Zeros[float64](4)
	over, _ := bc.View().Reshape(4, 1)
	over, _ = over.BroadcastTo(4, 3)
	if err := Gesv(tm.New[float64](rng, 4, 4, tm.ColPacked).V, over, ipiv); !errors.Is(err, layout.ErrOverlap) {
		t.Fatalf("broadcast b: %v", err)
	}
	// Row-major operands of transposable routines go in place even in
	// strict mode.
	a := tm.New[float64](rng, 6, 6, tm.RowStrided)
	rb := tm.New[float64](rng, 6, 2, tm.ColPacked)
	if err := Trtrs(cblas.Upper, cblas.NonUnit, a.V, rb.V, lapis.Strict(true)); err != nil && !errors.Is(err, ErrSingular) {
		t.Fatalf("strict Trtrs of a row-major view: %v", err)
	}
	calls := lapis.ReadStats().Lapack
	_, _ = Lange(OneNorm, a.V, lapis.Strict(true))
	if lapis.ReadStats().Lapack != calls+1 {
		t.Fatal("Lange did not count its LAPACK call")
	}
}

func errorsMention(err error, arg string) bool {
	var le *layout.Error
	return errors.As(err, &le) && le.Arg == arg
}

// TestSteadyStateAllocs: with column-major operands, repeated calls
// allocate nothing (workspace sizes remembered, buffers pooled).
func TestSteadyStateAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops buffers at random under -race; scripts/test.sh runs this test without it")
	}
	rng := newRand(t)
	n := 40
	a := tm.New[float64](rng, n, n, tm.ColPacked)
	spdA := tm.From[float64](spd[float64](rng, n), tm.ColStrided)
	b := tm.New[float64](rng, n, 3, tm.ColPacked)
	u, vt := tm.Empty[float64](n, n, tm.ColPacked), tm.Empty[float64](n, n, tm.ColPacked)
	ipiv, tau, s := make([]int32, n), make([]float64, n), make([]float64, n)
	z := tm.New[complex128](rng, n, n, tm.ColPacked)
	ws := make([]float64, n)
	// Each call restores its inputs first (copy allocates nothing), so
	// that every run sees valid data whatever ran before it.
	pristine := func(o tm.Operand[float64]) func() {
		keep := slices.Clone(o.Buf)
		return func() { copy(o.Buf, keep) }
	}
	resetA, resetSPD := pristine(a), pristine(spdA)
	keepZ := slices.Clone(z.Buf)
	resetZ := func() { copy(z.Buf, keepZ) }
	calls := map[string]func(){
		"Getrf+Getrs":     func() { resetA(); _ = Getrf(a.V, ipiv); _ = Getrs(Trans, a.V, ipiv, b.V) },
		"Getrf+Getri":     func() { resetA(); _ = Getrf(a.V, ipiv); _ = Getri(a.V, ipiv) },
		"Potrf":           func() { resetSPD(); _ = Potrf(cblas.Lower, spdA.V) },
		"Geqrf":           func() { resetA(); _ = Geqrf(a.V, tau) },
		"Gesdd":           func() { resetA(); _ = Gesdd(JobAll, a.V, s, u.V, vt.V) },
		"Syevd":           func() { resetSPD(); _ = Syevd(JobVectors, cblas.Lower, spdA.V, s) },
		"Syevd (complex)": func() { resetZ(); _ = Syevd(JobVectors, cblas.Upper, z.V, ws) },
		"Lange":           func() { _, _ = Lange(InfNorm, a.V) },
	}
	for name, f := range calls {
		f() // the first call queries the workspace size
		if allocs := testing.AllocsPerRun(5, f); allocs != 0 {
			t.Errorf("%s: %v allocations per call", name, allocs)
		}
	}
}

// TestCholeskySolve: CholeskySolve from Cholesky's factor equals Solve on
// the matrix, for vector and matrix right-hand sides of every layout,
// and leaves l and b as they were; bad shapes are errors.
func TestCholeskySolve(t *testing.T) {
	tm.ForTypes(t, testCholeskySolve[float32], testCholeskySolve[float64], testCholeskySolve[complex64], testCholeskySolve[complex128])
}

func testCholeskySolve[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 4, 33} {
		x := tm.Rand(rng, n, n, !tm.IsComplex[T]())
		p := x.Mul(x.H())
		for i := range n {
			p.Set(i, i, p.At(i, i)+complex(float64(n), 0))
		}
		a := tm.From[T](p, tm.ColPacked)
		l, err := Cholesky(a.V)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range []tm.Kind{tm.ColPacked, tm.RowPacked, tm.General} {
			b := tm.New[T](rng, n, 3, kind)
			keep := b.V.ToColMajor()
			got, err := CholeskySolve(l.View(), b.V)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Solve(a.V, b.V)
			if err != nil {
				t.Fatal(err)
			}
			tm.Close(t, fmt.Sprintf("n=%d %v", n, kind), tm.Of(got.View()), tm.Of(want.View()), 100*float64(n)*scalar.Eps[T]())
			tm.Close(t, "b kept", tm.Of(b.V), tm.Of(keep.View()), 0)
		}
		v := tm.New[T](rng, n, 1, tm.ColPacked)
		vec, _ := v.V.Reshape(n)
		if got, err := CholeskySolve(l.View(), vec); err != nil || got.Rank() != 1 {
			t.Fatalf("n=%d vector b: %v, rank %d", n, err, got.Rank())
		}
	}
	l, _ := views.Zeros[T](3, 3)
	b, _ := views.Zeros[T](4, 1)
	if _, err := CholeskySolve(l.View(), b.View()); !errors.Is(err, layout.ErrShape) {
		t.Errorf("b of 4 rows for l of order 3: %v", err)
	}
}

// TestHelpersOwnBuffers: the helpers make no copy of the buffers they
// allocate themselves (they are allocated with room for the library's
// complex over-read), so a column-major input costs no counted copy and
// strict mode accepts it (QR of a 40 x 25 complex matrix counted 1 copy,
// SVD 3, EigSym 1).
func TestHelpersOwnBuffers(t *testing.T) {
	tm.ForTypes(t, testHelpersOwnBuffers[float32], testHelpersOwnBuffers[float64], testHelpersOwnBuffers[complex64], testHelpersOwnBuffers[complex128])
}

func testHelpersOwnBuffers[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	a := tm.New[T](rng, 40, 25, tm.ColPacked).V
	b := tm.New[T](rng, 40, 2, tm.ColPacked).V
	x := tm.Rand(rng, 25, 25, !tm.IsComplex[T]())
	p := x.Mul(x.H())
	for i := range 25 {
		p.Set(i, i, p.At(i, i)+25)
	}
	h := tm.From[T](p, tm.ColPacked).V
	b25 := tm.New[T](rng, 25, 2, tm.ColPacked).V
	strict := lapis.Strict(true)
	for name, f := range map[string]func() error{
		"QR":              func() error { _, _, err := QR(a, strict); return err },
		"SVD":             func() error { _, _, _, err := SVD(a, strict); return err },
		"SVD QRIteration": func() error { _, _, _, err := SVD(a, strict, lapis.QRIteration()); return err },
		"EigSym":          func() error { _, _, err := EigSym(h, strict); return err },
		"Cholesky":        func() error { _, err := Cholesky(h, strict); return err },
		"Inv":             func() error { _, err := Inv(h, strict); return err },
		"Solve":           func() error { _, err := Solve(h, b25, strict); return err },
		"LeastSquares":    func() error { _, err := LeastSquares(a, b, strict); return err },
		"LU":              func() error { _, _, _, err := LU(a, strict); return err },
		"Det":             func() error { _, err := Det(h, strict); return err },
	} {
		before := lapis.ReadStats().Copies
		if err := f(); err != nil {
			t.Errorf("%s with strict mode: %v", name, err)
			continue
		}
		if d := lapis.ReadStats().Copies - before; d != 0 {
			t.Errorf("%s: %d counted copies of its own buffers, want 0", name, d)
		}
	}
}
