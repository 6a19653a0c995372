// pdbench.c: the C control for lapis's dist benchmarks (bench/distbench,
// scripts/bench-dist.sh): the same ScaLAPACK calls as dist.Gesv, dist.Gemm
// and dist.Potrf (Cblacs row-major grid, descinit_, nb x nb blocks, the
// same matrices), timed the same way (MPI_Barrier, MPI_Wtime, the call,
// MPI_Barrier) and printed in the same format, to tell lapis's cost from
// ScaLAPACK's and the machine's. Not built by go (no Go files here):
//   mpicc -O2 -o /tmp/pdbench-c bench/scalapack/pdbench.c $(pkg-config --libs scalapack-openmpi)
//   mpirun --oversubscribe -np 2 /tmp/pdbench-c gesv 4000 1 64 3
//       (routine gesv|gemm|potrf, n, grid rows P (Q = ranks / P), nb, repetitions)
// Each repetition refills the operands (untimed). Rank 0 prints one line
//   RESULT impl=c op=gesv n=4000 nb=64 grid=1x2 ranks=2 reps=3 median=... min=... times=...,...
// with the slowest rank's time of each repetition (the barrier after the
// call makes every rank wait for the slowest), in seconds.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "../../dist/lapis_dist.h"

// elem is the matrix of bench/distbench and examples/dist: pseudo-random
// entries in [-1, 1) with n added on the diagonal; symmetric when sym
// (then symmetric positive definite: strictly diagonally dominant).
static double elem(int n, int i, int j, int sym) {
	if (sym && j < i) { int t = i; i = j; j = t; }
	unsigned long long h = (unsigned long long)i*0x9E3779B97F4A7C15ULL ^ (unsigned long long)j*0xC2B2AE3D27D4EB4FULL;
	h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 32;
	double v = (double)(h>>11)/9007199254740992.0*2-1;
	if (i==j) v += n;
	return v;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv) {
	int prov; MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov);
	if (argc != 6 || (strcmp(argv[1], "gesv") && strcmp(argv[1], "gemm") && strcmp(argv[1], "potrf"))) {
		fprintf(stderr, "usage: pdbench gesv|gemm|potrf n P nb reps\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	const char *op = argv[1];
	int n = atoi(argv[2]), P = atoi(argv[3]), nb = atoi(argv[4]), reps = atoi(argv[5]);
	int me, np; Cblacs_pinfo(&me, &np);
	int Q = np / P, ctxt; Cblacs_get(-1, 0, &ctxt); Cblacs_gridinit(&ctxt, "Row", P, Q);
	int nprow, npcol, myrow, mycol; Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
	int zero = 0, one = 1, info = 0;
	int mloc = numroc_(&n, &nb, &myrow, &zero, &nprow), nloc = numroc_(&n, &nb, &mycol, &zero, &npcol);
	int nl1 = numroc_(&one, &nb, &mycol, &zero, &npcol);
	int lld = mloc > 1 ? mloc : 1;
	int desca[9], descb[9];
	descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
	int ncolb = strcmp(op, "gemm") == 0 ? n : 1, nlb = strcmp(op, "gemm") == 0 ? nloc : nl1;
	descinit_(descb, &n, &ncolb, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
	double *a = malloc(sizeof(double)*lld*(nloc>0?nloc:1));
	double *b = malloc(sizeof(double)*lld*(nlb>0?nlb:1));
	double *c = strcmp(op, "gemm") == 0 ? malloc(sizeof(double)*lld*(nloc>0?nloc:1)) : NULL;
	int *ipiv = malloc(sizeof(int)*(mloc+nb));
	int sym = strcmp(op, "potrf") == 0;
	double *times = malloc(sizeof(double)*reps);
	double done = 1, dzero = 0;
	for (int r = 0; r < reps; r++) {
		for (int lj = 0; lj < nloc; lj++) { int j1 = lj+1; int gj = indxl2g_(&j1, &nb, &mycol, &zero, &npcol)-1;
			for (int li = 0; li < mloc; li++) { int i1 = li+1; int gi = indxl2g_(&i1, &nb, &myrow, &zero, &nprow)-1;
				a[li+lj*lld] = elem(n, gi, gj, sym);
				if (c) { b[li+lj*lld] = elem(n, gj, gi, 0); c[li+lj*lld] = 0; } } }
		if (!c) for (int li = 0; li < mloc*nl1; li++) b[li] = 1;
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		if (strcmp(op, "gesv") == 0) {
			pdgesv_(&n, &one, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);
		} else if (strcmp(op, "gemm") == 0) {
			pdgemm_("N", "N", &n, &n, &n, &done, a, &one, &one, desca, b, &one, &one, descb,
			        &dzero, c, &one, &one, desca, 1, 1);
		} else {
			pdpotrf_("L", &n, a, &one, &one, desca, &info, 1);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		times[r] = MPI_Wtime() - t0;
		if (info != 0) { fprintf(stderr, "rank %d: pd%s info %d\n", me, op, info); MPI_Abort(MPI_COMM_WORLD, 1); }
	}
	if (me == 0) {
		printf("RESULT impl=c op=%s n=%d nb=%d grid=%dx%d ranks=%d reps=%d", op, n, nb, P, Q, np, reps);
		double *s = malloc(sizeof(double)*reps); memcpy(s, times, sizeof(double)*reps);
		qsort(s, reps, sizeof(double), cmp);
		double med = reps % 2 ? s[reps/2] : (s[reps/2-1]+s[reps/2])/2;
		printf(" median=%.6f min=%.6f times=", med, s[0]);
		for (int r = 0; r < reps; r++) printf(r ? ",%.6f" : "%.6f", times[r]);
		printf("\n");
	}
	Cblacs_gridexit(ctxt); Cblacs_exit(1); MPI_Finalize();
	return 0;
}
