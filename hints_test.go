package lapis_test

import (
	"bytes"
	"encoding/binary"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/npy"
	"github.com/lapis-go/lapis/views"
)

// TestHints: every suggestion an error of the public packages makes ("copy
// first (ToColMajor)", "use Hemv", "b.Reshape(9, 1, 40)", "lapis.
// NoConditionCheck() turns this check off", ...) is a call that works. Each
// case provokes the error, checks that it still says the hint, applies the
// hint literally and checks that the call then succeeds. An error whose
// text gains a suggestion gets a case here. dist's hints need MPI: its
// multi-rank suite tries them (dist/internal/mpitest, hints: Redistribute
// to square blocks and onto a's grid; dist.Init is what every run of it
// calls first).
func TestHints(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		what  string
		err   func() error // provokes the error
		hint  string       // what its text suggests
		apply func() error // the suggestion, applied
	}{
		{
			"layout: a reshape that needs a copy",
			func() error { _, err := rowMajor(3, 2).Reshape(6); return err },
			"copy first (ToColMajor) and reshape the copy",
			func() error { _, err := rowMajor(3, 2).ToColMajor().View().Reshape(6); return err },
		},
		{
			"layout: step 0",
			func() error { _, err := colMajor(3, 2).Slice(0, 1, 3, 0); return err },
			"(BroadcastTo repeats an axis)",
			func() error {
				row, err := colMajor(3, 2).Slice(0, 1, 2, 1)
				if err == nil {
					_, err = row.BroadcastTo(4, 2)
				}
				return err
			},
		},
		{
			"views: AsSlice of a row-major view",
			func() error { _, err := rowMajor(3, 2).AsSlice(); return err },
			"copy first (ToColMajor)",
			func() error { _, err := rowMajor(3, 2).ToColMajor().View().AsSlice(); return err },
		},
		{
			"views: AsSlice of a conjugated view",
			func() error { _, err := complexEye(2).Conj().AsSlice(); return err },
			"copy first (ToColMajor)",
			func() error { _, err := complexEye(2).Conj().ToColMajor().View().AsSlice(); return err },
		},
		{
			"views: the zero View",
			func() error { return views.Copy(colMajor(2, 2), views.View[float64]{}) },
			"make views with FromSlice or Tensor.View",
			func() error {
				v, err := views.FromSlice(make([]float64, 4), must(layout.ColMajor(2, 2)))
				if err == nil {
					err = views.Copy(colMajor(2, 2), v)
				}
				return err
			},
		},
		{
			"cblas: complex Symv",
			func() error {
				return cblas.Symv(cblas.Lower, 1, complexEye(3), complexVec(3), 0, complexVec(3))
			},
			"use Hemv for a Hermitian a, or Gemv on the full matrix",
			func() error {
				if err := cblas.Hemv(cblas.Lower, 1, complexEye(3), complexVec(3), 0, complexVec(3)); err != nil {
					return err
				}
				return cblas.Gemv(1, complexEye(3), complexVec(3), 0, complexVec(3))
			},
		},
		{
			"cblas: complex Syr",
			func() error { return cblas.Syr(cblas.Lower, 1, complexVec(3), complexEye(3)) },
			"use Her for a Hermitian a, or Ger(alpha, x, x, a) on the full matrix",
			func() error {
				if err := cblas.Her(cblas.Lower, 1, complexVec(3), complexEye(3)); err != nil {
					return err
				}
				x := complexVec(3)
				return cblas.Ger(1, x, x, complexEye(3))
			},
		},
		{
			"cblas: complex Syr2",
			func() error { return cblas.Syr2(cblas.Lower, 1, complexVec(3), complexVec(3), complexEye(3)) },
			"use Her2 for a Hermitian a, or Ger(alpha, x, y, a) and Ger(alpha, y, x, a) on the full matrix",
			func() error {
				if err := cblas.Her2(cblas.Lower, 1, complexVec(3), complexVec(3), complexEye(3)); err != nil {
					return err
				}
				x, y, a := complexVec(3), complexVec(3), complexEye(3)
				if err := cblas.Ger(1, x, y, a); err != nil {
					return err
				}
				return cblas.Ger(1, y, x, a)
			},
		},
		{
			"lapack: Solve of an ill-conditioned matrix",
			func() error { _, err := lapack.Solve(hilbert(14), ones(14, 1)); return err },
			"lapis.NoConditionCheck() turns this check off",
			func() error { _, err := lapack.Solve(hilbert(14), ones(14, 1), lapis.NoConditionCheck()); return err },
		},
		{
			"lapack: Inv of an ill-conditioned matrix",
			func() error { _, err := lapack.Inv(hilbert(14)); return err },
			"lapis.NoConditionCheck() turns this check off",
			func() error { _, err := lapack.Inv(hilbert(14), lapis.NoConditionCheck()); return err },
		},
		{
			"lapack: LeastSquares of a rank-deficient matrix",
			func() error { _, err := lapack.LeastSquares(rankOne(4, 3), ones(4, 1)); return err },
			"lapis.NoConditionCheck() accepts it",
			func() error {
				_, err := lapack.LeastSquares(rankOne(4, 3), ones(4, 1), lapis.NoConditionCheck())
				return err
			},
		},
		{
			"lapack: Gels of a rank-deficient matrix",
			func() error { return lapack.Gels(nearRankOne(4, 3), ones(4, 1)) },
			"LeastSquares(a, b, lapis.NoConditionCheck()) gives the minimum-norm solution",
			func() error {
				_, err := lapack.LeastSquares(nearRankOne(4, 3), ones(4, 1), lapis.NoConditionCheck())
				return err
			},
		},
		{
			"lapack: Getrs without Getrf's pivots",
			func() error { return lapack.Getrs(lapack.NoTrans, eye(3), make([]int32, 3), ones(3, 1)) },
			"pass Getrf's pivots",
			func() error {
				lu, ipiv := eye(3), make([]int32, 3)
				if err := lapack.Getrf(lu, ipiv); err != nil {
					return err
				}
				return lapack.Getrs(lapack.NoTrans, lu, ipiv, ones(3, 1))
			},
		},
		{
			"lapack: Ormqr of a complex Q with Trans",
			func() error { return ormqr(lapack.Trans) },
			"only as ConjTrans",
			func() error { return ormqr(lapack.ConjTrans) },
		},
		{
			"lapack: Solve of a batch",
			func() error { _, err := lapack.Solve(eyes(3, 5), ones(3, 1)); return err },
			"use package batch (batch.Solve)",
			func() error { _, err := batch.Solve(eyes(3, 5), ones(3, 1)); return err },
		},
		{
			"lapack: Getrf of a batch",
			func() error { return lapack.Getrf(eyes(3, 5), make([]int32, 15)) },
			"use package batch (batch.Getrf)",
			func() error { return batch.Getrf(eyes(3, 5), make([]int32, 15)) },
		},
		{
			// One b of 9 elements for the batch: the hint is Solve, which reads
			// b and broadcasts it, not a Reshape to [9, 1, 40] (9 elements
			// cannot take that shape).
			"batch: Gesv with one b for the batch",
			func() error { return batch.Gesv(eyes(9, 40), ones(9, 1)) },
			"batch.Solve(a, b) solves every matrix with b's right-hand sides",
			func() error { _, err := batch.Solve(eyes(9, 40), ones(9, 1)); return err },
		},
		{
			"batch: Gesv with b [n, batch]",
			func() error { return batch.Gesv(eyes(9, 40), ones(9, 40)) },
			"b.Reshape(9, 1, 40)",
			func() error {
				b, err := ones(9, 40).Reshape(9, 1, 40)
				if err == nil {
					err = batch.Gesv(eyes(9, 40), b)
				}
				return err
			},
		},
		{
			"batch: Gesv with b [n, batch], the other reading",
			func() error { return batch.Gesv(eyes(9, 40), ones(9, 40)) },
			"batch.Solve(a, b) solves every matrix with b's right-hand sides",
			func() error { _, err := batch.Solve(eyes(9, 40), ones(9, 40)); return err },
		},
		{
			"batch: Gesv with a vector b",
			func() error { return batch.Gesv(eyes(3, 4), ones(3)) },
			"batch.Solve(a, b) takes a vector b",
			func() error { _, err := batch.Solve(eyes(3, 4), ones(3)); return err },
		},
		{
			"batch: Potrs with one b for the batch",
			func() error { return batch.Potrs(batch.Lower, eyes(3, 4), ones(3, 2)) },
			"batch.CholeskySolve(uplo, f, b) solves every matrix",
			func() error { _, err := batch.CholeskySolve(batch.Lower, eyes(3, 4), ones(3, 2)); return err },
		},
		{
			"batch: Gels with one b for the batch",
			func() error { return batch.Gels(eyes(3, 4), ones(3, 1)) },
			"batch.LeastSquares(a, b) solves every matrix",
			func() error { _, err := batch.LeastSquares(eyes(3, 4), ones(3, 1)); return err },
		},
		{
			"batch: SolveTo into memory that overlaps b",
			func() error {
				b := ones(3, 2, 4)
				return batch.SolveTo(must(b.Reverse(2)), eyes(3, 4), b) // x: b's memory, another order
			},
			"x may be b itself, which runs the call in place",
			func() error { b := ones(3, 2, 4); return batch.SolveTo(b, eyes(3, 4), b) },
		},
		{
			"lapis: SetThreads beyond the library",
			func() error { return lapis.SetThreads(1 << 30) },
			"or AutoThreads",
			func() error { return lapis.SetThreads(lapis.AutoThreads) },
		},
		{
			"lapis: a negative SetWorkers",
			func() error { _, err := lapis.SetWorkers(-1); return err },
			"or AutoWorkers",
			func() error { _, err := lapis.SetWorkers(lapis.AutoWorkers); return err },
		},
		{
			"npy: ReadFile with the wrong T",
			func() error { _, err := npy.ReadFile[float32](npyFile(t, dir, "f8.npy", nil)); return err },
			"read it with T = float64",
			func() error { _, err := npy.ReadFile[float64](npyFile(t, dir, "f8.npy", nil)); return err },
		},
		{
			"npy: Map of a big-endian file",
			func() error {
				_, err := npy.Map[float64](npyFile(t, dir, "be.npy", func(b []byte) []byte {
					return bytes.Replace(b, []byte("'<f8'"), []byte("'>f8'"), 1)
				}))
				return err
			},
			"which ReadFile makes",
			func() error { _, err := npy.ReadFile[float64](filepath.Join(dir, "be.npy")); return err },
		},
		{
			"npy: Map of unaligned data",
			func() error { _, err := npy.Map[float64](unalignedNPY(t, dir)); return err },
			"ReadFile reads it",
			func() error { _, err := npy.ReadFile[float64](unalignedNPY(t, dir)); return err },
		},
		{
			"npy: WriteNPZ of a Member not made by Named",
			func() error { return npy.WriteNPZ(new(bytes.Buffer), npy.Stored, npy.Member{}) },
			"make members with Named",
			func() error { return npy.WriteNPZ(new(bytes.Buffer), npy.Stored, npy.Named("x", colMajor(2, 2))) },
		},
		{
			"fortran: a Slice described",
			func() error { _, err := fortran.Describe(fortran.Slice(make([]float64, 4))); return err },
			"pass it to Explicit or ExplicitN, or make a view of it (views.FromColMajor)",
			func() error {
				if err := fortran.Explicit(fortran.Slice(make([]float64, 4)), func(fortran.Array) {}); err != nil {
					return err
				}
				t, err := views.FromColMajor(make([]float64, 4), 4)
				if err != nil {
					return err
				}
				d, err := fortran.Describe(fortran.In(t.View()))
				if err == nil {
					d.Done()
				}
				return err
			},
		},
		{
			"fortran: the zero View",
			func() error {
				return fortran.Explicit(fortran.In(views.View[float64]{}), func(fortran.Array) {})
			},
			"make views with views.FromSlice or Tensor.View, and arguments with In, Out or InOut",
			func() error {
				return fortran.Explicit(fortran.In(colMajor(2, 2)), func(fortran.Array) {})
			},
		},
		{
			"fortran: a written argument aliased",
			func() error {
				v := colMajor(2, 2)
				return fortran.ExplicitN([]fortran.Arg{fortran.In(v), fortran.Out(v)}, func([]fortran.Array) {})
			},
			"pass separate memory",
			func() error {
				return fortran.ExplicitN([]fortran.Arg{fortran.In(colMajor(2, 2)), fortran.Out(colMajor(2, 2))}, func([]fortran.Array) {})
			},
		},
	} {
		err := c.err()
		if err == nil {
			t.Errorf("%s: no error", c.what)
			continue
		}
		if !strings.Contains(err.Error(), c.hint) {
			t.Errorf("%s: %q does not say %q", c.what, err, c.hint)
			continue
		}
		if err := c.apply(); err != nil {
			t.Errorf("%s: the hint %q does not work: %v", c.what, c.hint, err)
		}
	}
}

