//go:build amd64 && !purego

#include "textflag.h"

// The tiles of Lanes (lanes.go): c's tile of mr rows by 4 columns in one
// group of lanes, accumulated over k in registers, one vector per element
// of the tile (its lanes are the batch's matrices, stride 1 in memory):
//
//	acc[i][p] += a[lanes, i, q] * b[lanes, q, p]   for q < k
//	c[lanes, i, p] = alpha*acc[i][p] + beta*c[lanes, i, p]   (beta*c only
//	when beta != 0: c is not read otherwise)
//
// Strides are in bytes; a, b and c point at the tile's first element.

// func laneTile512(k int, a *float64, as0, as1 int, b *float64, bs0, bs1 int, c *float64, cs0, cs1 int, alpha, beta float64)
// AVX-512: 8 lanes, 4 rows; Z0-Z15 the tile, Z16-Z19 a's rows, Z20-Z23 b's columns.
TEXT ·laneTile512(SB), NOSPLIT, $0-96
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ as0+16(FP), R8
	MOVQ as1+24(FP), R9
	MOVQ b+32(FP), BX
	MOVQ bs0+40(FP), R10
	MOVQ bs1+48(FP), R11
	LEAQ (R8)(R8*2), R12
	LEAQ (R11)(R11*2), R13
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
laneTile512_loop:
	VMOVUPD (AX), Z16
	VMOVUPD (AX)(R8*1), Z17
	VMOVUPD (AX)(R8*2), Z18
	VMOVUPD (AX)(R12*1), Z19
	VMOVUPD (BX), Z20
	VMOVUPD (BX)(R11*1), Z21
	VMOVUPD (BX)(R11*2), Z22
	VMOVUPD (BX)(R13*1), Z23
	VFMADD231PD Z20, Z16, Z0
	VFMADD231PD Z21, Z16, Z1
	VFMADD231PD Z22, Z16, Z2
	VFMADD231PD Z23, Z16, Z3
	VFMADD231PD Z20, Z17, Z4
	VFMADD231PD Z21, Z17, Z5
	VFMADD231PD Z22, Z17, Z6
	VFMADD231PD Z23, Z17, Z7
	VFMADD231PD Z20, Z18, Z8
	VFMADD231PD Z21, Z18, Z9
	VFMADD231PD Z22, Z18, Z10
	VFMADD231PD Z23, Z18, Z11
	VFMADD231PD Z20, Z19, Z12
	VFMADD231PD Z21, Z19, Z13
	VFMADD231PD Z22, Z19, Z14
	VFMADD231PD Z23, Z19, Z15
	ADDQ R9, AX
	ADDQ R10, BX
	DECQ CX
	JNZ laneTile512_loop
	MOVQ c+56(FP), DX
	MOVQ cs0+64(FP), R8
	MOVQ cs1+72(FP), R9
	LEAQ (R9)(R9*2), R10
	VBROADCASTSD alpha+80(FP), Z16
	VBROADCASTSD beta+88(FP), Z17
	VMULPD Z16, Z0, Z0
	VMULPD Z16, Z1, Z1
	VMULPD Z16, Z2, Z2
	VMULPD Z16, Z3, Z3
	VMULPD Z16, Z4, Z4
	VMULPD Z16, Z5, Z5
	VMULPD Z16, Z6, Z6
	VMULPD Z16, Z7, Z7
	VMULPD Z16, Z8, Z8
	VMULPD Z16, Z9, Z9
	VMULPD Z16, Z10, Z10
	VMULPD Z16, Z11, Z11
	VMULPD Z16, Z12, Z12
	VMULPD Z16, Z13, Z13
	VMULPD Z16, Z14, Z14
	VMULPD Z16, Z15, Z15
	MOVQ beta+88(FP), DI
	SHLQ $1, DI // beta == ±0: c is not read
	JZ laneTile512_store
	MOVQ DX, SI
	VFMADD231PD (SI), Z17, Z0
	VFMADD231PD (SI)(R9*1), Z17, Z1
	VFMADD231PD (SI)(R9*2), Z17, Z2
	VFMADD231PD (SI)(R10*1), Z17, Z3
	LEAQ (DX)(R8*1), SI
	VFMADD231PD (SI), Z17, Z4
	VFMADD231PD (SI)(R9*1), Z17, Z5
	VFMADD231PD (SI)(R9*2), Z17, Z6
	VFMADD231PD (SI)(R10*1), Z17, Z7
	LEAQ (DX)(R8*2), SI
	VFMADD231PD (SI), Z17, Z8
	VFMADD231PD (SI)(R9*1), Z17, Z9
	VFMADD231PD (SI)(R9*2), Z17, Z10
	VFMADD231PD (SI)(R10*1), Z17, Z11
	LEAQ (R8)(R8*2), DI
	LEAQ (DX)(DI*1), SI
	VFMADD231PD (SI), Z17, Z12
	VFMADD231PD (SI)(R9*1), Z17, Z13
	VFMADD231PD (SI)(R9*2), Z17, Z14
	VFMADD231PD (SI)(R10*1), Z17, Z15
