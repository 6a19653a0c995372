package cond

import (
	"math"
	"math/cmplx"
	"unsafe"

	"github.com/lapis-go/lapis/internal/clib"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/scalar"
)

// The condition estimate of checkCondition (Solve and batch.Gesv) for
// orders above Max: ||A^-1|| by Higham's refinement of Hager's method,
// the algorithm of LAPACK's ?lacn2 that ?gecon runs, with each product by
// A^-1 or A^-H made of two plain triangular solves (cblas_?trsv on the LU
// factors) where gecon makes two scaled, overflow-guarded ?latrs solves,
// which cost 1.4-2.9x as much
// (docs/bench/lapack.md#the-conditioning-check). A solve that over- or
// underflows (a result that is not finite, or an estimate of 0) is not
// trusted: the caller then asks gecon, whose scaling copes (or reports 0 as
// this would), so that only matrices whose inverse nears overflow pay for
// it.

// invNormMaxIter is ?lacn2's ITMAX: products by e_j and the adjoint
// after the first pair.
const invNormMaxIter = 5

// InvNormEst estimates ||A^-1|| in the one norm (inf false) or the
// infinity norm for the n x
// n matrix A = P L U (n >= 1) whose factors L (unit lower) and U are at
// a, column-major with leading dimension lda, as getrf leaves them. The
// pivots are not needed: A^-1 = U^-1 L^-1 P^T is B = U^-1 L^-1 with its
// columns permuted, which changes neither norm; ||B||_inf = ||B^H||_1.
// The estimate is a lower bound, as gecon's, and the same as gecon's
// but for rounding in the solves and one change: it never decreases
// (?lacn2 keeps the last product's norm even when it is smaller than
// the one before). ok is false when a solve did not give finite values or
// the estimate is 0; then est means nothing.
func InvNormEst[T scalar.Type](inf bool, n int, a unsafe.Pointer, lda int) (est float64, ok bool) {
	w := pool.Get[T](2 * n)
	defer pool.Put(w)
	x, sgn := w.Data[:n], w.Data[n:2*n]
	abs := AbsFunc[T]()
	complexT := scalar.Index[T]() >= 2
	// mul replaces x by M x (adjoint false) or M^H x, M = B for the one
	// norm and B^H for the infinity norm, and returns ||x||_1 and whether
	// it is finite.
	mul := func(adjoint bool) (float64, bool) {
		SolveLU[T](adjoint != inf, n, a, lda, unsafe.Pointer(&x[0]))
		s := 0.0
		for _, v := range x {
			s += abs(v)
		}
		return s, s <= math.MaxFloat64 // false for +Inf and NaN
	}
	// signs sets sgn and x to the signs of x (x_i/|x_i|, 1 for 0), and
	// reports whether they are those sgn held (real types only: ?lacn2's
	// convergence test; ?zlacn2 has none).
	signs := func() (same bool) {
		same = !complexT
		for i, v := range x {
			s := signOf(v, abs)
			if s != sgn[i] {
				same = false
			}
			sgn[i], x[i] = s, s
		}
		return same
	}
	// argmax is the first index of the largest |x_i| (i?amax).
	argmax := func() int {
		j, best := 0, -1.0
		for i, v := range x {
			if a := abs(v); a > best {
				j, best = i, a
			}
		}
		return j
	}
	inv := scalar.FromFloat[T](1 / float64(n))
	for i := range x {
		x[i] = inv
	}
	if est, ok = mul(false); !ok || n == 1 {
		return est, ok && est > 0
	}
	clear(sgn)
	signs()
	if _, ok = mul(true); !ok {
		return 0, false
	}
	j := argmax()
	for iter := 2; ; iter++ {
		clear(x)
		x[j] = 1
		estOld := est
		var e float64
		if e, ok = mul(false); !ok {
			return 0, false
		}
		est = max(est, e)
		if signs() || e <= estOld {
			break // a repeated sign vector (converged), or cycling
		}
		if _, ok = mul(true); !ok {
			return 0, false
		}
		last := j
		j = argmax()
		// ?lacn2 compares x_last, signed, with |x_j|; ?zlacn2 |x_last|.
		xl := real(scalar.Complex128(x[last]))
		if complexT {
			xl = abs(x[last])
		}
		if xl == abs(x[j]) || iter >= invNormMaxIter {
			break
		}
	}
	// The final stage: an alternating vector with graded entries, which
	// catches matrices the iteration above underestimates.
	alt := 1.0
	for i := range x {
		x[i] = scalar.FromFloat[T](alt * (1 + float64(i)/float64(n-1)))
		alt = -alt
	}
	e, ok := mul(false)
	if !ok {
		return 0, false
	}
	est = max(est, 2*e/float64(3*n))
	return est, est > 0
}

// signOf is x/|x| (±1 for real types, sign of 0 is +1), or 1 when |x| is
// below the smallest normal number (?lacn2's and ?zlacn2's choices).
func signOf[T scalar.Type](x T, abs func(T) float64) T {
	if scalar.Index[T]() < 2 {
		if abs(x) == 0 || !math.Signbit(real(scalar.Complex128(x))) {
			return scalar.FromFloat[T](1)
		}
		return scalar.FromFloat[T](-1)
	}
	a := abs(x)
	if a <= smallestNormal[T]() {
		return scalar.FromFloat[T](1)
	}
	return x / scalar.FromFloat[T](a)
}

// smallestNormal is the smallest positive normal number of T's real type.
func smallestNormal[T scalar.Type]() float64 {
	if scalar.Eps[T]() == 0x1p-23 {
		return 0x1p-126
	}
	return 0x1p-1022
}

