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
//	mpirun -np 4 mpitest onebad [case]           one rank's argument wrong, every entry point
//	mpirun -np 4 mpitest notfinite              NaN and Inf: lapis.ErrNotFinite on every rank
//	                                               (MPITEST_VERBOSE=1: rank 0 names each case first)
//	mpirun -np 4 mpitest busy [seconds]            Gesv over and over (default 60 s), for
//	                                               scripts/dist-docker.sh to kill a rank's host
package main

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/internal/scalar"
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
		fmt.Fprintln(os.Stderr, "usage: mpitest suite|onebad [case]|notfinite|segv|segv-recover|rank-exits|info|busy [seconds]")
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
	case "onebad":
		only := ""
		if len(os.Args) > 2 {
			only = os.Args[2]
		}
		oneBad(only)
	case "notfinite":
		notFinite()
	case "busy":
		secs := 60
		if len(os.Args) > 2 {
			s, err := strconv.Atoi(os.Args[2])
			if err != nil || s <= 0 {
				fmt.Fprintf(os.Stderr, "busy: seconds %q is not a positive integer\n", os.Args[2])
				dist.Abort(2)
			}
			secs = s
		}
		busy(time.Duration(secs) * time.Second)
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
	for _, pq := range grids() {
		g, err := dist.NewGrid(pq[0], pq[1])
		must(err)
		for _, n := range []int{1, 13, 64} {
			for _, nb := range []int{1, 5, 16} { // 5 and 16 do not divide 13 nor (5) 64
				name := fmt.Sprintf("grid %dx%d n=%d nb=%d", pq[0], pq[1], n, nb)
				routines[float64](g, name+" float64", n, nb)
				routines[complex128](g, name+" complex128", n, nb)
			}
		}
		grid := fmt.Sprintf("grid %dx%d", pq[0], pq[1])
		queriedOnce[float64](g, grid)
		queriedOnce[complex128](g, grid)
		argChecks(g)
		must(g.Exit())
	}
}

// routines checks every routine for T against single-process lapack.
func routines[T dist.Scalar](g *dist.Grid, name string, n, nb int) {
	moves[T](g, name, n, nb)
	solve[T](g, name, n, nb)
	cholesky[T](g, name, n, nb)
	gemm[T](g, name, n, nb)
	eig[T](g, name, n, nb)
	svd[T](g, name, n+4, n, nb) // tall
	svd[T](g, name, n, n+3, nb) // wide
	gels[T](g, name, n+5, n, nb)
	gels[T](g, name, n, n+5, nb)
	failuresAgree[T](g, name, n, nb)
}

func isComplex[T dist.Scalar]() bool {
	_, ok := any(*new(T)).(complex128)
	return ok
}

// scalar makes a T of re (and im, for complex128).
func value[T dist.Scalar](re, im float64) T {
	var t T
	switch p := any(&t).(type) {
	case *float64:
		*p = re
	case *complex128:
		*p = complex(re, im)
	}
	return t
}

func abs[T dist.Scalar](x T) float64 {
	switch x := any(x).(type) {
	case float64:
		return math.Abs(x)
	case complex128:
		return cmplx.Abs(x)
	}
	panic("unreachable")
}

func random[T dist.Scalar](seed uint64, m, n int) *views.Tensor[T] {
	r := rand.New(rand.NewPCG(seed, 7))
	t, _ := views.Zeros[T](m, n)
	for i := range t.Data() {
		t.Data()[i] = value[T](r.Float64()*2-1, r.Float64()*2-1)
	}
	return t
}

func onRoot[T dist.Scalar](t *views.Tensor[T]) views.View[T] {
	if dist.Rank() == 0 {
		return t.View()
	}
	return views.View[T]{}
}

// scatter distributes the global t (every rank has it; root 0's is read).
func scatter[T dist.Scalar](g *dist.Grid, t *views.Tensor[T], mb, nb int) *dist.Matrix[T] {
	sh := t.Shape()
	a, err := dist.New[T](g, sh[0], sh[1], mb, nb)
	must(err)
	must(a.Scatter(0, onRoot(t)))
	return a
}

