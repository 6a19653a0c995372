package lapack_test

import (
	"os"
	"testing"

	"gonum.org/v1/gonum/lapack/testlapack"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
)

// gonum's testlapack conformance suites, run against lapis through
// gonumAdapter (gonum_adapter_test.go). Each suite is one row: the
// routine it tests and how to call it.

// The suites' interfaces the adapters promise to satisfy.
var (
	_ testlapack.Dgesver  = (*gonumAdapter)(nil)
	_ testlapack.Dgetrfer = (*gonumAdapter)(nil)
	_ testlapack.Dgetrser = (*gonumAdapter)(nil)
	_ testlapack.Dgetrier = (*gonumAdapter)(nil)
	_ testlapack.Dpotrfer = (*gonumAdapter)(nil)
	_ testlapack.Dpotrser = (*gonumAdapter)(nil)
	_ testlapack.Dpotrier = (*gonumAdapter)(nil)
	_ testlapack.Dtrtrser = (*gonumAdapter)(nil)
	_ testlapack.Dgeqrfer = (*gonumAdapter)(nil)
	_ testlapack.Dgelqfer = (*gonumAdapter)(nil)
	_ testlapack.Dorgqrer = (*gonumAdapter)(nil)
	_ testlapack.Dormqrer = (*gonumAdapter)(nil)
	_ testlapack.Dgelser  = (*gonumAdapter)(nil)
	_ testlapack.Dgesvder = (*gonumAdapter)(nil)
	_ testlapack.Dsyever  = (*gonumAdapter)(nil)
	_ testlapack.Dgeever  = (*gonumAdapter)(nil)
	_ testlapack.Dlanger  = (*gonumAdapter)(nil)
	_ testlapack.Dgeconer = (*gonumAdapter)(nil)
	_ testlapack.Dpoconer = (*gonumAdapter)(nil)
	_ testlapack.Dgetf2er = unblockedAdapter{}
	_ testlapack.Dpotf2er = unblockedAdapter{}
	_ testlapack.Dgeqr2er = unblockedAdapter{}
	_ testlapack.Dgelq2er = unblockedAdapter{}
)

// Storage sets: which storages a suite runs in.
const (
	none = 0
	row  = 1 << rowMajor
	col  = 1 << colMajor
	both = row | col
)

// fullEnv makes every suite run in both storages, even under -race.
const fullEnv = "LAPIS_TESTLAPACK_FULL"

