//go:build amd64 && !purego

package gemm

import "github.com/klauspost/cpuid/v2"

// lanesWide reports whether Lanes runs the AVX-512 tile (AVX-512 F; cpuid
// also checks that the OS saves the ZMM registers); otherwise it runs the
// AVX2 one where Fast.
var lanesWide = Fast && cpuid.CPU.Supports(cpuid.AVX512F)

// lanesTile returns the lanes and rows of the tile in use (0, 0: none).
func lanesTile() (lanes, rows int) {
	switch {
	case lanesWide:
		return 8, 4
	case Fast:
		return 4, 2
	}
	return 0, 0
}

func laneTile(k int, a *float64, as0, as1 int, b *float64, bs0, bs1 int, c *float64, cs0, cs1 int, alpha, beta float64) {
	if lanesWide {
		laneTile512(k, a, as0, as1, b, bs0, bs1, c, cs0, cs1, alpha, beta)
		return
	}
	laneTile256(k, a, as0, as1, b, bs0, bs1, c, cs0, cs1, alpha, beta)
}

// lanePack copies the lines of a panel of sub (1 or 4) adjacent lane
// groups (n1 x n0 lines of each, line (x, y) of group u at src + x*s0 +
// y*s1 bytes + u lines) to dst: line (x, y) of group u at dst + u*gp +
// y*dp bytes + x lines.
func lanePack(sub int, dst, src *float64, n0, s0, n1, s1, dp, gp int) {
	switch {
	case sub == 4 && lanesWide:
		lanePack4x512(dst, src, n0, s0, n1, s1, dp, gp)
	case sub == 4:
		lanePack4x256(dst, src, n0, s0, n1, s1, dp, gp)
	case lanesWide:
		lanePack512(dst, src, n0, s0, n1, s1, dp)
	default:
		lanePack256(dst, src, n0, s0, n1, s1, dp)
	}
}

//go:noescape
func lanePack512(dst, src *float64, n0, s0, n1, s1, dp int)

//go:noescape
func lanePack256(dst, src *float64, n0, s0, n1, s1, dp int)

//go:noescape
func lanePack4x512(dst, src *float64, n0, s0, n1, s1, dp, gp int)

//go:noescape
func lanePack4x256(dst, src *float64, n0, s0, n1, s1, dp, gp int)

// The tiles of lanes_amd64.s: k >= 1, strides in bytes.

//go:noescape
func laneTile512(k int, a *float64, as0, as1 int, b *float64, bs0, bs1 int, c *float64, cs0, cs1 int, alpha, beta float64)

//go:noescape
func laneTile256(k int, a *float64, as0, as1 int, b *float64, bs0, bs1 int, c *float64, cs0, cs1 int, alpha, beta float64)

// lanesAVX512 says the CPU has the AVX-512 tile; tests run the AVX2 one
// too by clearing lanesWide.
var lanesAVX512 = lanesWide
