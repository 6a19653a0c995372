package strided_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/strided"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestGesvStrided: each system of a run against Gesv on a copy of it:
// within rounding on the small loop (n <= 16), bit for bit on the gesv
// loop; a singular system in the middle reported with gesv's index and its
// b unchanged; reversed runs; General matrices copied once.
func TestGesvStrided(t *testing.T) {
	tm.ForTypes(t, testGesvStrided[float32], testGesvStrided[float64], testGesvStrided[complex64], testGesvStrided[complex128])
}

// gesvRunOf makes a run [rows, cols, count] of matrices of class kind, one
// after another (reversed: the last first in memory).
func gesvRunOf[T Scalar](t *testing.T, rows, cols, count int, kind tm.Kind, reverse bool) views.View[T] {
	rng := rand.New(rand.NewPCG(uint64(len(t.Name())), 7))
	ms := make([]tm.Operand[T], count)
	for i := range ms {
		ms[i] = tm.New[T](rng, rows, cols, kind)
	}
	// Lay the matrices of one class side by side in one buffer.
	l0 := ms[0].V.Layout()
	size := len(ms[0].Buf)
	buf := make([]T, size*count)
	for i, m := range ms {
		copy(buf[i*size:], m.Buf)
	}
	step, off := size, l0.Offset()
	if reverse {
		step, off = -size, l0.Offset()+size*(count-1)
	}
	l, err := layout.New([]int{rows, cols, count}, []int{l0.Stride(0), l0.Stride(1), step}, off)
	if err != nil {
		t.Fatal(err)
	}
	return must(views.FromSlice(buf, l))
}

func testGesvStrided[T Scalar](t *testing.T) {
	oneThread(t)
	for _, n := range []int{1, 5, 20} {
		for _, kind := range []tm.Kind{tm.ColStrided, tm.General} {
			for _, reverse := range []bool{false, true} {
				const count = 5
				a := gesvRunOf[T](t, n, n, count, kind, reverse)
				b := gesvRunOf[T](t, n, 2, count, tm.ColPacked, false)
				for i := range n { // system 2 singular
					a.Set(0, 0, i, 2)
				}
				// The reference solves copies with the same layouts (OpenBLAS's
				// results may depend on the leading dimension).
				ra := must(views.FromSlice(slices.Clone(a.Data()), a.Layout()))
				rb := must(views.FromSlice(slices.Clone(b.Data()), b.Layout()))
				what := fmt.Sprintf("n=%d %v reverse=%v", n, kind, reverse)
				c0 := lapis.ReadStats().Copies
				failed, err := strided.Gesv("lapack.GesvStrided", a, b)
				if err != nil {
					t.Fatal(what, err)
				}
				if want := map[bool]int64{true: 1, false: 0}[kind == tm.General && n > 1]; lapis.ReadStats().Copies-c0 != want {
					t.Fatalf("%s: %d copies, want %d", what, lapis.ReadStats().Copies-c0, want)
				}
				ipiv := make([]int32, n)
				for s := range count {
					ai, bi := must(ra.Index(2, s)), must(rb.Index(2, s))
					err := lapack.Gesv(ai, bi, ipiv)
					var le *lapack.Error
					info, bad := failed[s]
					if errors.As(err, &le) != bad || le != nil && (le.Info != info || le.Routine != scalar.Prefix[T]()+"gesv") {
						t.Fatalf("%s system %d: gesvStrided says %v, Gesv %v", what, s, failed[s], err)
					}
					got := tm.Of(must(b.Index(2, s)))
					if s == 2 && !slices.Equal(got.D, tm.Of(bi).D) {
						t.Fatalf("%s: the singular system's b changed", what)
					}
					if n > clib.GesvSmallMax {
						if !slices.Equal(got.D, tm.Of(bi).D) {
							t.Fatalf("%s system %d: differs from Gesv", what, s)
						}
					} else {
						tm.Close(t, fmt.Sprintf("%s system %d", what, s), got, tm.Of(bi), 100*40*float64(max(n, 1))*scalar.Eps[T]())
					}
				}
			}
		}
	}
	a := gesvRunOf[float64](t, 3, 3, 2, tm.ColPacked, false)
	if _, err := strided.Gesv("lapack.GesvStrided", a, gesvRunOf[float64](t, 3, 1, 3, tm.ColPacked, false)); !errors.Is(err, layout.ErrShape) {
		t.Fatalf("3 right-hand sides for 2 systems: %v", err)
	}
	if _, err := strided.Gesv("lapack.GesvStrided", a, gesvRunOf[float64](t, 3, 1, 2, tm.General, false), lapis.Strict(true)); !errors.Is(err, lapis.ErrCopyRefused) {
		t.Fatalf("strict with a General b: %v", err)
	}
}

// oneThread runs OpenBLAS on one thread until the test ends, for
// bit-for-bit comparisons (OpenBLAS's results depend on its thread count).
func oneThread(t *testing.T) {
	prev := lapis.Threads()
	_ = lapis.SetThreads(1)
	t.Cleanup(func() { _ = lapis.SetThreads(prev) })
}
