// Command report turns `go test -bench` output (on standard input) into
// tables of ratios measured in that one run: for each benchmark family and
// each op/n group, every impl's median time, its bandwidth when the
// benchmark set bytes, and its time relative to the group's reference
// impls (memcpy and lapis by default).
//
//	go test -run '^$' -bench Copy -count 4 ./bench | go run ./bench/report
//
// With -threads it reads BenchmarkThreads instead and prints one table:
// each call and load state with the thread policy's median time (auto),
// OpenBLAS fixed at 1 and 2 threads, auto against the better of the two
// (target 1.3 with busy goroutines) and against 2 threads, OpenBLAS's own
// default on two cores (target 1.05 on a quiet process), and the share of
// calls the policy raised.
//
//	go test -run '^$' -bench '^BenchmarkThreads$' -count 5 ./bench | go run ./bench/report -threads
//
// With -ratios it prints one table instead, a row per group (its op=, n=
// ... parts as columns), the median of every impl in order of first
// appearance, and the ratios listed, each a/b of two impls' medians:
//
//	... | go run ./bench/report -ratios lapis/netlib,gonum/lapis
//
// With -rounds as well, each ratio is taken round by round instead: the
// k-th time of a against the k-th time of b (the k-th pass of go test
// -count, or of scripts/bench-batch.sh, which alternates go test and
// numpy passes), printed as the median of those ratios with their
// range. On a host whose speed drifts over minutes, a slow phase then
// falls on both sides of a ratio instead of on one impl's median.
//
//	go run ./bench/report -ratios numpy/lapis-to,lapis-to/lapis-to-w2 -rounds < raw.txt
//
// -unit reads another per-op metric than ns/op (a benchmark's
// b.ReportMetric, such as cpu-ns/op), printed as a duration all the same.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// line matches "BenchmarkCopy/op=transpose/n=1024/impl=lapis-2  20  1200179 ns/op  13978.93 MB/s".
var line = regexp.MustCompile(`^Benchmark(\w+)/(\S+)/impl=(\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) MB/s)?`)

// metric, when set, matches the per-op time to read instead of ns/op.
var metric *regexp.Regexp

type key struct{ family, group string }

