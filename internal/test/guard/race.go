//go:build race

package guard

// raceEnabled: see raceStride.
const raceEnabled = true
