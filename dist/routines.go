package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/policy"
	"github.com/lapis-go/lapis/internal/pool"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
)

// Workspace sizes, asked of ScaLAPACK once per (routine, shape, blocks,
// grid, jobs) on each rank and remembered (used on the MPI thread only).
type wsKey struct {
	routine string
	m, n, k int
	mb, nb  int
	grid    int // Grid.id: contexts are reused after Cblacs_gridexit
	job1    byte
}

type wsSize struct{ lwork, liwork int }

// call runs a ScaLAPACK routine on the MPI thread: f on the ranks of a's
// grid (the others skip it: ScaLAPACK has nothing for them to do), then
// the largest info over every rank, so that all return the same error.
func call(g *Grid, f func() C.lapis_int) int {
	var info C.int
	do(func() {
		if g.In() {
			info = C.int(f())
		}
		C.lapis_mpi_allreduce_max_int(&info)
		policy.Lapack.Add(1)
	})
	return int(info)
}

func one() *C.lapis_int { return &ones[0] }

// gridMax returns the largest of x over the grid's ranks (Cigamx2d). The
// workspace routines check that LWORK is the same on every rank
// (PCHK1MAT), though each rank's query answers for its own piece: every
// rank takes the largest. It runs on the MPI thread, on the grid's ranks.
func gridMax(g *Grid, x int) int {
	v := C.int(x)
	C.Cigamx2d(g.ctxt, &allScope[0], &spaceTop[0], 1, 1, &v, 1, nil, nil, -1, -1, -1)
	return int(v)
}

var allScope = [4]C.char{'A', 'l', 'l', 0}
var spaceTop = [2]C.char{' ', 0}

var ones = [1]C.lapis_int{1}

func ci(x int) C.lapis_int { return C.lapis_int(x) }

// sameGrid checks that every operand is distributed over a's grid.
func sameGrid[T Scalar](op string, a *Matrix[T], others map[string]*Matrix[T]) error {
	if a == nil {
		return layout.Errorf(layout.ErrShape, op, "a", "nil matrix")
	}
	if err := live(op); err != nil {
		return err
	}
	if a.g.exited {
		return layout.Errorf(ErrState, op, "a", "its grid was exited")
	}
	for name, b := range others {
		if b == nil {
			return layout.Errorf(layout.ErrShape, op, name, "nil matrix")
		}
		if b.g != a.g {
			return layout.Errorf(layout.ErrShape, op, name, "is on another grid than a (Redistribute it onto a's grid first)")
		}
	}
	return nil
}

func squareBlocks[T Scalar](op, name string, a *Matrix[T]) error {
	if a.mb != a.nb {
		return layout.Errorf(layout.ErrShape, op, name, "%d x %d blocks: %s needs square blocks (Redistribute to mb = nb)", a.mb, a.nb, op)
	}
	return nil
}

func uploChar(u lapack.Uplo) (C.char, error) {
	switch u {
	case lapack.Upper:
		return 'U', nil
	case lapack.Lower:
		return 'L', nil
	}
	return 0, layout.Errorf(layout.ErrShape, "dist", "uplo", "value %d is not Upper or Lower", int(u))
}

func ptr[T Scalar](a *Matrix[T]) unsafe.Pointer { return first(a.local) }

