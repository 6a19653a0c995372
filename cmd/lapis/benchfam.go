package main

import (
	"runtime"

	"gonum.org/v1/gonum/blas"
	gonumlapack "gonum.org/v1/gonum/lapack"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/bench/cref"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// The jobs of each family. Every implementation of one row works on the
// same operands; operations that overwrite their input restore it first,
// for every implementation alike. gonum is row-major: on column-major
// data it computes the transposed problem, at the same cost.

func maxProcs() int { return runtime.GOMAXPROCS(0) }

var gl lapackgo.Implementation

// withNumpy appends the numpy job of op to js when numpy is there.
func (e *benchEnv) withNumpy(js []job, op string, count int, work float64) []job {
	if e.numpy {
		js = append(js, job{op: op, impl: implNumpy, count: count, work: work})
	}
	return js
}

func copyJobs(e *benchEnv, n int) []job {
	src := randoms[float64](e.r, n*n)
	dst := make([]float64, n*n)
	at, err := colMajor(src, n, n).T()
	if err != nil {
		panic(err)
	}
	out := colMajor(dst, n, n)
	g, gd := mat.NewDense(n, n, src), mat.NewDense(n, n, dst)
	bytes := 16 * float64(n) * float64(n)
	js := []job{
		{op: "transpose", impl: implLapis, work: bytes, f: func() error { return views.Copy(out, at) }},
		{op: "transpose", impl: implC + " (16 x 16 tiles)", work: bytes, f: func() error { cref.Transpose(n, src, dst); return nil }},
		{op: "transpose", impl: "gonum Dense.Copy(a.T())", work: bytes, f: func() error { gd.Copy(g.T()); return nil }},
		{op: "transpose", impl: "Go copy() (no transpose)", work: bytes, f: func() error { copy(dst, src); return nil }},
	}
	return e.withNumpy(js, "transpose", 0, bytes)
}

func gemmJobs(e *benchEnv, n int) []job {
	a, b, c := randoms[float64](e.r, n*n), randoms[float64](e.r, n*n), make([]float64, n*n)
	av, bv, cv := colMajor(a, n, n), colMajor(b, n, n), colMajor(c, n, n)
	flops := 2 * float64(n) * float64(n) * float64(n)
	js := []job{
		{op: "dgemm", impl: implLapis, work: flops, f: func() error { return cblas.Gemm(1.0, av, bv, 0.0, cv) }},
		{op: "dgemm", impl: implC, work: flops, threads: e.cThreads, f: func() error { cref.Dgemm(1, n, a, b, c); return nil }},
		{op: "dgemm", impl: implGonum, work: flops, f: func() error {
			ref.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, b, n, a, n, 0, c, n)
			return nil
		}},
	}
	return e.withNumpy(js, "dgemm", 0, flops)
}

func smallJobs(e *benchEnv, n int) []job {
	a, b, c := randoms[float64](e.r, n*n), randoms[float64](e.r, n*n), make([]float64, n*n)
	av, bv, cv := colMajor(a, n, n), colMajor(b, n, n), colMajor(c, n, n)
	const reps = 100 // calls per cgo call of the C loop
	js := []job{
		{op: "dgemm", impl: implLapis, f: func() error { return cblas.Gemm(1.0, av, bv, 0.0, cv) }},
		{op: "dgemm", impl: implLapisC, f: func() error { return cblas.Gemm(1.0, av, bv, 0.0, cv, lapis.ForceC()) }},
		{op: "dgemm", impl: implC + " (loop in C)", per: reps, threads: e.cThreads, f: func() error { cref.Dgemm(reps, n, a, b, c); return nil }},
		{op: "dgemm", impl: implGonum, f: func() error {
			ref.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, b, n, a, n, 0, c, n)
			return nil
		}},
	}
	return e.withNumpy(js, "dgemm", 0, 0)
}

// diagDominant returns a random n x n matrix with n added to its diagonal
// (well conditioned).
func diagDominant(e *benchEnv, n int) []float64 {
	a := randoms[float64](e.r, n*n)
	for i := 0; i < n; i++ {
		a[i+i*n] += float64(n)
	}
	return a
}

