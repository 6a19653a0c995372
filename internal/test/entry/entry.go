// Package entry tries every exported function and method of lapis's
// public packages that takes a view or a tensor, in each such position,
// with the operands no entry point may crash on: the zero View (or zero
// Tensor, Matrix), a view of a released tensor, and a broadcast of more
// elements than this machine's memory holds. The table of calls
// (calls_gen.go) is generated from the packages' source by ./gen, so a
// function added later is tried without anyone listing it; a parameter
// type the harness has no value for fails go generate, naming the
// function.
//
// The harness (Args) gives each parameter a value: views shaped by a
// template (every matrix 3 x 3, every vector of length 3, batches of two
// 3 x 3 matrices, ...), holding a symmetric positive definite matrix so
// that factorisations succeed, fresh memory for every position so that
// outputs never overlap inputs. For each function it first finds a
// template under which the call succeeds (its baseline), then replaces
// one position at a time with a bad operand. TestEntryPoints (entry_test.go)
// runs the cases in a child process under a memory limit and states the
// rules a result must meet.
package entry

//go:generate go run ./gen -o calls_gen.go

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"unsafe"

	"github.com/lapis-go/lapis/dist"
	"github.com/lapis-go/lapis/einsum"
	"github.com/lapis-go/lapis/elem"
	"github.com/lapis-go/lapis/fortran"
	"github.com/lapis-go/lapis/npy"
	"github.com/lapis-go/lapis/views"
)

// Param is a parameter of a call: its name, the method of Args that
// gives its value, and whether it is a position (takes a view or tensor).
type Param struct {
	Name, Kind string
	Pos        bool
}

// Result is what a call returned: its first result (released by the
// harness when it is a tensor), and its error when its last result is one.
type Result struct {
	Value  any
	Err    error
	HasErr bool
}

// Call is one row of the table.
type Call struct {
	Name   string
	Params []Param
	Fn     func(x *Args) Result
}

// Calls returns the table.
func Calls() []Call { return calls }

// Mode is what a position is given.
type Mode int

const (
	Good     Mode = iota
	Zero          // the zero View, Tensor or Matrix
	Released      // a view of a released tensor, the released tensor or Matrix
	Huge          // a read-only broadcast of more bytes than MaxBytes, along Axis
)

func (m Mode) String() string {
	return [...]string{"good", "zero", "released", "huge"}[m]
}

// Template shapes the views of a call by parameter name.
type Template struct {
	Name  string
	Shape func(param string) []int
	Len   int // the length of slices (pivots, tau, eigenvalues)
}

// vectors are the parameter names that are vectors in BLAS and LAPACK.
var vectors = map[string]bool{"x": true, "y": true, "w": true, "s": true, "tau": true}

func sq(string) []int { return []int{3, 3} }

// Templates are tried in order for a call's baseline.
var Templates = []Template{
	{"3x3", sq, 3},
	{"3", func(string) []int { return []int{3} }, 3},
	{"3x3 with vectors", func(p string) []int {
		if vectors[p] {
			return []int{3}
		}
		return sq(p)
	}, 3},
	{"3x3x2", func(string) []int { return []int{3, 3, 2} }, 6},
	{"3x3x2 with 3x1x2 right-hand sides", func(p string) []int {
		if p == "b" || p == "x" {
			return []int{3, 1, 2}
		}
		return []int{3, 3, 2}
	}, 6},
	{"3x3 with 3x1 right-hand sides", func(p string) []int {
		if p == "b" || p == "x" {
			return []int{3, 1}
		}
		return sq(p)
	}, 3},
	{"3x3, lengths 9", sq, 9},
}

// Args gives a call's parameters their values: position Bad gets an
// operand of mode Mode, every other one a good value of the template.
type Args struct {
	Call   *Call
	T      Template
	Bad    int  // the position tried; -1: none
	Mode   Mode // what position Bad gets
	Axis   int  // Huge: the axis of the template's shape made huge
	HugeN  int  // Huge: its extent
	Choice int  // which constant of each enumerated type (Pick)
	Dir    string
	G      *dist.Grid
	owned  []*views.Tensor[float64]
	mats   []*dist.Matrix[float64]
	inputs []snapshot // the good views, to check nothing was written
	cache  map[int]any
}

type snapshot struct {
	name string
	v    views.View[float64]
	data []float64
}

// name is parameter i's name.
func (x *Args) name(i int) string { return x.Call.Params[i].Name }

func (x *Args) memo(i int, f func() any) any {
	if x.cache == nil {
		x.cache = map[int]any{}
	}
	if v, ok := x.cache[i]; ok {
		return v
	}
	v := f()
	x.cache[i] = v
	return v
}

// spd fills t's matrices with 4 on the diagonal and 1 elsewhere (its
// vectors with 1, 2, 3, ...): positive definite, well conditioned.
func spd(t *views.Tensor[float64]) {
	d := t.Data()
	s := t.Shape()
	if len(s) < 2 {
		for i := range d {
			d[i] = float64(i + 1)
		}
		return
	}
	m, n := s[0], s[1]
	for i := range d {
		r, c := i%m, i/m%n
		d[i] = 1
		if r == c {
			d[i] = 4
		}
	}
}

