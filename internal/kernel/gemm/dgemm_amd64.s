//go:build amd64 && !purego

#include "textflag.h"

// func dgemmNN(m, n, k int, alpha float64, a *float64, lda int, b *float64, bp, bj int, beta float64, c *float64, ldc int)
//
// c = alpha*a*b + beta*c, m, n, k >= 1, column-major a (m x k) and c (m x n);
// op(b)'s element (p, j) at b + p*bp + j*bj. lda, ldc, bp, bj in bytes.
//
// Tiles of c: 8 rows (two YMM) by 4 columns, accumulated over k in Y0-Y7
// with one broadcast of b per column (Y10); a column tail of 1-3 columns
// one column at a time; a row tail of 1-7 rows with the same code on
// masked loads and stores (masks Y11, Y12), which neither read nor write
// outside the matrices. Y13 = alpha, Y14 = beta. c is read only when beta
// is not zero.
//
// Registers: SI a's current 8-row panel; BX b's current 4 columns; DI c's
// current tile; AX, DX a and b inside the k loop (then c's columns 1, 2);
// CX the k count (then c's column 3); R8 lda; R9 bp; R10 bj; R11 3*bj;
// R12 ldc; R13 columns left. Locals: 0(SP) rows left, 8(SP) beta's bits
// shifted left by one (zero iff beta is +0 or -0), 16(SP) c's current row
// panel. R14, R15, BP and X15 are not touched.

// The k loop bodies: 8 rows of a (Y8, Y9) against 4 columns or 1 column
// of b.
#define LOADA \
	VMOVUPD (AX), Y8    \
	VMOVUPD 32(AX), Y9

#define LOADA_MASK \
	VMASKMOVPD (AX), Y11, Y8    \
	VMASKMOVPD 32(AX), Y12, Y9

#define FMA4 \
	VBROADCASTSD (DX), Y10        \
	VFMADD231PD  Y8, Y10, Y0      \
	VFMADD231PD  Y9, Y10, Y1      \
	VBROADCASTSD (DX)(R10*1), Y10 \
	VFMADD231PD  Y8, Y10, Y2      \
	VFMADD231PD  Y9, Y10, Y3      \
	VBROADCASTSD (DX)(R10*2), Y10 \
	VFMADD231PD  Y8, Y10, Y4      \
	VFMADD231PD  Y9, Y10, Y5      \
	VBROADCASTSD (DX)(R11*1), Y10 \
	VFMADD231PD  Y8, Y10, Y6      \
	VFMADD231PD  Y9, Y10, Y7

#define FMA1 \
	VBROADCASTSD (DX), Y10   \
	VFMADD231PD  Y8, Y10, Y0 \
	VFMADD231PD  Y9, Y10, Y1

#define NEXTK \
	ADDQ R8, AX \
	ADDQ R9, DX \
	DECQ CX

// Stores of one column of a tile (accumulators A0, A1) at P: with beta
// (B) or without (Z), full or masked (M).
#define STB(A0, A1, P) \
	VMULPD      Y13, A0, A0   \
	VMULPD      Y13, A1, A1   \
	VFMADD231PD (P), Y14, A0  \
	VFMADD231PD 32(P), Y14, A1 \
	VMOVUPD     A0, (P)       \
	VMOVUPD     A1, 32(P)

#define STZ(A0, A1, P) \
	VMULPD  Y13, A0, A0 \
	VMULPD  Y13, A1, A1 \
	VMOVUPD A0, (P)     \
	VMOVUPD A1, 32(P)

#define STBM(A0, A1, P) \
	VMULPD      Y13, A0, A0       \
	VMULPD      Y13, A1, A1       \
	VMASKMOVPD  (P), Y11, Y8      \
	VMASKMOVPD  32(P), Y12, Y9    \
	VFMADD231PD Y8, Y14, A0       \
	VFMADD231PD Y9, Y14, A1       \
	VMASKMOVPD  A0, Y11, (P)      \
	VMASKMOVPD  A1, Y12, 32(P)

#define STZM(A0, A1, P) \
	VMULPD     Y13, A0, A0  \
	VMULPD     Y13, A1, A1  \
	VMASKMOVPD A0, Y11, (P) \
	VMASKMOVPD A1, Y12, 32(P)

#define ZERO4 \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y1, Y1, Y1 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
	VXORPD Y4, Y4, Y4 \
	VXORPD Y5, Y5, Y5 \
	VXORPD Y6, Y6, Y6 \
	VXORPD Y7, Y7, Y7

// Start of a tile: a's panel, b's columns, k.
#define TILE \
	MOVQ SI, AX       \
	MOVQ BX, DX       \
	MOVQ k+16(FP), CX

// c's columns 1, 2, 3 of the tile at DI into AX, DX, CX.
#define CCOLS \
	LEAQ (DI)(R12*1), AX \
	LEAQ (DI)(R12*2), DX \
	LEAQ (AX)(R12*2), CX

