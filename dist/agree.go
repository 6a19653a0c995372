package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"errors"
	"strings"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
)

// Argument checks agreed on by every rank. An entry point that
// communicates first checks its arguments on each rank (the local ones,
// such as Wrap's piece or Syevd's w, can be wrong on one rank only), then
// every rank takes part in one MPI_Allreduce before anything else is
// sent:
//
//	rank 0: check -> ok           \
//	rank 1: check -> "w: length 7" > allreduce max of (bad, h, -h) -> all return
//	rank 2: check -> ok           /        an error, or all go on
//
// bad is Size - rank on a rank whose check failed (0 elsewhere), so its
// maximum names the lowest such rank; h is a hash of the entry point and
// its global arguments (shapes, block sizes, grid, uplo, op), so that
// ranks that called different entry points, or one with different global
// arguments, find out instead of meeting in mismatched collectives. Only
// on failure does the lowest failing rank broadcast its error (sentinel,
// argument, rule), and every other rank returns an error with the same
// sentinel and argument whose rule starts "on rank R:". Success costs the
// hand-off to the MPI thread and one allreduce of three integers.

// agreeErrs are the sentinels a rank's refusal can match, in the order of
// their index in the broadcast (0: none of these; ErrShape stands in).
var agreeErrs = []error{layout.ErrShape, layout.ErrOverflow, layout.ErrOverlap, layout.ErrBounds,
	lapis.ErrInvalid, lapis.ErrCopyRefused, lapis.ErrReleased, ErrState, ErrMPI}

// msgLen bounds a broadcast error (longer rules are cut).
const msgLen = 512

// agree returns err on the rank it comes from and, when any rank's err is
// not nil or the ranks' keys differ, an error on every other rank; nil
// everywhere when all ranks passed and agree on key. Every rank of the
// job must call it, with the same op, in the same order. Before Init and
// after Finalize it returns ErrState without communicating.
func agree(op string, err error, key []int) error {
	if e := live(op); e != nil {
		return e
	}
	h := keyHash(op, key)
	var v [3]C.longlong
	if err != nil {
		v[0] = C.longlong(world.size - world.rank)
	}
	v[1], v[2] = C.longlong(h), -C.longlong(h)
	var rc C.int
	var msg [msgLen]C.char
	do(func() {
		if rc = C.lapis_mpi_allreduce_max_long(&v[0], 3); rc != C.MPI_SUCCESS || v[0] == 0 {
			return
		}
		root := world.size - int(v[0])
		if root == world.rank {
			encode(&msg, err)
		}
		rc = C.lapis_mpi_bcast(&msg[0], msgLen, C.int(root))
	})
	switch {
	case rc != C.MPI_SUCCESS:
		return layout.Errorf(ErrMPI, op, "", "agreeing on the arguments: MPI returned %d", int(rc))
	case err != nil:
		return err
	case v[0] != 0:
		s, arg, rule := decode(&msg)
		return layout.Errorf(s, op, arg, "on rank %d: %s", world.size-int(v[0]), rule)
	case v[1] != -v[2]:
		return layout.Errorf(lapis.ErrInvalid, op, "arguments", "the ranks called it with different global arguments (shapes, block sizes, grid, uplo or op), or are in different collective calls: every rank must make the same calls in the same order")
	}
	return nil
}

// keyHash is FNV-1a over op and key, cut to 62 bits (so that -h fits).
func keyHash(op string, key []int) int64 {
	h := uint64(14695981039346656037)
	mix := func(b byte) { h = (h ^ uint64(b)) * 1099511628211 }
	for i := 0; i < len(op); i++ {
		mix(op[i])
	}
	for _, k := range key {
		for s := 0; s < 64; s += 8 {
			mix(byte(uint64(k) >> s))
		}
	}
	return int64(h >> 2)
}

// encode writes err as "sentinel index, NUL, argument, NUL, rule, NUL".
func encode(msg *[msgLen]C.char, err error) {
	idx, arg, rule := 0, "", err.Error()
	for i, s := range agreeErrs {
		if errors.Is(err, s) {
			idx = i
			break
		}
	}
	var le *layout.Error
	if errors.As(err, &le) {
		arg, rule = le.Arg, le.Rule
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&msg[0])), msgLen)
	s := string(rune('0'+idx)) + "\x00" + arg + "\x00" + rule
	copy(b[:msgLen-1], s)
}

// decode reads what encode wrote.
func decode(msg *[msgLen]C.char) (error, string, string) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(&msg[0])), msgLen)
	parts := strings.SplitN(strings.TrimRight(string(b), "\x00"), "\x00", 3)
	for len(parts) < 3 {
		parts = append(parts, "")
	}
	s := layout.ErrShape
	if len(parts[0]) == 1 && parts[0][0] >= '0' && int(parts[0][0]-'0') < len(agreeErrs) {
		s = agreeErrs[parts[0][0]-'0']
	}
	return s, parts[1], parts[2]
}

// keys lists the global facts of ms that every rank must agree on: the
// element type, each matrix's shape, block sizes and grid (a nil matrix
// gives -1s).
func keys[T Scalar](ms ...*Matrix[T]) []int {
	k := make([]int, 1, 6*len(ms)+3)
	k[0] = scalar.Index[T]()
	for _, a := range ms {
		if a == nil {
			k = append(k, -1, -1, -1, -1, -1, -1)
			continue
		}
		p, q := -1, -1
		if a.g != nil {
			p, q = a.g.p, a.g.q
		}
		k = append(k, a.m, a.n, a.mb, a.nb, p, q)
	}
	return k
}
