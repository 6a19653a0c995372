package ew

import (
	"fmt"
	"testing"
)

// BenchmarkLines times Add, Div, Axpby and Scale lines of n values, each
// in the Go loop (impl=go, elem's fallback) and in both sets of
// assembly (impl=avx2, and impl=avx512 where the CPU has it). Each
// operand has cache lines of its own: were d packed next to x and y, the
// AVX-512 masked store to d's last values would span the start of x or y
// and stall the next call's loads of them (up to twice the time for n =
// 4 on AMD Zen 4), which a line of a larger tensor does not meet.
//
//	go test -run '^$' -bench Lines ./internal/kernel/ew
func BenchmarkLines(b *testing.B) {
	benchLines(b, "float64", goLines[float64](), [4]func(d, x, y []float64){
		func(d, x, y []float64) { Binary64(Add, d, x, y) },
		func(d, x, y []float64) { Binary64(Div, d, x, y) },
		func(d, x, y []float64) { Axpby64(d, x, y, 1.5, 0.5) },
		func(d, x, _ []float64) { Scale64(d, x, 1.5) },
	})
	benchLines(b, "float32", goLines[float32](), [4]func(d, x, y []float32){
		func(d, x, y []float32) { Binary32(Add, d, x, y) },
		func(d, x, y []float32) { Binary32(Div, d, x, y) },
		func(d, x, y []float32) { Axpby32(d, x, y, 1.5, 0.5) },
		func(d, x, _ []float32) { Scale32(d, x, 1.5) },
	})
}

// goLines are the Go loops of add, div, axpby and scale.
func goLines[T float32 | float64]() [4]func(d, x, y []T) {
	return [4]func(d, x, y []T){
		func(d, x, y []T) {
			x, y = x[:len(d)], y[:len(d)]
			for i := range d {
				d[i] = x[i] + y[i]
			}
		},
		func(d, x, y []T) {
			x, y = x[:len(d)], y[:len(d)]
			for i := range d {
				d[i] = x[i] / y[i]
			}
		},
		func(d, x, y []T) {
			x, y = x[:len(d)], y[:len(d)]
			for i := range d {
				d[i] = 1.5*x[i] + 0.5*y[i]
			}
		},
		func(d, x, _ []T) {
			x = x[:len(d)]
			for i := range d {
				d[i] = 1.5 * x[i]
			}
		},
	}
}

func benchLines[T float32 | float64](b *testing.B, typ string, inGo, inAsm [4]func(d, x, y []T)) {
	impls := []string{"go"}
	if fast {
		impls = append(impls, "avx2")
	}
	if avx512 {
		impls = append(impls, "avx512")
	}
	for op, name := range []string{"add", "div", "axpby", "scale"} {
		for _, n := range []int{4, 16, 64, 1024, 4096} {
			for _, impl := range impls {
				b.Run(fmt.Sprintf("op=%s/type=%s/n=%d/impl=%s", name, typ, n, impl), func(b *testing.B) {
					c := (n + 15) &^ 15 // a multiple of 64 bytes
					d, x, y := make([]T, n, c), make([]T, n, c), make([]T, n, c)
					for i := range x {
						x[i], y[i] = 1+T(i%7)/8, 1+T(i%5)/8
					}
					f := inGo[op]
					if impl != "go" {
						f = inAsm[op]
						defer SetAVX512(SetAVX512(impl == "avx512"))
					}
					for b.Loop() {
						f(d, x, y)
					}
				})
			}
		}
	}
}
