package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
)

// routineName returns ScaLAPACK's name of a routine for T: d for float64,
// z for complex128.
func routineName[T Scalar](d, z string) string {
	if isComplex[T]() {
		return z
	}
	return d
}

// Syevd computes every eigenvalue (ascending, into w: n elements, on every
// rank of the grid) and orthonormal eigenvectors (into z: n x n,
// distributed as a; a z = z diag(w)) of the symmetric, for complex128
// Hermitian, a (pdsyevd / pzheevd: divide and conquer; square blocks).
// Only a's triangle uplo (lapack.Upper or lapack.Lower, of the global
// matrix, as lapack.Syevd and lapack.Triangle take it) is read, and it is
// destroyed (with the diagonal); the other triangle is left as it was.
// The workspaces are asked once per shape and grid. Errors match
// ErrState, layout.ErrShape or lapis.ErrInvalid (before anything runs,
// on every rank when any rank's arguments are bad: a w of another length
// on one rank included), lapis.ErrNotFinite (a NaN or an infinity in the
// triangle read, found before the call: pdsyevd can hang on one), or
// lapack.ErrNoConvergence (an *Error; Info is ScaLAPACK's count) on every
// rank.
func Syevd[T Scalar](uplo lapack.Uplo, a *Matrix[T], w []float64, z *Matrix[T]) error {
	const op = "dist.Syevd"
	u, err := triangleArgs(op, uplo, a, map[string]*Matrix[T]{"z": z})
	switch {
	case err != nil:
	case z.m != a.m || z.n != a.n || z.mb != a.mb || z.nb != a.nb:
		err = layout.Errorf(layout.ErrShape, op, "z", "%d x %d in %d x %d blocks; it must be distributed as a (%d x %d in %d x %d)", z.m, z.n, z.mb, z.nb, a.m, a.n, a.mb, a.nb)
	case len(w) != a.n:
		err = layout.Errorf(layout.ErrShape, op, "w", "length %d; a is %d x %d", len(w), a.n, a.n)
	}
	if err := agree(op, err, append(keys(a, z), int(uplo))); err != nil {
		return err
	}
	if a.n == 0 {
		return nil
	}
	routine := routineName[T]("pdsyevd", "pzheevd")
	if err := finiteInput(op, routine, operand[T]{"a", a, byte(u)}); err != nil {
		return err
	}
	pa, pz := ptr(a), ptr(z)
	da, dz := a.desc, z.desc
	pw := (*C.double)(unsafe.Pointer(&w[0]))
	jobz := C.char('V')
	cz := isComplex[T]()
	info, nan := callNaN(a.g, func() C.lapis_int {
		n := ci(a.n)
		run := func(work, rwork *C.double, iwork *C.lapis_int, lw, lrw, liw *C.lapis_int) C.lapis_int {
			var info C.lapis_int
			if cz {
				C.pzheevd_(&jobz, &u, &n, (*C.lapis_z)(pa), one(), one(), &da[0], pw, (*C.lapis_z)(pz), one(), one(), &dz[0],
					(*C.lapis_z)(unsafe.Pointer(work)), lw, rwork, lrw, iwork, liw, &info, 1, 1)
			} else {
				C.pdsyevd_(&jobz, &u, &n, (*C.double)(pa), one(), one(), &da[0], pw, (*C.double)(pz), one(), one(), &dz[0],
					work, lw, iwork, liw, &info, 1, 1)
			}
			return info
		}
		key := wsKey{routine: routine, n: a.n, mb: a.mb, nb: a.nb, grid: a.g.id, job1: byte(u)}
		ws, info := sizes(a.g, key, func(q *wsQuery) C.lapis_int {
			return run(q.d(), &q.rwork, &q.iwork, &q.lw, &q.lrw, &q.liw)
		}, func(ws *wsSize) {
			// pdsyevd's own minimum does not cover what it hands pdormtr
			// (LWORK - 2n) when blocks are large next to n: pdormtr then
			// rejects its LWORK, prints so, and pdsyevd returns wrong
			// eigenvectors with info 0 (seen with n = 1, and n = 13 in
			// blocks of 16). Add pdormtr's minimum, bounded from above
			// (its local row and column counts are at most n + nb).
			// pzheevd's minimum counts columns of max(n, nb, 2) and covers
			// pzunmtr's (the same suite passes without the bound).
			if !cz {
				nb := a.nb
				ormtr := max(nb*(nb-1)/2, 2*(a.n+nb)*nb) + nb*nb
				ws.lwork = max(ws.lwork, 2*a.n+ormtr)
			}
		})
		if info != 0 {
			return info
		}
		wk := getWork[T](ws)
		defer wk.release()
		info = run(wk.d(), wk.r(), wk.i(), &wk.lw, &wk.lrw, &wk.liw)
		// pdsyevd leaves w unwritten on ranks that hold none of a (n <=
		// nb on a grid wider than one, seen with n = 13 in blocks of
		// 16, pzheevd alike): w goes from grid process (0, 0),
		// which always holds a's first block, to the others.
		if a.g.row == 0 && a.g.col == 0 {
			C.Cdgebs2d(a.g.ctxt, &allScope[0], &spaceTop[0], n, 1, pw, n)
		} else {
			C.Cdgebr2d(a.g.ctxt, &allScope[0], &spaceTop[0], n, 1, pw, n, 0, 0)
		}
		return info
	}, func() bool { return scalar.HasNaN(w) })
	if err := nonFinite(op, routine, info, nan, operand[T]{"a", a, byte(u)}); err != nil {
		return err
	}
	return infoErr(op, routine, info, lapack.ErrNoConvergence)
}

