package pool

import "syscall"

// memBytes is the machine's RAM and swap in bytes (sysinfo(2)), or 2^64-1
// when the kernel does not say.
func memBytes() uint64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil || si.Totalram == 0 {
		return ^uint64(0)
	}
	unit := max(uint64(si.Unit), 1)
	return (uint64(si.Totalram) + uint64(si.Totalswap)) * unit
}
