//go:build !race

package gonumlapack_test

const raceEnabled = false
