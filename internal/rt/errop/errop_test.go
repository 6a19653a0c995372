package errop

import (
	"errors"
	"io"
	"testing"

	"github.com/lapis-go/lapis/layout"
)

func TestRename(t *testing.T) {
	a := layout.Errorf(layout.ErrShape, "cblas.Gemm", "b", "3 rows, want a's 2 columns")
	b := layout.Errorf(layout.ErrOverflow, "internal/strided.Gemm", "m", "too big")
	for _, tc := range []struct {
		in   error
		want string
	}{
		{nil, ""},
		{a, "cblas.Mul: b: 3 rows, want a's 2 columns (bad shape)"},
		{errors.Join(a, errors.Join(b, io.EOF)), "cblas.Mul: b: 3 rows, want a's 2 columns (bad shape)\ncblas.Mul: m: too big (integer overflow)\nEOF"},
		{io.EOF, "EOF"},
	} {
		got := Rename(tc.in, "cblas.Mul")
		if (got == nil) != (tc.in == nil) || got != nil && got.Error() != tc.want {
			t.Errorf("Rename(%v) = %v, want %q", tc.in, got, tc.want)
		}
		if tc.in != nil && !errors.Is(got, errors.Unwrap(a)) && tc.in != io.EOF {
			t.Errorf("Rename(%v) lost the sentinel", tc.in)
		}
	}
	if a.(*layout.Error).Op != "cblas.Gemm" {
		t.Error("Rename changed its argument")
	}
}

// named stands for an error type of a package above (lapack.Error,
// batch.Error) that names the operation and renames through WithOp.
type named struct{ op string }

func (n *named) Error() string          { return n.op + ": failed" }
func (n *named) WithOp(op string) error { return &named{op} }
func (n *named) Unwrap() []error        { return []error{io.EOF} }

func TestRenameWithOp(t *testing.T) {
	in := &named{"lapack.Getrf"}
	got := Rename(errors.Join(in, io.EOF), "lapack.Solve")
	if got.Error() != "lapack.Solve: failed\nEOF" {
		t.Errorf("Rename(join) = %q", got)
	}
	var n *named
	if !errors.As(Rename(in, "lapack.Solve"), &n) || n.op != "lapack.Solve" || in.op != "lapack.Getrf" {
		t.Errorf("Rename of a WithOp error: %v (kept as the type, not its Unwrap: %v); argument %v", n, n != nil, in.op)
	}
}
