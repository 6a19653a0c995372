//go:build amd64 && !purego

package finite

import "github.com/klauspost/cpuid/v2"

// fast reports whether the AVX2 scan runs (cpuid also checks that the OS
// saves the YMM registers).
var fast = cpuid.CPU.Supports(cpuid.AVX2)

// float64sAVX2 reports whether the n float64 at p are finite; n is a
// positive multiple of 16.
//
//go:noescape
func float64sAVX2(p *float64, n int) bool

// float32sAVX2 reports whether the n float32 at p are finite; n is a
// positive multiple of 32.
//
//go:noescape
func float32sAVX2(p *float32, n int) bool
