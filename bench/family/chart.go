package family

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// A family's chart (WriteChart) is one PNG: a header naming the family,
// then one panel per op, stacked, each with the legend to its right:
//
//	+-------------------------------------------+
//	| lapack: LAPACK, n x n (...)               |  header
//	| ms per call, lower is better              |
//	+------------------------------+------------+
//	| dgesv                        | -o- lapis  |  panel: value in the
//	|   \    one line per impl     | -x- C      |  family's unit against n,
//	|    \__                       | ...        |  log axes where they span
//	+------------------------------+------------+  a factor of 8 or more
//	| dpotrf ...                   |            |
//	+------------------------------+------------+

// Chart geometry, in pixels at chartDPI.
const (
	chartDPI     = 96
	chartWidth   = 960
	panelHeight  = 400
	headerLine   = 22 // pixels per header line
	headerMargin = 12
	legendWidth  = 250 // the column right of each panel
	wrapAt       = 95  // header characters per line
)

// ChartFile is the name of f's chart, written beside bench.md: FAMILY.png.
func ChartFile(f Family) string { return f.Name + ".png" }

// ChartSize returns the width and height in pixels of f's chart of ms.
func ChartSize(f Family, ms []Measurement) (width, height int) {
	return chartWidth, len(headerLines(f))*headerLine + 2*headerMargin + max(1, len(opsOf(pick(ms, f.Name, ""))))*panelHeight
}

// headerLines is f's header: its name and title wrapped, then its unit.
func headerLines(f Family) []string {
	var lines []string
	line := f.Name + ":"
	for _, w := range strings.Fields(f.Title) {
		if len(line)+1+len(w) > wrapAt {
			lines = append(lines, line)
			line = "    " + w
			continue
		}
		line += " " + w
	}
	better := "lower is better"
	if higherIsBetter(f.Unit) {
		better = "higher is better"
	}
	return append(lines, line, f.Unit+" against n ("+better+")")
}

// px is a length of p pixels at chartDPI.
func px(p int) vg.Length { return vg.Length(p) * vg.Inch / chartDPI }

// WriteChart draws the measurements of f among ms as a PNG to w (see the
// picture above; ChartSize gives its size). An op's panel has one line
// per implementation, in the order they were measured, lapis's drawn
// solid and thicker, its anchors dashed; measurements that did not run
// (Value 0) are left out.
func WriteChart(w io.Writer, f Family, ms []Measurement) error {
	ms = pick(ms, f.Name, "")
	if len(ms) == 0 {
		return fmt.Errorf("chart of %s: no measurements", f.Name)
	}
	width, height := ChartSize(f, ms)
	img := vgimg.NewWith(vgimg.UseWH(px(width), px(height)), vgimg.UseDPI(chartDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)

	header := headerLines(f)
	sty := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, 13), Handler: plot.DefaultTextHandler, YAlign: draw.YTop}
	for i, l := range header {
		if i == 0 {
			sty.Font = font.From(plot.DefaultFont, 14)
		} else {
			sty.Font = font.From(plot.DefaultFont, 12)
		}
		dc.FillText(sty, vg.Point{X: px(headerMargin), Y: dc.Max.Y - px(headerMargin+i*headerLine)}, l)
	}

	impls := implsOf(ms)
	top := dc.Max.Y - px(len(header)*headerLine+2*headerMargin)
	for i, op := range opsOf(ms) {
		p, legend, err := panel(f, pick(ms, f.Name, op), impls)
		if err != nil {
			return err
		}
		area := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: dc.Min.X, Y: top - px((i+1)*panelHeight)},
			Max: vg.Point{X: dc.Max.X, Y: top - px(i*panelHeight)},
		}}
		plotArea := draw.Crop(area, px(4), -px(legendWidth), px(4), -px(4))
		p.Draw(plotArea)
		// The legend: the right-hand column, entries from the top, level
		// with the top of the panel's data area.
		legendArea := draw.Crop(area, area.Max.X-area.Min.X-px(legendWidth)+px(12), 0, 0, -px(36))
		legend.Draw(legendArea)
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// implsOf lists the implementations of ms in order of appearance.
func implsOf(ms []Measurement) []string {
	var impls []string
	for _, m := range ms {
		if !slices.Contains(impls, m.Impl) {
			impls = append(impls, m.Impl)
		}
	}
	return impls
}

// isLapis reports whether impl is one of lapis's own (not an anchor).
func isLapis(impl string) bool { return strings.HasPrefix(impl, "lapis") }

