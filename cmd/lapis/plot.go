package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sort"
)

// A small line-chart renderer for bench's PNG files: axes (linear or
// log), ticks, grid, labels, a legend, one line with markers per series.
// Text is the 7 x 13 bitmap font in font.go.

// series is one line of a plot.
type series struct {
	Name string    `json:"name"`
	X    []float64 `json:"x"`
	Y    []float64 `json:"y"`
}

// panel is one chart.
type panel struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	Series                []series
}

var (
	white   = color.RGBA{255, 255, 255, 255}
	black   = color.RGBA{0, 0, 0, 255}
	grid    = color.RGBA{225, 225, 225, 255}
	palette = []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255}, {140, 86, 75, 255}}
)

// writePNG draws the panels one above the other, each width x height
// pixels, and writes the PNG.
func writePNG(w io.Writer, panels []panel, width, height int) error {
	img := image.NewRGBA(image.Rect(0, 0, width, height*len(panels)))
	draw.Draw(img, img.Bounds(), image.NewUniform(white), image.Point{}, draw.Src)
	for i, p := range panels {
		drawPanel(img, image.Rect(0, i*height, width, (i+1)*height), p)
	}
	return png.Encode(w, img)
}

// axis maps data values to pixels along one direction.
type axis struct {
	log          bool
	lo, hi       float64 // data range (log10 of it for a log axis)
	p0, p1       int     // pixels of lo and hi
	ticks        []float64
	tickFmt      func(float64) string
	integerTicks bool
}

func (a axis) pix(v float64) int {
	if a.log {
		v = math.Log10(v)
	}
	return a.p0 + int(math.Round((v-a.lo)/(a.hi-a.lo)*float64(a.p1-a.p0)))
}

// newAxis chooses the range and ticks for values vs (positive ones only
// on a log axis). xs, when given, are the tick positions (the measured
// sizes).
func newAxis(vs []float64, log bool, p0, p1 int, xs []float64) axis {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) || (log && v <= 0) {
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo > hi { // no data
		lo, hi = 1, 10
	}
	a := axis{log: log, p0: p0, p1: p1, tickFmt: tickLabel}
	if log {
		if lo == hi {
			lo, hi = lo/2, hi*2
		}
		a.lo, a.hi = math.Log10(lo)-0.08*math.Log10(hi/lo), math.Log10(hi)+0.08*math.Log10(hi/lo)
		if xs != nil {
			a.ticks = xs
		} else {
			a.ticks = logTicks(math.Pow(10, a.lo), math.Pow(10, a.hi))
		}
		return a
	}
	lo = min(lo, 0)
	if hi == lo {
		hi = lo + 1
	}
	step := niceStep((hi - lo) / 6)
	a.lo, a.hi = lo, math.Ceil(hi*1.05/step)*step
	for t := a.lo; t <= a.hi+step/2; t += step {
		a.ticks = append(a.ticks, t)
	}
	return a
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// logTicks returns 1, 2, 5 times powers of ten in [lo, hi] (only powers
// of ten when the range spans more than three decades).
func logTicks(lo, hi float64) []float64 {
	mults := []float64{1, 2, 5}
	if hi/lo > 1e3 {
		mults = []float64{1}
	}
	var ts []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range mults {
			if t := m * math.Pow(10, e); t >= lo && t <= hi {
				ts = append(ts, t)
			}
		}
	}
	return ts
}

// tickLabel formats a tick value briefly.
func tickLabel(v float64) string {
	switch a := math.Abs(v); {
	case v == 0:
		return "0"
	case a >= 1e5 || a < 1e-3:
		m, e := v/math.Pow(10, math.Floor(math.Log10(a))), int(math.Floor(math.Log10(a)))
		if math.Abs(m-math.Round(m)) < 1e-9 {
			return fmt.Sprintf("%.0fe%d", m, e)
		}
		return fmt.Sprintf("%.1fe%d", m, e)
	}
	return fmt.Sprintf("%g", math.Round(v*1000)/1000)
}

