//go:build !amd64 || purego

package finite

const fast = false

func float64sAVX2(p *float64, n int) bool { panic("finite: no AVX2 scan in this build") }

func float32sAVX2(p *float32, n int) bool { panic("finite: no AVX2 scan in this build") }
