// Package elem is lapis's element-wise layer: arithmetic, maps and
// reductions over views of any layout (column-major, row-major, strided,
// reversed, permuted, broadcast, conjugated), for the four element types.
//
//	c, err := elem.Add(a, b)              // a new column-major tensor
//	err = elem.AxpbyTo(y, 2, x, 1, y)     // y = 2x + y, in place
//	err = elem.AddTo(dst, a, a.T())       // a + a^T into any destination
//	s, err := elem.Sum(x, 0)              // column sums
//
// # Forms
//
// Each operation comes in two forms, as everywhere in lapis: the plain
// word (Add) returns a new compact column-major tensor of the operands'
// broadcast shape, from the pool (Release it to reuse its buffer), and
// ...To (AddTo) writes a destination of any layout and allocates nothing.
// Fill writes its destination only.
//
// # Reductions
//
// Sum, Mean, Prod, Max, Min and Dot reduce over the axes given (all when
// none). The plain word drops them (Sum(x, 0) of an [m, n] x is its [n]
// column sums, Sum(x) a rank-0 tensor); ...To writes a destination whose
// shape is x's with those axes dropped or of extent 1 (kept, so that the
// result broadcasts against x: x - mean). Sums are pairwise, as numpy's
// along its contiguous axis, and along every axis here: the rounding
// error grows with the logarithm of the number of terms. The sum of no
// elements is 0, the product 1, the mean NaN; Max and Min of no elements
// are an error (layout.ErrShape).
//
// # Fused expressions
//
// An Expr evaluates a chain of operations in one pass over memory:
// EvalTo(dst, X(a).Add(X(a.T())).Scale(0.5)) reads a once and writes dst
// once, where AddTo then ScaleTo read and write twice. A linear
// combination of up to three views runs as one specialised kernel
// ((a + a^T)/2 is one Axpby); any other expression as a small program
// over blocks of elements held in cache, each operation a tight loop over
// its block. Dot is the fused Sum of a product.
//
// # Broadcasting
//
// Operands broadcast by the rule package batch uses for its batch axes:
// leading axes align, and an operand's extent 1 or missing trailing axis
// repeats (a [3] vector broadcasts over the columns of a [3, 4] matrix; a
// [1, 4] row over its rows). Into a destination, every operand broadcasts
// to the destination's shape; a shape that does not is an error matching
// layout.ErrShape that names the operand.
//
// # Aliasing
//
// As for views.Copy, and so that the result never depends on the order
// of the loops: a destination may be an operand element for element
// (AddTo(a, a, b), ScaleTo(x, 2, x)); a destination that shares memory
// with an operand in any other way (a and a^T, two overlapping slices) is
// refused with layout.ErrOverlap, and so is a destination in which two
// indices share an element (a broadcast view). On any error nothing is
// written.
//
// # Conjugation
//
// A conjugated view (View.Conj, View.H) is read and written as the
// conjugates of its stored values, without a copy: AddTo(dst, a.Conj(), b)
// computes conj(a) + b.
//
// # NaN and Inf
//
// The operations follow IEEE arithmetic with no checks, as numpy's: NaN
// and infinities propagate, x/0 is ±Inf or NaN, and Maximum and Minimum
// return NaN when either operand is NaN (numpy's maximum and minimum; the
// reductions Max and Min return NaN when any element is NaN). The
// operations that order values take real types only (complex values have
// no order: lapis.ErrInvalid).
//
// # The engine
//
// Every operation runs on the planner of the copy engine (views.Copy):
// the loops are ordered by the destination's strides, axes contiguous in
// every operand are fused into one, an operand contiguous along another
// axis than the destination (a + a^T) is walked in cache blocks sized
// from the CPU's caches, and operations of 2^19 elements or more are split
// across goroutines (views.SetCopyThreads bounds them). A line contiguous
// in every operand runs as a plain loop over slices.
package elem

//go:generate go run ./internal/genkern zkernels.go
