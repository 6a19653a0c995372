package lapack

import (
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/threads"
	"github.com/lapis-go/lapis/internal/rt/wspace"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Job says which singular vectors or eigenvectors a routine computes.
type Job byte

const (
	JobAll       Job = 'A' // all m columns of U (all n rows of V^H)
	JobSome      Job = 'S' // the first min(m, n) of them
	JobOverwrite Job = 'O' // the first min(m, n) of them, written over a
	JobNone      Job = 'N' // none
	JobVectors   Job = 'V' // eigenvectors too (eigen-solvers)
)

// vecShape returns the shape LAPACK wants for U (left) or V^H (right) of
// an m x n matrix under job, and whether the array is referenced.
func vecShape(job Job, m, n int, left bool) (rows, cols int, used bool) {
	k := min(m, n)
	switch {
	case job == JobAll && left:
		return m, m, true
	case job == JobAll:
		return n, n, true
	case job == JobSome && left:
		return m, k, true
	case job == JobSome:
		return k, n, true
	}
	return 0, 0, false
}

// vectorOperand reads an output array of singular or eigenvectors that
// must be rows x cols when used; an unused one may be any view (the zero
// View included) and goes to LAPACK as a dummy with leading dimension 1.
func vectorOperand[T Scalar](op, name string, v views.View[T], rows, cols int, used bool, cfg lapis.Config) (o arg[T], err error) {
	if err := v.CheckLive(op, name); err != nil {
		return o, err // a released view is a mistake even where it is not referenced
	}
	if !used {
		o.ld, o.trans = 1, 'N'
		return o, nil
	}
	if o, err = prepare(op, name, v, write|overRead, cfg); err != nil {
		return o, err
	}
	if o.rows != rows || o.cols != cols {
		o.release()
		return o, layout.Errorf(layout.ErrShape, op, name, "shape [%d %d], want [%d %d]", o.rows, o.cols, rows, cols)
	}
	return o, nil
}

// Gesdd computes the singular value decomposition a = U S V^H of the
// m x n view a by divide and conquer (LAPACK's fastest SVD): s (at least
// min(m, n) long, reals of a's precision) receives the singular values,
// largest first; u and vt the vectors as jobz says: JobAll (u m x m,
// vt n x n), JobSome (u m x min, vt min x n), JobNone (neither is
// referenced: pass views.View[T]{}), or JobOverwrite (for m >= n the
// first n columns of U are written over a and u is not referenced; for
// m < n V^H's first m rows are written over a and vt is not referenced).
// a is destroyed.
//
// NaN and Inf: a NaN or an infinity in what it reads is an error
// matching lapis.ErrNotFinite, found before LAPACK runs; nothing is
// written (see the package documentation).
func Gesdd[T Scalar, R Real](jobz Job, a views.View[T], s []R, u, vt views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Gesdd"
	if err := realFor[T, R](op, "s"); err != nil {
		return err
	}
	if jobz != JobAll && jobz != JobSome && jobz != JobOverwrite && jobz != JobNone {
		return layout.Errorf(lapis.ErrInvalid, op, "jobz", "value %q is not JobAll, JobSome, JobOverwrite or JobNone", byte(jobz))
	}
	cfg := lapis.Configure(opts...)
	oa, err := prepare(op, "a", a, read|write|overRead, cfg)
	if err != nil {
		return err
	}
	m, n := oa.rows, oa.cols
	ju, jv := jobz, jobz
	if jobz == JobOverwrite { // one of the two goes over a, the other is all
		ju, jv = JobNone, JobAll
		if m < n {
			ju, jv = JobAll, JobNone
		}
	}
	ou, ov, err := svdVectors(op, ju, jv, m, n, u, vt, cfg)
	if err == nil {
		err = sliceLen(op, "s", len(s), min(m, n))
	}
	if err == nil {
		err = sliceApart(op, "s", s, &oa, &ou, &ov)
	}
	if err == nil {
		err = noOverlap(op, []string{"a", "u", "vt"}, &oa, &ou, &ov)
	}
	if err == nil {
		err = checkFinite(op, finite.All("a", a))
	}
	if err != nil {
		releaseAll(&oa, &ou, &ov)
		return err
	}
	mn, mx := min(m, n), max(m, n)
	ws := wspace.Remember(wspace.Key{Fam: "xgesdd", Type: scalar.Index[T](), Dims: [4]int{m, n}, Opts: [3]byte{byte(jobz)}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, rwork, iwork unsafe.Pointer) {
			clib.Gesdd[T](byte(jobz), m, n, oa.ptr, oa.ld, clib.Ptr(s), ou.ptr, ou.ld, ov.ptr, ov.ld, work, -1, rwork, iwork)
		})
	})
	ws.IWork = 8 * mn
	if scalar.Index[T]() >= 2 { // LAPACK's documented lrwork (3.7 and later are smaller)
		ws.RWork = 7 * mn
		if jobz != JobNone {
			ws.RWork = max(5*mn*mn+7*mn, 2*mx*mn+2*mn*mn+mn)
		}
	}
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(m, n, min(m, n)))
	info := clib.Gesdd[T](byte(jobz), m, n, oa.ptr, oa.ld, clib.Ptr(s), ou.ptr, ou.ld, ov.ptr, ov.ld, w.workPtr(), max(1, ws.Work), w.rworkPtr(), w.iworkPtr())
	th.End()
	w.put()
	finishAll(&oa, &ou, &ov)
	return infoErr[T](op, "xgesdd", info)
}

