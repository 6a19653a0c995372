package views

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/lapis-go/lapis/internal/loop"
	"github.com/lapis-go/lapis/layout"
)

// engineCase copies src (a view over a fresh buffer) into dst both with the
// engine and with the reference copyElems and requires identical buffers,
// NaN-free sentinels outside dst's reach included.
func engineCase[T Scalar](t *testing.T, name string, shape, dstStrides, srcStrides []int, dconj, sconj bool) {
	t.Helper()
	mk := func(strides []int, fill func(i int) T) View[T] {
		l := must(layout.New(shape, strides, 0))
		lo, hi, ok := l.Span()
		if !ok {
			lo, hi = 0, -1
		}
		l = must(layout.New(shape, strides, -lo+1))
		buf := make([]T, hi-lo+3)
		for i := range buf {
			buf[i] = fill(i)
		}
		return must(FromSlice(buf, l))
	}
	src := mk(srcStrides, func(i int) T { return fuzzValue[T](i + 1) })
	a := mk(dstStrides, func(i int) T { return fuzzValue[T](-i - 1) })
	b := mk(dstStrides, func(i int) T { return fuzzValue[T](-i - 1) })
	if sconj {
		src = src.Conj()
	}
	if dconj {
		a, b = a.Conj(), b.Conj()
	}
	if err := Copy(a, src); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	copyElems(b, src)
	if !slices.Equal(a.data, b.data) {
		t.Fatalf("%s: engine and reference differ\nengine    %v\nreference %v", name, a.data, b.data)
	}
}

// TestEngineShapes covers the kernel paths across cache-block and 4x4
// boundaries: contiguous runs, strided lines, transposes of every size
// class, permutations of rank 3 and 4, reversed axes.
func TestEngineShapes(t *testing.T) {
	saved := loop.Blocks
	defer func() { loop.Blocks = saved }()
	for i := range loop.Blocks { // small loop.Blocks, so that small cases cross them
		loop.Blocks[i] = loop.Blocking{Rows: 12, Cols: 8, Super: 24}
	}
	b := 24
	sizes := []int{1, 2, 3, 4, 5, 7, 8, 9, 11, 13, b - 1, b, b + 1, 2*b + 3}
	for _, m := range sizes {
		for _, n := range []int{1, 3, 4, 6, b + 1} {
			cm := []int{1, m}
			rm := []int{n, 1}
			engineCase[float64](t, fmt.Sprintf("transpose %dx%d", m, n), []int{m, n}, cm, rm, false, false)
			engineCase[float64](t, fmt.Sprintf("padded transpose %dx%d", m, n), []int{m, n}, []int{1, m + 3}, []int{n + 2, 1}, false, false)
			engineCase[complex128](t, fmt.Sprintf("conj transpose %dx%d", m, n), []int{m, n}, cm, rm, true, false)
			engineCase[float32](t, fmt.Sprintf("reversed %dx%d", m, n), []int{m, n}, cm, []int{-1, -m}, false, false)
			engineCase[complex64](t, fmt.Sprintf("strided %dx%d", m, n), []int{m, n}, []int{2, 2 * m}, []int{3, -3 * m}, false, false)
		}
	}
	engineCase[float64](t, "4-D permutation", []int{8, 6, 5, 7}, []int{1, 8, 48, 240}, []int{35, 5, 1, 210}, false, false)
	engineCase[float64](t, "3-D permutation", []int{9, 10, 11}, []int{1, 9, 90}, []int{110, 11, 1}, false, false)
	engineCase[float64](t, "broadcast source", []int{5, 6, 3}, []int{1, 5, 30}, []int{1, 0, 0}, false, false)
	engineCase[complex128](t, "rank 0", []int{}, []int{}, []int{}, false, true)
}

