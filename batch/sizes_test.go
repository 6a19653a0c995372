package batch

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestSizesBeforeCopies: a broadcast input of huge logical size is an
// ErrOverflow error (beyond the LAPACK integer) or an ErrTooLarge one
// (beyond the allocation bound) before batch allocates or copies anything, on every
// class of entry point: the tiny kernels' and the read-only ones' results
// (Det of one 3x3 matrix broadcast to 2^45 died of a fatal out-of-memory,
// Solve, Inv, Cholesky, CholeskySolve, LeastSquares and Mul panicked in
// make), the per-matrix path with matrices beyond the LAPACK integer
// (Solve allocated a 16 GiB result first: fatal out-of-memory), and a To
// form's working copy (SolveTo copied a 256 TiB broadcast). The heap does
// not grow by the operands' sizes. Written operands cannot be broadcast.
func TestSizesBeforeCopies(t *testing.T) {
	one, _ := views.Full(1.0, 1, 1)
	bc := func(shape ...int) views.View[float64] {
		v, err := one.View().BroadcastTo(shape...)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	second := func(_ any, err error) error { return err }
	third := func(_, _ any, err error) error { return err }
	// Tiny orders, 2^45 matrices: every result is beyond pool.MaxBytes.
	const many = 1 << 45
	a, b := bc(3, 3, many), bc(3, 1, many)
	// The per-matrix path: one matrix of order n, beyond the LAPACK
	// integer (32-bit) or whose copy is beyond pool.MaxBytes (64-bit).
	n := 1<<31 + 5
	if lapack.IntBits == 64 {
		n = 1 << 23
	}
	big, bigB := bc(n, n, 1), bc(n, 1, 1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cases := map[string]error{
		"tiny/Det":              second(Det(a)),
		"tiny/LogDet":           third(LogDet(a)),
		"tiny/Solve":            second(Solve(a, b)),
		"tiny/Inv":              second(Inv(a)),
		"tiny/Cholesky":         second(Cholesky(Lower, a)),
		"tiny/CholeskySolve":    second(CholeskySolve(Upper, a, b)),
		"tiny/LeastSquares":     second(LeastSquares(a, b)),
		"tiny/Mul":              second(Mul(a, b)),
		"perMatrix/Det":         second(Det(big)),
		"perMatrix/LogDet":      third(LogDet(big)),
		"perMatrix/Inv":         second(Inv(big)),
		"perMatrix/Cholesky":    second(Cholesky(Lower, big)),
		"perMatrix/Mul":         second(Mul(bigB, bc(1, n, 1))),
		"perMatrix/LeastSquare": second(LeastSquares(big, bigB)),
	}
	if lapack.IntBits == 32 { // with 64-bit integers these allocate x (64 MiB) first, then lapack refuses the copy
		cases["perMatrix/Solve"] = second(Solve(big, bigB))
		cases["perMatrix/CholeskySolve"] = second(CholeskySolve(Lower, big, bigB))
	}
	runtime.ReadMemStats(&after)
	for name, err := range cases {
		want := lapis.ErrTooLarge
		if strings.HasPrefix(name, "perMatrix/") && lapack.IntBits == 32 && name != "perMatrix/Mul" {
			want = layout.ErrOverflow // n beyond the LAPACK integer, checked first
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("the refused calls allocated %d bytes", grew)
	}
	// A To form: x is real (2^22+1 float64, 32 MiB), a's compact copy
	// would be 2^47+ bytes.
	m := 1<<22 + 1
	x, err := views.Zeros[float64](m, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	runtime.ReadMemStats(&before)
	err = SolveTo(x.View(), bc(m, m, 1), bc(m, 1, 1))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, lapis.ErrTooLarge) {
		t.Errorf("SolveTo with a %d x %d broadcast: %v, want ErrTooLarge", m, m, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("the refused SolveTo allocated %d bytes", grew)
	}
	// Written operands refuse a broadcast before anything.
	if err := Potrf(Lower, a); !errors.Is(err, layout.ErrOverlap) {
		t.Errorf("Potrf of a broadcast: %v, want ErrOverlap", err)
	}
}

// TestBeyondMemory: a result within the 128 TiB bound but beyond the
// machine's memory and swap is ErrTooLarge, not the Go runtime's fatal
// out-of-memory (Inv of a 3x3 matrix broadcast to 2^40 matrices, an 80 TiB
// result, died so).
func TestBeyondMemory(t *testing.T) {
	const many, need = 1 << 40, 9 * 8 << 40
	if pool.MaxBytes >= need || need > 1<<47 {
		t.Skipf("this machine's memory and swap (%d bytes) would hold the result", pool.MaxBytes)
	}
	one, _ := views.Full(1.0, 1, 1)
	a, err := one.View().BroadcastTo(3, 3, many)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Inv(a); !errors.Is(err, lapis.ErrTooLarge) {
		t.Errorf("Inv of %d 3x3 matrices: %v, want ErrTooLarge", many, err)
	}
	if _, err := Det(a); !errors.Is(err, lapis.ErrTooLarge) { // 8 TiB of determinants
		t.Errorf("Det of %d 3x3 matrices: %v, want ErrTooLarge", many, err)
	}
}
