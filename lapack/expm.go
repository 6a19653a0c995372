package lapack

import (
	"fmt"
	"math"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/cblas"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/cond"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// Expm returns the matrix exponential exp(a) = sum_k a^k / k! of the
// n x n view a, as a new compact column-major tensor (from the pool:
// Release it when done). a may have any layout (strided, transposed,
// conjugated, reversed) and is not modified: Expm works on one compact
// copy of it.
//
// The method is scaling and squaring with a diagonal Pade approximant
// r_m = q_m^-1 p_m (N. J. Higham, "The scaling and squaring method for the
// matrix exponential revisited", SIAM J. Matrix Anal. Appl. 26(4),
// 1179-1193, 2005; the algorithm of MATLAB's expm), computed in a's own
// precision: the smallest degree m whose theta_m bounds
// ||a||_1 is used as it is, and a larger a is scaled by 2^-s onto
// ||a 2^-s||_1 <= theta_max, approximated with the largest degree, and
// squared s times. float64 and complex128 use the paper's degrees 3, 5,
// 7, 9 and 13 with its thetas for unit roundoff 2^-53 (theta_13 =
// 5.37); float32 and complex64 use degrees 3, 5 and 7 with the paper's
// thetas for unit roundoff 2^-24 (theta_7 = 3.93), so that the
// truncation error is at the level of single precision rather than
// spending products on digits float32 cannot hold. The products are
// cblas.Gemm, the q_m^-1 p_m step is one LU solve (Gesv), so the O(n^3)
// work runs in OpenBLAS: 6 products and a solve for m = 13, plus one
// product per squaring.
//
// Errors: a view that is not a square matrix is a *layout.Error matching
// layout.ErrShape that names "a", the zero View one matching
// layout.ErrBounds; a view of a released tensor matches
// lapis.ErrReleased. A NaN or an infinity in a is
// found before any computation and gives an error matching
// lapis.ErrNotFinite that names a's first such element; a result that is
// not finite (exp(a) overflows T, e.g. an eigenvalue above log of T's
// largest value) gives one that names "result", and no tensor. On error
// Expm returns nil and keeps nothing it allocated.
func Expm[T Scalar](a views.View[T], opts ...lapis.Option) (*views.Tensor[T], error) {
	const op = "lapack.Expm"
	x, n, err := squareCopy(op, a)
	if err != nil {
		return nil, err
	}
	if err := checkFinite(op, finite.All("a", a)); err != nil {
		x.Release()
		return nil, err
	}
	if n == 0 {
		return x, nil
	}
	e := expm[T]{n: n, opts: opts}
	r, err := e.run(x)
	if err == nil {
		e.keep(r)
	}
	e.releaseAll()
	x.Release()
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	if !scalar.AllFinite(r.Data()) {
		r.Release()
		return nil, notFinite(op, "result", fmt.Sprintf("exp(a) overflows %T (||a||_1 = %.3g, %d squarings)", *new(T), e.norm, e.squarings))
	}
	return r, nil
}

// The coefficients b_0 ... b_m of the Pade approximant r_m =
// q_m^-1 p_m, p_m(x) = sum_j b_j x^j, q_m(x) = p_m(-x), and the bounds
// theta_m on ||a||_1 under which r_m(a) is exp(a) to the unit roundoff of
// double (2^-53) and single (2^-24) precision (Higham 2005; MATLAB's expm
// has the same figures).
var (
	expmPade = map[int][]float64{
		3: {120, 60, 12, 1},
		5: {30240, 15120, 3360, 420, 30, 1},
		7: {17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1},
		9: {17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1},
		13: {64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000,
			10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1},
	}
	expmDouble = []expmDegree{{3, 1.495585217958292e-2}, {5, 2.539398330063230e-1}, {7, 9.504178996162932e-1}, {9, 2.097847961257068}, {13, 5.371920351148152}}
	expmSingle = []expmDegree{{3, 4.258730016922831e-1}, {5, 1.880152677804762}, {7, 3.925724783138660}}
)

type expmDegree struct {
	m     int
	theta float64
}

// expm holds one Expm computation: its n x n work tensors (from the
// pool, released together) and what it chose.
type expm[T Scalar] struct {
	n         int
	opts      []lapis.Option
	bufs      []*views.Tensor[T]
	norm      float64 // ||a||_1
	squarings int
}

// buf returns a new n x n work tensor (contents unspecified). Its error
// is views.Zeros's: the copy of a fitted, but a few more may not.
func (e *expm[T]) buf() (*views.Tensor[T], error) {
	t, err := views.Zeros[T](e.n, e.n)
	if err != nil {
		return nil, err
	}
	e.bufs = append(e.bufs, t)
	return t, nil
}

// keep takes t out of the tensors releaseAll releases.
func (e *expm[T]) keep(t *views.Tensor[T]) {
	for i, b := range e.bufs {
		if b == t {
			e.bufs = append(e.bufs[:i], e.bufs[i+1:]...)
			return
		}
	}
}

func (e *expm[T]) releaseAll() {
	for _, b := range e.bufs {
		b.Release()
	}
	e.bufs = nil
}

// mul sets c = a b (cblas.Gemm; c apart from a and b).
func (e *expm[T]) mul(c, a, b *views.Tensor[T]) error {
	return cblas.Gemm(1, a.View(), b.View(), 0, c.View(), e.opts...)
}

// term is c times the matrix d.
type term[T Scalar] struct {
	c float64
	d []T
}

// combine sets dst = id I + sum c_k d_k element by element; dst may be
// one of the d_k.
func combine[T Scalar](n int, dst []T, id float64, terms ...term[T]) {
	cs := make([]T, len(terms))
	for k, t := range terms {
		cs[k] = scalar.FromFloat[T](t.c)
	}
	for i := range dst {
		var s T
		for k, t := range terms {
			s += cs[k] * t.d[i]
		}
		dst[i] = s
	}
	one := scalar.FromFloat[T](id)
	for i := 0; i < n; i++ {
		dst[i*n+i] += one
	}
}

// run computes exp(a) for the compact copy a (n >= 1, finite), which it
// scales in place; the result is one of e's work tensors.
func (e *expm[T]) run(a *views.Tensor[T]) (*views.Tensor[T], error) {
	n, d := e.n, a.Data()
	degrees := expmDouble
	if scalar.Eps[T]() > 0x1p-52 {
		degrees = expmSingle
	}
	e.norm = cond.MatrixNorm(d, n, false)
	norm := e.norm
	if math.IsInf(norm, 1) { // float64 column sums beyond the largest float64
		e.squarings = 64 // 2^64 > n: the scaled sums are finite
		scaleExp2(d, -64)
		norm = cond.MatrixNorm(d, n, false)
	}
	last := degrees[len(degrees)-1]
	if e.squarings == 0 {
		for _, dg := range degrees[:len(degrees)-1] {
			if norm <= dg.theta {
				return e.pade(a, dg.m)
			}
		}
	}
	if norm > last.theta {
		s := int(math.Ceil(math.Log2(norm / last.theta)))
		scaleExp2(d, -s)
		e.squarings += s
	}
	r, err := e.pade(a, last.m)
	if err != nil || e.squarings == 0 {
		return r, err
	}
	spare, err := e.buf()
	if err != nil {
		return nil, err
	}
	for range e.squarings {
		if err := e.mul(spare, r, r); err != nil {
			return nil, err
		}
		r, spare = spare, r
	}
	return r, nil
}

// scaleExp2 multiplies d by 2^k: exact unless an element underflows.
func scaleExp2[T Scalar](d []T, k int) {
	f := scalar.FromFloat[T](math.Ldexp(1, k))
	for i := range d {
		d[i] *= f
	}
}

// pade returns r_m(a) in one of e's work tensors.
func (e *expm[T]) pade(a *views.Tensor[T], m int) (*views.Tensor[T], error) {
	n, b := e.n, expmPade[m]
	// pw[k] = a^(2k+2): a^2, a^4, ... a^(m-1), a^6 at most for m = 13.
	np := (m - 1) / 2
	if m == 13 {
		np = 3
	}
	var pw []*views.Tensor[T]
	for k := range np {
		f, g := a, a // a^2 = a a
		if k > 0 {
			f, g = pw[k-1], pw[0] // a^(2k+2) = a^2k a^2
		}
		p, err := e.buf()
		if err == nil {
			err = e.mul(p, f, g)
		}
		if err != nil {
			return nil, err
		}
		pw = append(pw, p)
	}
	u, err := e.buf()
	if err != nil {
		return nil, err
	}
	v, err := e.buf()
	if err != nil {
		return nil, err
	}
	ud, vd := u.Data(), v.Data()
	if m <= 9 {
		// v = b0 I + sum_k b_2k+2 a^(2k+2); the odd part b1 I +
		// sum_k b_2k+3 a^(2k+2) is written over the highest power, which
		// it reads last; u = a times it.
		even := make([]term[T], np)
		odd := make([]term[T], np)
		for k, p := range pw {
			even[k] = term[T]{b[2*k+2], p.Data()}
			odd[k] = term[T]{b[2*k+3], p.Data()}
		}
		combine(n, vd, b[0], even...)
		top := pw[np-1]
		combine(n, top.Data(), b[1], odd...)
		if err := e.mul(u, a, top); err != nil {
			return nil, err
		}
	} else {
		a2d, a4d, a6d := pw[0].Data(), pw[1].Data(), pw[2].Data()
		// u = a (a^6 (b13 a^6 + b11 a^4 + b9 a^2) + b7 a^6 + b5 a^4 + b3 a^2 + b1 I):
		// the inner sum in u, the outer one in v, then u = a v.
		combine(n, ud, 0, term[T]{b[13], a6d}, term[T]{b[11], a4d}, term[T]{b[9], a2d})
		combine(n, vd, b[1], term[T]{b[7], a6d}, term[T]{b[5], a4d}, term[T]{b[3], a2d})
		if err := cblas.Gemm(1, pw[2].View(), u.View(), 1, v.View(), e.opts...); err != nil {
			return nil, err
		}
		if err := e.mul(u, a, v); err != nil {
			return nil, err
		}
		// v = a^6 (b12 a^6 + b10 a^4 + b8 a^2) + b6 a^6 + b4 a^4 + b2 a^2 + b0 I:
		// the outer sum in v, then the inner one written over a^4.
		combine(n, vd, b[0], term[T]{b[6], a6d}, term[T]{b[4], a4d}, term[T]{b[2], a2d})
		combine(n, a4d, 0, term[T]{b[12], a6d}, term[T]{b[10], a4d}, term[T]{b[8], a2d})
		if err := cblas.Gemm(1, pw[2].View(), pw[1].View(), 1, v.View(), e.opts...); err != nil {
			return nil, err
		}
	}
	// q r = p with p = v + u (into u) and q = v - u (into v): one LU solve.
	for i := range ud {
		ui, vi := ud[i], vd[i]
		ud[i], vd[i] = vi+ui, vi-ui
	}
	ipiv := pool.Get[int32](n)
	defer pool.Put(ipiv)
	if err := Gesv(v.View(), u.View(), ipiv.Data, e.opts...); err != nil {
		return nil, err
	}
	return u, nil
}
