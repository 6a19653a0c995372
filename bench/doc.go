// Package bench holds lapis's benchmarks and, in the same run, the anchors
// they are judged against (docs/bench/README.md#anchors): Go's copy() of
// the same bytes, plain Go loops, gonum, and (through scripts/) numpy.
// Benchmarks are named op=.../n=.../impl=... and report bytes moved (read +
// write) per second (copies) or GFLOP/s (gemm); bench/report and
// scripts/bench-copy.sh turn one run into tables of ratios. Package
// bench/cref holds the C references (its Dgemm is the one C reference
// gemm loop), shared with lapis bench (bench/family).
package bench
