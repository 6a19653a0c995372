package main

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// The LAPACK checks reconstruct the input from the factors with gonum's
// BLAS (P L U x = b, L L^H = A, Q R = A, A V = V diag(w), U diag(s) V^H =
// A, orthonormal factors), for the four types, sizes from 1 to 100 with
// padded leading dimensions.

var lapackSizes = []int{1, 2, 3, 5, 8, 17, 33, 64, 100}

// lapackTol is the tolerance of a reconstruction of order n, relative to
// the largest element of what is reconstructed (at least 1).
func lapackTol[T views.Scalar](n int) float64 { return 30 * float64(n+1) * scalar.Eps[T]() }

// eye returns the n x n identity.
func eye[T views.Scalar](n int) []T {
	x := make([]T, n*n)
	for i := 0; i < n; i++ {
		x[i+i*n] = 1
	}
	return x
}

// hermitian returns a random n x n Hermitian (symmetric) matrix, plus
// shift on the diagonal; spd makes it M M^H + shift I.
func hermitian[T views.Scalar](r *rand.Rand, n int, spd bool, shift float64) []T {
	m := randoms[T](r, n*n)
	var a []T
	if spd {
		a = mul('N', 'C', n, n, n, m, m)
	} else {
		a = make([]T, n*n)
		mh := mul('C', 'N', n, n, n, m, eye[T](n)) // m^H
		for i := range a {
			a[i] = (m[i] + mh[i]) / 2
		}
	}
	for i := 0; i < n; i++ {
		a[i+i*n] = scalar.FromFloat[T](real(scalar.Complex128(a[i+i*n])) + shift)
	}
	return a
}

func gesvCheck(t *tally) {
	gesvT[float32](t)
	gesvT[float64](t)
	gesvT[complex64](t)
	gesvT[complex128](t)
}

// gesvT solves diagonally dominant systems and checks A x = b.
func gesvT[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(13, uint64(len(typeName[T]()))))
	for _, n := range lapackSizes {
		for _, nrhs := range []int{1, 3} {
			a, b := randoms[T](r, n*n), randoms[T](r, n*nrhs)
			for i := 0; i < n; i++ {
				a[i+i*n] += scalar.FromFloat[T](float64(n))
			}
			av, bv := matrix(a, n, n, 2), matrix(b, n, nrhs, 1)
			where := fmt.Sprintf("%s n=%d nrhs=%d", typeName[T](), n, nrhs)
			if err := lapack.Gesv(av, bv, make([]int32, n)); err != nil {
				t.fail(where, err)
				continue
			}
			x := logical(bv)
			t.cmp(where+": A x - b", toC(mul('N', 'N', n, nrhs, n, a, x)), toC(b), lapackTol[T](n), 0)
		}
	}
}

func potrfCheck(t *tally) {
	potrfT[float32](t)
	potrfT[float64](t)
	potrfT[complex64](t)
	potrfT[complex128](t)
}

// potrfT factors M M^H + n I and checks L L^H = A (lower) and U^H U = A
// (upper).
func potrfT[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(17, uint64(len(typeName[T]()))))
	for _, n := range lapackSizes {
		for _, uplo := range []lapack.Uplo{lapack.Lower, lapack.Upper} {
			a := hermitian[T](r, n, true, float64(n))
			av := matrix(a, n, n, 3)
			where := fmt.Sprintf("%s n=%d %s", typeName[T](), n, map[lapack.Uplo]string{lapack.Lower: "lower", lapack.Upper: "upper"}[uplo])
			if err := lapack.Potrf(uplo, av); err != nil {
				t.fail(where, err)
				continue
			}
			f := logical(av)
			for j := 0; j < n; j++ { // keep the factor's triangle
				for i := 0; i < n; i++ {
					if (uplo == lapack.Lower && i < j) || (uplo == lapack.Upper && i > j) {
						f[i+j*n] = 0
					}
				}
			}
			got := mul('N', 'C', n, n, n, f, f) // L L^H
			if uplo == lapack.Upper {
				got = mul('C', 'N', n, n, n, f, f) // U^H U
			}
			t.cmp(where, toC(got), toC(a), lapackTol[T](n), 0)
		}
	}
}

// shapes are the m x n shapes of the QR and SVD checks.
var shapes = [][2]int{{1, 1}, {2, 2}, {5, 3}, {3, 5}, {8, 8}, {17, 9}, {9, 17}, {33, 33}, {64, 40}, {40, 64}, {100, 100}}