// TestEngineParallel forces the parallel path on small inputs (run it with
// -race): every split must give the serial result.
func TestEngineParallel(t *testing.T) {
	old := loop.ParMinElems
	loop.ParMinElems = 7
	defer func() { loop.ParMinElems = old }()
	prev := SetCopyThreads(0)
	defer SetCopyThreads(prev)
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	for _, threads := range []int{2, 3, 5} {
		SetCopyThreads(threads)
		for _, n := range []int{9, 40, 77} {
			engineCase[float64](t, fmt.Sprintf("transpose %d threads %d", n, threads), []int{n, n + 1}, []int{1, n}, []int{n + 1, 1}, false, false)
			engineCase[float32](t, fmt.Sprintf("contiguous %d", n), []int{n, 3, 2}, []int{1, n, 3 * n}, []int{1, n, 3 * n}, false, false)
			engineCase[complex64](t, fmt.Sprintf("permute %d", n), []int{n, 3, 4}, []int{1, n, 3 * n}, []int{12, 4, 1}, false, true)
		}
	}
	if CopyThreads() != min(5, runtime.GOMAXPROCS(0)) {
		t.Errorf("CopyThreads = %d", CopyThreads())
	}
}

// TestToColMajorNoAllocs: a loop that releases what it copies allocates
// nothing in steady state.
func TestToColMajorNoAllocs(t *testing.T) {
	a := must(Zeros[float64](64, 48, 2))
	v := a.View().T()
	v.ToColMajor().Release() // warm the pool
	sum := 0.0
	if n := testing.AllocsPerRun(50, func() {
		c := v.ToColMajor()
		sum += c.Data()[3]
		c.Release()
	}); n != 0 {
		t.Errorf("ToColMajor/Release: %v allocations per run, want 0", n)
	}
	_ = sum
}

// TestEngineSIMD runs the 8-byte transpose (assembly where the CPU has
// AVX2) against the reference, with ordinary and non-temporal stores,
// misaligned destinations and leading dimensions that are and are not
// multiples of 8, in strips (narrow sources) and in panels (sources of
// simdWide columns or more, across a super-block edge at 1030).
func TestEngineSIMD(t *testing.T) {
	old := ntMinBytes
	defer func() { ntMinBytes = old }()
	for _, nt := range []int{0, 1 << 62} {
		ntMinBytes = nt
		for _, m := range []int{1, 3, 4, 7, 8, 9, 15, 16, 17, 33, 64, 65, 130} {
			for _, n := range []int{1, 4, 5, 8, 12, 31, 32, 33, 70, simdWide - 1, simdWide, 300, simdSuper + 6} {
				for _, pad := range []int{0, 1, 8} {
					name := fmt.Sprintf("nt=%v %dx%d ld pad %d", nt == 0, m, n, pad)
					engineCase[float64](t, name, []int{m, n}, []int{1, m + pad}, []int{n + pad, 1}, false, false)
					engineCase[complex64](t, name, []int{m, n}, []int{1, m + pad}, []int{n, 1}, false, false)
				}
			}
		}
	}
}

// A complex64 destination need only be 4-byte aligned; the non-temporal
// transpose must not be used on it (it would fault).
func TestEngineNTMisaligned(t *testing.T) {
	old := ntMinBytes
	ntMinBytes = 0
	defer func() { ntMinBytes = old }()
	const m, n = 128, 72 // m*8 bytes is a multiple of 64: the NT conditions but alignment hold
	type padded struct {
		_ float32
		a [m * n]complex64 // starts at 4 mod 8
	}
	buf := new(padded).a[:]
	dst := must(FromSlice(buf, must(layout.ColMajor(m, n))))
	src := must(Zeros[complex64](n, m))
	for i := range src.Data() {
		src.Data()[i] = complex(float32(i), 1)
	}
	if err := Copy(dst, src.View().T()); err != nil {
		t.Fatal(err)
	}
	for _, ij := range [][2]int{{0, 0}, {5, 7}, {127, 71}} {
		if dst.At(ij[0], ij[1]) != src.At(ij[1], ij[0]) {
			t.Fatalf("%v: %v != %v", ij, dst.At(ij[0], ij[1]), src.At(ij[1], ij[0]))
		}
	}
}
