package cblas

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/coreset"
)

// realSymvOverRead is whether the kernel set in use reads past real
// symv's operands: Symv (and the gonum adapter's Ssymv and Dsymv) compute
// in Go there, and package lapack gives real operands room after them.
var realSymvOverRead = coreset.RealSymvOverRead(lapis.KernelSet().InUse)
