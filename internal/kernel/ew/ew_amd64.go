//go:build amd64 && !purego

package ew

import "github.com/klauspost/cpuid/v2"

// fast gates the AVX2 lines (cpuid also checks that the OS saves the YMM
// registers).
var fast = cpuid.CPU.Supports(cpuid.AVX2)

// avx512 reports whether the CPU has the AVX-512 lines: AVX-512 F, DQ and
// VL (cpuid also checks that the OS saves the ZMM and opmask registers).
var avx512 = fast && cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512DQ, cpuid.AVX512VL)

// wide makes the lines run in AVX-512; each line of ew_amd64.s reads it
// on entry.
var wide = avx512

// The lines of ew_amd64.s, AVX-512 where wide, else AVX2: n > 0 values
// at d, a and b.

//go:noescape
func add64(d, a, b *float64, n int)

//go:noescape
func sub64(d, a, b *float64, n int)

//go:noescape
func mul64(d, a, b *float64, n int)

//go:noescape
func div64(d, a, b *float64, n int)

//go:noescape
func add32(d, a, b *float32, n int)

//go:noescape
func sub32(d, a, b *float32, n int)

//go:noescape
func mul32(d, a, b *float32, n int)

//go:noescape
func div32(d, a, b *float32, n int)

//go:noescape
func axpby64(d, a, b *float64, n int, alpha, beta float64)

//go:noescape
func axpby32(d, a, b *float32, n int, alpha, beta float32)

//go:noescape
func scale64(d, a *float64, n int, alpha float64)

//go:noescape
func scale32(d, a *float32, n int, alpha float32)
