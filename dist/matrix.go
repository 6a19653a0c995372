package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"cmp"
	"fmt"
	"math"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Scalar is the set of element types dist distributes: ScaLAPACK's d and z
// routines.
type Scalar interface{ float64 | complex128 }

// Matrix is an m x n matrix distributed 2-D block-cyclically over a Grid
// in mb x nb blocks, the first block on grid process (0, 0): block (I, J)
// lives on grid row I mod P, column J mod Q. Each rank holds its blocks as
// one column-major local matrix, a views.View of numroc(m) x numroc(n)
// elements with leading dimension LLD, which every lapis package takes as
// it is:
//
//	global 5 x 5, 2 x 2 blocks, 2 x 2 grid      local pieces
//	      c0 c1 | c2 c3 | c4                    (0,0): rows 0 1 4, cols 0 1 4
//	r0 [ 00 00 | 01 01 | 00 ]                   (0,1): rows 0 1 4, cols 2 3
//	r1 [ 00 00 | 01 01 | 00 ]                   (1,0): rows 2 3,   cols 0 1 4
//	r2 [ 10 10 | 11 11 | 10 ]                   (1,1): rows 2 3,   cols 2 3
//	r3 [ 10 10 | 11 11 | 10 ]
//	r4 [ 00 00 | 01 01 | 00 ]   (digits: grid row and column of the owner)
//
// Desc is ScaLAPACK's 9-integer descriptor of it. Operations on a Matrix
// are collective over every rank of the job (ranks outside the grid take
// part with empty local pieces), and must be made in the same order on all.
type Matrix[T Scalar] struct {
	g          *Grid
	m, n       int
	mb, nb     int
	mloc, nloc int
	desc       [9]C.int
	local      views.View[T]
	own        *views.Tensor[T] // the local piece, when New made it
	released   bool
}

// checkLive returns an error matching lapis.ErrInvalid for the zero
// Matrix (no grid, no piece), one matching lapis.ErrReleased, naming op and
// name, when a was released or its local piece is a view of a tensor
// released since Wrap; every entry point taking a matrix calls it before
// the ranks agree, so no rank hands ScaLAPACK freed or reused memory.
func (a *Matrix[T]) checkLive(op, name string) error {
	if a.g == nil && !a.released {
		return layout.Errorf(lapis.ErrInvalid, op, name, "the zero Matrix has no grid (make matrices with New or Wrap)")
	}
	if a.released {
		return layout.Errorf(lapis.ErrReleased, op, name, "the matrix was released (Matrix.Release)")
	}
	return a.local.CheckLive(op, name)
}

// New returns an m x n matrix over g in mb x nb blocks, its local piece a
// new zeroed column-major tensor (from the pool: Release gives it back).
// Errors match ErrState, or layout.ErrShape for negative sizes, block sizes
// below 1 or sizes beyond ScaLAPACK's 32-bit integers, on every rank when
// any rank's arguments are bad, and lapis.ErrInvalid when the ranks pass
// different sizes, blocks, grids or types (see "Arguments agreed on" in
// the package documentation).
func New[T Scalar](g *Grid, m, n, mb, nb int) (*Matrix[T], error) {
	const op = "dist.New"
	a, err := newMatrix[T](op, g, m, n, mb, nb)
	var t *views.Tensor[T]
	if err == nil {
		t, err = views.Zeros[T](a.mloc, a.nloc)
	}
	if err := agree(op, err, gridKey[T](g, m, n, mb, nb)); err != nil {
		if t != nil {
			t.Release()
		}
		return nil, err
	}
	a.own, a.local = t, t.View()
	a.setDesc(max(1, a.mloc))
	return a, nil
}

// Wrap is New over a local piece the caller already holds: local must be
// a numroc(m) x numroc(n) column-major view (any leading dimension, not
// conjugated: layout.Matrix without Trans), which is used in place, with
// its column stride as LLD. LocalShape gives the shape to allocate.
// Errors match those of New, layout.ErrShape for a local view of
// another shape or layout and lapis.ErrReleased for a view of a
// released tensor, on any rank: every rank returns an error then (the
// others' say "on rank R"), so none is left waiting in a later call.
// The matrix keeps local: release its tensor only after the matrix's
// last use (dist's routines do not check it again).
func Wrap[T Scalar](g *Grid, m, n, mb, nb int, local views.View[T]) (*Matrix[T], error) {
	const op = "dist.Wrap"
	a, err := newMatrix[T](op, g, m, n, mb, nb)
	ld := 0
	if err == nil {
		ld, err = a.localLD(op, local)
	}
	if err := agree(op, err, gridKey[T](g, m, n, mb, nb)); err != nil {
		return nil, err
	}
	a.local = local
	a.setDesc(ld)
	return a, nil
}

