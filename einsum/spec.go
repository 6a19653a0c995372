package einsum

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
)

// Spec is a parsed contraction: the index labels of each operand's axes and
// of the result's. Parse reads numpy's subscripts, Labels takes integers.
// A Spec is a small value, safe to share between goroutines.
type Spec struct {
	text string // the subscripts as given (Parse) or written out (Labels)
	in   []term // one per operand
	out  term   // the result
	max  int    // labels are 0..max-1; the ellipsis axes are max, max+1, ...
	abc  bool   // labels are letters (Parse), named as such in messages
}

// term is one operand's (or the result's) labels in axis order, with the
// position of its ellipsis (-1 when it has none): the axes the ellipsis
// stands for are inserted there.
type term struct {
	labels []int
	ell    int
}

// Parse reads numpy's einsum subscripts: one term of letters per operand,
// separated by commas, then optionally "->" and the result's term. Spaces
// are ignored. A letter repeated within an operand takes that operand's
// diagonal; a letter absent from the result is summed over. Without "->"
// the result holds, in alphabetical order (upper case first), the letters
// that occur exactly once, followed by the ellipsis axes if any operand has
// them.
//
// "..." stands for batch axes. They are aligned by the batch rule of
// package batch: leading axes align, and a missing trailing axis or an
// axis of extent 1 repeats. In the result they go where its term puts
// "...", and last when the result is implicit (numpy puts them first:
// lapis keeps batch axes on the right). An explicit result without "..."
// sums over them, as over any index it lacks.
//
// Errors match lapis.ErrInvalid and name the character and its position.
func Parse(subscripts string) (Spec, error) {
	s := Spec{text: subscripts, abc: true}
	lhs, rhs, explicit := strings.Cut(subscripts, "->")
	if explicit && strings.Contains(rhs, "->") {
		return Spec{}, s.errAt(len(lhs)+2+strings.Index(rhs, "->"), "a second \"->\"")
	}
	pos := 0
	for part := range strings.SplitSeq(lhs, ",") {
		t, err := s.parseTerm(part, pos)
		if err != nil {
			return Spec{}, err
		}
		s.in = append(s.in, t)
		pos += len(part) + 1
	}
	if explicit {
		t, err := s.parseTerm(rhs, len(lhs)+2)
		if err != nil {
			return Spec{}, err
		}
		s.out = t
	} else {
		s.out = s.implicitOut()
	}
	s.max, s.abc = 128, true
	return s, s.checkOut()
}

// parseTerm reads one term that starts at position pos of the subscripts.
func (s *Spec) parseTerm(part string, pos int) (term, error) {
	t := term{ell: -1}
	for i := 0; i < len(part); i++ {
		c := part[i]
		switch {
		case c == ' ':
		case c == '.':
			if !strings.HasPrefix(part[i:], "...") {
				return term{}, s.errAt(pos+i, "'.' that does not start \"...\"")
			}
			if t.ell >= 0 {
				return term{}, s.errAt(pos+i, "a second \"...\" in one term")
			}
			t.ell = len(t.labels)
			i += 2
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			t.labels = append(t.labels, int(c))
		default:
			return term{}, s.errAt(pos+i, fmt.Sprintf("%q (subscripts are letters a-z, A-Z and \"...\")", rune(c)))
		}
	}
	return t, nil
}

// implicitOut is numpy's implicit result: the labels that occur once, in
// order, then the ellipsis axes.
func (s *Spec) implicitOut() term {
	count := map[int]int{}
	ell := false
	for _, t := range s.in {
		for _, l := range t.labels {
			count[l]++
		}
		ell = ell || t.ell >= 0
	}
	out := term{ell: -1}
	for l, n := range count {
		if n == 1 {
			out.labels = append(out.labels, l)
		}
	}
	slices.Sort(out.labels)
	if ell {
		out.ell = len(out.labels)
	}
	return out
}

// Labels is the integer form of Parse, for programs that build specs:
// inputs[k] lists operand k's labels in axis order, output the result's
// (explicit: an empty output is a full contraction to a scalar). Labels are
// non-negative integers; the same rules as Parse's letters hold (a label
// repeated in an operand takes its diagonal, one absent from the output is
// summed). There is no ellipsis in this form: give batch axes labels.
// Errors match lapis.ErrInvalid and name the operand and the axis.
func Labels(output []int, inputs ...[]int) (Spec, error) {
	s := Spec{}
	top := 0
	for k, in := range inputs {
		for a, l := range in {
			if l < 0 {
				return Spec{}, layout.Errorf(lapis.ErrInvalid, "einsum.Labels", "inputs",
					"operand %d, axis %d: label %d is negative", k, a, l)
			}
			top = max(top, l+1)
		}
		s.in = append(s.in, term{labels: slices.Clone(in), ell: -1})
	}
	for _, l := range output {
		if l < 0 {
			return Spec{}, layout.Errorf(lapis.ErrInvalid, "einsum.Labels", "output", "label %d is negative", l)
		}
		top = max(top, l+1)
	}
	s.out = term{labels: slices.Clone(output), ell: -1}
	s.max = top
	var b strings.Builder
	for k, in := range inputs {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, in)
	}
	fmt.Fprintf(&b, "->%v", output)
	s.text = b.String()
	return s, s.checkOut()
}

// checkOut checks the result's term: no label twice, each label in some
// operand, an ellipsis only when an operand has one.
func (s *Spec) checkOut() error {
	if len(s.in) == 0 {
		return layout.Errorf(lapis.ErrInvalid, s.op(), "subscripts", "%q has no operand", s.text)
	}
	ell := false
	for _, t := range s.in {
		ell = ell || t.ell >= 0
	}
	if s.out.ell >= 0 && !ell {
		return layout.Errorf(lapis.ErrInvalid, s.op(), "subscripts",
			"%q: the result has \"...\" but no operand has", s.text)
	}
	for i, l := range s.out.labels {
		if slices.Contains(s.out.labels[:i], l) {
			return layout.Errorf(lapis.ErrInvalid, s.op(), "subscripts",
				"%q: %s occurs twice in the result", s.text, s.nameOf(l))
		}
		found := false
		for _, t := range s.in {
			found = found || slices.Contains(t.labels, l)
		}
		if !found {
			return layout.Errorf(lapis.ErrInvalid, s.op(), "subscripts",
				"%q: %s of the result is in no operand", s.text, s.nameOf(l))
		}
	}
	return nil
}

// errAt is the error for a bad character at position pos of the subscripts.
func (s *Spec) errAt(pos int, what string) error {
	return layout.Errorf(lapis.ErrInvalid, "einsum.Parse", "subscripts",
		"%q: %s at position %d", s.text, what, pos)
}

// op is the function that made s, for its errors.
func (s *Spec) op() string {
	if s.abc {
		return "einsum.Parse"
	}
	return "einsum.Labels"
}

// nameOf names label l in messages: index 'j', label 3, or the k-th axis
// of "...".
func (s *Spec) nameOf(l int) string {
	switch {
	case l >= s.max:
		return fmt.Sprintf("axis %d of \"...\"", l-s.max)
	case s.abc:
		return fmt.Sprintf("index %q", rune(l))
	}
	return fmt.Sprintf("label %d", l)
}

// String returns the subscripts.
func (s Spec) String() string { return s.text }

// Operands returns the number of operands the spec takes.
func (s Spec) Operands() int { return len(s.in) }