// Gemm computes c = alpha*op(a)*op(b) + beta*c (pdgemm / pzgemm; op is
// lapack.NoTrans, Trans or, for complex128, ConjTrans). Any block sizes:
// the PBLAS align them. Collective. Errors (before anything runs, on every
// rank alike) match ErrState or layout.ErrShape.
func Gemm[T Scalar](ta, tb lapack.Op, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) error {
	const op = "dist.Gemm"
	if err := sameGrid(op, a, map[string]*Matrix[T]{"b": b, "c": c}); err != nil {
		return err
	}
	for _, t := range []lapack.Op{ta, tb} {
		if t != lapack.NoTrans && t != lapack.Trans && t != lapack.ConjTrans {
			return layout.Errorf(layout.ErrShape, op, "ta, tb", "value %q is not NoTrans, Trans or ConjTrans", byte(t))
		}
	}
	am, ak := a.m, a.n
	if ta != lapack.NoTrans {
		am, ak = ak, am
	}
	bk, bn := b.m, b.n
	if tb != lapack.NoTrans {
		bk, bn = bn, bk
	}
	if am != c.m || bn != c.n || ak != bk {
		return layout.Errorf(layout.ErrShape, op, "a, b, c", "op(a) %d x %d times op(b) %d x %d does not give c's %d x %d", am, ak, bk, bn, c.m, c.n)
	}
	if c.m == 0 || c.n == 0 {
		return nil
	}
	pa, pb, pc := ptr(a), ptr(b), ptr(c)
	da, db, dc := a.desc, b.desc, c.desc
	cta, ctb := C.char(ta), C.char(tb)
	call(a.g, func() C.lapis_int {
		m, n, k := ci(c.m), ci(c.n), ci(ak)
		if isComplex[T]() {
			al, be := complex128(any(alpha).(complex128)), complex128(any(beta).(complex128))
			C.pzgemm_(&cta, &ctb, &m, &n, &k, (*C.lapis_z)(unsafe.Pointer(&al)), (*C.lapis_z)(pa), one(), one(), &da[0],
				(*C.lapis_z)(pb), one(), one(), &db[0], (*C.lapis_z)(unsafe.Pointer(&be)), (*C.lapis_z)(pc), one(), one(), &dc[0], 1, 1)
			return 0
		}
		al, be := C.double(any(alpha).(float64)), C.double(any(beta).(float64))
		C.pdgemm_(&cta, &ctb, &m, &n, &k, &al, (*C.double)(pa), one(), one(), &da[0],
			(*C.double)(pb), one(), one(), &db[0], &be, (*C.double)(pc), one(), one(), &dc[0], 1, 1)
		return 0
	})
	return nil
}

// Gesv solves a x = b in place (pdgesv / pzgesv): a (n x n, square
// blocks) is overwritten by its LU factors, b (n x nrhs, row blocks of
// a's size) by x, and the returned pivots are this rank's local ones
// (ScaLAPACK's IPIV: global row indices, 1-based, for the local rows of
// a). A singular a is an *Error matching lapack.ErrSingular, with the
// global index of the zero pivot, on every rank. Other errors (before
// anything runs) match ErrState or layout.ErrShape.
func Gesv[T Scalar](a, b *Matrix[T]) ([]int32, error) {
	const op = "dist.Gesv"
	if err := sameGrid(op, a, map[string]*Matrix[T]{"b": b}); err != nil {
		return nil, err
	}
	if err := squareSystem(op, a, b); err != nil {
		return nil, err
	}
	ipiv := make([]int32, a.mloc+a.mb)
	if a.n == 0 || b.n == 0 {
		return ipiv, nil
	}
	pa, pb := ptr(a), ptr(b)
	da, db := a.desc, b.desc
	pi := unsafe.Pointer(&ipiv[0])
	routine := "pdgesv"
	if isComplex[T]() {
		routine = "pzgesv"
	}
	info := call(a.g, func() C.lapis_int {
		var info C.lapis_int
		n, nrhs := ci(a.n), ci(b.n)
		if isComplex[T]() {
			C.pzgesv_(&n, &nrhs, (*C.lapis_z)(pa), one(), one(), &da[0], (*C.lapis_int)(pi), (*C.lapis_z)(pb), one(), one(), &db[0], &info)
		} else {
			C.pdgesv_(&n, &nrhs, (*C.double)(pa), one(), one(), &da[0], (*C.lapis_int)(pi), (*C.double)(pb), one(), one(), &db[0], &info)
		}
		// ScaLAPACK 2.2.1 reports no zero pivot for n = 1 (its pivot
		// search over a one-element column does not see the zero; a
		// zero last pivot of a larger matrix is reported): the owner of
		// the one element checks it, and the info agreed on says so.
		if info == 0 && a.n == 1 && a.local.Len() == 1 && a.local.At(0, 0) == 0 {
			info = 1
		}
		return info
	})
	return ipiv, infoErr(routine, info, lapack.ErrSingular)
}

// squareSystem checks a (n x n, square blocks) against b (n x nrhs whose
// row blocks are a's).
func squareSystem[T Scalar](op string, a, b *Matrix[T]) error {
	if a.m != a.n {
		return layout.Errorf(layout.ErrShape, op, "a", "%d x %d is not square", a.m, a.n)
	}
	if err := squareBlocks(op, "a", a); err != nil {
		return err
	}
	if b.m != a.n {
		return layout.Errorf(layout.ErrShape, op, "b", "%d rows; a is %d x %d", b.m, a.m, a.n)
	}
	if b.mb != a.nb {
		return layout.Errorf(layout.ErrShape, op, "b", "row blocks of %d; ScaLAPACK needs a's block size %d", b.mb, a.nb)
	}
	return nil
}

