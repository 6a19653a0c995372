//go:build race

package lapack

// Under the race detector sync.Pool drops buffers at random, so pooled
// workspaces are reallocated now and then: allocation counts are only
// checked in runs without -race (scripts/test.sh does one).
const raceEnabled = true
