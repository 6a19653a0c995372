package fortran_test

import (
	"fmt"
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/fortran/internal/ftest"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkHandoff calls an empty Fortran routine on a [4, 4, 4] float64
// tensor: impl=plain is one cgo call with one pointer (a(*)), explicit
// goes through fortran.Explicit to an F77 a(lda, n, *), explicitn the same
// through fortran.ExplicitN with one argument, cfi through
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
	b.Run("op=empty/impl=explicitn", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := fortran.ExplicitN([]fortran.Arg{fortran.InOut(v)}, func(x []fortran.Array) { ftest.EmptyF77(x[0]) }); err != nil {
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

// BenchmarkHandoffRatio measures impl=cfi and impl=explicit against
// impl=plain of BenchmarkHandoff in one loop: blocks of 100 calls of each,
// in turn, each keeping its fastest block. On a loaded machine these
// ratios are steadier than ratios of two medians (preemption only
// lengthens a block). f77 is the call explicit makes (ftest.EmptyF77, a
// cgo call with four integers and a pointer) made directly with a fixed
// Array: explicit - f77 is what fortran.Explicit itself costs; explicitn
// is the same call through fortran.ExplicitN (one argument). Metrics: ns
// per call of each, cfi/plain, explicit/plain and explicitn/plain.
func BenchmarkHandoffRatio(b *testing.B) {
	t, _ := views.Zeros[float64](4, 4, 4)
	v := t.View()
	p := &t.Data()[0]
	var arr fortran.Array // the Array Explicit hands over, kept (t stays alive)
	if err := fortran.Explicit(fortran.InOut(v), func(a fortran.Array) { arr = a }); err != nil {
		b.Fatal(err)
	}
	const block = 100
	best := [5]time.Duration{math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64}
	args := []fortran.Arg{fortran.InOut(v)}
	f77 := func(x []fortran.Array) { ftest.EmptyF77(x[0]) }
	for b.Loop() {
		t0 := time.Now()
		for range block {
			ftest.EmptyPtr(p)
		}
		t1 := time.Now()
		for range block {
			if err := fortran.Call1(ftest.EmptyDesc3, fortran.InOut(v)); err != nil {
				b.Fatal(err)
			}
		}
		t2 := time.Now()
		for range block {
			if err := fortran.Explicit(fortran.InOut(v), ftest.EmptyF77); err != nil {
				b.Fatal(err)
			}
		}
		t3 := time.Now()
		for range block {
			ftest.EmptyF77(arr)
		}
		t4 := time.Now()
		for range block {
			if err := fortran.ExplicitN(args, f77); err != nil {
				b.Fatal(err)
			}
		}
		t5 := time.Now()
		for i, d := range [5]time.Duration{t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4)} {
			best[i] = min(best[i], d)
		}
	}
	plain := float64(best[0])
	b.ReportMetric(plain/block, "plain-ns")
	b.ReportMetric(float64(best[1])/block, "cfi-ns")
	b.ReportMetric(float64(best[2])/block, "explicit-ns")
	b.ReportMetric(float64(best[3])/block, "f77-ns")
	b.ReportMetric(float64(best[4])/block, "explicitn-ns")
	b.ReportMetric(float64(best[1])/plain, "cfi/plain")
	b.ReportMetric(float64(best[2])/plain, "explicit/plain")
	b.ReportMetric(float64(best[4])/plain, "explicitn/plain")
}

// BenchmarkSum computes the sum of an n x n float64 tensor in a bind(C)
// routine, lapis_sum (s(1) = sum(a)), three ways (named impl= so that
// bench/report reads them): impl=col hands it the tensor, impl=reversed
// its view with reversed columns (a negative stride, zero copies: the
// descriptor lapis fills), and impl=fortran-reversed hands the tensor to
// lapis_sum_rev, which calls
// lapis_sum on a(:, n:1:-1), a section gfortran describes itself (the
// pure Fortran counterpart of reversed). The target: reversed within 1.2x
// of col at n = 4096. n = 256 (512 KiB, in L2) and 1024 (8 MiB, in L3)
// show what the ratio does when the data is in cache. op=sumcols sums
// column by column (sum(a(:, j)) for each j) at n = 4096.
func BenchmarkSum(b *testing.B) {
	type bench struct {
		op, layout string
		fn         unsafe.Pointer
		rev        bool
	}
	sum := []bench{{"sum", "col", ftest.Sum, false}, {"sum", "reversed", ftest.Sum, true}, {"sum", "fortran-reversed", ftest.SumRev, false}}
	for _, n := range []int{256, 1024, 4096} {
		cs := sum
		if n == 4096 {
			cs = append(cs, bench{"sumcols", "col", ftest.SumCols, false}, bench{"sumcols", "reversed", ftest.SumCols, true})
		}
		t, _ := views.Full(1.0, n, n)
		s, _ := views.Zeros[float64](1)
		for _, c := range cs {
			v := t.View()
			if c.rev {
				v, _ = v.Reverse(1)
			}
			b.Run(fmt.Sprintf("op=%s/n=%d/impl=%s", c.op, n, c.layout), func(b *testing.B) {
				b.SetBytes(int64(8 * n * n))
				n0 := copies()
				for b.Loop() {
					if err := fortran.Call2(c.fn, fortran.In(v), fortran.Out(s.View())); err != nil {
						b.Fatal(err)
					}
				}
				if copies() != n0 || s.At(0) != float64(n*n) {
					b.Fatalf("copies %d, sum %v", copies()-n0, s.At(0))
				}
			})
		}
		t.Release()
	}
}
