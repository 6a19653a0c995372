package einsum

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
)

// Path says how a contraction of several operands is ordered into
// pairwise steps.
type Path int

const (
	// Greedy (the default) contracts, at each step, the pair whose result
	// removes the most elements (its size less its operands'), among pairs
	// that share an index when there are any: opt_einsum's greedy. It is
	// fast to find and near the best for chains.
	Greedy Path = iota
	// Optimal finds the order with the fewest multiply-adds by dynamic
	// programming over subsets of operands (3^n steps): for up to
	// MaxOptimal operands.
	Optimal
)

// MaxOptimal is the most operands Optimal takes.
const MaxOptimal = 12

// pair is one pairwise step in opt_einsum's form: the positions of two
// tensors in the current list, which are removed; their result is appended.
type pair [2]int

// tensorSet is a bitmask of operand labels, for path search.
type shapeInfo struct {
	labels [][]int // per operand: its labels after diagonals (unique)
	out    []int   // the result's labels
	ext    []int   // extent by label
}

// size is the number of elements of a tensor with these labels.
func (s *shapeInfo) size(labels []int) float64 {
	n := 1.0
	for _, l := range labels {
		n *= float64(s.ext[l])
	}
	return n
}

// keep returns the labels of the union of a and b that are needed after
// contracting them: in the result or in one of the tensors of rest.
func (s *shapeInfo) keep(a, b []int, rest [][]int) []int {
	var out []int
	for _, ls := range [2][]int{a, b} {
		for _, l := range ls {
			if slices.Contains(out, l) {
				continue
			}
			needed := slices.Contains(s.out, l)
			for _, r := range rest {
				needed = needed || slices.Contains(r, l)
			}
			if needed {
				out = append(out, l)
			}
		}
	}
	return out
}

// flops is the number of multiply-adds of contracting a with b: the
// product of the extents of every label of either.
func (s *shapeInfo) flops(a, b []int) float64 {
	n := 1.0
	seen := map[int]bool{}
	for _, ls := range [2][]int{a, b} {
		for _, l := range ls {
			if !seen[l] {
				seen[l] = true
				n *= float64(s.ext[l])
			}
		}
	}
	return n
}

// greedy is opt_einsum's greedy path with memory limit limit (elements of
// an intermediate; 0: none).
func (s *shapeInfo) greedy(limit int) ([]pair, error) {
	cur := slices.Clone(s.labels)
	var path []pair
	for len(cur) > 1 {
		best, bestCost, bestFlops, found := pair{}, math.Inf(1), math.Inf(1), false
		for shared := range 2 {
			for i := range cur {
				for j := i + 1; j < len(cur); j++ {
					if shared == 0 && !overlapLabels(cur[i], cur[j]) {
						continue
					}
					out := s.keep(cur[i], cur[j], without(cur, i, j))
					if limit > 0 && len(cur) > 2 && s.size(out) > float64(limit) {
						continue
					}
					cost := s.size(out) - s.size(cur[i]) - s.size(cur[j])
					f := s.flops(cur[i], cur[j])
					if cost < bestCost || cost == bestCost && f < bestFlops {
						best, bestCost, bestFlops, found = pair{i, j}, cost, f, true
					}
				}
			}
			if found {
				break
			}
		}
		if !found {
			return nil, layout.Errorf(lapis.ErrInvalid, "einsum.NewPlan", "MemoryLimit",
				"no pair of the %d tensors left contracts into at most %d elements", len(cur), limit)
		}
		cur = s.apply(cur, best)
		path = append(path, best)
	}
	return path, nil
}

// apply does step p on the list cur: removes the pair and appends the
// labels of its result.
func (s *shapeInfo) apply(cur [][]int, p pair) [][]int {
	rest := without(cur, p[0], p[1])
	return append(rest, s.keep(cur[p[0]], cur[p[1]], rest))
}