// Potrf computes the Cholesky factor of the symmetric (Hermitian)
// positive definite a in place, in the triangle uplo (pdpotrf / pzpotrf;
// square blocks). An a that is not positive definite is an *Error
// matching lapack.ErrNotPositiveDefinite on every rank (Index: the order
// minus one of the failing minor). Other errors match ErrState or
// layout.ErrShape.
func Potrf[T Scalar](uplo lapack.Uplo, a *Matrix[T]) error {
	const op = "dist.Potrf"
	if err := sameGrid(op, a, nil); err != nil {
		return err
	}
	u, err := uploChar(uplo)
	if err != nil {
		return err
	}
	if a.m != a.n {
		return layout.Errorf(layout.ErrShape, op, "a", "%d x %d is not square", a.m, a.n)
	}
	if err := squareBlocks(op, "a", a); err != nil {
		return err
	}
	if a.n == 0 {
		return nil
	}
	pa, da := ptr(a), a.desc
	routine := "pdpotrf"
	if isComplex[T]() {
		routine = "pzpotrf"
	}
	info := call(a.g, func() C.lapis_int {
		var info C.lapis_int
		n := ci(a.n)
		if isComplex[T]() {
			C.pzpotrf_(&u, &n, (*C.lapis_z)(pa), one(), one(), &da[0], &info, 1)
		} else {
			C.pdpotrf_(&u, &n, (*C.double)(pa), one(), one(), &da[0], &info, 1)
		}
		return info
	})
	return infoErr(routine, info, lapack.ErrNotPositiveDefinite)
}

// Potrs solves a x = b with a's Cholesky factor from Potrf (same uplo),
// overwriting b (pdpotrs / pzpotrs). Errors match ErrState or
// layout.ErrShape.
func Potrs[T Scalar](uplo lapack.Uplo, a, b *Matrix[T]) error {
	const op = "dist.Potrs"
	if err := sameGrid(op, a, map[string]*Matrix[T]{"b": b}); err != nil {
		return err
	}
	u, err := uploChar(uplo)
	if err != nil {
		return err
	}
	if err := squareSystem(op, a, b); err != nil {
		return err
	}
	if a.n == 0 || b.n == 0 {
		return nil
	}
	pa, pb := ptr(a), ptr(b)
	da, db := a.desc, b.desc
	routine := "pdpotrs"
	if isComplex[T]() {
		routine = "pzpotrs"
	}
	info := call(a.g, func() C.lapis_int {
		var info C.lapis_int
		n, nrhs := ci(a.n), ci(b.n)
		if isComplex[T]() {
			C.pzpotrs_(&u, &n, &nrhs, (*C.lapis_z)(pa), one(), one(), &da[0], (*C.lapis_z)(pb), one(), one(), &db[0], &info, 1)
		} else {
			C.pdpotrs_(&u, &n, &nrhs, (*C.double)(pa), one(), one(), &da[0], (*C.double)(pb), one(), one(), &db[0], &info, 1)
		}
		return info
	})
	return infoErr(routine, info, nil)
}

