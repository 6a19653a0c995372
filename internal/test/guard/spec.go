package guard

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/cmplx"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// Spec describes one operand of a case: a view of Shape and Strides (any
// signs, ld > rows, a batch axis...), conjugated or not, with values
// chosen by Fill from the operand's name (so that both runs of Twin see
// the same ones).
type Spec struct {
	Name    string
	Shape   []int
	Strides []int
	Conj    bool
	Fill    Fill
	// Vectors says that the operand ends up holding eigenvectors (or
	// singular vectors) in its columns: Twin compares each column up to a
	// unit factor, which LAPACK does not fix. Rounding that depends on
	// where an operand lies (OpenBLAS's SSE kernels take unaligned heads
	// apart) can flip a real eigenvector's sign between the two runs.
	Vectors bool
	// Scratch says that the routine leaves the operand's contents
	// unspecified (LAPACK's "A has been overwritten"): Twin still places
	// it against the guard pages but does not compare what it holds after
	// the call, which a library may compute differently depending on
	// where the operand lies (MKL's ?geev).
	Scratch bool
}

// Fill chooses an operand's values.
type Fill uint8

const (
	Random   Fill = iota // real and imaginary parts uniform in [-1, 1)
	Dominant             // Random plus 2*max(rows, cols) on each matrix's diagonal
	HPD                  // Hermitian (real: symmetric) and diagonally dominant: positive definite
)

// Vec is a vector of n elements with increment inc.
func Vec(name string, n, inc int) Spec {
	return Spec{Name: name, Shape: []int{n}, Strides: []int{inc}}
}

// Mat is a rows x cols matrix, column-major with leading dimension
// rows+pad or, when rowMajor, row-major (a transposed view) with leading
// dimension cols+pad.
func Mat(name string, rows, cols int, rowMajor bool, pad int) Spec {
	s := []int{1, rows + pad}
	if rowMajor {
		s = []int{cols + pad, 1}
	}
	return Spec{Name: name, Shape: []int{rows, cols}, Strides: s}
}

// WithConj returns s conjugated (for real types the flag does nothing).
func (s Spec) WithConj(on bool) Spec { s.Conj = on; return s }

// WithVectors returns s marked as holding vectors (Spec.Vectors).
func (s Spec) WithVectors() Spec { s.Vectors = true; return s }

// WithScratch returns s marked as left unspecified (Spec.Scratch).
func (s Spec) WithScratch() Spec { s.Scratch = true; return s }

// WithFill returns s filled by f.
func (s Spec) WithFill(f Fill) Spec { s.Fill = f; return s }

