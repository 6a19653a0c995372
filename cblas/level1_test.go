package cblas

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/scalar"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// newVector makes a length-n view with the given stride over a NaN-padded
// buffer, filled with random values.
func newVector[T views.Scalar](rng *rand.Rand, n, stride int) tm.Operand[T] {
	off := 2
	if stride < 0 && n > 0 {
		off += (n - 1) * -stride
	}
	l, err := layout.New([]int{n}, []int{stride}, off)
	if err != nil {
		panic(err)
	}
	hi := off
	if n > 0 && stride > 0 {
		hi += (n - 1) * stride
	}
	buf := make([]T, hi+3)
	for i := range buf {
		buf[i] = tm.NaN[T]()
	}
	v, _ := views.FromSlice(buf, l)
	for i := 0; i < n; i++ {
		v.Set(tm.Random[T](rng), i)
	}
	return tm.Operand[T]{V: v, Buf: buf}
}

func values1[T views.Scalar](v views.View[T]) []T {
	out := make([]T, v.Len())
	for i := range out {
		out[i] = v.At(i)
	}
	return out
}

func close1[T views.Scalar](got, want T, n int) bool {
	return tm.Abs(got-want) <= float64(n+2)*8*scalar.Eps[T]()*(1+tm.Abs(want))
}

var strides = []int{1, 2, -1, -3}

func testLevel1[T views.Scalar](t *testing.T, rng *rand.Rand, n int, opt lapis.Option) {
	for _, sx := range strides {
		for _, sy := range strides {
			for c := 0; c < 4; c++ {
				name := fmt.Sprintf("%s n=%d sx=%d sy=%d conj=%d", tm.TypeName[T](), n, sx, sy, c)
				x, y := newVector[T](rng, n, sx), newVector[T](rng, n, sy)
				xv, yv := x.V, y.V
				if c&1 != 0 {
					xv = xv.Conj()
				}
				if c&2 != 0 {
					yv = yv.Conj()
				}
				xs, ys := values1(xv), values1(yv)
				// Dot
				var want T
				for i := range xs {
					want += xs[i] * ys[i]
				}
				got, err := Dot(xv, yv, opt)
				if err != nil || !close1(got, want, n) {
					t.Fatalf("%s Dot = %v, %v; want %v", name, got, err, want)
				}
				// Axpy
				alpha := tm.Random[T](rng)
				if err := Axpy(alpha, xv, yv, opt); err != nil {
					t.Fatalf("%s Axpy: %v", name, err)
				}
				for i, g := range values1(yv) {
					if w := ys[i] + alpha*xs[i]; !close1(g, w, 2) {
						t.Fatalf("%s Axpy y[%d] = %v, want %v", name, i, g, w)
					}
				}
				// Scal, Nrm2, Asum, Iamax on x
				if err := Scal(alpha, xv, opt); err != nil {
					t.Fatalf("%s Scal: %v", name, err)
				}
				nrm, asum, best, arg := 0.0, 0.0, -1.0, -1
				for i, g := range values1(xv) {
					if w := xs[i] * alpha; !close1(g, w, 2) {
						t.Fatalf("%s Scal x[%d] = %v, want %v", name, i, g, w)
					}
					nrm += tm.Abs(g) * tm.Abs(g)
					asum += abs1(g)
					if abs1(g) > best {
						best, arg = abs1(g), i
					}
				}
				if got, err := Nrm2(xv, opt); err != nil || math.Abs(got-math.Sqrt(nrm)) > 1e-5*(1+got) {
					t.Fatalf("%s Nrm2 = %v, %v; want %v", name, got, err, math.Sqrt(nrm))
				}
				if got, err := Asum(xv, opt); err != nil || math.Abs(got-asum) > 1e-5*(1+got) {
					t.Fatalf("%s Asum = %v, %v; want %v", name, got, err, asum)
				}
				if got, err := Iamax(xv, opt); err != nil || got != arg {
					t.Fatalf("%s Iamax = %v, %v; want %v", name, got, err, arg)
				}
				// Swap, Rot
				xs, ys = values1(xv), values1(yv)
				if err := Swap(xv, yv, opt); err != nil {
					t.Fatalf("%s Swap: %v", name, err)
				}
				for i := range xs {
					if xv.At(i) != ys[i] || yv.At(i) != xs[i] {
						t.Fatalf("%s Swap at %d", name, i)
					}
				}
				cs, sn := 0.6, 0.8
				xs, ys = values1(xv), values1(yv)
				if err := Rot(xv, yv, cs, sn, opt); err != nil {
					t.Fatalf("%s Rot: %v", name, err)
				}
				ct, st := tm.FromParts[T](cs, 0), tm.FromParts[T](sn, 0)
				for i := range xs {
					wx := xs[i]*ct + ys[i]*st
					wy := ys[i]*ct - xs[i]*st
					if !close1(xv.At(i), wx, 2) || !close1(yv.At(i), wy, 2) {
						t.Fatalf("%s Rot at %d: %v %v, want %v %v", name, i, xv.At(i), yv.At(i), wx, wy)
					}
				}
				x.CheckPadding(t, name+" x")
				y.CheckPadding(t, name+" y")
			}
		}
	}
}