laneTile512_store:
	MOVQ DX, SI
	VMOVUPD Z0, (SI)
	VMOVUPD Z1, (SI)(R9*1)
	VMOVUPD Z2, (SI)(R9*2)
	VMOVUPD Z3, (SI)(R10*1)
	LEAQ (DX)(R8*1), SI
	VMOVUPD Z4, (SI)
	VMOVUPD Z5, (SI)(R9*1)
	VMOVUPD Z6, (SI)(R9*2)
	VMOVUPD Z7, (SI)(R10*1)
	LEAQ (DX)(R8*2), SI
	VMOVUPD Z8, (SI)
	VMOVUPD Z9, (SI)(R9*1)
	VMOVUPD Z10, (SI)(R9*2)
	VMOVUPD Z11, (SI)(R10*1)
	LEAQ (R8)(R8*2), DI
	LEAQ (DX)(DI*1), SI
	VMOVUPD Z12, (SI)
	VMOVUPD Z13, (SI)(R9*1)
	VMOVUPD Z14, (SI)(R9*2)
	VMOVUPD Z15, (SI)(R10*1)
	VZEROUPPER
	RET

// func laneTile256(k int, a *float64, as0, as1 int, b *float64, bs0, bs1 int, c *float64, cs0, cs1 int, alpha, beta float64)
// AVX2 and FMA: 4 lanes, 2 rows; Y0-Y7 the tile, Y8-Y9 a's rows, Y10-Y13 b's columns.
TEXT ·laneTile256(SB), NOSPLIT, $0-96
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ as0+16(FP), R8
	MOVQ as1+24(FP), R9
	MOVQ b+32(FP), BX
	MOVQ bs0+40(FP), R10
	MOVQ bs1+48(FP), R11
	LEAQ (R8)(R8*2), R12
	LEAQ (R11)(R11*2), R13
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
laneTile256_loop:
	VMOVUPD (AX), Y8
	VMOVUPD (AX)(R8*1), Y9
	VMOVUPD (BX), Y10
	VMOVUPD (BX)(R11*1), Y11
	VMOVUPD (BX)(R11*2), Y12
	VMOVUPD (BX)(R13*1), Y13
	VFMADD231PD Y10, Y8, Y0
	VFMADD231PD Y11, Y8, Y1
	VFMADD231PD Y12, Y8, Y2
	VFMADD231PD Y13, Y8, Y3
	VFMADD231PD Y10, Y9, Y4
	VFMADD231PD Y11, Y9, Y5
	VFMADD231PD Y12, Y9, Y6
	VFMADD231PD Y13, Y9, Y7
	ADDQ R9, AX
	ADDQ R10, BX
	DECQ CX
	JNZ laneTile256_loop
	MOVQ c+56(FP), DX
	MOVQ cs0+64(FP), R8
	MOVQ cs1+72(FP), R9
	LEAQ (R9)(R9*2), R10
	VBROADCASTSD alpha+80(FP), Y8
	VBROADCASTSD beta+88(FP), Y9
	VMULPD Y8, Y0, Y0
	VMULPD Y8, Y1, Y1
	VMULPD Y8, Y2, Y2
	VMULPD Y8, Y3, Y3
	VMULPD Y8, Y4, Y4
	VMULPD Y8, Y5, Y5
	VMULPD Y8, Y6, Y6
	VMULPD Y8, Y7, Y7
	MOVQ beta+88(FP), DI
	SHLQ $1, DI // beta == ±0: c is not read
	JZ laneTile256_store
	MOVQ DX, SI
	VFMADD231PD (SI), Y9, Y0
	VFMADD231PD (SI)(R9*1), Y9, Y1
	VFMADD231PD (SI)(R9*2), Y9, Y2
	VFMADD231PD (SI)(R10*1), Y9, Y3
	LEAQ (DX)(R8*1), SI
	VFMADD231PD (SI), Y9, Y4
	VFMADD231PD (SI)(R9*1), Y9, Y5
	VFMADD231PD (SI)(R9*2), Y9, Y6
	VFMADD231PD (SI)(R10*1), Y9, Y7
laneTile256_store:
	MOVQ DX, SI
	VMOVUPD Y0, (SI)
	VMOVUPD Y1, (SI)(R9*1)
	VMOVUPD Y2, (SI)(R9*2)
	VMOVUPD Y3, (SI)(R10*1)
	LEAQ (DX)(R8*1), SI
	VMOVUPD Y4, (SI)
	VMOVUPD Y5, (SI)(R9*1)
	VMOVUPD Y6, (SI)(R9*2)
	VMOVUPD Y7, (SI)(R10*1)
	VZEROUPPER
	RET

