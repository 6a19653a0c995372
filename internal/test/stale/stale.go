// Package stale tests that entry points refuse views of released tensors
// (lapis.ErrReleased): the tests of views, cblas, lapack, batch, fortran,
// dist and npy describe each entry point once, as a Call over its view
// arguments, and Check runs it with every argument in turn replaced by a
// view of a released tensor whose buffer the pool has handed to another
// tensor.
package stale

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	tm "github.com/lapis-go/lapis/internal/test/testmat"
	"github.com/lapis-go/lapis/views"
)

// Call is one entry point: the names and shapes of its view arguments,
// in order, and a function that calls it with views of those shapes.
type Call[T views.Scalar] struct {
	Name   string
	Args   []string
	Shapes [][]int
	Run    func(v []views.View[T]) error
}

// Of returns the Call of the entry point name with view arguments args
// of the given shapes, called by run.
func Of[T views.Scalar](name string, args []string, shapes [][]int, run func(v []views.View[T]) error) Call[T] {
	return Call[T]{Name: name, Args: args, Shapes: shapes, Run: run}
}

// Value is the element at column-major position i of a pooled operand of
// shape: symmetric and diagonally dominant for square matrices (every
// factorisation succeeds), distinct and finite everywhere.
func Value[T views.Scalar](shape []int, i int) T {
	if len(shape) < 2 {
		return tm.FromParts[T](float64(i%7+1), 0)
	}
	r, c := i%shape[0], i/shape[0]%shape[1]
	x := 1 / float64(1+r+c)
	if r == c {
		x += float64(shape[0] + shape[1])
	}
	return tm.FromParts[T](x, 0)
}

// Live returns a pooled tensor of shape holding Value.
func Live[T views.Scalar](tb testing.TB, shape []int) *views.Tensor[T] {
	tb.Helper()
	t, err := views.Zeros[T](shape...)
	if err != nil {
		tb.Fatal(err)
	}
	for i, d := 0, t.Data(); i < len(d); i++ {
		d[i] = Value[T](shape, i)
	}
	return t
}

// Released returns a view of a released tensor of shape and the tensor that
// received its buffer from the pool next (when the pool gives the buffer
// straight back, as it does on one goroutine, the view reaches that
// tensor's elements: the case no other check catches). Release the second
// tensor when done.
func Released[T views.Scalar](tb testing.TB, shape []int) (views.View[T], *views.Tensor[T]) {
	tb.Helper()
	t := Live[T](tb, shape)
	v := t.View()
	t.Release()
	next, err := views.Full(tm.FromParts[T](-9, 0), shape...)
	if err != nil {
		tb.Fatal(err)
	}
	return v, next
}

// Check runs c with live views of pooled tensors and with views over
// plain slices (both must succeed: neither is flagged), then once per
// argument with that argument a view of a released tensor: the call must
// return an error matching lapis.ErrReleased that names the argument,
// and leave every live operand and the tensor holding the released
// buffer unchanged.
func Check[T views.Scalar](t *testing.T, c Call[T]) {
	t.Helper()
	live := func() ([]views.View[T], []*views.Tensor[T]) {
		vs := make([]views.View[T], len(c.Shapes))
		ts := make([]*views.Tensor[T], len(c.Shapes))
		for i, s := range c.Shapes {
			ts[i] = Live[T](t, s)
			vs[i] = ts[i].View()
		}
		return vs, ts
	}
	vs, ts := live()
	if err := c.Run(vs); err != nil {
		t.Fatalf("%s with live views: %v", c.Name, err)
	}
	for i, x := range ts {
		v, err := views.FromSlice(slices.Clone(x.Data()), x.Layout())
		if err != nil {
			t.Fatal(err)
		}
		vs[i] = v
		x.Release()
	}
	if err := c.Run(vs); err != nil {
		t.Fatalf("%s with views of slices: %v", c.Name, err)
	}
	for k, name := range c.Args {
		vs, ts := live()
		stale, next := Released[T](t, c.Shapes[k])
		ts[k].Release() // not used: its place is taken by the stale view
		ts[k], vs[k] = next, stale
		before := make([][]T, len(ts))
		for i, x := range ts {
			before[i] = slices.Clone(x.Data())
		}
		err := c.Run(vs)
		switch {
		case !errors.Is(err, lapis.ErrReleased):
			t.Errorf("%s with %s released: error %v, want one matching lapis.ErrReleased", c.Name, name, err)
		case !strings.Contains(err.Error(), ": "+name+": "):
			t.Errorf("%s with %s released: error %q does not name %s", c.Name, name, err, name)
		}
		for i, x := range ts {
			if !slices.Equal(before[i], x.Data()) {
				t.Errorf("%s with %s released: %s changed", c.Name, name, argName(c.Args, i))
			}
			x.Release()
		}
	}
}

func argName(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return "an operand"
}
