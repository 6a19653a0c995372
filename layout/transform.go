package layout

import "math"

// View transforms. Each returns a new Layout describing the same elements
// seen differently; none touches data, and for rank <= MaxInline none
// allocates. A transform of a valid layout can only shrink or reorder the
// set of reachable offsets (Reshape and BroadcastTo reuse them), so the
// result is valid wherever the input was.

func (l Layout) checkAxis(op, arg string, axis int) error {
	if axis < 0 || axis >= l.rank {
		return Errorf(ErrAxis, op, arg, "axis %d out of range for rank %d", axis, l.rank)
	}
	return nil
}

// Permute returns the layout whose axis k is axis axes[k] of l. axes must
// be a permutation of 0..Rank()-1; errors match ErrAxis.
func (l Layout) Permute(axes ...int) (Layout, error) {
	const op = "layout.Permute"
	if len(axes) != l.rank {
		return Layout{}, Errorf(ErrAxis, op, "axes", "%d axes given for rank %d", len(axes), l.rank)
	}
	var seen [MaxRank]bool
	for _, a := range axes {
		if err := l.checkAxis(op, "axes", a); err != nil {
			return Layout{}, err
		}
		if seen[a] {
			return Layout{}, Errorf(ErrAxis, op, "axes", "axis %d appears twice; axes must be a permutation", a)
		}
		seen[a] = true
	}
	out := withRank(l.rank)
	out.offset = l.offset
	d, s, od, os := l.dims(), l.strs(), out.dims(), out.strs()
	for k, a := range axes {
		od[k], os[k] = d[a], s[a]
	}
	return out, nil
}

// Transpose returns the layout with axes a and b swapped; errors match
// ErrAxis.
func (l Layout) Transpose(a, b int) (Layout, error) {
	const op = "layout.Transpose"
	if err := l.checkAxis(op, "a", a); err != nil {
		return Layout{}, err
	}
	if err := l.checkAxis(op, "b", b); err != nil {
		return Layout{}, err
	}
	out := l.clone()
	d, s := out.dims(), out.strs()
	d[a], d[b] = d[b], d[a]
	s[a], s[b] = s[b], s[a]
	return out, nil
}

// T returns the matrix transpose: axes 0 and 1 swapped, batch axes (2, 3,
// ...) left where they are. Errors match ErrAxis when Rank() < 2.
func (l Layout) T() (Layout, error) {
	if l.rank < 2 {
		return Layout{}, Errorf(ErrAxis, "layout.T", "receiver", "matrix transpose needs rank >= 2, have %d", l.rank)
	}
	return l.Transpose(0, 1)
}

// clone returns a copy that shares no storage with l.
func (l Layout) clone() Layout {
	if l.ext == nil {
		return l
	}
	out := withRank(l.rank)
	out.offset = l.offset
	copy(out.ext, l.ext)
	return out
}

// Slice keeps the indices start, start+step, ... of axis: while < stop for
// step > 0, while > stop for step < 0 (so stop = -1 reaches index 0). Like
// Python's start:stop:step without negative-index wrapping or clamping:
// for step > 0, start and stop must lie in [0, Dim(axis)]; for step < 0, in
// [-1, Dim(axis)-1]. An empty result is allowed. Errors match ErrAxis,
// ErrBounds (bounds outside the axis) or ErrShape (step 0).
func (l Layout) Slice(axis, start, stop, step int) (Layout, error) {
	const op = "layout.Slice"
	if err := l.checkAxis(op, "axis", axis); err != nil {
		return Layout{}, err
	}
	n := l.dims()[axis]
	lo, hi := 0, n // the allowed range of start and stop
	if step < 0 {
		lo, hi = -1, n-1
	}
	switch {
	case step == 0:
		return Layout{}, Errorf(ErrShape, op, "step", "step 0 would repeat index %d forever; want a step >= 1 or <= -1 (BroadcastTo repeats an axis)", start)
	case start < lo || start > hi:
		return Layout{}, Errorf(ErrBounds, op, "start", "start %d outside [%d, %d] for axis %d of extent %d with step %d", start, lo, hi, axis, n, step)
	case stop < lo || stop > hi:
		return Layout{}, Errorf(ErrBounds, op, "stop", "stop %d outside [%d, %d] for axis %d of extent %d with step %d", stop, lo, hi, axis, n, step)
	}
	// Count the kept indices. |start - stop| <= n + 1 fits; the step may be
	// anything, so it is never added to or negated when it could overflow.
	count := 0
	switch {
	case step > 0 && stop > start:
		count = (stop-start-1)/step + 1
	case step < 0 && start > stop && step == math.MinInt:
		count = 1
	case step < 0 && start > stop:
		count = (start-stop-1)/(-step) + 1
	}
	out := l.clone()
	d, s := out.dims(), out.strs()
	d[axis] = count
	if count > 0 {
		out.offset += start * s[axis] // inside the span of l
	}
	if count > 1 {
		s[axis] *= step // (count-1)*step*stride is inside the span of l
	}
	return out, nil
}

// Reverse returns the layout with axis walked backwards: index i of the
// result is index Dim(axis)-1-i of l. It is Slice(axis, n-1, -1, -1).
func (l Layout) Reverse(axis int) (Layout, error) {
	if err := l.checkAxis("layout.Reverse", "axis", axis); err != nil {
		return Layout{}, err
	}
	n := l.dims()[axis]
	return l.Slice(axis, n-1, -1, -1)
}