// gather collects a on every rank (gather to 0, then each rank in turn:
// a test of Gather to several roots).
func gather[T dist.Scalar](a *dist.Matrix[T]) *views.Tensor[T] {
	m, n := a.Dims()
	t, _ := views.Zeros[T](m, n)
	for r := 0; r < dist.Size(); r++ {
		v := views.View[T]{}
		if r == dist.Rank() {
			v = t.View()
		}
		must(a.Gather(r, v))
	}
	return t
}

func maxDiff[T dist.Scalar](a, b views.View[T]) float64 {
	d := 0.0
	sh := a.Shape()
	for j := 0; j < sh[1]; j++ {
		for i := 0; i < sh[0]; i++ {
			d = max(d, abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

func norm1[T dist.Scalar](a views.View[T]) float64 {
	n, _ := lapack.Lange(lapack.OneNorm, a)
	return n
}

// hT is a^H (a^T for float64), as a view.
func hT[T dist.Scalar](a views.View[T]) views.View[T] {
	return a.H()
}

// residual returns ||a x - b||_1 / (max(m, n) eps max(||a|| ||x||, ||b||)),
// one norms: at most a small constant for a backward-stable solve.
func residual[T dist.Scalar](a, x, b views.View[T]) float64 {
	r := b.ToColMajor()
	must(cblas.Gemm(value[T](-1, 0), a, x, value[T](1, 0), r.View()))
	sh := a.Shape()
	return norm1(r.View()) / (float64(max(sh[0], sh[1])) * scalar.Eps[T]() * max(norm1(a)*norm1(x), norm1(b), 1e-300))
}

func moves[T dist.Scalar](g *dist.Grid, name string, n, nb int) {
	at := random[T](1, n, n+3)
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
	// Fill gives the same matrix as Scatter.
	f, err := dist.New[T](g, n, n+3, nb, nb)
	must(err)
	f.Fill(func(i, j int) T { return at.At(i, j) })
	if d := maxDiff(gather(f).View(), at.View()); d != 0 {
		failf("%s: Fill differs from the matrix by %g", name, d)
	}
	f.Release()
	// Redistribute to other blocks on a 1 x Size grid and back.
	g2, err := dist.NewGrid(1, dist.Size())
	must(err)
	b, err := dist.New[T](g2, n, n+3, 3, 2)
	must(err)
	must(dist.Redistribute(b, a))
	if d := maxDiff(gather(b).View(), at.View()); d != 0 {
		failf("%s: redistributed to 1x%d 3x2 blocks differs by %g", name, dist.Size(), d)
	}
	c, err := dist.New[T](g, n, n+3, nb, nb)
	must(err)
	must(dist.Redistribute(c, b))
	if d := maxDiff(gather(c).View(), at.View()); d != 0 {
		failf("%s: redistributed back differs by %g", name, d)
	}
	// A row-major view on the root goes through one counted copy.
	rm := at.View().T()
	before := lapis.ReadStats().Copies
	d, err := dist.New[T](g, n+3, n, nb, nb)
	must(err)
	v := views.View[T]{}
	if dist.Rank() == 0 {
		v = rm
	}
	must(d.Scatter(0, v))
	if n > 1 && dist.Rank() == 0 && lapis.ReadStats().Copies != before+1 {
		failf("%s: a row-major src was not copied once", name)
	}
	if dd := maxDiff(gather(d).View(), rm); dd != 0 {
		failf("%s: row-major scatter differs by %g", name, dd)
	}
	err = d.Scatter(0, v, lapis.Strict(true))
	if n > 1 && !errors.Is(err, lapis.ErrCopyRefused) {
		failf("%s: strict scatter of a row-major view: %v", name, err)
	}
	// A view of a released tensor: refused on the root's src,
	// on every rank, and as Wrap's local piece.
	gone := random[T](5, n+3, n)
	gv := gone.View()
	gone.Release()
	if dist.Rank() == 0 {
		v = gv
	}
	if err := d.Scatter(0, v); !errors.Is(err, lapis.ErrReleased) {
		failf("%s: scatter of a view of a released tensor: %v", name, err)
	}
	lt, err := views.Zeros[T](dist.LocalShape(g, n+3, n, nb, nb))
	must(err)
	lv := lt.View()
	lt.Release()
	if _, err := dist.Wrap(g, n+3, n, nb, nb, lv); !errors.Is(err, lapis.ErrReleased) {
		failf("%s: Wrap of a view of a released tensor: %v", name, err)
	}
	// A matrix whose wrapped piece's tensor was released after Wrap, and
	// a released matrix: refused on every rank by every entry point.
	lt, err = views.Zeros[T](dist.LocalShape(g, n+3, n, nb, nb))
	must(err)
	wm, err := dist.Wrap(g, n+3, n, nb, nb, lt.View())
	must(err)
	lt.Release()
	if err := dist.Redistribute(d, wm); !errors.Is(err, lapis.ErrReleased) || !strings.Contains(err.Error(), "src") {
		failf("%s: Redistribute from a matrix whose piece was released: %v", name, err)
	}
	if err := wm.Gather(0, views.View[T]{}); !errors.Is(err, lapis.ErrReleased) {
		failf("%s: Gather of a matrix whose piece was released: %v", name, err)
	}
	e, err := dist.New[T](g, n+3, n, nb, nb)
	must(err)
	e.Release()
	e.Release()
	if err := dist.Gemm(lapack.NoTrans, lapack.NoTrans, 1, d, d, 0, e); !errors.Is(err, lapis.ErrReleased) || !strings.Contains(err.Error(), "released (Matrix.Release)") {
		failf("%s: Gemm into a released matrix: %v", name, err)
	}
	if err := e.Scatter(0, views.View[T]{}); !errors.Is(err, lapis.ErrReleased) {
		failf("%s: Scatter into a released matrix: %v", name, err)
	}
	b.Release()
	c.Release()
	d.Release()
	must(g2.Exit())
}

func solve[T dist.Scalar](g *dist.Grid, name string, n, nb int) {
	at := random[T](2, n, n)
	for i := 0; i < n; i++ {
		at.Set(at.At(i, i)+value[T](float64(n), 0), i, i)
	}
	bt := random[T](3, n, 2)
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
	if res := residual(at.View(), x.View(), bt.View()); res > 10 {
		failf("%s: Gesv residual %g", name, res)
	}
	if d := maxDiff(x.View(), ref.View()); d > 100*float64(n)*scalar.Eps[T]()*norm1(ref.View()) {
		failf("%s: Gesv differs from lapack.Solve by %g", name, d)
	}
}

// spd returns m m^H + n I: symmetric (Hermitian) positive definite.
func spd[T dist.Scalar](seed uint64, n int) *views.Tensor[T] {
	m := random[T](seed, n, n)
	a, _ := views.Zeros[T](n, n)
	must(cblas.Gemm(value[T](1, 0), m.View(), hT(m.View()), value[T](0, 0), a.View()))
	for i := 0; i < n; i++ {
		a.Set(value[T](abs(a.At(i, i))+float64(n), 0), i, i) // m m^H has a real positive diagonal
	}
	return a
}

// spoiled returns a copy of the symmetric (Hermitian) a with the triangle
// that uplo does not name (without the diagonal) overwritten by garbage,
// which a routine reading only uplo's triangle never sees.
func spoiled[T dist.Scalar](a *views.Tensor[T], uplo lapack.Uplo) *views.Tensor[T] {
	s := a.View().ToColMajor()
	n := a.Shape()[0]
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			if (uplo == lapack.Lower && i < j) || (uplo == lapack.Upper && i > j) {
				s.Set(value[T](1e6+float64(i), -7), i, j)
			}
		}
	}
	return s
}

func cholesky[T dist.Scalar](g *dist.Grid, name string, n, nb int) {
	at := spd[T](4, n)
	bt := random[T](5, n, 3)
	for _, uplo := range []lapack.Uplo{lapack.Lower, lapack.Upper} {
		a, b := scatter(g, spoiled(at, uplo), nb, nb), scatter(g, bt, nb, nb)
		if err := dist.Potrf(uplo, a); err != nil {
			failf("%s: Potrf: %v", name, err)
		} else if err := dist.Potrs(uplo, a, b); err != nil {
			failf("%s: Potrs: %v", name, err)
		} else if res := residual(at.View(), gather(b).View(), bt.View()); res > 10 {
			failf("%s: Potrf+Potrs (uplo %v) residual %g", name, uplo, res)
		}
		a.Release()
		b.Release()
	}
}

func gemm[T dist.Scalar](g *dist.Grid, name string, n, nb int) {
	at, bt := random[T](6, n, n+2), random[T](7, n, n+1)
	ct := random[T](8, n+2, n+1)
	// c = 2 op(a) b - c, with different block sizes for each operand
	// (op: ^T, and ^H for complex128).
	ops := []lapack.Op{lapack.Trans}
	if isComplex[T]() {
		ops = append(ops, lapack.ConjTrans)
	}
	for _, op := range ops {
		a, b, c := scatter(g, at, nb, nb), scatter(g, bt, nb, 3), scatter(g, ct, 2, 3)
		alpha := value[T](2, 0.5)
		if err := dist.Gemm(op, lapack.NoTrans, alpha, a, b, value[T](-1, 0), c); err != nil {
			failf("%s: Gemm: %v", name, err)
		} else {
			ref := ct.View().ToColMajor()
			opa := at.View().T()
			if op == lapack.ConjTrans {
				opa = hT(at.View())
			}
			must(cblas.Gemm(alpha, opa, bt.View(), value[T](-1, 0), ref.View()))
			if d := maxDiff(gather(c).View(), ref.View()); d > 10*float64(n)*scalar.Eps[T]()*norm1(at.View())*norm1(bt.View()) {
				failf("%s: Gemm (op %c) differs from cblas.Gemm by %g", name, op, d)
			}
		}
		a.Release()
		b.Release()
		c.Release()
	}
}

// hermitian returns m + m^H.
func hermitian[T dist.Scalar](seed uint64, n int) *views.Tensor[T] {
	m := random[T](seed, n, n)
	a, _ := views.Zeros[T](n, n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a.Set(m.At(i, j)+scalar.Conj(m.At(j, i)), i, j)
		}
	}
	return a
}

// eig: the eigenvalues are lapack.EigSym's, A Z = Z diag(w) and Z^H Z =
// I, reading either triangle only.
func eig[T dist.Scalar](g *dist.Grid, name string, n, nb int) {
	at := hermitian[T](9, n)
	wref, _, err := lapack.EigSym(at.View())
	must(err)
	an := norm1(at.View())
	tol := 10 * float64(n) * scalar.Eps[T]()
	for _, uplo := range []lapack.Uplo{lapack.Lower, lapack.Upper} {
		a := scatter(g, spoiled(at, uplo), nb, nb)
		z, err := dist.New[T](g, n, n, nb, nb)
		must(err)
		w := make([]float64, n)
		err = dist.Syevd(uplo, a, w, z)
		zt := gather(z) // collective: before any rank returns
		a.Release()
		z.Release()
		if err != nil {
			failf("%s: Syevd (uplo %v): %v", name, uplo, err)
			continue
		}
		if !g.In() {
			continue // w is written on the grid's ranks
		}
		for i := range w {
			if math.Abs(w[i]-wref[i]) > tol*an {
				failf("%s: Syevd (uplo %v) eigenvalue %d = %g, lapack %g", name, uplo, i, w[i], wref[i])
				break
			}
		}
		az, _ := cblas.Mul(at.View(), zt.View())
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				az.Set(az.At(i, j)-zt.At(i, j)*value[T](w[j], 0), i, j)
			}
		}
		if res := norm1(az.View()) / (tol * an); res > 1 {
			failf("%s: Syevd (uplo %v) residual A Z - Z W: %g", name, uplo, res)
		}
		if res := orthonormality(zt.View()) / tol; res > 1 {
			failf("%s: Syevd (uplo %v) Z^H Z - I: %g", name, uplo, res)
		}
	}
}

