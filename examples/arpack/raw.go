package main

// #include "dsaupd.h"
import "C"

import (
	"fmt"
	"math"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// smallestRaw is smallest in plain cgo, without package fortran: the
// comparison for the call-site lines (docs/fortran.md) and a second
// oracle in the test. The same prototypes (main.go's preamble), typed
// pointers converted as in smallest; what it lacks is what ExplicitN
// adds: v and z must be compact (no views with a leading dimension,
// transposes or batches), and nothing checks lengths or aliasing or
// names an argument.
func smallestRaw(n, nev int, op func(y, x []float64)) (d []float64, z *views.Tensor[float64], err error) {
	ncv := min(n, max(2*nev+1, 20))
	if nev < 1 || nev >= n || n > math.MaxInt32/(n+8) {
		return nil, nil, layout.Errorf(lapis.ErrInvalid, "arpack.smallestRaw", "n, nev", "n = %d, nev = %d: need 0 < nev < n and n*(n+8) <= 2^31-1", n, nev)
	}
	v, _ := views.Zeros[float64](n, ncv)
	defer v.Release()
	z, _ = views.Zeros[float64](n, nev)
	d = make([]float64, nev)
	resid, workd, workl := make([]float64, n), make([]float64, 3*n), make([]float64, ncv*(ncv+8))
	iparam, ipntr, sel := make([]int32, 11), make([]int32, 11), make([]int32, ncv)
	iparam[0], iparam[2], iparam[6] = 1, 3000, 1

	// call site begins
	var ido, info C.int
	cn, cnev, cncv, lworkl, ldv := C.int(n), C.int(nev), C.int(ncv), C.int(len(workl)), C.int(n)
	tol, rvec, sigma := C.double(0), C.int(1), C.double(0)
	bmat, which, howmny := [1]C.char{'I'}, [2]C.char{'S', 'A'}, [1]C.char{'A'}
	r, vp, wd, wl, dp, zp := (*C.double)(&resid[0]), (*C.double)(&v.Data()[0]), (*C.double)(&workd[0]), (*C.double)(&workl[0]), (*C.double)(&d[0]), (*C.double)(&z.Data()[0])
	ip, ipn, selp := (*C.int)(&iparam[0]), (*C.int)(&ipntr[0]), (*C.int)(&sel[0])
	for ido == 0 || ido == 1 || ido == -1 {
		if ido != 0 {
			op(workd[ipntr[1]-1:][:n], workd[ipntr[0]-1:][:n])
		}
		C.dsaupd_(&ido, &bmat[0], &cn, &which[0], &cnev, &tol, r, &cncv, vp, &ldv, ip, ipn, wd, wl, &lworkl, &info, 1, 2)
	}
	if info == 0 {
		C.dseupd_(&rvec, &howmny[0], selp, dp, zp, &ldv, &sigma, &bmat[0], &cn, &which[0], &cnev, &tol,
			r, &cncv, vp, &ldv, ip, ipn, wd, wl, &lworkl, &info, 1, 1, 2)
	}
	if info != 0 {
		err = fmt.Errorf("dsaupd or dseupd: info = %d", info)
	}
	// call site ends
	if err != nil {
		z.Release()
		return nil, nil, err
	}
	return d, z, nil
}
