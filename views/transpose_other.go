//go:build !amd64 || purego

package views

import "unsafe"

// Without the amd64 assembly the engine's pure-Go kernels do everything.
const hasAVX2 = false

func transposeF64x4(dst, src unsafe.Pointer, rows, groups, ldd, lds int) { panic("unreachable") }
func transposeF64x8(dst, src unsafe.Pointer, rows, groups, ldd, lds int) { panic("unreachable") }
func transposeF64x8PF(dst, src unsafe.Pointer, rows, groups, ldd, lds, pf int) {
	panic("unreachable")
}
func transposeF64x8NT(dst, src unsafe.Pointer, rows, groups, ldd, lds, pf int) {
	panic("unreachable")
}
