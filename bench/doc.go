// Package bench holds lapis's benchmarks and, in the same run, the anchors
// they are judged against (../shared/ANCHORS.md): Go's copy() of the same
// bytes, plain Go loops, gonum, and (through scripts/) numpy. Benchmarks are
// named op=.../n=.../impl=... and report bytes moved (read + write) per
// second; scripts/bench-copy.sh turns one run into a table of ratios.
package bench