// Gesvd computes the singular values of the m x n a (descending, into s:
// min(m, n) elements, on every rank of the grid) and, when u and vt are
// not nil, the leading min(m, n) left and right singular vectors (u: m x
// min(m, n), vt: min(m, n) x n holding V^T, for complex128 V^H; both in
// a's block sizes), so that a = u diag(s) vt (pdgesvd / pzgesvd; square
// blocks; tall and wide a alike). a is destroyed; s, u and vt are
// overwritten. The workspaces are asked once per shape and grid. Errors
// match ErrState, layout.ErrShape or lapis.ErrInvalid (before anything
// runs, on every rank when any rank's arguments are bad), lapis.ErrNotFinite
// (a NaN or an infinity in a), or lapack.ErrNoConvergence (an *Error; info min(m, n)+1 means the ranks
// computed different singular values) on every rank.
func Gesvd[T Scalar](a *Matrix[T], s []float64, u, vt *Matrix[T]) error {
	const op = "dist.Gesvd"
	k := 0
	job := C.char('N')
	// ScaLAPACK reads U's and VT's descriptors even for 'N': a's stands in.
	var pu, pvt unsafe.Pointer
	var du, dvt [9]C.int
	err := func() error {
		others := map[string]*Matrix[T]{}
		if (u == nil) != (vt == nil) {
			return layout.Errorf(layout.ErrShape, op, "u, vt", "give both or neither")
		}
		if u != nil {
			others["u"], others["vt"] = u, vt
		}
		if err := sameGrid(op, a, others); err != nil {
			return err
		}
		if err := squareBlocks(op, "a", a); err != nil {
			return err
		}
		k = min(a.m, a.n)
		if len(s) != k {
			return layout.Errorf(layout.ErrShape, op, "s", "length %d; a is %d x %d", len(s), a.m, a.n)
		}
		pu, pvt, du, dvt = ptr(a), ptr(a), a.desc, a.desc
		if u != nil {
			if u.m != a.m || u.n != k || vt.m != k || vt.n != a.n {
				return layout.Errorf(layout.ErrShape, op, "u, vt", "%d x %d and %d x %d; a %d x %d needs %d x %d and %d x %d", u.m, u.n, vt.m, vt.n, a.m, a.n, a.m, k, k, a.n)
			}
			if u.mb != a.mb || u.nb != a.nb || vt.mb != a.mb || vt.nb != a.nb {
				return layout.Errorf(layout.ErrShape, op, "u, vt", "blocks must be a's %d x %d", a.mb, a.nb)
			}
			job = 'V'
			pu, pvt, du, dvt = ptr(u), ptr(vt), u.desc, vt.desc
		}
		return nil
	}()
	if err := agree(op, err, keys(a, u, vt)); err != nil {
		return err
	}
	if k == 0 {
		return nil
	}
	pa, da := ptr(a), a.desc
	ps := (*C.double)(unsafe.Pointer(&s[0]))
	cz := isComplex[T]()
	routine := routineName[T]("pdgesvd", "pzgesvd")
	info, nan := callNaN(a.g, func() C.lapis_int {
		m, n := ci(a.m), ci(a.n)
		run := func(work, rwork *C.double, lw *C.lapis_int) C.lapis_int {
			var info C.lapis_int
			if cz {
				C.pzgesvd_(&job, &job, &m, &n, (*C.lapis_z)(pa), one(), one(), &da[0], ps, (*C.lapis_z)(pu), one(), one(), &du[0],
					(*C.lapis_z)(pvt), one(), one(), &dvt[0], (*C.lapis_z)(unsafe.Pointer(work)), lw, rwork, &info, 1, 1)
			} else {
				C.pdgesvd_(&job, &job, &m, &n, (*C.double)(pa), one(), one(), &da[0], ps, (*C.double)(pu), one(), one(), &du[0],
					(*C.double)(pvt), one(), one(), &dvt[0], work, lw, &info, 1, 1)
			}
			return info
		}
		key := wsKey{routine: routine, m: a.m, n: a.n, mb: a.mb, nb: a.nb, grid: a.g.id, job1: byte(job)}
		ws, info := sizes(a.g, key, func(q *wsQuery) C.lapis_int {
			return run(q.d(), &q.rwork, &q.lw)
		}, func(ws *wsSize) {
			if cz { // RWORK has no length argument: what pzgesvd documents
				ws.lrwork = max(ws.lrwork, 1+4*max(a.m, a.n))
			}
		})
		if info != 0 {
			return info
		}
		wk := getWork[T](ws)
		defer wk.release()
		return run(wk.d(), wk.r(), &wk.lw)
	}, func() bool { return scalar.HasNaN(s) })
	if err := nonFinite(op, routine, info, nan, operand[T]{"a", a, 0}); err != nil {
		return err
	}
	if info == k+1 {
		return &Error{Op: op, Routine: routine, Info: info, Index: -1, kind: lapack.ErrNoConvergence, detail: "the ranks computed different singular values (heterogeneous results)"}
	}
	return infoErr(op, routine, info, lapack.ErrNoConvergence)
}

