package lapack

import (
	"math"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Eigenvalue problems.

func checkEigJob(op string, jobz Job) error {
	if jobz != JobVectors && jobz != JobNone {
		return layout.Errorf(lapis.ErrInvalid, op, "jobz", "value %q is neither JobVectors nor JobNone", byte(jobz))
	}
	return nil
}

// Syevd computes all eigenvalues (and with JobVectors the eigenvectors) of
// the n x n symmetric, for complex types Hermitian, view a, of which the
// uplo triangle is read, by divide and conquer: w (at least n long, reals
// of a's precision) receives the eigenvalues in ascending order and, with
// JobVectors, a the orthonormal eigenvectors as columns (a = V diag(w)
// V^H); with JobNone a's triangle is destroyed. For complex types it is
// LAPACK's heevd.
//
// NaN and Inf: a NaN or an infinity in what it reads is an error
// matching lapis.ErrNotFinite, found before LAPACK runs; nothing is
// written (see the package documentation).
func Syevd[T Scalar, R Real](jobz Job, uplo Uplo, a views.View[T], w []R, opts ...lapis.Option) error {
	const op = "lapack.Syevd"
	if err := realFor[T, R](op, "w"); err != nil {
		return err
	}
	if err := checkEigJob(op, jobz); err != nil {
		return err
	}
	oa, n, err := squareOperand(op, "a", uplo, a, read|write|overRead|tridiagonal, lapis.Configure(opts...))
	if err == nil {
		if err = sliceLen(op, "w", len(w), n); err == nil {
			err = sliceApart(op, "w", w, &oa)
		}
		if err != nil {
			oa.release()
		}
	}
	if err != nil {
		return err
	}
	if err := checkFinite(op, readTriangle("a", a, uplo)); err != nil {
		oa.release()
		return err
	}
	jz, ul := byte(jobz), uploChar(uplo, &oa)
	ws := wspace.Remember(wspace.Key{Fam: "xsyevd", Type: scalar.Index[T](), Dims: [4]int{n}, Opts: [3]byte{jz, ul}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, rwork, iwork unsafe.Pointer) {
			clib.Syevd[T](jz, ul, n, oa.ptr, oa.ld, clib.Ptr(w), work, -1, rwork, -1, iwork, -1)
		})
	})
	wk := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n))
	info := clib.Syevd[T](jz, ul, n, oa.ptr, oa.ld, clib.Ptr(w), wk.workPtr(), max(1, ws.Work), wk.rworkPtr(), max(1, ws.RWork), wk.iworkPtr(), max(1, ws.IWork))
	th.End()
	wk.put()
	oa.finish()
	return infoErr[T](op, "xsyevd", info)
}

// Range selects the eigenvalues Syevr computes.
type Range struct {
	kind   byte
	lo, hi float64
	il, iu int
}

// AllValues selects every eigenvalue.
func AllValues() Range { return Range{kind: 'A'} }

// ValuesIn selects the eigenvalues in the half-open interval (lo, hi].
func ValuesIn(lo, hi float64) Range { return Range{kind: 'V', lo: lo, hi: hi} }

// IndicesIn selects the first-th to the last-th smallest eigenvalues
// (0-based, inclusive).
func IndicesIn(first, last int) Range { return Range{kind: 'I', il: first, iu: last} }

