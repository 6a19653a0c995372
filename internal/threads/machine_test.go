package threads

import (
	"testing"
	"time"
)

// TestFirstWindow: before the first window of other processes' CPU time
// closes (a process's first 100 ms), the one-minute load average read at
// start bounds the count of other processes' threads, so that a large
// call right after start on a quiet machine is not kept on one thread by
// a thread that runs for an instant; a loaded machine still keeps it
// there, and an unreadable load average leaves the count unbounded.
func TestFirstWindow(t *testing.T) {
	savedFn, savedWide, savedOnline := cpuFn, machineWide, onlineCPUs
	statMu.Lock()
	savedLast, savedHave := lastCPU, haveLastCPU
	statMu.Unlock()
	savedMilli := othersMilli.Load()
	t.Cleanup(func() {
		cpuFn, machineWide, onlineCPUs = savedFn, savedWide, savedOnline
		statMu.Lock()
		lastCPU, haveLastCPU = savedLast, savedHave
		statMu.Unlock()
		othersMilli.Store(savedMilli)
	})
	machineWide, onlineCPUs = true, 2
	// The first window's start is read; later samples fail, so the
	// window never closes, however long the test takes.
	starting := false
	cpuFn = func(now time.Duration) (cpuTimes, bool) {
		return cpuTimes{wall: now, idle: 1000}, starting
	}
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

func TestParseLoad1(t *testing.T) {
	for in, want := range map[string]int64{
		"0.00 0.01 0.05 2/345 6789\n": 0,
		"0.52 0.31 0.20 1/1 1":        520,
		"12.34 1 1 1/1 1":             12340,
		"3 1 1 1/1 1":                 3000,
		"1.5 1 1 1/1 1":               1500,
		"0.1239 1 1 1/1 1":            123,
	} {
		if got, ok := parseLoad1([]byte(in)); !ok || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "0.52", " 0.52 1", "x 1", ".x 1", "1.2.3 1", "-1 1", "1234567890 1"} {
		if n, ok := parseLoad1([]byte(in)); ok {
			t.Errorf("%q parsed as %d", in, n)
		}
	}
}
