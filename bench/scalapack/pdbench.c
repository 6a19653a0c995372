// pdgesv.c: the C reference for examples/dist: the same ScaLAPACK calls
// (Cblacs grid, descinit_, pdgesv_ on the same matrix, 64 x 64 blocks),
// timed the same way (barrier, MPI_Wtime, barrier), to tell lapis's cost
// from ScaLAPACK's and the machine's. Not built by go (no Go files here):
//   mpicc -O2 -o /tmp/pdgesv-c bench/scalapack/pdgesv.c $(pkg-config --libs scalapack-openmpi)
//   mpirun --oversubscribe -np 4 /tmp/pdgesv-c 2000 2     (n, grid rows P)
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include "../../dist/lapis_dist.h"
static double elem(int n, int i, int j) {
	unsigned long long h = (unsigned long long)i*0x9E3779B97F4A7C15ULL ^ (unsigned long long)j*0xC2B2AE3D27D4EB4FULL;
	h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 32;
	double v = (double)(h>>11)/9007199254740992.0*2-1;
	if (i==j) v += n;
	return v;
}
int main(int argc, char **argv) {
	int prov; MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov);
	int n = atoi(argv[1]), nb = 64, P = atoi(argv[2]);
	int me, np; Cblacs_pinfo(&me, &np);
	int Q = np / P, ctxt; Cblacs_get(-1, 0, &ctxt); Cblacs_gridinit(&ctxt, "Row", P, Q);
	int nprow, npcol, myrow, mycol; Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
	int zero = 0, one = 1;
	int mloc = numroc_(&n, &nb, &myrow, &zero, &nprow), nloc = numroc_(&n, &nb, &mycol, &zero, &npcol);
	int nl1 = numroc_(&one, &nb, &mycol, &zero, &npcol);
	int lld = mloc > 1 ? mloc : 1, info;
	int desca[9], descb[9];
	descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
	descinit_(descb, &n, &one, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
	double *a = malloc(sizeof(double)*lld*nloc), *b = malloc(sizeof(double)*lld*(nl1>0?nl1:1));
	for (int lj = 0; lj < nloc; lj++) { int j1 = lj+1; int gj = indxl2g_(&j1, &nb, &mycol, &zero, &npcol)-1;
		for (int li = 0; li < mloc; li++) { int i1 = li+1; int gi = indxl2g_(&i1, &nb, &myrow, &zero, &nprow)-1; a[li+lj*lld] = elem(n, gi, gj); } }
	for (int li = 0; li < mloc*nl1; li++) b[li] = 1;
	int *ipiv = malloc(sizeof(int)*(mloc+nb));
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	pdgesv_(&n, &one, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);
	MPI_Barrier(MPI_COMM_WORLD);
	double t = MPI_Wtime() - t0;
	if (me == 0) printf("C pdgesv n=%d %dx%d: %.3f s info %d\n", n, P, Q, t, info);
	Cblacs_gridexit(ctxt); Cblacs_exit(1); MPI_Finalize();
	return 0;
}