func TestLevel1(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{0, 1, 2, 5, 33, 100} {
		for _, opt := range []lapis.Option{{}, lapis.ForceC(), lapis.ForcePureGo()} {
			testLevel1[float64](t, rng, n, opt)
			testLevel1[float32](t, rng, n, opt)
			testLevel1[complex128](t, rng, n, opt)
			testLevel1[complex64](t, rng, n, opt)
		}
	}
}

func TestLevel1Errors(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	x, y := newVector[float64](rng, 4, 1), newVector[float64](rng, 5, 1)
	m := tm.New[float64](rng, 2, 2, tm.ColPacked)
	bc, _ := x.V.Slice(0, 0, 1, 1)
	bc, _ = bc.BroadcastTo(4)
	alias, _ := views.FromSlice(x.Buf, must(layout.New([]int{4}, []int{1}, 3)))
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"Dot length", err2(Dot(x.V, y.V)), layout.ErrShape},
		{"Dot rank", err2(Dot(m.V, m.V)), layout.ErrShape},
		{"Axpy broadcast y", Axpy(1, x.V, bc), layout.ErrOverlap},
		{"Axpy aliased", Axpy(1, x.V, alias), layout.ErrOverlap},
		{"Scal broadcast", Scal(2, bc), layout.ErrOverlap},
		{"Swap aliased", Swap(x.V, alias), layout.ErrOverlap},
		{"Nrm2 rank", err2(Nrm2(m.V)), layout.ErrShape},
		{"Iamax rank", err2(Iamax(m.V)), layout.ErrShape},
		{"Rot length", Rot(x.V, y.V, 1, 0), layout.ErrShape},
		{"Dot strict broadcast", err2(Dot(bc, x.V, lapis.Strict(true), lapis.ForceC())), lapis.ErrCopyRefused},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	// A broadcast input is fine (copied) outside strict mode.
	if d, err := Dot(bc, x.V, lapis.ForceC()); err != nil || !close1(d, x.V.At(0)*(x.V.At(0)+x.V.At(1)+x.V.At(2)+x.V.At(3)), 4) {
		t.Errorf("Dot(broadcast) = %v, %v", d, err)
	}
}

func err2[V any](_ V, err error) error { return err }

func TestLevel1NoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	x, y := newVector[complex128](rng, 200, -2), newVector[complex128](rng, 200, 3)
	xc := x.V.Conj()
	if n := testing.AllocsPerRun(50, func() {
		_, _ = Dot(xc, y.V)
		_ = Axpy(2i, x.V, y.V)
		_ = Scal(0.5, y.V)
		_, _ = Nrm2(x.V)
	}); n != 0 {
		t.Errorf("Level 1: %v allocations per run", n)
	}
	// The pure-Go paths, on short contiguous vectors.
	u, w := newVector[float64](rng, 4, 1), newVector[float64](rng, 4, 1)
	if n := testing.AllocsPerRun(50, func() {
		_, _ = Dot(u.V, w.V)
		_ = Axpy(2, u.V, w.V)
		_ = Scal(0.5, w.V)
		_, _ = Nrm2(u.V)
	}); n != 0 {
		t.Errorf("Level 1, pure Go: %v allocations per run", n)
	}
}
