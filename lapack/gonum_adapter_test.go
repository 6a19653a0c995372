package lapack_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	gonumlapack "gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// gonumAdapter implements the row-major method set of gonum's
// lapack.Float64 that lapis covers, for gonum's testlapack conformance
// suites, by calling lapis's package lapack. It hands lapis each of
// gonum's m x n arrays a (leading dimension lda) in one of two storages:
//
//   - rowMajor: the array itself, as the strided view with shape [m, n]
//     and strides [lda, 1], no copy here. lapis decides what to do with
//     it: routines that take a transpose (Lange, Trtrs, Gels) hand it to
//     LAPACK in place as the transposed stored matrix, the others copy it
//     to column-major and back (counted in cblas.Stats.Copies).
//   - colMajor: a column-major copy with leading dimension m+colPad, its
//     padding NaN. lapis must take every operand in place (the adapter
//     checks that Stats.Copies does not move) and leave the padding NaN;
//     the m x n elements are copied back to gonum's array after the call.
//
// op(A) arguments (Dtrtrs, Dgels) are passed as views: A for NoTrans, A.T()
// or A.H() otherwise, so each storage takes both of lapis's in-place
// readings ("N" and "T").
//
// Pivots are converted between gonum's 0-based []int and LAPACK's 1-based
// []int32. Workspaces: lapis manages its own, so work and lwork are ignored
// except for the query lwork == -1, answered with a size no smaller than
// gonum's documented minimum, about a block (gnBlock) per row or column
// (workQuery); iwork is ignored.
//
// A few methods the suites call as helpers are not lapis routines; they
// are delegated to gonum's pure-Go implementation (the delegate field) and
// never stand for the routine a suite tests:
//
//	Dgeqr2, Dgelq2, Dorg2r, Dorm2r  unblocked references for Dgeqrf, Dgelqf, Dorgqr, Dormqr
//	Dlansy                          the norm of a symmetric matrix for DpoconTest
//
// Every lapis call checks that lapis's LAPACK call counter moved (so that
// a lapis routine really ran), and any error other than the numerical one
// the gonum method reports through its result fails the test.
type gonumAdapter struct {
	t        *testing.T
	storage  storage
	delegate gonum.Implementation

	pending []colMajorCopy // operands of the call in progress (colMajor)

	calls     int // lapis routines called
	delegated int // helper calls served by gonum
}

type storage int

const (
	rowMajor storage = iota
	colMajor
)

func (s storage) String() string { return [...]string{"rowmajor", "colmajor"}[s] }

// colPad is the padding below each column of a colMajor operand.
const colPad = 3

// colMajorCopy is a colMajor operand: gonum's array and its copy.
type colMajorCopy struct {
	m, n, lda, ld int
	a, buf        []float64
}

func newAdapter(t *testing.T, s storage) *gonumAdapter { return &gonumAdapter{t: t, storage: s} }

// mat returns gonum's row-major m x n array a (leading dimension lda) as
// a lapis view in the adapter's storage.
func (g *gonumAdapter) mat(m, n int, a []float64, lda int) views.View[float64] {
	g.t.Helper()
	shape, strides := []int{m, n}, []int{lda, 1}
	if g.storage == colMajor {
		c := colMajorCopy{m: m, n: n, lda: lda, ld: max(1, m) + colPad, a: a}
		c.buf = make([]float64, c.ld*n)
		for k := range c.buf {
			c.buf[k] = math.NaN()
		}
		for i := range m {
			for j := range n {
				c.buf[i+j*c.ld] = a[i*lda+j]
			}
		}
		g.pending = append(g.pending, c)
		a, strides = c.buf, []int{1, c.ld}
	}
	l, err := layout.New(shape, strides, 0)
	if err != nil {
		g.t.Fatalf("adapter: layout of a %d x %d array with lda %d: %v", m, n, lda, err)
	}
	v, err := views.FromSlice(a, l)
	if err != nil {
		g.t.Fatalf("adapter: view of a %d x %d array with lda %d: %v", m, n, lda, err)
	}
	return v
}

