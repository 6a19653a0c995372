package dist

/*
#include "lapis_dist.h"
*/
import "C"

import (
	"unsafe"

	"github.com/lapis-go/lapis/internal/rt/policy"
	"github.com/lapis-go/lapis/internal/rt/pool"
)

// Workspace sizes, asked of ScaLAPACK once per (routine, shape, blocks,
// grid, jobs) on each rank and remembered (used on the MPI thread only).
type wsKey struct {
	routine string
	m, n, k int
	mb, nb  int
	grid    int // Grid.id: contexts are reused after Cblacs_gridexit
	job1    byte
}

// wsSize is the length of WORK (in elements of the routine's type), RWORK
// (reals, complex routines) and IWORK.
type wsSize struct{ lwork, lrwork, liwork int }

// wsQuery is what a workspace query writes: WORK(1) (real, or complex with
// its real part first), RWORK(1) and IWORK(1), with every length -1.
type wsQuery struct {
	work         [2]C.double
	rwork        C.double
	iwork        C.lapis_int
	lw, lrw, liw C.lapis_int
}

// d is WORK's address as ScaLAPACK's d routines take it (the z routines
// take it converted).
func (q *wsQuery) d() *C.double { return &q.work[0] }

// sizes returns key's workspace sizes, asking ScaLAPACK the first time:
// query calls the routine with q's arrays and lengths of -1 and returns
// its info (sizes then returns it, caching nothing); least, when not nil,
// raises the answer to what the routine needs where its own query falls
// short. Each size is the largest over the grid's ranks: the routines
// check that LWORK is the same on every rank (PCHK1MAT), though each
// rank's query answers for its own piece. It runs on the MPI thread, on
// the grid's ranks. A query counts as one LAPACK call in lapis.ReadStats
// (as every routine call does), so a test can see it happen once.
func sizes(g *Grid, key wsKey, query func(q *wsQuery) C.lapis_int, least func(*wsSize)) (wsSize, C.lapis_int) {
	if ws, ok := world.wsCache[key]; ok {
		return ws, 0
	}
	q := wsQuery{lw: -1, lrw: -1, liw: -1}
	info := query(&q)
	policy.Lapack.Add(1) // a C call, counted as the routines' are
	if info != 0 {
		return wsSize{}, info
	}
	ws := wsSize{lwork: max(1, int(q.work[0])), lrwork: max(1, int(q.rwork)), liwork: max(1, int(q.iwork))}
	if least != nil {
		least(&ws)
	}
	ws = wsSize{lwork: gridMax(g, ws.lwork), lrwork: gridMax(g, ws.lrwork), liwork: gridMax(g, ws.liwork)}
	world.wsCache[key] = ws
	return ws, 0
}

// gridMax returns the largest of x over the grid's ranks (Cigamx2d). It
// runs on the MPI thread, on the grid's ranks.
func gridMax(g *Grid, x int) int {
	v := C.int(x)
	C.Cigamx2d(g.ctxt, &allScope[0], &spaceTop[0], 1, 1, &v, 1, nil, nil, -1, -1, -1)
	return int(v)
}

// work is one call's workspaces, of ws's sizes, from lapis's pool.
type work[T Scalar] struct {
	w            *pool.Buf[T]
	rw           *pool.Buf[float64]
	iw           *pool.Buf[int32]
	lw, lrw, liw C.lapis_int // the lengths to hand ScaLAPACK
}

// getWork takes ws's workspaces from the pool (at least one element each,
// so that every address is valid); release gives them back.
func getWork[T Scalar](ws wsSize) *work[T] {
	return &work[T]{w: pool.Get[T](ws.lwork), rw: pool.Get[float64](ws.lrwork), iw: pool.Get[int32](ws.liwork),
		lw: ci(ws.lwork), lrw: ci(ws.lrwork), liw: ci(ws.liwork)}
}

func (w *work[T]) d() *C.double    { return (*C.double)(unsafe.Pointer(&w.w.Data[0])) }
func (w *work[T]) r() *C.double    { return (*C.double)(unsafe.Pointer(&w.rw.Data[0])) }
func (w *work[T]) i() *C.lapis_int { return (*C.lapis_int)(unsafe.Pointer(&w.iw.Data[0])) }
func (w *work[T]) release()        { pool.Put(w.w); pool.Put(w.rw); pool.Put(w.iw) }
