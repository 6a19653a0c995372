package family

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

// chartCases are fixed measurement lists (no timing): one op on log axes,
// several ops with counts on linear axes, one size only, and a
// measurement that did not run.
var chartCases = []struct {
	name   string
	family Family
	ms     []Measurement
	panels int
}{
	{"one op, log axes", Family{Name: "gemm", Title: "dgemm, n x n x n", Unit: unitGFLOPS}, []Measurement{
		{Family: "gemm", Op: "dgemm", Impl: implLapis, N: 32, Value: 30},
		{Family: "gemm", Op: "dgemm", Impl: implC, N: 32, Value: 35},
		{Family: "gemm", Op: "dgemm", Impl: implGonum, N: 32, Value: 5},
		{Family: "gemm", Op: "dgemm", Impl: implLapis, N: 1024, Value: 90},
		{Family: "gemm", Op: "dgemm", Impl: implC, N: 1024, Value: 88},
		{Family: "gemm", Op: "dgemm", Impl: implGonum, N: 1024, Value: 12},
		{Family: "gemm", Op: "dgemm", Impl: implNumpy, N: 1024, Value: 87},
		{Family: "copy", Op: "transpose", Impl: implLapis, N: 64, Value: 1}, // another family: left out
	}, 1},
	{"two ops, counts, linear axes", Family{Name: "tiny", Title: strings.Repeat("a long title that wraps ", 8), Unit: unitNsMatrix}, []Measurement{
		{Family: "tiny", Op: "gemm", Impl: implLapis, N: 4, Count: 10000, Value: 20},
		{Family: "tiny", Op: "gemm", Impl: implC + " loop of cblas_dgemm", N: 4, Count: 10000, Value: 60},
		{Family: "tiny", Op: "gemm", Impl: implLapis, N: 8, Count: 10000, Value: 60},
		{Family: "tiny", Op: "gemm", Impl: implC + " loop of cblas_dgemm", N: 8, Count: 10000, Value: 140},
		{Family: "tiny", Op: "solve", Impl: implLapis, N: 4, Count: 10000, Value: 40},
		{Family: "tiny", Op: "solve", Impl: implNumpy, N: 4, Count: 10000, Value: 0}, // did not run
		{Family: "tiny", Op: "solve", Impl: implNumpy, N: 8, Count: 10000, Value: 300},
	}, 2},
	{"one size", Family{Name: "threads", Title: "dgesv", Unit: unitMs}, []Measurement{
		{Family: "threads", Op: "dgesv", Impl: "lapis (default policy)", N: 256, Value: 0.6},
		{Family: "threads", Op: "dgesv", Impl: implGonum, N: 256, Value: 3},
	}, 1},
}

// TestWriteChart draws each case and checks that the PNG decodes, has the
// size ChartSize says, one panel per op, and is not blank.
func TestWriteChart(t *testing.T) {
	for _, c := range chartCases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteChart(&buf, c.family, c.ms); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatalf("the chart does not decode as PNG: %v", err)
			}
			w, h := ChartSize(c.family, c.ms)
			if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
				t.Errorf("chart is %d x %d pixels, ChartSize says %d x %d", b.Dx(), b.Dy(), w, h)
			}
			if want := len(headerLines(c.family))*headerLine + 2*headerMargin + c.panels*panelHeight; h != want {
				t.Errorf("height %d, want %d for %d panels", h, want, c.panels)
			}
			if w != chartWidth {
				t.Errorf("width %d, want %d", w, chartWidth)
			}
			// Something was drawn: not every pixel is the background's.
			bg, drawn := img.At(0, 0), 0
			for y := 0; y < h; y += 3 {
				for x := 0; x < w; x += 3 {
					if img.At(x, y) != bg {
						drawn++
					}
				}
			}
			if drawn < 500 {
				t.Errorf("only %d sampled pixels differ from the background", drawn)
			}
		})
	}
	if err := WriteChart(&bytes.Buffer{}, Family{Name: "none"}, chartCases[0].ms); err == nil {
		t.Error("a chart of a family with no measurements: no error")
	}
}

// TestMarkdownLinksCharts checks that Markdown links each family's chart
// when asked to, and only then.
func TestMarkdownLinksCharts(t *testing.T) {
	o := Options{Families: []string{"gemm"}}
	ms := chartCases[0].ms[:7]
	if md := Markdown(o, ms, "numpy: -", true); !strings.Contains(md, "](gemm.png)") {
		t.Errorf("Markdown with charts has no link to gemm.png:\n%s", md)
	}
	if md := Markdown(o, ms, "numpy: -", false); strings.Contains(md, ".png") {
		t.Errorf("Markdown without charts links one:\n%s", md)
	}
}

// TestMedian checks the rule timeOp and numpy_timer.py share.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}
