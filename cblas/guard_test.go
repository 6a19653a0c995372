//go:build linux

package cblas

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// guarded returns n elements that start a page whose previous page is
// not readable, so that a read below element 0 faults.
func guarded[T Scalar](t *testing.T, n int) []T {
	page := syscall.Getpagesize()
	size := int(unsafe.Sizeof(*new(T)))
	mem, err := syscall.Mmap(-1, 0, 2*page+n*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[page])), n)
}

// TestDotGuard calls Dot (and the Gonum adapter's complex dots) on complex
// vectors with negative strides whose lowest element starts a page after
// an unreadable one: OpenBLAS's ?dotu/?dotc read one stride below it and
// faulted (lapis_cblas.h, lapis_dot_overreads). It also checks the sums.
func TestDotGuard(t *testing.T) {
	testDotGuard[complex64](t)
	testDotGuard[complex128](t)
}

func testDotGuard[T interface{ complex64 | complex128 }](t *testing.T) {
	for _, s := range []int{-1, -3} {
		n := 5
		len1 := (n-1)*-s + 1
		x, y := guarded[T](t, len1), guarded[T](t, len1)
		for i := range x {
			x[i] = T(complex(float64(i+1), 1))
			y[i] = T(complex(1, float64(i)))
		}
		l, err := layout.New([]int{n}, []int{s}, (n-1)*-s)
		if err != nil {
			t.Fatal(err)
		}
		xv, err := views.FromSlice(x, l)
		if err != nil {
			t.Fatal(err)
		}
		yv, err := views.FromSlice(y, l)
		if err != nil {
			t.Fatal(err)
		}
		for _, conjX := range []bool{false, true} {
			a := xv
			if conjX {
				a = xv.Conj()
			}
			var want T
			for i := range n {
				want += a.At(i) * yv.At(i)
			}
			got, err := Dot(a, yv, ForceC())
			if err != nil || !close1(got, want, n) {
				t.Errorf("%T stride %d conj %v: Dot = %v, %v; want %v", got, s, conjX, got, err, want)
			}
		}
	}
}