// TestBatchHintNames: lapack's hint for a batch of matrices names only
// functions package batch has (the list inBatch in package lapack).
func TestBatchHintNames(t *testing.T) {
	fns := exported(t, "batch")
	var listed []string
	files, _ := filepath.Glob(filepath.Join("lapack", "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "inBatch" || len(vs.Values) != 1 {
				return true
			}
			for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
				listed = append(listed, strings.Trim(e.(*ast.BasicLit).Value, `"`))
			}
			return false
		})
	}
	if len(listed) == 0 {
		t.Fatal("no list inBatch in package lapack")
	}
	for _, f := range listed {
		if !contains(fns, f) {
			t.Errorf("lapack's hint names batch.%s, which package batch does not have", f)
		}
	}
}

// exported lists the exported functions of the package in dir.
func exported(t *testing.T, dir string) []string {
	fs := token.NewFileSet()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var names []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fs, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				names = append(names, fd.Name.Name)
			}
		}
	}
	return names
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

func colMajor(shape ...int) views.View[float64] { return must(views.Zeros[float64](shape...)).View() }

// rowMajor is a rows x cols view of row-major storage.
func rowMajor(rows, cols int) views.View[float64] { return colMajor(cols, rows).T() }

func ones(shape ...int) views.View[float64] { return must(views.Full[float64](1, shape...)).View() }

