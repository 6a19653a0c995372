// Package policy holds the counters of C calls and operand copies that
// every lapis package adds to and lapis.ReadStats reads, and the error a
// refused copy matches (lapis.ErrCopyRefused is this value).
package policy

import (
	"errors"
	"sync/atomic"
)

// ErrCopyRefused is matched by the error a call returns in strict mode
// when an operand would need a copy.
var ErrCopyRefused = errors.New("operand needs a copy")

// Counters, read by lapis.ReadStats.
var (
	Calls  atomic.Int64 // calls into BLAS
	Lapack atomic.Int64 // calls into LAPACK
	Copies atomic.Int64 // operands copied (in, or in and out)
	Small  atomic.Int64 // BLAS calls served by the pure-Go path
)
