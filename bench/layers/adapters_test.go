package layers

import (
	"github.com/lapis-go/lapis/gonumblas"
	"github.com/lapis-go/lapis/gonumlapack"
)

// The gonum adapters measured (scripts/bench-layers.sh swaps this file for
// a revision that has them elsewhere).
var (
	gonumBLAS   = gonumblas.Implementation{}
	gonumLAPACK = gonumlapack.Implementation{}
)
