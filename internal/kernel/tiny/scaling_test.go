package tiny

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkTinyScaling measures the ceiling of batch's two-worker
// speed-up on this machine: the kernels alone, a batch of count matrices
// of order 8 (float64) split in two halves, run on one goroutine (both
// halves in turn), then on two at once (one half each). Each call first
// restores its half's operands from a saved copy, as an out-of-place
// form stages its input (op=copy is that copy alone). It reports the
// median over iterations of t1 / t2, the speed-up (2 would be perfect). count = 256 keeps the data in the core's L2
// (128 KiB), count = 10000 is the size the batch benchmarks use (5 MiB).
// No hand-off cost is in it (the goroutines start once per iteration,
// several milliseconds of work), so what is left is how two goroutines
// share the cores: compute and the caches' and memory's bandwidth.
//
//	go test -run '^$' -bench TinyScaling -benchtime 20x ./internal/kernel
func BenchmarkTinyScaling(b *testing.B) {
	const n = 8
	for _, count := range []int{256, 10000} {
		reps := max(4, 200000/count) // several ms a pass: the goroutines' start is noise
		for _, li := range []int{0, 2} {
			name := map[int]string{0: "compact", 2: "inner"}[li]
			for _, op := range []Op{nTinyOps, Cholesky, CholeskySolve, Solve, Inv, Det} {
				opName := "copy"
				if op != nTinyOps {
					opName = tinyOpNames[op]
				}
				nrhs := 0
				if op == Solve || op == CholeskySolve {
					nrhs = 1
				}
				b.Run(fmt.Sprintf("count=%d/layout=%s/op=%s/n=%d", count, name, opName, n), func(b *testing.B) {
					benchScaling(b, op, n, count, nrhs, li, reps)
				})
			}
		}
	}
}

func benchScaling(b *testing.B, op Op, n, count, nrhs, li, reps int) {
	rng := rand.New(rand.NewPCG(8, uint64(op)))
	kop := op
	if op == nTinyOps {
		kop = Cholesky // any data will do
	}
	orig := newTinyCase[float64](rng, kop, n, count, max(nrhs, 1), li)
	c := orig.clone()
	// half h of the case: its matrices' elements, in a's and b's storage
	// (which the layouts keep apart: compact runs, or inner rows cut in two)
	halves := [2][2]int{{0, count / 2}, {count / 2, count}}
	work := func(h int) {
		lo, hi := halves[h][0], halves[h][1]
		det := make([]float64, hi-lo)
		var fl []int
		am, bm := c.mats()
		am.P = unsafe.Add(am.P, lo*am.BS*8)
		bm.P = unsafe.Add(bm.P, lo*bm.BS*8)
		for range reps {
			restore(c.a, orig.a, c.aoff, c.am, n, n, lo, hi)
			restore(c.b, orig.b, c.boff, c.bm, n, max(nrhs, 1), lo, hi)
			if op != nTinyOps {
				fl = Run(op, n, hi-lo, am, bm, nrhs, det, nil, fl[:0])
			}
		}
	}
	var ratios []float64
	for b.Loop() {
		start := time.Now()
		work(0)
		work(1)
		t1 := time.Since(start)
		var wg sync.WaitGroup
		start = time.Now()
		for h := range 2 {
			wg.Add(1)
			go func() { defer wg.Done(); work(h) }()
		}
		wg.Wait()
		ratios = append(ratios, t1.Seconds()/time.Since(start).Seconds())
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "speed-up")
}

// restore copies matrices lo..hi of a run (strides m, from offset off)
// from src to dst: contiguous where the batch stride is n*cols (compact)
// or 1 (one row segment per element).
func restore(dst, src []float64, off int, m Mat, rows, cols, lo, hi int) {
	switch {
	case m.BS == 1:
		for j := range cols {
			for i := range rows {
				e := off + i*m.RS + j*m.CS
				copy(dst[e+lo:e+hi], src[e+lo:e+hi])
			}
		}
	default:
		copy(dst[off+lo*m.BS:off+hi*m.BS], src[off+lo*m.BS:off+hi*m.BS])
	}
}
