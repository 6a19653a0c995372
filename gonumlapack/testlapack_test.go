package gonumlapack_test

import (
	"os"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/testlapack"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/gonumlapack"
)

// gonum's testlapack conformance suites, run against Implementation.
// Each suite is one row: the method it tests and how to call it.

// withRefs is Implementation plus the unblocked routines some suites
// call as references for the blocked ones (DgeqrfTest compares Dgeqrf
// with Dgeqr2, ...): they are not lapack.Float64 methods, so gonum's
// pure-Go implementation answers them, and they never stand for the
// method a suite tests.
type withRefs struct {
	gonumlapack.Implementation
	ref gonum.Implementation
}

func (w withRefs) Dgeqr2(m, n int, a []float64, lda int, tau, work []float64) {
	w.ref.Dgeqr2(m, n, a, lda, tau, work)
}

func (w withRefs) Dgelq2(m, n int, a []float64, lda int, tau, work []float64) {
	w.ref.Dgelq2(m, n, a, lda, tau, work)
}

func (w withRefs) Dorg2r(m, n, k int, a []float64, lda int, tau, work []float64) {
	w.ref.Dorg2r(m, n, k, a, lda, tau, work)
}

func (w withRefs) Dorgl2(m, n, k int, a []float64, lda int, tau, work []float64) {
	w.ref.Dorgl2(m, n, k, a, lda, tau, work)
}

func (w withRefs) Dorm2r(s blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64) {
	w.ref.Dorm2r(s, trans, m, n, k, a, lda, tau, c, ldc, work)
}

func (w withRefs) Dorml2(s blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64) {
	w.ref.Dorml2(s, trans, m, n, k, a, lda, tau, c, ldc, work)
}

// unblocked answers testlapack's suites for the unblocked routines (dgetf2,
// dpotf2, dgeqr2, ...), which lapack.Float64 does not have, with the
// blocked methods of the same contract: those suites check the result
// (P L U = A, Q R = A, singular and indefinite inputs, sizes from 0 with
// padded lda), not the algorithm, and add edge cases the blocked suites
// lack. The workspace the unblocked routines take is too short for a
// blocked call, so each call makes its own (a workspace query first).
type unblocked struct{ gonumlapack.Implementation }

func queryWork(least int, q func(work []float64)) []float64 {
	w := make([]float64, 1)
	q(w) // a quick return answers 1, below gonum's own minimum
	return make([]float64, max(least, int(w[0])))
}

func (u unblocked) Dgetf2(m, n int, a []float64, lda int, ipiv []int) bool {
	return u.Dgetrf(m, n, a, lda, ipiv)
}

func (u unblocked) Dpotf2(ul blas.Uplo, n int, a []float64, lda int) bool {
	return u.Dpotrf(ul, n, a, lda)
}

func (u unblocked) Dtrti2(ul blas.Uplo, d blas.Diag, n int, a []float64, lda int) {
	u.Dtrtri(ul, d, n, a, lda)
}

func (u unblocked) Dpbtf2(ul blas.Uplo, n, kd int, ab []float64, ldab int) bool {
	return u.Dpbtrf(ul, n, kd, ab, ldab)
}

func (u unblocked) Dpstf2(ul blas.Uplo, n int, a []float64, lda int, piv []int, tol float64, work []float64) (int, bool) {
	return u.Dpstrf(ul, n, a, lda, piv, tol, work)
}

func (u unblocked) Dgeqr2(m, n int, a []float64, lda int, tau, work []float64) {
	w := queryWork(n, func(w []float64) { u.Dgeqrf(m, n, a, lda, tau, w, -1) })
	u.Dgeqrf(m, n, a, lda, tau[:min(m, n)], w, len(w))
}

func (u unblocked) Dgelq2(m, n int, a []float64, lda int, tau, work []float64) {
	w := queryWork(m, func(w []float64) { u.Dgelqf(m, n, a, lda, tau, w, -1) })
	u.Dgelqf(m, n, a, lda, tau, w, len(w))
}

func (u unblocked) Dorg2r(m, n, k int, a []float64, lda int, tau, work []float64) {
	w := queryWork(n, func(w []float64) { u.Dorgqr(m, n, k, a, lda, tau, w, -1) })
	u.Dorgqr(m, n, k, a, lda, tau[:k], w, len(w))
}

