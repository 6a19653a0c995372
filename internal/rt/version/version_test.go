package version

import "testing"

func TestLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{{"0.3.21", "0.3.24", true}, {"0.3.24", "0.3.24", false}, {"0.3.29", "0.3.24", false}, {"0.3.3", "0.3.24", true}, {"0.4", "0.3.24", false}, {"", "0.3.24", true}, {"v0.9", "1.0", true}, {"0.3.25.1", "0.3.25", false}} {
		if got := Less(c.a, c.b); got != c.less {
			t.Errorf("Less(%q, %q) = %v, want %v", c.a, c.b, got, c.less)
		}
	}
}
