package lapack

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// Sentinels matched (errors.Is) by the *Error a routine returns when
// LAPACK's info is not zero.
var (
	// ErrSingular: a zero pivot (getrf, gesv, getri, sysv/hesv), a zero
	// diagonal element of a triangular matrix (trtrs, potri) or a
	// rank-deficient matrix (gels). Error.Index is the 0-based position.
	ErrSingular = errors.New("matrix is singular")
	// ErrNotPositiveDefinite: the leading minor of order Error.Index+1 is
	// not positive definite (potrf, posv).
	ErrNotPositiveDefinite = errors.New("matrix is not positive definite")
	// ErrNoConvergence: an iterative algorithm (SVD, eigenvalues) did not
	// converge; Error.Info is LAPACK's count of what did not.
	ErrNoConvergence = errors.New("algorithm did not converge")
	// ErrRankDeficient: a least-squares solve that assumes full rank
	// (Gels, LeastSquares) met a matrix that is rank deficient: exactly
	// (gels's zero diagonal of R, Info > 0) or numerically (Info 0); the
	// result was still written (for LeastSquares, the minimum-norm
	// solution) and Error.Rcond (and Error.Rank where it is known) say how
	// deficient. NoConditionCheck turns the numerical check off. It also
	// matches ErrSingular.
	ErrRankDeficient = errors.New("matrix is rank deficient")
	// ErrIllConditioned: Solve or Inv (lapack and batch) met a matrix
	// whose reciprocal condition number (Error.Rcond, one norm, after the
	// factorisation: computed exactly up to order 16 and for Inv, else
	// estimated as gecon does; Error.Routine says which) is below machine
	// epsilon: the result was still written but may have no correct
	// digits.
	// NoConditionCheck turns the check off. It also matches ErrSingular
	// (singular to working precision).
	ErrIllConditioned = errors.New("matrix is ill-conditioned")
	// ErrArgument: LAPACK rejected an argument (info < 0). lapis checks
	// arguments before calling, so this is a bug in lapis: please report it.
	ErrArgument = errors.New("LAPACK rejected an argument")
)

// Error is LAPACK's info, kept: the function called, the routine that
// returned it, its value, and what it means. It matches one of the
// sentinels above with errors.Is. Its text starts with Op, as every lapis
// error's does: "lapack.Solve: dgetrf: matrix is singular: ...".
type Error struct {
	// Op is the function the caller called, e.g. "lapack.Solve" or
	// "batch.Gesv": a helper or a batch call reports the errors of the
	// routines it runs as its own.
	Op string
	// Routine is what returned the error: the Fortran routine, e.g.
	// "dgetrf"; for an ErrIllConditioned error what computed the
	// reciprocal condition number: "exact rcond" when lapis computed it
	// exactly (Solve up to order 16, in Go from the LU factors; Inv,
	// from the inverse), ?gecon for Solve's estimate above order 16
	// (gecon's algorithm, see "Conditioning" in docs/lapack.md); the
	// helper for an error matching lapis.ErrNotFinite (then the text
	// does not repeat it).
	Routine string
	Info    int // LAPACK's info
	// Index is the 0-based position info > 0 points at (Info-1): the zero
	// pivot or diagonal element, or the order minus one of the failing
	// leading minor, in the matrix LAPACK factored: the view as the caller
	// sees it for the helpers (Solve, Inv, Cholesky, ...) and for routines
	// given a column-major view; for a row-major view that a routine takes
	// as its storage (Potrf's swapped triangle, batch.Gesv's and
	// batch.Inv's in-place factorisation of a^T), the position in that
	// transposed factorisation, which is what the memory holds afterwards.
	// -1 for info < 0.
	Index int
	// Arg names the argument LAPACK rejected (info < 0), as LAPACK's
	// documentation names it, or the operand holding a NaN or an infinity
	// (an error matching lapis.ErrNotFinite, whose Routine is the helper:
	// "Solve", "Cholesky", ...).
	Arg string
	// Err is the sentinel the error matches: ErrArgument, ErrSingular,
	// ErrNotPositiveDefinite, ErrNoConvergence, ErrRankDeficient,
	// ErrIllConditioned or lapis.ErrNotFinite (Unwrap returns it).
	Err error
	// Rcond is the estimated reciprocal condition number and Rank the
	// numerical rank (-1 when not known) of an ErrRankDeficient error
	// (Info is 0 and Index -1 there: LAPACK reported nothing).
	Rcond float64
	Rank  int
	// Detail, when set, is the error's explanation (for errors lapis finds
	// rather than LAPACK's info: conditioning, rank, non-finite input).
	Detail string
}

