package batch

import (
	"github.com/lapis-go/lapis/internal/operand"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Sizes before copies. Every entry point decides from the layouts alone,
// before it allocates or copies anything, that the extents of the
// matrices it may hand to LAPACK fit the library's integer
// (operand.LAPACKInts, lapack's check) and that every buffer it allocates (a
// result, a working copy, the determinants) stays within pool.MaxBytes.
// A broadcast input of huge logical size is then an error matching
// layout.ErrOverflow (the integer's) or lapis.ErrTooLarge, not a fatal
// out-of-memory or a panic in make. Operands that are written cannot be
// broadcast (layout.ErrOverlap), so what batch allocates for them (pivots,
// a tiny worker's scratch of at most tinyStageBytes) is bounded by memory
// the caller holds.

// extents checks the matrix extents (axes 0 and 1) of the batches vs,
// named names, against the LAPACK integer. A batch of rank below 2 is
// left to the shape checks.
func extents[T Scalar](op string, names []string, vs ...views.View[T]) error {
	for i, v := range vs {
		if v.Rank() < 2 {
			continue
		}
		r, c := dims(v)
		if err := operand.LAPACKInts(op, names[i], r, c); err != nil {
			return err
		}
	}
	return nil
}

// buffer checks that a buffer of E for shape (what it holds, for the
// operand name) can be allocated: the allocation gate, pool.Check, whose
// error gains what.
func buffer[E pool.Elem](op, name, what string, shape ...int) error {
	err := pool.Check[E](op, name, shape...)
	if e, ok := err.(*layout.Error); ok {
		e.Rule = what + ": " + e.Rule
	}
	return err
}