func main() {
	refs := flag.String("ref", "memcpy,lapis", "comma-separated impls to divide by, in order")
	thr := flag.Bool("threads", false, "read BenchmarkThreads and print the thread policy's table")
	ratios := flag.String("ratios", "", "one table with these comma-separated a/b ratios of impls' medians")
	unit := flag.String("unit", "ns/op", "the per-op time metric to read (ns/op, or a reported one such as cpu-ns/op)")
	rounds := flag.Bool("rounds", false, "with -ratios: the median (and range) of each round's ratio instead of the ratio of medians")
	flag.Parse()
	if *unit != "ns/op" {
		metric = regexp.MustCompile(`\s([\d.]+) ` + regexp.QuoteMeta(*unit) + `(\s|$)`)
	}
	var rs []string
	if *ratios != "" {
		rs = strings.Split(*ratios, ",")
	}
	var err error
	if *thr {
		err = runThreads(os.Stdin, os.Stdout)
	} else {
		err = run(os.Stdin, os.Stdout, strings.Split(*refs, ","), rs, *rounds)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer, refs, ratios []string, rounds bool) error {
	times := map[key]map[string][]float64{}
	mbs := map[key]map[string][]float64{}
	var order []key
	var impls []string // in order of first appearance
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		k := key{m[1], m[2]}
		if times[k] == nil {
			times[k], mbs[k] = map[string][]float64{}, map[string][]float64{}
			order = append(order, k)
		}
		if !slices.Contains(impls, m[3]) {
			impls = append(impls, m[3])
		}
		ns, _ := strconv.ParseFloat(m[5], 64)
		if metric != nil {
			v := metric.FindStringSubmatch(sc.Text())
			if v == nil {
				continue
			}
			ns, _ = strconv.ParseFloat(v[1], 64)
		}
		times[k][m[3]] = append(times[k][m[3]], ns)
		if m[6] != "" {
			mb, _ := strconv.ParseFloat(m[6], 64)
			mbs[k][m[3]] = append(mbs[k][m[3]], mb)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("no benchmark lines in the input")
	}
	if ratios != nil {
		return wide(out, order, times, impls, ratios, rounds)
	}
	for _, k := range order {
		fmt.Fprintf(out, "\n%s %s\n\n", k.family, k.group)
		header := "| impl | median | GB/s |"
		sep := "|---|---|---|"
		var present []string
		for _, r := range refs {
			if _, ok := times[k][r]; ok {
				present = append(present, r)
				header += " time / " + r + " |"
				sep += "---|"
			}
		}
		fmt.Fprintln(out, header)
		fmt.Fprintln(out, sep)
		impls := make([]string, 0, len(times[k]))
		for impl := range times[k] {
			impls = append(impls, impl)
		}
		sort.Slice(impls, func(i, j int) bool { return median(times[k][impls[i]]) < median(times[k][impls[j]]) })
		for _, impl := range impls {
			t := median(times[k][impl])
			gbs := "-"
			if v := mbs[k][impl]; len(v) > 0 {
				gbs = fmt.Sprintf("%.1f", median(v)/1000)
			}
			row := fmt.Sprintf("| %s | %s | %s |", impl, dur(t), gbs)
			for _, r := range present {
				row += fmt.Sprintf(" %.2f |", t/median(times[k][r]))
			}
			fmt.Fprintln(out, row)
		}
	}
	return nil
}

// wide prints one table: a row per group, its parts (op=svd/n=100) as
// columns, every impl's median and the ratios a/b: of the medians, or
// with rounds the median and range of the rounds' ratios.
func wide(out io.Writer, order []key, times map[key]map[string][]float64, impls, ratios []string, rounds bool) error {
	for _, r := range ratios {
		a, b, ok := strings.Cut(r, "/")
		if !ok || !slices.Contains(impls, a) || !slices.Contains(impls, b) {
			return fmt.Errorf("ratio %q is not a/b of two impls among %v", r, impls)
		}
	}
	var names []string
	for _, part := range strings.Split(order[0].group, "/") {
		name, _, _ := strings.Cut(part, "=")
		names = append(names, name)
	}
	header, sep := "|", "|"
	for _, c := range append(append(names, impls...), ratios...) {
		header += " " + strings.ReplaceAll(c, "/", " / ") + " |"
		sep += "---|"
	}
	fmt.Fprintln(out, header)
	fmt.Fprintln(out, sep)
	for _, k := range order {
		row := "|"
		for _, part := range strings.Split(k.group, "/") {
			_, v, _ := strings.Cut(part, "=")
			row += " " + v + " |"
		}
		for _, impl := range impls {
			if v, ok := times[k][impl]; ok {
				row += " " + dur(median(v)) + " |"
			} else {
				row += " - |"
			}
		}
		for _, r := range ratios {
			a, b, _ := strings.Cut(r, "/")
			if va, ok := times[k][a]; ok {
				if vb, ok := times[k][b]; ok {
					row += " " + ratio(va, vb, rounds) + " |"
					continue
				}
			}
			row += " - |"
		}
		fmt.Fprintln(out, row)
	}
	return nil
}

// ratio is a's median over b's, or with rounds the median of a[k] /
// b[k] over the rounds both have, with the smallest and largest.
func ratio(a, b []float64, rounds bool) string {
	if !rounds {
		return fmt.Sprintf("%.2f", median(a)/median(b))
	}
	r := make([]float64, min(len(a), len(b)))
	for k := range r {
		r[k] = a[k] / b[k]
	}
	return fmt.Sprintf("%.2f (%.2f-%.2f)", median(r), slices.Min(r), slices.Max(r))
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func dur(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f us", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
