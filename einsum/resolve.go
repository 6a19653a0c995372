package einsum

import (
	"fmt"
	"slices"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// problem is a spec resolved against its operands' shapes: every label
// (the ellipsis axes too) numbered 0..len(ext)-1, each operand's axes
// labelled, and each label's extent.
type problem struct {
	spec  *Spec
	in    [][]int // per operand: the label of each axis
	out   []int   // the result's labels, one per axis
	ext   []int   // extent by label
	names []int   // the spec's label (or s.max + ellipsis axis) by label
}

// resolve labels the axes of the operands ops by s and checks the
// extents: ranks that match the terms, one extent per label (an extent of
// 1 repeats against any other, as in broadcasting; a label repeated
// within one operand needs equal extents), and, when dst is given, the
// result's shape.
func resolve[T Scalar](s *Spec, ops []views.View[T], dst []int) (*problem, error) {
	const op = "einsum.NewPlan"
	if len(ops) != len(s.in) {
		return nil, layout.Errorf(lapis.ErrInvalid, op, "ops",
			"%q takes %d operands, not %d", s.text, len(s.in), len(ops))
	}
	p := &problem{spec: s}
	ids := map[int]int{}
	id := func(name int) int {
		l, ok := ids[name]
		if !ok {
			l = len(p.names)
			ids[name] = l
			p.names = append(p.names, name)
			p.ext = append(p.ext, -1)
		}
		return l
	}
	where := map[int]string{} // label -> the operand and axis that set its extent
	nell := 0
	for k, t := range s.in {
		shape := ops[k].Shape()
		e := len(shape) - len(t.labels)
		if t.ell < 0 && e != 0 || e < 0 {
			return nil, layout.Errorf(layout.ErrShape, op, fmt.Sprintf("ops[%d]", k),
				"has rank %d; its subscripts in %q name %d axes", len(shape), s.text, len(t.labels))
		}
		if t.ell < 0 {
			e = 0
		}
		nell = max(nell, e)
		var labels []int
		for i, name := range t.labels {
			if i == t.ell {
				for j := range e {
					labels = append(labels, id(s.max+j))
				}
			}
			labels = append(labels, id(name))
		}
		if t.ell == len(t.labels) {
			for j := range e {
				labels = append(labels, id(s.max+j))
			}
		}
		for a, l := range labels {
			d := shape[a]
			at := fmt.Sprintf("%d in operand %d (axis %d)", d, k, a)
			if first := slices.Index(labels, l); first < a && shape[first] != d {
				return nil, layout.Errorf(layout.ErrShape, op, fmt.Sprintf("ops[%d]", k),
					"%s of %q repeats with extents %d (axis %d) and %d (axis %d): a diagonal needs equal extents",
					s.nameOf(p.names[l]), s.text, shape[first], first, d, a)
			}
			switch e := p.ext[l]; {
			case e < 0 || e == 1 && d != 1:
				p.ext[l], where[l] = d, at
			case d != e && d != 1:
				return nil, layout.Errorf(layout.ErrShape, op, fmt.Sprintf("ops[%d]", k),
					"%s of %q has extent %s and %s", s.nameOf(p.names[l]), s.text, where[l], at)
			}
		}
		p.in = append(p.in, labels)
	}
	for i, name := range s.out.labels {
		if i == s.out.ell {
			for j := range nell {
				p.out = append(p.out, id(s.max+j))
			}
		}
		p.out = append(p.out, ids[name])
	}
	if s.out.ell == len(s.out.labels) {
		for j := range nell {
			p.out = append(p.out, id(s.max+j))
		}
	}
	if dst != nil && !slices.Equal(dst, p.shape()) {
		return nil, layout.Errorf(layout.ErrShape, op, "dst",
			"has shape %v; %q of these operands gives %v", dst, s.text, p.shape())
	}
	return p, nil
}

// shape is the result's shape.
func (p *problem) shape() []int {
	s := make([]int, len(p.out))
	for i, l := range p.out {
		s[i] = p.ext[l]
	}
	return s
}

// name is label l's name in messages.
func (p *problem) name(l int) string { return p.spec.nameOf(p.names[l]) }