// func lanePack512(dst, src *float64, n0, s0, n1, s1, dp int)
// copies n1 x n0 lines of 8 lanes, line (x, y) at src + x*s0 + y*s1
// (bytes), to dst, line (x, y) at dst + y*dp + x*64 (bytes).
TEXT ·lanePack512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), R11
	MOVQ src+8(FP), SI
	MOVQ n0+16(FP), R8
	MOVQ s0+24(FP), R9
	MOVQ n1+32(FP), CX
	MOVQ s1+40(FP), R10
	MOVQ dp+48(FP), R12
lanePack512_outer:
	MOVQ SI, AX
	MOVQ R11, DI
	MOVQ R8, DX
lanePack512_inner:
	VMOVUPD (AX), Z0
	VMOVUPD Z0, (DI)
	ADDQ R9, AX
	ADDQ $64, DI
	DECQ DX
	JNZ lanePack512_inner
	ADDQ R10, SI
	ADDQ R12, R11
	DECQ CX
	JNZ lanePack512_outer
	VZEROUPPER
	RET

// func lanePack256(dst, src *float64, n0, s0, n1, s1, dp int)
// copies n1 x n0 lines of 4 lanes, line (x, y) at src + x*s0 + y*s1
// (bytes), to dst, line (x, y) at dst + y*dp + x*32 (bytes).
TEXT ·lanePack256(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), R11
	MOVQ src+8(FP), SI
	MOVQ n0+16(FP), R8
	MOVQ s0+24(FP), R9
	MOVQ n1+32(FP), CX
	MOVQ s1+40(FP), R10
	MOVQ dp+48(FP), R12
lanePack256_outer:
	MOVQ SI, AX
	MOVQ R11, DI
	MOVQ R8, DX
lanePack256_inner:
	VMOVUPD (AX), Y0
	VMOVUPD Y0, (DI)
	ADDQ R9, AX
	ADDQ $32, DI
	DECQ DX
	JNZ lanePack256_inner
	ADDQ R10, SI
	ADDQ R12, R11
	DECQ CX
	JNZ lanePack256_outer
	VZEROUPPER
	RET

// func lanePack4x512(dst, src *float64, n0, s0, n1, s1, dp, gp int)
// is the pack of four adjacent lane groups at once: line (x, y) of
// group u (src + x*s0 + y*s1 + u*64) to dst + u*gp + y*dp + x*64.
TEXT ·lanePack4x512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), R11
	MOVQ src+8(FP), SI
	MOVQ n0+16(FP), R8
	MOVQ s0+24(FP), R9
	MOVQ n1+32(FP), CX
	MOVQ s1+40(FP), R10
	MOVQ dp+48(FP), R12
	MOVQ gp+56(FP), BX
	LEAQ (BX)(BX*2), R13
lanePack4x512_outer:
	MOVQ SI, AX
	MOVQ R11, DI
	MOVQ R8, DX
lanePack4x512_inner:
	VMOVUPD 0(AX), Z0
	VMOVUPD 64(AX), Z1
	VMOVUPD 128(AX), Z2
	VMOVUPD 192(AX), Z3
	VMOVUPD Z0, (DI)
	VMOVUPD Z1, (DI)(BX*1)
	VMOVUPD Z2, (DI)(BX*2)
	VMOVUPD Z3, (DI)(R13*1)
	ADDQ R9, AX
	ADDQ $64, DI
	DECQ DX
	JNZ lanePack4x512_inner
	ADDQ R10, SI
	ADDQ R12, R11
	DECQ CX
	JNZ lanePack4x512_outer
	VZEROUPPER
	RET

// func lanePack4x256(dst, src *float64, n0, s0, n1, s1, dp, gp int)
// is the pack of four adjacent lane groups at once: line (x, y) of
// group u (src + x*s0 + y*s1 + u*32) to dst + u*gp + y*dp + x*32.
TEXT ·lanePack4x256(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), R11
	MOVQ src+8(FP), SI
	MOVQ n0+16(FP), R8
	MOVQ s0+24(FP), R9
	MOVQ n1+32(FP), CX
	MOVQ s1+40(FP), R10
	MOVQ dp+48(FP), R12
	MOVQ gp+56(FP), BX
	LEAQ (BX)(BX*2), R13
lanePack4x256_outer:
	MOVQ SI, AX
	MOVQ R11, DI
	MOVQ R8, DX
lanePack4x256_inner:
	VMOVUPD 0(AX), Y0
	VMOVUPD 32(AX), Y1
	VMOVUPD 64(AX), Y2
	VMOVUPD 96(AX), Y3
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, (DI)(BX*1)
	VMOVUPD Y2, (DI)(BX*2)
	VMOVUPD Y3, (DI)(R13*1)
	ADDQ R9, AX
	ADDQ $32, DI
	DECQ DX
	JNZ lanePack4x256_inner
	ADDQ R10, SI
	ADDQ R12, R11
	DECQ CX
	JNZ lanePack4x256_outer
	VZEROUPPER
	RET
