// Command mpitest is the multi-rank side of dist's tests: dist_test.go
// builds it and runs it under mpirun (go test itself cannot be started by
// mpirun in a useful way). Each subcommand is one scenario; every rank
// checks what it can see, the ranks agree on the outcome with one
// MPI_Allreduce, and rank 0 prints PASS or the job exits non-zero.
//
//	mpirun --oversubscribe -np 4 mpitest suite     results against lapack
//	mpirun -np 2 mpitest segv                      a nil dereference on rank 0 after Init
//	mpirun -np 2 mpitest segv-recover              ... recovered
//	mpirun -np 4 mpitest rank-exits                rank 1 exits while the others wait
package main

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

var failures int

func failf(format string, a ...any) {
	failures++
	fmt.Printf("rank %d: FAIL: %s\n", dist.Rank(), fmt.Sprintf(format, a...))
}

func must(err error) {
	if err != nil {
		fmt.Printf("rank %d: fatal: %v\n", dist.Rank(), err)
		dist.Abort(2)
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mpitest suite|segv|segv-recover|rank-exits|info")
		os.Exit(2)
	}
	must(dist.Init())
	switch os.Args[1] {
	case "info":
		fmt.Printf("rank %d of %d: thread level %d, signal handlers changed by MPI_Init: %s\n",
			dist.Rank(), dist.Size(), dist.ThreadLevel(), dist.SignalReport())
	case "segv":
		must(dist.Barrier())
		if dist.Rank() == 0 {
			var p *int
			fmt.Println(*p) // a Go panic with a Go stack trace, not Open MPI's handler
		}
		must(dist.Barrier()) // the others wait: mpirun must end the job
	case "segv-recover":
		func() {
			defer func() {
				if r := recover(); r != nil {
					fmt.Printf("rank %d: recovered: %v\n", dist.Rank(), r)
				}
			}()
			var p *int
			fmt.Println(*p)
		}()
	case "rank-exits":
		if dist.Rank() == 1 {
			fmt.Println("rank 1: exiting with 3 while the others wait in a barrier")
			os.Exit(3)
		}
		time.Sleep(200 * time.Millisecond)
		must(dist.Barrier()) // mpirun must end the job, not hang here
		fmt.Printf("rank %d: passed the barrier (wrong)\n", dist.Rank())
	case "suite":
		suite()
	default:
		fmt.Fprintln(os.Stderr, "unknown scenario", os.Args[1])
		dist.Abort(2)
	}
	bad, err := dist.AllMaxInt(failures)
	must(err)
	if dist.Rank() == 0 {
		if bad == 0 {
			fmt.Println("PASS", os.Args[1], "on", dist.Size(), "ranks")
		} else {
			fmt.Println("FAIL", os.Args[1], "on", dist.Size(), "ranks")
		}
	}
	must(dist.Finalize())
	if bad != 0 {
		os.Exit(1)
	}
}

// grids returns the grids the suite covers for the job's size.
func grids() [][2]int {
	all := [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 4}, {4, 1}, {1, 3}}
	var g [][2]int
	for _, pq := range all {
		if pq[0]*pq[1] <= dist.Size() {
			g = append(g, pq)
		}
	}
	return g
}

func suite() {
	eps := math.Nextafter(1, 2) - 1
	for _, pq := range grids() {
		g, err := dist.NewGrid(pq[0], pq[1])
		must(err)
		for _, n := range []int{1, 13, 64} {
			for _, nb := range []int{1, 5, 16} { // 5 and 16 do not divide 13 nor (5) 64
				name := fmt.Sprintf("grid %dx%d n=%d nb=%d", pq[0], pq[1], n, nb)
				moves(g, name, n, nb)
				solve(g, name, n, nb, eps)
				cholesky(g, name, n, nb, eps)
				gemm(g, name, n, nb, eps)
				eig(g, name, n, nb, eps)
				svd(g, name, n, nb, eps)
				gels(g, name, n, nb, eps)
				complexSolve(g, name, n, nb, eps)
				failuresAgree(g, name, n, nb)
			}
		}
		argChecks(g)
		must(g.Exit())
	}
}

