package views

import (
	"fmt"
	"strconv"
	"strings"
)

// Printing (see the package doc): values with %v, %s and the float verbs,
// the layout with %+v and %#v.

const (
	summarizeAbove = 1000 // numpy's threshold
	edgeItems      = 3    // numpy's edgeitems
)

// Format implements fmt.Formatter. %v, %s and the float verbs (e, E, f, F,
// g, G, x, X, b, applied to every element) print the values, conjugated if
// the view is; %+v and %#v describe the layout:
//
//	View[float64]{shape [2 3] strides [1 2] offset 0 data len 6}
//
// The zero View prints as View[T]{zero: no data} with every verb, a view of
// a released tensor as View[T]{shape [...]: released}.
func (v View[T]) Format(f fmt.State, verb rune) {
	name := "View[" + typeName[T]() + "]"
	switch {
	case v.noData():
		fmt.Fprint(f, name+"{zero: no data}")
	case v.released():
		fmt.Fprint(f, name+"{shape "+fmt.Sprint(v.l.Shape())+": released}")
	case verb == 'v' && (f.Flag('+') || f.Flag('#')):
		s := name + "{" + v.l.String()
		if v.conj {
			s += " conj"
		}
		fmt.Fprint(f, s+" data len "+strconv.Itoa(len(v.data))+"}")
	default:
		formatValues(f, verb, name, v)
	}
}

// String returns the values, as %v formats them.
func (v View[T]) String() string { return fmt.Sprint(v) }

// Format implements fmt.Formatter as View.Format does: the values with %v,
// %s and the float verbs, the layout with %+v and %#v. A released tensor
// prints as Tensor[T]{shape [...]: no data (released)}, a nil one as <nil>.
func (t *Tensor[T]) Format(f fmt.State, verb rune) {
	name := "Tensor[" + typeName[T]() + "]"
	switch {
	case t == nil:
		fmt.Fprint(f, "<nil>")
	case len(t.data) != t.l.Len():
		fmt.Fprint(f, name+"{shape "+fmt.Sprint(t.l.Shape())+": no data (released)}")
	case verb == 'v' && (f.Flag('+') || f.Flag('#')):
		fmt.Fprint(f, name+"{"+t.l.String()+" data len "+strconv.Itoa(len(t.data))+"}")
	default:
		formatValues(f, verb, name, t.View())
	}
}

// String returns the values, as %v formats them.
func (t *Tensor[T]) String() string { return fmt.Sprint(t) }

// formatValues writes the header line and the values of v (which has
// data) to f.
func formatValues[T Scalar](f fmt.State, verb rune, name string, v View[T]) {
	spec, ok := elemSpec(f, verb)
	if !ok {
		fmt.Fprintf(f, "%%!%c(%s shape %v)", verb, name, v.l.Shape())
		return
	}
	var b strings.Builder
	b.WriteString(name + " shape " + fmt.Sprint(v.l.Shape()) + "\n")
	p := printer[T]{v: v, spec: spec, summarize: v.Len() > summarizeAbove}
	p.write(&b)
	f.Write([]byte(b.String()))
}

// elemSpec returns the format for one element under verb and f's flags,
// width and precision; ok is false for a verb that does not print numbers.
func elemSpec(f fmt.State, verb rune) (spec string, ok bool) {
	flags := "-0 "
	switch verb {
	case 'v', 's':
		verb = 'v' // + and # select the layout description
	case 'e', 'E', 'f', 'F', 'g', 'G', 'x', 'X', 'b':
		flags += "+#"
	default:
		return "", false
	}
	s := "%"
	for _, c := range flags {
		if f.Flag(int(c)) {
			s += string(c)
		}
	}
	if w, ok := f.Width(); ok {
		s += strconv.Itoa(w)
	}
	if p, ok := f.Precision(); ok {
		s += "." + strconv.Itoa(p)
	}
	return s + string(verb), true
}

// printer writes a view's values.
type printer[T Scalar] struct {
	v         View[T]
	spec      string
	summarize bool
	idx       []int
}

