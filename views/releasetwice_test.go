package views

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis"
)

// A second Release does nothing (Release's doc): the tensor is detached by
// the first, so its buffer goes back to the pool once, and two tensors made
// after it never share one; views taken before stay refused; a deferred
// Release after an early one is fine.
func TestReleaseTwice(t *testing.T) {
	for round := range 50 {
		a := must(Zeros[float64](64))
		v := a.View()
		a.Release()
		a.Release()
		func() {
			c := must(Full[float64](2, 8))
			defer c.Release()
			c.Release() // the early one
		}()
		b := must(Full[float64](1, 64))
		c := must(Full[float64](2, 64))
		if unsafe.SliceData(b.Data()) == unsafe.SliceData(c.Data()) {
			t.Fatalf("round %d: two live tensors share the buffer released twice", round)
		}
		if err := v.CheckLive("op", "v"); !errors.Is(err, lapis.ErrReleased) {
			t.Fatalf("round %d: a view of the released tensor: %v, want lapis.ErrReleased", round, err)
		}
		b.Release()
		c.Release()
	}
}

// A slice taken with Data before Release is not caught: when the pool
// hands its buffer to the next tensor, the slice shows that tensor's
// values, as Release's doc says (with SetReleaseCheck off; on, a stale
// read before reuse shows NaN: TestUseAfterRelease).
func TestStaleDataSlice(t *testing.T) {
	prev := SetReleaseCheck(false)
	defer SetReleaseCheck(prev)
	for range 20 {
		a := must(Zeros[float64](32))
		stale := a.Data()
		a.Release()
		b := must(Full[float64](7, 32))
		reused := unsafe.SliceData(b.Data()) == unsafe.SliceData(stale)
		b.Release()
		if reused {
			if stale[0] != 7 {
				t.Fatalf("the buffer went to the next tensor, but the stale slice reads %v, not its 7", stale[0])
			}
			return // what the doc warns of, seen
		}
	}
	t.Log("the pool did not hand the buffer back within 20 rounds (as under the race detector)")
}
