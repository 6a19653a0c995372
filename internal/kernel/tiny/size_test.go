package tiny

import (
	"os"
	"testing"
)

// maxAsmSize is the most tiny_amd64.s may weigh. gentiny emits loops
// where unrolling buys nothing and shares each type and order's loads
// and stores among the kernels (its package comment), which keeps the
// file under 3 MB; a generator change that unrolls them again makes it
// several times that, and fails here.
const maxAsmSize = 4 << 20

// TestAsmSize fails when the generated assembly outgrows maxAsmSize.
func TestAsmSize(t *testing.T) {
	fi, err := os.Stat("tiny_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > maxAsmSize {
		t.Errorf("tiny_amd64.s is %d bytes, more than %d: emit loops or shared routines in gentiny rather than unrolled data movement", fi.Size(), maxAsmSize)
	}
}