func random(seed uint64, m, n int) *views.Tensor[float64] {
	r := rand.New(rand.NewPCG(seed, 7))
	t, _ := views.Zeros[float64](m, n)
	for i := range t.Data() {
		t.Data()[i] = r.Float64()*2 - 1
	}
	return t
}

func onRoot(t *views.Tensor[float64]) views.View[float64] {
	if dist.Rank() == 0 {
		return t.View()
	}
	return views.View[float64]{}
}

// scatter distributes the global t (every rank has it; root 0's is read).
func scatter(g *dist.Grid, t *views.Tensor[float64], mb, nb int) *dist.Matrix[float64] {
	sh := t.Shape()
	a, err := dist.New[float64](g, sh[0], sh[1], mb, nb)
	must(err)
	must(a.Scatter(0, onRoot(t)))
	return a
}

// gather collects a on every rank (gather to 0, then each rank in turn:
// a test of Gather to several roots).
func gather(a *dist.Matrix[float64]) *views.Tensor[float64] {
	m, n := a.Dims()
	t, _ := views.Zeros[float64](m, n)
	for r := 0; r < dist.Size(); r++ {
		v := views.View[float64]{}
		if r == dist.Rank() {
			v = t.View()
		}
		must(a.Gather(r, v))
	}
	return t
}

