package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"github.com/lapis-go/lapis/layout"
)

// Grid is a P x Q BLACS process grid: ranks 0 .. P*Q-1 of MPI_COMM_WORLD
// in row-major order (rank r at row r/Q, column r%Q), Cblacs_gridinit's
// "Row" order. Ranks from P*Q on are not in it (In reports false): they
// take part in collective calls on its matrices (which ScaLAPACK skips for
// them) with empty local pieces.
type Grid struct {
	ctxt     C.int // BLACS context; -1 on ranks outside the grid
	p, q     int
	row, col int // this rank's coordinates; -1 outside
	exited   bool
	id       int // unique in the process (workspace cache key)
}

// NewGrid makes a P x Q grid. It is collective: every rank must call it,
// with the same p and q. Errors match ErrState, or layout.ErrShape when p or
// q is below 1 or p*q exceeds the number of ranks on any rank (every rank
// returns one: see "Arguments agreed on" in the package documentation),
// or lapis.ErrInvalid when the ranks pass different p or q.
func NewGrid(p, q int) (*Grid, error) {
	const op = "dist.NewGrid"
	if err := live(op); err != nil {
		return nil, err
	}
	var err error
	if p < 1 || q < 1 || p > world.size || q > world.size || p*q > world.size {
		err = layout.Errorf(layout.ErrShape, op, "p, q", "a %d x %d grid needs %d ranks; the job has %d (mpirun -np)", p, q, p*q, world.size)
	}
	if err := agree(op, err, []int{p, q}); err != nil {
		return nil, err
	}
	g := &Grid{p: p, q: q, row: -1, col: -1}
	do(func() {
		world.nextGrid++
		g.id = world.nextGrid
		g.ctxt = world.sysCtxt
		C.Cblacs_gridinit(&g.ctxt, rowOrder(), C.int(p), C.int(q))
		if g.ctxt >= 0 {
			var np, nq, r, c C.int
			C.Cblacs_gridinfo(g.ctxt, &np, &nq, &r, &c)
			g.row, g.col = int(r), int(c)
			world.grids[g.ctxt] = true
		}
	})
	return g, nil
}

// Dims returns P and Q.
func (g *Grid) Dims() (p, q int) { return g.p, g.q }

// Coords returns this rank's row and column in the grid (-1, -1 outside).
func (g *Grid) Coords() (row, col int) { return g.row, g.col }

// In reports whether this rank is in the grid.
func (g *Grid) In() bool { return g.ctxt >= 0 && !g.exited }

// Context returns the BLACS context (ICTXT; -1 on ranks outside the grid),
// for calling ScaLAPACK routines lapis does not wrap.
func (g *Grid) Context() int { return int(g.ctxt) }

// RankOf returns the MPI rank at grid coordinates (row, col).
func (g *Grid) RankOf(row, col int) int { return row*g.q + col }

// Exit releases the grid (Cblacs_gridexit); its matrices stop working.
// Collective over the grid's ranks. Finalize exits grids still open.
func (g *Grid) Exit() error {
	if err := live("dist.Grid.Exit"); err != nil {
		return err
	}
	if g.exited {
		return nil
	}
	g.exited = true
	if g.ctxt < 0 {
		return nil
	}
	do(func() {
		C.Cblacs_gridexit(g.ctxt)
		delete(world.grids, g.ctxt)
		for k := range world.wsCache {
			if k.grid == g.id {
				delete(world.wsCache, k)
			}
		}
	})
	return nil
}

// rootCtxt returns a 1 x 1 grid made of MPI rank root (-1 on every other
// rank): the context of the whole matrix that Scatter and Gather hold on
// one rank. Made the first time a root is used (on every rank: creating
// it is collective, as Scatter and Gather are) and kept until Finalize.
// It runs on the MPI thread.
func rootCtxt(root int) C.int {
	if c, ok := world.roots[root]; ok {
		return c
	}
	c := world.sysCtxt
	um := C.int(root)
	C.Cblacs_gridmap(&c, &um, 1, 1, 1)
	world.roots[root] = c
	return c
}
