//go:build amd64 && !purego

package tiny

import "github.com/klauspost/cpuid/v2"

// Fast reports whether the AVX2/FMA tiny kernels run (cpuid also checks
// that the OS saves the YMM registers).
var Fast = cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3)

// Wide reports whether the tiny kernels run their AVX-512 versions
// (tiny.go): AVX-512 F, DQ and VL (cpuid also checks that the OS saves the
// ZMM and opmask registers), with Fast's AVX2 and FMA.
var Wide = Fast && cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512DQ, cpuid.AVX512VL)

// slowScatter reports whether the CPU is one whose AVX-512 scatters (and
// gathers of a few elements) cost more than the shuffles they save: AMD's
// (and Hygon's) Zen, measured on Zen 5. The tiny kernels run their set
// without scatters there (tinyWide).
var slowScatter = cpuid.CPU.VendorID == cpuid.AMD || cpuid.CPU.VendorID == cpuid.Hygon
