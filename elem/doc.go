// Package elem is lapis's element-wise layer: arithmetic, maps and
// reductions over views of any layout (column-major, row-major, strided,
// reversed, permuted, broadcast, conjugated), for the four element types.
//
//	c, err := elem.Add(a, b)              // a new column-major tensor
//	err = elem.AxpbyTo(y, 2, x, 1, y)     // y = 2x + y, in place
//	err = elem.AddTo(dst, a, a.T())       // a + a^T into any destination
//
// # Forms
//
// Each operation comes in two forms, as everywhere in lapis: the plain
// word (Add) returns a new compact column-major tensor of the operands'
// broadcast shape, from the pool (Release it to reuse its buffer), and
// ...To (AddTo) writes a destination of any layout and allocates nothing.
// Fill writes its destination only.
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
// and infinities propagate, x/0 is ±Inf or NaN, and Max and Min return NaN
// when either operand is NaN. Max and Min take real types only (complex
// values have no order: lapis.ErrInvalid).
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
