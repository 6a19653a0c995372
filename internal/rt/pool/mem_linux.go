package pool

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// memBytes is the memory a process of this machine can fill, in bytes:
// the least of RAM plus swap (sysinfo(2)), the address-space limit
// (RLIMIT_AS, ulimit -v) and the memory limit of the process's cgroup
// (cgroup v2 memory.max, a container's --memory), or 2^64-1 when none
// of them is known. Beyond it an allocation dies: the kernel refuses the
// mapping (and Go's runtime then exits with a fatal "out of memory") or
// the cgroup's OOM killer ends the process.
func memBytes() uint64 {
	m := ^uint64(0)
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil && si.Totalram != 0 {
		unit := max(uint64(si.Unit), 1)
		m = (uint64(si.Totalram) + uint64(si.Totalswap)) * unit
	}
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur != ^uint64(0) {
		m = min(m, rl.Cur)
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil { // "max": no limit
			m = min(m, n)
		}
	}
	return m
}