// orthonormality returns ||q^H q - I||_1.
func orthonormality[T dist.Scalar](q views.View[T]) float64 {
	k := q.Shape()[1]
	e, _ := views.Zeros[T](k, k)
	for i := 0; i < k; i++ {
		e.Set(value[T](1, 0), i, i)
	}
	must(cblas.Gemm(value[T](1, 0), hT(q), q, value[T](-1, 0), e.View()))
	return norm1(e.View())
}

// svd: the singular values (alone, and with the vectors) are lapack.SVD's,
// U S V^H = A, and U and V have orthonormal columns, for the m x n a.
func svd[T dist.Scalar](g *dist.Grid, name string, m, n, nb int) {
	name = fmt.Sprintf("%s %dx%d", name, m, n)
	at := random[T](10, m, n)
	k := min(m, n)
	a := scatter(g, at, nb, nb)
	u, err := dist.New[T](g, m, k, nb, nb)
	must(err)
	vt, err := dist.New[T](g, k, n, nb, nb)
	must(err)
	defer a.Release()
	defer u.Release()
	defer vt.Release()
	// The values alone first (jobs N), on a copy of a.
	s0 := make([]float64, k)
	a0, err := dist.New[T](g, m, n, nb, nb)
	must(err)
	must(dist.Redistribute(a0, a))
	if err := dist.Gesvd(a0, s0, nil, nil); err != nil {
		failf("%s: Gesvd, values only: %v", name, err)
	}
	a0.Release()
	s := make([]float64, k)
	err = dist.Gesvd(a, s, u, vt)
	ut, vtt := gather(u), gather(vt) // collective: before any rank returns
	if err != nil {
		failf("%s: Gesvd: %v", name, err)
		return
	}
	if !g.In() {
		return // s is written on the grid's ranks
	}
	sref, _, _, err := lapack.SVD(at.View())
	must(err)
	an := norm1(at.View())
	tol := 10 * float64(max(m, n)) * scalar.Eps[T]()
	for i := range s {
		if math.Abs(s[i]-sref[i]) > tol*an || math.Abs(s0[i]-sref[i]) > tol*an {
			failf("%s: Gesvd singular value %d = %g (values only: %g), lapack %g", name, i, s[i], s0[i], sref[i])
			break
		}
	}
	if res := orthonormality(ut.View()) / tol; res > 1 {
		failf("%s: Gesvd U^H U - I: %g", name, res)
	}
	if res := orthonormality(hT(vtt.View())) / tol; res > 1 {
		failf("%s: Gesvd V^H V - I: %g", name, res)
	}
	for j := 0; j < k; j++ {
		for i := 0; i < m; i++ {
			ut.Set(ut.At(i, j)*value[T](s[j], 0), i, j)
		}
	}
	r := at.View().ToColMajor()
	must(cblas.Gemm(value[T](-1, 0), ut.View(), vtt.View(), value[T](1, 0), r.View()))
	if res := norm1(r.View()) / (tol * an); res > 1 {
		failf("%s: Gesvd reconstruction U S V^H - A: %g", name, res)
	}
}

