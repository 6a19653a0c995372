//go:build !linux || !amd64 || purego

package split

// CPU reports false: without Linux on amd64 (or with -tags purego, which
// builds no assembly) the calling thread's CPU is not known cheaply, and
// a Split takes its workers' homes in the order they arrive.
func CPU() (int, bool) { return 0, false }
