package lapack

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/views"
)

// TestNotFinite: every helper, and every in-place routine that scans
// (Syevd, Syevr, Geev, Gesdd, Gesvd, Gelsd), given a NaN, +Inf or -Inf
// (for complex types also in the imaginary part) at any element it
// reads, returns an error matching lapis.ErrNotFinite that names the
// operand and the element, without calling LAPACK (lapis.ReadStats'
// Lapack count does not move: the scan runs before any routine, whose
// behaviour on such input is undefined; MKL's dgeev crashed the
// process) and with nothing written: the helpers return no result, the
// in-place routines leave every operand as it was. The same value in
// the triangle a call does not read changes nothing.
func TestNotFinite(t *testing.T) {
	tm.ForTypes(t, testNotFinite[float32], testNotFinite[float64], testNotFinite[complex64], testNotFinite[complex128])
}

// finiteCall is a call under TestNotFinite: run calls it on a and b (n x
// n, n x 1) and reports whether it returned no result (helpers: nil
// tensors and slices; in-place routines are checked by comparing their
// operands); a's triangle tri is what it reads of a (0: all).
type finiteCall[T Scalar] struct {
	name    string
	tri     byte
	aName   string // the name a goes by (CholeskySolve's l)
	usesB   bool
	inPlace bool
	run     func(a, b views.View[T]) (empty bool, err error)
}

func finiteCalls[T Scalar](n int) []finiteCall[T] {
	none := func(err error) (bool, error) { return true, err }
	tens := func(ts ...*views.Tensor[T]) bool {
		for _, x := range ts {
			if x != nil {
				return false
			}
		}
		return true
	}
	lower, upper := Lower, Upper
	up := lapis.UpperTriangle()
	scratch := func(rows, cols int) views.View[T] {
		z, _ := views.Zeros[T](rows, cols)
		return z.View()
	}
	return []finiteCall[T]{
		{"Solve", 0, "a", true, false, func(a, b views.View[T]) (bool, error) { x, err := Solve(a, b); return tens(x), err }},
		{"Inv", 0, "a", false, false, func(a, _ views.View[T]) (bool, error) { x, err := Inv(a); return tens(x), err }},
		{"Det", 0, "a", false, false, func(a, _ views.View[T]) (bool, error) { d, err := Det(a); return d == 0, err }},
		{"LogDet", 0, "a", false, false, func(a, _ views.View[T]) (bool, error) {
			l, s, err := LogDet(a)
			return l == 0 && s == 0, err
		}},
		{"Cholesky", 'L', "a", false, false, func(a, _ views.View[T]) (bool, error) { x, err := Cholesky(a); return tens(x), err }},
		{"Cholesky upper", 'U', "a", false, false, func(a, _ views.View[T]) (bool, error) { x, err := Cholesky(a, up); return tens(x), err }},
		{"CholeskySolve", 'L', "l", true, false, func(a, b views.View[T]) (bool, error) {
			x, err := CholeskySolve(a, b)
			return tens(x), err
		}},
		{"LU", 0, "a", false, false, func(a, _ views.View[T]) (bool, error) {
			p, l, u, err := LU(a)
			return p == nil && tens(l, u), err
		}},
		{"QR", 0, "a", false, false, func(a, _ views.View[T]) (bool, error) { q, r, err := QR(a); return tens(q, r), err }},
		{"LeastSquares", 0, "a", true, false, func(a, b views.View[T]) (bool, error) { x, err := LeastSquares(a, b); return tens(x), err }},
		{"SVD", 0, "a", false, false, func(a, _ views.View[T]) (bool, error) {
			s, u, vt, err := SVD(a)
			return s == nil && tens(u, vt), err
		}},
		{"SVD gesvd", 0, "a", false, false, func(a, _ views.View[T]) (bool, error) {
			s, u, vt, err := SVD(a, lapis.QRIteration())
			return s == nil && tens(u, vt), err
		}},
		{"EigSym", 'L', "a", false, false, func(a, _ views.View[T]) (bool, error) { w, v, err := EigSym(a); return w == nil && tens(v), err }},
		{"EigSym upper", 'U', "a", false, false, func(a, _ views.View[T]) (bool, error) {
			w, v, err := EigSym(a, up)
			return w == nil && tens(v), err
		}},
		{"Eig", 0, "a", false, false, func(a, _ views.View[T]) (bool, error) { w, v, err := Eig(a); return w == nil && v == nil, err }},
		{"Syevd", 'L', "a", false, true, func(a, _ views.View[T]) (bool, error) {
			return none(withRealsOf[T](n, func(w32 []float32, w64 []float64) error {
				if w32 != nil {
					return Syevd(JobVectors, lower, a, w32)
				}
				return Syevd(JobVectors, lower, a, w64)
			}))
		}},
		{"Syevr upper", 'U', "a", false, true, func(a, _ views.View[T]) (bool, error) {
			z := scratch(n, n)
			return none(withRealsOf[T](n, func(w32 []float32, w64 []float64) error {
				if w32 != nil {
					_, err := Syevr(JobVectors, upper, AllValues(), a, w32, z)
					return err
				}
				_, err := Syevr(JobVectors, upper, AllValues(), a, w64, z)
				return err
			}))
		}},
		{"Geev", 0, "a", false, true, func(a, _ views.View[T]) (bool, error) {
			vr := scratch(n, n)
			if single[T]() {
				return none(Geev(JobNone, JobVectors, a, make([]complex64, n), views.View[T]{}, vr))
			}
			return none(Geev(JobNone, JobVectors, a, make([]complex128, n), views.View[T]{}, vr))
		}},
		{"Gesdd", 0, "a", false, true, func(a, _ views.View[T]) (bool, error) {
			u, vt := scratch(n, n), scratch(n, n)
			return none(withRealsOf[T](n, func(s32 []float32, s64 []float64) error {
				if s32 != nil {
					return Gesdd(JobSome, a, s32, u, vt)
				}
				return Gesdd(JobSome, a, s64, u, vt)
			}))
		}},
		{"Gesvd", 0, "a", false, true, func(a, _ views.View[T]) (bool, error) {
			u, vt := scratch(n, n), scratch(n, n)
			return none(withRealsOf[T](n, func(s32 []float32, s64 []float64) error {
				if s32 != nil {
					return Gesvd(JobSome, JobSome, a, s32, u, vt)
				}
				return Gesvd(JobSome, JobSome, a, s64, u, vt)
			}))
		}},
		{"Gelsd", 0, "a", true, true, func(a, b views.View[T]) (bool, error) {
			return none(withRealsOf[T](n, func(s32 []float32, s64 []float64) error {
				var err error
				if s32 != nil {
					_, err = Gelsd(a, b, s32, -1)
				} else {
					_, err = Gelsd(a, b, s64, -1)
				}
				return err
			}))
		}},
	}
}

