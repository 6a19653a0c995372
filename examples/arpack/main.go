// Command arpack computes the smallest eigenvalues of the 1-D Laplacian
// (the n x n matrix tridiag(-1, 2, -1)) and their eigenvectors with
// ARPACK's implicitly restarted Lanczos method, dsaupd and dseupd, called
// through package fortran (fortran.ExplicitN): no C wrapper, no
// unsafe.Pointer. The eigenvalues are 2 - 2 cos(k pi / (n+1)), which it
// prints beside them. Run it with
//
//	go run ./examples/arpack
//
// ARPACK comes from Debian's libarpack2-dev (scripts/setup.sh installs
// it), found with pkg-config.
//
// ARPACK keeps its state between the calls of one solve in SAVEd
// variables: two solves at once, from two goroutines or interleaved on
// one, silently corrupt each other (main_test.go shows it). Hold a lock
// for a whole solve, as solveMu does here; building with -frecursive
// does not help, since SAVE makes the variables static anyway.
package main

/*
#cgo pkg-config: arpack
#cgo noescape dsaupd_
#cgo nocallback dsaupd_
#cgo noescape dseupd_
#cgo nocallback dseupd_
#include "dsaupd.h"
*/
import "C"

import (
	"fmt"
	"log"
	"math"
	"sync"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

func main() {
	const n, nev = 100, 4
	d, z, err := Smallest(n, nev)
	if err != nil {
		log.Fatal(err)
	}
	defer z.Release()
	fmt.Printf("the %d smallest eigenvalues of tridiag(-1, 2, -1), n = %d (ARPACK dsaupd/dseupd):\n", nev, n)
	for k, l := range d {
		exact := 2 - 2*math.Cos(float64(k+1)*math.Pi/(n+1))
		fmt.Printf("  %d  %.15f  exact %.15f  difference %.1e\n", k+1, l, exact, l-exact)
	}
}

// solveMu serialises ARPACK solves: its SAVEd state allows one at a time.
var solveMu sync.Mutex

// Smallest returns the nev smallest eigenvalues of tridiag(-1, 2, -1) of
// order n, in ascending order, and their eigenvectors, the columns of z
// (n x nev, unit norm). Errors: n or nev out of ARPACK's range (0 < nev
// < n, n*(n+8) within int32; lapis.ErrInvalid), and ARPACK's own failure
// codes (info != 0: "dsaupd: info = 1" is no convergence in 3000
// restarts; see ARPACK's dsaupd.f).
func Smallest(n, nev int) (d []float64, z *views.Tensor[float64], err error) {
	solveMu.Lock()
	defer solveMu.Unlock()
	return smallest(n, nev, laplacian)
}

// smallest is Smallest for the symmetric operator y = op(x) of order n;
// the caller makes sure no other ARPACK solve runs meanwhile.
func smallest(n, nev int, op func(y, x []float64)) (d []float64, z *views.Tensor[float64], err error) {
	ncv := min(n, max(2*nev+1, 20)) // Lanczos vectors kept
	if nev < 1 || nev >= n || n > math.MaxInt32/(n+8) {
		return nil, nil, layout.Errorf(lapis.ErrInvalid, "arpack.Smallest", "n, nev", "n = %d, nev = %d: need 0 < nev < n and n*(n+8) <= 2^31-1", n, nev)
	}
	v, _ := views.Zeros[float64](n, ncv) // V(ldv, ncv): the Lanczos basis
	defer v.Release()
	z, _ = views.Zeros[float64](n, nev)
	d = make([]float64, nev)
	resid, workd, workl := make([]float64, n), make([]float64, 3*n), make([]float64, ncv*(ncv+8))
	iparam, ipntr, sel := make([]int32, 11), make([]int32, 11), make([]fortran.Logical, ncv)
	iparam[0], iparam[2], iparam[6] = 1, 3000, 1 // exact shifts, iterations, mode 1: A x = lambda x

	// call site begins
	var ido, info C.int
	cn, cnev, cncv, lworkl := C.int(n), C.int(nev), C.int(ncv), C.int(len(workl))
	tol, rvec, sigma := C.double(0), C.int(1), C.double(0)
	bmat, which, howmny := [1]C.char{'I'}, [2]C.char{'S', 'A'}, [1]C.char{'A'}
	err = fortran.ExplicitN([]fortran.Arg{fortran.Slice(resid).Named("resid"), fortran.InOut(v.View()).Named("v"),
		fortran.Slice(iparam).Named("iparam"), fortran.Slice(ipntr).Named("ipntr"), fortran.Slice(workd).Named("workd"),
		fortran.Slice(workl).Named("workl"), fortran.Slice(sel).Named("select"), fortran.Slice(d).Named("d"), fortran.Out(z.View()).Named("z"),
	}, func(x []fortran.Array) {
		r, v, wd, wl, d, z := (*C.double)(x[0].Float64()), (*C.double)(x[1].Float64()), (*C.double)(x[4].Float64()), (*C.double)(x[5].Float64()), (*C.double)(x[7].Float64()), (*C.double)(x[8].Float64())
		ip, ipn, sel := (*C.int)(x[2].Int32()), (*C.int)(x[3].Int32()), (*C.int)(x[6].Logical())
		// n for these tensors; more for views with gaps between columns
		ldv, ldz := C.int(x[1].LD), C.int(x[8].LD)
		for ido == 0 || ido == 1 || ido == -1 {
			if ido != 0 {
				op(workd[ipntr[1]-1:][:n], workd[ipntr[0]-1:][:n])
			}
			C.dsaupd_(&ido, &bmat[0], &cn, &which[0], &cnev, &tol, r, &cncv, v, &ldv, ip, ipn, wd, wl, &lworkl, &info, 1, 2)
		}
		if info == 0 {
			C.dseupd_(&rvec, &howmny[0], sel, d, z, &ldz, &sigma, &bmat[0], &cn, &which[0], &cnev, &tol,
				r, &cncv, v, &ldv, ip, ipn, wd, wl, &lworkl, &info, 1, 1, 2)
		}
	})
	if err == nil && info != 0 {
		err = fmt.Errorf("dsaupd or dseupd: info = %d", info)
	}
	// call site ends
	if err != nil {
		z.Release()
		return nil, nil, err
	}
	return d, z, nil
}

// laplacian sets y = A x for A = tridiag(-1, 2, -1).
func laplacian(y, x []float64) {
	for i := range x {
		y[i] = 2 * x[i]
		if i > 0 {
			y[i] -= x[i-1]
		}
		if i+1 < len(x) {
			y[i] -= x[i+1]
		}
	}
}
