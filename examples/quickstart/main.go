// Command quickstart shows lapis's layout model on a small batch: owned
// column-major storage, metadata-only views, the BLAS description of each
// view, where a copy is (and is not) needed, and one product on OpenBLAS.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run() error {
	// Two 2 x 3 matrices given row by row, as Go code usually holds them.
	rows := []float64{
		1, 2, 3, 4, 5, 6, // matrix 0: [[1 2 3] [4 5 6]]
		7, 8, 9, 10, 11, 12, // matrix 1
	}
	// Row-major [B, M, N] is, read column-major, the reversed shape
	// [N, M, B]; permuting to [M, N, B] is metadata only.
	raw, err := views.FromColMajor(rows, 3, 2, 2)
	if err != nil {
		return err
	}
	batch, err := raw.View().Permute(1, 0, 2)
	if err != nil {
		return err
	}
	// One copy makes the owned, compact column-major batch [M, N, B].
	t := batch.ToColMajor()
	fmt.Println("owned batch [2 3 2]:", t.Layout())
	fmt.Println("  memory:", t.Data())

	show := func(name string, v views.View[float64]) {
		m, ok := v.Layout().Matrix()
		blas := "needs a copy for BLAS"
		if ok {
			trans := "N"
			if m.Trans {
				trans = "T"
			}
			blas = fmt.Sprintf("BLAS %s, ld %d, offset %d", trans, m.LD, v.Layout().Offset())
		}
		fmt.Printf("%-22s %-40s %-16v %s\n", name, v.Layout(), v.Layout().Class(), blas)
	}
	fmt.Println("\nviews (no data moved):")
	m1, _ := t.View().Index(2, 1)
	show("matrix 1", m1)
	mt := m1.T()
	show("matrix 1 transposed", mt)
	col, _ := m1.Slice(1, 1, 3, 1)
	show("matrix 1 columns 1..2", col)
	rev, _ := m1.Reverse(1)
	show("matrix 1 reversed", rev)
	show("the input rows", must(raw.View().Index(2, 0)).T())

	s, err := m1.AsSlice()
	if err != nil {
		return err
	}
	fmt.Println("\nmatrix 1 borrowed as a slice, no copy:", s)

	_, err = mt.Reshape(6)
	fmt.Println("flattening a transposed view:", err)
	if !errors.Is(err, layout.ErrReshape) {
		return fmt.Errorf("expected ErrReshape, got %v", err)
	}
	flat, err := mt.ToColMajor().View().Reshape(6)
	if err != nil {
		return err
	}
	fmt.Println("after one copy:", flat.Layout(), must(flat.AsSlice()))

	// BLAS on views: matrix 1 times its own transpose, no copy (the
	// transpose goes to OpenBLAS as "T").
	c, err := views.Zeros[float64](2, 2)
	if err != nil {
		return err
	}
	before := lapis.ReadStats()
	if err := cblas.Gemm(1, m1, mt, 0, c.View(), lapis.ForceC()); err != nil {
		return err
	}
	d := lapis.ReadStats()
	fmt.Printf("\nM1 * M1^T = [[%g %g] [%g %g]] (%d call into OpenBLAS, %d copies)\n",
		c.At(0, 0), c.At(0, 1), c.At(1, 0), c.At(1, 1), d.Calls-before.Calls, d.Copies-before.Copies)

	// LAPACK on views: solve (M1 M1^T) x = [1 2] through its row-major
	// view, the transposed storage goes to dgetrs as "T", and factor it.
	ct := c.View().T()
	rhs, _ := views.FromColMajor([]float64{1, 2}, 2)
	before = lapis.ReadStats()
	x, err := lapack.Solve(ct, rhs.View())
	if err != nil {
		return err
	}
	l, err := lapack.Cholesky(c.View())
	if err != nil {
		return err
	}
	d = lapis.ReadStats()
	fmt.Printf("solve: x = %.4f (%d LAPACK calls, %d copies); Cholesky L = [[%.4f 0] [%.4f %.4f]]\n",
		x.Data(), d.Lapack-before.Lapack, d.Copies-before.Copies, l.At(0, 0), l.At(1, 0), l.At(1, 1))
	info := lapis.Info()
	fmt.Printf("%s, core %s, %d-bit integers\n", info.Config, info.Core, info.IntBits)
	return nil
}

func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}
