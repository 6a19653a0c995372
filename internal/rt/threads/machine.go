package threads

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// What the machine says about other processes: Linux's /proc files, read
// without allocating, and this process's CPU time.

// onlineCPUs is the number of CPUs the machine has online, 0 when
// unknown; machineWide says whether the process may run on all of them
// (not pinned to a subset: runtime.NumCPU counts the CPUs it may use).
var onlineCPUs = func() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return 0
	}
	n := 0
	for _, r := range strings.Split(strings.TrimSpace(string(b)), ",") {
		lo, hi, found := strings.Cut(r, "-")
		a, err1 := strconv.Atoi(lo)
		z, err2 := a, error(nil)
		if found {
			z, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || z < a {
			return 0
		}
		n += z - a + 1
	}
	return n
}()

var machineWide = onlineCPUs > 0 && runtime.NumCPU() == onlineCPUs

// machineRunning returns the number of threads running on the machine
// (the fourth field of /proc/loadavg, "running/total"), or false when it
// cannot be read or the process may not use every CPU of the machine
// (pinned or in a cpuset: the count then says nothing about its CPUs).
// The file stays open (pread costs about 1 us; open, read and close
// about 5).
func machineRunning() (int, bool) {
	if !machineWide {
		return 0, false
	}
	var buf [128]byte
	b := pread(loadavgFD, buf[:])
	if b == nil {
		return 0, false
	}
	return parseLoadavg(b)
}

// The /proc files read, each opened once, on first use (-1 when it cannot
// be).
var loadavgFD, statFD = procFile("/proc/loadavg"), procFile("/proc/stat")

func procFile(path string) func() int {
	return sync.OnceValue(func() int {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return -1
		}
		return fd
	})
}

// pread reads the start of the file fd opens into buf and returns what
// it read, nil when nothing could be.
func pread(fd func() int, buf []byte) []byte {
	f := fd()
	if f < 0 {
		return nil
	}
	k, err := syscall.Pread(f, buf, 0)
	if err != nil || k <= 0 {
		return nil
	}
	return buf[:k]
}

// parseLoadavg reads "0.00 0.01 0.05 2/345 6789": the 2.
func parseLoadavg(b []byte) (int, bool) {
	field := 0
	for i := 0; i < len(b); i++ {
		if b[i] == ' ' {
			field++
			continue
		}
		if field == 3 {
			n, digits := 0, 0
			for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
				n = n*10 + int(b[i]-'0')
				digits++
			}
			return n, digits > 0 && i < len(b) && b[i] == '/'
		}
	}
	return 0, false
}

// statWindow is the shortest window over which other processes' CPU time
// is averaged (/proc/stat counts in 1/100 s: over 100 ms on 2 CPUs one
// count is 5% of a core).
const statWindow = 100 * time.Millisecond

// cpuTimes is one look at the machine's idle time and the process's CPU
// time.
type cpuTimes struct {
	wall time.Duration // since start
	idle int64         // 1/100 s all CPUs spent idle or waiting for I/O (/proc/stat)
	own  time.Duration // this process's user and system time (getrusage)
}

var (
	statMu      sync.Mutex
	lastCPU     cpuTimes     // the window's start, guarded by statMu
	haveLastCPU bool         // lastCPU was read
	othersMilli atomic.Int64 // cores other processes kept busy over the last window, in thousandths; -1: unknown
	cpuFn       = readCPUTimes
)

func init() {
	var buf [128]byte
	startWindow(0, pread(loadavgFD, buf[:]))
}

// startWindow starts the first window at now and takes, as what other
// processes kept busy until it ends, the machine's one-minute load
// average (the first field of loadavg, /proc/loadavg's text; -1, unknown,
// when it cannot be read). The process has hardly run yet, so the
// average is other processes' (and the kernel's); it lags by a minute,
// as the first window's own average would lag by its 100 ms, and after
// that window the process's own calls would be in it. Without it a large
// call in the process's first 100 ms had no bound on the instantaneous
// count of other threads, and one thread running for an instant kept it
// on one OpenBLAS thread.
func startWindow(now time.Duration, loadavg []byte) {
	statMu.Lock()
	defer statMu.Unlock()
	othersMilli.Store(-1)
	if m, ok := parseLoad1(loadavg); ok {
		othersMilli.Store(m)
	}
	if c, ok := cpuFn(now); ok {
		lastCPU, haveLastCPU = c, true
	}
}