func (u unblocked) Dorgl2(m, n, k int, a []float64, lda int, tau, work []float64) {
	w := queryWork(m, func(w []float64) { u.Dorglq(m, n, k, a, lda, tau, w, -1) })
	u.Dorglq(m, n, k, a, lda, tau, w, len(w))
}

func (u unblocked) Dorm2r(s blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64) {
	w := queryWork(max(m, n), func(w []float64) { u.Dormqr(s, trans, m, n, k, a, lda, tau, c, ldc, w, -1) })
	u.Dormqr(s, trans, m, n, k, a, lda, tau[:k], c, ldc, w, len(w))
}

func (u unblocked) Dorml2(s blas.Side, trans blas.Transpose, m, n, k int, a []float64, lda int, tau, c []float64, ldc int, work []float64) {
	w := queryWork(max(m, n), func(w []float64) { u.Dormlq(s, trans, m, n, k, a, lda, tau, c, ldc, w, -1) })
	u.Dormlq(s, trans, m, n, k, a, lda, tau, c, ldc, w, len(w))
}

// gesv answers DgesvTest, which lapack.Float64 has no method for, with
// Dgetrf and Dgetrs (what gonum/mat does for a square solve).
type gesv struct{ gonumlapack.Implementation }

func (g gesv) Dgesv(n, nrhs int, a []float64, lda int, ipiv []int, b []float64, ldb int) bool {
	if !g.Dgetrf(n, n, a, lda, ipiv[:n]) {
		return false
	}
	g.Dgetrs(blas.NoTrans, n, nrhs, a, lda, ipiv[:n], b, ldb)
	return true
}

// The suites' interfaces the test types promise to satisfy.
var (
	_ testlapack.Dgeconer  = withRefs{}
	_ testlapack.Dgeever   = withRefs{}
	_ testlapack.Dgelser   = withRefs{}
	_ testlapack.Dgelqfer  = withRefs{}
	_ testlapack.Dgeqp3er  = withRefs{}
	_ testlapack.Dgeqrfer  = withRefs{}
	_ testlapack.Dgesvder  = withRefs{}
	_ testlapack.Dgetrfer  = withRefs{}
	_ testlapack.Dgetrier  = withRefs{}
	_ testlapack.Dgetrser  = withRefs{}
	_ testlapack.Dggsvd3er = withRefs{}
	_ testlapack.Dlantrer  = withRefs{}
	_ testlapack.Dlanger   = withRefs{}
	_ testlapack.Dlansyer  = withRefs{}
	_ testlapack.Dlapmrer  = withRefs{}
	_ testlapack.Dlapmter  = withRefs{}
	_ testlapack.Dorgqrer  = withRefs{}
	_ testlapack.Dormqrer  = withRefs{}
	_ testlapack.Dorglqer  = withRefs{}
	_ testlapack.Dormlqer  = withRefs{}
	_ testlapack.Dpbconer  = withRefs{}
	_ testlapack.Dpbtrfer  = withRefs{}
	_ testlapack.Dpbtrser  = withRefs{}
	_ testlapack.Dpoconer  = withRefs{}
	_ testlapack.Dpotrfer  = withRefs{}
	_ testlapack.Dpotrier  = withRefs{}
	_ testlapack.Dpotrser  = withRefs{}
	_ testlapack.Dpstrfer  = withRefs{}
	_ testlapack.Dsyever   = withRefs{}
	_ testlapack.Dtbtrser  = withRefs{}
	_ testlapack.Dtrconer  = withRefs{}
	_ testlapack.Dtrtrier  = withRefs{}
	_ testlapack.Dtrtrser  = withRefs{}
	_ testlapack.Dgesver   = gesv{}
	_ testlapack.Dgetf2er  = unblocked{}
	_ testlapack.Dpotf2er  = unblocked{}
	_ testlapack.Dtrti2er  = unblocked{}
	_ testlapack.Dpbtf2er  = unblocked{}
	_ testlapack.Dpstf2er  = unblocked{}
	_ testlapack.Dgeqr2er  = unblocked{}
	_ testlapack.Dgelq2er  = unblocked{}
	_ testlapack.Dorg2rer  = unblocked{}
	_ testlapack.Dorgl2er  = unblocked{}
	_ testlapack.Dorm2rer  = unblocked{}
	_ testlapack.Dorml2er  = unblocked{}
)

// fullEnv makes every suite run, even under -race.
const fullEnv = "LAPIS_TESTLAPACK_FULL"