// optimal is the path with the fewest multiply-adds, by dynamic programming
// over subsets of operands, each intermediate within limit elements.
func (s *shapeInfo) optimal(limit int) ([]pair, error) {
	n := len(s.labels)
	if n > MaxOptimal {
		return nil, layout.Errorf(lapis.ErrInvalid, "einsum.NewPlan", "Path",
			"Optimal takes at most %d operands, not %d: use Greedy", MaxOptimal, n)
	}
	full := uint32(1)<<n - 1
	// labels[m]: the labels of the tensor that contracting subset m gives.
	labels := make([][]int, full+1)
	for m := uint32(1); m <= full; m++ {
		var in, rest [][]int
		for k := range n {
			if m&(1<<k) != 0 {
				in = append(in, s.labels[k])
			} else {
				rest = append(rest, s.labels[k])
			}
		}
		if len(in) == 1 {
			labels[m] = in[0]
			continue
		}
		var all []int
		for _, ls := range in {
			for _, l := range ls {
				if !slices.Contains(all, l) {
					all = append(all, l)
				}
			}
		}
		labels[m] = s.keep(all, nil, rest)
	}
	cost := make([]float64, full+1)
	split := make([]uint32, full+1)
	for m := uint32(1); m <= full; m++ {
		if bits.OnesCount32(m) == 1 {
			continue
		}
		cost[m] = math.Inf(1)
		if m != full && limit > 0 && s.size(labels[m]) > float64(limit) {
			continue
		}
		// Each split {a, m^a} once: a holds m's lowest operand.
		low := m & -m
		for a := (m - 1) & m; a > 0; a = (a - 1) & m {
			if a&low == 0 {
				continue
			}
			b := m ^ a
			c := cost[a] + cost[b] + s.flops(labels[a], labels[b])
			if c < cost[m] {
				cost[m], split[m] = c, a
			}
		}
	}
	if math.IsInf(cost[full], 1) {
		return nil, layout.Errorf(lapis.ErrInvalid, "einsum.NewPlan", "MemoryLimit",
			"no order of the %d operands keeps every intermediate within %d elements", n, limit)
	}
	// Emit the steps bottom-up, tracking where each subset sits in the list.
	list := make([]uint32, n)
	for k := range n {
		list[k] = 1 << k
	}
	var path []pair
	var emit func(m uint32)
	emit = func(m uint32) {
		if bits.OnesCount32(m) == 1 {
			return
		}
		a := split[m]
		emit(a)
		emit(m ^ a)
		i, j := slices.Index(list, a), slices.Index(list, m^a)
		if i > j {
			i, j = j, i
		}
		path = append(path, pair{i, j})
		list = append(without(list, i, j), m)
	}
	emit(full)
	return path, nil
}

// checkPath checks a path the caller gave: n-1 steps, each two distinct
// positions in the list at that step.
func checkPath(given [][2]int, n int) ([]pair, error) {
	if len(given) != n-1 {
		return nil, layout.Errorf(lapis.ErrInvalid, "einsum.NewPlan", "Order",
			"%d operands take %d pairwise steps, not %d", n, n-1, len(given))
	}
	path := make([]pair, len(given))
	for k, p := range given {
		left := n - k
		if p[0] == p[1] || p[0] < 0 || p[1] < 0 || p[0] >= left || p[1] >= left {
			return nil, layout.Errorf(lapis.ErrInvalid, "einsum.NewPlan", "Order",
				"step %d, %v: two distinct positions below %d (the tensors left)", k, p, left)
		}
		path[k] = pair{min(p[0], p[1]), max(p[0], p[1])}
	}
	return path, nil
}

// without returns list without its elements i < j, in order, in a new
// slice.
func without[E any](list []E, i, j int) []E {
	out := make([]E, 0, len(list))
	for k, e := range list {
		if k != i && k != j {
			out = append(out, e)
		}
	}
	return out
}

// overlapLabels reports whether a and b share a label.
func overlapLabels(a, b []int) bool {
	for _, l := range a {
		if slices.Contains(b, l) {
			return true
		}
	}
	return false
}

// String names a Path.
func (p Path) String() string {
	switch p {
	case Greedy:
		return "greedy"
	case Optimal:
		return "optimal"
	}
	return fmt.Sprintf("Path(%d)", int(p))
}