// withRealsOf calls f with n reals of T's precision (the other nil).
func withRealsOf[T Scalar](n int, f func(r32 []float32, r64 []float64) error) error {
	if single[T]() {
		return f(make([]float32, n), nil)
	}
	return f(nil, make([]float64, n))
}

func testNotFinite[T Scalar](t *testing.T) {
	const n = 4
	// a: Hermitian positive definite (diagonally dominant, complex parts
	// off the diagonal); b: a right-hand side.
	clean := func() (a, b *views.Tensor[T]) {
		a, _ = views.Zeros[T](n, n)
		b, _ = views.Zeros[T](n, 1)
		for j := range n {
			for i := range n {
				switch {
				case i == j:
					a.Set(tm.FromParts[T](float64(n+i), 0), i, j)
				case i > j:
					a.Set(tm.FromParts[T](1/float64(1+i+j), 0.25), i, j)
				default:
					a.Set(tm.FromParts[T](1/float64(1+i+j), -0.25), i, j)
				}
			}
			b.Set(tm.FromParts[T](float64(j+1), 0), j, 0)
		}
		return a, b
	}
	bads := []T{tm.FromParts[T](math.NaN(), 0), tm.FromParts[T](math.Inf(1), 0), tm.FromParts[T](math.Inf(-1), 0)}
	if views.IsComplex[T]() {
		bads = append(bads, tm.FromParts[T](1, math.NaN()), tm.FromParts[T](0, math.Inf(-1)))
	}
	for _, c := range finiteCalls[T](n) {
		type where struct {
			arg  string
			i, j int
		}
		var places []where
		for j := range n {
			for i := range n {
				places = append(places, where{c.aName, i, j})
			}
		}
		if c.usesB {
			for i := range n {
				places = append(places, where{"b", i, 0})
			}
		}
		for _, p := range places {
			read := p.arg == "b" || c.tri == 0 || c.tri == 'L' && p.i >= p.j || c.tri == 'U' && p.i <= p.j
			for _, bad := range bads {
				a, b := clean()
				if p.arg == "b" {
					b.Set(bad, p.i, p.j)
				} else {
					a.Set(bad, p.i, p.j)
				}
				a0, b0 := slices.Clone(a.Data()), slices.Clone(b.Data())
				before := lapis.ReadStats().Lapack
				empty, err := c.run(a.View(), b.View())
				calls := lapis.ReadStats().Lapack - before
				name := fmt.Sprintf("%s: %v at %s (%d, %d)", c.name, bad, p.arg, p.i, p.j)
				if !read {
					if err != nil {
						t.Errorf("%s (a triangle it does not read): %v", name, err)
					}
					continue
				}
				var le *Error
				switch {
				case !errors.Is(err, lapis.ErrNotFinite) || !errors.As(err, &le) || le.Arg != p.arg ||
					!strings.Contains(err.Error(), fmt.Sprintf("%s: element (%d, %d)", p.arg, p.i, p.j)):
					t.Errorf("%s: %v, want lapis.ErrNotFinite naming %s's element (%d, %d)", name, err, p.arg, p.i, p.j)
				case calls != 0:
					t.Errorf("%s: %d LAPACK calls, want none", name, calls)
				case !c.inPlace && !empty:
					t.Errorf("%s: a result came back with the error", name)
				case !sameBits(a.Data(), a0) || !sameBits(b.Data(), b0):
					t.Errorf("%s: an operand was written", name)
				}
			}
		}
	}
	// A rank-1 b is named by its one index.
	a, _ := clean()
	b, _ := views.FromColMajor([]T{1, bads[0], 3, 4}, n)
	if _, err := Solve(a.View(), b.View()); !errors.Is(err, lapis.ErrNotFinite) || !strings.Contains(err.Error(), "b: element 1 is") {
		t.Errorf("Solve with a vector b holding a NaN: %v", err)
	}
	// A row-major view is named as the caller sees it (Solve works on
	// its storage, scanned row by row).
	a, b = clean()
	at := a.View().T()
	at.Set(bads[1], 3, 1)
	if _, err := Solve(at, b.View()); !errors.Is(err, lapis.ErrNotFinite) || !strings.Contains(err.Error(), "a: element (3, 1) is") {
		t.Errorf("Solve with a row-major a holding an infinity at (3, 1): %v", err)
	}
}

