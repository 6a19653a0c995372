package cblas

/*
#include "lapis_cblas.h"
*/
import "C"

import (
	"errors"
	"unsafe"

	"github.com/lapis-go/lapis/internal/policy"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// ErrCopyRefused is matched (errors.Is) by the error a call returns in
// strict mode when an operand would need a copy: a General view (see
// layout.Class), or a conjugated view BLAS cannot take as it is. It is
// the one value every package refusing copies returns (lapack, batch and
// fortran too).
var ErrCopyRefused = policy.ErrCopyRefused

// ErrLibrary is matched by the error every call returns when the linked
// BLAS library cannot be used as compiled (its integer width differs from
// the header's: see Info).
var ErrLibrary = errors.New("unusable BLAS library")

// Stats counts C calls and operand copies since the process started,
// across cblas and lapack (they share one copy policy). Take the
// difference of two readings to see what a piece of code did (calls from
// other goroutines count too).
type Stats struct {
	Calls  int64 // calls into the C library's BLAS
	Lapack int64 // calls into the C library's LAPACK (package lapack)
	Copies int64 // operands copied because BLAS or LAPACK could not address them
	Small  int64 // BLAS calls served by the pure-Go path for small problems
}

// ReadStats returns the current counts.
func ReadStats() Stats {
	return Stats{Calls: policy.Calls.Load(), Lapack: policy.Lapack.Load(), Copies: policy.Copies.Load(), Small: policy.Small.Load()}
}

// SetStrict makes every call of cblas and lapack refuse to copy operands
// (returning an error that matches ErrCopyRefused and names the operand)
// when on is true. It returns the previous setting. The Strict option
// overrides it per call.
func SetStrict(on bool) bool { return policy.SetStrict(on) }

// Option changes one call (of cblas or lapack). Options are values (not
// closures), so that passing them allocates nothing.
type Option = policy.Option

type config = policy.Config

// Strict(true) refuses copies in this call, Strict(false) allows them,
// whatever SetStrict says.
func Strict(on bool) Option { return policy.Strict(on) }

// ForceC sends the call to the C library whatever its size. It exists for
// tests and measurements: by default small problems go to pure Go (see the
// README).
func ForceC() Option { return policy.Path(policy.PathC) }

// ForcePureGo sends the call to the pure-Go path (gonum's implementation;
// for float64 Gemm up to the kernel thresholds, the Go-assembly kernel of
// internal/kernel/gemm when the CPU has AVX2 and FMA) whatever its size; see
// ForceC.
func ForcePureGo() Option { return policy.Path(policy.PathGo) }

func configure(opts []Option) config { return policy.Configure(opts) }

// blasint is the C library's integer. IntBits is its width in bits.
const IntBits = int(unsafe.Sizeof(C.blasint(0))) * 8

// blasInt converts v for C, refusing values that do not fit (never
// truncating). Errors match layout.ErrOverflow and name the argument as
// arg+what (joined only on error, so that the call does not allocate).
func blasInt(op, arg, what string, v int) (C.blasint, error) {
	if libraryIntBits == IntBits && int(C.blasint(v)) == v {
		return C.blasint(v), nil // inlined: the common case costs a compare
	}
	return 0, blasIntErr(op, arg, what, v)
}

// blasIntErr is blasInt's error for v.
func blasIntErr(op, arg, what string, v int) error {
	if libraryIntBits != IntBits {
		return layout.Errorf(ErrLibrary, op, arg+what, "lapis was compiled for %d-bit BLAS integers but the library uses %d-bit ones", IntBits, libraryIntBits)
	}
	return layout.Errorf(layout.ErrOverflow, op, arg+what, "%d does not fit the BLAS library's %d-bit integer", v, IntBits)
}

// elemPtr returns the address of v's element 0, or nil for an empty view.
func elemPtr[T Scalar](v views.View[T]) unsafe.Pointer {
	if v.Len() == 0 {
		return nil
	}
	return unsafe.Pointer(&v.Data()[v.Layout().Offset()])
}

// conj returns the complex conjugate of x (x itself for real types).
func conj[T Scalar](x T) T {
	switch p := any(&x).(type) {
	case *complex64:
		*p = complex(real(*p), -imag(*p))
	case *complex128:
		*p = complex(real(*p), -imag(*p))
	}
	return x
}

// blasInt2 converts two extents with blasInt.
func blasInt2(op, an string, a int, bn string, b int) (A, B C.blasint, err error) {
	if A, err = blasInt(op, an, "", a); err == nil {
		B, err = blasInt(op, bn, "", b)
	}
	return A, B, err
}

func layoutErr(op, arg string, v int) error {
	return layout.Errorf(layout.ErrShape, op, arg, "value %d is not one of the defined constants", v)
}
