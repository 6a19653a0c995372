package layout

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned by this package (and by views, which
// reuses them) wraps exactly one of these, so callers can test with errors.Is.
var (
	// ErrShape: a negative extent, a rank out of range, or a length that does
	// not match a shape.
	ErrShape = errors.New("bad shape")
	// ErrAxis: an axis out of range, or a list of axes that is not a
	// permutation.
	ErrAxis = errors.New("bad axis")
	// ErrBounds: a slice or index outside its axis, or a view that reaches
	// outside its buffer.
	ErrBounds = errors.New("out of bounds")
	// ErrOverflow: an extent, stride, length or offset computation that does
	// not fit in an int.
	ErrOverflow = errors.New("integer overflow")
	// ErrReshape: the requested shape cannot be expressed with strides over
	// the same memory; copy first (views' ToColMajor) and reshape the copy.
	ErrReshape = errors.New("reshape needs a copy")
	// ErrOverlap: a write through a view in which two indices share an
	// element (a broadcast view, say), or an output that overlaps an input.
	ErrOverlap = errors.New("overlapping memory")
)

// Error is the error type of this package: the operation, the argument and
// the rule it broke, and the sentinel it matches with errors.Is.
type Error struct {
	Op   string // the operation, e.g. "layout.Slice"
	Arg  string // the argument, e.g. "stop"; empty when no one argument is at fault
	Rule string // what was wrong, in words
	Err  error  // one of the sentinels above
}

// Error is "op: arg: rule (sentinel)", the format of every lapis error:
// the function called first. An error about no one argument (Arg empty:
// dist's MPI state) is "op: rule (sentinel)".
func (e *Error) Error() string {
	if e.Arg == "" {
		return e.Op + ": " + e.Rule + " (" + e.Err.Error() + ")"
	}
	return e.Op + ": " + e.Arg + ": " + e.Rule + " (" + e.Err.Error() + ")"
}

// Unwrap returns the sentinel, so errors.Is(err, ErrBounds) works.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error. It is exported for the sibling packages (views,
// cblas, lapack) so that their errors read and match the same way.
func Errorf(sentinel error, op, arg, format string, a ...any) error {
	return &Error{Op: op, Arg: arg, Rule: fmt.Sprintf(format, a...), Err: sentinel}
}