// localLD checks Wrap's local piece against a and returns its leading
// dimension.
func (a *Matrix[T]) localLD(op string, local views.View[T]) (int, error) {
	if err := local.CheckLive(op, "local"); err != nil {
		return 0, err
	}
	if local.Rank() != 2 || local.Layout().Dim(0) != a.mloc || local.Layout().Dim(1) != a.nloc {
		if local.IsZero() {
			return 0, errop.ZeroView(op, "local")
		}
		return 0, layout.Errorf(layout.ErrShape, op, "local", "shape %v is not this rank's %d x %d piece (LocalShape)", local.Shape(), a.mloc, a.nloc)
	}
	mm, ok := local.Layout().Matrix()
	if !ok || mm.Trans || local.IsConj() {
		return 0, layout.Errorf(layout.ErrShape, op, "local", "%s is not a column-major view (unconjugated, unit row stride), which ScaLAPACK needs", local.Layout().String())
	}
	if mm.LD > math.MaxInt32 {
		return 0, layout.Errorf(layout.ErrOverflow, op, "local", "leading dimension %d does not fit ScaLAPACK's int", mm.LD)
	}
	return mm.LD, nil
}

// gridKey is what every rank must agree on in New and Wrap.
func gridKey[T Scalar](g *Grid, m, n, mb, nb int) []int {
	p, q := -1, -1
	if g != nil {
		p, q = g.p, g.q
	}
	return []int{scalar.Index[T](), m, n, mb, nb, p, q}
}

// LocalShape returns the shape of this rank's piece of an m x n matrix over
// g in mb x nb blocks (numroc), what Wrap needs; 0 x 0 outside the grid.
func LocalShape(g *Grid, m, n, mb, nb int) (mloc, nloc int) {
	if !g.In() || mb < 1 || nb < 1 || m < 0 || n < 0 {
		return 0, 0
	}
	return numroc(m, mb, g.row, g.p), numroc(n, nb, g.col, g.q)
}

func newMatrix[T Scalar](op string, g *Grid, m, n, mb, nb int) (*Matrix[T], error) {
	if err := live(op); err != nil {
		return nil, err
	}
	if g == nil || g.exited {
		return nil, layout.Errorf(ErrState, op, "g", "the grid is nil or was exited")
	}
	if m < 0 || n < 0 || mb < 1 || nb < 1 {
		return nil, layout.Errorf(layout.ErrShape, op, "m, n, mb, nb", "%d x %d in %d x %d blocks: sizes must be >= 0 and blocks >= 1", m, n, mb, nb)
	}
	for _, x := range []int{m, n, mb, nb} {
		if x > math.MaxInt32 {
			return nil, layout.Errorf(layout.ErrOverflow, op, "m, n, mb, nb", "%d does not fit ScaLAPACK's 32-bit integer", x)
		}
	}
	a := &Matrix[T]{g: g, m: m, n: n, mb: mb, nb: nb}
	a.mloc, a.nloc = LocalShape(g, m, n, mb, nb)
	if a.mloc*a.nloc < 0 || (a.mloc > 0 && a.nloc > math.MaxInt/a.mloc) {
		return nil, layout.Errorf(layout.ErrOverflow, op, "m, n", "the local piece %d x %d is too large", a.mloc, a.nloc)
	}
	return a, nil
}

// setDesc fills the descriptor (DESCINIT's layout: DTYPE 1, CTXT, M, N, MB,
// NB, RSRC 0, CSRC 0, LLD); outside the grid CTXT is -1, as ScaLAPACK's
// redistribution routines expect there.
func (a *Matrix[T]) setDesc(lld int) {
	a.desc = [9]C.int{1, a.g.ctxt, C.int(a.m), C.int(a.n), C.int(a.mb), C.int(a.nb), 0, 0, C.int(lld)}
	if !a.g.In() {
		a.desc[1], a.desc[8] = -1, 1
	}
}

