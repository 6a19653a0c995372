// Command lapis tells which BLAS and LAPACK a program built with lapis
// really runs, whether that build computes correctly on this machine, and
// how fast it is here against C, gonum's pure Go and numpy:
//
//	lapis info  [-json]            library, version, kernel set, threads, integer width,
//	                               shared objects loaded, CPU, environment, thread policy
//	lapis check [-json] [-run RE] [-known-ok]
//	                               quick correctness checks against gonum, the known library
//	                               defects (guard pages, scasum, rotg, thread safety, threads
//	                               collapsing under a busy goroutine); exit status 1 on any
//	                               WRONG or CRASH (with -known-ok: on any not a known defect
//	                               of the library's version)
//	lapis bench [-quick] [-families copy,gemm,...] [-sizes FAMILY=N,N,...] [-time 100ms]
//	            [-count 5] [-threads N] [-nonumpy] [-out DIR] [-json | -benchfmt]
//	                               package bench/family's seven families (copy, gemm, small, lapack,
//	                               batch, tiny, threads under a busy goroutine) against a C
//	                               reference (bench/cref), gonum and numpy when python3 has it,
//	                               each figure the median of -count batches: a Markdown table per
//	                               family, JSON, or go test -bench text (benchstat, bench/report);
//	                               -out writes all three and a chart per family (FAMILY.png)
//
// Run it without installing: go run github.com/lapis-go/lapis/cmd/lapis@latest info
// (cgo and a BLAS are needed, as for lapis itself: README, "Use it in
// your module"). The C references link the library lapis links: OpenBLAS
// through pkg-config by default, or with -tags lapis_cgoflags what
// CGO_LDFLAGS names.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if probeChild() { // check's guarded probes run in a child process
		return
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: lapis <verb> [flags]

verbs:
  info    which BLAS/LAPACK library, kernel set, threads and CPU this process runs on
  check   a quick self-test of the linked library on this machine (exit status 1 on failure)
  bench   copy, gemm, LAPACK, batch and threads timings against C, gonum and numpy: tables, JSON, benchmark text

'lapis <verb> -h' lists the verb's flags.
`

// run runs one verb and returns the exit status: 0 success, 1 a check
// failed, 2 a usage error or an error running the verb.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	verb, rest := args[0], args[1:]
	switch verb {
	case "info":
		return infoCmd(rest, stdout, stderr)
	case "check":
		return checkCmd(rest, stdout, stderr)
	case "bench":
		return benchCmd(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "lapis: unknown verb %q\n%s", verb, usage)
	return 2
}