// good returns a fresh tensor of parameter i's template shape.
func (x *Args) good(i int) *views.Tensor[float64] {
	t, err := views.Zeros[float64](x.T.Shape(x.name(i))...)
	if err != nil {
		panic(err)
	}
	spd(t)
	x.owned = append(x.owned, t)
	return t
}

// View is parameter i as a view.
func (x *Args) View(i int) views.View[float64] {
	return x.memo(i, func() any { return x.view(i) }).(views.View[float64])
}

func (x *Args) view(i int) views.View[float64] {
	if i != x.Bad {
		v := x.good(i).View()
		x.inputs = append(x.inputs, snapshot{name: x.name(i), v: v, data: append([]float64(nil), v.Data()...)})
		return v
	}
	switch x.Mode {
	case Zero:
		return views.View[float64]{}
	case Released:
		t := x.good(i)
		v := t.View()
		t.Release()
		return v
	case Huge:
		s := x.T.Shape(x.name(i))
		ones := make([]int, len(s))
		for k := range ones {
			ones[k] = 1
		}
		o, err := views.Full(2.0, ones...)
		if err != nil {
			panic(err)
		}
		x.owned = append(x.owned, o)
		s[x.Axis%len(s)] = x.HugeN
		v, err := o.View().BroadcastTo(s...)
		if err != nil {
			panic(err)
		}
		return v
	}
	return x.good(i).View()
}

// Tensor is parameter i as a tensor (Huge is not a tensor: Good).
func (x *Args) Tensor(i int) *views.Tensor[float64] {
	return x.memo(i, func() any {
		if i == x.Bad {
			switch x.Mode {
			case Zero:
				return new(views.Tensor[float64])
			case Released:
				t := x.good(i)
				t.Release()
				return t
			}
		}
		return x.good(i)
	}).(*views.Tensor[float64])
}

// Arg is parameter i as a Fortran argument (InOut of View(i)).
func (x *Args) Arg(i int) fortran.Arg { return fortran.InOut(x.View(i)) }

// Args is parameter i as one Fortran argument in a slice.
func (x *Args) Args(i int) []fortran.Arg { return []fortran.Arg{x.Arg(i)} }

// Member is parameter i as an npy member.
func (x *Args) Member(i int) npy.Member { return npy.Named("m", x.View(i)) }

// Members is parameter i as one npy member in a slice.
func (x *Args) Members(i int) []npy.Member { return []npy.Member{x.Member(i)} }

// Matrix is parameter i as a distributed matrix on a 1 x 1 grid (Huge is
// not a Matrix: Good).
func (x *Args) Matrix(i int) *dist.Matrix[float64] {
	return x.memo(i, func() any {
		if i == x.Bad && x.Mode == Zero {
			return new(dist.Matrix[float64])
		}
		s := x.T.Shape(x.name(i))
		m, n := s[0], 1
		if len(s) > 1 {
			n = s[1]
		}
		a, err := dist.New[float64](x.G, m, n, 2, 2)
		if err != nil {
			panic(err)
		}
		a.Fill(func(r, c int) float64 {
			if r == c {
				return 4
			}
			return 1
		})
		if i == x.Bad && x.Mode == Released {
			a.Release()
		} else {
			x.mats = append(x.mats, a)
		}
		return a
	}).(*dist.Matrix[float64])
}

// Grid is the 1 x 1 grid.
func (x *Args) Grid(int) *dist.Grid { return x.G }

func (x *Args) Scalar(i int) float64 {
	if x.name(i) == "beta" {
		return 0
	}
	return 1
}
func (x *Args) Real(i int) float64          { return x.Scalar(i) }
func (x *Args) Float64(i int) float64       { return x.Scalar(i) }
func (x *Args) Float32(i int) float32       { return float32(x.Scalar(i)) }
func (x *Args) Complex128(i int) complex128 { return complex(x.Scalar(i), 0) }
func (x *Args) Bool(int) bool               { return false }
func (x *Args) Enum(int) int                { return 0 }
func (x *Args) Int64(i int) int64           { return int64(x.Int(i)) }

// Pick is a parameter of an enumerated type: constant Choice of cs (the
// type's constants in source order), the same index for every such
// parameter of the call.
func Pick[E any](x *Args, cs ...E) E { return cs[x.Choice%len(cs)] }

// Int is an integer parameter by its name: extents 3, block sizes 2,
// grid sizes 1, axes, indices and starts 0, everything else 1.
func (x *Args) Int(i int) int {
	switch x.name(i) {
	case "n", "m", "k", "rows", "cols", "stop":
		return 3
	case "mb", "nb":
		return 2
	case "axis", "i", "j", "li", "lj", "start", "root", "axis0":
		return 0
	}
	return 1
}

// Ints is an integer list by its name: a shape (the template's), index
// (zeros) or axes (the identity).
func (x *Args) Ints(i int) []int {
	s := x.T.Shape("a")
	switch x.name(i) {
	case "idx":
		return make([]int, len(s))
	case "axes", "perm":
		p := make([]int, len(s))
		for k := range p {
			p[k] = k
		}
		return p
	}
	return s
}