// Gesvd is the SVD by QR iteration (slower than Gesdd, sometimes more
// accurate for tiny singular values), with separate jobs for U (jobu) and
// V^H (jobvt): JobAll, JobSome, JobNone, or JobOverwrite (that factor is
// written over a; not for both).
//
// NaN and Inf: a NaN or an infinity in what it reads is an error
// matching lapis.ErrNotFinite, found before LAPACK runs; nothing is
// written (see the package documentation).
func Gesvd[T Scalar, R Real](jobu, jobvt Job, a views.View[T], s []R, u, vt views.View[T], opts ...lapis.Option) error {
	const op = "lapack.Gesvd"
	if err := realFor[T, R](op, "s"); err != nil {
		return err
	}
	for _, j := range [2]struct {
		name string
		job  Job
	}{{"jobu", jobu}, {"jobvt", jobvt}} {
		if j.job != JobAll && j.job != JobSome && j.job != JobOverwrite && j.job != JobNone {
			return layout.Errorf(lapis.ErrInvalid, op, j.name, "value %q is not JobAll, JobSome, JobOverwrite or JobNone", byte(j.job))
		}
	}
	if jobu == JobOverwrite && jobvt == JobOverwrite {
		return layout.Errorf(lapis.ErrInvalid, op, "jobvt", "JobOverwrite for both U and V^H")
	}
	cfg := lapis.Configure(opts...)
	oa, err := prepare(op, "a", a, read|write|overRead, cfg)
	if err != nil {
		return err
	}
	m, n := oa.rows, oa.cols
	ou, ov, err := svdVectors(op, jobu, jobvt, m, n, u, vt, cfg)
	if err == nil {
		err = sliceLen(op, "s", len(s), min(m, n))
	}
	if err == nil {
		err = sliceApart(op, "s", s, &oa, &ou, &ov)
	}
	if err == nil {
		err = noOverlap(op, []string{"a", "u", "vt"}, &oa, &ou, &ov)
	}
	if err == nil {
		err = checkFinite(op, finite.All("a", a))
	}
	if err != nil {
		releaseAll(&oa, &ou, &ov)
		return err
	}
	ju, jv := byte(jobu), byte(jobvt)
	ws := wspace.Remember(wspace.Key{Fam: "xgesvd", Type: scalar.Index[T](), Dims: [4]int{m, n}, Opts: [3]byte{ju, jv}}, func() wspace.Sizes {
		return wspace.Query[T](func(work, rwork, _ unsafe.Pointer) {
			clib.Gesvd[T](ju, jv, m, n, oa.ptr, oa.ld, clib.Ptr(s), ou.ptr, ou.ld, ov.ptr, ov.ld, work, -1, rwork)
		})
	})
	ws.RWork = 5 * min(m, n)
	w := getWorkspace[T](ws)
	policy.Lapack.Add(1)
	th := threads.Begin(threads.Lapack, flops(m, n, min(m, n)))
	info := clib.Gesvd[T](ju, jv, m, n, oa.ptr, oa.ld, clib.Ptr(s), ou.ptr, ou.ld, ov.ptr, ov.ld, w.workPtr(), max(1, ws.Work), w.rworkPtr())
	th.End()
	w.put()
	finishAll(&oa, &ou, &ov)
	return infoErr[T](op, "xgesvd", info)
}

// svdVectors reads u and vt for jobs ju and jv of an m x n SVD.
func svdVectors[T Scalar](op string, ju, jv Job, m, n int, u, vt views.View[T], cfg lapis.Config) (ou, ov arg[T], err error) {
	r, c, used := vecShape(ju, m, n, true)
	if ou, err = vectorOperand(op, "u", u, r, c, used, cfg); err != nil {
		return ou, ov, err
	}
	r, c, used = vecShape(jv, m, n, false)
	if ov, err = vectorOperand(op, "vt", vt, r, c, used, cfg); err != nil {
		ou.release()
	}
	return ou, ov, err
}

// SVD returns the reduced singular value decomposition a = u diag(s) vt of
// the m x n view a: s the k = min(m, n) singular values, largest first
// (as float64 whatever T), u m x k and vt k x n with orthonormal columns
// and rows. It uses gesdd, or gesvd with the QRIteration option.
//
// Non-finite input: see "NaN and Inf" in the package documentation.
func SVD[T Scalar](a views.View[T], opts ...lapis.Option) (s []float64, u, vt *views.Tensor[T], err error) {
	const op = "lapack.SVD"
	f, err := workCopy(op, a)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Release()
	m, n := a.Layout().Dim(0), a.Layout().Dim(1)
	k := min(m, n)
	u = spareZeros[T](m, k)
	vt = spareZeros[T](k, n)
	qr := lapis.Configure(opts...).QRIteration
	s, err = withReals[T](k, func(s32 []float32, s64 []float64) error {
		if qr {
			if s32 != nil {
				return Gesvd(JobSome, JobSome, f.View(), s32, u.View(), vt.View(), opts...)
			}
			return Gesvd(JobSome, JobSome, f.View(), s64, u.View(), vt.View(), opts...)
		}
		if s32 != nil {
			return Gesdd(JobSome, f.View(), s32, u.View(), vt.View(), opts...)
		}
		return Gesdd(JobSome, f.View(), s64, u.View(), vt.View(), opts...)
	}) // Gesdd and Gesvd scan a
	if err != nil {
		u.Release()
		vt.Release()
		return nil, nil, nil, helperErr(op, err, finite.All("a", a))
	}
	return s, u, vt, nil
}
