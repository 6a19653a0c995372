//go:build amd64 && !purego

#include "textflag.h"

// func float64sAVX2(p *float64, n int) bool
// 16 elements a loop: x - x is +0 for a finite x and a NaN otherwise;
// the four results or'ed are all zero bits only when the 16 are finite.
TEXT ·float64sAVX2(SB), NOSPLIT, $0-17
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX

loop64:
	VMOVUPD 0(SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD 64(SI), Y2
	VMOVUPD 96(SI), Y3
	VSUBPD  Y0, Y0, Y0
	VSUBPD  Y1, Y1, Y1
	VSUBPD  Y2, Y2, Y2
	VSUBPD  Y3, Y3, Y3
	VORPD   Y1, Y0, Y0
	VORPD   Y3, Y2, Y2
	VORPD   Y2, Y0, Y0
	VPTEST  Y0, Y0
	JNZ     bad64
	ADDQ    $128, SI
	SUBQ    $16, CX
	JNZ     loop64
	VZEROUPPER
	MOVB    $1, ret+16(FP)
	RET

bad64:
	VZEROUPPER
	MOVB $0, ret+16(FP)
	RET

// func float32sAVX2(p *float32, n int) bool
// As float64sAVX2, 32 elements a loop.
TEXT ·float32sAVX2(SB), NOSPLIT, $0-17
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX

loop32:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VSUBPS  Y0, Y0, Y0
	VSUBPS  Y1, Y1, Y1
	VSUBPS  Y2, Y2, Y2
	VSUBPS  Y3, Y3, Y3
	VORPS   Y1, Y0, Y0
	VORPS   Y3, Y2, Y2
	VORPS   Y2, Y0, Y0
	VPTEST  Y0, Y0
	JNZ     bad32
	ADDQ    $128, SI
	SUBQ    $32, CX
	JNZ     loop32
	VZEROUPPER
	MOVB    $1, ret+16(FP)
	RET

bad32:
	VZEROUPPER
	MOVB $0, ret+16(FP)
	RET