// TestNotFiniteDirect: the in-place routines that do not scan (the
// direct factorisations and solves: see "NaN and Inf" in the package
// documentation) hand their data to LAPACK as it is: one LAPACK call, no
// error of lapis's.
func TestNotFiniteDirect(t *testing.T) {
	a, _ := views.FromColMajor([]float64{4, 1, math.NaN(), 3}, 2, 2)
	before := lapis.ReadStats().Lapack
	err := Getrf(a.View(), make([]int32, 2))
	if calls := lapis.ReadStats().Lapack - before; calls != 1 || errors.Is(err, lapis.ErrNotFinite) {
		t.Errorf("Getrf with a NaN: %d LAPACK calls, error %v; want the routine's own result", calls, err)
	}
}

// TestNotFiniteResult: a helper whose result comes out with a NaN from
// finite input (an overflow inside LAPACK) says so, naming "result".
func TestNotFiniteResult(t *testing.T) {
	// Back substitution computes x1 = (1 - 1e-300 x2 + 1e-300 x3) / 1e-300
	// with x2 = x3 = +Inf: Inf - Inf.
	h := 1e-300
	a, _ := views.FromColMajor([]float64{h, 0, 0, h, h, 0, -h, 0, h}, 3, 3)
	b, _ := views.FromColMajor([]float64{1, math.MaxFloat64, math.MaxFloat64}, 3)
	x, err := Solve(a.View(), b.View(), lapis.NoConditionCheck())
	var le *Error
	if x != nil || !errors.Is(err, lapis.ErrNotFinite) || !errors.As(err, &le) || le.Arg != "result" {
		t.Errorf("Solve overflowing to NaN from finite input: %v, want lapis.ErrNotFinite naming the result", err)
	}
}

// single reports whether T is of single precision.
func single[T Scalar]() bool { n := tm.TypeName[T](); return n == "float32" || n == "complex64" }
