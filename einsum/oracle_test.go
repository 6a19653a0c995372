package einsum

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/views"
)

// oracle computes the contraction index by index: for every assignment of
// every label, the product of the operands' elements (conjugated views
// read through At, which conjugates) added into the result's element.
// An operand axis of extent 1 whose label has another extent is read at
// index 0 (it repeats).
func oracle[T Scalar](t testing.TB, subscripts string, ops ...views.View[T]) (shape []int, vals []complex128) {
	t.Helper()
	s, err := Parse(subscripts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := resolve(&s, ops, nil)
	if err != nil {
		t.Fatal(err)
	}
	shape = p.shape()
	n := 1
	for _, d := range shape {
		n *= d
	}
	vals = make([]complex128, n)
	idx := make([]int, len(p.ext))
	total := 1
	for _, e := range p.ext {
		total *= e
	}
	for c := range total {
		r := c
		for l, e := range p.ext {
			idx[l], r = r%e, r/e
		}
		prod := complex(1, 0)
		for k, v := range ops {
			at := make([]int, v.Rank())
			for a, l := range p.in[k] {
				if v.Shape()[a] != 1 {
					at[a] = idx[l]
				}
			}
			prod *= toC(v.At(at...))
		}
		o, stride := 0, 1
		for a, l := range p.out {
			o += idx[l] * stride
			stride *= shape[a]
		}
		vals[o] += prod
	}
	return shape, vals
}

// toC is x as a complex128.
func toC[T Scalar](x T) complex128 { return scalar.Complex128(x) }

// eps is T's rounding unit.
func eps[T Scalar]() float64 {
	switch any(*new(T)).(type) {
	case float32, complex64:
		return 0x1p-23
	}
	return 0x1p-52
}

// checkAgainst compares got (any layout) with the oracle's column-major
// values, within a tolerance of terms * eps * scale.
func checkAgainst[T Scalar](t testing.TB, what string, got views.View[T], shape []int, want []complex128, terms int) {
	t.Helper()
	if fmt.Sprint(got.Shape()) != fmt.Sprint(shape) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape(), shape)
	}
	idx := make([]int, len(shape))
	tol := 8 * float64(terms+1) * eps[T]()
	for o := range want {
		r := o
		for a, d := range shape {
			idx[a], r = r%d, r/d
		}
		g := toC(got.At(idx...))
		if cmplx.Abs(g-want[o]) > tol*(1+cmplx.Abs(want[o])) || math.IsNaN(real(g)) {
			t.Fatalf("%s: element %v = %v, want %v", what, idx, g, want[o])
		}
	}
}

// fill returns a tensor of the shape with random values in [-1, 1).
func fill[T Scalar](rng *rand.Rand, shape ...int) *views.Tensor[T] {
	x, err := views.Zeros[T](shape...)
	if err != nil {
		panic(err)
	}
	d := x.Data()
	for i := range d {
		re, im := 2*rng.Float64()-1, 2*rng.Float64()-1
		switch p := any(&d[i]).(type) {
		case *float32:
			*p = float32(re)
		case *float64:
			*p = re
		case *complex64:
			*p = complex(float32(re), float32(im))
		case *complex128:
			*p = complex(re, im)
		}
	}
	return x
}

func TestBasic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		spec   string
		shapes [][]int
	}{
		{"ij,jk->ik", [][]int{{3, 4}, {4, 5}}},
		{"ij,jk", [][]int{{3, 4}, {4, 5}}},
		{"ijk,jkl->il", [][]int{{3, 4, 5}, {4, 5, 2}}},
		{"ijb,jkb->ikb", [][]int{{3, 4, 6}, {4, 5, 6}}},
		{"bij,bjk->bik", [][]int{{6, 3, 4}, {6, 4, 5}}},
		{"abcd,cdef->abef", [][]int{{2, 3, 4, 5}, {4, 5, 3, 2}}},
		{"ij,jk,kl,lm->im", [][]int{{7, 2}, {2, 7}, {7, 2}, {2, 7}}},
		{"ii->", [][]int{{4, 4}}},
		{"ii->i", [][]int{{4, 4}}},
		{"ij->ji", [][]int{{3, 4}}},
		{"ij->", [][]int{{3, 4}}},
		{"ij,ij->ij", [][]int{{3, 4}, {3, 4}}},
		{"i,j->ij", [][]int{{3}, {4}}},
		{"bi,bi->b", [][]int{{5, 3}, {5, 3}}},
		{"i,i", [][]int{{7}, {7}}},
		{"ijk,kji->", [][]int{{2, 3, 4}, {4, 3, 2}}},
		{"iij,jk->ik", [][]int{{3, 3, 4}, {4, 2}}},
		{"ij...,jk...->ik...", [][]int{{3, 4, 2, 5}, {4, 2, 2}}},
		{"ij...,jk...", [][]int{{3, 4, 2}, {4, 2, 2}}},
		{"ij,jk->ki", [][]int{{3, 4}, {4, 5}}},
		{"ab,bc,cd,de,ea->", [][]int{{2, 3}, {3, 4}, {4, 2}, {2, 3}, {3, 2}}},
		{"ij,j->i", [][]int{{3, 4}, {1}}},
		{"ijk,ikl->jl", [][]int{{3, 4, 5}, {3, 5, 2}}},
		{"ij,kl->ijkl", [][]int{{2, 3}, {3, 2}}},
		{"ij,jk->ik", [][]int{{0, 4}, {4, 5}}},
		{"ij,jk->ik", [][]int{{3, 0}, {0, 5}}},
	} {
		ops := make([]views.View[float64], len(c.shapes))
		for k, sh := range c.shapes {
			ops[k] = fill[float64](rng, sh...).View()
		}
		shape, want := oracle(t, c.spec, ops...)
		got, err := Contract(c.spec, ops...)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		checkAgainst(t, c.spec, got.View(), shape, want, 64)
	}
}
