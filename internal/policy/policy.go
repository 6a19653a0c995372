// Package policy holds the copy policy that cblas, lapack and fortran
// share: the counters of C calls and operand copies, the process-wide
// strict switch, the per-call options and the error a refused copy
// matches. It is internal so that the packages count into one place and
// honour one switch; users reach it through cblas (Stats, ReadStats,
// SetStrict, Strict, ErrCopyRefused) and the options of lapack, batch and
// fortran.
package policy

import (
	"errors"
	"sync/atomic"
)

// ErrCopyRefused is matched by the error a call returns in strict mode
// when an operand would need a copy (cblas.ErrCopyRefused is this value).
var ErrCopyRefused = errors.New("operand needs a copy")

// Counters, read by cblas.ReadStats.
var (
	Calls  atomic.Int64 // calls into BLAS
	Lapack atomic.Int64 // calls into LAPACK
	Copies atomic.Int64 // operands copied (in, or in and out)
	Small  atomic.Int64 // BLAS calls served by the pure-Go path
)

var strict atomic.Bool

// SetStrict sets the process-wide strict switch and returns its previous
// value.
func SetStrict(on bool) bool { return strict.Swap(on) }

// Option changes one call. Options are values (not closures), so that
// passing them allocates nothing.
type Option struct {
	kind kind
	on   bool
	n    int
}

type kind int

const (
	none kind = iota
	strictKind
	pathKind
	methodKind
	condKind
	triangleKind
)

// Where a BLAS call runs.
const (
	PathAuto = iota // by size
	PathC           // always the C library
	PathGo          // always pure Go
)

// Config is what a call's options and the process-wide switch resolve to.
type Config struct {
	Strict bool
	Path   int
	Method int // the algorithm a LAPACK helper uses; 0 is its default
	// NoCondCheck turns off the checks that report a numerically rank
	// deficient or ill-conditioned matrix as an error (lapack).
	NoCondCheck bool
	// Triangle is the triangle a helper reads of a symmetric or Hermitian
	// matrix: 0 the default (lower), 1 upper, 2 lower, as set by Triangle.
	Triangle int
}

// Strict returns the option that refuses (on) or allows copies in one call.
func Strict(on bool) Option { return Option{kind: strictKind, on: on} }

// Path returns the option that sends a call to PathC or PathGo.
func Path(p int) Option { return Option{kind: pathKind, on: p == PathC} }

// Method returns the option that picks algorithm m of a LAPACK helper.
func Method(m int) Option { return Option{kind: methodKind, n: m} }

// CondCheck returns the option that turns the conditioning checks off
// (on false) or on.
func CondCheck(on bool) Option { return Option{kind: condKind, on: on} }

// Triangle returns the option that makes a helper read the upper (upper
// true) or the lower triangle.
func Triangle(upper bool) Option {
	if upper {
		return Option{kind: triangleKind, n: 1}
	}
	return Option{kind: triangleKind, n: 2}
}

// Configure resolves opts over the process-wide switch.
func Configure(opts []Option) Config {
	c := Config{Strict: strict.Load()}
	for _, o := range opts {
		switch o.kind {
		case strictKind:
			c.Strict = o.on
		case pathKind:
			c.Path = PathGo
			if o.on {
				c.Path = PathC
			}
		case methodKind:
			c.Method = o.n
		case condKind:
			c.NoCondCheck = !o.on
		case triangleKind:
			c.Triangle = o.n
		}
	}
	return c
}
