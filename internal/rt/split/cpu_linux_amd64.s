//go:build !purego

#include "textflag.h"

// func lslCPU() (limit uint32, ok bool)
TEXT ·lslCPU(SB), NOSPLIT, $0-5
	MOVL $0x7b, AX
	LSLL AX, BX
	SETEQ ok+4(FP)
	MOVL BX, limit+0(FP)
	RET