TEXT ·dgemmNN(SB), NOSPLIT, $24-96
	MOVQ         a+32(FP), SI
	MOVQ         lda+40(FP), R8
	MOVQ         bp+56(FP), R9
	MOVQ         bj+64(FP), R10
	LEAQ         (R10)(R10*2), R11
	MOVQ         ldc+88(FP), R12
	VBROADCASTSD alpha+24(FP), Y13
	VBROADCASTSD beta+72(FP), Y14
	MOVQ         beta+72(FP), AX
	SHLQ         $1, AX
	MOVQ         AX, 8(SP)
	MOVQ         c+80(FP), DI
	MOVQ         DI, 16(SP)
	MOVQ         m+0(FP), AX
	MOVQ         AX, 0(SP)

rows:
	MOVQ 0(SP), AX
	CMPQ AX, $8
	JLT  rowtail
	MOVQ 16(SP), DI
	MOVQ b+48(FP), BX
	MOVQ n+8(FP), R13

cols4:
	CMPQ R13, $4
	JLT  cols1
	TILE
	ZERO4

k4:
	LOADA
	FMA4
	NEXTK
	JNZ  k4
	CCOLS
	CMPQ 8(SP), $0
	JEQ  z4
	STB(Y0, Y1, DI)
	STB(Y2, Y3, AX)
	STB(Y4, Y5, DX)
	STB(Y6, Y7, CX)
	JMP  next4

z4:
	STZ(Y0, Y1, DI)
	STZ(Y2, Y3, AX)
	STZ(Y4, Y5, DX)
	STZ(Y6, Y7, CX)

next4:
	LEAQ (DI)(R12*4), DI
	LEAQ (BX)(R10*4), BX
	SUBQ $4, R13
	JMP  cols4

cols1:
	TESTQ R13, R13
	JEQ   rowdone
	TILE
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1

k1:
	LOADA
	FMA1
	NEXTK
	JNZ  k1
	CMPQ 8(SP), $0
	JEQ  z1
	STB(Y0, Y1, DI)
	JMP  next1

z1:
	STZ(Y0, Y1, DI)

next1:
	ADDQ R12, DI
	ADDQ R10, BX
	DECQ R13
	JMP  cols1

rowdone:
	ADDQ $64, 16(SP)
	ADDQ $64, SI
	SUBQ $8, 0(SP)
	JMP  rows

rowtail:
	// AX = rows left, 0..7. Masks: element e of Y11:Y12 is all ones iff
	// e < AX, from masks<> read at 8-AX.
	TESTQ   AX, AX
	JEQ     done
	NEGQ    AX
	ADDQ    $8, AX
	LEAQ    masks<>(SB), CX
	VMOVDQU (CX)(AX*8), Y11
	VMOVDQU 32(CX)(AX*8), Y12
	MOVQ    16(SP), DI
	MOVQ    b+48(FP), BX
	MOVQ    n+8(FP), R13

mcols4:
	CMPQ R13, $4
	JLT  mcols1
	TILE
	ZERO4

mk4:
	LOADA_MASK
	FMA4
	NEXTK
	JNZ  mk4
	CCOLS
	CMPQ 8(SP), $0
	JEQ  mz4
	STBM(Y0, Y1, DI)
	STBM(Y2, Y3, AX)
	STBM(Y4, Y5, DX)
	STBM(Y6, Y7, CX)
	JMP  mnext4

mz4:
	STZM(Y0, Y1, DI)
	STZM(Y2, Y3, AX)
	STZM(Y4, Y5, DX)
	STZM(Y6, Y7, CX)

mnext4:
	LEAQ (DI)(R12*4), DI
	LEAQ (BX)(R10*4), BX
	SUBQ $4, R13
	JMP  mcols4

mcols1:
	TESTQ R13, R13
	JEQ   done
	TILE
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1

mk1:
	LOADA_MASK
	FMA1
	NEXTK
	JNZ  mk1
	CMPQ 8(SP), $0
	JEQ  mz1
	STBM(Y0, Y1, DI)
	JMP  mnext1

mz1:
	STZM(Y0, Y1, DI)

mnext1:
	ADDQ R12, DI
	ADDQ R10, BX
	DECQ R13
	JMP  mcols1

done:
	VZEROUPPER
	RET

// masks<>: 8 all-ones quadwords then 8 zero ones.
DATA masks<>+0(SB)/8, $-1
DATA masks<>+8(SB)/8, $-1
DATA masks<>+16(SB)/8, $-1
DATA masks<>+24(SB)/8, $-1
DATA masks<>+32(SB)/8, $-1
DATA masks<>+40(SB)/8, $-1
DATA masks<>+48(SB)/8, $-1
DATA masks<>+56(SB)/8, $-1
DATA masks<>+64(SB)/8, $0
DATA masks<>+72(SB)/8, $0
DATA masks<>+80(SB)/8, $0
DATA masks<>+88(SB)/8, $0
DATA masks<>+96(SB)/8, $0
DATA masks<>+104(SB)/8, $0
DATA masks<>+112(SB)/8, $0
DATA masks<>+120(SB)/8, $0
GLOBL masks<>(SB), RODATA|NOPTR, $128
