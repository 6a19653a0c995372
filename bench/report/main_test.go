package main

import (
	"strings"
	"testing"
)

// TestRatios checks -ratios with and without -rounds: a slow second round
// (both impls twice as slow) moves the ratio of medians but not the
// rounds' ratios.
func TestRatios(t *testing.T) {
	in := `BenchmarkBatchTiny/op=inv/n=8/impl=lapis-2  100  1000 ns/op
BenchmarkBatchTiny/op=inv/n=8/impl=numpy  1  5000 ns/op
BenchmarkBatchTiny/op=inv/n=8/impl=lapis-2  100  1000 ns/op
BenchmarkBatchTiny/op=inv/n=8/impl=numpy  1  10000 ns/op
BenchmarkBatchTiny/op=inv/n=8/impl=lapis-2  100  2000 ns/op
BenchmarkBatchTiny/op=inv/n=8/impl=numpy  1  8000 ns/op
`
	for _, c := range []struct {
		rounds bool
		want   string
	}{
		{false, "| inv | 8 | 1.0 us | 8.0 us | 8.00 |"},
		{true, "| inv | 8 | 1.0 us | 8.0 us | 5.00 (4.00-10.00) |"},
	} {
		var out strings.Builder
		if err := run(strings.NewReader(in), &out, nil, []string{"numpy/lapis"}, c.rounds); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("rounds=%v: output lacks %q:\n%s", c.rounds, c.want, out.String())
		}
	}
}