// flush copies the colMajor operands of the call back to gonum's arrays
// and checks that their padding is still NaN.
func (g *gonumAdapter) flush(routine string) {
	g.t.Helper()
	for _, c := range g.pending {
		for j := range c.n {
			for i := c.m; i < c.ld; i++ {
				if v := c.buf[i+j*c.ld]; !math.IsNaN(v) {
					g.t.Errorf("%s: wrote %v into the padding of a %d x %d column-major operand (ld %d) at row %d, column %d", routine, v, c.m, c.n, c.ld, i, j)
				}
			}
			for i := range c.m {
				c.a[i*c.lda+j] = c.buf[i+j*c.ld]
			}
		}
	}
	g.pending = g.pending[:0]
}

// tr returns the transpose of v, a view.
func (g *gonumAdapter) tr(v views.View[float64]) views.View[float64] {
	g.t.Helper()
	w, err := v.T()
	if err != nil {
		g.t.Fatalf("adapter: transpose: %v", err)
	}
	return w
}

// run calls a lapis routine and returns its error if it matches one of
// want (the numerical failures the gonum method reports), nil if it
// succeeded; any other error fails the test. It checks that lapis called
// LAPACK and, for colMajor operands, that it copied none of them, and
// writes the colMajor operands back.
func (g *gonumAdapter) run(routine string, call func() error, want ...error) error {
	g.t.Helper()
	g.calls++
	before := cblas.ReadStats()
	err := call()
	after := cblas.ReadStats()
	g.flush(routine)
	if after.Lapack == before.Lapack {
		g.t.Errorf("%s: lapis did not call LAPACK (Stats.Lapack unchanged), err = %v", routine, err)
	}
	if g.storage == colMajor && after.Copies != before.Copies {
		g.t.Errorf("%s: lapis copied %d column-major operands, want 0", routine, after.Copies-before.Copies)
	}
	if err == nil {
		return nil
	}
	for _, w := range want {
		if errors.Is(err, w) {
			return err
		}
	}
	g.t.Errorf("%s: unexpected error from lapis: %v", routine, err)
	return err
}

// runWithoutLapack calls a lapis routine that answers without LAPACK
// (Gecon and Pocon for a non-finite anorm) and fails the test on any
// error or copy.
func (g *gonumAdapter) runWithoutLapack(routine string, call func() error) {
	g.t.Helper()
	g.calls++
	before := cblas.ReadStats()
	err := call()
	after := cblas.ReadStats()
	g.flush(routine)
	if err != nil || after.Copies != before.Copies {
		g.t.Errorf("%s: %v, %d copies; want no error, no copy", routine, err, after.Copies-before.Copies)
	}
}

func pivotsIn(ipiv []int, n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(ipiv[i] + 1)
	}
	return p
}

func pivotsOut(ipiv []int, p []int32) {
	for i, v := range p {
		ipiv[i] = int(v) - 1
	}
}

// workQuery answers a workspace query (lwork == -1) with size (at least
// 1) in work[0] and reports whether it was one.
func workQuery(work []float64, lwork, size int) bool {
	if lwork != -1 {
		return false
	}
	work[0] = float64(max(1, size))
	return true
}

// gnBlock is the block size the workspace answers assume (any value >= 1
// would do: lapis ignores the caller's workspace).
const gnBlock = 64

func gnUplo(u blas.Uplo) cblas.Uplo {
	if u == blas.Lower {
		return cblas.Lower
	}
	return cblas.Upper
}

func gnFlip(u blas.Uplo) cblas.Uplo {
	if u == blas.Lower {
		return cblas.Upper
	}
	return cblas.Lower
}

func gnDiag(d blas.Diag) cblas.Diag {
	if d == blas.Unit {
		return cblas.Unit
	}
	return cblas.NonUnit
}

func gnSide(s blas.Side) cblas.Side {
	if s == blas.Right {
		return cblas.Right
	}
	return cblas.Left
}

func gnOp(t blas.Transpose) lapack.Op {
	switch t {
	case blas.Trans:
		return lapack.Trans
	case blas.ConjTrans:
		return lapack.ConjTrans
	}
	return lapack.NoTrans
}

func gnNorm(n gonumlapack.MatrixNorm) lapack.Norm {
	switch n {
	case gonumlapack.MaxAbs:
		return lapack.MaxAbs
	case gonumlapack.MaxColumnSum:
		return lapack.OneNorm
	case gonumlapack.MaxRowSum:
		return lapack.InfNorm
	case gonumlapack.Frobenius:
		return lapack.Frobenius
	}
	return lapack.Norm(n)
}

// Linear systems.

