package split

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// drain takes w's chunks to the end.
func drain(w *Worker) [][2]int {
	var got [][2]int
	for lo, hi, ok := w.Next(); ok; lo, hi, ok = w.Next() {
		got = append(got, [2]int{lo, hi})
	}
	return got
}

// TestEveryUnitOnce: however many workers, with whatever homes and
// grains, every unit is handed out exactly once, in chunks that do not
// cross a region's end (TestOrder and TestThief check their lengths).
func TestEveryUnitOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 16, 64, 1000} {
		for _, regions := range []int{1, 2, 3, 8} {
			for _, grain := range []int{1, 4, 100} {
				for _, workers := range []int{1, 2, 5, 16} {
					s := New(n, regions, grain)
					got := make([][][2]int, workers)
					var wg sync.WaitGroup
					for g := range workers {
						wg.Go(func() {
							w := s.Worker()
							w.home, w.from = g%regions, g%regions // every home, and shared ones
							got[g] = drain(&w)
						})
					}
					wg.Wait()
					seen := make([]int, n)
					for _, c := range slices.Concat(got...) {
						r := 0 // the region of its first unit
						for n*(r+1)/regions <= c[0] {
							r++
						}
						if end := n * (r + 1) / regions; c[1] > end || c[1] <= c[0] {
							t.Errorf("n %d, regions %d, grain %d: chunk %v (region %d ends at %d)", n, regions, grain, c, r, end)
						}
						for u := c[0]; u < c[1]; u++ {
							seen[u]++
						}
					}
					for u, k := range seen {
						if k != 1 {
							t.Errorf("n %d, regions %d, grain %d, workers %d: unit %d handed out %d times", n, regions, grain, workers, u, k)
						}
					}
				}
			}
		}
	}
}

// TestOrder: a worker alone takes its home region front to back in
// halving chunks, then the other regions back to front, in region order
// after its home.
func TestOrder(t *testing.T) {
	s := New(30, 3, 2) // regions [0,10) [10,20) [20,30)
	w := Worker{s: s, home: 1, from: 1}
	want := [][2]int{
		{10, 15}, {15, 17}, {17, 19}, {19, 20}, // half of 10, then the grain; the rest
		{25, 30}, {23, 25}, {21, 23}, {20, 21},
		{5, 10}, {3, 5}, {1, 3}, {0, 1},
	}
	if got := drain(&w); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, _, ok := w.Next(); ok {
		t.Error("Next after the end: ok")
	}
}

// TestThief: an owner and a thief on one region meet in the middle, each
// unit once, the owner's chunks ascending and the thief's descending,
// each half of what was left.
func TestThief(t *testing.T) {
	s := New(64, 2, 1)                         // regions [0,32) [32,64)
	s.regions[0].fb.Store(uint64(32)<<32 | 32) // region 0 done
	owner := Worker{s: s, home: 1, from: 1}    // region 1's front
	thief := Worker{s: s, home: 0, from: 1}    // past its home: region 1's back
	var o, th [][2]int
	for {
		lo, hi, ok := owner.Next()
		if !ok {
			break
		}
		o = append(o, [2]int{lo, hi})
		if lo, hi, ok := thief.Next(); ok {
			th = append(th, [2]int{lo, hi})
		}
	}
	wantO := [][2]int{{32, 48}, {48, 52}, {52, 53}}
	wantT := [][2]int{{56, 64}, {54, 56}, {53, 54}}
	if !slices.Equal(o, wantO) || !slices.Equal(th, wantT) {
		t.Errorf("owner %v, thief %v; want %v, %v", o, th, wantO, wantT)
	}
}

// TestHomeWithoutCPU: a Split whose workers' CPUs are unknown gives them
// the homes in the order they arrive, so that n workers start in n regions.
func TestHomeWithoutCPU(t *testing.T) {
	if _, ok := CPU(); ok {
		t.Skip("CPU is known here; the arrival order is the fallback")
	}
	s := New(8, 4, 1)
	for i := range 6 {
		if w := s.Worker(); w.home != i%4 {
			t.Errorf("worker %d: home %d, want %d", i, w.home, i%4)
		}
	}
}

func TestNewPanics(t *testing.T) {
	for _, c := range [][3]int{{-1, 1, 1}, {1, 0, 1}, {1, 1, 0}, {MaxUnits + 1, 1, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d, %d, %d) did not panic", c[0], c[1], c[2])
				}
			}()
			New(c[0], c[1], c[2])
		}()
	}
}

func BenchmarkCPU(b *testing.B) {
	for b.Loop() {
		CPU()
	}
}

func ExampleSplit() {
	s := New(1000, 2, 16) // one region a worker, chunks of at least 16 units
	var wg sync.WaitGroup
	done := make([]int, 2)
	for g := range 2 {
		wg.Go(func() {
			w := s.Worker()
			for lo, hi, ok := w.Next(); ok; lo, hi, ok = w.Next() {
				done[g] += hi - lo // units lo..hi-1's work
			}
		})
	}
	wg.Wait()
	fmt.Println(done[0] + done[1])
	// Output: 1000
}
