package split

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestEveryPieceOnce: however many workers, with whatever homes, every
// piece is handed out exactly once.
func TestEveryPieceOnce(t *testing.T) {
	for _, pieces := range []int{0, 1, 2, 3, 7, 16, 64, 1000} {
		for _, regions := range []int{1, 2, 3, 8} {
			for _, workers := range []int{1, 2, 5, 16} {
				s := New(pieces, regions)
				got := make([][]int, workers)
				var wg sync.WaitGroup
				for g := range workers {
					wg.Go(func() {
						w := s.Worker()
						w.home, w.from = g%regions, g%regions // every home, and shared ones
						for p, ok := w.Next(); ok; p, ok = w.Next() {
							got[g] = append(got[g], p)
						}
					})
				}
				wg.Wait()
				all := slices.Concat(got...)
				slices.Sort(all)
				want := make([]int, pieces)
				for i := range want {
					want[i] = i
				}
				if !slices.Equal(all, want) {
					t.Errorf("pieces %d, regions %d, workers %d: handed out %v", pieces, regions, workers, all)
				}
			}
		}
	}
}

// TestOrder: a worker alone takes its home region front to back, then the
// other regions back to front, in region order after its home.
func TestOrder(t *testing.T) {
	s := New(10, 3) // regions [0,3) [3,6) [6,10)
	w := Worker{s: s, home: 1, from: 1}
	var got []int
	for p, ok := w.Next(); ok; p, ok = w.Next() {
		got = append(got, p)
	}
	if want := []int{3, 4, 5, 9, 8, 7, 6, 2, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, ok := w.Next(); ok {
		t.Error("Next after the end: ok")
	}
}

// TestThief: an owner and a thief on one region meet in the middle, each
// piece once, the owner's run ascending and the thief's descending.
func TestThief(t *testing.T) {
	s := New(9, 2) // regions [0,4) [4,9)
	owner := Worker{s: s, home: 1, from: 1}
	thief := Worker{s: s, home: 0, from: 0}
	for range 4 { // the thief's own region first
		thief.Next()
	}
	var o, th []int
	for {
		p, ok := owner.Next()
		if !ok {
			break
		}
		o = append(o, p)
		if p, ok := thief.Next(); ok {
			th = append(th, p)
		}
	}
	if !slices.Equal(o, []int{4, 5, 6}) || !slices.Equal(th, []int{8, 7}) {
		t.Errorf("owner %v, thief %v; want [4 5 6], [8 7]", o, th)
	}
}

// TestHomeWithoutCPU: a Split whose workers' CPUs are unknown gives them
// the homes in the order they arrive, so that n workers start in n regions.
func TestHomeWithoutCPU(t *testing.T) {
	if _, ok := CPU(); ok {
		t.Skip("CPU is known here; the arrival order is the fallback")
	}
	s := New(8, 4)
	for i := range 6 {
		if w := s.Worker(); w.home != i%4 {
			t.Errorf("worker %d: home %d, want %d", i, w.home, i%4)
		}
	}
}

func TestNewPanics(t *testing.T) {
	for _, c := range [][2]int{{-1, 1}, {1, 0}, {MaxPieces + 1, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d, %d) did not panic", c[0], c[1])
				}
			}()
			New(c[0], c[1])
		}()
	}
}

func BenchmarkCPU(b *testing.B) {
	for b.Loop() {
		CPU()
	}
}

func ExampleSplit() {
	s := New(6, 2) // one region a worker
	var wg sync.WaitGroup
	done := make([][]int, 2)
	for g := range 2 {
		wg.Go(func() {
			w := s.Worker()
			for p, ok := w.Next(); ok; p, ok = w.Next() {
				done[g] = append(done[g], p) // piece p's work
			}
		})
	}
	wg.Wait()
	fmt.Println(len(done[0]) + len(done[1]))
	// Output: 6
}