func (g *gonumAdapter) Dgetrf(m, n int, a []float64, lda int, ipiv []int) bool {
	g.t.Helper()
	p := make([]int32, min(m, n))
	err := g.run("Getrf", func() error { return lapack.Getrf(g.mat(m, n, a, lda), p) }, lapack.ErrSingular)
	pivotsOut(ipiv, p)
	return err == nil
}

func (g *gonumAdapter) Dgetrs(trans blas.Transpose, n, nrhs int, a []float64, lda int, ipiv []int, b []float64, ldb int) {
	g.t.Helper()
	p := pivotsIn(ipiv, n)
	g.run("Getrs", func() error {
		return lapack.Getrs(gnOp(trans), g.mat(n, n, a, lda), p, g.mat(n, nrhs, b, ldb))
	})
}

func (g *gonumAdapter) Dgetri(n int, a []float64, lda int, ipiv []int, work []float64, lwork int) bool {
	g.t.Helper()
	if workQuery(work, lwork, n*gnBlock) {
		return true
	}
	p := pivotsIn(ipiv, n)
	return g.run("Getri", func() error { return lapack.Getri(g.mat(n, n, a, lda), p) }, lapack.ErrSingular) == nil
}

func (g *gonumAdapter) Dgesv(n, nrhs int, a []float64, lda int, ipiv []int, b []float64, ldb int) bool {
	g.t.Helper()
	p := make([]int32, n)
	err := g.run("Gesv", func() error {
		return lapack.Gesv(g.mat(n, n, a, lda), g.mat(n, nrhs, b, ldb), p)
	}, lapack.ErrSingular)
	pivotsOut(ipiv, p)
	return err == nil
}

func (g *gonumAdapter) Dpotrf(ul blas.Uplo, n int, a []float64, lda int) bool {
	g.t.Helper()
	return g.run("Potrf", func() error { return lapack.Potrf(gnUplo(ul), g.mat(n, n, a, lda)) }, lapack.ErrNotPositiveDefinite) == nil
}

func (g *gonumAdapter) Dpotrs(ul blas.Uplo, n, nrhs int, a []float64, lda int, b []float64, ldb int) {
	g.t.Helper()
	g.run("Potrs", func() error { return lapack.Potrs(gnUplo(ul), g.mat(n, n, a, lda), g.mat(n, nrhs, b, ldb)) })
}

func (g *gonumAdapter) Dpotri(ul blas.Uplo, n int, a []float64, lda int) bool {
	g.t.Helper()
	return g.run("Potri", func() error { return lapack.Potri(gnUplo(ul), g.mat(n, n, a, lda)) }, lapack.ErrSingular) == nil
}

// Dtrtrs passes op(A) as a view: A itself for NoTrans (row-major, so lapis
// hands its storage to LAPACK as "T"), A.T() for Trans and A.H() for
// ConjTrans (column-major: "N"), whose triangle is the other one.
func (g *gonumAdapter) Dtrtrs(ul blas.Uplo, trans blas.Transpose, d blas.Diag, n, nrhs int, a []float64, lda int, b []float64, ldb int) bool {
	g.t.Helper()
	av, u := g.mat(n, n, a, lda), gnUplo(ul)
	switch trans {
	case blas.Trans:
		av, u = g.tr(av), gnFlip(ul)
	case blas.ConjTrans:
		h, err := av.H()
		if err != nil {
			g.t.Fatalf("adapter: H: %v", err)
		}
		av, u = h, gnFlip(ul)
	}
	return g.run("Trtrs", func() error { return lapack.Trtrs(u, gnDiag(d), av, g.mat(n, nrhs, b, ldb)) }, lapack.ErrSingular) == nil
}

// Orthogonal factorisations and least squares.

func (g *gonumAdapter) Dgeqrf(m, n int, a []float64, lda int, tau, work []float64, lwork int) {
	g.t.Helper()
	if workQuery(work, lwork, n*gnBlock) {
		return
	}
	g.run("Geqrf", func() error { return lapack.Geqrf(g.mat(m, n, a, lda), tau[:min(m, n)]) })
}

func (g *gonumAdapter) Dgelqf(m, n int, a []float64, lda int, tau, work []float64, lwork int) {
	g.t.Helper()
	if workQuery(work, lwork, m*gnBlock) {
		return
	}
	g.run("Gelqf", func() error { return lapack.Gelqf(g.mat(m, n, a, lda), tau[:min(m, n)]) })
}

