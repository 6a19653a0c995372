// Command lapis tells which BLAS and LAPACK a program built with lapis
// really runs, whether that build computes correctly on this machine, and
// how fast it is here against gonum's pure Go:
//
//	lapis info  [-json]            library, version, kernel set, threads, integer width,
//	                               shared objects loaded, CPU, environment, thread policy
//	lapis check [-json] [-v]       quick correctness checks against gonum and the known
//	                               library defects; exit status 1 on any WRONG or CRASH
//	lapis bench [-quick] [-sizes 64,256] [-time 100ms] [-threads N] [-png out.png] [-out DIR] [-json]
//	                               gemm GFLOP/s, LAPACK times, small-call overhead
//
// Run it without installing: go run github.com/lapis-go/lapis/cmd/lapis@latest info
// (cgo and a BLAS are needed, as for lapis itself: see the README).
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
  bench   gemm, LAPACK and small-call timings against gonum, as a table and PNG plots

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