func lapackJobs(e *benchEnv, n int) []job {
	a := diagDominant(e, n)
	spd := hermitian[float64](e.r, n, true, float64(n))
	sym := hermitian[float64](e.r, n, false, 0)
	b := randoms[float64](e.r, n)
	work, bw, w := make([]float64, n*n), make([]float64, n), make([]float64, n)
	wv, bwv := colMajor(work, n, n), colMajor(bw, n, 1)
	ipiv32, ipiv, cipiv := make([]int32, n), make([]int, n), cref.NewPivots(n)
	n3 := float64(n) * float64(n) * float64(n)
	restore := func(m []float64) { copy(work, m); copy(bw, b) }
	js := []job{
		{op: "dgesv", impl: implLapis, work: 2 * n3 / 3, f: func() error { restore(a); return lapack.Gesv(wv, bwv, ipiv32) }},
		{op: "dgesv", impl: implC, work: 2 * n3 / 3, threads: e.cThreads, f: func() error { restore(a); return cref.GesvLoop(1, n, 1, work, bw, cipiv) }},
		{op: "dgesv", impl: implGonum, work: 2 * n3 / 3, f: func() error {
			restore(a)
			gl.Dgetrf(n, n, work, n, ipiv)
			gl.Dgetrs(blas.NoTrans, n, 1, work, n, ipiv, bw, 1)
			return nil
		}},
	}
	js = e.withNumpy(js, "dgesv", 0, 0)
	js = append(js,
		job{op: "dpotrf", impl: implLapis, f: func() error { restore(spd); return lapack.Potrf(lapack.Lower, wv) }},
		job{op: "dpotrf", impl: implC, threads: e.cThreads, f: func() error { restore(spd); return cref.Dpotrf(n, work) }},
		job{op: "dpotrf", impl: implGonum, f: func() error {
			restore(spd)
			gl.Dpotrf(blas.Upper, n, work, n) // row-major upper = column-major lower
			return nil
		}},
	)
	js = e.withNumpy(js, "dpotrf", 0, 0)
	restore(sym)
	syevd := cref.Syevd(n, work, w)
	q := make([]float64, 1)
	gl.Dsyev(gonumlapack.EVCompute, blas.Upper, n, work, n, w, q, -1)
	gw := make([]float64, int(q[0]))
	js = append(js,
		job{op: "dsyevd", impl: implLapis, f: func() error { restore(sym); return lapack.Syevd(lapack.JobVectors, lapack.Lower, wv, w) }},
		job{op: "dsyevd", impl: implC, threads: e.cThreads, f: func() error { restore(sym); return syevd() }},
		job{op: "dsyevd", impl: "gonum (pure Go, dsyev)", f: func() error {
			restore(sym)
			gl.Dsyev(gonumlapack.EVCompute, blas.Upper, n, work, n, w, gw, len(gw))
			return nil
		}},
	)
	return e.withNumpy(js, "dsyevd", 0, 0)
}

// batchCount is the batch size for n x n products: about 2^22 flops per
// batch, at least 100 and at most 10000 matrices.
func batchCount(n int) int { return min(10000, max(100, (1<<21)/(n*n*n))) }

// gemmBatchJobs are the jobs of count n x n products.
func gemmBatchJobs(e *benchEnv, n, count int) []job {
	nn := n * n
	a, b, c := randoms[float64](e.r, nn*count), randoms[float64](e.r, nn*count), make([]float64, nn*count)
	av, bv, cv := batchView(a, n, n, count), batchView(b, n, n, count), batchView(c, n, n, count)
	js := []job{
		{op: "gemm", impl: implLapis, count: count, f: func() error { return batch.Gemm(1.0, av, bv, 0.0, cv) }},
		{op: "gemm", impl: implC + " kernel loop (no BLAS)", count: count, f: func() error { cref.KernelLoop(count, n, a, b, c); return nil }},
		{op: "gemm", impl: implC + " loop of cblas_dgemm", count: count, threads: e.cThreads, f: func() error { cref.BLASLoop(count, n, a, b, c); return nil }},
		{op: "gemm", impl: implGonum, count: count, f: func() error {
			for t := 0; t < count; t++ {
				o := t * nn
				ref.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, b[o:o+nn], n, a[o:o+nn], n, 0, c[o:o+nn], n)
			}
			return nil
		}},
	}
	return e.withNumpy(js, "gemm", count, 0)
}