func (g *gonumAdapter) Dorgqr(m, n, k int, a []float64, lda int, tau, work []float64, lwork int) {
	g.t.Helper()
	if workQuery(work, lwork, n*gnBlock) {
		return
	}
	g.run("Orgqr", func() error { return lapack.Orgqr(g.mat(m, n, a, lda), tau[:k]) })
}

func (g *gonumAdapter) Dormqr(s blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64, lwork int) {
	g.t.Helper()
	nq, nw := m, n // order of Q, and gonum's minimum workspace
	if s == blas.Right {
		nq, nw = n, m
	}
	if workQuery(work, lwork, nw*gnBlock) {
		return
	}
	g.run("Ormqr", func() error {
		return lapack.Ormqr(gnSide(s), gnOp(trans), g.mat(nq, k, a, lda), tau[:k], g.mat(m, n, c, ldc))
	})
}

// Dgels passes op(A) as a view, as Dtrtrs.
func (g *gonumAdapter) Dgels(trans blas.Transpose, m, n, nrhs int, a []float64, lda int, b []float64, ldb int, work []float64, lwork int) bool {
	g.t.Helper()
	mn := min(m, n)
	if workQuery(work, lwork, mn+max(mn, nrhs)*gnBlock) {
		return true
	}
	av := g.mat(m, n, a, lda)
	if trans != blas.NoTrans {
		av = g.tr(av)
	}
	return g.run("Gels", func() error { return lapack.Gels(av, g.mat(max(m, n), nrhs, b, ldb)) }, lapack.ErrSingular) == nil
}

// Singular values and eigenvalues.

func (g *gonumAdapter) Dgesvd(jobU, jobVT gonumlapack.SVDJob, m, n int, a []float64, lda int, s, u []float64, ldu int, vt []float64, ldvt int, work []float64, lwork int) bool {
	g.t.Helper()
	mn := min(m, n)
	if workQuery(work, lwork, max(5*mn, 3*mn+max(m, n))+(m+n)*gnBlock) {
		return true
	}
	var uv, vtv views.View[float64]
	switch jobU {
	case gonumlapack.SVDAll:
		uv = g.mat(m, m, u, ldu)
	case gonumlapack.SVDStore:
		uv = g.mat(m, mn, u, ldu)
	}
	switch jobVT {
	case gonumlapack.SVDAll:
		vtv = g.mat(n, n, vt, ldvt)
	case gonumlapack.SVDStore:
		vtv = g.mat(mn, n, vt, ldvt)
	}
	return g.run("Gesvd", func() error {
		return lapack.Gesvd(lapack.Job(jobU), lapack.Job(jobVT), g.mat(m, n, a, lda), s[:mn], uv, vtv)
	}, lapack.ErrNoConvergence) == nil
}

// Dsyev is implemented with lapis's Syevd (divide and conquer): lapis has
// no QR-iteration dsyev, and gonum's Dsyev contract (eigenvalues ascending,
// orthonormal eigenvectors over a) is Syevd's.
func (g *gonumAdapter) Dsyev(jobz gonumlapack.EVJob, ul blas.Uplo, n int, a []float64, lda int, w, work []float64, lwork int) bool {
	g.t.Helper()
	if workQuery(work, lwork, (gnBlock+2)*n) {
		return true
	}
	job := lapack.JobNone
	if jobz == gonumlapack.EVCompute {
		job = lapack.JobVectors
	}
	return g.run("Syevd", func() error { return lapack.Syevd(job, gnUplo(ul), g.mat(n, n, a, lda), w[:n]) }, lapack.ErrNoConvergence) == nil
}

func (g *gonumAdapter) Dgeev(jobvl gonumlapack.LeftEVJob, jobvr gonumlapack.RightEVJob, n int, a []float64, lda int, wr, wi []float64, vl []float64, ldvl int, vr []float64, ldvr int, work []float64, lwork int) int {
	g.t.Helper()
	if workQuery(work, lwork, 4*n+n*gnBlock) {
		return 0
	}
	jl, jr := lapack.JobNone, lapack.JobNone
	var vlv, vrv views.View[float64]
	if jobvl == gonumlapack.LeftEVCompute {
		jl, vlv = lapack.JobVectors, g.mat(n, n, vl, ldvl)
	}
	if jobvr == gonumlapack.RightEVCompute {
		jr, vrv = lapack.JobVectors, g.mat(n, n, vr, ldvr)
	}
	w := make([]complex128, n)
	err := g.run("Geev", func() error { return lapack.Geev(jl, jr, g.mat(n, n, a, lda), w, vlv, vrv) }, lapack.ErrNoConvergence)
	for i, z := range w {
		wr[i], wi[i] = real(z), imag(z)
	}
	var e *lapack.Error
	if errors.As(err, &e) {
		return e.Info // LAPACK's info is gonum's first: w[info:] converged
	}
	return 0
}