// TestTestlapack runs gonum's suites against Implementation: one for
// every lapack.Float64 method that has one, and the unblocked routines'
// suites through the blocked methods (see unblocked).
//
// Under -race, where gonum's pure-Go checks and its padded test arrays (up
// to 96 MB) cost about ten times more, the largest suites are skipped: the
// method still runs under -race in the suite named in the skip message,
// except Dgesvd, Dgeev and Dggsvd3. -short (the arm64 variant under
// emulation, about as slow) skips the same. Set LAPIS_TESTLAPACK_FULL=1
// to run every suite.
//
// OpenBLAS runs single-threaded meanwhile: the suites' problems are small,
// and idle OpenBLAS threads spinning between calls doubled the file's CPU
// time on a two-core machine. The previous setting is restored.
func TestTestlapack(t *testing.T) {
	full := os.Getenv(fullEnv) != ""
	if threads := lapis.Threads(); threads != 1 {
		if err := lapis.SetThreads(1); err != nil {
			t.Logf("running with %d OpenBLAS threads: %v", threads, err)
		} else {
			t.Cleanup(func() { _ = lapis.SetThreads(threads) })
		}
	}
	impl := withRefs{}
	ub := unblocked{}
	for _, tc := range []struct {
		suite  string // testlapack's suite (the method it tests)
		race   bool   // runs under -race
		alsoIn string // suites that also run the method under -race
		run    func(*testing.T)
	}{
		{"Dgecon", true, "", func(t *testing.T) { testlapack.DgeconTest(t, impl) }},
		{"Dgeev", false, "", func(t *testing.T) { testlapack.DgeevTest(t, impl) }},
		{"Dgels", false, "", func(t *testing.T) { testlapack.DgelsTest(t, impl) }},
		{"Dgelqf", false, "Dgelq2", func(t *testing.T) { testlapack.DgelqfTest(t, impl) }},
		{"Dgeqp3", true, "", func(t *testing.T) { testlapack.Dgeqp3Test(t, impl) }},
		{"Dgeqrf", false, "Dgeqr2", func(t *testing.T) { testlapack.DgeqrfTest(t, impl) }},
		// tol 2e-13: the suite compares the singular values of the full and
		// the partial SVD element by element within tol/10, relative; for
		// n = 150 that must allow about n eps (3e-14). LAPACK 3.12 (OpenBLAS
		// 0.3.29) differs by 1.03e-14 on mtype 5, just over 1e-13/10.
		{"Dgesvd", false, "", func(t *testing.T) { testlapack.DgesvdTest(t, impl, 2e-13) }},
		{"Dgesvd/QRIteration", false, "", func(t *testing.T) {
			testlapack.DgesvdTest(t, withRefs{Implementation: gonumlapack.Implementation{}}, 2e-13)
		}},
		{"Dgesv", true, "", func(t *testing.T) { testlapack.DgesvTest(t, gesv{}) }},
		{"Dgetrf", false, "Dgetf2, Dgesv and Dgetri", func(t *testing.T) { testlapack.DgetrfTest(t, impl) }},
		{"Dgetri", true, "", func(t *testing.T) { testlapack.DgetriTest(t, impl) }},
		{"Dgetrs", true, "", func(t *testing.T) { testlapack.DgetrsTest(t, impl) }},
		{"Dggsvd3", false, "", func(t *testing.T) { testlapack.Dggsvd3Test(t, impl) }},
		{"Dlange", true, "", func(t *testing.T) { testlapack.DlangeTest(t, impl) }},
		{"Dlansy", true, "", func(t *testing.T) { testlapack.DlansyTest(t, impl) }},
		{"Dlantr", true, "", func(t *testing.T) { testlapack.DlantrTest(t, impl) }},
		{"Dlapmr", true, "", func(t *testing.T) { testlapack.DlapmrTest(t, impl) }},
		{"Dlapmt", true, "", func(t *testing.T) { testlapack.DlapmtTest(t, impl) }},
		{"Dorglq", true, "", func(t *testing.T) { testlapack.DorglqTest(t, impl) }},
		{"Dorgqr", true, "", func(t *testing.T) { testlapack.DorgqrTest(t, impl) }},
		{"Dormlq", false, "Dorml2", func(t *testing.T) { testlapack.DormlqTest(t, impl) }},
		{"Dormqr", false, "Dorm2r", func(t *testing.T) { testlapack.DormqrTest(t, impl) }},
		{"Dpbcon", true, "", func(t *testing.T) { testlapack.DpbconTest(t, impl) }},
		{"Dpbtrf", true, "", func(t *testing.T) { testlapack.DpbtrfTest(t, impl) }},
		{"Dpbtrs", true, "", func(t *testing.T) { testlapack.DpbtrsTest(t, impl) }},
		{"Dpocon", true, "", func(t *testing.T) { testlapack.DpoconTest(t, impl) }},
		{"Dpotrf", false, "Dpotf2, Dpotri, Dpotrs and Dpocon", func(t *testing.T) { testlapack.DpotrfTest(t, impl) }},
		{"Dpotri", true, "", func(t *testing.T) { testlapack.DpotriTest(t, impl) }},
		{"Dpotrs", true, "", func(t *testing.T) { testlapack.DpotrsTest(t, impl) }},
		{"Dpstrf", true, "", func(t *testing.T) { testlapack.DpstrfTest(t, impl) }},
		{"Dsyev", true, "", func(t *testing.T) { testlapack.DsyevTest(t, impl) }},
		{"Dtbtrs", true, "", func(t *testing.T) { testlapack.DtbtrsTest(t, impl) }},
		{"Dtrcon", true, "", func(t *testing.T) { testlapack.DtrconTest(t, impl) }},
		{"Dtrtri", true, "", func(t *testing.T) { testlapack.DtrtriTest(t, impl) }},
		{"Dtrtrs", true, "", func(t *testing.T) { testlapack.DtrtrsTest(t, impl) }},
		// The unblocked routines' suites, answered by the blocked methods.
		{"Dgetf2", true, "", func(t *testing.T) { testlapack.Dgetf2Test(t, ub) }},
		{"Dpotf2", true, "", func(t *testing.T) { testlapack.Dpotf2Test(t, ub) }},
		{"Dtrti2", true, "", func(t *testing.T) { testlapack.Dtrti2Test(t, ub) }},
		{"Dpbtf2", true, "", func(t *testing.T) { testlapack.Dpbtf2Test(t, ub) }},
		{"Dpstf2", true, "", func(t *testing.T) { testlapack.Dpstf2Test(t, ub) }},
		{"Dgeqr2", true, "", func(t *testing.T) { testlapack.Dgeqr2Test(t, ub) }},
		{"Dgelq2", true, "", func(t *testing.T) { testlapack.Dgelq2Test(t, ub) }},
		{"Dorg2r", true, "", func(t *testing.T) { testlapack.Dorg2rTest(t, ub) }},
		{"Dorgl2", true, "", func(t *testing.T) { testlapack.Dorgl2Test(t, ub) }},
		{"Dorm2r", true, "", func(t *testing.T) { testlapack.Dorm2rTest(t, ub) }},
		{"Dorml2", true, "", func(t *testing.T) { testlapack.Dorml2Test(t, ub) }},
	} {
		t.Run(tc.suite, func(t *testing.T) {
			if (raceEnabled || testing.Short()) && !tc.race && !full {
				also := "lapis runs it under -race in no other suite of this file"
				if tc.alsoIn != "" {
					also = "lapis still runs it under -race in " + tc.alsoIn
				}
				t.Skipf("skipped under -race and -short to keep the file short: %s; set %s=1 to run it", also, fullEnv)
			}
			if why := mklSuiteSkip[tc.suite]; why != "" && lapis.Info().Library == "MKL" {
				t.Skip(why)
			}
			before := lapis.ReadStats()
			tc.run(t)
			after := lapis.ReadStats()
			if after.Lapack == before.Lapack && after.Calls == before.Calls && after.Small == before.Small {
				t.Errorf("testlapack.%sTest never reached the C library through Implementation", tc.suite)
			}
			t.Logf("%d LAPACK calls, %d BLAS calls, %d operand copies",
				after.Lapack-before.Lapack, after.Calls-before.Calls, after.Copies-before.Copies)
		})
	}
}

// mklSuiteSkip: testlapack suites whose own assumptions MKL's answers do
// not meet (not wrong results: docs/defects.md).
var mklSuiteSkip = map[string]string{
	// DgelqfTest and DgeqrfTest size a "medium" workspace as the optimum
	// less 2m (2n); MKL 2020.4's workspace queries answer optima below
	// that, and the suites' own make() panics.
	"Dgelqf": "MKL's workspace query answers an optimum lwork below the 2m testlapack subtracts for its medium case",
	"Dgeqrf": "MKL's workspace query answers an optimum lwork below the 2n testlapack subtracts for its medium case",
}
