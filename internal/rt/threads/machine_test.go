package threads

import (
	"testing"
	"time"
)

// withWindow makes the window's samples come from cpu, on a machine of 2
// CPUs the process may use all of, with no window started and other
// processes' average unknown, and restores the real ones afterwards.
func withWindow(t *testing.T, cpu func(now time.Duration) (cpuTimes, bool)) {
	t.Helper()
	savedFn, savedWide, savedOnline := cpuFn, machineWide, onlineCPUs
	statMu.Lock()
	savedLast, savedHave := lastCPU, haveLastCPU
	haveLastCPU = false
	statMu.Unlock()
	savedMilli := othersMilli.Swap(-1)
	t.Cleanup(func() {
		cpuFn, machineWide, onlineCPUs = savedFn, savedWide, savedOnline
		statMu.Lock()
		lastCPU, haveLastCPU = savedLast, savedHave
		statMu.Unlock()
		othersMilli.Store(savedMilli)
	})
	cpuFn, machineWide, onlineCPUs = cpu, true, 2
}

// TestFirstWindow: before the first window of other processes' CPU time
// closes (a process's first 100 ms), the one-minute load average read at
// start bounds the count of other processes' threads, so that a large
// call right after start on a quiet machine is not kept on one thread by
// a thread that runs for an instant; a loaded machine still keeps it
// there, and an unreadable load average leaves the count unbounded.
func TestFirstWindow(t *testing.T) {
	// The first window's start is read; later samples fail, so the
	// window never closes, however long the test takes.
	starting := false
	withWindow(t, func(now time.Duration) (cpuTimes, bool) {
		return cpuTimes{wall: now, idle: 1000}, starting
	})
	big := threshold[Lapack] * 8
	for _, c := range []struct {
		name    string
		loadavg string
		want    int
	}{
		{"idle machine", "0.04 0.10 0.20 1/300 4000\n", 2},
		{"a process that ran a fifth of the last minute", "0.20 0.10 0.05 1/300 4000\n", 2},
		{"another process keeping a core busy", "1.02 1.00 0.90 2/300 4000\n", 1},
		{"load average unreadable", "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := withFake(t, 2, 0)
			busyFn = look
			// Another process's thread runs now in every reading.
			withReadings(t, reading{running: 1, machine: 2, machineOK: true})
			avgFn = othersAverage
			starting = true
			startWindow(time.Since(start), []byte(c.loadavg))
			starting = false
			s := Begin(Lapack, big)
			if s.Threads() != c.want || f.count.Load() != int64(c.want) {
				t.Errorf("first call: %d threads, library at %d; want %d", s.Threads(), f.count.Load(), c.want)
			}
			s.End()
		})
	}
}