// drawPanel draws p into r of img.
func drawPanel(img *image.RGBA, r image.Rectangle, p panel) {
	const left, right, top, bottom = 78, 20, 40, 48
	plot := image.Rect(r.Min.X+left, r.Min.Y+top, r.Max.X-right, r.Max.Y-bottom)
	var xs, ys []float64
	seen := map[float64]bool{}
	for _, s := range p.Series {
		for i := range s.X {
			if !seen[s.X[i]] {
				seen[s.X[i]] = true
				xs = append(xs, s.X[i])
			}
			ys = append(ys, s.Y[i])
		}
	}
	sort.Float64s(xs)
	var xticks []float64
	if p.LogX && len(xs) <= 14 {
		xticks = xs
	}
	ax := newAxis(xs, p.LogX, plot.Min.X, plot.Max.X, xticks)
	ay := newAxis(ys, p.LogY, plot.Max.Y, plot.Min.Y, nil)

	// Grid, ticks and their labels.
	for _, t := range ax.ticks {
		x := ax.pix(t)
		if x < plot.Min.X || x > plot.Max.X {
			continue
		}
		vline(img, x, plot.Min.Y, plot.Max.Y, grid)
		vline(img, x, plot.Max.Y, plot.Max.Y+5, black)
		l := ax.tickFmt(t)
		text(img, x-textWidth(l)/2, plot.Max.Y+8, l, black)
	}
	for _, t := range ay.ticks {
		y := ay.pix(t)
		if y < plot.Min.Y || y > plot.Max.Y {
			continue
		}
		hline(img, plot.Min.X, plot.Max.X, y, grid)
		hline(img, plot.Min.X-5, plot.Min.X, y, black)
		l := ay.tickFmt(t)
		text(img, plot.Min.X-8-textWidth(l), y-glyphAscent/2-1, l, black)
	}
	// Frame, title and axis labels.
	hline(img, plot.Min.X, plot.Max.X, plot.Min.Y, black)
	hline(img, plot.Min.X, plot.Max.X, plot.Max.Y, black)
	vline(img, plot.Min.X, plot.Min.Y, plot.Max.Y, black)
	vline(img, plot.Max.X, plot.Min.Y, plot.Max.Y, black)
	text(img, (r.Min.X+r.Max.X-textWidth(p.Title))/2, r.Min.Y+8, p.Title, black)
	text(img, (plot.Min.X+plot.Max.X-textWidth(p.XLabel))/2, plot.Max.Y+26, p.XLabel, black)
	text(img, r.Min.X+6, plot.Min.Y-glyphH-4, p.YLabel, black)

	// Lines and markers, clipped to the plot.
	clip := img.SubImage(plot.Inset(-3)).(*image.RGBA)
	for i, s := range p.Series {
		c := palette[i%len(palette)]
		var prev image.Point
		havePrev := false
		for j := range s.X {
			if math.IsNaN(s.Y[j]) || (p.LogY && s.Y[j] <= 0) {
				havePrev = false
				continue
			}
			pt := image.Pt(ax.pix(s.X[j]), ay.pix(s.Y[j]))
			if havePrev {
				thickLine(clip, prev, pt, c)
			}
			draw.Draw(clip, image.Rect(pt.X-3, pt.Y-3, pt.X+4, pt.Y+4), image.NewUniform(c), image.Point{}, draw.Src)
			prev, havePrev = pt, true
		}
	}

	// Legend in the top-left corner of the plot.
	w := 0
	for _, s := range p.Series {
		w = max(w, textWidth(s.Name))
	}
	box := image.Rect(plot.Min.X+8, plot.Min.Y+8, plot.Min.X+8+w+36, plot.Min.Y+8+len(p.Series)*(glyphH+4)+6)
	draw.Draw(img, box, image.NewUniform(white), image.Point{}, draw.Src)
	hline(img, box.Min.X, box.Max.X, box.Min.Y, grid)
	hline(img, box.Min.X, box.Max.X, box.Max.Y, grid)
	vline(img, box.Min.X, box.Min.Y, box.Max.Y, grid)
	vline(img, box.Max.X, box.Min.Y, box.Max.Y, grid)
	for i, s := range p.Series {
		y := box.Min.Y + 4 + i*(glyphH+4)
		c := palette[i%len(palette)]
		draw.Draw(img, image.Rect(box.Min.X+6, y+5, box.Min.X+24, y+8), image.NewUniform(c), image.Point{}, draw.Src)
		text(img, box.Min.X+30, y, s.Name, black)
	}
}

func hline(img *image.RGBA, x0, x1, y int, c color.RGBA) {
	for x := x0; x <= x1; x++ {
		img.SetRGBA(x, y, c)
	}
}

func vline(img *image.RGBA, x, y0, y1 int, c color.RGBA) {
	for y := y0; y <= y1; y++ {
		img.SetRGBA(x, y, c)
	}
}

// thickLine draws a line two pixels wide (Bresenham, doubled).
func thickLine(img *image.RGBA, a, b image.Point, c color.RGBA) {
	dx, dy := abs(b.X-a.X), -abs(b.Y-a.Y)
	sx, sy := sign(b.X-a.X), sign(b.Y-a.Y)
	e := dx + dy
	for x, y := a.X, a.Y; ; {
		img.SetRGBA(x, y, c)
		img.SetRGBA(x+1, y, c)
		img.SetRGBA(x, y+1, c)
		if x == b.X && y == b.Y {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x += sx
		}
		if e2 <= dx {
			e += dx
			y += sy
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// textWidth is the width of s in pixels.
func textWidth(s string) int { return glyphW * len(s) }

// text draws s with its top-left corner at (x, y).
func text(img *image.RGBA, x, y int, s string, c color.RGBA) {
	for _, r := range s {
		if r >= 32 && r <= 126 {
			g := &glyphs[r-32]
			for row := 0; row < glyphH; row++ {
				for col := 0; col < glyphW; col++ {
					if g[row]&(1<<(6-col)) != 0 {
						img.SetRGBA(x+col, y+row, c)
					}
				}
			}
		}
		x += glyphW
	}
}
