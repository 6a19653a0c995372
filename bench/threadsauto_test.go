package bench

import (
	"testing"

	"github.com/lapis-go/lapis/cblas"
)

// threadsAuto selects lapis's default thread policy (threads=auto).
func threadsAuto(b *testing.B) { _ = cblas.SetThreads(cblas.AutoThreads) }

// restoreThreads returns to the default policy after a variant.
func restoreThreads(int) { _ = cblas.SetThreads(cblas.AutoThreads) }
