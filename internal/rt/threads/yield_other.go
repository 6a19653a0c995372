//go:build !linux

package threads

// yieldCPU does nothing where the policy does not read the machine's
// counts; see yield_linux.go.
func yieldCPU() {}
