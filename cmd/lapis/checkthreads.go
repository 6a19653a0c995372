package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/bench/family"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
)

// concurrencyCheck calls the library from several goroutines at once
// (syevd and a threaded dgemm) for a fraction of a second and compares
// every result with the one computed alone. A serial OpenBLAS built
// without USE_LOCKING is not safe to call from several threads
// (OpenMathLib/OpenBLAS#2126): lapis's own suite saw wrong eigenvectors
// there.
func concurrencyCheck(t *tally) {
	const n, goroutines = 48, 4
	budget := 400 * time.Millisecond
	r := rand.New(rand.NewPCG(31, 37))
	a := hermitian[float64](r, n, false, 0)
	w0, v0, err := lapack.EigSym(matrix(a, n, n, 0))
	if err != nil {
		t.fail("syevd alone", err)
		return
	}
	v0d := logical(v0.View())
	const g = 200
	ga, gb := randoms[float64](r, g*g), randoms[float64](r, g*g)
	c0 := mul('N', 'N', g, g, g, ga, gb)

	var mu sync.Mutex
	var wg sync.WaitGroup
	calls := 0
	deadline := time.Now().Add(budget)
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline) || i == 0; i++ {
				w, v, err := lapack.EigSym(matrix(a, n, n, 0))
				c := matrix(make([]float64, g*g), g, g, 0)
				err2 := cblas.Gemm(1.0, matrix(ga, g, g, 0), matrix(gb, g, g, 0), 0.0, c, lapis.ForceC())
				mu.Lock()
				calls += 2
				switch {
				case err != nil:
					t.fail("syevd", err)
				case err2 != nil:
					t.fail("dgemm", err2)
				default:
					// The same input on the same path gives the same
					// eigenvectors up to rounding, signs included.
					t.cmp(fmt.Sprintf("syevd n=%d eigenvalues, concurrent", n), toC(w), toC(w0), lapackTol[float64](n), 0)
					t.cmp(fmt.Sprintf("syevd n=%d eigenvectors, concurrent", n), toC(logical(v.View())), toC(v0d), lapackTol[float64](n), 0)
					t.cmp(fmt.Sprintf("dgemm n=%d, concurrent", g), toC(logical(c)), toC(c0), gemmTol[float64](g), 0)
				}
				mu.Unlock()
				if v != nil {
					v.Release()
				}
			}
		}()
	}
	wg.Wait()
	v0.Release()
	t.notes = append(t.notes, fmt.Sprintf("%d calls from %d goroutines in %v", calls, goroutines, budget))
	if info := lapis.Info(); info.Library == "OpenBLAS" && info.Parallel == 0 {
		t.known = "OpenMathLib/OpenBLAS#2126"
		t.notes = append(t.notes, "serial OpenBLAS: not safe to call from several threads unless built with USE_LOCKING=1 (OpenMathLib/OpenBLAS#2126); lapis does not serialise calls: use lapis.SetWorkers(1) and call lapis from one goroutine at a time")
	}
}

// collapseBound is the ratio to the one-thread time above which a call
// beside a busy goroutine counts as collapsed. The collapse it looks for
// is OpenBLAS's threads spinning while one of them has no core: 10x to
// 1000x (docs/threads.md); a shared, loaded machine gives 1.5-3x.
const collapseBound = 8.0

