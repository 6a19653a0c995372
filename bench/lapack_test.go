package bench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/bench/cref"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/netlib/lapack/lapacke"
	"gonum.org/v1/netlib/lapack/netlib"
)

// BenchmarkLapack: float64 LAPACK routines on one OpenBLAS thread, every
// impl on the same matrix (fixed seed), its inputs restored from a pristine
// copy before each call, untimed (b.StopTimer), identically for every impl.
//
//	op=gesv/n=1000/nrhs=1|100  a x = b, a diagonally dominant (GFLOP/s: 2n³/3 + 2n²·nrhs)
//	op=potrf/n=1000            Cholesky of aᵀa + nI, lower               (n³/3)
//	op=geqrf/n=1000            QR of a random a                          (4n³/3)
//	op=gesdd/n=500             SVD, all vectors (jobz = 'A')             (ns/op only)
//	op=gesvd/n=500             SVD, all vectors (jobu = jobvt = 'A')
//	op=syevd/n=500             eigenvalues and vectors of aᵀa + nI
//	op=svd-helper/n=500        lapack.SVD against mat.SVD (+ UTo, VTo)
//	op=eigsym-helper/n=500     lapack.EigSym against mat.EigenSym (+ VectorsTo)
//
// impl=c calls the Fortran routine in libopenblas directly (lapackref.go),
// column-major, workspace queried once outside the timed loop. impl=lapis
// is package lapack on column-major views of the same kind of buffer: it
// must copy no operand (lapis.ReadStats; the helpers' copy of a, which
// they keep by design, is not such a copy), and reports its LAPACK calls
// per op. impl=netlib is what a gonum user plugs into lapack64.Use:
// netlib.Implementation's methods on the row-major matrix (gesv is its
// Dgetrf + Dgetrs, as lapack.Float64 has no Dgesv; impl=netlib-gesv is the
// single lapacke.Dgesv call), and, for gesdd and syevd, which
// lapack.Float64 lacks, the same module's row-major LAPACKE bindings
// (lapacke.Dgesdd, lapacke.Dsyevd); workspace is queried once up front. impl=gonum is pure-Go gonum: lapack/gonum's Implementation for
// the routines it has (Dgetrf + Dgetrs, Dpotrf, Dgeqrf, Dgesvd), and
// mat.SVD (SVDFull, which runs Dgesvd) and mat.EigenSym (Dsyev) where
// gonum has no divide-and-conquer routine (gesdd, syevd) and for the
// helpers.
func BenchmarkLapack(b *testing.B) {
	defer setBLASThreads(setBLASThreads(1))
	printBLAS()
	rng := rand.New(rand.NewPCG(5, 5))
	for _, mk := range []func() lapackOp{
		func() lapackOp { return gesvOp(rng, 1000, 1) },
		func() lapackOp { return gesvOp(rng, 1000, 100) },
		func() lapackOp { return potrfOp(rng, 1000) },
		func() lapackOp { return geqrfOp(rng, 1000) },
		func() lapackOp { return svdOp(rng, "gesdd", 500) },
		func() lapackOp { return svdOp(rng, "gesvd", 500) },
		func() lapackOp { return syevdOp(rng, 500) },
		func() lapackOp { return svdOp(rng, "svd-helper", 500) },
		func() lapackOp { return syevdOp(rng, 500, "eigsym-helper") },
	} {
		op := mk()
		for _, impl := range op.impls {
			b.Run(fmt.Sprintf("op=%s/impl=%s", op.name, impl.name), func(b *testing.B) {
				lapackBench(b, op.flops, impl)
			})
		}
	}
}

// lapackBench times impl.call in a loop, restoring its inputs before each
// call with the timer stopped. For impl=lapis it fails unless no operand
// was copied, and reports the LAPACK calls made per op.
func lapackBench(b *testing.B, flops float64, impl lapackImpl) {
	b.ReportAllocs()
	before := lapis.ReadStats()
	for b.Loop() {
		b.StopTimer()
		impl.restore()
		b.StartTimer()
		if err := impl.call(); err != nil {
			b.Fatal(err)
		}
	}
	if flops > 0 {
		reportGFLOPS(b, flops)
	}
	if impl.lapis {
		after := lapis.ReadStats()
		if d := after.Copies - before.Copies; d != 0 {
			b.Fatalf("lapis copied %d operands over %d calls", d, b.N)
		}
		b.ReportMetric(float64(after.Lapack-before.Lapack)/float64(b.N), "lapack-calls/op")
	}
}

// lapackOp is one group of BenchmarkLapack: op=name, its flop count (0 for
// ns/op only) and its impls, each with buffers of its own.
type lapackOp struct {
	name  string
	flops float64
	impls []lapackImpl
}

