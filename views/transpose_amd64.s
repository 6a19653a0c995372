//go:build amd64 && !purego

#include "textflag.h"

// AVX2 float64 transpose kernels (Plan 9 syntax). See docs/copies.md, "The copy engine".
//
// All kernels: strides ldd, lds are in BYTES; element size is 8 bytes.
//   for c in [0, W*groups), i in [0, rows):
//     *(*float64)(dst + i*8 + c*ldd) = *(*float64)(src + c*8 + i*lds)
// W = 4 (transposeF64x4) or 8 (transposeF64x8, transposeF64x8NT).
// rows <= 0 or groups <= 0: no-op. Registers used: AX BX CX DX SI DI R8-R13,
// Y0-Y11 (no R14/R15/X15/BP). Not preemptible while running: keep calls short
// (one strip, a few thousand elements).

// Scalar tail: one src row (BX) at byte offset OFF to 4 dst columns at P.
#define TAIL4(OFF, P) \
	MOVQ OFF(BX), CX        \
	MOVQ CX, (P)            \
	MOVQ (OFF+8)(BX), CX    \
	MOVQ CX, (P)(R8*1)      \
	MOVQ (OFF+16)(BX), CX   \
	MOVQ CX, (P)(R8*2)      \
	MOVQ (OFF+24)(BX), CX   \
	MOVQ CX, (P)(R10*1)

// LD4T(B, OFF, R0..R3): 4x4 block, rows B, B+lds, B+2lds, B+3lds at byte
// offset OFF; the 4 transposed columns end up in R0..R3 (Y0..Y3 scratch).
// Half-row loads + VINSERTF128 leave only 4 shuffles per 4x4 block.
#define LD4T(B, OFF, R0, R1, R2, R3) \
	VMOVUPD     OFF(B), X0                      \
	VINSERTF128 $1, OFF(B)(R9*2), Y0, Y0        \
	VMOVUPD     OFF(B)(R9*1), X1                \
	VINSERTF128 $1, OFF(B)(R11*1), Y1, Y1       \
	VMOVUPD     (OFF+16)(B), X2                 \
	VINSERTF128 $1, (OFF+16)(B)(R9*2), Y2, Y2   \
	VMOVUPD     (OFF+16)(B)(R9*1), X3           \
	VINSERTF128 $1, (OFF+16)(B)(R11*1), Y3, Y3  \
	VUNPCKLPD   Y1, Y0, R0                      \
	VUNPCKHPD   Y1, Y0, R1                      \
	VUNPCKLPD   Y3, Y2, R2                      \
	VUNPCKHPD   Y3, Y2, R3

// ---------------------------------------------------------------------------
// 8x8 step: rows BX..BX+7*lds, 8 columns. Each dst column receives two
// adjacent 32-byte stores (one full 64-byte line when aligned).
#define HALF88(OFF, P, ST) \
	LD4T(BX, OFF, Y4, Y5, Y6, Y7)   \
	LD4T(CX, OFF, Y8, Y9, Y10, Y11) \
	ST Y4, (P)            \
	ST Y8, 32(P)          \
	ST Y5, (P)(R8*1)      \
	ST Y9, 32(P)(R8*1)    \
	ST Y6, (P)(R8*2)      \
	ST Y10, 32(P)(R8*2)   \
	ST Y7, (P)(R10*1)     \
	ST Y11, 32(P)(R10*1)

#define NOPF

// Prefetch the 8 src rows pf bytes ahead (pf+48(FP)) of the current ones.
#define DOPF \
	MOVQ pf+48(FP), CX        \
	ADDQ BX, CX               \
	PREFETCHT0 (CX)           \
	PREFETCHT0 (CX)(R9*1)     \
	PREFETCHT0 (CX)(R9*2)     \
	PREFETCHT0 (CX)(R11*1)    \
	LEAQ (CX)(R9*4), CX       \
	PREFETCHT0 (CX)           \
	PREFETCHT0 (CX)(R9*1)     \
	PREFETCHT0 (CX)(R9*2)     \
	PREFETCHT0 (CX)(R11*1)

// Prefetch the 8 dst columns pf bytes (pf+48(FP)) past the current rows:
// the lines the next panel writes.
#define DSTPF \
	MOVQ pf+48(FP), CX        \
	ADDQ AX, CX               \
	PREFETCHT0 (CX)           \
	PREFETCHT0 (CX)(R8*1)     \
	PREFETCHT0 (CX)(R8*2)     \
	PREFETCHT0 (CX)(R10*1)    \
	LEAQ (CX)(R8*4), CX       \
	PREFETCHT0 (CX)           \
	PREFETCHT0 (CX)(R8*1)     \
	PREFETCHT0 (CX)(R8*2)     \
	PREFETCHT0 (CX)(R10*1)

