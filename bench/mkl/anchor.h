// anchor.h: the C side of bench/mkl (anchor.c), MKL only.
enum { ANCHOR_SOLVE, ANCHOR_CHOLESKY, ANCHOR_INV, ANCHOR_DET };
int anchor_format(void);
int anchor_tiny(int op, int n, int count, int packed, const double *a0, const double *b0,
		double *x, double *xd, int reps, double *times);
void anchor_gemm(int n, int count, int strided, const double *a, const double *b, double *c, int reps, double *times);
