//go:build race

package gonumlapack_test

// raceEnabled: under -race the largest testlapack suites are skipped
// (TestTestlapack).
const raceEnabled = true