func eye(n int) views.View[float64] { return must(views.Eye[float64](n)).View() }

// eyes is a batch of count n x n identity matrices.
func eyes(n, count int) views.View[float64] {
	t := must(views.Zeros[float64](n, n, count))
	for k := range count {
		for i := range n {
			t.Set(1, i, i, k)
		}
	}
	return t.View()
}

func complexEye(n int) views.View[complex128] { return must(views.Eye[complex128](n)).View() }

func complexVec(n int) views.View[complex128] {
	return must(views.Full[complex128](complex(1, 1), n)).View()
}

func hilbert(n int) views.View[float64] {
	h := must(views.Zeros[float64](n, n))
	for j := range n {
		for i := range n {
			h.Set(1/float64(i+j+1), i, j)
		}
	}
	return h.View()
}

// rankOne is the m x n matrix of ones: rank 1.
func rankOne(m, n int) views.View[float64] { return ones(m, n) }

// nearRankOne is rankOne with its last column changed in one element by
// one unit in the last place: QR finds no exact zero on R's diagonal,
// its condition estimate the rank deficiency.
func nearRankOne(m, n int) views.View[float64] {
	a := must(views.Full[float64](1, m, n))
	a.Set(1+0x1p-52, 1, n-1)
	return a.View()
}

// ormqr applies the Q of a complex QR factorisation with trans.
func ormqr(trans lapack.Op) error {
	q := must(views.Eye[complex128](3))
	tau := make([]complex128, 3)
	if err := lapack.Geqrf(q.View(), tau); err != nil {
		return err
	}
	return lapack.Ormqr(cblas.Left, trans, q.View(), tau, complexEye(3))
}

// npyFile writes a float64 .npy file of two elements named name in dir,
// its bytes changed by edit when not nil, and returns its path.
func npyFile(t *testing.T, dir, name string, edit func([]byte) []byte) string {
	var buf bytes.Buffer
	if err := npy.Write(&buf, ones(2)); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if edit != nil {
		b = edit(b)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// unalignedNPY writes a version 1.0 .npy file of two float64 whose data
// starts at byte 68 (not a multiple of 8) and returns its path.
func unalignedNPY(t *testing.T, dir string) string {
	dict := "{'descr': '<f8', 'fortran_order': True, 'shape': (2,), }"
	hdr := dict + strings.Repeat(" ", 68-10-1-len(dict)) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	_ = binary.Write(&b, binary.LittleEndian, uint16(len(hdr)))
	b.WriteString(hdr)
	_ = binary.Write(&b, binary.LittleEndian, []float64{1, 2})
	path := filepath.Join(dir, "unaligned.npy")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
