package dist

import (
	"fmt"

	"github.com/lapis-go/lapis/lapack"
)

// Error is ScaLAPACK's info, kept: the routine, its value, and the global
// position it points at. It matches lapack's sentinels with errors.Is:
// lapack.ErrSingular (p?gesv: a zero pivot), lapack.ErrNotPositiveDefinite
// (p?potrf), lapack.ErrNoConvergence (pdsyevd/pzheevd, p?gesvd),
// lapack.ErrRankDeficient and ErrSingular (Gels: a triangular factor with
// an exactly zero diagonal element or a tiny condition number),
// lapack.ErrArgument
// (info < 0: lapis checks arguments first, so this is a bug to report),
// lapis.ErrNotFinite (a NaN or an infinity in an operand, or a NaN
// result: see the package documentation's "NaN and Inf").
// Every rank of the job returns the same Error: info is agreed on with one
// MPI_Allreduce after the routine, so no rank goes on alone. Its text
// starts with Op, as every lapis error's does: "dist.Gesv: pdgesv:
// matrix is singular: ...".
type Error struct {
	Op      string // the function called, e.g. "dist.Gesv"
	Routine string // the ScaLAPACK routine, e.g. "pdgesv", "pzheevd"
	Info    int    // ScaLAPACK's info (the largest over the ranks)
	// Index is the 0-based global position info > 0 points at (Info-1):
	// the row and column of the zero pivot U(Index, Index) or of Gels's
	// zero diagonal element, or the order minus one of the leading minor
	// that is not positive definite; -1 when info does not point at one.
	Index int
	// Rcond is the estimated reciprocal condition number of Gels's
	// triangular factor when it is numerically rank deficient (Info 0,
	// Index -1 there).
	Rcond float64
	// Arg names the operand holding a NaN or an infinity ("a", "b"), or
	// "result", in an error matching lapis.ErrNotFinite; empty otherwise.
	Arg    string
	kind   error
	detail string
}

func (e *Error) Error() string {
	op := e.Op
	if op == "" {
		op = "dist" // not made by an entry point: none returns it so
	}
	s := fmt.Sprintf("%s: %s: %v", op, e.Routine, e.kind)
	switch {
	case e.detail != "":
		return s + ": " + e.detail
	case e.kind == lapack.ErrSingular:
		return fmt.Sprintf("%s: U(%d, %d) is exactly zero (global, 0-based)", s, e.Index, e.Index)
	case e.kind == lapack.ErrNotPositiveDefinite:
		return fmt.Sprintf("%s: its leading minor of order %d is not positive definite", s, e.Info)
	}
	return fmt.Sprintf("%s (info %d)", s, e.Info)
}

// Is makes a rank-deficiency error match lapack.ErrSingular too, as
// lapack's do.
func (e *Error) Is(target error) bool {
	return target == lapack.ErrSingular && e.kind == lapack.ErrRankDeficient
}

// Unwrap returns the lapack sentinel e matches.
func (e *Error) Unwrap() error { return e.kind }

// infoErr turns the agreed info of routine, run by the function op,
// into an error; fail is what info > 0 means (nil when the routine
// documents no info > 0).
func infoErr(op, routine string, info int, fail error) error {
	if info == 0 {
		return nil
	}
	e := &Error{Op: op, Routine: routine, Info: info, Index: -1, kind: fail}
	switch {
	case info < 0:
		e.kind = lapack.ErrArgument
		e.detail = fmt.Sprintf("argument %d rejected (info %d); ScaLAPACK printed which", -info%100, info)
		if -info > 100 {
			e.detail = fmt.Sprintf("entry %d of argument %d rejected (info %d)", -info%100, -info/100, info)
		}
	case fail == nil:
		e.kind = lapack.ErrArgument
	case fail == lapack.ErrSingular || fail == lapack.ErrNotPositiveDefinite:
		e.Index = info - 1
	}
	return e
}
