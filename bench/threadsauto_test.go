package bench

import (
	"testing"

	"github.com/lapis-go/lapis"
)

// threadsAuto selects lapis's default thread policy (threads=auto).
func threadsAuto(b *testing.B) { _ = lapis.SetThreads(lapis.AutoThreads) }

// restoreThreads returns to the default policy after a variant.
func restoreThreads(int) { _ = lapis.SetThreads(lapis.AutoThreads) }