// lapackImpl is one impl of an op.
type lapackImpl struct {
	name    string
	restore func()       // copies the pristine inputs into the impl's buffers
	call    func() error // the timed call
	// result is what the call computed, in one form for all impls of the
	// op (TestLapackImplsAgree): the solution column-major (gesv), L
	// column-major with zeros above (potrf), |diag R| (geqrf), the singular
	// values descending (SVDs), the eigenvalues ascending (syevd).
	result func() []float64
	lapis  bool // check that no operand was copied
}

// dmat is one r x c matrix stored both ways: col is column-major, row
// row-major.
type dmat struct {
	r, c     int
	col, row []float64
}

func newDmat(r, c int, col []float64) dmat {
	m := dmat{r: r, c: c, col: col, row: make([]float64, len(col))}
	for i := range r {
		for j := range c {
			m.row[i*c+j] = col[i+j*r]
		}
	}
	return m
}

// randDmat has entries uniform in [-1, 1).
func randDmat(rng *rand.Rand, r, c int) dmat { return newDmat(r, c, random(rng, r*c)) }

// spdDmat is aᵀa + nI for a random n x n a: symmetric, eigenvalues >= n.
func spdDmat(rng *rand.Rand, n int) dmat {
	a := random(rng, n*n)
	s := make([]float64, n*n)
	cref.Dgemm(1, &cref.Gemm{TransA: true, M: n, N: n, K: n, Alpha: 1, A: a, LdA: n, B: a, LdB: n, C: s, LdC: n})
	for i := range n {
		s[i+i*n] += float64(n)
	}
	for j := range n { // exactly symmetric
		for i := j + 1; i < n; i++ {
			s[j+i*n] = s[i+j*n]
		}
	}
	return newDmat(n, n, s)
}

// restorer copies each src into its dst: restorer(dst0, src0, dst1, src1...).
func restorer(pairs ...[]float64) func() {
	return func() {
		for i := 0; i < len(pairs); i += 2 {
			copy(pairs[i], pairs[i+1])
		}
	}
}

// toCol returns the r x c row-major m column-major.
func toCol(r, c int, m []float64) []float64 { return newDmat(c, r, m).row }

// lowerCol returns the lower triangle of the n x n column-major a, zeros above.
func lowerCol(n int, a []float64) []float64 {
	l := slices.Clone(a)
	for j := range n {
		for i := range j {
			l[i+j*n] = 0
		}
	}
	return l
}

// absDiag returns |a[i][i]| of the n x n a (either storage order).
func absDiag(n int, a []float64) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = max(a[i+i*n], -a[i+i*n])
	}
	return d
}

var errNotOK = errors.New("routine reported failure")

func okErr(impl string, ok bool) error {
	if !ok {
		return fmt.Errorf("%s: %w", impl, errNotOK)
	}
	return nil
}

var (
	netlibImpl netlib.Implementation
	gonumImpl  gonum.Implementation
)

// gesvOp solves a x = b for n x n diagonally dominant a and n x nrhs b.
func gesvOp(rng *rand.Rand, n, nrhs int) lapackOp {
	a := randDmat(rng, n, n)
	for i := range n {
		a.col[i+i*n] += float64(n)
	}
	a = newDmat(n, n, a.col)
	bm := randDmat(rng, n, nrhs)
	op := lapackOp{name: fmt.Sprintf("gesv/n=%d/nrhs=%d", n, nrhs),
		flops: 2*float64(n)*float64(n)*float64(n)/3 + 2*float64(n)*float64(n)*float64(nrhs)}

	ca, cb := slices.Clone(a.col), slices.Clone(bm.col)
	ref := newDgesvRef(n, nrhs, ca, cb)
	op.impls = append(op.impls, lapackImpl{name: "c", restore: restorer(ca, a.col, cb, bm.col), call: ref.call,
		result: func() []float64 { return cb }})
	op.impls = append(op.impls, gesvLapis(n, nrhs, a, bm)...)

	na, nb, ipiv := slices.Clone(a.row), slices.Clone(bm.row), make([]int, n)
	op.impls = append(op.impls, lapackImpl{name: "netlib", restore: restorer(na, a.row, nb, bm.row),
		call: func() error {
			if !netlibImpl.Dgetrf(n, n, na, n, ipiv) {
				return okErr("netlib Dgetrf", false)
			}
			netlibImpl.Dgetrs(blas.NoTrans, n, nrhs, na, n, ipiv, nb, nrhs)
			return nil
		},
		result: func() []float64 { return toCol(n, nrhs, nb) }})

	la, lb, ipiv32 := slices.Clone(a.row), slices.Clone(bm.row), make([]int32, n)
	op.impls = append(op.impls, lapackImpl{name: "netlib-gesv", restore: restorer(la, a.row, lb, bm.row),
		call:   func() error { return okErr("lapacke.Dgesv", lapacke.Dgesv(n, nrhs, la, n, ipiv32, lb, nrhs)) },
		result: func() []float64 { return toCol(n, nrhs, lb) }})

	ga, gb, gpiv := slices.Clone(a.row), slices.Clone(bm.row), make([]int, n)
	op.impls = append(op.impls, lapackImpl{name: "gonum", restore: restorer(ga, a.row, gb, bm.row),
		call: func() error {
			if !gonumImpl.Dgetrf(n, n, ga, n, gpiv) {
				return okErr("gonum Dgetrf", false)
			}
			gonumImpl.Dgetrs(blas.NoTrans, n, nrhs, ga, n, gpiv, gb, nrhs)
			return nil
		},
		result: func() []float64 { return toCol(n, nrhs, gb) }})
	return op
}