#define NOFENCE
#define DOFENCE SFENCE

#define KERN88(NAME, ST, PF, FENCE, ARGSZ) \
TEXT NAME(SB), NOSPLIT, $0-ARGSZ \
	MOVQ  dst+0(FP), DI      \
	MOVQ  src+8(FP), SI      \
	MOVQ  groups+24(FP), DX  \
	MOVQ  ldd+32(FP), R8     \
	MOVQ  lds+40(FP), R9     \
	LEAQ  (R8)(R8*2), R10    \
	LEAQ  (R9)(R9*2), R11    \
	TESTQ DX, DX             \
	JLE   done               \
	CMPQ  rows+16(FP), $0    \
	JLE   done               \
col:                         \
	MOVQ DI, AX              \
	MOVQ SI, BX              \
	MOVQ rows+16(FP), R12    \
	SHRQ $3, R12             \
	JZ   tail                \
row:                         \
	PF                       \
	LEAQ (BX)(R9*4), CX      \
	LEAQ (AX)(R8*4), R13     \
	HALF88(0, AX, ST)        \
	HALF88(32, R13, ST)      \
	ADDQ $64, AX             \
	LEAQ (BX)(R9*8), BX      \
	DECQ R12                 \
	JNZ  row                 \
tail:                        \
	MOVQ rows+16(FP), R12    \
	ANDQ $7, R12             \
	JZ   next                \
tl:                          \
	LEAQ (AX)(R8*4), R13     \
	TAIL4(0, AX)             \
	TAIL4(32, R13)           \
	ADDQ $8, AX              \
	ADDQ R9, BX              \
	DECQ R12                 \
	JNZ  tl                  \
next:                        \
	LEAQ (DI)(R8*8), DI      \
	ADDQ $64, SI             \
	DECQ DX                  \
	JNZ  col                 \
done:                        \
	FENCE                    \
	VZEROUPPER               \
	RET

// ---------------------------------------------------------------------------
// func transposeF64x4(dst, src unsafe.Pointer, rows, groups, ldd, lds int)
// Groups of 4 columns, 4 rows per step, regular stores.
TEXT ·transposeF64x4(SB), NOSPLIT, $0-48
	MOVQ  dst+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  groups+24(FP), DX
	MOVQ  ldd+32(FP), R8
	MOVQ  lds+40(FP), R9
	LEAQ  (R8)(R8*2), R10
	LEAQ  (R9)(R9*2), R11
	TESTQ DX, DX
	JLE   done
	CMPQ  rows+16(FP), $0
	JLE   done

col:
	MOVQ DI, AX
	MOVQ SI, BX
	MOVQ rows+16(FP), R12
	SHRQ $2, R12
	JZ   tail

row:
	LD4T(BX, 0, Y4, Y5, Y6, Y7)
	VMOVUPD Y4, (AX)
	VMOVUPD Y5, (AX)(R8*1)
	VMOVUPD Y6, (AX)(R8*2)
	VMOVUPD Y7, (AX)(R10*1)
	ADDQ    $32, AX
	LEAQ    (BX)(R9*4), BX
	DECQ    R12
	JNZ     row

tail:
	MOVQ rows+16(FP), R12
	ANDQ $3, R12
	JZ   next

tl:
	TAIL4(0, AX)
	ADDQ $8, AX
	ADDQ R9, BX
	DECQ R12
	JNZ  tl

next:
	LEAQ (DI)(R8*4), DI
	ADDQ $32, SI
	DECQ DX
	JNZ  col

done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func transposeF64x8(dst, src unsafe.Pointer, rows, groups, ldd, lds int)
KERN88(·transposeF64x8, VMOVUPD, NOPF, NOFENCE, 48)

// func transposeF64x8PF(dst, src unsafe.Pointer, rows, groups, ldd, lds, pf int)
// Ordinary stores; prefetches each dst column pf bytes past the rows it
// writes (the panel engine's next panel).
KERN88(·transposeF64x8PF, VMOVUPD, DSTPF, NOFENCE, 56)

// func transposeF64x8NT(dst, src unsafe.Pointer, rows, groups, ldd, lds, pf int)
// Non-temporal stores (VMOVNTPD): dst and ldd must be multiples of 32 bytes
// (64 for full-line writes); ends with SFENCE.
KERN88(·transposeF64x8NT, VMOVNTPD, DOPF, DOFENCE, 56)
