// Package oracle holds the brute-force helpers that lapis's tests share:
// enumeration of an index box and a decoder that turns fuzz input into small
// integers. It is test support: nothing in the library imports it.
package oracle

// Count returns the number of indices of shape (1 for rank 0).
func Count(shape []int) int {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return n
}

// ForEach calls f with every index of shape in column-major order (axis 0
// fastest). f must not keep idx: it is reused.
func ForEach(shape []int, f func(idx []int)) {
	n := Count(shape)
	idx := make([]int, len(shape))
	for p := 0; p < n; p++ {
		r := p
		for k, e := range shape {
			idx[k] = r % e
			r /= e
		}
		f(idx)
	}
}

// Source turns fuzz input into small integers; once the bytes run out it
// yields 0.
type Source struct{ B []byte }

// Next returns the next byte as an int in [0, 255].
func (s *Source) Next() int {
	if len(s.B) == 0 {
		return 0
	}
	v := int(s.B[0])
	s.B = s.B[1:]
	return v
}

// In returns an int in [lo, hi].
func (s *Source) In(lo, hi int) int { return lo + s.Next()%(hi-lo+1) }

// Left reports whether input bytes remain.
func (s *Source) Left() bool { return len(s.B) > 0 }

// Perm returns a random permutation of 0..n-1 (Fisher-Yates on the input
// bytes).
func (s *Source) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := s.In(0, i)
		p[i], p[j] = p[j], p[i]
	}
	return p
}
