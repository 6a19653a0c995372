package views_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/views"
)

// released returns a view of a released 3 x 2 tensor and the tensor
// that took its buffer from the pool next.
func released(t *testing.T) (views.View[float64], *views.Tensor[float64]) {
	t.Helper()
	a, err := views.FromRows([][]float64{{1, 2}, {3, 4}, {5, 6}})
	if err != nil {
		t.Fatal(err)
	}
	v := a.View()
	a.Release()
	next, err := views.Full(7.0, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	return v, next
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "released tensor") {
			t.Errorf("%s: panic %v, want one naming the released tensor", what, r)
		}
	}()
	f()
}

// TestReleasedView: views of a released tensor (taken before Release, or
// from the released tensor) are refused by every fallible function of
// the package with an error matching lapis.ErrReleased, and make At, Set
// and ToColMajor panic; the tensor holding the buffer now is untouched.
// Views of live tensors and of slices are not flagged.
func TestReleasedView(t *testing.T) {
	v, next := released(t)
	defer next.Release()
	a, err := views.FromRows([][]float64{{1, 2}, {3, 4}, {5, 6}})
	if err != nil {
		t.Fatal(err)
	}
	a.Release()
	for name, s := range map[string]views.View[float64]{"view taken before Release": v, "View of the released tensor": a.View(), "its transpose": v.T(), "its conjugate": v.Conj()} {
		live, err := views.Zeros[float64](s.Shape()...)
		if err != nil {
			t.Fatal(err)
		}
		errs := map[string]error{}
		_, errs["Slice"] = s.Slice(0, 0, 1, 1)
		_, errs["Index"] = s.Index(0, 0)
		_, errs["Permute"] = s.Permute(1, 0)
		_, errs["Transpose"] = s.Transpose(0, 1)
		_, errs["Reverse"] = s.Reverse(0)
		_, errs["Reshape"] = s.Reshape(s.Len())
		_, errs["BroadcastTo"] = s.BroadcastTo(s.Shape()...)
		_, errs["AsSlice"] = s.AsSlice()
		errs["Copy src"] = views.Copy(live.View(), s)
		errs["Copy dst"] = views.Copy(s, live.View())
		errs["CheckLive"] = s.CheckLive("op", "x")
		_, errs["ToDense"] = views.ToDense(s)
		for f, err := range errs {
			if !errors.Is(err, lapis.ErrReleased) {
				t.Errorf("%s: %s: error %v, want lapis.ErrReleased", name, f, err)
			}
		}
		if !strings.Contains(errs["Copy dst"].Error(), "views.Copy: dst: a view of a released tensor") {
			t.Errorf("%s: error %q does not name Copy's dst", name, errs["Copy dst"])
		}
		mustPanic(t, name+": At", func() { s.At(0, 0) })
		mustPanic(t, name+": Set", func() { s.Set(1, 0, 0) })
		mustPanic(t, name+": ToColMajor", func() { s.ToColMajor() })
		if got := fmt.Sprint(s); !strings.HasSuffix(got, ": released}") {
			t.Errorf("%s prints %q", name, got)
		}
		if views.Overlaps(s, next.View()) {
			t.Errorf("%s overlaps", name)
		}
		if !slices.Equal(live.Data(), make([]float64, live.Len())) {
			t.Errorf("%s: the live tensor changed", name)
		}
		live.Release()
	}
	if !slices.Equal(next.Data(), []float64{7, 7, 7, 7, 7, 7}) {
		t.Errorf("the tensor holding the buffer now: %v, changed", next.Data())
	}
	// Live tensors and slices are never flagged, a second Release does
	// nothing, views of a released tensor of adopted data are flagged
	// (its owner may free or unmap it: npy.Mapped, fortran.CTensor), and
	// a zero-length tensor's views are flagged after Release like any
	// other.
	data := []float64{1, 2, 3, 4}
	adopted, _ := views.FromColMajor(data, 2, 2)
	av := adopted.View()
	if err := av.CheckLive("op", "x"); err != nil {
		t.Errorf("view of live adopted data: %v", err)
	}
	adopted.Release()
	adopted.Release()
	if err := av.CheckLive("op", "x"); !errors.Is(err, lapis.ErrReleased) {
		t.Errorf("view of released adopted data: %v, want lapis.ErrReleased", err)
	}
	sv, _ := views.FromSlice(data, av.Layout())
	for name, s := range map[string]views.View[float64]{"slice": sv, "live tensor": next.View(), "zero View": {}} {
		if err := s.CheckLive("op", "x"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := views.Copy(av, sv.T()); !errors.Is(err, lapis.ErrReleased) {
		t.Errorf("Copy to a view of released adopted data: %v, want lapis.ErrReleased", err)
	}
	if after := adopted.View(); !errors.Is(after.CheckLive("op", "x"), lapis.ErrReleased) {
		t.Error("View of released adopted data: not flagged")
	}
	empty, _ := views.Zeros[float64](0, 3)
	ev := empty.View()
	empty.Release()
	if err := ev.CheckLive("op", "x"); !errors.Is(err, lapis.ErrReleased) {
		t.Errorf("view of a released empty tensor: %v, want lapis.ErrReleased", err)
	}
}

// TestReleasedViewAllocs: the check allocates nothing, and views of live
// tensors still transform without allocating.
func TestReleasedViewAllocs(t *testing.T) {
	a, _ := views.Zeros[float64](4, 4)
	defer a.Release()
	v := a.View()
	if n := testing.AllocsPerRun(100, func() {
		w, _ := v.Slice(0, 1, 3, 1)
		if w.CheckLive("op", "v") != nil {
			t.Fatal("live view flagged")
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// TestReleasedConcurrently: a view checked in one goroutine while another
// releases its tensor sees the release (the generation is read and
// advanced atomically: -race reports nothing on the check itself, which
// reads no element), and a release ordered before the check by a channel
// is always seen.
func TestReleasedConcurrently(t *testing.T) {
	for range 50 {
		a, _ := views.Zeros[float64](8, 8)
		v := a.View()
		seen := make(chan struct{})
		go func() {
			for v.CheckLive("op", "v") == nil {
			}
			close(seen)
		}()
		a.Release()
		<-seen
		b, _ := views.Zeros[float64](8, 8)
		w := b.View()
		done := make(chan struct{})
		go func() { b.Release(); close(done) }()
		<-done
		if !errors.Is(w.CheckLive("op", "w"), lapis.ErrReleased) {
			t.Fatal("a release in another goroutine, ordered before the check, was not seen")
		}
	}
}