// threadsCheck times a Gesv beside one goroutine running a pure-Go loop:
// with lapis's default thread policy, with OpenBLAS fixed at one thread
// (the baseline) and, for information, with OpenBLAS fixed at its full
// count (what a program that leaves OpenBLAS alone gets). It is WRONG when
// lapis's own call collapses: the fastest of its calls is more than
// collapseBound times the fastest one-thread call, over up to four rounds
// that alternate the two (one round when the first shows no collapse).
// n = 256 is below the policy's LAPACK threshold (the call runs on one
// thread whatever the load), n = 512 at it (the policy decides from the
// load). With a library whose threads lapis does not control (not
// OpenBLAS), the baseline is the same call with no busy goroutine.
func threadsCheck(t *tally) {
	restore := family.SaveThreads()
	defer restore()
	controlled := lapis.SetThreads(lapis.AutoThreads) == nil
	full := lapis.Threads()
	if !controlled && runtime.GOMAXPROCS(0) < 2 {
		t.status, t.detail = statusSkip, "the library's threads are not lapis's to set and GOMAXPROCS < 2: no baseline beside a busy goroutine"
		return
	}
	t.workaround = "OpenBLAS stays on one thread unless a call is large, the only one in flight, and finds idle cores, or is a product of 768^3 or more (the default policy; lapis.SetThreads; docs/threads.md)"
	var lapisNotes, libNotes []string
	for i, n := range []int{256, 512} {
		var callErr error
		gesv := gesvCall(n)
		call := func() error {
			err := gesv()
			if err != nil && callErr == nil {
				callErr = err
			}
			return err
		}
		var base, auto []float64
		set := func(k int) {
			if controlled {
				_ = lapis.SetThreads(k)
			}
		}
		for round := 0; round < 4; round++ {
			if controlled {
				stop := family.StartBusy(1)
				set(1)
				base = append(base, callTimes(call, 12, 60*time.Millisecond)...)
				stop()
			} else {
				base = append(base, callTimes(call, 12, 60*time.Millisecond)...)
			}
			set(lapis.AutoThreads)
			f := call
			if injectWrong == t.name && i == 0 { // the test hook: the first size's calls 20x their baseline
				f = func() error { time.Sleep(time.Duration(20 * slices.Min(base) * float64(time.Second))); return call() }
			}
			stop := family.StartBusy(1)
			auto = append(auto, callTimes(f, 12, 60*time.Millisecond)...)
			stop()
			if slices.Min(auto)/slices.Min(base) <= collapseBound {
				break
			}
		}
		if callErr != nil {
			t.fail(fmt.Sprintf("gesv n=%d", n), callErr)
			continue
		}
		t.cases++
		b, a := slices.Min(base), slices.Min(auto)
		where := fmt.Sprintf("gesv n=%d", n)
		t.record(where, a/b, collapseBound)
		if a/b > collapseBound && t.detail == "" {
			t.detail = fmt.Sprintf("threads collapse under a busy goroutine: gesv n=%d took %s per call with lapis's thread policy (%s), %.0fx its %s %s (WRONG above %gx; fastest of %d calls)",
				n, ms(a), lapis.ThreadPolicy(), a/b, ms(b), baselineName(controlled), collapseBound, len(auto))
		}
		lapisNotes = append(lapisNotes, fmt.Sprintf("n=%d %s (%.1fx)", n, ms(a), a/b))
		if controlled && full > 1 {
			set(full)
			stop := family.StartBusy(1)
			forced := callTimes(call, 5, 500*time.Millisecond)
			stop()
			set(lapis.AutoThreads)
			f := median(forced)
			verdict := "no collapse here"
			if f/b > collapseBound {
				verdict = "the collapse lapis avoids"
			}
			libNotes = append(libNotes, fmt.Sprintf("n=%d %s, %.0fx: %s", n, ms(f), f/b, verdict))
		}
	}
	if t.detail == "" {
		policy := "the library's own threads"
		if controlled {
			policy = "lapis's policy, " + lapis.ThreadPolicy()
		}
		t.detail = fmt.Sprintf("gesv beside a busy goroutine (%s): %s the %s (WRONG above %gx)", policy, strings.Join(lapisNotes, ", "), baselineName(controlled), collapseBound)
	}
	switch {
	case len(libNotes) > 0:
		t.notes = append(t.notes, fmt.Sprintf("OpenBLAS itself fixed at %d threads (median): %s", full, strings.Join(libNotes, "; ")))
	case controlled:
		t.notes = append(t.notes, "OpenBLAS runs one thread per call here (serial build, one core, or OPENBLAS_NUM_THREADS=1): nothing to collapse")
	default:
		t.notes = append(t.notes, "not OpenBLAS: lapis does not set this library's threads (its own setting applies, e.g. BLIS_NUM_THREADS)")
		t.workaround = ""
	}
}

// baselineName says what the ratio of threadsCheck is taken against.
func baselineName(controlled bool) string {
	if controlled {
		return "time on one OpenBLAS thread beside the same busy goroutine"
	}
	return "time with no busy goroutine"
}

// gesvCall returns a call of lapack.Gesv on a fixed n x n system (the
// operands restored before each call).
func gesvCall(n int) func() error {
	r := rand.New(rand.NewPCG(uint64(n), 53))
	a0, b0 := randoms[float64](r, n*n), randoms[float64](r, n)
	for i := 0; i < n; i++ {
		a0[i+i*n] += float64(n)
	}
	av, bv, ipiv := matrix(a0, n, n, 0), matrix(b0, n, 1, 0), make([]int32, n)
	return func() error {
		copy(av.Data(), a0) // packed (no padding): the view's storage is a0's order
		copy(bv.Data(), b0)
		return lapack.Gesv(av, bv, ipiv)
	}
}

// callTimes calls f (after one warm-up call) until it has made calls
// calls or spent budget, and returns each call's seconds.
func callTimes(f func() error, calls int, budget time.Duration) []float64 {
	_ = f()
	var ts []float64
	start := time.Now()
	for len(ts) < calls && (len(ts) == 0 || time.Since(start) < budget) {
		t0 := time.Now()
		_ = f()
		ts = append(ts, time.Since(t0).Seconds())
	}
	return ts
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}

// ms formats seconds as milliseconds.
func ms(s float64) string { return fmt.Sprintf("%.3g ms", s*1e3) }
