package views

import "unsafe"

// The SIMD transpose: for 8-byte elements (float64, complex64) whose
// destination and source are contiguous along the two transposed axes, the
// AVX2 kernels of transpose_amd64.s copy 8 x 8 blocks in registers. With a
// destination of ntMinBytes or more they use non-temporal stores, which
// skip reading each destination line before writing it (as Go's large
// memmove does): the result is not left in cache, which is the right trade
// only for large copies. BenchmarkTune and docs/bench/copy.md have the
// numbers.

const (
	simdRows  = 64   // strip height (a multiple of 8: NT alignment)
	simdCols  = 32   // strip width: 4 groups of 8
	simdPanel = 4096 // elements per panel, about: 32 KiB of each operand
	simdSuper = 1024 // super-block edge: the widest panel
	simdPF    = 16   // NT kernel: prefetch the source this many rows ahead
)

// simdWide is the narrowest block that goes in panels; a variable so that
// BenchmarkTunePanels can time strips against panels.
var simdWide = 256

// ntMinBytes is the destination size from which the NT kernel is used.
var ntMinBytes = 4 << 20

// simdOK reports whether the plan's transpose can use the SIMD kernels.
// The plan's strides are in bytes.
func simdOK[T Scalar](p *copyPlan, cf func(T) T) bool {
	var z T
	return hasAVX2 && cf == nil && unsafe.Sizeof(z) == 8 && p.Tr >= 0 && p.S[0][0] == 8 && p.S[1][p.Tr] == 8 && p.S[1][0] > 0
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

// simdTiles covers rows [i0, n0) x columns [0, n1). Wide blocks go in
// panels: for each block of up to simdSuper columns, a few rows at a time
// across the whole block, so that each panel reads its source rows front to
// back and writes one or two cache lines into every destination column; on
// the 2-core Xeon this project measures on, that is 1.5-2.9x faster than
// the square strips (64 x 32) it replaced for n x n transposes from n = 500
// to 4096 (docs/bench/copy.md, "Panels against strips"). Narrow blocks
// (fewer than simdWide columns), where that lost up to 1.45x, keep the
// strips: 32 columns at a time, 64 rows per call, down super-blocks of
// rows. Destination columns of at most 64 rows are written whole.
func simdTiles(d, s unsafe.Pointer, i0, n0, n1, d1, s0 int, nt bool) {
	if n1 < simdWide {
		for I := i0; I < n0; I += simdSuper {
			ie := min(I+simdSuper, n0)
			for jb := 0; jb < n1; jb += simdCols {
				for ib := I; ib < ie; ib += simdRows {
					simdStrip(d, s, ib, min(ib+simdRows, ie), jb, min(jb+simdCols, n1), d1, s0, nt, 0)
				}
			}
		}
		return
	}
	for J := 0; J < n1; J += simdSuper {
		je := min(J+simdSuper, n1)
		r := panelRows(je-J, nt)
		if n0-i0 <= simdRows {
			r = max(1, n0-i0)
		}
		for ib := i0; ib < n0; ib += r {
			simdStrip(d, s, ib, min(ib+r, n0), J, je, d1, s0, nt, r*8)
		}
	}
}

// panelRows is the height of a panel w columns wide: a multiple of 8 (so
// that NT strips stay 64-byte aligned), 8 or 16 (NT: two whole lines per
// destination column) for wide blocks, up to simdRows for narrower ones,
// so that a call moves about simdPanel elements.
func panelRows(w int, nt bool) int {
	lo := 8
	if nt {
		lo = 16
	}
	return min(simdRows, max(lo, simdPanel/max(w, 1)&^7))
}

// simdStrip copies rows [ib, ie) x columns [jb, je): groups of 8 columns,
// then one of 4, then single columns with the Go line kernel (moving the
// 8-byte elements as float64 copies their bits unchanged). With ordinary
// stores and pf > 0 the 8-column kernel prefetches each destination column
// pf bytes past the rows it writes: a panel writes one or two lines in
// every column, and a destination that is not in cache (a fresh or pooled
// buffer, the caller's matrix after a LAPACK call) otherwise costs a cache
// miss per line that no hardware prefetcher sees coming (1.5x the time of
// the whole 500 x 500 copy, measured).
func simdStrip(d, s unsafe.Pointer, ib, ie, jb, je, d1, s0 int, nt bool, pf int) {
	rows, j := ie-ib, jb
	if g := (je - j) / 8; g > 0 {
		dp, sp := unsafe.Add(d, ib*8+j*d1), unsafe.Add(s, ib*s0+j*8)
		switch {
		case nt:
			transposeF64x8NT(dp, sp, rows, g, d1, s0, simdPF*s0)
		case pf > 0:
			transposeF64x8PF(dp, sp, rows, g, d1, s0, pf)
		default:
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
