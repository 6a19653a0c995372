package main

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

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
				err2 := cblas.Gemm(1.0, matrix(ga, g, g, 0), matrix(gb, g, g, 0), 0.0, c, cblas.ForceC())
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
	if info := cblas.Info(); info.Parallel == 0 {
		t.notes = append(t.notes, "serial OpenBLAS: not safe to call from several threads unless built with USE_LOCKING=1 (OpenMathLib/OpenBLAS#2126); lapis does not serialise calls: use batch.SetWorkers(1) and call lapis from one goroutine at a time")
	}
}