// gels: for a tall a, x satisfies the normal equations A^H (A x - b) = 0;
// for a wide a, A x = b and x = A^H y is in a's row space (minimum norm);
// both equal lapack.LeastSquares's x.
func gels[T dist.Scalar](g *dist.Grid, name string, m, n, nb int) {
	name = fmt.Sprintf("%s %dx%d", name, m, n)
	at, bt := random[T](11, m, n), random[T](12, m, 2)
	bbig, _ := views.Zeros[T](max(m, n), 2)
	top, _ := bbig.View().Slice(0, 0, m, 1)
	must(views.Copy(top, bt.View()))
	a, b := scatter(g, at, nb, nb), scatter(g, bbig, nb, nb)
	defer a.Release()
	defer b.Release()
	if err := dist.Gels(a, b); err != nil {
		failf("%s: Gels: %v", name, err)
		return
	}
	xv, _ := gather(b).View().Slice(0, 0, n, 1)
	x := xv.ToColMajor()
	tol := float64(max(m, n)) * scalar.Eps[T]() * norm1(at.View())
	if m >= n {
		r := bt.View().ToColMajor() // r = b - a x, then a^H r
		must(cblas.Gemm(value[T](-1, 0), at.View(), x.View(), value[T](1, 0), r.View()))
		ne, _ := cblas.Mul(hT(at.View()), r.View())
		if res := norm1(ne.View()) / (tol * norm1(at.View()) * max(norm1(x.View()), norm1(bt.View()))); res > 10 {
			failf("%s: Gels normal equations A^H (A x - b): %g", name, res)
		}
	} else {
		if res := residual(at.View(), x.View(), bt.View()); res > 10 {
			failf("%s: Gels residual A x - b: %g", name, res)
		}
		// x in a's row space: x = A^H y with y = (A A^H)^-1 A x.
		aah, _ := cblas.Mul(at.View(), hT(at.View()))
		ax, _ := cblas.Mul(at.View(), x.View())
		y, err := lapack.Solve(aah.View(), ax.View())
		must(err)
		ahy, _ := cblas.Mul(hT(at.View()), y.View())
		if d := maxDiff(ahy.View(), x.View()); d > 1e3*tol*norm1(x.View()) {
			failf("%s: Gels x is not in a's row space (differs by %g)", name, d)
		}
	}
	ref, err := lapack.LeastSquares(at.View(), bt.View())
	must(err)
	if d := maxDiff(x.View(), ref.View()); d > 1e3*tol*norm1(ref.View()) {
		failf("%s: Gels differs from lapack.LeastSquares by %g", name, d)
	}
}

