//go:build amd64 && !purego

package views

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// hasAVX2 gates the assembly transpose kernels (cpuid checks that the OS
// saves the YMM registers).
var hasAVX2 = cpuid.CPU.Supports(cpuid.AVX2)

// The kernels of transpose_amd64.s, for 8-byte elements. For c in
// [0, W*groups) and i in [0, rows), with byte strides ldd and lds:
//
//	*(*uint64)(dst + i*8 + c*ldd) = *(*uint64)(src + c*8 + i*lds)
//
// W is 4 or 8. rows <= 0 or groups <= 0 does nothing. The operands must not
// overlap. transposeF64x8NT uses non-temporal stores (dst and ldd must be
// multiples of 32 bytes; 64 for whole cache lines), prefetches the source
// pf bytes ahead, and ends with SFENCE.

//go:noescape
func transposeF64x4(dst, src unsafe.Pointer, rows, groups, ldd, lds int)

//go:noescape
func transposeF64x8(dst, src unsafe.Pointer, rows, groups, ldd, lds int)

//go:noescape
func transposeF64x8PF(dst, src unsafe.Pointer, rows, groups, ldd, lds, pf int)

//go:noescape
func transposeF64x8NT(dst, src unsafe.Pointer, rows, groups, ldd, lds, pf int)
