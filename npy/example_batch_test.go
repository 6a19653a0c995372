//go:build cgo

package npy_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/npy"
	"github.com/lapis-go/lapis/views"
)

// numpy's a (B, n, n) and b (B, n, 1), saved with np.save, solved as
// lapis batches: the permuted views go to batch.Solve as they are, with
// no reordering copy. (This example needs cgo, as package batch does;
// package npy does not.)
func Example_batchSolve() {
	const B, n = 2, 2
	dir, _ := os.MkdirTemp("", "npy")
	defer os.RemoveAll(dir)
	pa, pb := filepath.Join(dir, "a.npy"), filepath.Join(dir, "b.npy")
	// The files np.save writes for a = [[[2, 0], [0, 4]], [[1, 1], [0, 1]]]
	// and b = [[[2], [8]], [[3], [1]]]: C order.
	la, _ := layout.RowMajor(B, n, n)
	lb, _ := layout.RowMajor(B, n, 1)
	sa, _ := views.FromSlice([]float64{2, 0, 0, 4, 1, 1, 0, 1}, la)
	sb, _ := views.FromSlice([]float64{2, 8, 3, 1}, lb)
	npy.WriteFile(pa, sa)
	npy.WriteFile(pb, sb)

	a, err := npy.ReadFile[float64](pa) // a.At(b, i, j) == numpy's a[b, i, j]
	if err != nil {
		fmt.Println(err)
		return
	}
	rhs, _ := npy.ReadFile[float64](pb)
	m, _ := a.Permute(1, 2, 0)   // [n, n, B]: m.At(i, j, b) == numpy's a[b, i, j]
	r, _ := rhs.Permute(1, 2, 0) // [n, 1, B]
	// Strict refuses any operand copy: the row-major matrices go to the
	// solver through their storage. (Solve keeps a and b, so it factors a
	// copy of a, as it does for any input.)
	x, err := batch.Solve(m, r, lapis.Strict(true))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(x.Shape(), x.At(0, 0, 0), x.At(1, 0, 0), x.At(0, 0, 1), x.At(1, 0, 1))
	// Output:
	// [2 1 2] 1 2 2 1
}