func qrCheck(t *tally) {
	qrT[float32](t)
	qrT[float64](t)
	qrT[complex64](t)
	qrT[complex128](t)
}

// qrT checks Q R = A and Q^H Q = I (lapack.QR: geqrf, then orgqr/ungqr).
func qrT[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(19, uint64(len(typeName[T]()))))
	for _, s := range shapes {
		m, n := s[0], s[1]
		k := min(m, n)
		a := randoms[T](r, m*n)
		where := fmt.Sprintf("%s %dx%d", typeName[T](), m, n)
		q, rr, err := lapack.QR(matrix(a, m, n, 2))
		if err != nil {
			t.fail(where, err)
			continue
		}
		qd, rd := logical(q.View()), logical(rr.View())
		t.cmp(where+": Q R - A", toC(mul('N', 'N', m, n, k, qd, rd)), toC(a), lapackTol[T](max(m, n)), 0)
		t.cmp(where+": Q^H Q - I", toC(mul('C', 'N', k, k, m, qd, qd)), toC(eye[T](k)), lapackTol[T](m), 0)
		q.Release()
		rr.Release()
	}
}

func syevdCheck(t *tally) {
	syevdT[float32](t)
	syevdT[float64](t)
	syevdT[complex64](t)
	syevdT[complex128](t)
}

// syevdT checks A V = V diag(w) and V^H V = I (lapack.EigSym: syevd or
// heevd), and that w ascends.
func syevdT[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(23, uint64(len(typeName[T]()))))
	for _, n := range lapackSizes {
		a := hermitian[T](r, n, false, 0)
		where := fmt.Sprintf("%s n=%d", typeName[T](), n)
		w, v, err := lapack.EigSym(matrix(a, n, n, 1))
		if err != nil {
			t.fail(where, err)
			continue
		}
		vd := logical(v.View())
		vw := append([]T(nil), vd...)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				vw[i+j*n] *= scalar.FromFloat[T](w[j])
			}
			if j > 0 && w[j] < w[j-1] {
				t.fail(where, fmt.Errorf("eigenvalues not ascending: w[%d] = %g < w[%d] = %g", j, w[j], j-1, w[j-1]))
			}
		}
		t.cmp(where+": A V - V diag(w)", toC(mul('N', 'N', n, n, n, a, vd)), toC(vw), lapackTol[T](n), 0)
		t.cmp(where+": V^H V - I", toC(mul('C', 'N', n, n, n, vd, vd)), toC(eye[T](n)), lapackTol[T](n), 0)
		v.Release()
	}
}

func svdCheck(t *tally) {
	svdT[float32](t)
	svdT[float64](t)
	svdT[complex64](t)
	svdT[complex128](t)
}

// svdT checks U diag(s) V^H = A, U^H U = I, V^H V = I and s >= 0
// descending (lapack.SVD: gesdd).
func svdT[T views.Scalar](t *tally) {
	r := rand.New(rand.NewPCG(29, uint64(len(typeName[T]()))))
	for _, sh := range shapes {
		m, n := sh[0], sh[1]
		k := min(m, n)
		a := randoms[T](r, m*n)
		where := fmt.Sprintf("%s %dx%d", typeName[T](), m, n)
		s, u, vt, err := lapack.SVD(matrix(a, m, n, 2))
		if err != nil {
			t.fail(where, err)
			continue
		}
		ud, vd := logical(u.View()), logical(vt.View())
		us := append([]T(nil), ud...)
		for j := 0; j < k; j++ {
			for i := 0; i < m; i++ {
				us[i+j*m] *= scalar.FromFloat[T](s[j])
			}
			if s[j] < 0 || (j > 0 && s[j] > s[j-1]) || cmplx.IsNaN(complex(s[j], 0)) {
				t.fail(where, fmt.Errorf("singular values not descending and >= 0: %v", s))
				break
			}
		}
		t.cmp(where+": U S Vt - A", toC(mul('N', 'N', m, n, k, us, vd)), toC(a), lapackTol[T](max(m, n)), 0)
		t.cmp(where+": U^H U - I", toC(mul('C', 'N', k, k, m, ud, ud)), toC(eye[T](k)), lapackTol[T](m), 0)
		t.cmp(where+": Vt Vt^H - I", toC(mul('N', 'C', k, k, n, vd, vd)), toC(eye[T](k)), lapackTol[T](n), 0)
		u.Release()
		vt.Release()
	}
}