// Syevd computes every eigenvalue (ascending, into w: n elements, on every
// rank of the grid) and the eigenvectors (into z: n x n, a's distribution)
// of the symmetric a, read through triangle uplo and destroyed (pdsyevd,
// divide and conquer; square blocks; float64). The workspace is asked
// once per shape and grid. Errors match ErrState, layout.ErrShape, or
// lapack.ErrNoConvergence (an *Error) on every rank.
func Syevd(uplo lapack.Uplo, a *Matrix[float64], w []float64, z *Matrix[float64]) error {
	const op = "dist.Syevd"
	if err := sameGrid(op, a, map[string]*Matrix[float64]{"z": z}); err != nil {
		return err
	}
	u, err := uploChar(uplo)
	if err != nil {
		return err
	}
	if a.m != a.n {
		return layout.Errorf(layout.ErrShape, op, "a", "%d x %d is not square", a.m, a.n)
	}
	if err := squareBlocks(op, "a", a); err != nil {
		return err
	}
	if z.m != a.m || z.n != a.n || z.mb != a.mb || z.nb != a.nb {
		return layout.Errorf(layout.ErrShape, op, "z", "%d x %d in %d x %d blocks; it must be distributed as a (%d x %d in %d x %d)", z.m, z.n, z.mb, z.nb, a.m, a.n, a.mb, a.nb)
	}
	if len(w) != a.n {
		return layout.Errorf(layout.ErrShape, op, "w", "length %d; a is %d x %d", len(w), a.n, a.n)
	}
	if a.n == 0 {
		return nil
	}
	pa, pz := ptr(a), ptr(z)
	da, dz := a.desc, z.desc
	pw := unsafe.Pointer(&w[0])
	jobz := C.char('V')
	info := call(a.g, func() C.lapis_int {
		var info C.lapis_int
		n := ci(a.n)
		key := wsKey{routine: "pdsyevd", n: a.n, mb: a.mb, nb: a.nb, grid: a.g.id, job1: byte(u)}
		ws, ok := world.wsCache[key]
		if !ok {
			var wq C.double
			var iq, lw, liw C.lapis_int = 0, -1, -1
			C.pdsyevd_(&jobz, &u, &n, (*C.double)(pa), one(), one(), &da[0], (*C.double)(pw), (*C.double)(pz), one(), one(), &dz[0], &wq, &lw, &iq, &liw, &info, 1, 1)
			if info != 0 {
				return info
			}
			// pdsyevd's own minimum does not cover what it hands pdormtr
			// (LWORK - 2n) when blocks are large next to n: pdormtr then
			// rejects its LWORK, prints so, and pdsyevd returns wrong
			// eigenvectors with info 0 (seen with n = 1, and n = 13 in
			// blocks of 16). Add pdormtr's minimum, bounded from above
			// (its local row and column counts are at most n + nb).
			nb := a.nb
			ormtr := max(nb*(nb-1)/2, 2*(a.n+nb)*nb) + nb*nb
			ws = wsSize{lwork: gridMax(a.g, max(1, int(wq), 2*a.n+ormtr)), liwork: gridMax(a.g, max(1, int(iq)))}
			world.wsCache[key] = ws
		}
		work, iwork := pool.Get[float64](ws.lwork), pool.Get[int32](ws.liwork)
		defer pool.Put(work)
		defer pool.Put(iwork)
		lw, liw := ci(ws.lwork), ci(ws.liwork)
		C.pdsyevd_(&jobz, &u, &n, (*C.double)(pa), one(), one(), &da[0], (*C.double)(pw), (*C.double)(pz), one(), one(), &dz[0],
			(*C.double)(unsafe.Pointer(&work.Data[0])), &lw, (*C.lapis_int)(unsafe.Pointer(&iwork.Data[0])), &liw, &info, 1, 1)
		// pdsyevd leaves w unwritten on ranks that hold none of a (n <= nb
		// on a grid wider than one, seen with n = 13 in blocks of 16): w
		// goes from grid process (0, 0), which always holds a's first
		// block, to the others.
		if a.g.row == 0 && a.g.col == 0 {
			C.Cdgebs2d(a.g.ctxt, &allScope[0], &spaceTop[0], n, 1, (*C.double)(pw), n)
		} else {
			C.Cdgebr2d(a.g.ctxt, &allScope[0], &spaceTop[0], n, 1, (*C.double)(pw), n, 0, 0)
		}
		return info
	})
	return infoErr("pdsyevd", info, lapack.ErrNoConvergence)
}

