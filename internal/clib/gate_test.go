package clib

import (
	"testing"
	"unsafe"
)

// BenchmarkGate is the cost of the gate on a call that does almost
// nothing (ddot of 16): off (every library but OpenBLAS's OpenMP build)
// and, with that build, on.
func BenchmarkGate(b *testing.B) {
	x := make([]float64, 16)
	p := unsafe.Pointer(&x[0])
	b.Run("off", func(b *testing.B) {
		for b.Loop() {
			Dot[float64](16, p, 1, p, 1)
		}
	})
	if Parallel() != 2 {
		return
	}
	if !GateOn() {
		b.Fatal("OpenMP build without the gate's functions")
	}
	b.Run("on", func(b *testing.B) {
		for b.Loop() {
			Dot[float64](16, p, 1, p, 1)
		}
	})
}