// Syevr computes the eigenvalues selected by rng (and with JobVectors
// their eigenvectors) of the n x n symmetric, for complex types Hermitian,
// view a (its uplo triangle is read and destroyed) by relatively robust
// representations. It returns how many it found, found: w (at least n
// long) receives them in ascending order, and with JobVectors the n x k
// view z (k >= found; k = n always suffices) their orthonormal
// eigenvectors in its first found columns; with JobNone z is not
// referenced. For complex types it is LAPACK's heevr.
//
// NaN and Inf: a NaN or an infinity in what it reads is an error
// matching lapis.ErrNotFinite, found before LAPACK runs; nothing is
// written (see the package documentation).
func Syevr[T Scalar, R Real](jobz Job, uplo Uplo, rng Range, a views.View[T], w []R, z views.View[T], opts ...lapis.Option) (found int, err error) {
	const op = "lapack.Syevr"
	if err := realFor[T, R](op, "w"); err != nil {
		return 0, err
	}
	if err := checkEigJob(op, jobz); err != nil {
		return 0, err
	}
	cfg := lapis.Configure(opts...)
	oa, n, err := squareOperand(op, "a", uplo, a, read|write|overRead|tridiagonal, cfg)
	if err != nil {
		return 0, err
	}
	switch rng.kind {
	case 'A', 'V':
	case 'I':
		if n > 0 && (rng.il < 0 || rng.il > rng.iu || rng.iu >= n) {
			err = layout.Errorf(layout.ErrBounds, op, "rng", "indices [%d, %d] outside [0, %d)", rng.il, rng.iu, n)
		}
	default:
		err = layout.Errorf(lapis.ErrInvalid, op, "rng", "not made by AllValues, ValuesIn or IndicesIn")
	}
	if err == nil && rng.kind == 'V' && (math.IsNaN(rng.lo) || math.IsNaN(rng.hi)) {
		err = layout.Errorf(lapis.ErrInvalid, op, "rng", "interval (%g, %g] has a NaN bound", rng.lo, rng.hi)
	}
	if err == nil && rng.kind == 'V' && !(rng.lo < rng.hi) {
		err = layout.Errorf(lapis.ErrInvalid, op, "rng", "interval (%g, %g] is empty", rng.lo, rng.hi)
	}
	if err == nil {
		err = sliceLen(op, "w", len(w), n)
	}
	var oz arg[T]
	if err == nil {
		err = z.CheckLive(op, "z") // a released z is a mistake even with JobNone
	}
	if err == nil && jobz == JobVectors {
		// read too: columns past the ones found keep their values even
		// when z is copied.
		if oz, err = prepare(op, "z", z, read|write|overRead, cfg); err == nil {
			want := n
			if rng.kind == 'I' {
				want = rng.iu - rng.il + 1
			}
			switch {
			case oz.rows != n:
				err = layout.Errorf(layout.ErrShape, op, "z", "%d rows, want a's order %d", oz.rows, n)
			case oz.cols < want:
				err = layout.Errorf(layout.ErrShape, op, "z", "%d columns, want at least %d", oz.cols, want)
			default:
				err = noOverlap(op, []string{"a", "z"}, &oa, &oz)
			}
			if err == nil {
				err = sliceApart(op, "w", w, &oa, &oz)
			}
		}
	} else {
		oz.ld = 1
	}
	if err == nil {
		err = checkFinite(op, readTriangle("a", a, uplo))
	}
	if err != nil || n == 0 { // LAPACK's index checks assume n >= 1
		releaseAll(&oa, &oz)
		return 0, err
	}
	jz, rg, ul := byte(jobz), rng.kind, uploChar(uplo, &oa)
	il, iu := rng.il+1, rng.iu+1
	if rng.kind != 'I' {
		il, iu = 1, max(1, n)
	}
	isuppz := wspace.GetInts(2 * max(1, n))
	ws := wspace.Remember(wspace.Key{Fam: "xsyevr", Type: scalar.Index[T](), Dims: [4]int{n}, Opts: [3]byte{jz, rg, ul}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, rwork, iwork unsafe.Pointer) {
			var m int
			clib.Syevr[T](jz, rg, ul, n, oa.ptr, oa.ld, rng.lo, rng.hi, il, iu, 0, &m, clib.Ptr(w), oz.ptr, oz.ld, isuppz.Ptr(), work, -1, rwork, -1, iwork, -1)
		})
	})
	wk := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n))
	info := clib.Syevr[T](jz, rg, ul, n, oa.ptr, oa.ld, rng.lo, rng.hi, il, iu, 0, &found, clib.Ptr(w), oz.ptr, oz.ld, isuppz.Ptr(),
		wk.workPtr(), max(1, ws.Work), wk.rworkPtr(), max(1, ws.RWork), wk.iworkPtr(), max(1, ws.IWork))
	th.End()
	wk.put()
	isuppz.Put()
	finishAll(&oa, &oz)
	return found, infoErr[T](op, "xsyevr", info)
}

// Complex is the set of complex element types: the eigenvalues of a
// general matrix of type T are complex numbers of T's precision
// (complex64 for float32 and complex64, complex128 otherwise).
type Complex interface{ complex64 | complex128 }