func (e *Error) Error() string {
	head := e.head()
	switch {
	case e.Info < 0:
		return fmt.Sprintf("%s: %v: argument %d (%s)", head, e.Err, -e.Info, e.Arg)
	case errors.Is(e.Err, ErrSingular):
		return fmt.Sprintf("%s: %v: zero pivot or diagonal element at index %d", head, e.Err, e.Index)
	case e.Detail != "":
		return fmt.Sprintf("%s: %v: %s", head, e.Err, e.Detail)
	case errors.Is(e.Err, ErrNotPositiveDefinite):
		return fmt.Sprintf("%s: %v: its leading minor of order %d is not positive definite", head, e.Err, e.Info)
	}
	return fmt.Sprintf("%s: %v (info %d)", head, e.Err, e.Info)
}

// head is the text's start: Op, then Routine unless it is Op's function
// ("lapack.Solve" and "Solve").
func (e *Error) head() string {
	op := e.Op
	if op == "" {
		op = "lapack" // not made by an entry point: none returns it so
	}
	if e.Routine == "" || e.Routine == op || strings.HasSuffix(op, "."+e.Routine) {
		return op
	}
	return op + ": " + e.Routine
}

// WithOp returns a copy of e that names op as the function called: for a
// function that reports the errors of another as its own (batch.Gesv
// those of lapack.Gesv).
func (e *Error) WithOp(op string) error {
	c := *e
	c.Op = op
	return &c
}

// Is makes rank-deficiency and ill-conditioning errors match ErrSingular
// too: such a matrix is singular to working precision.
func (e *Error) Is(target error) bool {
	return target == ErrSingular && (e.Err == ErrRankDeficient || e.Err == ErrIllConditioned)
}

// Unwrap returns the sentinel e matches.
func (e *Error) Unwrap() error { return e.Err }

// infoErr turns the info a dispatcher of family fam returned for element
// type T, called by the function op, into an error (nil for 0).
func infoErr[T Scalar](op, fam string, info int) error {
	if info == 0 {
		return nil
	}
	f := families[fam]
	e := &Error{Op: op, Routine: f.routines[scalar.Index[T]()], Info: info, Index: info - 1, Rank: -1, Err: f.fail}
	if info < 0 {
		e.Index, e.Err = -1, ErrArgument
		if args := f.args[scalar.Index[T]()/2]; -info <= len(args) {
			e.Arg = args[-info-1]
		}
	}
	if e.Err == nil { // LAPACK documents no info > 0 for this routine
		e.Err = ErrArgument
	}
	return e
}

func errorsIsSingular(err error) bool { return errors.Is(err, ErrSingular) }

// The finite-input rule ("NaN and Inf" in the package documentation):
// LAPACK does not define what its routines do with a NaN or an infinity
// (reference LAPACK returns garbage or iterates on; on MKL, dgebal and
// dgelsd reject the argument, and Eig's dgeev then crashed the process),
// so the helpers and the in-place routines that iterate scan what the
// routine will read before calling it (checkFinite: O(n^2) against its
// O(n^3)) and return an error matching lapis.ErrNotFinite that names the
// operand and its first NaN or infinity, with nothing written. Package
// batch applies it per matrix (internal/finite is the scan both use).

// input is an operand a routine reads (finite.Input).
type input[T Scalar] = finite.Input[T]

// checkFinite is the rule: it scans the operands ins, each once
// (finite.First: nothing is copied or allocated), and returns the error
// for the first non-finite element of the first operand that holds one,
// nil when all are finite. Call it after the arguments are checked and
// before the first LAPACK call.
func checkFinite[T Scalar](op string, ins ...input[T]) error {
	if name, detail, bad := finite.First(ins...); bad {
		return notFinite(op, name, detail)
	}
	return nil
}

// notFinite is the rule's error: an *Error, so that batch reports it per
// matrix as it reports LAPACK's, matching lapis.ErrNotFinite.
func notFinite(op, name, detail string) error {
	routine, _ := strings.CutPrefix(op, "lapack.") // a batch call's: none (batch.Error says which call)
	if routine == op {
		routine = ""
	}
	return &Error{Op: op, Routine: routine, Index: -1, Rank: -1, Arg: name, Err: lapis.ErrNotFinite, Detail: name + ": " + detail}
}

// resultNotFinite is the error of a helper whose result came out with a
// NaN from finite input: an overflow inside LAPACK.
func resultNotFinite(op string) error {
	return notFinite(op, "result", finite.Overflow)
}

// helperErr is the error of the helper op whose in-place routine
// returned err, having run on the helper's working copy of ins: for the
// routine's finite-input error (it scans what it reads), the helper's own
// error for ins (the same operand and element, named as the caller
// passed it), found by scanning ins on this failure path only; any other
// error renamed to op.
func helperErr[T Scalar](op string, err error, ins ...input[T]) error {
	if errors.Is(err, lapis.ErrNotFinite) {
		if e := checkFinite(op, ins...); e != nil {
			return e
		}
	}
	return errop.Rename(err, op)
}

// readTriangle is the input of a routine that reads uplo's triangle of a.
func readTriangle[T Scalar](name string, a views.View[T], uplo Uplo) input[T] {
	if uplo == Upper {
		return input[T]{Name: name, V: a, Tri: 'U'}
	}
	return input[T]{Name: name, V: a, Tri: 'L'}
}
