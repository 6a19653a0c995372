package fortran_test

import (
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/fortran/internal/ftest"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkHandoff calls an empty Fortran routine on a [4, 4, 4] float64
// tensor: impl=plain is one cgo call with one pointer (a(*)), explicit
// goes through fortran.Explicit to an F77 a(lda, n, *), cfi through
// fortran.Call1 to a bind(C) a(:,:,:) (a rank-3 descriptor built in C),
// describe through fortran.Describe (a descriptor in C memory, the view
// pinned) and the same cgo call. The target: cfi at most 2x plain.
func BenchmarkHandoff(b *testing.B) {
	t, _ := views.Zeros[float64](4, 4, 4)
	v := t.View()
	p := &t.Data()[0]
	b.Run("op=empty/impl=plain", func(b *testing.B) {
		for b.Loop() {
			ftest.EmptyPtr(p)
		}
	})
	b.Run("op=empty/impl=explicit", func(b *testing.B) {
		for b.Loop() {
			if err := fortran.Explicit(fortran.InOut(v), ftest.EmptyF77); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=empty/impl=cfi", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := fortran.Call1(ftest.EmptyDesc3, fortran.InOut(v)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=empty/impl=describe", func(b *testing.B) {
		for b.Loop() {
			d, err := fortran.Describe(fortran.InOut(v))
			if err != nil {
				b.Fatal(err)
			}
			ftest.Call1(ftest.EmptyDesc3, d.Ptr())
			d.Done()
		}
	})
}

// BenchmarkSum computes the sum of a 4096 x 4096 float64 tensor in a
// bind(C) routine (layout=col) and of its view with reversed columns
// (layout=reversed, a negative stride, handed over by CFI_section): zero
// copies in both. The target: reversed within 1.2x of col. op=sum is
// Fortran's sum(a) over the whole array, op=sumcols sum(a(:, j)) column by
// column.
func BenchmarkSum(b *testing.B) {
	const n = 4096
	t, _ := views.Full(1.0, n, n)
	defer t.Release()
	rev, _ := t.View().Reverse(1)
	s, _ := views.Zeros[float64](1)
	for _, c := range []struct {
		op   string
		fn   unsafe.Pointer
		name string
		v    views.View[float64]
	}{{"sum", ftest.Sum, "col", t.View()}, {"sum", ftest.Sum, "reversed", rev}, {"sumcols", ftest.SumCols, "col", t.View()}, {"sumcols", ftest.SumCols, "reversed", rev}} {
		b.Run("op="+c.op+"/n=4096/layout="+c.name, func(b *testing.B) {
			b.SetBytes(8 * n * n)
			n0 := copies()
			for b.Loop() {
				if err := fortran.Call2(c.fn, fortran.In(c.v), fortran.Out(s.View())); err != nil {
					b.Fatal(err)
				}
			}
			if copies() != n0 || s.At(0) != n*n {
				b.Fatalf("copies %d, sum %v", copies()-n0, s.At(0))
			}
		})
	}
}
