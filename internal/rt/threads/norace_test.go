//go:build !race

package threads

const raceEnabled = false
