package main

import (
	"strings"
	"testing"
)

func TestRunThreads(t *testing.T) {
	in := `goos: linux
BenchmarkThreads/op=gemm/n=1024/busy=0/threads=auto-2  16  20000000 ns/op  0.5000 raised/op
BenchmarkThreads/op=gemm/n=1024/busy=0/threads=auto-2  16  18000000 ns/op  1.0000 raised/op
BenchmarkThreads/op=gemm/n=1024/busy=0/threads=auto-2  16  19000000 ns/op  0.7500 raised/op
BenchmarkThreads/op=gemm/n=1024/busy=0/threads=1-2     16  34000000 ns/op
BenchmarkThreads/op=gemm/n=1024/busy=0/threads=2-2     16  18000000 ns/op
BenchmarkThreads/op=gesv/n=64/busy=2/threads=auto-2    9000  40000 ns/op  0 raised/op
BenchmarkThreads/op=gesv/n=64/busy=2/threads=1-2       9000  38000 ns/op
BenchmarkThreads/op=gesv/n=64/busy=2/threads=2-2       9000  900000 ns/op
BenchmarkThreads/op=potrf/n=64/busy=1/threads=auto-2   9000  40000 ns/op
`
	var out strings.Builder
	if err := runThreads(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"| gemm | 1024 | 0 | 19.00 ms | 34.00 ms | 18.00 ms | 1.06 | 1.06 | 0.75 | missed |",
		"| gesv | 64 | 2 | 40.0 us | 38.0 us | 900.0 us | 1.05 | 0.04 | 0.00 | met |",
		"targets met in 1 of 2 rows",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "potrf") {
		t.Errorf("a row without its fixed-thread columns was printed:\n%s", got)
	}
	if err := runThreads(strings.NewReader("PASS\n"), &out); err == nil {
		t.Error("input without BenchmarkThreads lines: no error")
	}
}