// Index fixes axis at index i and drops the axis. Errors match ErrAxis and
// ErrBounds.
func (l Layout) Index(axis, i int) (Layout, error) {
	const op = "layout.Index"
	if err := l.checkAxis(op, "axis", axis); err != nil {
		return Layout{}, err
	}
	d, s := l.dims(), l.strs()
	if i < 0 || i >= d[axis] {
		return Layout{}, Errorf(ErrBounds, op, "i", "index %d out of range for axis %d of extent %d", i, axis, d[axis])
	}
	out := withRank(l.rank - 1)
	out.offset = l.offset + i*s[axis] // inside the span of l
	od, os := out.dims(), out.strs()
	copy(od, d[:axis])
	copy(od[axis:], d[axis+1:])
	copy(os, s[:axis])
	copy(os[axis:], s[axis+1:])
	return out, nil
}

// BroadcastTo returns a read-only-style layout of the given shape that
// repeats l Julia-style: axis k of l (k < Rank()) aligns with axis k of the
// result and must have the same extent or extent 1 (then its stride becomes
// 0); the result's further trailing axes get stride 0. The result may have
// overlap (HasOverlap), so views refuse writes through it. Errors match
// ErrShape.
func (l Layout) BroadcastTo(shape ...int) (Layout, error) {
	const op = "layout.BroadcastTo"
	if len(shape) < l.rank || len(shape) > MaxRank {
		return Layout{}, Errorf(ErrShape, op, "shape", "rank %d cannot hold rank %d (leading axes align; at most %d)", len(shape), l.rank, MaxRank)
	}
	if err := checkExtents(op, shape); err != nil {
		return Layout{}, err
	}
	out := withRank(len(shape))
	out.offset = l.offset
	d, s, od, os := l.dims(), l.strs(), out.dims(), out.strs()
	copy(od, shape)
	for k := range shape {
		switch {
		case k >= len(d) || (d[k] == 1 && shape[k] != 1):
			os[k] = 0
		case d[k] == shape[k]:
			os[k] = s[k]
		default:
			return Layout{}, Errorf(ErrShape, op, "shape", "extent %d of axis %d cannot broadcast to %d (must be equal or 1)", d[k], k, shape[k])
		}
	}
	if err := out.validate(op); err != nil { // the element count may grow
		return Layout{}, err
	}
	return out, nil
}

// Reshape returns a layout of the new shape that lists the same elements in
// the same column-major order (axis 0 fastest), without a copy. It succeeds
// whenever such strides exist, for many non-contiguous layouts too: runs of
// axes that are contiguous with each other may be merged and split freely.
// It fails with ErrReshape when no strides describe the result (copy first),
// and with ErrShape when the element counts differ.
func (l Layout) Reshape(shape ...int) (Layout, error) {
	const op = "layout.Reshape"
	if len(shape) > MaxRank {
		return Layout{}, Errorf(ErrShape, op, "shape", "rank %d exceeds MaxRank %d", len(shape), MaxRank)
	}
	out := withRank(len(shape))
	out.offset = l.offset
	nd, ns := out.dims(), out.strs()
	copy(nd, shape)
	if err := checkExtents(op, nd); err != nil {
		return Layout{}, err
	}
	n, err := fillCompact(op, nd, ns, false)
	if err != nil {
		return Layout{}, err
	}
	if n != l.Len() {
		return Layout{}, Errorf(ErrShape, op, "shape", "%s has %d elements, the layout has %d", fmtInts(shape), n, l.Len())
	}
	if n == 0 {
		return out, nil // no reachable offsets: compact strides will do
	}

	// Drop the extent-1 axes of l: their strides say nothing.
	var od, os [MaxRank]int
	m := 0
	for i, e := range l.dims() {
		if e != 1 {
			od[m], os[m] = e, l.strs()[i]
			m++
		}
	}
	// Walk both shapes in groups with equal products. Within a group the old
	// axes must be contiguous with each other (column-major); then the new
	// axes of the group step through the same run.
	oi, ni := 0, 0
	for ni < len(nd) && oi < m {
		if nd[ni] == 1 {
			ni++ // extent-1 axes get their stride below
			continue
		}
		oj, nj := oi+1, ni+1
		oldProd, newProd := od[oi], nd[ni]
		for oldProd != newProd {
			if newProd < oldProd {
				newProd *= nd[nj] // products stay <= Len: no overflow
				nj++
			} else {
				oldProd *= od[oj]
				oj++
			}
		}
		for k := oi; k+1 < oj; k++ {
			if next, ok := mulOK(od[k], os[k]); !ok || os[k+1] != next {
				return Layout{}, Errorf(ErrReshape, op, "shape", "%s cannot be a view of %s: copy first (ToColMajor) and reshape the copy", fmtInts(shape), l.String())
			}
		}
		ns[ni] = os[oi]
		for k := ni + 1; k < nj; k++ {
			ns[k] = ns[k-1] * nd[k-1] // stays within the run of the group
		}
		oi, ni = oj, nj
	}
	// Strides of extent-1 axes carry no information; the compact values
	// already in ns are kept for them.
	return out, nil
}