// TestTestlapack runs gonum's suites with the adapter in the two storages
// (rowMajor: gonum's arrays as strided views; colMajor: padded
// column-major copies that lapis must take in place, without copying).
//
// To keep the file near 20 s, the two SVD and eigenvalue suites (several
// seconds of LAPACK and of pure-Go checks each) run in one storage, and
// under -race, where gonum's pure-Go checks and its padded test arrays (up
// to 96 MB) cost about ten times more, the larger suites run in one storage
// or not at all: every lapis routine but Gesvd and Geev still runs there,
// in the suite named in the skip message. Set LAPIS_TESTLAPACK_FULL=1 to
// run every suite in both storages.
//
// OpenBLAS runs single-threaded meanwhile: the suites' problems are small,
// and idle OpenBLAS threads spinning between calls doubled the file's CPU
// time on a two-core machine. The previous setting is restored.
func TestTestlapack(t *testing.T) {
	full := os.Getenv(fullEnv) != ""
	if threads := cblas.Threads(); threads != 1 {
		if err := cblas.SetThreads(1); err != nil {
			t.Logf("running with %d OpenBLAS threads: %v", threads, err)
		} else {
			t.Cleanup(func() { _ = cblas.SetThreads(threads) })
		}
	}
	for _, tc := range []struct {
		suite   string // testlapack's suite
		routine string // the lapis routine it tests
		normal  int    // storages without -race
		race    int    // storages under -race
		alsoIn  string // suites that also run routine under -race
		run     func(*testing.T, *gonumAdapter)
	}{
		{"Dgesv", "Gesv", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DgesvTest(t, g) }},
		{"Dgetrf", "Getrf", both, none, "Dgetf2, Dgetri, Dgetrs and Dgecon", func(t *testing.T, g *gonumAdapter) { testlapack.DgetrfTest(t, g) }},
		{"Dgetrs", "Getrs", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DgetrsTest(t, g) }},
		{"Dgetri", "Getri", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DgetriTest(t, g) }},
		{"Dpotrf", "Potrf", both, none, "Dpotf2, Dpotrs, Dpotri and Dpocon", func(t *testing.T, g *gonumAdapter) { testlapack.DpotrfTest(t, g) }},
		{"Dpotrs", "Potrs", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DpotrsTest(t, g) }},
		{"Dpotri", "Potri", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DpotriTest(t, g) }},
		{"Dtrtrs", "Trtrs", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DtrtrsTest(t, g) }},
		{"Dgeqrf", "Geqrf", both, none, "Dgeqr2 and Dorgqr", func(t *testing.T, g *gonumAdapter) { testlapack.DgeqrfTest(t, g) }},
		{"Dgelqf", "Gelqf", both, none, "Dgelq2", func(t *testing.T, g *gonumAdapter) { testlapack.DgelqfTest(t, g) }},
		{"Dorgqr", "Orgqr", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DorgqrTest(t, g) }},
		{"Dormqr", "Ormqr", both, col, "Dormqr/colmajor", func(t *testing.T, g *gonumAdapter) { testlapack.DormqrTest(t, g) }},
		{"Dgels", "Gels", both, col, "Dgels/colmajor", func(t *testing.T, g *gonumAdapter) { testlapack.DgelsTest(t, g) }},
		// tol 2e-13: the suite compares the singular values of the full and
		// the partial SVD element by element within tol/10, relative; for
		// n = 150 that must allow about n eps (3e-14). LAPACK 3.12 (OpenBLAS
		// 0.3.29) differs by 1.03e-14 on mtype 5, just over 1e-13/10.
		{"Dgesvd", "Gesvd", col, none, "", func(t *testing.T, g *gonumAdapter) { testlapack.DgesvdTest(t, g, 2e-13) }},
		{"Dsyev", "Syevd", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DsyevTest(t, g) }},
		{"Dgeev", "Geev", row, none, "", func(t *testing.T, g *gonumAdapter) { testlapack.DgeevTest(t, g) }},
		{"Dlange", "Lange", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DlangeTest(t, g) }},
		{"Dgecon", "Gecon", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DgeconTest(t, g) }},
		{"Dpocon", "Pocon", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.DpoconTest(t, g) }},
		// The unblocked routines' suites, answered by the blocked lapis
		// routines (see unblockedAdapter).
		{"Dgetf2", "Getrf", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.Dgetf2Test(t, unblockedAdapter{g}) }},
		{"Dpotf2", "Potrf", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.Dpotf2Test(t, unblockedAdapter{g}) }},
		{"Dgeqr2", "Geqrf", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.Dgeqr2Test(t, unblockedAdapter{g}) }},
		{"Dgelq2", "Gelqf", both, both, "", func(t *testing.T, g *gonumAdapter) { testlapack.Dgelq2Test(t, unblockedAdapter{g}) }},
	} {
		for _, st := range []storage{rowMajor, colMajor} {
			t.Run(tc.suite+"/"+st.String(), func(t *testing.T) {
				switch {
				case full:
				case lapack.RaceEnabled && tc.race&(1<<st) == 0:
					also := "lapis " + tc.routine + " does not run under -race in this file"
					if tc.alsoIn != "" {
						also = "lapis " + tc.routine + " still runs under -race in " + tc.alsoIn
					}
					t.Skipf("skipped under -race to keep the file near 20 s: %s; set %s=1 to run it", also, fullEnv)
				case !lapack.RaceEnabled && tc.normal&(1<<st) == 0:
					t.Skipf("this suite runs in one storage to keep the file near 20 s; set %s=1 to run it in both", fullEnv)
				}
				g := newAdapter(t, st)
				before := cblas.ReadStats()
				tc.run(t, g)
				after := cblas.ReadStats()
				if g.calls == 0 {
					t.Errorf("testlapack.%sTest never called lapis's %s", tc.suite, tc.routine)
				}
				t.Logf("lapis %s: %d adapter calls, %d LAPACK calls, %d operand copies; %d helper calls delegated to gonum",
					tc.routine, g.calls, after.Lapack-before.Lapack, after.Copies-before.Copies, g.delegated)
			})
		}
	}
}
