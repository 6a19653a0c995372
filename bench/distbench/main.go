// Command distbench times package dist's Gesv, Gemm and Potrf (pdgesv,
// pdgemm, pdpotrf) on an n x n matrix over a P x Q grid, for
// scripts/bench-dist.sh. bench/scalapack/pdbench.c makes the same
// ScaLAPACK calls from C on the same matrices, timed the same way
// (barrier, Wtime, the call, barrier: every rank waits for the slowest),
// and prints the same line, so the two are compared in one run:
//
//	go build -o /tmp/distbench ./bench/distbench
//	OPENBLAS_NUM_THREADS=1 mpirun --oversubscribe -np 2 /tmp/distbench gesv 4000 1 64 3
//	    (routine gesv|gemm|potrf|check|syevd, n, grid rows P (Q = ranks / P), nb, repetitions)
//
// Rank 0 prints
//
//	RESULT impl=lapis op=gesv n=4000 nb=64 grid=1x2 ranks=2 reps=3 median=... min=... times=...
//
// check times what Gesv does before ScaLAPACK is called (its argument
// checks, agreed on by every rank with one MPI_Allreduce): Gesv with a
// right-hand side of no columns, which stops there. Its time per call,
// set against gesv's at the same n, is the cost of the validation.
//
// syevd times dist.Syevd (pdsyevd, eigenvectors into b) of potrf's
// symmetric matrix, lower triangle.
//
// Each repetition refills the operands first (untimed); gemm computes
// c = a b with b the transpose of a's formula; potrf factors a symmetric
// positive definite matrix (lower). It is a command, not a Go benchmark,
// because every rank must run the same number of calls (go test's b.N is
// decided per process).
package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/lapack"
)

// elem is bench/scalapack/pdbench.c's matrix: pseudo-random entries in
// [-1, 1) with n added on the diagonal; symmetric when sym (then positive
// definite: strictly diagonally dominant).
func elem(n, i, j int, sym bool) float64 {
	if sym && j < i {
		i, j = j, i
	}
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
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "distbench: rank %d: %v\n", dist.Rank(), err)
		if dist.Size() > 0 {
			dist.Abort(2)
		}
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) != 5 || (args[0] != "gesv" && args[0] != "gemm" && args[0] != "potrf" && args[0] != "check" && args[0] != "syevd") {
		return fmt.Errorf("usage: distbench gesv|gemm|potrf|check|syevd n P nb reps")
	}
	op := args[0]
	var v [4]int
	for i, s := range args[1:] {
		x, err := strconv.Atoi(s)
		if err != nil || x <= 0 {
			return fmt.Errorf("argument %d (%q) is not a positive integer", i+2, s)
		}
		v[i] = x
	}
	n, p, nb, reps := v[0], v[1], v[2], v[3]
	if err := dist.Init(); err != nil {
		return err
	}
	if dist.Size()%p != 0 {
		return fmt.Errorf("grid rows P = %d do not divide the %d ranks", p, dist.Size())
	}
	q := dist.Size() / p
	g, err := dist.NewGrid(p, q)
	if err != nil {
		return err
	}
	a, err := dist.New[float64](g, n, n, nb, nb)
	if err != nil {
		return err
	}
	bcols := 1
	switch op {
	case "gemm", "syevd":
		bcols = n // syevd: b holds the eigenvectors
	case "check":
		bcols = 0
	}
	b, err := dist.New[float64](g, n, bcols, nb, nb)
	if err != nil {
		return err
	}
	var c *dist.Matrix[float64]
	if op == "gemm" {
		if c, err = dist.New[float64](g, n, n, nb, nb); err != nil {
			return err
		}
	}
	w := make([]float64, n) // syevd's eigenvalues
	times := make([]float64, reps)
	for r := range times {
		// check writes nothing: one fill (at n = 4000 a refill costs more
		// than the call).
		if r == 0 || op != "check" {
			a.Fill(func(i, j int) float64 { return elem(n, i, j, op == "potrf" || op == "syevd") })
			if c != nil {
				b.Fill(func(i, j int) float64 { return elem(n, j, i, false) })
				c.Fill(func(i, j int) float64 { return 0 })
			} else {
				b.Fill(func(i, j int) float64 { return 1 })
			}
		}
		if err := dist.Barrier(); err != nil {
			return err
		}
		t0 := dist.Wtime()
		switch op {
		case "gesv", "check":
			_, err = dist.Gesv(a, b)
		case "gemm":
			err = dist.Gemm(lapack.NoTrans, lapack.NoTrans, 1, a, b, 0, c)
		case "potrf":
			err = dist.Potrf(lapack.Lower, a)
		case "syevd":
			err = dist.Syevd(lapack.Lower, a, w, b)
		}
		if err != nil {
			return err
		}
		if err := dist.Barrier(); err != nil {
			return err
		}
		times[r] = dist.Wtime() - t0
	}
	if dist.Rank() == 0 {
		s := slices.Sorted(slices.Values(times))
		med := s[reps/2]
		if reps%2 == 0 {
			med = (s[reps/2-1] + s[reps/2]) / 2
		}
		list := make([]string, reps)
		for i, t := range times {
			list[i] = fmt.Sprintf("%.6f", t)
		}
		fmt.Printf("RESULT impl=lapis op=%s n=%d nb=%d grid=%dx%d ranks=%d reps=%d median=%.6f min=%.6f times=%s\n",
			op, n, nb, p, q, dist.Size(), reps, med, s[0], strings.Join(list, ","))
	}
	if err := g.Exit(); err != nil {
		return err
	}
	return dist.Finalize()
}