// parseLoad1 reads "0.52 0.31 0.20 2/345 6789": the 0.52, in thousandths.
func parseLoad1(b []byte) (int64, bool) {
	var m, digits int64
	frac := int64(-1) // digits after the point, -1 before it
	i := 0
	for ; i < len(b) && b[i] != ' '; i++ {
		switch {
		case b[i] == '.' && frac < 0:
			frac = 0
		case b[i] >= '0' && b[i] <= '9' && digits < 9:
			if frac >= 3 {
				continue
			}
			m = m*10 + int64(b[i]-'0')
			digits++
			if frac >= 0 {
				frac++
			}
		default:
			return 0, false
		}
	}
	if digits == 0 || i == len(b) {
		return 0, false
	}
	for frac = max(frac, 0); frac < 3; frac++ {
		m *= 10
	}
	return m, true
}

// othersAverage returns how many cores, rounded, other processes (and the
// kernel) kept busy over the last window of at least statWindow: the
// machine's busy time (its CPUs' wall time less their idle time) less this
// process's CPU time, over the wall time. A window ends when a call looks
// at the load at least statWindow after the window's start, so the
// average lags by up to a window, or by the time since the previous large
// call: a process that started within it is seen by the next window.
// Until the first window ends it is the estimate startWindow took from the
// load average. Taking a sample costs about 10 us, at most once per
// statWindow.
func othersAverage() (int, bool) {
	if !machineWide {
		return 0, false
	}
	now := time.Since(start)
	if statMu.TryLock() {
		if !haveLastCPU || now-lastCPU.wall >= statWindow {
			if c, ok := cpuFn(now); ok {
				if haveLastCPU {
					othersMilli.Store(othersOver(lastCPU, c, onlineCPUs))
				}
				lastCPU, haveLastCPU = c, true
			}
		}
		statMu.Unlock()
	}
	m := othersMilli.Load()
	if m < 0 {
		return 0, false
	}
	return int((m + 500) / 1000), true
}

// othersOver is the cores other work kept busy between a and b, in
// thousandths, on a machine of cpus CPUs.
func othersOver(a, b cpuTimes, cpus int) int64 {
	dw := b.wall - a.wall
	if dw <= 0 {
		return -1
	}
	busy := time.Duration(cpus)*dw - time.Duration(b.idle-a.idle)*(time.Second/userHZ)
	others := busy - (b.own - a.own)
	return max(0, int64(others)*1000/int64(dw))
}

// userHZ is the unit of /proc/stat's times (USER_HZ, 100 on every Linux
// architecture Go supports).
const userHZ = 100

// readCPUTimes reads the machine's idle time and the process's CPU time.
func readCPUTimes(now time.Duration) (cpuTimes, bool) {
	var buf [256]byte
	idle, ok := parseStat(pread(statFD, buf[:]))
	if !ok {
		return cpuTimes{}, false
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return cpuTimes{}, false
	}
	own := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return cpuTimes{wall: now, idle: idle, own: own}, true
}

// parseStat reads the first line of /proc/stat, "cpu  user nice system
// idle iowait irq softirq steal ...", and returns idle + iowait.
func parseStat(b []byte) (int64, bool) {
	if len(b) < 4 || string(b[:4]) != "cpu " {
		return 0, false
	}
	var sum int64
	field := 0 // fields after "cpu" read so far
	for i := 4; i < len(b) && b[i] != '\n'; {
		if b[i] == ' ' {
			i++
			continue
		}
		var n int64
		j := i
		for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
			n = n*10 + int64(b[j]-'0')
		}
		if j == i || j-i > 18 || (j < len(b) && b[j] != ' ' && b[j] != '\n') {
			return 0, false
		}
		field++
		if field == 4 || field == 5 { // idle, iowait
			sum += n
		}
		if field == 5 {
			return sum, j < len(b)
		}
		i = j
	}
	return 0, false
}
