package lapis

import "sync/atomic"

// Option changes one call of any lapis package. Options are small values,
// so passing them allocates nothing; a package ignores the options that do
// not concern it (ForceC means nothing to a LAPACK driver).
type Option struct {
	kind optionKind
	on   bool
}

type optionKind uint8

const (
	strictOption optionKind = iota + 1
	pathOption
	qrOption
	condOption
	triangleOption
)

// Strict(true) refuses operand copies in this call and Strict(false)
// allows them, whatever SetStrict says.
func Strict(on bool) Option { return Option{kind: strictOption, on: on} }

// ForceC sends a BLAS call to the C library whatever its size (by
// default small problems run in pure Go: see docs/blas.md).
func ForceC() Option { return Option{kind: pathOption, on: true} }

// ForcePureGo sends a BLAS call to the pure-Go path (gonum's algorithms,
// and for float64 products the Go-assembly kernel where the CPU has AVX2
// and FMA) whatever its size.
func ForcePureGo() Option { return Option{kind: pathOption, on: false} }

// NoConditionCheck turns off the checks that report a numerically
// singular or rank-deficient result as an error (lapack's and batch's
// Solve, Inv, LeastSquares and their forms): the result is returned as
// LAPACK computed it.
func NoConditionCheck() Option { return Option{kind: condOption, on: false} }

// QRIteration makes lapack.SVD use LAPACK's gesvd (QR iteration) instead
// of gesdd (divide and conquer, the default and several times faster on
// large matrices).
func QRIteration() Option { return Option{kind: qrOption, on: true} }

// UpperTriangle makes a helper that reads a symmetric or Hermitian matrix
// (Cholesky, EigSym, ...) read its upper triangle; LowerTriangle, the
// default, its lower one.
func UpperTriangle() Option { return Option{kind: triangleOption, on: true} }

// LowerTriangle: see UpperTriangle.
func LowerTriangle() Option { return Option{kind: triangleOption, on: false} }

// Path says where a BLAS call runs.
type Path uint8

const (
	PathAuto Path = iota // by size: small problems in Go, the rest in C
	PathC                // always the C library
	PathGo               // always pure Go
)

// Config is what a call's options resolve to over the process-wide
// settings. Code that takes ...Option and hands them to lapis reads it to
// honour them the same way.
type Config struct {
	Strict         bool // refuse operand copies (Strict, SetStrict)
	Path           Path // where a BLAS call runs (ForceC, ForcePureGo)
	QRIteration    bool // QR algorithm instead of divide and conquer
	ConditionCheck bool // report ill-conditioned results (true unless NoConditionCheck)
	UpperTriangle  bool // read a symmetric matrix's upper triangle
}

// Configure resolves opts, later options overriding earlier ones.
func Configure(opts ...Option) Config {
	c := Config{Strict: strict.Load(), ConditionCheck: true}
	for _, o := range opts {
		switch o.kind {
		case strictOption:
			c.Strict = o.on
		case pathOption:
			c.Path = PathGo
			if o.on {
				c.Path = PathC
			}
		case qrOption:
			c.QRIteration = o.on
		case condOption:
			c.ConditionCheck = o.on
		case triangleOption:
			c.UpperTriangle = o.on
		}
	}
	return c
}

var strict atomic.Bool

// SetStrict makes every call of every lapis package refuse to copy
// operands when on is true: a call that would copy returns an error
// matching ErrCopyRefused that names the operand, and changes nothing.
// It returns the previous setting. The Strict option overrides it per
// call.
func SetStrict(on bool) (prev bool) { return strict.Swap(on) }