// fastAbs is |z| without hypot's scaling: exact to rounding unless a part
// squared over- or underflows (|re| or |im| beyond 1e154 or below 1e-154).
func fastAbs(z complex128) float64 { return math.Sqrt(real(z)*real(z) + imag(z)*imag(z)) }

// MatrixNorm is the one norm (inf false) or infinity norm of the compact
// column-major n x n matrix d, in Go: the norm the check takes before the
// factorisation. ?lange takes complex Moduli with overflow-safe scaling,
// which made zlange cost a quarter of zgetrf at n = 100; here a complex
// modulus is sqrt(re^2 + im^2), and a complex128 norm is taken again with
// cmplx.Abs when the result may have lost entries to over- or underflow
// (+Inf, or below 1e-140: entries below 1e-154 then square to 0).
func MatrixNorm[T scalar.Type](d []T, n int, inf bool) float64 {
	switch d := any(d).(type) {
	case []float32:
		return realNorm(d, n, inf)
	case []float64:
		return realNorm(d, n, inf)
	case []complex64:
		return complexNorm(d, n, inf)
	case []complex128:
		return complexNorm(d, n, inf)
	}
	return math.NaN()
}

func realNorm[F float32 | float64](d []F, n int, inf bool) float64 {
	if !inf {
		best := 0.0
		for j := 0; j < n; j++ {
			// Four sums: one would wait on each addition's latency.
			c := d[j*n : j*n+n]
			var s0, s1, s2, s3 float64
			i := 0
			for ; i+4 <= len(c); i += 4 {
				s0 += math.Abs(float64(c[i]))
				s1 += math.Abs(float64(c[i+1]))
				s2 += math.Abs(float64(c[i+2]))
				s3 += math.Abs(float64(c[i+3]))
			}
			for ; i < len(c); i++ {
				s0 += math.Abs(float64(c[i]))
			}
			if best = maxNaN(best, (s0+s1)+(s2+s3)); math.IsNaN(best) {
				break
			}
		}
		return best
	}
	return maxRowSum(d, n, func(v F) float64 { return math.Abs(float64(v)) })
}

func complexNorm[C complex64 | complex128](d []C, n int, inf bool) float64 {
	if _, wide := any(d).([]complex128); wide {
		if r := fastComplexNorm(d, n, inf); !math.IsInf(r, 1) && !(r < 1e-140) {
			return r
		}
		// Some Moduli may have over- or underflowed: take them with
		// scaling.
		return realNorm(Moduli(d), n, inf)
	}
	return fastComplexNorm(d, n, inf)
}

func fastComplexNorm[C complex64 | complex128](d []C, n int, inf bool) float64 {
	if !inf {
		best := 0.0
		for j := 0; j < n; j++ {
			c := d[j*n : j*n+n]
			var s0, s1 float64
			i := 0
			for ; i+2 <= len(c); i += 2 {
				z0, z1 := complex128(c[i]), complex128(c[i+1])
				s0 += math.Sqrt(real(z0)*real(z0) + imag(z0)*imag(z0))
				s1 += math.Sqrt(real(z1)*real(z1) + imag(z1)*imag(z1))
			}
			if i < len(c) {
				z := complex128(c[i])
				s0 += math.Sqrt(real(z)*real(z) + imag(z)*imag(z))
			}
			if best = maxNaN(best, s0+s1); math.IsNaN(best) {
				break
			}
		}
		return best
	}
	return maxRowSum(d, n, func(v C) float64 { return fastAbs(complex128(v)) })
}

// maxRowSum is the largest row sum of abs over the n x n column-major d
// (the infinity norm: Solve's check of a row-major matrix).
func maxRowSum[E any](d []E, n int, abs func(E) float64) float64 {
	rows := pool.Get[float64](n)
	defer pool.Put(rows)
	r := rows.Data[:n]
	clear(r)
	for j := 0; j < n; j++ {
		for i, v := range d[j*n : j*n+n] {
			r[i] += abs(v)
		}
	}
	return maxOf(r)
}

// Moduli returns |d_i| by cmplx.Abs (the rare path of complexNorm).
func Moduli[C complex64 | complex128](d []C) []float64 {
	m := make([]float64, len(d))
	for i, v := range d {
		m[i] = cmplx.Abs(complex128(v))
	}
	return m
}

// maxNaN is max(a, b), NaN when either is NaN.
func maxNaN(a, b float64) float64 {
	if b > a || math.IsNaN(b) {
		return b
	}
	return a
}

func maxOf(r []float64) float64 {
	best := 0.0
	for _, s := range r {
		if best = maxNaN(best, s); math.IsNaN(best) {
			break
		}
	}
	return best
}

// SolveLU replaces the n-vector x by U^-1 L^-1 x (adjoint false) or
// L^-H U^-H x (adjoint true) for the LU factors at a (leading dimension
// lda): two cblas_?trsv calls.
func SolveLU[T scalar.Type](adjoint bool, n int, a unsafe.Pointer, lda int, x unsafe.Pointer) {
	policy.Calls.Add(2)
	if adjoint {
		clib.Trsv[T](clib.Upper, clib.ConjTrans, clib.NonUnit, n, a, lda, x, 1)
		clib.Trsv[T](clib.Lower, clib.ConjTrans, clib.Unit, n, a, lda, x, 1)
		return
	}
	clib.Trsv[T](clib.Lower, clib.NoTrans, clib.Unit, n, a, lda, x, 1)
	clib.Trsv[T](clib.Upper, clib.NoTrans, clib.NonUnit, n, a, lda, x, 1)
}