func batchJobs(e *benchEnv, n int) []job { return gemmBatchJobs(e, n, batchCount(n)) }

func tinyJobs(e *benchEnv, n int) []job {
	const count = 10000
	js := gemmBatchJobs(e, n, count)
	nn := n * n
	a0, b0 := make([]float64, nn*count), randoms[float64](e.r, n*count)
	for t := 0; t < count; t++ {
		copy(a0[t*nn:], hermitian[float64](e.r, n, true, float64(n)))
	}
	a, b := make([]float64, len(a0)), make([]float64, len(b0))
	av, bv := batchView(a, n, n, count), batchView(b, n, 1, count)
	ipiv, cipiv := make([]int, n), cref.NewPivots(n)
	restore := func() { copy(a, a0); copy(b, b0) }
	js = append(js,
		job{op: "solve", impl: implLapis, count: count, f: func() error { restore(); return batch.Gesv(av, bv) }},
		job{op: "solve", impl: implC + " loop of dgesv", count: count, threads: e.cThreads, f: func() error { restore(); return cref.GesvLoop(count, n, 1, a, b, cipiv) }},
		job{op: "solve", impl: implGonum, count: count, f: func() error {
			restore()
			for t := 0; t < count; t++ {
				gl.Dgetrf(n, n, a[t*nn:(t+1)*nn], n, ipiv)
				gl.Dgetrs(blas.NoTrans, n, 1, a[t*nn:(t+1)*nn], n, ipiv, b[t*n:(t+1)*n], 1)
			}
			return nil
		}},
	)
	return e.withNumpy(js, "solve", count, 0)
}

// threadsJobs: one n x n dgesv while a goroutine runs a pure-Go loop,
// with lapis's default policy, lapis fixed at one thread, the C
// reference with OpenBLAS at its full count (what a program that leaves
// OpenBLAS alone gets), and gonum.
func threadsJobs(e *benchEnv, n int) []job {
	restoreSetting := saveThreads()
	controlled := lapis.SetThreads(lapis.AutoThreads) == nil
	full := lapis.Threads()
	restoreSetting()
	a, b := diagDominant(e, n), randoms[float64](e.r, n)
	work, bw := make([]float64, n*n), make([]float64, n)
	wv, bwv := colMajor(work, n, n), colMajor(bw, n, 1)
	ipiv32, ipiv, cipiv := make([]int32, n), make([]int, n), cref.NewPivots(n)
	restore := func() { copy(work, a); copy(bw, b) }
	lapisGesv := func() error { restore(); return lapack.Gesv(wv, bwv, ipiv32) }
	cGesv := func() error { restore(); return cref.GesvLoop(1, n, 1, work, bw, cipiv) }
	gonumGesv := job{op: "dgesv", impl: implGonum, busy: true, f: func() error {
		restore()
		gl.Dgetrf(n, n, work, n, ipiv)
		gl.Dgetrs(blas.NoTrans, n, 1, work, n, ipiv, bw, 1)
		return nil
	}}
	if !controlled { // not OpenBLAS: the library's own threads, whoever calls it
		return []job{
			{op: "dgesv", impl: implLapis + " (the library's threads)", busy: true, f: lapisGesv},
			{op: "dgesv", impl: implC + " (the library's threads)", busy: true, f: cGesv},
			gonumGesv,
		}
	}
	return []job{
		{op: "dgesv", impl: "lapis (default policy)", threads: threadsAuto, busy: true, f: lapisGesv},
		{op: "dgesv", impl: "lapis, 1 thread (SetThreads(1))", threads: 1, busy: true, f: lapisGesv},
		{op: "dgesv", impl: implC + ", OpenBLAS at its " + plural(full, "thread"), threads: full, busy: true, f: cGesv},
		gonumGesv,
	}
}
