//go:build race

package threads

// Under the race detector buffers on the stack escape to the heap, so
// allocation counts are only checked in runs without -race (scripts/test.sh
// does one).
const raceEnabled = true