// Gels solves the full-rank least-squares problem min ||b - a x|| (a m x
// n, m >= n) or the minimum-norm problem a x = b (m < n) for the columns
// of b with a QR or LQ factorisation (pdgels / pzgels; square blocks, b's
// row blocks a's). a is overwritten by the factorisation and b (max(m, n)
// x nrhs) by x in its first n rows (for m >= n the rest hold the
// residuals' components). pdgels does not look at the rank; Gels does, as
// lapack.Gels does: a triangular factor (R, or L for m < n) with an
// exactly zero diagonal element, or whose estimated reciprocal condition
// number (one norm, p?trcon) is at most max(m, n) eps, is an *Error
// matching lapack.ErrRankDeficient and lapack.ErrSingular on every rank
// (Index: the global position of the first zero, or -1; Rcond: the
// estimate), and b then holds no reliable solution (use Gesvd for
// rank-deficient problems). The workspaces are asked once per shape and
// grid. A NaN or an infinity in a or b gives an error matching
// lapis.ErrNotFinite. Other errors (before anything runs, on every rank
// when any rank's arguments are bad) match ErrState, layout.ErrShape or
// lapis.ErrInvalid.
func Gels[T Scalar](a, b *Matrix[T]) error {
	const op = "dist.Gels"
	err := sameGrid(op, a, map[string]*Matrix[T]{"b": b})
	switch {
	case err != nil:
	case a.mb != a.nb:
		err = squareBlocks(op, "a", a)
	case b.m != max(a.m, a.n):
		err = layout.Errorf(layout.ErrShape, op, "b", "%d rows; a %d x %d needs max(m, n) = %d", b.m, a.m, a.n, max(a.m, a.n))
	case b.mb != a.mb:
		err = layout.Errorf(layout.ErrShape, op, "b", "row blocks of %d; ScaLAPACK needs a's %d", b.mb, a.mb)
	}
	if err := agree(op, err, keys(a, b)); err != nil {
		return err
	}
	if a.m == 0 || a.n == 0 || b.n == 0 {
		return nil
	}
	pa, pb := ptr(a), ptr(b)
	da, db := a.desc, b.desc
	tr := C.char('N')
	cz := isComplex[T]()
	routine := routineName[T]("pdgels", "pzgels")
	info, nan := callNaN(a.g, func() C.lapis_int {
		m, n, nrhs := ci(a.m), ci(a.n), ci(b.n)
		run := func(work *C.double, lw *C.lapis_int) C.lapis_int {
			var info C.lapis_int
			if cz {
				C.pzgels_(&tr, &m, &n, &nrhs, (*C.lapis_z)(pa), one(), one(), &da[0], (*C.lapis_z)(pb), one(), one(), &db[0],
					(*C.lapis_z)(unsafe.Pointer(work)), lw, &info, 1)
			} else {
				C.pdgels_(&tr, &m, &n, &nrhs, (*C.double)(pa), one(), one(), &da[0], (*C.double)(pb), one(), one(), &db[0], work, lw, &info, 1)
			}
			return info
		}
		key := wsKey{routine: routine, m: a.m, n: a.n, k: b.n, mb: a.mb, nb: a.nb, grid: a.g.id}
		ws, info := sizes(a.g, key, func(q *wsQuery) C.lapis_int { return run(q.d(), &q.lw) }, nil)
		if info != 0 {
			return info
		}
		wk := getWork[T](ws)
		defer wk.release()
		if info = run(wk.d(), &wk.lw); info != 0 {
			return info
		}
		return ci(zeroDiagonal(a))
	}, func() bool { return hasNaN(b) })
	// pdgels solves with a zero on R's diagonal too (b's infinities are
	// then the rank deficiency's, reported below): b counts when info is 0.
	ins := []operand[T]{{"a", a, 0}, {"b", b, 0}}
	if info != 0 {
		ins = ins[:1]
	}
	if err := nonFinite(op, routine, info, nan, ins...); err != nil {
		return err
	}
	if info > 0 {
		return &Error{Op: op, Routine: routine, Info: info, Index: info - 1, kind: lapack.ErrRankDeficient,
			detail: fmt.Sprintf("the triangular factor's diagonal element (%d, %d) is exactly zero (global, 0-based); b holds no solution", info-1, info-1)}
	}
	if err := infoErr(op, routine, info, nil); err != nil {
		return err
	}
	return conditionOf(op, routine, a)
}