// Norms and condition numbers.

func (g *gonumAdapter) Dlange(nm gonumlapack.MatrixNorm, m, n int, a []float64, lda int, work []float64) float64 {
	g.t.Helper()
	var r float64
	g.run("Lange", func() (err error) {
		r, err = lapack.Lange(gnNorm(nm), g.mat(m, n, a, lda))
		return err
	})
	return r
}

func (g *gonumAdapter) Dgecon(nm gonumlapack.MatrixNorm, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	g.t.Helper()
	var r float64
	call := func() (err error) {
		r, err = lapack.Gecon(gnNorm(nm), g.mat(n, n, a, lda), anorm)
		return err
	}
	if n > 0 && (math.IsInf(anorm, 1) || math.IsNaN(anorm)) {
		g.runWithoutLapack("Gecon", call) // lapis answers these itself (nonFiniteNorm)
	} else {
		g.run("Gecon", call)
	}
	return r
}

func (g *gonumAdapter) Dpocon(ul blas.Uplo, n int, a []float64, lda int, anorm float64, work []float64, iwork []int) float64 {
	g.t.Helper()
	var r float64
	call := func() (err error) {
		r, err = lapack.Pocon(gnUplo(ul), g.mat(n, n, a, lda), anorm)
		return err
	}
	if n > 0 && (math.IsInf(anorm, 1) || math.IsNaN(anorm)) {
		g.runWithoutLapack("Pocon", call)
	} else {
		g.run("Pocon", call)
	}
	return r
}

// Helpers delegated to gonum (not lapis routines).

func (g *gonumAdapter) Dgeqr2(m, n int, a []float64, lda int, tau, work []float64) {
	g.delegated++
	g.delegate.Dgeqr2(m, n, a, lda, tau, work)
}

func (g *gonumAdapter) Dgelq2(m, n int, a []float64, lda int, tau, work []float64) {
	g.delegated++
	g.delegate.Dgelq2(m, n, a, lda, tau, work)
}

func (g *gonumAdapter) Dorg2r(m, n, k int, a []float64, lda int, tau, work []float64) {
	g.delegated++
	g.delegate.Dorg2r(m, n, k, a, lda, tau, work)
}

func (g *gonumAdapter) Dorm2r(s blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64) {
	g.delegated++
	g.delegate.Dorm2r(s, trans, m, n, k, a, lda, tau, c, ldc, work)
}

func (g *gonumAdapter) Dlansy(nm gonumlapack.MatrixNorm, ul blas.Uplo, n int, a []float64, lda int, work []float64) float64 {
	g.delegated++
	return g.delegate.Dlansy(nm, ul, n, a, lda, work)
}

// unblockedAdapter answers testlapack's suites for the unblocked routines
// (dgetf2, dpotf2, dgeqr2, dgelq2), which lapis does not expose, with the
// blocked lapis routines of the same contract: those suites check the
// result (P L U = A, singular and indefinite inputs, Q R = A for sizes from
// 0 with padded lda), not the algorithm, and add edge cases the blocked
// suites lack.
type unblockedAdapter struct{ *gonumAdapter }

func (u unblockedAdapter) Dgetf2(m, n int, a []float64, lda int, ipiv []int) bool {
	u.t.Helper()
	return u.Dgetrf(m, n, a, lda, ipiv)
}

func (u unblockedAdapter) Dpotf2(ul blas.Uplo, n int, a []float64, lda int) bool {
	u.t.Helper()
	return u.Dpotrf(ul, n, a, lda)
}

func (u unblockedAdapter) Dgeqr2(m, n int, a []float64, lda int, tau, work []float64) {
	u.t.Helper()
	u.run("Geqrf", func() error { return lapack.Geqrf(u.mat(m, n, a, lda), tau[:min(m, n)]) })
}

func (u unblockedAdapter) Dgelq2(m, n int, a []float64, lda int, tau, work []float64) {
	u.t.Helper()
	u.run("Gelqf", func() error { return lapack.Gelqf(u.mat(m, n, a, lda), tau[:min(m, n)]) })
}
