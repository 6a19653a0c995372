package views

import "unsafe"

// The SIMD transpose: for 8-byte elements (float64, complex64) whose
// destination and source are contiguous along the two transposed axes, the
// AVX2 kernels of transpose_amd64.s copy 8 x 8 blocks in registers. With a
// destination of ntMinBytes or more they use non-temporal stores, which
// skip reading each destination line before writing it (as Go's large
// memmove does): the result is not left in cache, which is the right trade
// only for large copies. BenchmarkTune and the README have the numbers.

const (
	simdRows  = 64  // rows per kernel call (a multiple of 8: NT alignment)
	simdCols  = 32  // columns per kernel call: 4 groups of 8
	simdSuper = 512 // super-block edge, a multiple of both
	simdPF    = 16  // NT kernel: prefetch the source this many rows ahead
)

// ntMinBytes is the destination size from which the NT kernel is used.
var ntMinBytes = 4 << 20

// simdOK reports whether the plan's transpose can use the SIMD kernels.
func simdOK[T Scalar](p *copyPlan, cf func(T) T) bool {
	var z T
	return hasAVX2 && cf == nil && unsafe.Sizeof(z) == 8 && p.tr >= 0 && p.ds[0] == 1 && p.ss[p.tr] == 1 && p.ss[0] > 0
}

// transposeSIMD copies dst(i, j) = src(i, j) for an n0 x n1 block of
// 8-byte elements with dst contiguous along i (column byte stride d1) and
// src contiguous along j (row byte stride s0).
func transposeSIMD(d, s unsafe.Pointer, n0, n1, d1, s0 int, nt bool) {
	i0 := 0
	// NT stores pay only when each destination column is written in long
	// runs of whole lines: with short columns (a permutation whose
	// destination-contiguous axis is small) they scatter and cost twice as
	// much as ordinary stores (BenchmarkTunePermute).
	// NT stores fault unless aligned; the peel below reaches a 64-byte
	// boundary only from an 8-byte aligned start (complex64 data may be
	// 4-byte aligned).
	nt = nt && uintptr(d)%8 == 0 && d1%64 == 0 && n0 >= simdRows
	if nt {
		// Peel the first rows so that every NT strip starts on a 64-byte
		// boundary (with d1 % 64 == 0 every column then does).
		if p := min(int((64-uintptr(d)&63)&63)/8, n0); p > 0 {
			simdTiles(d, s, 0, p, n1, d1, s0, false)
			i0 = p
		}
	}
	simdTiles(d, s, i0, n0, n1, d1, s0, nt)
}

// simdTiles covers rows [i0, n0) x columns [0, n1) in super-blocks of
// kernel strips.
func simdTiles(d, s unsafe.Pointer, i0, n0, n1, d1, s0 int, nt bool) {
	for J := 0; J < n1; J += simdSuper {
		je := min(J+simdSuper, n1)
		for I := i0; I < n0; I += simdSuper {
			ie := min(I+simdSuper, n0)
			for jb := J; jb < je; jb += simdCols {
				for ib := I; ib < ie; ib += simdRows {
					simdStrip(d, s, ib, min(ib+simdRows, ie), jb, min(jb+simdCols, je), d1, s0, nt)
				}
			}
		}
	}
}

// simdStrip copies rows [ib, ie) x columns [jb, je): groups of 8 columns,
// then one of 4, then single columns with the Go line kernel (moving the
// 8-byte elements as float64 copies their bits unchanged).
func simdStrip(d, s unsafe.Pointer, ib, ie, jb, je, d1, s0 int, nt bool) {
	rows, j := ie-ib, jb
	if g := (je - j) / 8; g > 0 {
		dp, sp := unsafe.Add(d, ib*8+j*d1), unsafe.Add(s, ib*s0+j*8)
		if nt {
			transposeF64x8NT(dp, sp, rows, g, d1, s0, simdPF*s0)
		} else {
			transposeF64x8(dp, sp, rows, g, d1, s0)
		}
		j += 8 * g
	}
	if je-j >= 4 {
		transposeF64x4(unsafe.Add(d, ib*8+j*d1), unsafe.Add(s, ib*s0+j*8), rows, 1, d1, s0)
		j += 4
	}
	for ; j < je; j++ {
		line[float64](unsafe.Add(d, ib*8+j*d1), unsafe.Add(s, ib*s0+j*8), rows, 8, s0, nil)
	}
}