// conditionOf estimates the reciprocal condition number (one norm) of the
// triangular factor Gels left in a (p?trcon) and returns an
// ErrRankDeficient error, the same on every rank, when it is at most
// max(m, n) eps, as lapack.Gels does.
func conditionOf[T Scalar](op, routine string, a *Matrix[T]) error {
	k := ci(min(a.m, a.n))
	uplo := C.char('U') // R of the QR factorisation
	if a.m < a.n {
		uplo = 'L' // L of the LQ factorisation
	}
	norm, diag := C.char('1'), C.char('N')
	pa, da := ptr(a), a.desc
	cz := isComplex[T]()
	trcon := routineName[T]("pdtrcon", "pztrcon")
	var rcond C.double
	info := call(a.g, func() C.lapis_int {
		run := func(work, rwork *C.double, iwork *C.lapis_int, lw, lrw, liw *C.lapis_int) C.lapis_int {
			var info C.lapis_int
			if cz {
				C.pztrcon_(&norm, &uplo, &diag, &k, (*C.lapis_z)(pa), one(), one(), &da[0], &rcond,
					(*C.lapis_z)(unsafe.Pointer(work)), lw, rwork, lrw, &info, 1, 1, 1)
			} else {
				C.pdtrcon_(&norm, &uplo, &diag, &k, (*C.double)(pa), one(), one(), &da[0], &rcond, work, lw, iwork, liw, &info, 1, 1, 1)
			}
			return info
		}
		key := wsKey{routine: trcon, n: int(k), mb: a.mb, nb: a.nb, grid: a.g.id, job1: byte(uplo)}
		ws, info := sizes(a.g, key, func(q *wsQuery) C.lapis_int {
			return run(q.d(), &q.rwork, &q.iwork, &q.lw, &q.lrw, &q.liw)
		}, nil)
		if info != 0 {
			return info
		}
		wk := getWork[T](ws)
		defer wk.release()
		return run(wk.d(), wk.r(), wk.i(), &wk.lw, &wk.lrw, &wk.liw)
	})
	if err := infoErr(op, trcon, info, nil); err != nil {
		return err
	}
	// RCOND is global output on the grid's ranks; the others learn it too.
	do(func() { C.lapis_mpi_allreduce_max_double(&rcond) })
	limit := float64(max(a.m, a.n)) * (math.Nextafter(1, 2) - 1)
	if float64(rcond) > limit {
		return nil
	}
	return &Error{Op: op, Routine: routine, Index: -1, Rcond: float64(rcond), kind: lapack.ErrRankDeficient,
		detail: fmt.Sprintf("the reciprocal condition number of its triangular factor is %.3g (%s), at most max(m, n) eps = %.3g: b holds no reliable solution", float64(rcond), trcon, limit)}
}

