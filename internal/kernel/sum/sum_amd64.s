//go:build amd64 && !purego

#include "textflag.h"

// func block64AVX2(p *float64, n int) float64
// Y0 holds the partial sums r0-r3, Y1 r4-r7; each adds every eighth value.
// The end adds them as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)).
TEXT ·block64AVX2(SB), NOSPLIT, $0-24
	MOVQ    p+0(FP), SI
	MOVQ    n+8(FP), CX
	VMOVUPD 0(SI), Y0
	VMOVUPD 32(SI), Y1
	ADDQ    $64, SI
	SUBQ    $8, CX
	JZ      done64

loop64:
	VADDPD 0(SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	ADDQ   $64, SI
	SUBQ   $8, CX
	JNZ    loop64

done64:
	VHADDPD      Y1, Y0, Y2 // r0+r1, r4+r5, r2+r3, r6+r7
	VEXTRACTF128 $1, Y2, X3 // r2+r3, r6+r7
	VADDPD       X3, X2, X2 // (r0+r1)+(r2+r3), (r4+r5)+(r6+r7)
	VHADDPD      X2, X2, X2
	VZEROUPPER
	MOVSD        X2, ret+16(FP)
	RET

// func block32AVX2(p *float32, n int) float32
// Y0 holds the partial sums r0-r7.
TEXT ·block32AVX2(SB), NOSPLIT, $0-20
	MOVQ    p+0(FP), SI
	MOVQ    n+8(FP), CX
	VMOVUPS 0(SI), Y0
	ADDQ    $32, SI
	SUBQ    $8, CX
	JZ      done32

loop32:
	VADDPS 0(SI), Y0, Y0
	ADDQ   $32, SI
	SUBQ   $8, CX
	JNZ    loop32

done32:
	VEXTRACTF128 $1, Y0, X1 // r4-r7
	VHADDPS      X1, X0, X2 // r0+r1, r2+r3, r4+r5, r6+r7
	VHADDPS      X2, X2, X2 // (r0+r1)+(r2+r3), (r4+r5)+(r6+r7), ...
	VHADDPS      X2, X2, X2
	VZEROUPPER
	MOVSS        X2, ret+16(FP)
	RET
