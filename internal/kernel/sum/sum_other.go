//go:build !amd64 || purego

package sum

const fast = false

func block64AVX2(p *float64, n int) float64 { panic("sum: no AVX2 block in this build") }

func block32AVX2(p *float32, n int) float32 { panic("sum: no AVX2 block in this build") }
