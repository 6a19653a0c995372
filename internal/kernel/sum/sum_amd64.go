//go:build amd64 && !purego

package sum

import "github.com/klauspost/cpuid/v2"

// fast gates the AVX2 blocks (cpuid also checks that the OS saves the
// YMM registers).
var fast = cpuid.CPU.Supports(cpuid.AVX2)

// block64AVX2 is Block64 of the n float64 at p (n a positive multiple of
// 8).
//
//go:noescape
func block64AVX2(p *float64, n int) float64

// block32AVX2 is Block32 of the n float32 at p (n a positive multiple of
// 8).
//
//go:noescape
func block32AVX2(p *float32, n int) float32