// Local returns this rank's piece: a column-major numroc(m) x numroc(n)
// view (empty outside the grid). Writing it writes the matrix.
func (a *Matrix[T]) Local() views.View[T] { return a.local }

// Desc returns ScaLAPACK's array descriptor: DTYPE (1), CTXT, M, N, MB, NB,
// RSRC, CSRC, LLD, for calling routines lapis does not wrap (with
// Local's first element and LLD).
func (a *Matrix[T]) Desc() [9]int {
	var d [9]int
	for i, x := range a.desc {
		d[i] = int(x)
	}
	return d
}

// Dims returns the global shape.
func (a *Matrix[T]) Dims() (m, n int) { return a.m, a.n }

// BlockSize returns the block shape.
func (a *Matrix[T]) BlockSize() (mb, nb int) { return a.mb, a.nb }

// Grid returns the grid the matrix is distributed over.
func (a *Matrix[T]) Grid() *Grid { return a.g }

// Owner returns the grid coordinates of the process holding global
// element (i, j) (0-based; INDXG2P). It panics when (i, j) is outside the
// matrix, as indexing does.
func (a *Matrix[T]) Owner(i, j int) (row, col int) {
	a.check(i, j)
	return g2p(i, a.mb, a.g.p), g2p(j, a.nb, a.g.q)
}

// ToLocal returns where global element (i, j) lives in the local piece of
// the rank that owns it (INDXG2L), and whether that rank is this one. It
// panics when (i, j) is outside the matrix.
func (a *Matrix[T]) ToLocal(i, j int) (li, lj int, mine bool) {
	a.check(i, j)
	pr, pc := g2p(i, a.mb, a.g.p), g2p(j, a.nb, a.g.q)
	return g2l(i, a.mb, a.g.p), g2l(j, a.nb, a.g.q), pr == a.g.row && pc == a.g.col
}

// ToGlobal returns the global index of element (li, lj) of this rank's
// local piece (INDXL2G). It panics when (li, lj) is outside the piece.
func (a *Matrix[T]) ToGlobal(li, lj int) (i, j int) {
	if li < 0 || li >= a.mloc || lj < 0 || lj >= a.nloc {
		panic(fmt.Sprintf("dist: local index (%d, %d) out of range [%d, %d]", li, lj, a.mloc, a.nloc))
	}
	return l2g(li, a.mb, a.g.row, a.g.p), l2g(lj, a.nb, a.g.col, a.g.q)
}

// Fill sets every element this rank holds to f(i, j) of its global index:
// a distributed matrix defined by a formula, without communication. It
// panics on a released matrix, as Set on a released tensor does.
func (a *Matrix[T]) Fill(f func(i, j int) T) {
	if a.released {
		panic("dist: Matrix.Fill after Release")
	}
	for lj := 0; lj < a.nloc; lj++ {
		j := l2g(lj, a.nb, a.g.col, a.g.q)
		for li := 0; li < a.mloc; li++ {
			a.local.Set(f(l2g(li, a.mb, a.g.row, a.g.p), j), li, lj)
		}
	}
}

// Release gives a local piece New made back to the pool; a wrapped piece
// stays the caller's. Afterwards every entry point given the matrix
// returns an error matching lapis.ErrReleased on every rank, as it does
// when a wrapped piece's tensor is released (views.Tensor.Release). A
// second Release does nothing.
func (a *Matrix[T]) Release() {
	if a.own != nil {
		a.own.Release()
		a.own = nil
	}
	a.local, a.released = views.View[T]{}, true
}

func (a *Matrix[T]) check(i, j int) {
	if i < 0 || i >= a.m || j < 0 || j >= a.n {
		panic(fmt.Sprintf("dist: index (%d, %d) out of range [%d, %d]", i, j, a.m, a.n))
	}
}

// The index maps of ScaLAPACK's TOOLS (INDXG2P, INDXG2L, INDXL2G, NUMROC)
// for a distribution starting on process 0, 0-based. The tests check them
// against the library's.
func g2p(ig, nb, np int) int      { return (ig / nb) % np }
func g2l(ig, nb, np int) int      { return (ig/(nb*np))*nb + ig%nb }
func l2g(il, nb, myp, np int) int { return ((il/nb)*np+myp)*nb + il%nb }
func numroc(n, nb, myp, np int) int {
	nblocks := n / nb
	r := (nblocks / np) * nb
	extra := nblocks % np
	switch {
	case myp < extra:
		r += nb
	case myp == extra:
		r += n % nb
	}
	return r
}