// lineStyle is the style of impl, the k-th of lapis's implementations in
// its family or the k-th of its anchors: lapis's solid, 2.5 points wide,
// in warm colours; the anchors dashed in cool colours, black and grey
// (Okabe and Ito's palette, readable with colour blindness); each with
// its own marker.
func lineStyle(impl string, k int) (draw.LineStyle, draw.GlyphStyle) {
	warm := []color.RGBA{{213, 94, 0, 255}, {204, 121, 167, 255}, {230, 159, 0, 255}}
	cool := []color.RGBA{{0, 114, 178, 255}, {0, 158, 115, 255}, {86, 180, 233, 255}, {0, 0, 0, 255}, {120, 120, 120, 255}}
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.PyramidGlyph{}}
	line := draw.LineStyle{Width: vg.Points(1.5)}
	if isLapis(impl) {
		line.Color = warm[k%len(warm)]
		line.Width = vg.Points(2.5)
	} else {
		line.Color = cool[k%len(cool)]
		line.Dashes = [][]vg.Length{{vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}[k%3]
	}
	shape := shapes[k%len(shapes)]
	if !isLapis(impl) {
		shape = shapes[(k+1)%len(shapes)] // lapis's first has the circle
	}
	return line, draw.GlyphStyle{Color: line.Color, Radius: vg.Points(3), Shape: shape}
}

// panel is the plot of one op's measurements ms, a line per impl in the
// order measured, and its legend. Styles are numbered by an impl's place
// among the family's implementations, impls, so that an impl looks the
// same in every panel.
func panel(f Family, ms []Measurement, impls []string) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = ms[0].Op
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text = "n"
	if ms[0].Count > 0 {
		p.X.Label.Text = "n (n x n matrices, count per call as in the table)"
	}
	p.Y.Label.Text = f.Unit
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top = true
	legend.Left = true
	legend.TextStyle.Font.Size = vg.Points(11)
	legend.Padding = vg.Points(3)

	var ns []float64
	var vals []float64
	var wrote int
	for _, impl := range implsOf(ms) {
		style := 0 // lapis's impls and the anchors are numbered apart
		for _, other := range impls[:slices.Index(impls, impl)] {
			if isLapis(other) == isLapis(impl) {
				style++
			}
		}
		var xys plotter.XYs
		for _, m := range ms {
			if m.Impl == impl && m.Value > 0 && !math.IsInf(m.Value, 0) {
				xys = append(xys, plotter.XY{X: float64(m.N), Y: m.Value})
				ns = append(ns, float64(m.N))
				vals = append(vals, m.Value)
			}
		}
		if len(xys) == 0 {
			continue
		}
		slices.SortFunc(xys, func(a, b plotter.XY) int { return int(a.X - b.X) })
		l, s, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, legend, err
		}
		l.LineStyle, s.GlyphStyle = lineStyle(impl, style)
		p.Add(l, s)
		legend.Add(impl, l, s)
		wrote++
	}
	if wrote == 0 {
		return nil, legend, fmt.Errorf("chart of %s %s: nothing measured", f.Name, ms[0].Op)
	}
	setAxis(&p.X, ns, true)
	setAxis(&p.Y, vals, false)
	return p, legend, nil
}

// setAxis fits a to the values vs: a log scale with ticks at 1, 2 and 5
// times powers of ten when they span a factor of 8 or more, otherwise a
// linear one (from zero for values, padded for sizes). Sizes (isN) get a
// tick at each one measured.
func setAxis(a *plot.Axis, vs []float64, isN bool) {
	lo, hi := slices.Min(vs), slices.Max(vs)
	logScale := hi >= 8*lo
	switch {
	case logScale:
		a.Scale = plot.LogScale{}
		a.Min, a.Max = lo/1.15, hi*1.15
	case isN:
		pad := max((hi-lo)*0.06, 0.5)
		a.Min, a.Max = lo-pad, hi+pad
	default:
		a.Min, a.Max = 0, hi*1.08
	}
	switch {
	case isN:
		var ticks []plot.Tick
		for _, n := range uniqSorted(vs) {
			ticks = append(ticks, plot.Tick{Value: n, Label: strconv.FormatFloat(n, 'f', -1, 64)})
		}
		a.Tick.Marker = plot.ConstantTicks(ticks)
	case logScale:
		a.Tick.Marker = logTicks{}
	}
}

// uniqSorted returns the distinct values of vs in increasing order.
func uniqSorted(vs []float64) []float64 {
	out := slices.Clone(vs)
	slices.Sort(out)
	return slices.Compact(out)
}

// logTicks marks 1, 2 and 5 times each power of ten in range, labelling
// all of them when the range spans at most three decades and the powers
// of ten alone otherwise.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	labelAll := hi/lo <= 1000
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || labelAll {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
