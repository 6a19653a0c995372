package dist_test

import (
	"strings"
	"testing"
	"time"
)

// The busy scenario (scripts/dist-docker.sh kills one rank's container
// while it runs) stops by itself on every rank when its time is up.
func TestBusyStops(t *testing.T) {
	out, code := mpirun(t, 2, "busy 1", time.Minute)
	if code != 0 || !strings.Contains(out, "busy: iteration 1 done") || !strings.Contains(out, "PASS busy on 2 ranks") {
		t.Errorf("exit %d\n%s", code, out)
	}
}