// potrfOp factors the n x n aᵀa + nI as L Lᵀ (lower triangle).
func potrfOp(rng *rand.Rand, n int) lapackOp {
	s := spdDmat(rng, n) // symmetric: col == row
	op := lapackOp{name: fmt.Sprintf("potrf/n=%d", n), flops: float64(n) * float64(n) * float64(n) / 3}
	ca := slices.Clone(s.col)
	ref := &dpotrfRef{n: n, a: ca}
	op.impls = append(op.impls, lapackImpl{name: "c", restore: restorer(ca, s.col), call: ref.call,
		result: func() []float64 { return lowerCol(n, ca) }})
	op.impls = append(op.impls, potrfLapis(n, s)...)
	na := slices.Clone(s.row)
	op.impls = append(op.impls, lapackImpl{name: "netlib", restore: restorer(na, s.row),
		call:   func() error { return okErr("netlib Dpotrf", netlibImpl.Dpotrf(blas.Lower, n, na, n)) },
		result: func() []float64 { return lowerCol(n, toCol(n, n, na)) }})
	ga := slices.Clone(s.row)
	op.impls = append(op.impls, lapackImpl{name: "gonum", restore: restorer(ga, s.row),
		call:   func() error { return okErr("gonum Dpotrf", gonumImpl.Dpotrf(blas.Lower, n, ga, n)) },
		result: func() []float64 { return lowerCol(n, toCol(n, n, ga)) }})
	return op
}

// geqrfOp is the QR factorization of a random n x n matrix.
func geqrfOp(rng *rand.Rand, n int) lapackOp {
	a := randDmat(rng, n, n)
	op := lapackOp{name: fmt.Sprintf("geqrf/n=%d", n), flops: 4 * float64(n) * float64(n) * float64(n) / 3}
	ca := slices.Clone(a.col)
	ref := newDgeqrfRef(n, ca)
	op.impls = append(op.impls, lapackImpl{name: "c", restore: restorer(ca, a.col), call: ref.call,
		result: func() []float64 { return absDiag(n, ca) }})
	op.impls = append(op.impls, geqrfLapis(n, a)...)
	for _, impl := range []struct {
		name string
		f    func(m, n int, a []float64, lda int, tau, work []float64, lwork int)
	}{{"netlib", netlibImpl.Dgeqrf}, {"gonum", gonumImpl.Dgeqrf}} {
		ra, tau, work := slices.Clone(a.row), make([]float64, n), make([]float64, 1)
		impl.f(n, n, ra, n, tau, work, -1)
		work = make([]float64, max(1, int(work[0])))
		op.impls = append(op.impls, lapackImpl{name: impl.name, restore: restorer(ra, a.row),
			call:   func() error { impl.f(n, n, ra, n, tau, work, len(work)); return nil },
			result: func() []float64 { return absDiag(n, ra) }})
	}
	return op
}