// Batched appends an axis of count matrices (or vectors) spaced gap
// elements apart beyond the span of one, walked backwards when reverse is
// set.
func (s Spec) Batched(count, gap int, reverse bool) Spec {
	span := 1
	for i, d := range s.Shape {
		if d > 0 {
			span += (d - 1) * abs(s.Strides[i])
		}
	}
	stride := span + gap
	if reverse {
		stride = -stride
	}
	s.Shape = append(append([]int(nil), s.Shape...), count)
	s.Strides = append(append([]int(nil), s.Strides...), stride)
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (s Spec) String() string {
	c := ""
	if s.Conj {
		c = " conj"
	}
	return fmt.Sprintf("%s%v:%v%s", s.Name, s.Shape, s.Strides, c)
}

// Make places the operand (see View) and fills it: the elements the view
// reaches get their values, the gaps between them NaN.
func Make[T views.Scalar](a *Arena, s Spec) views.View[T] {
	v := View[T](a, s.Name, s.Shape, s.Strides)
	data := v.Data()
	for i := range data {
		data[i] = fromComplex[T](complex(math.NaN(), math.NaN()))
	}
	if s.Conj {
		v = v.Conj()
	}
	h := fnv.New64a()
	h.Write([]byte(s.Name))
	seed := h.Sum64()
	l := v.Layout()
	shape := s.Shape
	idx := make([]int, len(shape))
	n := v.Len()
	big := 0
	if len(shape) >= 2 {
		big = 2 * max(shape[0], shape[1])
	}
	for range n {
		x := value(seed, idx)
		if len(idx) >= 2 && s.Fill != Random {
			i, j := idx[0], idx[1]
			switch {
			case i == j && s.Fill == HPD:
				x = complex(float64(big)+math.Abs(real(x)), 0)
			case i == j:
				x += complex(float64(big), 0)
			case i > j && s.Fill == HPD: // the mirror of (j, i)
				idx[0], idx[1] = j, i
				x = cmplx.Conj(value(seed, idx))
				idx[0], idx[1] = i, j
			}
		}
		if v.IsConj() {
			x = cmplx.Conj(x)
		}
		data[l.OffsetOf(idx...)] = fromComplex[T](x)
		for k := range idx { // next index, axis 0 fastest
			if idx[k]++; idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return v
}

// value is a pseudo-random number in [-1, 1)^2 depending only on seed and
// idx.
func value(seed uint64, idx []int) complex128 {
	z := seed
	for _, i := range idx {
		z = mix(z ^ uint64(i))
	}
	re := float64(mix(z)>>11)/(1<<53)*2 - 1
	im := float64(mix(z+1)>>11)/(1<<53)*2 - 1
	return complex(re, im)
}

// mix is splitmix64's finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Call is the routine a Twin case runs: on the operands v made from the
// specs (in order) and any further memory it takes from a (guard.Slice;
// a is nil on the reference run). It returns what the routine returned,
// for comparison; an error fails the case (put an expected error in the
// result instead, e.g. as its string).
type Call[T views.Scalar] func(a *Arena, v []views.View[T]) (any, error)

// Twin returns a case body that runs call twice: on operands placed
// against guard pages from the case's arena, and on the same operands in
// ordinary Go memory (same layouts, same values). It fails if either run
// returns an error, or if the results or the operands' memory afterwards
// (gaps included: they must still be NaN) differ by more than tol
// relative to the largest magnitude.
func Twin[T views.Scalar](specs []Spec, tol float64, call Call[T]) func(*Arena) error {
	return func(a *Arena) error {
		run := func(a *Arena) ([]views.View[T], any, error) {
			v := make([]views.View[T], len(specs))
			for i, s := range specs {
				v[i] = Make[T](a, s)
			}
			r, err := call(a, v)
			return v, r, err
		}
		gv, gr, gerr := run(a)
		wv, wr, werr := run(nil)
		switch {
		case gerr != nil && werr != nil && gerr.Error() == werr.Error():
			return fmt.Errorf("error (on Go memory too): %v", gerr)
		case gerr != nil:
			return fmt.Errorf("error: %v (on Go memory: %v)", gerr, werr)
		case werr != nil:
			return fmt.Errorf("error on Go memory only: %v", werr)
		}
		if err := Compare("result", gr, wr, tol); err != nil {
			return err
		}
		for i, s := range specs {
			if s.Scratch {
				continue
			}
			if s.Vectors {
				alignColumns(gv[i], wv[i])
			}
			g, w := gv[i].Data(), wv[i].Data()
			gc, wc := make([]complex128, len(g)), make([]complex128, len(w))
			for k := range g {
				gc[k], wc[k] = scalar.Complex128(g[k]), scalar.Complex128(w[k])
			}
			if err := closeEnough("operand "+s.String()+" memory", gc, wc, tol); err != nil {
				return err
			}
		}
		return nil
	}
}

// Both returns the Twin case on each side, named name/low and name/high;
// known, if not nil, gives the known bug each side fails with ("" for
// none).
func Both[T views.Scalar](name string, specs []Spec, tol float64, known func(Side) string, call Call[T]) []Case {
	var cs []Case
	for _, side := range Sides {
		c := Case{Name: name + "/" + side.String(), Side: side, Run: Twin(specs, tol, call)}
		if known != nil {
			c.Known = known(side)
		}
		cs = append(cs, c)
	}
	return cs
}

// TypeName is T's name: float32, float64, complex64 or complex128.
func TypeName[T views.Scalar]() string { return fmt.Sprintf("%T", *new(T)) }

// columns calls f with the index of each column of a view of shape (axis
// 0 along a column; every further axis indexes columns), idx[0] free for
// f to walk the column's m = shape[0] elements.
func columns(shape []int, f func(idx []int, m int)) {
	if len(shape) == 0 || shape[0] == 0 {
		return
	}
	cols := 1
	for _, d := range shape[1:] {
		cols *= d
	}
	idx := make([]int, len(shape))
	for c := 0; c < cols; c++ {
		for k, r := 1, c; k < len(shape); k++ {
			idx[k], r = r%shape[k], r/shape[k]
		}
		f(idx, shape[0])
	}
}

// scaleColumn multiplies the column of v at idx (m elements) by f.
func scaleColumn[T views.Scalar](v views.View[T], idx []int, m int, f complex128) {
	for idx[0] = 0; idx[0] < m; idx[0]++ {
		v.Set(fromComplex[T](scalar.Complex128(v.At(idx...))*f), idx...)
	}
}

// alignColumns multiplies each column of got by the unit factor that
// brings it closest to want's: the phase of their inner product (its
// sign for real T). Columns that are zero or hold a NaN are left alone.
func alignColumns[T views.Scalar](got, want views.View[T]) {
	columns(got.Shape(), func(idx []int, m int) {
		var dot complex128
		for idx[0] = 0; idx[0] < m; idx[0]++ {
			dot += cmplx.Conj(scalar.Complex128(got.At(idx...))) * scalar.Complex128(want.At(idx...))
		}
		a := cmplx.Abs(dot)
		if a == 0 || math.IsNaN(a) || math.IsInf(a, 0) {
			return
		}
		f := dot / complex(a, 0)
		if !views.IsComplex[T]() {
			f = complex(math.Copysign(1, real(f)), 0)
		}
		scaleColumn(got, idx, m, f)
	})
}

// Canonical scales each column of v (as columns counts them) by the unit
// factor that makes its largest element real and positive, so that
// eigenvectors a routine returns (rather than leaves in an operand) can
// be compared between Twin's runs. Where two elements tie for largest
// within rounding the choice could differ; the cases' values do not.
func Canonical[T views.Scalar](v views.View[T]) views.View[T] {
	columns(v.Shape(), func(idx []int, m int) {
		var big complex128
		for idx[0] = 0; idx[0] < m; idx[0]++ {
			if e := scalar.Complex128(v.At(idx...)); cmplx.Abs(e) > cmplx.Abs(big) {
				big = e
			}
		}
		if a := cmplx.Abs(big); a != 0 && !math.IsInf(a, 0) {
			scaleColumn(v, idx, m, cmplx.Conj(big)/complex(a, 0))
		}
	})
	return v
}
