//go:build lapis_mkl

package main

/*
#cgo CFLAGS: -O2 -I/usr/include/mkl
#cgo LDFLAGS: -lmkl_rt
#include "anchor.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

func init() { mkl = mklAnchors{} }

// mklAnchors runs anchor.c's timings. The calling goroutine is locked to
// its OS thread for each, so that mkl_set_num_threads_local(1) holds.
type mklAnchors struct{}

func (mklAnchors) format() string {
	return fmt.Sprintf("%d doubles a group", int(C.anchor_format()))
}

var ops = map[string]C.int{"solve": C.ANCHOR_SOLVE, "cholesky": C.ANCHOR_CHOLESKY, "inv": C.ANCHOR_INV, "det": C.ANCHOR_DET}

func (mklAnchors) tiny(op string, n, count int, packed bool, a0, b0, x, xd []float64, reps int) ([]float64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	times := make([]float64, reps)
	p := 0
	if packed {
		p = 1
	}
	info := C.anchor_tiny(ops[op], C.int(n), C.int(count), C.int(p), ptr(a0), ptr(b0), ptr(x), ptr(xd), C.int(reps), ptr(times))
	if info != 0 {
		return nil, fmt.Errorf("MKL compact %s n=%d: info %d", op, n, info)
	}
	return times, nil
}

func (mklAnchors) gemm(n, count int, strided bool, a, b, c []float64, reps int) []float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	times := make([]float64, reps)
	s := 0
	if strided {
		s = 1
	}
	C.anchor_gemm(C.int(n), C.int(count), C.int(s), ptr(a), ptr(b), ptr(c), C.int(reps), ptr(times))
	return times
}

func ptr(s []float64) *C.double { return (*C.double)(unsafe.Pointer(unsafe.SliceData(s))) }
