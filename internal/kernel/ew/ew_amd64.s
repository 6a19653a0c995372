//go:build amd64 && !purego

#include "textflag.h"

// The element-wise lines: n > 0 values. Each reads wide (ew_amd64.go) on
// entry. AVX2: 16 float64 (32 float32) a loop in four YMM registers (8
// and 16 for axpby), then one at a time. AVX-512: 32 float64 (64
// float32) a loop in four ZMM registers (16 and 32 for axpby), then a
// ZMM at a time, the last n%8 (n%16) values under an opmask in K1, which
// reads and writes nothing past them. One IEEE operation per step, no
// fused multiply-add: the Go loop's arithmetic, bit for bit.

// MASK sets K1 to the low CX bits (CX < 16), with AX.
#define MASK \
	MOVL  $1, AX \
	SHLL  CX, AX \
	DECL  AX \
	KMOVW AX, K1

// BIN64 defines func name(d, a, b *float64, n int): d[i] = a[i] OP b[i].
#define BIN64(name, VOP, SOP) \
TEXT name(SB), NOSPLIT, $0-32 \
	MOVQ d+0(FP), DI \
	MOVQ a+8(FP), SI \
	MOVQ b+16(FP), DX \
	MOVQ n+24(FP), CX \
	CMPB ·wide(SB), $0 \
	JNE  wide \
	CMPQ CX, $16 \
	JL   tail \
loop: \
	VMOVUPD 0(SI), Y0 \
	VMOVUPD 32(SI), Y1 \
	VMOVUPD 64(SI), Y2 \
	VMOVUPD 96(SI), Y3 \
	VOP     0(DX), Y0, Y0 \
	VOP     32(DX), Y1, Y1 \
	VOP     64(DX), Y2, Y2 \
	VOP     96(DX), Y3, Y3 \
	VMOVUPD Y0, 0(DI) \
	VMOVUPD Y1, 32(DI) \
	VMOVUPD Y2, 64(DI) \
	VMOVUPD Y3, 96(DI) \
	ADDQ    $128, SI \
	ADDQ    $128, DX \
	ADDQ    $128, DI \
	SUBQ    $16, CX \
	CMPQ    CX, $16 \
	JGE     loop \
	VZEROUPPER \
tail: \
	TESTQ CX, CX \
	JEQ   done \
one: \
	MOVSD 0(SI), X0 \
	SOP   0(DX), X0 \
	MOVSD X0, 0(DI) \
	ADDQ  $8, SI \
	ADDQ  $8, DX \
	ADDQ  $8, DI \
	DECQ  CX \
	JNZ   one \
done: \
	RET \
wide: \
	CMPQ CX, $32 \
	JL   wtail \
wloop: \
	VMOVUPD 0(SI), Z0 \
	VMOVUPD 64(SI), Z1 \
	VMOVUPD 128(SI), Z2 \
	VMOVUPD 192(SI), Z3 \
	VOP     0(DX), Z0, Z0 \
	VOP     64(DX), Z1, Z1 \
	VOP     128(DX), Z2, Z2 \
	VOP     192(DX), Z3, Z3 \
	VMOVUPD Z0, 0(DI) \
	VMOVUPD Z1, 64(DI) \
	VMOVUPD Z2, 128(DI) \
	VMOVUPD Z3, 192(DI) \
	ADDQ    $256, SI \
	ADDQ    $256, DX \
	ADDQ    $256, DI \
	SUBQ    $32, CX \
	CMPQ    CX, $32 \
	JGE     wloop \
wtail: \
	CMPQ CX, $8 \
	JL   wlast \
	VMOVUPD 0(SI), Z0 \
	VOP     0(DX), Z0, Z0 \
	VMOVUPD Z0, 0(DI) \
	ADDQ    $64, SI \
	ADDQ    $64, DX \
	ADDQ    $64, DI \
	SUBQ    $8, CX \
	JMP     wtail \
wlast: \
	TESTQ CX, CX \
	JEQ   wdone \
	MASK \
	VMOVUPD.Z 0(SI), K1, Z0 \
	VOP       0(DX), Z0, K1, Z0 \
	VMOVUPD   Z0, K1, 0(DI) \
