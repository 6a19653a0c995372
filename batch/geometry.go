package batch

import (
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Batch geometry: the batch axes are axes 2, 3, ... of the output. An
// input's batch axes broadcast Julia-style: each must have the output's
// extent or extent 1 (or be missing on the right), and an axis of extent 1
// or stride 0 repeats its one matrix over the output's extent.

// batchShape returns the batch axes of v (its shape from axis 2 on).
func batchShape[T Scalar](v views.View[T]) []int {
	l := v.Layout()
	return appendBatchShape(nil, &l)
}

// appendBatchShape appends l's extents from axis 2 on to dst.
func appendBatchShape(dst []int, l *layout.Layout) []int {
	shape, _ := l.Axes()
	return append(dst, shape[2:]...)
}

// broadcastStrides returns v's element strides along the batch axes of
// shape out, 0 where v is broadcast (an argument error when v's batch axes
// do not broadcast to out).
func broadcastStrides[T Scalar](op, name string, v views.View[T], out []int) ([]int, error) {
	l := v.Layout()
	return broadcastStridesTo(nil, op, name, &l, out)
}

// broadcastStridesTo is broadcastStrides of the layout l, appended to dst.
func broadcastStridesTo(dst []int, op, name string, l *layout.Layout, out []int) ([]int, error) {
	if l.Rank()-2 > len(out) {
		return nil, layout.Errorf(layout.ErrShape, op, name, "%d batch axes, the output has %d", l.Rank()-2, len(out))
	}
	shape, strides := l.Axes()
	for i, d := range out {
		axis := i + 2
		switch {
		case axis >= len(shape) || shape[axis] == 1:
			dst = append(dst, 0)
		case shape[axis] == d:
			dst = append(dst, strides[axis])
		default:
			return nil, layout.Errorf(layout.ErrShape, op, name, "batch axis %d has extent %d, want %d (or 1 to broadcast)", axis, shape[axis], d)
		}
	}
	return dst, nil
}

// count returns the number of matrices in a batch of the given shape.
func count(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d // the output's layout is valid: no overflow
	}
	return n
}

// flatOffset returns the element offset of matrix t (flat index over
// shape, axis 0 fastest) from matrix 0, for batch strides strides.
func flatOffset(t int, shape, strides []int) int {
	off := 0
	for j, d := range shape {
		off += (t % d) * strides[j]
		t /= d
	}
	return off
}

// first returns matrix 0 of v (index 0 along every axis from 2 on).
func first[T Scalar](v views.View[T]) views.View[T] {
	for v.Rank() > 2 {
		v, _ = v.Index(v.Rank()-1, 0) // extent >= 1 when called
	}
	return v
}

// isBroadcast reports whether all strides are 0 (one matrix repeated).
func isBroadcast(s []int) bool {
	for _, x := range s {
		if x != 0 {
			return false
		}
	}
	return true
}

// batchStrides appends l's strides along its batch axes (2 on) to dst
// and returns the extended slice: with dst's room, no allocation (as
// Strides()[2:] would make).
func batchStrides(l layout.Layout, dst []int) []int {
	for axis := 2; axis < l.Rank(); axis++ {
		dst = append(dst, l.Stride(axis))
	}
	return dst
}

// merge drops extent-1 axes and merges neighbouring batch axes that every
// operand steps through as one (s[i+1] = s[i] * shape[i]), so that most
// batches reach the C loops with one batch axis. It returns the new shape
// and strides.
func merge(shape []int, strides ...[]int) ([]int, [][]int) {
	l := len(shape)
	flat := make([]int, (1+len(strides))*l)
	n := mergeInto(flat, shape, strides...)
	out := make([][]int, len(strides))
	for k := range out {
		out[k] = flat[(k+1)*l : (k+1)*l+n]
	}
	return flat[:n], out
}

// mergeInto is merge with its results in flat, (1+len(strides))*len(shape)
// ints: the n merged extents first, then operand k's strides from
// (k+1)*len(shape). It stores only ints, so that a buffer on the caller's
// stack stays there.
func mergeInto(flat []int, shape []int, strides ...[]int) (n int) {
	l := len(shape)
	for i, d := range shape {
		if d == 1 {
			continue
		}
		joinable := n > 0
		for k := range strides {
			if joinable && strides[k][i] != flat[(k+1)*l+n-1]*flat[n-1] {
				joinable = false
			}
		}
		if joinable {
			flat[n-1] *= d
			continue
		}
		flat[n] = d
		for k := range strides {
			flat[(k+1)*l+n] = strides[k][i]
		}
		n++
	}
	return n
}
