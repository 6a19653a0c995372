package family

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// BenchmarkFamilies runs the families of lapis bench under go test: every
// job but numpy's (only lapis bench runs numpy_timer.py), at the
// families' sizes (-short: their quick sizes), named as WriteBenchmarks
// names them.
//
//	go test -run '^$' -bench '^BenchmarkFamilies$/family=tiny' ./bench/family
func BenchmarkFamilies(b *testing.B) {
	e := &env{r: rand.New(rand.NewPCG(41, 43)), cThreads: cThreads()}
	for _, f := range All() {
		sizes := f.Defaults
		if testing.Short() {
			sizes = f.Quick
		}
		for _, n := range sizes {
			for _, j := range f.jobs(e, n) {
				if j.f == nil {
					continue
				}
				m := Measurement{Family: f.Name, Op: j.op, Impl: j.impl, N: n, Count: j.count, Unit: f.Unit}
				name := strings.TrimPrefix(benchmarkName(m), "BenchmarkFamilies/")
				name = name[:strings.LastIndexByte(name, '-')]
				b.Run(name, func(b *testing.B) {
					defer j.setUp()()
					start := time.Now()
					for b.Loop() {
						if err := j.f(); err != nil {
							b.Fatal(err)
						}
					}
					secs := time.Since(start).Seconds() / float64(b.N*max(1, j.per))
					if u := metricUnit(f.Unit); u != "ns/op" {
						b.ReportMetric(value(f.Unit, secs, j.work, j.count), u)
					}
				})
			}
		}
	}
}

// TestFamilies runs every family's jobs once at its smallest quick size
// (numpy's too, when python3 has numpy) and checks that each measured and
// that WriteBenchmarks writes a line for each.
func TestFamilies(t *testing.T) {
	python, _ := FindNumpy()
	o := Options{Quick: true, Budget: time.Millisecond, Count: 3, Numpy: python, Sizes: map[string][]int{}}
	for _, f := range All() {
		o.Sizes[f.Name] = f.Quick[:1]
	}
	ms, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	perFamily := map[string]int{}
	for _, m := range ms {
		perFamily[m.Family]++
		if !(m.Seconds > 0) || !(m.Value > 0) {
			t.Errorf("%+v did not measure", m)
		}
	}
	for _, f := range All() {
		if perFamily[f.Name] < 2 {
			t.Errorf("family %s: %d measurements, want lapis and an anchor at least", f.Name, perFamily[f.Name])
		}
	}
	var out strings.Builder
	if err := WriteBenchmarks(&out, ms); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(out.String(), "\nBenchmarkFamilies/"); lines != len(ms) {
		t.Errorf("WriteBenchmarks wrote %d benchmark lines for %d measurements:\n%s", lines, len(ms), out.String())
	}
	md := Markdown(o, ms, "numpy: "+fmt.Sprint(python != ""), false)
	for _, f := range All() {
		if !strings.Contains(md, "### "+f.Name+": ") {
			t.Errorf("Markdown has no table for %s", f.Name)
		}
	}
}