func maxDiff(a, b views.View[float64]) float64 {
	d := 0.0
	sh := a.Shape()
	for j := 0; j < sh[1]; j++ {
		for i := 0; i < sh[0]; i++ {
			d = max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

func norm1(a views.View[float64]) float64 {
	n, _ := lapack.Lange(lapack.OneNorm, a)
	return n
}

func moves(g *dist.Grid, name string, n, nb int) {
	at := random(1, n, n+3)
	a := scatter(g, at, nb, nb)
	defer a.Release()
	// The local piece is the matrix's elements by the index maps.
	mloc, nloc := dist.LocalShape(g, n, n+3, nb, nb)
	if sh := a.Local().Shape(); sh[0] != mloc || sh[1] != nloc {
		failf("%s: local shape %v, LocalShape %d x %d", name, sh, mloc, nloc)
	}
	for lj := 0; lj < nloc; lj++ {
		for li := 0; li < mloc; li++ {
			i, j := a.ToGlobal(li, lj)
			if a.Local().At(li, lj) != at.At(i, j) {
				failf("%s: local (%d, %d) is not global (%d, %d)", name, li, lj, i, j)
			}
			if l1, l2, mine := a.ToLocal(i, j); !mine || l1 != li || l2 != lj {
				failf("%s: ToLocal(%d, %d) = %d, %d, %v", name, i, j, l1, l2, mine)
			}
		}
	}
	if d := maxDiff(gather(a).View(), at.View()); d != 0 {
		failf("%s: scatter+gather differs by %g", name, d)
	}
	// Redistribute to other blocks on a 1 x Size grid and back.
	g2, err := dist.NewGrid(1, dist.Size())
	must(err)
	b, err := dist.New[float64](g2, n, n+3, 3, 2)
	must(err)
	must(dist.Redistribute(b, a))
	if d := maxDiff(gather(b).View(), at.View()); d != 0 {
		failf("%s: redistributed to 1x%d 3x2 blocks differs by %g", name, dist.Size(), d)
	}
	c, err := dist.New[float64](g, n, n+3, nb, nb)
	must(err)
	must(dist.Redistribute(c, b))
	if d := maxDiff(gather(c).View(), at.View()); d != 0 {
		failf("%s: redistributed back differs by %g", name, d)
	}
	// A row-major view on the root goes through one counted copy.
	rm, _ := at.View().T()
	before := cblas.ReadStats().Copies
	d, err := dist.New[float64](g, n+3, n, nb, nb)
	must(err)
	v := views.View[float64]{}
	if dist.Rank() == 0 {
		v = rm
	}
	must(d.Scatter(0, v))
	if n > 1 && dist.Rank() == 0 && cblas.ReadStats().Copies != before+1 {
		failf("%s: a row-major src was not copied once", name)
	}
	if dd := maxDiff(gather(d).View(), rm); dd != 0 {
		failf("%s: row-major scatter differs by %g", name, dd)
	}
	err = d.Scatter(0, v, cblas.Strict(true))
	if n > 1 && !errors.Is(err, cblas.ErrCopyRefused) {
		failf("%s: strict scatter of a row-major view: %v", name, err)
	}
	b.Release()
	c.Release()
	d.Release()
	must(g2.Exit())
}

func solve(g *dist.Grid, name string, n, nb int, eps float64) {
	at := random(2, n, n)
	for i := 0; i < n; i++ {
		at.Set(at.At(i, i)+float64(n), i, i)
	}
	bt := random(3, n, 2)
	a, b := scatter(g, at, nb, nb), scatter(g, bt, nb, 4)
	defer a.Release()
	defer b.Release()
	if _, err := dist.Gesv(a, b); err != nil {
		failf("%s: Gesv: %v", name, err)
		return
	}
	x := gather(b)
	ref, err := lapack.Solve(at.View(), bt.View())
	must(err)
	// Residual ||A x - b|| / (n eps ||A|| ||x||), and agreement with lapack.
	r := bt.View().ToColMajor()
	must(cblas.Gemm(-1, at.View(), x.View(), 1, r.View()))
	res := norm1(r.View()) / (float64(n) * eps * norm1(at.View()) * norm1(x.View()))
	if res > 10 {
		failf("%s: Gesv residual %g", name, res)
	}
	if d := maxDiff(x.View(), ref.View()); d > 100*float64(n)*eps*norm1(ref.View()) {
		failf("%s: Gesv differs from lapack.Solve by %g", name, d)
	}
}

func spd(seed uint64, n int) *views.Tensor[float64] {
	m := random(seed, n, n)
	a, _ := views.Zeros[float64](n, n)
	mt, _ := m.View().T()
	must(cblas.Gemm(1, m.View(), mt, 0, a.View()))
	for i := 0; i < n; i++ {
		a.Set(a.At(i, i)+float64(n), i, i)
	}
	return a
}

func cholesky(g *dist.Grid, name string, n, nb int, eps float64) {
	at := spd(4, n)
	bt := random(5, n, 3)
	for _, uplo := range []lapack.Uplo{lapack.Lower, lapack.Upper} {
		a, b := scatter(g, at, nb, nb), scatter(g, bt, nb, nb)
		if err := dist.Potrf(uplo, a); err != nil {
			failf("%s: Potrf: %v", name, err)
		} else if err := dist.Potrs(uplo, a, b); err != nil {
			failf("%s: Potrs: %v", name, err)
		} else {
			x := gather(b)
			r := bt.View().ToColMajor()
			must(cblas.Gemm(-1, at.View(), x.View(), 1, r.View()))
			if res := norm1(r.View()) / (float64(n) * eps * norm1(at.View()) * norm1(x.View())); res > 10 {
				failf("%s: Potrf+Potrs (uplo %v) residual %g", name, uplo, res)
			}
		}
		a.Release()
		b.Release()
	}
}

func gemm(g *dist.Grid, name string, n, nb int, eps float64) {
	at, bt := random(6, n, n+2), random(7, n, n+1)
	ct := random(8, n+2, n+1)
	// c = 2 a^T b - c, with different block sizes for each operand.
	a, b, c := scatter(g, at, nb, nb), scatter(g, bt, nb, 3), scatter(g, ct, 2, 3)
	defer a.Release()
	defer b.Release()
	defer c.Release()
	if err := dist.Gemm(lapack.Trans, lapack.NoTrans, 2, a, b, -1, c); err != nil {
		failf("%s: Gemm: %v", name, err)
		return
	}
	ref := ct.View().ToColMajor()
	atT, _ := at.View().T()
	must(cblas.Gemm(2, atT, bt.View(), -1, ref.View()))
	if d := maxDiff(gather(c).View(), ref.View()); d > 10*float64(n)*eps*norm1(at.View())*norm1(bt.View()) {
		failf("%s: Gemm differs from cblas.Gemm by %g", name, d)
	}
}

func symmetric(seed uint64, n int) *views.Tensor[float64] {
	m := random(seed, n, n)
	a, _ := views.Zeros[float64](n, n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a.Set(m.At(i, j)+m.At(j, i), i, j)
		}
	}
	return a
}

func eig(g *dist.Grid, name string, n, nb int, eps float64) {
	at := symmetric(9, n)
	a := scatter(g, at, nb, nb)
	z, err := dist.New[float64](g, n, n, nb, nb)
	must(err)
	defer a.Release()
	defer z.Release()
	w := make([]float64, n)
	if err := dist.Syevd(lapack.Lower, a, w, z); err != nil {
		failf("%s: Syevd: %v", name, err)
		return
	}
	zt := gather(z) // collective: before any rank returns
	if !g.In() {
		return // w is written on the grid's ranks
	}
	wref, _, err := lapack.EigSym(at.View())
	must(err)
	an := norm1(at.View())
	for i := range w {
		if math.Abs(w[i]-wref[i]) > 10*float64(n)*eps*an {
			failf("%s: Syevd eigenvalue %d = %g, lapack %g", name, i, w[i], wref[i])
			break
		}
	}
	// A Z = Z diag(w)
	az, _ := cblas.Mul(at.View(), zt.View())
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			az.Set(az.At(i, j)-zt.At(i, j)*w[j], i, j)
		}
	}
	if res := norm1(az.View()) / (float64(n) * eps * an); res > 10 {
		failf("%s: Syevd residual %g", name, res)
	}
}

