package main

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/lapack"
)

// notFinite: a NaN or an infinity in what a routine reads is an error
// matching lapis.ErrNotFinite on every rank, the same text everywhere,
// naming the operand (and for Potrf the element itself); a NaN where the
// routine does not read is not.
func notFinite() {
	for _, pq := range grids() {
		g, err := dist.NewGrid(pq[0], pq[1])
		must(err)
		for _, nb := range []int{2, 5} {
			name := fmt.Sprintf("grid %dx%d nb=%d", pq[0], pq[1], nb)
			notFiniteOf[float64](g, name+" float64", nb)
			notFiniteOf[complex128](g, name+" complex128", nb)
		}
		must(g.Exit())
	}
}

func notFiniteOf[T dist.Scalar](g *dist.Grid, name string, nb int) {
	const n = 13
	nan, inf := value[T](math.NaN(), 0), value[T](math.Inf(1), 0)
	// mat returns a well-conditioned m x k matrix (symmetric positive
	// definite when square) with bad at the listed global positions.
	mat := func(m, k int, bad T, at ...[2]int) *dist.Matrix[T] {
		a, err := dist.New[T](g, m, k, nb, nb)
		must(err)
		a.Fill(func(i, j int) T {
			if slices.Contains(at, [2]int{i, j}) {
				return bad
			}
			if i == j {
				return value[T](float64(2*m), 0)
			}
			return value[T](1/float64(1+i+j), 0)
		})
		return a
	}
	for _, c := range []struct {
		what string
		args []string // the operands the error may name
		elem string   // the element it must name ("" any)
		run  func() error
	}{
		{"Gesv, NaN in a", []string{"a"}, "", func() error {
			a, b := mat(n, n, nan, [2]int{4, 9}), mat(n, 1, 0)
			defer a.Release()
			defer b.Release()
			_, err := dist.Gesv(a, b)
			return err
		}},
		{"Gesv, +Inf in b", []string{"b"}, "", func() error {
			a, b := mat(n, n, 0), mat(n, 2, inf, [2]int{6, 1})
			defer a.Release()
			defer b.Release()
			_, err := dist.Gesv(a, b)
			return err
		}},
		{"Potrf lower, NaN at (7, 2)", []string{"a"}, "element (7, 2)", func() error {
			a := mat(n, n, nan, [2]int{7, 2})
			defer a.Release()
			return dist.Potrf(lapack.Lower, a)
		}},
		{"Potrf upper, +Inf at (3, 11)", []string{"a"}, "element (3, 11)", func() error {
			a := mat(n, n, inf, [2]int{3, 11})
			defer a.Release()
			return dist.Potrf(lapack.Upper, a)
		}},
		{"Potrf lower, NaN only in the upper triangle", nil, "", func() error {
			a := mat(n, n, nan, [2]int{2, 7}, [2]int{0, 12})
			defer a.Release()
			return dist.Potrf(lapack.Lower, a)
		}},
		{"Potrs, NaN in b", []string{"b"}, "", func() error {
			a, b := mat(n, n, 0), mat(n, 1, nan, [2]int{5, 0})
			defer a.Release()
			defer b.Release()
			must(dist.Potrf(lapack.Lower, a))
			return dist.Potrs(lapack.Lower, a, b)
		}},
		{"Syevd, NaN in the lower triangle", []string{"a", "result"}, "", func() error {
			a, z := mat(n, n, nan, [2]int{8, 3}), mat(n, n, 0)
			defer a.Release()
			defer z.Release()
			return dist.Syevd(lapack.Lower, a, make([]float64, n), z)
		}},
		{"Gesvd, +Inf in a", []string{"a", "result"}, "", func() error {
			a := mat(n+2, n, inf, [2]int{10, 4})
			defer a.Release()
			return dist.Gesvd(a, make([]float64, n), nil, nil)
		}},
		{"Gels, NaN in a", []string{"a", "b"}, "", func() error {
			a, b := mat(n+3, n, nan, [2]int{1, 1}), mat(n+3, 1, 0)
			defer a.Release()
			defer b.Release()
			return dist.Gels(a, b)
		}},
		{"Gels, NaN in b", []string{"b"}, "", func() error {
			a, b := mat(n+3, n, 0), mat(n+3, 1, nan, [2]int{9, 0})
			defer a.Release()
			defer b.Release()
			return dist.Gels(a, b)
		}},
	} {
		if os.Getenv("MPITEST_VERBOSE") != "" && dist.Rank() == 0 {
			fmt.Println("running", name, c.what)
		}
		err := c.run()
		var e *dist.Error
		switch {
		case c.args == nil && err != nil:
			failf("%s: %s: %v, want nil (that triangle is not read)", name, c.what, err)
		case c.args == nil:
		case !errors.Is(err, lapis.ErrNotFinite) || !errors.As(err, &e) || !slices.Contains(c.args, e.Arg):
			failf("%s: %s: %v, want lapis.ErrNotFinite naming %v", name, c.what, err, c.args)
		case !strings.Contains(err.Error(), c.elem):
			failf("%s: %s: %v does not name %s", name, c.what, err, c.elem)
		}
		if !sameOnEveryRank(fmt.Sprint(err)) {
			failf("%s: %s: the ranks' errors differ (this rank's: %v)", name, c.what, err)
		}
	}
}

// sameOnEveryRank reports whether s is the same on every rank (a hash's
// largest and smallest value over the ranks agree).
func sameOnEveryRank(s string) bool {
	h := fnv.New32a()
	h.Write([]byte(s))
	x := int(h.Sum32() >> 1)
	hi, err := dist.AllMaxInt(x)
	must(err)
	lo, err := dist.AllMaxInt(-x)
	must(err)
	return hi == -lo
}