// svdOp is the SVD of a random n x n matrix with all singular vectors:
// kind gesdd, gesvd or svd-helper (lapack.SVD, mat.SVD with U and V out).
func svdOp(rng *rand.Rand, kind string, n int) lapackOp {
	a := randDmat(rng, n, n)
	op := lapackOp{name: fmt.Sprintf("%s/n=%d", kind, n)}
	ca := slices.Clone(a.col)
	ref := newDsvdRef(kind != "gesvd", n, ca)
	op.impls = append(op.impls, lapackImpl{name: "c", restore: restorer(ca, a.col), call: ref.call,
		result: func() []float64 { return ref.s }})
	op.impls = append(op.impls, svdLapis(kind, n, a)...)

	switch kind {
	case "gesdd":
		na, s, u, vt, iwork := slices.Clone(a.row), make([]float64, n), make([]float64, n*n), make([]float64, n*n), make([]int32, 8*n)
		work := make([]float64, 1)
		lapacke.Dgesdd('A', n, n, na, n, s, u, n, vt, n, work, -1, iwork)
		work = make([]float64, max(1, int(work[0])))
		op.impls = append(op.impls, lapackImpl{name: "netlib", restore: restorer(na, a.row),
			call: func() error {
				return okErr("lapacke.Dgesdd", lapacke.Dgesdd('A', n, n, na, n, s, u, n, vt, n, work, len(work), iwork))
			},
			result: func() []float64 { return s }})
	case "gesvd":
		for _, impl := range []struct {
			name string
			f    func(jobU, jobVT lapack.SVDJob, m, n int, a []float64, lda int, s, u []float64, ldu int, vt []float64, ldvt int, work []float64, lwork int) bool
		}{{"netlib", netlibImpl.Dgesvd}, {"gonum", gonumImpl.Dgesvd}} {
			ra, s, u, vt := slices.Clone(a.row), make([]float64, n), make([]float64, n*n), make([]float64, n*n)
			work := make([]float64, 1)
			impl.f(lapack.SVDAll, lapack.SVDAll, n, n, ra, n, s, u, n, vt, n, work, -1)
			work = make([]float64, max(1, int(work[0])))
			op.impls = append(op.impls, lapackImpl{name: impl.name, restore: restorer(ra, a.row),
				call: func() error {
					return okErr(impl.name+" Dgesvd", impl.f(lapack.SVDAll, lapack.SVDAll, n, n, ra, n, s, u, n, vt, n, work, len(work)))
				},
				result: func() []float64 { return s }})
		}
		return op
	}
	// mat.SVD copies its input; restoring it anyway keeps the untimed work
	// the same as the other impls'.
	ga := slices.Clone(a.row)
	dense := mat.NewDense(n, n, ga)
	var svd mat.SVD
	var u, v mat.Dense
	s := make([]float64, n)
	call := func() error { return okErr("mat.SVD", svd.Factorize(dense, mat.SVDFull)) }
	if kind == "svd-helper" {
		call = func() error {
			if !svd.Factorize(dense, mat.SVDFull) {
				return okErr("mat.SVD", false)
			}
			svd.Values(s)
			svd.UTo(&u)
			svd.VTo(&v)
			return nil
		}
	}
	op.impls = append(op.impls, lapackImpl{name: "gonum", restore: restorer(ga, a.row), call: call,
		result: func() []float64 { return svd.Values(s) }})
	return op
}

// syevdOp is the symmetric eigendecomposition of the n x n aᵀa + nI with
// vectors: op=syevd, or op=eigsym-helper when name says so (lapack.EigSym,
// mat.EigenSym with the vectors out).
func syevdOp(rng *rand.Rand, n int, name ...string) lapackOp {
	kind := "syevd"
	if len(name) > 0 {
		kind = name[0]
	}
	a := spdDmat(rng, n)
	op := lapackOp{name: fmt.Sprintf("%s/n=%d", kind, n)}
	ca := slices.Clone(a.col)
	ref := newDsyevdRef(n, ca)
	op.impls = append(op.impls, lapackImpl{name: "c", restore: restorer(ca, a.col), call: ref.call,
		result: func() []float64 { return ref.w }})
	op.impls = append(op.impls, syevdLapis(kind, n, a)...)

	if kind == "syevd" {
		na, w := slices.Clone(a.row), make([]float64, n)
		work, iwork := make([]float64, 1), make([]int32, 1)
		lapacke.Dsyevd('V', 'L', n, na, n, w, work, -1, iwork, -1)
		work, iwork = make([]float64, max(1, int(work[0]))), make([]int32, max(1, int(iwork[0])))
		op.impls = append(op.impls, lapackImpl{name: "netlib", restore: restorer(na, a.row),
			call: func() error {
				return okErr("lapacke.Dsyevd", lapacke.Dsyevd('V', 'L', n, na, n, w, work, len(work), iwork, len(iwork)))
			},
			result: func() []float64 { return w }})
	}
	ga := slices.Clone(a.row)
	sym := mat.NewSymDense(n, ga)
	var es mat.EigenSym
	var vecs mat.Dense
	w := make([]float64, n)
	call := func() error { return okErr("mat.EigenSym", es.Factorize(sym, true)) }
	if kind == "eigsym-helper" {
		call = func() error {
			if !es.Factorize(sym, true) {
				return okErr("mat.EigenSym", false)
			}
			es.Values(w)
			es.VectorsTo(&vecs)
			return nil
		}
	}
	op.impls = append(op.impls, lapackImpl{name: "gonum", restore: restorer(ga, a.row), call: call,
		result: func() []float64 { return es.Values(w) }})
	return op
}