func svd(g *dist.Grid, name string, n, nb int, eps float64) {
	m := n + 4
	at := random(10, m, n)
	k := min(m, n)
	a := scatter(g, at, nb, nb)
	u, err := dist.New[float64](g, m, k, nb, nb)
	must(err)
	vt, err := dist.New[float64](g, k, n, nb, nb)
	must(err)
	defer a.Release()
	defer u.Release()
	defer vt.Release()
	s := make([]float64, k)
	if err := dist.Gesvd(a, s, u, vt); err != nil {
		failf("%s: Gesvd: %v", name, err)
		return
	}
	ut, vtt := gather(u), gather(vt) // collective: before any rank returns
	if !g.In() {
		return // s is written on the grid's ranks
	}
	sref, _, _, err := lapack.SVD(at.View())
	must(err)
	an := norm1(at.View())
	for i := range s {
		if math.Abs(s[i]-sref[i]) > 10*float64(n)*eps*an {
			failf("%s: Gesvd singular value %d = %g, lapack %g", name, i, s[i], sref[i])
			break
		}
	}
	for j := 0; j < k; j++ {
		for i := 0; i < m; i++ {
			ut.Set(ut.At(i, j)*s[j], i, j)
		}
	}
	r := at.View().ToColMajor()
	must(cblas.Gemm(-1, ut.View(), vtt.View(), 1, r.View()))
	if res := norm1(r.View()) / (float64(max(m, n)) * eps * an); res > 10 {
		failf("%s: Gesvd reconstruction residual %g", name, res)
	}
}

func gels(g *dist.Grid, name string, n, nb int, eps float64) {
	m := n + 5
	at, bt := random(11, m, n), random(12, m, 2)
	a, b := scatter(g, at, nb, nb), scatter(g, bt, nb, nb)
	defer a.Release()
	defer b.Release()
	if err := dist.Gels(a, b); err != nil {
		failf("%s: Gels: %v", name, err)
		return
	}
	x := gather(b)
	xv, _ := x.View().Slice(0, 0, n, 1)
	ref, err := lapack.LeastSquares(at.View(), bt.View())
	must(err)
	if d := maxDiff(xv, ref.View()); d > 1e3*float64(m)*eps*norm1(ref.View()) {
		failf("%s: Gels differs from lapack.LeastSquares by %g", name, d)
	}
}