// first returns the address of the first element of v for C (a dummy
// element for an empty view: ScaLAPACK reads nothing there but wants an
// address).
func first[T Scalar](v views.View[T]) unsafe.Pointer {
	if v.Len() == 0 {
		return unsafe.Pointer(&dummy[0])
	}
	return unsafe.Pointer(&v.Data()[v.Layout().Offset()])
}

var dummy [2]complex128

// gemr2d copies the m x n matrix (a, desca) into (b, descb) with
// p?gemr2d over ctxt. It runs on the MPI thread.
func gemr2d[T Scalar](m, n int, a unsafe.Pointer, desca [9]C.int, b unsafe.Pointer, descb [9]C.int, ctxt C.int) {
	cm, cn, one := C.lapis_int(m), C.lapis_int(n), C.lapis_int(1)
	if isComplex[T]() {
		C.pzgemr2d_(&cm, &cn, (*C.lapis_z)(a), &one, &one, &desca[0], (*C.lapis_z)(b), &one, &one, &descb[0], &ctxt)
		return
	}
	C.pdgemr2d_(&cm, &cn, (*C.double)(a), &one, &one, &desca[0], (*C.double)(b), &one, &one, &descb[0], &ctxt)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isComplex[T Scalar]() bool {
	_, ok := any(*new(T)).(complex128)
	return ok
}

// Redistribute copies src into dst, which may have other block sizes or
// another grid (pdgemr2d / pzgemr2d over a context holding every rank):
// from one distribution straight into the other's local pieces. Collective
// over every rank. Errors match ErrState, or layout.ErrShape when the
// global shapes differ or a matrix is nil, on every rank when any rank's
// arguments are bad.
func Redistribute[T Scalar](dst, src *Matrix[T]) error {
	const op = "dist.Redistribute"
	var err error
	if dst == nil || src == nil {
		err = layout.Errorf(layout.ErrShape, op, "dst, src", "nil matrix")
	} else if err = cmp.Or(dst.checkLive(op, "dst"), src.checkLive(op, "src")); err == nil {
		switch {
		case dst.g.exited || src.g.exited:
			err = layout.Errorf(ErrState, op, "dst, src", "a grid was exited")
		case dst.m != src.m || dst.n != src.n:
			err = layout.Errorf(layout.ErrShape, op, "dst", "%d x %d differs from src's %d x %d", dst.m, dst.n, src.m, src.n)
		}
	}
	if err := agree(op, err, keys(dst, src)); err != nil {
		return err
	}
	if dst.m == 0 || dst.n == 0 {
		return nil
	}
	pa, pb := first(src.local), first(dst.local)
	do(func() { gemr2d[T](src.m, src.n, pa, src.desc, pb, dst.desc, world.allCtxt) })
	return nil
}

// Scatter distributes the m x n matrix src, held by MPI rank root, into a
// (pdgemr2d from a 1 x 1 grid on root, whose one block is src as it lies
// in memory: a column-major src goes in place, any leading dimension).
// Other ranks pass the zero View (their src is not read). A src that is not
// column-major is copied first (counted in lapis.ReadStats().Copies; an
// error matching lapis.ErrCopyRefused in strict mode). Collective over
// every rank; root's checks are shared with every rank (one
// MPI_Allreduce) so that a bad src is an error everywhere, not a hang.
// Errors match ErrState, layout.ErrShape, layout.ErrBounds (root out of
// range), lapis.ErrCopyRefused or lapis.ErrReleased (src a view of a
// released tensor on the root).
func (a *Matrix[T]) Scatter(root int, src views.View[T], opts ...lapis.Option) error {
	return a.move("dist.Matrix.Scatter", root, src, false, opts)
}

// Gather collects a into dst on MPI rank root: Scatter's inverse, with
// the same rules (dst is written in place when column-major, through a
// counted copy otherwise; other ranks pass the zero View).
func (a *Matrix[T]) Gather(root int, dst views.View[T], opts ...lapis.Option) error {
	return a.move("dist.Matrix.Gather", root, dst, true, opts)
}

func (a *Matrix[T]) move(op string, root int, v views.View[T], gather bool, opts []lapis.Option) error {
	name := "src"
	if gather {
		name = "dst"
	}
	var (
		err  error
		ld   = 1
		tmp  *views.Tensor[T]
		work = v
	)
	live := a.checkLive(op, "a")
	switch {
	case root < 0 || root >= world.size:
		err = layout.Errorf(layout.ErrBounds, op, "root", "rank %d is not in 0..%d", root, world.size-1)
	case live != nil:
		err = live
	case a.g.exited:
		err = layout.Errorf(ErrState, op, "a", "its grid was exited")
	default:
		if world.rank == root {
			err = a.rootOperand(op, name, v, gather, opts, &work, &tmp, &ld)
		}
	}
	// Every rank learns whether the root (or any rank) refused, and why,
	// so that none enters pdgemr2d alone.
	if err := agree(op, err, append(keys(a), root, b2i(gather))); err != nil {
		if tmp != nil {
			tmp.Release()
		}
		return err
	}
	if a.m == 0 || a.n == 0 {
		return nil
	}
	do(func() {
		rc := rootCtxt(root)
		d := [9]C.int{1, rc, C.int(a.m), C.int(a.n), C.int(a.m), C.int(a.n), 0, 0, C.int(ld)}
		p := unsafe.Pointer(&dummy[0])
		if rc < 0 {
			d[1], d[8] = -1, 1
		} else {
			p = first(work)
		}
		if gather {
			gemr2d[T](a.m, a.n, first(a.local), a.desc, p, d, world.allCtxt)
		} else {
			gemr2d[T](a.m, a.n, p, d, first(a.local), a.desc, world.allCtxt)
		}
	})
	if tmp != nil {
		if gather {
			_ = views.Copy(v, tmp.View()) // same shape, checked
		}
		tmp.Release()
	}
	return nil
}

// rootOperand checks root's matrix and decides how it goes to ScaLAPACK:
// in place (work = v, ld its column stride) or through a compact copy tmp.
func (a *Matrix[T]) rootOperand(op, name string, v views.View[T], gather bool, opts []lapis.Option, work *views.View[T], tmp **views.Tensor[T], ld *int) error {
	if err := v.CheckLive(op, name); err != nil {
		return err
	}
	if v.Rank() != 2 || v.Layout().Dim(0) != a.m || v.Layout().Dim(1) != a.n {
		if v.IsZero() {
			return errop.ZeroView(op, name)
		}
		return layout.Errorf(layout.ErrShape, op, name, "shape %v on the root is not the matrix's %d x %d", v.Shape(), a.m, a.n)
	}
	if gather && v.Layout().HasOverlap() {
		return layout.Errorf(layout.ErrOverlap, op, name, "%s has indices sharing an element; it cannot be written", v.Layout().String())
	}
	mm, ok := v.Layout().Matrix()
	if ok && !mm.Trans && !v.IsConj() && mm.LD <= math.MaxInt32 {
		*ld = mm.LD
		return nil
	}
	if lapis.Configure(opts...).Strict {
		return layout.Errorf(lapis.ErrCopyRefused, op, name, "%s (class %v) is not column-major and strict mode is on", v.Layout().String(), v.Layout().Class())
	}
	policy.Copies.Add(1)
	if gather {
		t, err := views.Zeros[T](a.m, a.n)
		if err != nil {
			return err
		}
		*tmp = t
	} else {
		*tmp = v.ToColMajor()
	}
	*work, *ld = (*tmp).View(), max(1, a.m)
	return nil
}

// libMaps returns the library's own INDXG2P, INDXG2L (of global index ig)
// and INDXL2G (of local index ig on process iproc), and NUMROC of n = ig
// for iproc, 0-based, for the tests of the Go index maps. Pure functions:
// no MPI needed.
func libMaps(ig, nb, iproc, np int) (p, l, g, nr int) {
	i1, cnb, cp, zero, cnp := C.lapis_int(ig+1), C.lapis_int(nb), C.lapis_int(iproc), C.lapis_int(0), C.lapis_int(np)
	p = int(C.indxg2p_(&i1, &cnb, &cp, &zero, &cnp))
	l = int(C.indxg2l_(&i1, &cnb, &cp, &zero, &cnp)) - 1
	g = int(C.indxl2g_(&i1, &cnb, &cp, &zero, &cnp)) - 1
	n := C.lapis_int(ig)
	nr = int(C.numroc_(&n, &cnb, &cp, &zero, &cnp))
	return p, l, g, nr
}