wdone: \
	VZEROUPPER \
	RET

// BIN32 is BIN64 for float32.
#define BIN32(name, VOP, SOP) \
TEXT name(SB), NOSPLIT, $0-32 \
	MOVQ d+0(FP), DI \
	MOVQ a+8(FP), SI \
	MOVQ b+16(FP), DX \
	MOVQ n+24(FP), CX \
	CMPB ·wide(SB), $0 \
	JNE  wide \
	CMPQ CX, $32 \
	JL   tail \
loop: \
	VMOVUPS 0(SI), Y0 \
	VMOVUPS 32(SI), Y1 \
	VMOVUPS 64(SI), Y2 \
	VMOVUPS 96(SI), Y3 \
	VOP     0(DX), Y0, Y0 \
	VOP     32(DX), Y1, Y1 \
	VOP     64(DX), Y2, Y2 \
	VOP     96(DX), Y3, Y3 \
	VMOVUPS Y0, 0(DI) \
	VMOVUPS Y1, 32(DI) \
	VMOVUPS Y2, 64(DI) \
	VMOVUPS Y3, 96(DI) \
	ADDQ    $128, SI \
	ADDQ    $128, DX \
	ADDQ    $128, DI \
	SUBQ    $32, CX \
	CMPQ    CX, $32 \
	JGE     loop \
	VZEROUPPER \
tail: \
	TESTQ CX, CX \
	JEQ   done \
one: \
	MOVSS 0(SI), X0 \
	SOP   0(DX), X0 \
	MOVSS X0, 0(DI) \
	ADDQ  $4, SI \
	ADDQ  $4, DX \
	ADDQ  $4, DI \
	DECQ  CX \
	JNZ   one \
done: \
	RET \
wide: \
	CMPQ CX, $64 \
	JL   wtail \
wloop: \
	VMOVUPS 0(SI), Z0 \
	VMOVUPS 64(SI), Z1 \
	VMOVUPS 128(SI), Z2 \
	VMOVUPS 192(SI), Z3 \
	VOP     0(DX), Z0, Z0 \
	VOP     64(DX), Z1, Z1 \
	VOP     128(DX), Z2, Z2 \
	VOP     192(DX), Z3, Z3 \
	VMOVUPS Z0, 0(DI) \
	VMOVUPS Z1, 64(DI) \
	VMOVUPS Z2, 128(DI) \
	VMOVUPS Z3, 192(DI) \
	ADDQ    $256, SI \
	ADDQ    $256, DX \
	ADDQ    $256, DI \
	SUBQ    $64, CX \
	CMPQ    CX, $64 \
	JGE     wloop \
wtail: \
	CMPQ CX, $16 \
	JL   wlast \
	VMOVUPS 0(SI), Z0 \
	VOP     0(DX), Z0, Z0 \
	VMOVUPS Z0, 0(DI) \
	ADDQ    $64, SI \
	ADDQ    $64, DX \
	ADDQ    $64, DI \
	SUBQ    $16, CX \
	JMP     wtail \
wlast: \
	TESTQ CX, CX \
	JEQ   wdone \
	MASK \
	VMOVUPS.Z 0(SI), K1, Z0 \
	VOP       0(DX), Z0, K1, Z0 \
	VMOVUPS   Z0, K1, 0(DI) \
wdone: \
	VZEROUPPER \
	RET

BIN64(·add64, VADDPD, ADDSD)
BIN64(·sub64, VSUBPD, SUBSD)
BIN64(·mul64, VMULPD, MULSD)
BIN64(·div64, VDIVPD, DIVSD)
BIN32(·add32, VADDPS, ADDSS)
BIN32(·sub32, VSUBPS, SUBSS)
BIN32(·mul32, VMULPS, MULSS)
BIN32(·div32, VDIVPS, DIVSS)

