// Package finite scans float slices for NaNs and infinities: the scan
// of lapis's finite-input rule (internal/scalar.AllFinite, package
// lapack's "NaN and Inf"). On amd64 with AVX2 it runs finite_amd64.s:
// 16 float64 or 32 float32 a loop, each x - x (+0 for a finite x, NaN
// otherwise) or'ed together and tested, so that it stops at the first
// 16 (32) elements holding one. Elsewhere, and for the tail, Go's loop
// below runs, the oracle the assembly is tested against.
package finite

// Float64s reports whether no element of xs is a NaN or an infinity.
func Float64s(xs []float64) bool {
	if n := len(xs) &^ 15; n > 0 && fast {
		if !float64sAVX2(&xs[0], n) {
			return false
		}
		xs = xs[n:]
	}
	return goFinite(xs)
}

// Float32s reports whether no element of xs is a NaN or an infinity.
func Float32s(xs []float32) bool {
	if n := len(xs) &^ 31; n > 0 && fast {
		if !float32sAVX2(&xs[0], n) {
			return false
		}
		xs = xs[n:]
	}
	return goFinite(xs)
}

// goFinite adds x - x over xs in four sums (0 when every x is finite,
// NaN otherwise: no branch per element), a block of 256 elements at a
// time, and stops at the first block whose sums are not 0.
func goFinite[F float32 | float64](xs []F) bool {
	for len(xs) > 0 {
		b := xs[:min(len(xs), 256)]
		xs = xs[len(b):]
		var a0, a1, a2, a3 F
		i := 0
		for ; i+4 <= len(b); i += 4 {
			s := b[i : i+4 : i+4]
			a0 += s[0] - s[0]
			a1 += s[1] - s[1]
			a2 += s[2] - s[2]
			a3 += s[3] - s[3]
		}
		for ; i < len(b); i++ {
			a0 += b[i] - b[i]
		}
		if (a0+a1)+(a2+a3) != 0 {
			return false
		}
	}
	return true
}
