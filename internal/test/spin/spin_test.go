package spin

import (
	"sync/atomic"
	"testing"
)

// TestRun: every member runs each call once, with its own number, and
// Run returns only when all have returned.
func TestRun(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5} {
		team := New(n)
		for call := range 50 {
			var ran [8]atomic.Int64
			team.Run(func(g int) { ran[g].Add(1) })
			for g := range 8 {
				if want := int64(min(1, max(0, n-g))); ran[g].Load() != want {
					t.Fatalf("n %d, call %d: member %d ran %d times, want %d", n, call, g, ran[g].Load(), want)
				}
			}
		}
		team.Stop()
	}
}