// func axpby64(d, a, b *float64, n int, alpha, beta float64)
// d[i] = alpha*a[i] + beta*b[i]: two products, then their sum.
TEXT ·axpby64(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	CMPB ·wide(SB), $0
	JNE  wide
	VBROADCASTSD alpha+32(FP), Y4
	VBROADCASTSD beta+40(FP), Y5
	CMPQ         CX, $8
	JL           tail

loop:
	VMULPD  0(SI), Y4, Y0
	VMULPD  32(SI), Y4, Y1
	VMULPD  0(DX), Y5, Y2
	VMULPD  32(DX), Y5, Y3
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DX
	ADDQ    $64, DI
	SUBQ    $8, CX
	CMPQ    CX, $8
	JGE     loop

tail:
	TESTQ CX, CX
	JEQ   done

one:
	VMULSD 0(SI), X4, X0
	VMULSD 0(DX), X5, X2
	VADDSD X2, X0, X0
	VMOVSD X0, 0(DI)
	ADDQ   $8, SI
	ADDQ   $8, DX
	ADDQ   $8, DI
	DECQ   CX
	JNZ    one

done:
	VZEROUPPER
	RET

wide:
	VBROADCASTSD alpha+32(FP), Z4
	VBROADCASTSD beta+40(FP), Z5
	CMPQ         CX, $16
	JL           wtail

wloop:
	VMULPD  0(SI), Z4, Z0
	VMULPD  64(SI), Z4, Z1
	VMULPD  0(DX), Z5, Z2
	VMULPD  64(DX), Z5, Z3
	VADDPD  Z2, Z0, Z0
	VADDPD  Z3, Z1, Z1
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	ADDQ    $128, SI
	ADDQ    $128, DX
	ADDQ    $128, DI
	SUBQ    $16, CX
	CMPQ    CX, $16
	JGE     wloop

wtail:
	CMPQ    CX, $8
	JL      wlast
	VMULPD  0(SI), Z4, Z0
	VMULPD  0(DX), Z5, Z2
	VADDPD  Z2, Z0, Z0
	VMOVUPD Z0, 0(DI)
	ADDQ    $64, SI
	ADDQ    $64, DX
	ADDQ    $64, DI
	SUBQ    $8, CX

wlast:
	TESTQ   CX, CX
	JEQ     done
	MASK
	VMULPD  0(SI), Z4, K1, Z0
	VMULPD  0(DX), Z5, K1, Z2
	VADDPD  Z2, Z0, K1, Z0
	VMOVUPD Z0, K1, 0(DI)
	VZEROUPPER
	RET

// func axpby32(d, a, b *float32, n int, alpha, beta float32)
TEXT ·axpby32(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	CMPB ·wide(SB), $0
	JNE  wide
	VBROADCASTSS alpha+32(FP), Y4
	VBROADCASTSS beta+36(FP), Y5
	CMPQ         CX, $16
	JL           tail

loop:
	VMULPS  0(SI), Y4, Y0
	VMULPS  32(SI), Y4, Y1
	VMULPS  0(DX), Y5, Y2
	VMULPS  32(DX), Y5, Y3
	VADDPS  Y2, Y0, Y0
	VADDPS  Y3, Y1, Y1
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DX
	ADDQ    $64, DI
	SUBQ    $16, CX
	CMPQ    CX, $16
	JGE     loop

tail:
	TESTQ CX, CX
	JEQ   done

one:
	VMULSS 0(SI), X4, X0
	VMULSS 0(DX), X5, X2
	VADDSS X2, X0, X0
	VMOVSS X0, 0(DI)
	ADDQ   $4, SI
	ADDQ   $4, DX
	ADDQ   $4, DI
	DECQ   CX
	JNZ    one

done:
	VZEROUPPER
	RET

wide:
	VBROADCASTSS alpha+32(FP), Z4
	VBROADCASTSS beta+36(FP), Z5
	CMPQ         CX, $32
	JL           wtail

wloop:
	VMULPS  0(SI), Z4, Z0
	VMULPS  64(SI), Z4, Z1
	VMULPS  0(DX), Z5, Z2
	VMULPS  64(DX), Z5, Z3
	VADDPS  Z2, Z0, Z0
	VADDPS  Z3, Z1, Z1
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	ADDQ    $128, SI
	ADDQ    $128, DX
	ADDQ    $128, DI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JGE     wloop

wtail:
	CMPQ    CX, $16
	JL      wlast
	VMULPS  0(SI), Z4, Z0
	VMULPS  0(DX), Z5, Z2
	VADDPS  Z2, Z0, Z0
	VMOVUPS Z0, 0(DI)
	ADDQ    $64, SI
	ADDQ    $64, DX
	ADDQ    $64, DI
	SUBQ    $16, CX

wlast:
	TESTQ   CX, CX
	JEQ     done
	MASK
	VMULPS  0(SI), Z4, K1, Z0
	VMULPS  0(DX), Z5, K1, Z2
	VADDPS  Z2, Z0, K1, Z0
	VMOVUPS Z0, K1, 0(DI)
	VZEROUPPER
	RET

// func scale64(d, a *float64, n int, alpha float64)
TEXT ·scale64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	CMPB ·wide(SB), $0
	JNE  wide
	VBROADCASTSD alpha+24(FP), Y4
	CMPQ         CX, $16
	JL           tail

loop:
	VMULPD  0(SI), Y4, Y0
	VMULPD  32(SI), Y4, Y1
	VMULPD  64(SI), Y4, Y2
	VMULPD  96(SI), Y4, Y3
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	SUBQ    $16, CX
	CMPQ    CX, $16
	JGE     loop

tail:
	TESTQ CX, CX
	JEQ   done

one:
	VMULSD 0(SI), X4, X0
	VMOVSD X0, 0(DI)
	ADDQ   $8, SI
	ADDQ   $8, DI
	DECQ   CX
	JNZ    one

done:
	VZEROUPPER
	RET

wide:
	VBROADCASTSD alpha+24(FP), Z4
	CMPQ         CX, $32
	JL           wtail

wloop:
	VMULPD  0(SI), Z4, Z0
	VMULPD  64(SI), Z4, Z1
	VMULPD  128(SI), Z4, Z2
	VMULPD  192(SI), Z4, Z3
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	ADDQ    $256, SI
	ADDQ    $256, DI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JGE     wloop

wtail:
	CMPQ    CX, $8
	JL      wlast
	VMULPD  0(SI), Z4, Z0
	VMOVUPD Z0, 0(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $8, CX
	JMP     wtail

wlast:
	TESTQ   CX, CX
	JEQ     done
	MASK
	VMULPD  0(SI), Z4, K1, Z0
	VMOVUPD Z0, K1, 0(DI)
	VZEROUPPER
	RET

// func scale32(d, a *float32, n int, alpha float32)
TEXT ·scale32(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	CMPB ·wide(SB), $0
	JNE  wide
	VBROADCASTSS alpha+24(FP), Y4
	CMPQ         CX, $32
	JL           tail

loop:
	VMULPS  0(SI), Y4, Y0
	VMULPS  32(SI), Y4, Y1
	VMULPS  64(SI), Y4, Y2
	VMULPS  96(SI), Y4, Y3
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JGE     loop

tail:
	TESTQ CX, CX
	JEQ   done

one:
	VMULSS 0(SI), X4, X0
	VMOVSS X0, 0(DI)
	ADDQ   $4, SI
	ADDQ   $4, DI
	DECQ   CX
	JNZ    one

done:
	VZEROUPPER
	RET

wide:
	VBROADCASTSS alpha+24(FP), Z4
	CMPQ         CX, $64
	JL           wtail

wloop:
	VMULPS  0(SI), Z4, Z0
	VMULPS  64(SI), Z4, Z1
	VMULPS  128(SI), Z4, Z2
	VMULPS  192(SI), Z4, Z3
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	ADDQ    $256, SI
	ADDQ    $256, DI
	SUBQ    $64, CX
	CMPQ    CX, $64
	JGE     wloop

wtail:
	CMPQ    CX, $16
	JL      wlast
	VMULPS  0(SI), Z4, Z0
	VMOVUPS Z0, 0(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $16, CX
	JMP     wtail

wlast:
	TESTQ   CX, CX
	JEQ     done
	MASK
	VMULPS  0(SI), Z4, K1, Z0
	VMOVUPS Z0, K1, 0(DI)
	VZEROUPPER
	RET