// badFactorDiagonal returns 1 + the first global index j of the n x n
// factor a whose diagonal element is not a positive finite real (where a
// Potrf that failed stopped), 0 when there is none, agreed on over a's
// grid (Cigamn2d). It runs on the MPI thread, on the grid's ranks.
func badFactorDiagonal[T Scalar](a *Matrix[T]) int {
	first := C.int(1<<31 - 1)
	for j := 0; j < a.n; j++ {
		if li, lj, mine := a.ToLocal(j, j); mine {
			d := scalar.Complex128(a.local.At(li, lj))
			if !(real(d) > 0) || math.IsInf(real(d), 0) || imag(d) != 0 {
				first = C.int(j)
				break
			}
		}
	}
	C.Cigamn2d(a.g.ctxt, &allScope[0], &spaceTop[0], 1, 1, &first, 1, nil, nil, -1, -1, -1)
	if first == 1<<31-1 {
		return 0
	}
	return int(first) + 1
}

// zeroDiagonal returns 1 + the first global index j < min(m, n) with
// a(j, j) exactly zero, 0 when there is none, agreed on over a's grid
// (Cigamn2d). It runs on the MPI thread, on the grid's ranks.
func zeroDiagonal[T Scalar](a *Matrix[T]) int {
	first := C.int(1<<31 - 1)
	for j := 0; j < min(a.m, a.n); j++ {
		if li, lj, mine := a.ToLocal(j, j); mine && a.local.At(li, lj) == 0 {
			first = C.int(j)
			break
		}
	}
	C.Cigamn2d(a.g.ctxt, &allScope[0], &spaceTop[0], 1, 1, &first, 1, nil, nil, -1, -1, -1)
	if first == 1<<31-1 {
		return 0
	}
	return int(first) + 1
}