// Gesvd computes the singular values of the m x n a (descending, into s:
// min(m, n) elements, on every rank of the grid) and, when u and vt are
// not nil, the leading min(m, n) left and right singular vectors (u: m x
// min(m, n), vt: min(m, n) x n, both in a's block sizes), destroying a
// (pdgesvd; square blocks; float64). Errors match ErrState,
// layout.ErrShape, or lapack.ErrNoConvergence (an *Error; info min(m,n)+1
// means the ranks computed different singular values) on every rank.
func Gesvd(a *Matrix[float64], s []float64, u, vt *Matrix[float64]) error {
	const op = "dist.Gesvd"
	others := map[string]*Matrix[float64]{}
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
	k := min(a.m, a.n)
	if len(s) != k {
		return layout.Errorf(layout.ErrShape, op, "s", "length %d; a is %d x %d", len(s), a.m, a.n)
	}
	job := C.char('N')
	// ScaLAPACK reads U's and VT's descriptors even for 'N': a's stands in.
	pu, pvt, du, dvt := ptr(a), ptr(a), a.desc, a.desc
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
	if k == 0 {
		return nil
	}
	pa, da := ptr(a), a.desc
	ps := unsafe.Pointer(&s[0])
	info := call(a.g, func() C.lapis_int {
		var info C.lapis_int
		m, n := ci(a.m), ci(a.n)
		key := wsKey{routine: "pdgesvd", m: a.m, n: a.n, mb: a.mb, nb: a.nb, grid: a.g.id, job1: byte(job)}
		ws, ok := world.wsCache[key]
		if !ok {
			var wq C.double
			lw := C.lapis_int(-1)
			C.pdgesvd_(&job, &job, &m, &n, (*C.double)(pa), one(), one(), &da[0], (*C.double)(ps), (*C.double)(pu), one(), one(), &du[0],
				(*C.double)(pvt), one(), one(), &dvt[0], &wq, &lw, &info, 1, 1)
			if info != 0 {
				return info
			}
			ws = wsSize{lwork: gridMax(a.g, max(1, int(wq)))}
			world.wsCache[key] = ws
		}
		work := pool.Get[float64](ws.lwork)
		defer pool.Put(work)
		lw := ci(ws.lwork)
		C.pdgesvd_(&job, &job, &m, &n, (*C.double)(pa), one(), one(), &da[0], (*C.double)(ps), (*C.double)(pu), one(), one(), &du[0],
			(*C.double)(pvt), one(), one(), &dvt[0], (*C.double)(unsafe.Pointer(&work.Data[0])), &lw, &info, 1, 1)
		return info
	})
	if info == k+1 {
		return &Error{Routine: "pdgesvd", Info: info, Index: -1, kind: lapack.ErrNoConvergence, detail: "the ranks computed different singular values (heterogeneous results)"}
	}
	return infoErr("pdgesvd", info, lapack.ErrNoConvergence)
}

// Gels solves the full-rank least-squares problem min ||b - a x|| (m >= n)
// or the minimum-norm problem a x = b (m < n) with a QR or LQ factorisation
// (pdgels; float64; square blocks, b's row blocks a's): a is overwritten
// by the factorisation, b (max(m, n) x nrhs) by x in its first n rows.
// ScaLAPACK does not check the rank: a rank-deficient a gives a wrong x
// without an error. Errors match ErrState or layout.ErrShape.
func Gels(a, b *Matrix[float64]) error {
	const op = "dist.Gels"
	if err := sameGrid(op, a, map[string]*Matrix[float64]{"b": b}); err != nil {
		return err
	}
	if err := squareBlocks(op, "a", a); err != nil {
		return err
	}
	if b.m != max(a.m, a.n) {
		return layout.Errorf(layout.ErrShape, op, "b", "%d rows; a %d x %d needs max(m, n) = %d", b.m, a.m, a.n, max(a.m, a.n))
	}
	if b.mb != a.mb {
		return layout.Errorf(layout.ErrShape, op, "b", "row blocks of %d; ScaLAPACK needs a's %d", b.mb, a.mb)
	}
	if a.m == 0 || a.n == 0 || b.n == 0 {
		return nil
	}
	pa, pb := ptr(a), ptr(b)
	da, db := a.desc, b.desc
	tr := C.char('N')
	info := call(a.g, func() C.lapis_int {
		var info C.lapis_int
		m, n, nrhs := ci(a.m), ci(a.n), ci(b.n)
		key := wsKey{routine: "pdgels", m: a.m, n: a.n, k: b.n, mb: a.mb, nb: a.nb, grid: a.g.id}
		ws, ok := world.wsCache[key]
		if !ok {
			var wq C.double
			lw := C.lapis_int(-1)
			C.pdgels_(&tr, &m, &n, &nrhs, (*C.double)(pa), one(), one(), &da[0], (*C.double)(pb), one(), one(), &db[0], &wq, &lw, &info, 1)
			if info != 0 {
				return info
			}
			ws = wsSize{lwork: gridMax(a.g, max(1, int(wq)))}
			world.wsCache[key] = ws
		}
		work := pool.Get[float64](ws.lwork)
		defer pool.Put(work)
		lw := ci(ws.lwork)
		C.pdgels_(&tr, &m, &n, &nrhs, (*C.double)(pa), one(), one(), &da[0], (*C.double)(pb), one(), one(), &db[0],
			(*C.double)(unsafe.Pointer(&work.Data[0])), &lw, &info, 1)
		return info
	})
	return infoErr("pdgels", info, nil)
}
