// Package gonumlapack implements gonum's lapack.Float64 on the LAPACK
// inside the library lapis links (OpenBLAS by default), with gonum's
// conventions: row-major matrices (a[i*lda+j]), zero-based pivots,
// workspace queries (lwork == -1) answered in work[0], ok results, and
// panics with gonum's own messages on bad arguments. With package
// gonumblas for BLAS, two lines put gonum/mat on OpenBLAS:
//
//	blas64.Use(gonumblas.Implementation{})
//	lapack64.Use(gonumlapack.Implementation{})
//
// # Layout
//
// A row-major m x n matrix is the column-major n x m matrix S = A^T on the
// same memory (leading dimension lda):
//
//	A, row-major (gonum)          S = A^T, column-major (LAPACK)
//	a[i*lda+j] = A[i][j]          the same a[i*lda+j] = S[j][i]
//	m rows of n, lda apart        m columns of n, lda apart
//
// so most methods are LAPACK on S with no copy, through an identity:
//
//	Dpotrf, Dpotri, Dpocon, Dpstrf   uplo swapped (A is symmetric: S = A)
//	Dpbtrf, Dpbcon                   uplo swapped (gonum's row-major band
//	                                 storage is LAPACK's other triangle)
//	Dtrtri                           uplo swapped: (A^-1)^T = (A^T)^-1
//	Dtrcon, Dlantr, Dlange           uplo swapped, norm 'O' <-> 'I'
//	Dlansy                           uplo swapped
//	Dgeqrf, Dgelqf                   ?gelqf, ?geqrf on S: A = Q R is S = R^T Q^T,
//	                                 the same reflectors and tau
//	Dorgqr, Dorglq                   ?orglq, ?orgqr on S
//	Dormqr, Dormlq                   ?ormlq, ?ormqr on S, C^T: side swapped,
//	                                 trans kept (transposing C flips it, and
//	                                 the LQ product of the same reflectors is
//	                                 the transposed Q)
//	Dlapmr, Dlapmt                   ?lapmt, ?lapmr on S
//	Dsyev                            ?syevd (divide and conquer, gonum's Dsyev
//	                                 contract) on S, uplo swapped; the
//	                                 eigenvectors LAPACK writes as columns of
//	                                 S are transposed in place (one copy)
//
// The solves with a right-hand side B are LAPACK's own algorithms on S
// through lapis's BLAS (gonumblas), because LAPACK's ?getrs, ?potrs,
// ?trtrs, ?pbtrs and ?tbtrs want a column-major B and the row-major B is
// its transpose; they are row interchanges and triangular solves (?trsm,
// ?trsv for Dgetrs with one right-hand side, ?tbsv), which take either
// order, so they copy nothing:
//
//	Dgetrs, Dpotrs, Dtrtrs, Dpbtrs, Dtbtrs
//
// Dgecon is LAPACK's dgecon algorithm driven from Go (dlacn2's estimator,
// dlatrs's scaled triangular solves) on S, which holds U^T below the
// diagonal and L^T above: each solve is the transposed one with the other
// triangle, so it copies nothing either (?gecon itself would need the
// factors in LAPACK's order).
//
// The rest have no transposed form in LAPACK (row pivoting, column
// pivoting, eigenvectors of a nonsymmetric matrix) and go through a
// compact column-major copy made by the views copy engine, counted in
// lapis.ReadStats().Copies (one per operand copied):
//
//	Dgetrf   a in and out (row pivoting)
//	Dgetri   a in and out
//	Dgeqp3   a in and out (column pivoting)
//	Dgeev    a in, vl and vr out
//	Dggsvd3  a and b in and out, u, v and q out
//	Dgesvd   a in, u and vt out (a is left unchanged)
//	Dgels    b in and out (a goes in place, trans swapped), none when
//	         nrhs == 1 and ldb == 1
//
// Dgesvd, behind mat.SVD, runs ?gesvd, gonum's algorithm, so that its
// singular vectors have gonum's signs; DivideAndConquer makes it run
// ?gesdd (3-5x faster for n = 500 on one thread), whose singular values
// agree to rounding but some of whose vector pairs (u_i, v_i) come out
// negated (about half of them for n = 500), as either sign is a valid
// SVD (see Dgesvd). If ?gesdd fails to converge, Dgesvd answers with
// ?gesvd.
//
// Workspaces: a query answers LAPACK's own optimal size for the routine
// actually called (never less than gonum's documented minimum); a call
// hands the caller's work to LAPACK when it is long enough for that
// routine and takes a pooled buffer otherwise (Dsyev: ?syevd needs more
// than gonum's minimum for eigenvectors). iwork arguments are gonum's
// []int; LAPACK's integers come from a pool.
//
// A size that does not fit LAPACK's integer panics with an error
// matching layout.ErrOverflow (gonum's integers are Go ints, so gonum has
// no message for it). Every call into LAPACK counts in
// lapis.ReadStats().Lapack, and the solves' BLAS calls in Calls.
//
// # Aliasing
//
// As in LAPACK: a routine's outputs may not overlap its inputs except
// where it works in place (a in Dgetrf, b in Dgetrs, ...); any other
// overlap gives undefined results, as it does in gonum. The copies
// counted above are lapis's own buffers and never alias the caller's.
//
// Implementation holds DivideAndConquer only; its methods may be called
// concurrently. gonum's lapack.Float64 is one element type, so each
// method is its routine's implementation (nothing is per type, nothing
// is generated, unlike gonumblas's).
package gonumlapack
