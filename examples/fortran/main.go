// Command fortran hands lapis views to Fortran without copying them: an
// F77 routine with an explicit-shape argument (fortran.Explicit) and a
// bind(C) routine with an assumed-shape one (fortran.Call2, C descriptors
// built with gfortran's ISO_Fortran_binding.h), on an owned tensor, a
// column slice, a transpose, a reversed view and one matrix of a batch,
// printing the copies each call made. Run it with
//
//	go run ./examples/fortran
//
// cgo compiles routines.f90 with gfortran (scripts/setup.sh installs it).
package main

/*
#include <ISO_Fortran_binding.h>

// F77 takes every argument by address: Go passes its own variables'
// (they hold no Go pointers, and Fortran keeps no address after it
// returns, so cgo allows it).
void scale2_(int *m, int *n, double *a, int *lda);
void addbatch(CFI_cdesc_t *a, CFI_cdesc_t *info);
*/
import "C"

import (
	"fmt"
	"log"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/views"
)

func main() {
	// A [3, 4, 2] batch: two 3 x 4 matrices, element (i, j, k) = 10*i + j + 1000*k.
	b, err := views.Zeros[float64](3, 4, 2)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Release()
	for k := range 2 {
		for j := range 4 {
			for i := range 3 {
				b.Set(float64(10*i+j+1000*k), i, j, k)
			}
		}
	}
	whole := b.View()
	m0, _ := whole.Index(2, 0)      // one matrix of the batch
	cols, _ := m0.Slice(1, 1, 3, 1) // columns 1 and 2
	tr := m0.T()                    // 4 x 3, row-major over the same memory
	rev, _ := m0.Reverse(1)         // columns backwards (a negative stride)
	batchRev, _ := whole.Reverse(2) // the batch backwards

	fmt.Println("F77 scale2(m, n, a, lda) through fortran.Explicit:")
	for _, c := range []struct {
		name string
		v    views.View[float64]
	}{{"owned matrix (batch 0)", m0}, {"column slice", cols}, {"transpose", tr}, {"reversed columns", rev}} {
		before := lapis.ReadStats().Copies
		err := fortran.Explicit(fortran.InOut(c.v), func(a fortran.Array) {
			m, n, lda := C.int(a.Rows), C.int(a.Cols), C.int(a.LD)
			C.scale2_(&m, &n, (*C.double)(a.Float64()), &lda)
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("  %-24s copies %d\n", c.name, lapis.ReadStats().Copies-before)
	}

	fmt.Println("bind(C) addbatch(a(:,:,:), info(:)) through fortran.Call2:")
	info := make([]float64, 4)
	iv, _ := views.FromColMajor(info, 4)
	for _, c := range []struct {
		name string
		v    views.View[float64]
	}{{"owned batch", whole}, {"batch reversed", batchRev}, {"one matrix", m0}, {"column slice", cols}, {"transpose", tr}, {"reversed columns", rev}} {
		v := c.v
		if v.Rank() == 2 { // a matrix is a batch of one
			v, _ = v.Reshape(append(v.Shape(), 1)...)
		}
		before := lapis.ReadStats().Copies
		if err := fortran.Call2(unsafe.Pointer(C.addbatch), fortran.InOut(v), fortran.Out(iv.View())); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("  %-24s copies %d  Fortran sees shape %v, contiguous %v\n", c.name, lapis.ReadStats().Copies-before, info[:3], info[3] == 1)
	}
	fmt.Println(b)
}