// shown returns the indices of an axis of extent d that are printed, with
// -1 where "..." stands for the ones left out.
func (p *printer[T]) shown(d int) []int {
	if p.summarize && d > 2*edgeItems {
		s := make([]int, 0, 2*edgeItems+1)
		for i := range edgeItems {
			s = append(s, i)
		}
		s = append(s, -1)
		for i := d - edgeItems; i < d; i++ {
			s = append(s, i)
		}
		return s
	}
	s := make([]int, d)
	for i := range s {
		s[i] = i
	}
	return s
}

// cell formats the element at p.idx.
func (p *printer[T]) cell() string { return fmt.Sprintf(p.spec, p.v.At(p.idx...)) }

func (p *printer[T]) write(b *strings.Builder) {
	l := p.v.l
	p.idx = make([]int, l.Rank())
	switch {
	case l.Len() == 0:
		b.WriteString("[]")
		return
	case l.Rank() == 0:
		b.WriteString(p.cell())
		return
	case l.Rank() == 1:
		b.WriteByte('[')
		for k, i := range p.shown(l.Dim(0)) {
			if k > 0 {
				b.WriteByte(' ')
			}
			if i < 0 {
				b.WriteString("...")
				continue
			}
			p.idx[0] = i
			b.WriteString(p.cell())
		}
		b.WriteByte(']')
		return
	}
	rows, cols := p.shown(l.Dim(0)), p.shown(l.Dim(1))
	// The batch indices printed, axis 2 fastest; gap[k] marks a "..."
	// before matrix k (an index left out on some axis).
	var batches [][]int
	var gap []bool
	axes := make([][]int, l.Rank()-2)
	for a := range axes {
		axes[a] = p.shown(l.Dim(a + 2))
	}
	pos := make([]int, len(axes))
	skipped := false
	for {
		bi := make([]int, len(axes))
		ok := true
		for a, k := range pos {
			bi[a] = axes[a][k]
			ok = ok && bi[a] >= 0
		}
		if ok {
			batches = append(batches, bi)
			gap = append(gap, skipped)
			skipped = false
		} else {
			skipped = true
		}
		a := 0
		for ; a < len(pos); a++ {
			if pos[a]++; pos[a] < len(axes[a]) {
				break
			}
			pos[a] = 0
		}
		if a == len(pos) {
			break
		}
	}
	// Format every printed element, then align the columns over all
	// printed matrices.
	cells := make([][][]string, len(batches))
	width := make([]int, len(cols))
	for m, bi := range batches {
		copy(p.idx[2:], bi)
		cells[m] = make([][]string, len(rows))
		for r, i := range rows {
			if i < 0 {
				continue
			}
			p.idx[0] = i
			cells[m][r] = make([]string, len(cols))
			for c, j := range cols {
				s := "..."
				if j >= 0 {
					p.idx[1] = j
					s = p.cell()
				}
				cells[m][r][c] = s
				width[c] = max(width[c], len(s))
			}
		}
	}
	for m, bi := range batches {
		if len(bi) > 0 {
			if gap[m] {
				b.WriteString("...\n")
			}
			b.WriteString("[:, :")
			for _, i := range bi {
				b.WriteString(", " + strconv.Itoa(i))
			}
			b.WriteString("] =\n")
		}
		b.WriteByte('[')
		for r, row := range cells[m] {
			if r > 0 {
				b.WriteString("\n ")
			}
			if row == nil {
				b.WriteString("...")
				continue
			}
			b.WriteByte('[')
			for c, s := range row {
				if c > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strings.Repeat(" ", width[c]-len(s)))
				b.WriteString(s)
			}
			b.WriteByte(']')
		}
		b.WriteByte(']')
		if m < len(batches)-1 {
			b.WriteByte('\n')
		}
	}
}

var (
	_ fmt.Formatter = View[float64]{}
	_ fmt.Formatter = (*Tensor[float64])(nil)
	_ fmt.Stringer  = View[float64]{}
	_ fmt.Stringer  = (*Tensor[float64])(nil)
)
