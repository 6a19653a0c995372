//go:build !purego

package split

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// sysGetcpu is getcpu(2)'s number on linux/amd64 (package syscall has no
// name for it).
const sysGetcpu = 309

// TestCPU: CPU agrees with the getcpu system call. The thread may move
// between the two readings, so one agreement in ten tries is asked of
// each CPU the thread lands on.
func TestCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for try := range 10 {
		got, ok := CPU()
		if !ok {
			t.Fatal("CPU: not known on linux/amd64")
		}
		var cpu, node uint32
		if _, _, e := syscall.RawSyscall(sysGetcpu, uintptr(unsafe.Pointer(&cpu)), uintptr(unsafe.Pointer(&node)), 0); e != 0 {
			t.Skipf("getcpu: %v", e)
		}
		if got == int(cpu) {
			return
		}
		t.Logf("try %d: CPU %d, getcpu %d", try, got, cpu)
	}
	t.Error("CPU never agreed with getcpu in ten tries")
}