func complexSolve(g *dist.Grid, name string, n, nb int, eps float64) {
	r := rand.New(rand.NewPCG(13, 7))
	at, _ := views.Zeros[complex128](n, n)
	bt, _ := views.Zeros[complex128](n, 1)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			at.Set(complex(r.Float64(), r.Float64()), i, j)
		}
		at.Set(at.At(j, j)+complex(float64(n), 0), j, j)
		bt.Set(complex(r.Float64(), -r.Float64()), j, 0)
	}
	a, err := dist.New[complex128](g, n, n, nb, nb)
	must(err)
	b, err := dist.New[complex128](g, n, 1, nb, nb)
	must(err)
	c, err := dist.New[complex128](g, n, 1, nb, nb)
	must(err)
	defer a.Release()
	defer b.Release()
	defer c.Release()
	// Fill instead of Scatter: every rank has the matrix.
	a.Fill(func(i, j int) complex128 { return at.At(i, j) })
	b.Fill(func(i, j int) complex128 { return bt.At(i, j) })
	a0, err := dist.New[complex128](g, n, n, nb, nb)
	must(err)
	defer a0.Release()
	must(dist.Redistribute(a0, a))
	if _, err := dist.Gesv(a, b); err != nil {
		failf("%s: complex Gesv: %v", name, err)
		return
	}
	// c = a0 x - b0, through pzgemm.
	c.Fill(func(i, j int) complex128 { return bt.At(i, j) })
	must(dist.Gemm(lapack.NoTrans, lapack.NoTrans, 1, a0, b, -1, c))
	xt, _ := views.Zeros[complex128](n, 1)
	ct, _ := views.Zeros[complex128](n, 1)
	v, w := views.View[complex128]{}, views.View[complex128]{}
	if dist.Rank() == 0 {
		v, w = xt.View(), ct.View()
	}
	must(b.Gather(0, v))
	must(c.Gather(0, w))
	if dist.Rank() == 0 {
		res, xn := 0.0, 0.0
		for i := 0; i < n; i++ {
			res, xn = max(res, cmplx.Abs(ct.At(i, 0))), max(xn, cmplx.Abs(xt.At(i, 0)))
		}
		if res > 10*float64(n)*eps*float64(2*n)*xn {
			failf("%s: complex Gesv residual %g", name, res)
		}
	}
}

// failuresAgree: a singular matrix and one that is not positive definite
// are reported on every rank, with the global index.
func failuresAgree(g *dist.Grid, name string, n, nb int) {
	for _, k := range []int{n / 2, n - 1} {
		failureAt(g, name, n, nb, k)
	}
}

func failureAt(g *dist.Grid, name string, n, nb, k int) {
	a, err := dist.New[float64](g, n, n, nb, nb)
	must(err)
	b, err := dist.New[float64](g, n, 1, nb, nb)
	must(err)
	defer a.Release()
	defer b.Release()
	a.Fill(func(i, j int) float64 {
		if i == j && i != k {
			return 1
		}
		return 0
	})
	_, err = dist.Gesv(a, b)
	var e *dist.Error
	if !errors.Is(err, lapack.ErrSingular) || !errors.As(err, &e) || e.Index != k {
		failf("%s: singular Gesv (U(%d, %d) = 0): %v", name, k, k, err)
	}
	a.Fill(func(i, j int) float64 {
		switch {
		case i == j && i == k:
			return -1
		case i == j:
			return 2
		}
		return 0
	})
	err = dist.Potrf(lapack.Lower, a)
	if !errors.Is(err, lapack.ErrNotPositiveDefinite) || !errors.As(err, &e) || e.Index != k {
		failf("%s: Potrf of an indefinite matrix: %v", name, err)
	}
}

func argChecks(g *dist.Grid) {
	a, err := dist.New[float64](g, 10, 10, 3, 4)
	must(err)
	b, err := dist.New[float64](g, 10, 1, 3, 3)
	must(err)
	if _, err := dist.Gesv(a, b); !errors.Is(err, layout.ErrShape) || !strings.Contains(err.Error(), "square blocks") {
		failf("Gesv with 3 x 4 blocks: %v", err)
	}
	a.Release()
	b.Release()
}