// failuresAgree: a singular matrix, one that is not positive definite and
// a rank-deficient least-squares problem are reported on every rank, with
// the global index.
func failuresAgree[T dist.Scalar](g *dist.Grid, name string, n, nb int) {
	for _, k := range []int{n / 2, n - 1} {
		failureAt[T](g, name, n, nb, k)
	}
}

func failureAt[T dist.Scalar](g *dist.Grid, name string, n, nb, k int) {
	a, err := dist.New[T](g, n, n, nb, nb)
	must(err)
	b, err := dist.New[T](g, n, 1, nb, nb)
	must(err)
	defer a.Release()
	defer b.Release()
	one := value[T](1, 0.5)
	a.Fill(func(i, j int) T {
		if i == j && i != k {
			return one
		}
		return 0
	})
	_, err = dist.Gesv(a, b)
	var e *dist.Error
	if !errors.Is(err, lapack.ErrSingular) || !errors.As(err, &e) || e.Index != k {
		failf("%s: singular Gesv (U(%d, %d) = 0): %v", name, k, k, err)
	}
	a.Fill(func(i, j int) T {
		switch {
		case i == j && i == k:
			return value[T](-1, 0)
		case i == j:
			return value[T](2, 0)
		case i == j+1:
			return value[T](0.5, 0.25) // read (Lower)
		case j == i+1:
			return value[T](math.NaN(), 0) // never read
		}
		return 0
	})
	err = dist.Potrf(lapack.Lower, a)
	if !errors.Is(err, lapack.ErrNotPositiveDefinite) || !errors.As(err, &e) || e.Index != k {
		failf("%s: Potrf of an indefinite matrix: %v", name, err)
	}
	// Potrs refuses the partial factor (it solved from it, x garbage),
	// naming where it failed, and leaves b as it was.
	b.Fill(func(i, j int) T { return one })
	err = dist.Potrs(lapack.Lower, a, b)
	if !errors.Is(err, lapack.ErrNotPositiveDefinite) || !errors.As(err, &e) || e.Index != k {
		failf("%s: Potrs after a failed Potrf: %v, want ErrNotPositiveDefinite at %d", name, err, k)
	}
	for i := range b.Local().Len() {
		if b.Local().Data()[i] != one {
			failf("%s: the refused Potrs wrote b", name)
			break
		}
	}
	// Column k of a zero: R(k, k) is exactly zero.
	a.Fill(func(i, j int) T {
		if j == k {
			return 0
		}
		return value[T](1/float64(1+i+j), float64(i-j)/8)
	})
	b.Fill(func(i, j int) T { return one })
	err = dist.Gels(a, b)
	if !errors.Is(err, lapack.ErrRankDeficient) || !errors.Is(err, lapack.ErrSingular) || !errors.As(err, &e) || e.Index != k {
		failf("%s: Gels with a zero column %d: %v", name, k, err)
	}
	if n < 2 {
		return // a 1 x 1 matrix is exactly singular or well-conditioned
	}
	// Column k a multiple of another: R(k, k) is tiny but not zero.
	a.Fill(func(i, j int) T {
		if j == k {
			j = (k + 1) % n
			return value[T](3/float64(1+i+j), 3*float64(i-j)/8)
		}
		return value[T](1/float64(1+i+j), float64(i-j)/8)
	})
	b.Fill(func(i, j int) T { return one })
	err = dist.Gels(a, b)
	if !errors.Is(err, lapack.ErrRankDeficient) || !errors.As(err, &e) || e.Index != -1 || e.Rcond > float64(n)*scalar.Eps[T]() {
		failf("%s: Gels with column %d a multiple of another: %v", name, k, err)
	}
}