// Int32s are pivots: 1, 2, 3, 1, 2, 3, ... (no interchange, 1-based).
func (x *Args) Int32s(int) []int32 {
	p := make([]int32, x.T.Len)
	for k := range p {
		p[k] = int32(k%3 + 1)
	}
	return p
}

func (x *Args) Scalars(int) []float64            { return make([]float64, x.T.Len) }
func (x *Args) Reals(int) []float64              { return make([]float64, x.T.Len) }
func (x *Args) Float64s(int) []float64           { return make([]float64, x.T.Len) }
func (x *Args) Complexes(int) []complex128       { return make([]complex128, x.T.Len) }
func (x *Args) Writer(int) io.Writer             { return new(bytes.Buffer) }
func (x *Args) Explicit(int) func(fortran.Array) { return func(fortran.Array) {} }
func (x *Args) ExplicitN(int) func([]fortran.Array) {
	return func([]fortran.Array) {}
}
func (x *Args) FillFunc(int) func(int, int) float64 { return func(int, int) float64 { return 1 } }
func (x *Args) MapFunc(int) func(float64) float64   { return func(v float64) float64 { return v } }
func (x *Args) ZipFunc(int) func(float64, float64) float64 {
	return func(v, w float64) float64 { return v + w }
}

// Expr is an expression over a good view of the template's shape.
func (x *Args) Expr(int) elem.Expr[float64] {
	t, err := views.Zeros[float64](x.T.Shape("a")...)
	if err != nil {
		panic(err)
	}
	return elem.X(t.View())
}

// String is a path in a scratch directory for a parameter named path,
// einsum's identity for any rank for subscripts, else a name.
func (x *Args) String(i int) string {
	switch x.name(i) {
	case "path":
		return filepath.Join(x.Dir, "x.npy")
	case "subscripts":
		return "...->..."
	}
	return "x"
}

// Views is parameter i as the one operand of a slice.
func (x *Args) Views(i int) []views.View[float64] { return []views.View[float64]{x.View(i)} }

// Spec is einsum's identity for any rank, "...->...".
func (x *Args) Spec(int) einsum.Spec {
	s, err := einsum.Parse("...->...")
	if err != nil {
		panic(err)
	}
	return s
}

// Plan is an einsum plan for the identity (Spec) from and into good views
// of the template's shape.
func (x *Args) Plan(i int) *einsum.Plan[float64] {
	t, err := views.Zeros[float64](x.T.Shape("a")...)
	if err != nil {
		panic(err)
	}
	p, err := einsum.NewPlan(x.Spec(i), t.View(), []views.View[float64]{t.View()}, einsum.Options{})
	if err != nil {
		panic(err)
	}
	return p
}

// notARoutine is what a Fortran routine parameter gets: an address that
// is not code. No call reaches a routine in these tests except with a
// good baseline, which calls with a routine are not given: a call that
// does not refuse a bad operand before calling it faults, which the
// child process reports as a crash.
var notARoutine byte

// Routine is a Fortran routine's address (see notARoutine).
func (x *Args) Routine(int) unsafe.Pointer { return unsafe.Pointer(&notARoutine) }

// HasRoutine reports whether c calls a Fortran routine it is given: such
// calls have no baseline.
func (c *Call) HasRoutine() bool {
	for _, p := range c.Params {
		if p.Kind == "Routine" {
			return true
		}
	}
	return false
}

// Written reports the good views whose data changed since they were made.
func (x *Args) Written() []string {
	var w []string
	for _, s := range x.inputs {
		if !bytes.Equal(f64bytes(s.v.Data()), f64bytes(s.data)) {
			w = append(w, s.name)
		}
	}
	return w
}

func f64bytes(d []float64) []byte {
	if len(d) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&d[0])), 8*len(d))
}

// Close releases what the call made.
func (x *Args) Close(r Result) {
	switch v := r.Value.(type) { // what the caller must end
	case interface{ Release() }:
		if v != nil && !isNil(v) {
			v.Release()
		}
	case interface{ Done() }:
		if !isNil(v) {
			v.Done()
		}
	case interface{ Close() error }:
		if !isNil(v) {
			v.Close()
		}
	}
	for _, t := range x.owned {
		t.Release()
	}
	for _, m := range x.mats {
		m.Release()
	}
	os.Remove(filepath.Join(x.Dir, "x.npy"))
}

// isNil reports whether v holds a nil pointer.
func isNil(v any) bool {
	return reflect.ValueOf(v).Kind() == reflect.Pointer && reflect.ValueOf(v).IsNil()
}

// Describe names a case for messages.
func (x *Args) Describe() string {
	if x.Bad < 0 {
		return fmt.Sprintf("%s (template %s)", x.Call.Name, x.T.Name)
	}
	s := fmt.Sprintf("%s(%s: %v", x.Call.Name, x.name(x.Bad), x.Mode)
	if x.Mode == Huge {
		s += fmt.Sprintf(" along axis %d", x.Axis)
	}
	return s + ")"
}
