// Command dist solves a distributed n x n system with ScaLAPACK's pdgesv
// through lapis's package dist and prints the residual and each rank's
// time. Every rank runs this program:
//
//	go build -o /tmp/lapis-dist ./examples/dist
//	OPENBLAS_NUM_THREADS=1 mpirun --oversubscribe -np 4 /tmp/lapis-dist -n 2000
//
// (as root add --allow-run-as-root; across machines add --hostfile hosts).
// The matrix is defined by a formula, so each rank fills only its own
// local piece: nothing is held whole on one rank except x and the
// residual vector gathered at the end. -ref also times lapack.Gesv on the
// whole matrix on rank 0 alone, for comparison.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// elem is the matrix: pseudo-random entries in [-1, 1) with n added on the
// diagonal (well conditioned), the same on every rank.
func elem(n, i, j int) float64 {
	h := uint64(i)*0x9E3779B97F4A7C15 ^ uint64(j)*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	v := float64(h>>11)/float64(1<<53)*2 - 1
	if i == j {
		v += float64(n)
	}
	return v
}

func main() {
	n := flag.Int("n", 2000, "order of the system")
	nb := flag.Int("nb", 64, "block size")
	ref := flag.Bool("ref", false, "also time lapack.Gesv on rank 0 alone")
	rows := flag.Int("p", 0, "grid rows P (Q = ranks / P); 0: the squarest grid with P <= Q")
	flag.Parse()
	if err := run(*n, *nb, *rows, *ref); err != nil {
		fmt.Fprintf(os.Stderr, "rank %d: %v\n", dist.Rank(), err)
		dist.Abort(1)
		os.Exit(1)
	}
}

// gridShape returns the squarest P x Q with P*Q = size, P <= Q.
func gridShape(size int) (int, int) {
	p := int(math.Sqrt(float64(size)))
	for size%p != 0 {
		p--
	}
	return p, size / p
}

func run(n, nb, rows int, ref bool) error {
	if err := dist.Init(); err != nil {
		return err
	}
	p, q := gridShape(dist.Size())
	if rows > 0 {
		p, q = rows, dist.Size()/rows
	}
	g, err := dist.NewGrid(p, q)
	if err != nil {
		return err
	}
	a, err := dist.New[float64](g, n, n, nb, nb)
	if err != nil {
		return err
	}
	b, err := dist.New[float64](g, n, 1, nb, nb)
	if err != nil {
		return err
	}
	a0, err := dist.New[float64](g, n, n, nb, nb) // kept for the residual
	if err != nil {
		return err
	}
	a.Fill(func(i, j int) float64 { return elem(n, i, j) })
	a0.Fill(func(i, j int) float64 { return elem(n, i, j) })
	b.Fill(func(i, j int) float64 { return 1 })

	if err := dist.Barrier(); err != nil {
		return err
	}
	t0 := dist.Wtime()
	if _, err := dist.Gesv(a, b); err != nil { // b becomes x
		return err
	}
	t := dist.Wtime() - t0
	if err := dist.Barrier(); err != nil {
		return err
	}
	all := dist.Wtime() - t0
	row, col := g.Coords()
	fmt.Printf("rank %d at (%d, %d) of %d x %d: local piece %v, pdgesv %.3f s\n",
		dist.Rank(), row, col, p, q, a.Local().Shape(), t)

	// r = a0 x - 1, distributed; then x and r gathered on rank 0.
	r, err := dist.New[float64](g, n, 1, nb, nb)
	if err != nil {
		return err
	}
	r.Fill(func(i, j int) float64 { return 1 })
	if err := dist.Gemm(lapack.NoTrans, lapack.NoTrans, 1, a0, b, -1, r); err != nil {
		return err
	}
	xs, _ := views.Zeros[float64](n)
	rs, _ := views.Zeros[float64](n)
	xv, rv := views.View[float64]{}, views.View[float64]{}
	if dist.Rank() == 0 {
		xv, _ = xs.View().Reshape(n, 1)
		rv, _ = rs.View().Reshape(n, 1)
	}
	if err := b.Gather(0, xv); err != nil {
		return err
	}
	if err := r.Gather(0, rv); err != nil {
		return err
	}
	if dist.Rank() == 0 {
		xmax, rmax := 0.0, 0.0
		for i := 0; i < n; i++ {
			xmax, rmax = max(xmax, math.Abs(xs.At(i))), max(rmax, math.Abs(rs.At(i)))
		}
		// ||A||_inf <= 2n for this matrix (|a_ij| < 1 off the diagonal).
		eps := math.Nextafter(1, 2) - 1
		fmt.Printf("n = %d, %d ranks (%d x %d grid, %d x %d blocks): pdgesv %.3f s (slowest rank)\n", n, dist.Size(), p, q, nb, nb, all)
		fmt.Printf("residual ||A x - b||_inf = %.3g, / (n eps ||A||_inf ||x||_inf) = %.3g\n",
			rmax, rmax/(float64(n)*eps*2*float64(n)*xmax))
		if ref {
			if err := reference(n); err != nil {
				return err
			}
		}
	}
	if err := g.Exit(); err != nil {
		return err
	}
	return dist.Finalize()
}

// reference times lapack.Gesv on the whole matrix in this one process.
func reference(n int) error {
	a, _ := views.Zeros[float64](n, n)
	b, _ := views.Full(1.0, n, 1)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a.Set(elem(n, i, j), i, j)
		}
	}
	ipiv := make([]int32, n)
	t0 := time.Now()
	if err := lapack.Gesv(a.View(), b.View(), ipiv); err != nil {
		return err
	}
	fmt.Printf("lapack.Gesv on rank 0 alone: %.3f s\n", time.Since(t0).Seconds())
	return nil
}