// queriedOnce: the workspace routines ask ScaLAPACK for their workspace
// the first time a shape comes on a grid (one more C call, on the grid's
// ranks) and not the second time.
func queriedOnce[T dist.Scalar](g *dist.Grid, grid string) {
	const n, nb = 7, 3 // a shape no other check uses
	calls := func(f func() error) int64 {
		before := lapis.ReadStats().Lapack
		must(f())
		return lapis.ReadStats().Lapack - before
	}
	var made []*dist.Matrix[T]
	defer func() {
		for _, a := range made {
			a.Release()
		}
	}()
	fresh := func(m, n int) *dist.Matrix[T] {
		a, err := dist.New[T](g, m, n, nb, nb)
		must(err)
		made = append(made, a)
		a.Fill(func(i, j int) T { return value[T](1/float64(1+i+j)+float64(n)*b2f(i == j), 0) })
		return a
	}
	w := make([]float64, n)
	// In the same order on every rank (not a map's): the calls are collective.
	for _, c := range []struct {
		name  string
		calls int64 // routine calls (each one C call on every rank)
		f     func() error
	}{
		{"Syevd", 1, func() error { return dist.Syevd(lapack.Upper, fresh(n, n), w, fresh(n, n)) }},
		{"Gesvd", 1, func() error { return dist.Gesvd(fresh(n+2, n), w, fresh(n+2, n), fresh(n, n)) }},
		{"Gels", 2, func() error { return dist.Gels(fresh(n+2, n), fresh(n+2, 2)) }}, // p?gels, p?trcon
	} {
		// Each routine call is one C call counted on every rank
		// (ScaLAPACK's on the grid's ranks, the agreement on info on the
		// others); each workspace query one more, on the grid's ranks.
		first := 2 * c.calls
		if !g.In() {
			first = c.calls
		}
		if got := calls(c.f); got != first {
			failf("%s %T: first %s on a shape made %d C calls, want %d", grid, *new(T), c.name, got, first)
		}
		if got := calls(c.f); got != c.calls {
			failf("%s %T: second %s on a shape made %d C calls, want %d (no query)", grid, *new(T), c.name, got, c.calls)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// argChecks: bad operands are errors naming the argument, on every rank,
// before anything runs (a rank left in a collective would hang the job).
func argChecks(g *dist.Grid) {
	a, err := dist.New[float64](g, 10, 10, 3, 4)
	must(err)
	b, err := dist.New[float64](g, 10, 1, 3, 3)
	must(err)
	if _, err := dist.Gesv(a, b); !errors.Is(err, layout.ErrShape) || !strings.Contains(err.Error(), "square blocks") {
		failf("Gesv with 3 x 4 blocks: %v", err)
	}
	if err := dist.Potrf(lapack.Uplo(99), a); !errors.Is(err, lapis.ErrInvalid) || !strings.Contains(err.Error(), "uplo") {
		failf("Potrf with uplo 99: %v", err)
	}
	a.Release()
	b.Release()
	argChecksOf[complex128](g)
	hints(g)
}

// hints: what dist's errors suggest works (the other packages'
// hints are tried by the root package's hints_test.go): Redistribute to
// square blocks, and onto a's grid.
func hints(g *dist.Grid) {
	eye, _ := views.Eye[float64](10)
	ones, _ := views.Full[float64](1, 10, 1)
	defer eye.Release()
	defer ones.Release()
	a, b := scatter(g, eye, 3, 4), scatter(g, ones, 3, 3)
	defer a.Release()
	defer b.Release()
	if _, err := dist.Gesv(a, b); err == nil || !strings.Contains(err.Error(), "Redistribute to mb = nb") {
		failf("Gesv with 3 x 4 blocks: %v, want the hint Redistribute to mb = nb", err)
	}
	sq, err := dist.New[float64](g, 10, 10, 3, 3)
	must(err)
	defer sq.Release()
	must(dist.Redistribute(sq, a))
	if _, err := dist.Gesv(sq, b); err != nil {
		failf("Gesv after Redistribute to mb = nb: %v", err)
	}
	other, err := dist.NewGrid(1, 1)
	must(err)
	bo, err := dist.New[float64](other, 10, 1, 3, 3)
	must(err)
	must(dist.Redistribute(bo, b))
	sq2 := scatter(g, eye, 3, 3)
	defer sq2.Release()
	if _, err := dist.Gesv(sq2, bo); err == nil || !strings.Contains(err.Error(), "Redistribute it onto a's grid first") {
		failf("Gesv with b on another grid: %v, want the hint Redistribute it onto a's grid first", err)
	}
	b2, err := dist.New[float64](g, 10, 1, 3, 3)
	must(err)
	defer b2.Release()
	must(dist.Redistribute(b2, bo))
	if _, err := dist.Gesv(sq2, b2); err != nil {
		failf("Gesv after Redistribute onto a's grid: %v", err)
	}
	bo.Release()
	must(other.Exit())
}

func argChecksOf[T dist.Scalar](g *dist.Grid) {
	mat := func(m, n, mb, nb int) *dist.Matrix[T] {
		a, err := dist.New[T](g, m, n, mb, nb)
		must(err)
		return a
	}
	a, z, b, u := mat(8, 8, 3, 3), mat(8, 8, 2, 2), mat(7, 2, 3, 3), mat(8, 8, 3, 3)
	defer a.Release()
	defer z.Release()
	defer b.Release()
	defer u.Release()
	for _, c := range []struct {
		what, arg string
		err       error
	}{
		{"Syevd with z in other blocks", "z", dist.Syevd(lapack.Lower, a, make([]float64, 8), z)},
		{"Syevd with w too short", "w", dist.Syevd(lapack.Lower, a, make([]float64, 7), u)},
		{"Gesvd with u and no vt", "u, vt", dist.Gesvd(a, make([]float64, 8), u, nil)},
		{"Gesvd with vt in other blocks", "u, vt", dist.Gesvd(a, make([]float64, 8), u, z)},
		{"Gels with b of 7 rows", "b", dist.Gels(a, b)},
		{"Potrs with b of 7 rows", "b", dist.Potrs(lapack.Upper, a, b)},
	} {
		var le *layout.Error
		if !errors.Is(c.err, layout.ErrShape) || !errors.As(c.err, &le) || le.Arg != c.arg {
			failf("%T %s: %v, want layout.ErrShape naming %s", *new(T), c.what, c.err, c.arg)
		}
	}
	if err := dist.Syevd(lapack.Uplo(99), a, make([]float64, 8), u); !errors.Is(err, lapis.ErrInvalid) || !strings.Contains(err.Error(), "uplo") {
		failf("%T Syevd with uplo 99: %v, want lapis.ErrInvalid naming uplo", *new(T), err)
	}
}
