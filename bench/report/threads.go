package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// threadsLine matches "BenchmarkThreads/op=gemm/n=1024/busy=0/threads=auto-2  16  18203311 ns/op  0.9375 raised/op".
var threadsLine = regexp.MustCompile(`^BenchmarkThreads/op=(\w+)/n=(\d+)/busy=(\d+)/threads=(\w+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) raised/op)?`)

// The thread policy's targets (docs/bench/threads.md).
const (
	busyTarget  = 1.3  // auto / best of 1 and 2 threads, with busy goroutines
	quietTarget = 1.05 // auto / 2 threads (OpenBLAS's default on 2 cores), on a quiet process
)

// runThreads prints BenchmarkThreads as one table with the targets.
func runThreads(in io.Reader, out io.Writer) error {
	type row struct{ op, n, busy string }
	times := map[row]map[string][]float64{}
	raised := map[row][]float64{}
	var order []row
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		m := threadsLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := row{m[1], m[2], m[3]}
		if times[r] == nil {
			times[r] = map[string][]float64{}
			order = append(order, r)
		}
		ns, _ := strconv.ParseFloat(m[5], 64)
		times[r][m[4]] = append(times[r][m[4]], ns)
		if m[6] != "" {
			v, _ := strconv.ParseFloat(m[6], 64)
			raised[r] = append(raised[r], v)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("no BenchmarkThreads lines in the input")
	}
	fmt.Fprintln(out, "| op | n | busy | auto | 1 thread | 2 threads | auto / best | auto / 2 threads | raised | target |")
	// target: busy rows auto / best <= busyTarget, quiet rows auto / 2 threads <= quietTarget.
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|")
	met, rows := 0, 0
	for _, r := range order {
		t := times[r]
		if len(t["auto"]) == 0 || len(t["1"]) == 0 || len(t["2"]) == 0 {
			continue
		}
		auto, one, two := median(t["auto"]), median(t["1"]), median(t["2"])
		best, vsTwo := auto/min(one, two), auto/two
		ok := best <= busyTarget
		if r.busy == "0" {
			ok = vsTwo <= quietTarget
		}
		verdict := "missed"
		if ok {
			verdict = "met"
			met++
		}
		rows++
		ra := "-"
		if v := raised[r]; len(v) > 0 {
			ra = fmt.Sprintf("%.2f", median(v))
		}
		fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s | %.2f | %.2f | %s | %s |\n",
			r.op, r.n, r.busy, dur(auto), dur(one), dur(two), best, vsTwo, ra, verdict)
	}
	fmt.Fprintf(out, "\ntargets met in %d of %d rows (busy: auto / best <= %.2f; quiet: auto / 2 threads <= %.2f)\n", met, rows, busyTarget, quietTarget)
	return nil
}
