//go:build unix

package npy

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// rss returns the process's resident memory in bytes (/proc/self/statm),
// or -1 where there is no /proc.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return -1
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

var sink float64

// numpy's side of BenchmarkMap, in the same run: np.load(mmap_mode='r')
// and one element per call, then resident memory before and after one
// element and after one element per page.
const numpyMapScript = `
import json, os, sys, time
import numpy as np
p, i, j = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
page = os.sysconf("SC_PAGE_SIZE")
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * page
for _ in range(20):  # warm
    a = np.load(p, mmap_mode="r"); x = a[i, j]; del a
n, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < 1.0:
    a = np.load(p, mmap_mode="r"); x = float(a[i, j]); del a
    n += 1
ns = (time.perf_counter() - t0) / n * 1e9
a = np.load(p, mmap_mode="r")
r0 = rss(); x = float(a[i, j]); r1 = rss()
s = float(a.reshape(-1)[::page // 8].sum()); r2 = rss()
json.dump({"ns": ns, "n": n, "one": r1 - r0, "all": r2 - r0, "version": np.__version__}, sys.stdout)
`

// BenchmarkMap: map a 1 GiB float64 .npy file (C order, 16384 x 8192),
// read one element and unmap, against numpy.load(mmap_mode='r') timed in
// the same run; and the resident memory each adds for one element and for
// one element on every page. Run it alone:
//
//	go test -run '^$' -bench BenchmarkMap -benchtime 2s ./npy
func BenchmarkMap(b *testing.B) {
	const rows, cols = 16384, 8192
	const size = rows * cols * 8
	dir := b.TempDir()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || int64(st.Bavail)*int64(st.Bsize) < size+size/2 {
		b.Skipf("needs 1.5 GiB free in %s (%v)", dir, err)
	}
	p := filepath.Join(dir, "big.npy")
	writeBig(b, p, false, rows, cols)
	i, j := rows/2+1, cols/2+3

	b.Run("impl=lapis", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m, err := Map[float64](p)
			if err != nil {
				b.Fatal(err)
			}
			sink += m.View().At(i, j)
			m.Close()
		}
		b.StopTimer()
		m, err := Map[float64](p)
		if err != nil {
			b.Fatal(err)
		}
		r0 := rss()
		sink += m.View().At(i, j)
		r1 := rss()
		d := m.View().Data()
		for k := 0; k < len(d); k += os.Getpagesize() / 8 {
			sink += d[k]
		}
		r2 := rss()
		m.Close()
		b.ReportMetric(float64(r1-r0)/1024, "rss-one-KiB")
		b.ReportMetric(float64(r2-r0)/(1<<20), "rss-all-MiB")
	})

	b.Run("impl=numpy", func(b *testing.B) {
		var py string
		for _, c := range []string{"python3", "/usr/bin/python3"} {
			if exec.Command(c, "-c", "import numpy").Run() == nil {
				py = c
				break
			}
		}
		if py == "" {
			b.Skip("no python3 with numpy")
		}
		// b.Loop calls this function once per -count: one python run each
		numpy, err := exec.Command(py, "-c", numpyMapScript, p, strconv.Itoa(i), strconv.Itoa(j)).Output()
		if err != nil {
			b.Fatal(err)
		}
		var r struct {
			NS      float64 `json:"ns"`
			One     float64 `json:"one"`
			All     float64 `json:"all"`
			Version string  `json:"version"`
		}
		if err := json.NewDecoder(bytes.NewReader(numpy)).Decode(&r); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
		}
		b.ReportMetric(r.NS, "ns/op")
		b.ReportMetric(r.One/1024, "rss-one-KiB")
		b.ReportMetric(r.All/(1<<20), "rss-all-MiB")
		b.Logf("numpy %s (%s), timed over 1 s in its own process", r.Version, py)
	})
}
