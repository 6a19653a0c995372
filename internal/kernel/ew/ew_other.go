//go:build !amd64 || purego

package ew

const fast, avx512 = false, false

var wide = false

func add64(d, a, b *float64, n int)                        { panic(noAsm) }
func sub64(d, a, b *float64, n int)                        { panic(noAsm) }
func mul64(d, a, b *float64, n int)                        { panic(noAsm) }
func div64(d, a, b *float64, n int)                        { panic(noAsm) }
func add32(d, a, b *float32, n int)                        { panic(noAsm) }
func sub32(d, a, b *float32, n int)                        { panic(noAsm) }
func mul32(d, a, b *float32, n int)                        { panic(noAsm) }
func div32(d, a, b *float32, n int)                        { panic(noAsm) }
func axpby64(d, a, b *float64, n int, alpha, beta float64) { panic(noAsm) }
func axpby32(d, a, b *float32, n int, alpha, beta float32) { panic(noAsm) }
func scale64(d, a *float64, n int, alpha float64)          { panic(noAsm) }
func scale32(d, a *float32, n int, alpha float32)          { panic(noAsm) }

const noAsm = "ew: no assembly in this build"
