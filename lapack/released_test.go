package lapack

import (
	"errors"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/test/stale"
	"github.com/lapis-go/lapis/views"
)

// TestReleasedSolve: a view of a released tensor whose buffer a new
// FromRows took from the pool would be solved with the new tensor's
// values (the identity's solve, nil error) if nothing checked it; Solve
// refuses it naming a, and b and the new tensor are unchanged.
func TestReleasedSolve(t *testing.T) {
	a, err := views.FromRows([][]float64{{4, 1}, {2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	av := a.View()
	a.Release()
	eye, err := views.FromRows([][]float64{{1, 0}, {0, 1}}) // reuses a's buffer
	if err != nil {
		t.Fatal(err)
	}
	defer eye.Release()
	if !raceEnabled && &av.Data()[0] != &eye.Data()[0] {
		t.Log("the pool did not hand a's buffer to the next tensor; the check is tested all the same")
	}
	b, err := views.FromRows([][]float64{{5}, {6}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	x, err := Solve(av, b.View())
	if !errors.Is(err, lapis.ErrReleased) || x != nil {
		t.Fatalf("Solve(view of released a, b) = %v, %v; want nil and an error matching lapis.ErrReleased", x, err)
	}
	const want = "lapack.Solve: a: a view of a released tensor (Release was called; its buffer may belong to another tensor now) (use after Release)"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if !slices.Equal(b.Data(), []float64{5, 6}) || !slices.Equal(eye.Data(), []float64{1, 0, 0, 1}) {
		t.Errorf("b %v, the new tensor %v: changed", b.Data(), eye.Data())
	}
	// A view made from the released tensor itself is refused alike.
	if _, err := Solve(a.View(), b.View()); !errors.Is(err, lapis.ErrReleased) {
		t.Errorf("Solve(a.View() after Release) = %v, want lapis.ErrReleased", err)
	}
}

// TestReleasedViews: every entry point refuses a view of a released
// tensor in each of its view arguments (naming it, nothing written), and
// takes views of live tensors and of slices as before.
func TestReleasedViews(t *testing.T) {
	m, v := []int{4, 4}, []int{4}
	piv := func() []int32 { return []int32{1, 2, 3, 4} }
	type V = []views.View[float64]
	w := make([]float64, 4)
	calls := []stale.Call[float64]{
		stale.Of("Lange", []string{"a"}, [][]int{m}, func(a V) error { _, err := Lange(OneNorm, a[0]); return err }),
		stale.Of("Gecon", []string{"lu"}, [][]int{m}, func(a V) error { _, err := Gecon(OneNorm, a[0], 1); return err }),
		stale.Of("Pocon", []string{"f"}, [][]int{m}, func(a V) error { _, err := Pocon(Upper, a[0], 1); return err }),
		stale.Of("Syevd", []string{"a"}, [][]int{m}, func(a V) error { return Syevd(JobVectors, Upper, a[0], w) }),
		stale.Of("Syevr", []string{"a", "z"}, [][]int{m, m}, func(a V) error {
			_, err := Syevr(JobVectors, Upper, AllValues(), a[0], w, a[1])
			return err
		}),
		stale.Of("Geev", []string{"a", "vl", "vr"}, [][]int{m, m, m}, func(a V) error {
			return Geev(JobVectors, JobVectors, a[0], make([]complex128, 4), a[1], a[2])
		}),
		stale.Of("Solve", []string{"a", "b"}, [][]int{m, v}, func(a V) error { return drop1(Solve(a[0], a[1])) }),
		stale.Of("Inv", []string{"a"}, [][]int{m}, func(a V) error { return drop1(Inv(a[0])) }),
		stale.Of("LogDet", []string{"a"}, [][]int{m}, func(a V) error { _, _, err := LogDet(a[0]); return err }),
		stale.Of("Det", []string{"a"}, [][]int{m}, func(a V) error { _, err := Det(a[0]); return err }),
		stale.Of("Cholesky", []string{"a"}, [][]int{m}, func(a V) error { return drop1(Cholesky(a[0])) }),
		stale.Of("CholeskySolve", []string{"l", "b"}, [][]int{m, m}, func(a V) error { return drop1(CholeskySolve(a[0], a[1])) }),
		stale.Of("LU", []string{"a"}, [][]int{m}, func(a V) error {
			_, l, u, err := LU(a[0])
			releaseT(l, u)
			return err
		}),
		stale.Of("QR", []string{"a"}, [][]int{m}, func(a V) error { q, r, err := QR(a[0]); releaseT(q, r); return err }),
		stale.Of("LeastSquares", []string{"a", "b"}, [][]int{m, v}, func(a V) error { return drop1(LeastSquares(a[0], a[1])) }),
		stale.Of("SVD", []string{"a"}, [][]int{m}, func(a V) error { _, u, vt, err := SVD(a[0]); releaseT(u, vt); return err }),
		stale.Of("EigSym", []string{"a"}, [][]int{m}, func(a V) error { _, x, err := EigSym(a[0]); releaseT(x); return err }),
		stale.Of("Eig", []string{"a"}, [][]int{m}, func(a V) error {
			_, x, err := Eig(a[0])
			releaseT(x)
			return err
		}),
		stale.Of("Geqrf", []string{"a"}, [][]int{m}, func(a V) error { return Geqrf(a[0], make([]float64, 4)) }),
		stale.Of("Gelqf", []string{"a"}, [][]int{m}, func(a V) error { return Gelqf(a[0], make([]float64, 4)) }),
		stale.Of("Orgqr", []string{"a"}, [][]int{m}, func(a V) error { return Orgqr(a[0], []float64{1, 1, 1, 0}) }),
		stale.Of("Ormqr", []string{"q", "c"}, [][]int{m, m}, func(a V) error {
			return Ormqr(Left, NoTrans, a[0], []float64{1, 1, 1, 0}, a[1])
		}),
		stale.Of("Gels", []string{"a", "b"}, [][]int{m, m}, func(a V) error { return Gels(a[0], a[1]) }),
		stale.Of("Gelsd", []string{"a", "b"}, [][]int{m, m}, func(a V) error {
			_, err := Gelsd(a[0], a[1], make([]float64, 4), -1)
			return err
		}),
		stale.Of("Getrf", []string{"a"}, [][]int{m}, func(a V) error { return Getrf(a[0], piv()) }),
		stale.Of("Getrs", []string{"lu", "b"}, [][]int{m, v}, func(a V) error { return Getrs(NoTrans, a[0], piv(), a[1]) }),
		stale.Of("Gesv", []string{"a", "b"}, [][]int{m, m}, func(a V) error { return Gesv(a[0], a[1], piv()) }),
		stale.Of("Getri", []string{"lu"}, [][]int{m}, func(a V) error { return Getri(a[0], piv()) }),
		stale.Of("Potrf", []string{"a"}, [][]int{m}, func(a V) error { return Potrf(Upper, a[0]) }),
		stale.Of("Potrs", []string{"f", "b"}, [][]int{m, v}, func(a V) error { return Potrs(Upper, a[0], a[1]) }),
		stale.Of("Posv", []string{"a", "b"}, [][]int{m, m}, func(a V) error { return Posv(Lower, a[0], a[1]) }),
		stale.Of("Potri", []string{"f"}, [][]int{m}, func(a V) error { return Potri(Upper, a[0]) }),
		stale.Of("Sysv", []string{"a", "b"}, [][]int{m, v}, func(a V) error { return Sysv(Upper, a[0], a[1], piv()) }),
		stale.Of("Hesv", []string{"a", "b"}, [][]int{m, v}, func(a V) error { return Hesv(Lower, a[0], a[1], piv()) }),
		stale.Of("Trtrs", []string{"a", "b"}, [][]int{m, m}, func(a V) error { return Trtrs(Upper, NonUnit, a[0], a[1]) }),
		stale.Of("Gesdd", []string{"a", "u", "vt"}, [][]int{m, m, m}, func(a V) error {
			return Gesdd(JobAll, a[0], make([]float64, 4), a[1], a[2])
		}),
		stale.Of("Gesvd", []string{"a", "u", "vt"}, [][]int{m, m, m}, func(a V) error {
			return Gesvd(JobAll, JobAll, a[0], make([]float64, 4), a[1], a[2])
		}),
	}
	for _, c := range calls {
		t.Run(c.Name, func(t *testing.T) { stale.Check(t, c) })
	}
}

func drop1[T Scalar](x *views.Tensor[T], err error) error {
	releaseT(x)
	return err
}

func releaseT[T Scalar](ts ...*views.Tensor[T]) {
	for _, t := range ts {
		if t != nil {
			t.Release()
		}
	}
}
