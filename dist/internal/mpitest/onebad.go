package main

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// oneBadCase is one entry point called with an argument that is wrong on
// one rank only (bad); every rank must return an error with the
// sentinel, naming arg, instead of the others waiting in a collective.
type oneBadCase struct {
	name, arg string
	sentinel  error
	bad       int                                 // the rank whose argument is wrong
	call      func(g *dist.Grid, mine bool) error // mine: this rank passes the wrong one
}

// oneBad runs the cases (all, or the one named) on a 1 x Q grid that
// leaves the last rank out when the job has 3 ranks or more, so that
// ranks outside a grid are checked too. After them a correct Gesv must
// still solve (the ranks are still in step).
func oneBad(only string) {
	last := dist.Size() - 1
	q := dist.Size()
	if q >= 3 {
		q--
	}
	g, err := dist.NewGrid(1, q)
	must(err)
	const n, nb = 9, 2
	mat := func(m, n, mb, nb int) *dist.Matrix[float64] {
		a, err := dist.New[float64](g, m, n, mb, nb)
		must(err)
		a.Fill(func(i, j int) float64 { return 1/float64(1+i+j) + b2f(i == j)*float64(m) })
		return a
	}
	// pick returns bad on the rank that passes the wrong argument.
	pick := func(mine bool, good, bad *dist.Matrix[float64]) *dist.Matrix[float64] {
		if mine {
			return bad
		}
		return good
	}
	cases := []oneBadCase{
		{"NewGrid", "p, q", layout.ErrShape, last, func(g *dist.Grid, mine bool) error {
			p := 1
			if mine {
				p = dist.Size() + 1
			}
			g2, err := dist.NewGrid(p, 1)
			if err == nil {
				must(g2.Exit())
			}
			return err
		}},
		{"New", "m, n, mb, nb", layout.ErrShape, last, func(g *dist.Grid, mine bool) error {
			mb := 2
			if mine {
				mb = 0
			}
			a, err := dist.New[float64](g, n, n, mb, 2)
			if err == nil {
				a.Release()
			}
			return err
		}},
		{"Wrap", "local", layout.ErrShape, last, func(g *dist.Grid, mine bool) error {
			ml, nl := dist.LocalShape(g, n, n, nb, nb)
			if mine {
				ml++
			}
			t, _ := views.Zeros[float64](ml, nl)
			defer t.Release()
			_, err := dist.Wrap(g, n, n, nb, nb, t.View())
			return err
		}},
		{"Scatter", "src", layout.ErrShape, last, func(g *dist.Grid, mine bool) error {
			a := mat(n, n, nb, nb)
			defer a.Release()
			var src views.View[float64]
			if dist.Rank() == last {
				t, _ := views.Zeros[float64](n, n+1) // the root's src has a column too many
				defer t.Release()
				src = t.View()
			}
			return a.Scatter(last, src)
		}},
		{"Scatter-root", "root", layout.ErrBounds, last, func(g *dist.Grid, mine bool) error {
			a := mat(n, n, nb, nb)
			defer a.Release()
			root := 0
			if mine {
				root = -1
			}
			var src views.View[float64]
			t, _ := views.Zeros[float64](n, n)
			defer t.Release()
			if dist.Rank() == 0 {
				src = t.View()
			}
			return a.Scatter(root, src)
		}},
		{"Gather", "root", layout.ErrBounds, last, func(g *dist.Grid, mine bool) error {
			a := mat(n, n, nb, nb)
			defer a.Release()
			root := 0
			if mine {
				root = dist.Size()
			}
			t, _ := views.Zeros[float64](n, n)
			defer t.Release()
			var dst views.View[float64]
			if dist.Rank() == 0 {
				dst = t.View()
			}
			return a.Gather(root, dst)
		}},
		{"Redistribute", "dst, src", layout.ErrShape, last, func(g *dist.Grid, mine bool) error {
			a, b := mat(n, n, nb, nb), mat(n, n, 3, 3)
			defer a.Release()
			defer b.Release()
			return dist.Redistribute(pick(mine, b, nil), a)
		}},
		{"Gemm", "ta, tb", lapis.ErrInvalid, last, func(g *dist.Grid, mine bool) error {
			a, b, c := mat(n, n, nb, nb), mat(n, n, nb, nb), mat(n, n, nb, nb)
			defer a.Release()
			defer b.Release()
			defer c.Release()
			ta := lapack.NoTrans
			if mine {
				ta = 'X'
			}
			return dist.Gemm(ta, lapack.NoTrans, 1, a, b, 0, c)
		}},
		{"Gesv", "b", layout.ErrShape, last, func(g *dist.Grid, mine bool) error {
			a, b, b2 := mat(n, n, nb, nb), mat(n, 1, nb, nb), mat(n, 1, 3, 3)
			defer a.Release()
			defer b.Release()
			defer b2.Release()
			_, err := dist.Gesv(a, pick(mine, b, b2))
			return err
		}},
		{"Potrf", "uplo", lapis.ErrInvalid, last, func(g *dist.Grid, mine bool) error {
			a := mat(n, n, nb, nb)
			defer a.Release()
			uplo := lapack.Lower
			if mine {
				uplo = 99
			}
			return dist.Potrf(uplo, a)
		}},
		{"Potrs", "b", layout.ErrShape, last, func(g *dist.Grid, mine bool) error {
			a, b, b2 := mat(n, n, nb, nb), mat(n, 2, nb, nb), mat(n+1, 2, nb, nb)
			defer a.Release()
			defer b.Release()
			defer b2.Release()
			must(dist.Potrf(lapack.Lower, a))
			return dist.Potrs(lapack.Lower, a, pick(mine, b, b2))
		}},
		{"Syevd", "w", layout.ErrShape, 0, func(g *dist.Grid, mine bool) error {
			a, z := mat(n, n, nb, nb), mat(n, n, nb, nb)
			defer a.Release()
			defer z.Release()
			w := make([]float64, n)
			if mine {
				w = w[:n-1]
			}
			return dist.Syevd(lapack.Lower, a, w, z)
		}},
		{"Gesvd", "s", layout.ErrShape, 0, func(g *dist.Grid, mine bool) error {
			a, u, vt := mat(n, n, nb, nb), mat(n, n, nb, nb), mat(n, n, nb, nb)
			defer a.Release()
			defer u.Release()
			defer vt.Release()
			s := make([]float64, n)
			if mine {
				s = make([]float64, n+1)
			}
			return dist.Gesvd(a, s, u, vt)
		}},
		{"Gels", "b", layout.ErrShape, last, func(g *dist.Grid, mine bool) error {
			a, b, b2 := mat(n+2, n, nb, nb), mat(n+2, 1, nb, nb), mat(n, 1, nb, nb)
			defer a.Release()
			defer b.Release()
			defer b2.Release()
			return dist.Gels(a, pick(mine, b, b2))
		}},
		// Arguments each rank accepts but the ranks do not share: a
		// different triangle, a right-hand side of another width.
		{"Potrf-mismatch", "arguments", lapis.ErrInvalid, -1, func(g *dist.Grid, mine bool) error {
			a := mat(n, n, nb, nb)
			defer a.Release()
			uplo := lapack.Lower
			if dist.Rank() == last {
				uplo = lapack.Upper
			}
			return dist.Potrf(uplo, a)
		}},
		{"Gesv-mismatch", "arguments", lapis.ErrInvalid, -1, func(g *dist.Grid, mine bool) error {
			a, b, b2 := mat(n, n, nb, nb), mat(n, 1, nb, nb), mat(n, 2, nb, nb)
			defer a.Release()
			defer b.Release()
			defer b2.Release()
			_, err := dist.Gesv(a, pick(dist.Rank() == last, b, b2))
			return err
		}},
	}
	ran := 0
	for _, c := range cases {
		if only != "" && only != c.name {
			continue
		}
		ran++
		err := c.call(g, dist.Rank() == c.bad)
		var le *layout.Error
		switch {
		case !errors.Is(err, c.sentinel) || !errors.As(err, &le) || le.Arg != c.arg:
			failf("%s with rank %d's %s wrong: %v, want %v naming %q", c.name, c.bad, c.arg, err, c.sentinel, c.arg)
		case c.bad >= 0 && dist.Rank() != c.bad && !strings.Contains(err.Error(), fmt.Sprintf("on rank %d: ", c.bad)):
			failf("%s: %v does not name rank %d", c.name, err, c.bad)
		case dist.Rank() == c.bad && strings.Contains(err.Error(), "on rank"):
			failf("%s: rank %d's own error %v is not its own message", c.name, c.bad, err)
		}
		if only != "" {
			fmt.Printf("rank %d: %s: %v\n", dist.Rank(), c.name, err)
		}
	}
	if ran == 0 {
		failf("no case named %q", only)
	}
	// Still in step: a correct solve works after all of them.
	a, b := mat(n, n, nb, nb), mat(n, 1, nb, nb)
	if _, err := dist.Gesv(a, b); err != nil {
		failf("Gesv after the bad calls: %v", err)
	}
	a.Release()
	b.Release()
	must(g.Exit())
	_ = math.NaN
}