// Geev computes the eigenvalues w (at least n long) of the n x n view a
// (destroyed) and, with JobVectors, its left (jobvl, into the n x n vl:
// u^H a = lambda u^H) and right (jobvr, into vr: a v = lambda v)
// eigenvectors, each normalised to unit length with its largest component
// real. For real types LAPACK stores the vectors of a complex conjugate
// pair w[j], w[j+1] = conj(w[j]) as two real columns: v_j = vr[:, j] +
// i vr[:, j+1] and v_{j+1} = conj(v_j) (Eig unpacks them). An unreferenced
// vl or vr may be views.View[T]{}.
//
// NaN and Inf: a NaN or an infinity in what it reads is an error
// matching lapis.ErrNotFinite, found before LAPACK runs; nothing is
// written (see the package documentation).
func Geev[T Scalar, C Complex](jobvl, jobvr Job, a views.View[T], w []C, vl, vr views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Geev"
	if single := scalar.Index[T]()%2 == 0; single != isComplex64[C]() {
		return layout.Errorf(layout.ErrShape, op, "w", "[]%T for %T elements, want the complex type of its precision", *new(C), *new(T))
	}
	for _, j := range [2]struct {
		name string
		job  Job
	}{{"jobvl", jobvl}, {"jobvr", jobvr}} {
		if err := checkEigJob(op, j.job); err != nil {
			return layout.Errorf(lapis.ErrInvalid, op, j.name, "value %q is neither JobVectors nor JobNone", byte(j.job))
		}
	}
	cfg := lapis.Configure(opts...)
	oa, err := prepare(op, "a", a, read|write|overRead, cfg)
	if err != nil {
		return err
	}
	n, err := square(op, "a", &oa)
	if err == nil {
		err = sliceLen(op, "w", len(w), n)
	}
	var ol, or arg[T]
	if err == nil {
		ol, err = vectorOperand(op, "vl", vl, n, n, jobvl == JobVectors, cfg)
	}
	if err == nil {
		or, err = vectorOperand(op, "vr", vr, n, n, jobvr == JobVectors, cfg)
	}
	if err == nil {
		err = noOverlap(op, []string{"a", "vl", "vr"}, &oa, &ol, &or)
	}
	if err == nil {
		err = sliceApart(op, "w", w, &oa, &ol, &or)
	}
	if err == nil {
		err = checkFinite(op, finite.All("a", a))
	}
	if err != nil {
		releaseAll(&oa, &ol, &or)
		return err
	}
	jl, jr := byte(jobvl), byte(jobvr)
	// Real types get the eigenvalues as (wr, wi) in a pooled buffer of 2n
	// reals; complex ones write w directly.
	var parts *pool.Buf[T]
	wr, wi, wc := unsafe.Pointer(nil), unsafe.Pointer(nil), clib.Ptr(w)
	if scalar.Index[T]() < 2 {
		parts = pool.Get[T](2 * max(1, n))
		clear(parts.Data) // on failure LAPACK leaves some unset
		wr, wi = clib.Ptr(parts.Data), clib.Ptr(parts.Data[max(1, n):])
	}
	ws := wspace.Remember(wspace.Key{Fam: "xgeev", Type: scalar.Index[T](), Dims: [4]int{n}, Opts: [3]byte{jl, jr}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, rwork, _ unsafe.Pointer) {
			clib.Geev[T](jl, jr, n, oa.ptr, oa.ld, wr, wi, wc, ol.ptr, ol.ld, or.ptr, or.ld, work, -1, rwork)
		})
	})
	ws.RWork = 2 * n
	wk := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(n, n, n))
	info := clib.Geev[T](jl, jr, n, oa.ptr, oa.ld, wr, wi, wc, ol.ptr, ol.ld, or.ptr, or.ld, wk.workPtr(), max(1, ws.Work), wk.rworkPtr())
	th.End()
	wk.put()
	if parts != nil {
		re, im := parts.Data[:n], parts.Data[max(1, n):][:n]
		for i := range n {
			w[i] = toComplex[C](re[i], im[i])
		}
		pool.Put(parts)
	}
	finishAll(&oa, &ol, &or)
	return infoErr[T](op, "xgeev", info)
}

