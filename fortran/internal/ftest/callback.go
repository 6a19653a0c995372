package ftest

// A file of its own: cgo allows only declarations in the preamble of a
// file with //export.

/*
void apply_(void (*f)(int *, double *), int *m, int *n, double *a, int *lda);
void lapisColumnScale(int *, double *);
*/
import "C"

import (
	"unsafe"

	"github.com/lapis-go/lapis/fortran"
)

// columnScale is what Apply's callback multiplies each column by.
var columnScale float64

//export lapisColumnScale
func lapisColumnScale(m *C.int, col *C.double) {
	c := unsafe.Slice((*float64)(col), int(*m))
	for i := range c {
		c[i] *= columnScale
	}
}

// Apply calls the F77 routine apply(f, m, n, a, lda), whose EXTERNAL f
// is a Go function (lapisColumnScale, exported to C): Fortran calls back
// into Go once per column of a, which f multiplies by s.
func Apply(a fortran.Array, s float64) {
	columnScale = s
	m, n, lda := C.int(a.Rows), C.int(a.Cols*a.Count), C.int(a.LD)
	C.apply_((*[0]byte)(C.lapisColumnScale), &m, &n, (*C.double)(a.Float64()), &lda)
}
