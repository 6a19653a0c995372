package bench

import (
	"slices"

	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// impl=lapis of BenchmarkLapack: package lapack on column-major views of
// buffers like impl=c's, used in place (lapackBench checks that no operand
// was copied). Each returns the op's lapis impl; TestLapackImplsAgree
// checks its result against impl=c's.

// colView is the r x c column-major matrix in buf as a view.
func colView(buf []float64, r, c int) views.View[float64] {
	return must(views.FromColMajor(buf, r, c)).View()
}

func gesvLapis(n, nrhs int, a, b dmat) []lapackImpl {
	ca, cb, ipiv := slices.Clone(a.col), slices.Clone(b.col), make([]int32, n)
	av, bv := colView(ca, n, n), colView(cb, n, nrhs)
	return []lapackImpl{{name: "lapis", lapis: true, restore: restorer(ca, a.col, cb, b.col),
		call:   func() error { return lapack.Gesv(av, bv, ipiv) },
		result: func() []float64 { return cb }}}
}

func potrfLapis(n int, s dmat) []lapackImpl {
	ca := slices.Clone(s.col)
	av := colView(ca, n, n)
	return []lapackImpl{{name: "lapis", lapis: true, restore: restorer(ca, s.col),
		call:   func() error { return lapack.Potrf(cblas.Lower, av) },
		result: func() []float64 { return lowerCol(n, ca) }}}
}

func geqrfLapis(n int, a dmat) []lapackImpl {
	ca, tau := slices.Clone(a.col), make([]float64, n)
	av := colView(ca, n, n)
	return []lapackImpl{{name: "lapis", lapis: true, restore: restorer(ca, a.col),
		call:   func() error { return lapack.Geqrf(av, tau) },
		result: func() []float64 { return absDiag(n, ca) }}}
}

// svdLapis is Gesdd or Gesvd with all vectors, or the SVD helper.
func svdLapis(kind string, n int, a dmat) []lapackImpl {
	ca, s := slices.Clone(a.col), make([]float64, n)
	av := colView(ca, n, n)
	impl := lapackImpl{name: "lapis", lapis: true, restore: restorer(ca, a.col), result: func() []float64 { return s }}
	switch kind {
	case "gesdd":
		u, vt := colView(make([]float64, n*n), n, n), colView(make([]float64, n*n), n, n)
		impl.call = func() error { return lapack.Gesdd(lapack.JobAll, av, s, u, vt) }
	case "gesvd":
		u, vt := colView(make([]float64, n*n), n, n), colView(make([]float64, n*n), n, n)
		impl.call = func() error { return lapack.Gesvd(lapack.JobAll, lapack.JobAll, av, s, u, vt) }
	case "svd-helper":
		// lapack.SVD leaves a alone (it factors a copy) and returns new
		// u and vt: each call releases the previous call's to the pool,
		// as a careful user would.
		var hs []float64
		var hu, hvt *views.Tensor[float64]
		impl.call = func() error {
			release(hu, hvt)
			var err error
			hs, hu, hvt, err = lapack.SVD(av)
			return err
		}
		impl.result = func() []float64 { return hs }
	}
	return []lapackImpl{impl}
}

// syevdLapis is Syevd with vectors, or the EigSym helper.
func syevdLapis(kind string, n int, a dmat) []lapackImpl {
	ca, w := slices.Clone(a.col), make([]float64, n)
	av := colView(ca, n, n)
	impl := lapackImpl{name: "lapis", lapis: true, restore: restorer(ca, a.col), result: func() []float64 { return w }}
	switch kind {
	case "syevd":
		impl.call = func() error { return lapack.Syevd(lapack.JobVectors, cblas.Lower, av, w) }
	case "eigsym-helper":
		var hw []float64
		var hv *views.Tensor[float64]
		impl.call = func() error {
			release(hv)
			var err error
			hw, hv, err = lapack.EigSym(av)
			return err
		}
		impl.result = func() []float64 { return hw }
	}
	return []lapackImpl{impl}
}

// release returns the helpers' tensors to the pool.
func release(ts ...*views.Tensor[float64]) {
	for _, t := range ts {
		if t != nil {
			t.Release()
		}
	}
}