func isComplex64[C Complex]() bool {
	_, ok := any(*new(C)).(complex64)
	return ok
}

// toComplex builds a C from the real and imaginary parts re, im of a real
// type T.
func toComplex[C Complex, T Scalar](re, im T) C {
	var r, i float64
	switch p := any(re).(type) {
	case float32:
		r, i = float64(p), float64(any(im).(float32))
	case float64:
		r, i = p, any(im).(float64)
	}
	var c C
	switch q := any(&c).(type) {
	case *complex64:
		*q = complex(float32(r), float32(i))
	case *complex128:
		*q = complex(r, i)
	}
	return c
}

// EigSym returns the eigenvalues w (ascending, as float64 whatever T) and
// orthonormal eigenvectors v (as columns: a v = v diag(w)) of the n x n
// symmetric, for complex types Hermitian, view a, of which only the lower
// triangle is read (lapis.UpperTriangle(): only the upper one). It uses
// LAPACK's divide-and-conquer syevd/heevd.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func EigSym[T Scalar](a views.View[T], opts ...lapis.Option) (w []float64, v *views.Tensor[T], err error) {
	const op = "lapack.EigSym"
	v, err = workCopy(op, a)
	if err != nil {
		return nil, nil, err
	}
	uplo := triangleOf(opts)
	w, err = withReals[T](a.Layout().Dim(0), func(w32 []float32, w64 []float64) error {
		if w32 != nil {
			return Syevd(JobVectors, uplo, v.View(), w32, opts...)
		}
		return Syevd(JobVectors, uplo, v.View(), w64, opts...)
	}) // Syevd scans a's triangle
	if err != nil {
		v.Release()
		return nil, nil, helperErr(op, err, readTriangle("a", a, uplo))
	}
	return w, v, nil
}

// withReals calls f with a slice of n reals of T's precision (the other
// is nil) and returns them as float64.
func withReals[T Scalar](n int, f func(r32 []float32, r64 []float64) error) ([]float64, error) {
	out := make([]float64, n)
	if scalar.Index[T]()%2 == 1 {
		return out, f(nil, out)
	}
	r := pool.Get[float32](n)
	defer pool.Put(r)
	if r.Data == nil {
		r.Data = []float32{} // non-nil: f tells the two apart
	}
	if err := f(r.Data, nil); err != nil {
		return nil, err
	}
	for i, x := range r.Data {
		out[i] = float64(x)
	}
	return out, nil
}

// Eig returns the eigenvalues w and right eigenvectors v (as columns,
// a v = v diag(w), each of unit length) of the n x n view a, as complex128
// whatever T (a real matrix has complex eigenpairs in general).
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func Eig[T Scalar](a views.View[T], opts ...lapis.Option) (w []complex128, v *views.Tensor[complex128], err error) {
	const op = "lapack.Eig"
	f, n, err := squareCopy(op, a)
	if err != nil {
		return nil, nil, err
	}
	defer f.Release()
	vr := spareZeros[T](n, n)
	defer vr.Release()
	w = make([]complex128, n)
	if scalar.Index[T]()%2 == 0 {
		w64 := make([]complex64, n)
		err = Geev(JobNone, JobVectors, f.View(), w64, views.View[T]{}, vr.View(), opts...)
		for i, x := range w64 {
			w[i] = complex128(x)
		}
	} else {
		err = Geev(JobNone, JobVectors, f.View(), w, views.View[T]{}, vr.View(), opts...)
	} // Geev scans a
	if err != nil {
		return nil, nil, helperErr(op, err, finite.All("a", a))
	}
	v, _ = views.Zeros[complex128](n, n)
	vd, rd := v.Data(), vr.Data()
	for j := 0; j < n; j++ {
		if scalar.Index[T]() < 2 && imag(w[j]) != 0 && j+1 < n {
			// A conjugate pair in two real columns (Geev).
			for i := range n {
				re, im := toFloat(rd[j*n+i]), toFloat(rd[(j+1)*n+i])
				vd[j*n+i] = complex(re, im)
				vd[(j+1)*n+i] = complex(re, -im)
			}
			j++
			continue
		}
		for i := range n {
			vd[j*n+i] = scalar.Complex128(rd[j*n+i])
		}
	}
	return w, v, nil
}
