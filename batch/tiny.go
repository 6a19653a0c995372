package batch

import (
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/lapis-go/lapis"
	tk "github.com/lapis-go/lapis/internal/kernel/tiny"
	"github.com/lapis-go/lapis/internal/rt/pool"
	"github.com/lapis-go/lapis/internal/rt/split"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// Tiny matrices. Real batches of order 2 to 8 run Cholesky,
// CholeskySolve, Solve (up to tk.MaxRHS right-hand sides), Inv,
// Det and LogDet on internal/kernel/tiny's lane kernels: one matrix per SIMD
// lane, read and written through its strides (any layout: column-major,
// row-major, strided, the batch axis innermost), no copy, no cgo. A
// matrix a kernel flags (a NaN or an infinity where the call reads: the
// finite-input rule, applied in the kernels' pass over the data; a zero
// or non-positive pivot, NaN or Inf met, a determinant outside the
// normal range) is left untouched by it and redone on the per-matrix
// path below, which applies the rule (rule.check) and reports failures
// as before.
// lapis.ForceC() keeps a call on the per-matrix path.

// tinyOperand is a batch as the kernels read it: element (0, 0) of its
// matrix 0, the strides of its matrices' rows and columns (swapped to
// read the transpose), and its batch strides.
type tinyOperand[T Scalar] struct {
	v      views.View[T]
	rs, cs int
}

func tinyOf[T Scalar](v views.View[T], transpose bool) tinyOperand[T] {
	l := v.Layout()
	o := tinyOperand[T]{v: v, rs: l.Stride(0), cs: l.Stride(1)}
	if transpose {
		o.rs, o.cs = o.cs, o.rs
	}
	return o
}

// tinySolveMin returns the smallest order Solve gives the kernels, with
// the conditioning check (check) or without, for a batch whose lane
// groups the kernels read with whole-vector loads (vectorized:
// tinyVectorized) or gather. Measured (BenchmarkTinySolvePath):
// on whole-vector loads the kernels are faster than the strided solve (internal/strided)'s
// C loop from order 2; gathering, the C loop is faster below order 5.
// With the check, the kernels (which make it in their pass) are faster
// from order 2 either way: the C loop is followed by the check in Go.
func tinySolveMin(check, vectorized bool) int {
	if check || vectorized {
		return tk.MinN
	}
	return 5
}

// tinyVectorized reports whether the kernels read the matrices of a batch
// of layout l (type T) with whole-vector loads, as tk.Vectorized
// decides: a compact batch [n, n, B...] or one whose first batch axis
// has stride 1.
func tinyVectorized[T Scalar](l layout.Layout) bool {
	if l.Rank() < 3 {
		return false
	}
	m := tk.Mat{RS: l.Stride(0), CS: l.Stride(1), BS: l.Stride(2)}
	return tk.Vectorized(int(unsafe.Sizeof(*new(T))), l.Dim(0), m)
}

// tinyApplies reports whether the kernels take a batch of order n of
// element type T in a call with options opts.

func tinyApplies[T Scalar](n int, opts []lapis.Option) bool {
	switch any(*new(T)).(type) {
	case float32, float64:
	default:
		return false
	}
	return n >= tk.MinN && n <= tk.MaxN && lapis.Configure(opts...).Path != lapis.PathC
}

// tinyCond is the conditioning check of a tiny Solve or Inv, made in the
// kernels' pass: they take each matrix's norm as they read it and its
// inverse's (Inv's result; for Solve from the LU factors), and the
// matrices whose 1 / (||A|| ||A^-1||) they find below condMargin times
// the threshold go to exact (the conditioning check of lapack.Solve or CheckInverse, with
// the kernel's ||A||), which decides as the per-matrix check does. inf
// selects infinity norms: the kernels read a row-major batch's storage,
// whose infinity norm the check takes (factored). Matrices the kernels
// flag are checked by the slow path itself.
type tinyCond[T Scalar] struct {
	inf   bool
	exact func(t int, anorm float64, lu []T) error
}

// tinyChunkWork is the work (n^3 summed over the matrices) a goroutine
// must get for a tiny batch to be split: about 0.3 ms of the kernels
// (0.5-0.75 ns per n^3 here), several times what waking a parked worker
// costs on this 2-vCPU VM (0.1-0.3 ms when its CPU was idle). gemm's
// chunkFlops (a chunk of about 40 us of the kernels) made batches of
// 10000 matrices of order 3 and 4 slower on two workers than on one
// (cholsolve float32 inner n = 3: 36 us on one, 184 us on two, with the
// machine loaded). With it, 10000 matrices are split from order 8.
// Rechecked with the out-of-place forms, whose pieces also copy: half
// of it (10000 matrices of order 4 split) made some of them slower on
// two workers than on one (CholeskySolveTo inner n = 4: 142 us against
// 87 us, medians of 3), so it stays.
const tinyChunkWork = 1 << 19

// tinyPiece is the least a split batch's chunks hold (package split's
// grain: the chunks halve down to it), in whole groups of tinyGroup
// matrices (the most lanes a kernel has: float32 on AVX-512), so that only
// the batch's last chunk (and a staged run's last) ends in a partial lane
// group, which the kernels gather. Chunks that halve make the shortest
// calls on two workers faster than pieces of equal length (eight a
// goroutine; four measured float32 solve and inv 5-10% slower):
// docs/batch.md, "Workers and threads".
const (
	tinyPiece = 64
	tinyGroup = tk.MaxLanes
)

// condMargin is how far above the check's threshold (epsilon / 2) a
// kernel's reciprocal condition number sends its matrix to the exact
// check: the kernels' inverse (FMA, another order of operations) is not
// the one the check computes, and near the threshold it has few correct
// digits.
const condMargin = 16

// tinyStage is what an out-of-place form (SolveTo, InvTo, CholeskyTo,
// CholeskySolveTo) adds to the kernels' pass: before the kernels run on
// matrices lo..hi (a run of at most tinyStageBytes of a, cut from a
// worker's chunk), fill(lo, hi, scratch) copies their inputs into the
// operands the kernels then work on in place. The copy is so split
// across the workers with the kernels, and the kernels read it from
// cache. With scratch set, a is not the kernels' operand: each worker
// has a buffer (scratch, from the pool) that fill fills with matrices
// lo..hi of the input and the kernels factor in place (SolveTo, whose a
// is not written): compact [n, n, hi-lo], or with inner set the batch
// axis innermost (storage [hi-lo, n, n]: for an input whose batch axis
// has stride 1, the copy is then n*n contiguous lines and the kernels
// read each element of a lane group with one vector load).
//
// With direct set there is no copy: the kernels read the inputs (ina for
// the a operand, inb for b; nil: the operand is its own input), views
// with the strides of the operands they stand for, and write their
// results into the operands in the same pass (tk.To), zero
// asking for Cholesky's full factor. fill(t, t+1, nil) then runs only
// for a matrix they flag, before the slow path redoes it in place.
//
// keepA marks a as an input that is never written (SolveTo): the
// kernels' factors go to scratch or nowhere, and the slow path works on
// a fresh copy of the matrix (restage).
type tinyStage[T Scalar] struct {
	fill                func(lo, hi int, scratch []T)
	scratch, inner      bool
	direct, zero, keepA bool
	ina, inb            *views.View[T]
}

// strides returns the row, column and matrix strides of a scratch that
// holds k matrices of order n.
func (st *tinyStage[T]) strides(n, k int) (rs, cs, bs int) {
	if st.inner {
		ld := innerLD(k)
		return ld, ld * n, 1
	}
	return 1, n, n * n
}

// innerLD is the distance between the elements (i, j) and (i+1, j) of a
// scratch of k matrices with the batch axis innermost: k and a cache line
// more, so that the n*n elements of a lane group do not fall in one
// cache set when k is a power of two (k = 512 float64: 4 KB apart, the
// same set of a 12-way L1 for all 64 of them). One matrix is compact.
func innerLD(k int) int {
	if k <= 1 {
		return k
	}
	return k + 8
}

// restage returns, for the slow path of an out-of-place form whose a is
// never written (keepA: SolveTo), a's matrix t packed as a compact run
// [n, n, 1] (ok), with x's matrix t holding b's: the scratch the kernels
// worked on has been refilled since, or there was none. A matrix the
// kernels flag is left unwritten by them, so another form's destination
// holds its staged input (or, direct, gets it before the slow path), as
// an in-place form's matrix does. A nil st, or one whose a is written,
// does nothing.
func (st *tinyStage[T]) restage(t, n int) (views.View[T], bool) {
	if st == nil || !st.keepA {
		return views.View[T]{}, false
	}
	s := make([]T, n*n)
	st.fill(t, t+1, s)
	v, _ := views.FromColMajor(s, n, n, 1) // cannot fail
	return v.View(), true
}

// factors returns a copy of matrix m of the scratch s, which holds k
// matrices of order n, compact (n x n, column-major).
func (st *tinyStage[T]) factors(s []T, n, k, m int) []T {
	rs, cs, bs := st.strides(n, k)
	f := make([]T, n*n)
	for j := range n {
		for i := range n {
			f[i+j*n] = s[m*bs+i*rs+j*cs]
		}
	}
	return f
}

// restageAll copies every matrix's inputs, for the path without the
// kernels (a stage without scratch). A nil st does nothing.
func (st *tinyStage[T]) restageAll(total int) {
	if st != nil {
		st.fill(0, total, nil)
	}
}

// tinyStageBytes bounds a staged run: the bytes of a's matrices copied
// and then worked on while they are in the core's L2 (1 MB here): 512
// matrices of order 8 in float64. Measured (BatchTiny, lapis-to, float64,
// medians of 3 alternated builds, this 2-vCPU VM): 32 KB and 64 KB runs
// were slower at every order (n = 8 compact solve 1.86 and 1.25 ms
// against 1.06 with 256 KB; the per-run costs, not profiled further), 512 KB about as fast as 256 KB, and no cut at all (the whole
// batch copied, then the kernels: what a caller's copy costs) slower at
// n = 8 on one worker (compact solve 1.54 ms against 1.13, inv 1.62
// against 1.33).
const tinyStageBytes = 256 << 10

// tiny runs op on the batch (a, and b for the solves) of batch shape
// shape with the kernels, det receiving TinyDet's determinants, and
// slow(t) on every matrix they flag (in the chunk that met it); the
// errors slow returns are gathered as perMatrix gathers them. tc, when
// not nil, adds Solve's and Inv's conditioning check; st, when not nil,
// the copy of an out-of-place form. The kernels apply the finite-input
// rule themselves: a matrix with a NaN or an infinity where the call
// reads is flagged, unwritten, and goes to slow, which must refuse it
// (rule.check) before any LAPACK call. The caller has checked
// tinyApplies.
func runTiny[T Scalar](op string, k tk.Op, shape []int, a tinyOperand[T], b *tinyOperand[T], det []T, tc *tinyCond[T], st *tinyStage[T], slow func(t int) error) error {
	switch any(*new(T)).(type) {
	case float64:
		return tinyRun[T, float64](op, k, shape, a, b, det, tc, st, slow)
	default:
		return tinyRun[T, float32](op, k, shape, a, b, det, tc, st, slow)
	}
}

func tinyRun[T Scalar, F float32 | float64](op string, k tk.Op, shape []int, a tinyOperand[T], b *tinyOperand[T], det []T, tc *tinyCond[T], st *tinyStage[T], slow func(t int) error) error {
	total := count(shape)
	if total == 0 {
		return nil
	}
	n := a.v.Layout().Dim(0)
	scratch := st != nil && st.scratch
	direct := st != nil && st.direct
	var sbuf [2][layout.MaxInline]int
	strides := make([][]int, 0, 2)
	if !scratch {
		strides = append(strides, batchStrides(a.v.Layout(), sbuf[0][:0]))
	}
	nrhs := 0
	if b != nil {
		strides = append(strides, batchStrides(b.v.Layout(), sbuf[1][:0]))
		nrhs = b.v.Layout().Dim(1)
	}
	mshape, mst := merge(shape, strides...)
	size := int(unsafe.Sizeof(F(0)))
	base := func(v views.View[T]) unsafe.Pointer {
		return unsafe.Add(unsafe.Pointer(unsafe.SliceData(v.Data())), v.Layout().Offset()*size)
	}
	// The operands (pa, pb), and where the kernels read them (ra, rb):
	// the operands themselves, or direct's inputs.
	pa := base(a.v)
	ra := pa
	var pb, rb unsafe.Pointer
	if b != nil {
		pb = base(b.v)
		rb = pb
	}
	if direct {
		tinyDirectRuns.Add(1)
		if st.ina != nil {
			ra = base(*st.ina)
		}
		if st.inb != nil {
			rb = base(*st.inb)
		}
	}
	dets, _ := any(det).([]F)
	var (
		mu    sync.Mutex
		redos []redo[T] // the matrices to redo on the slow path
	)
	// A split batch's lane groups (tinyGroup matrices each) are handed
	// out in chunks by package split: each worker starts in the region of
	// the CPU it runs on and then takes from the others' backs, so that a
	// CPU works on the same matrices call after call, which stay in its
	// caches; each chunk is half of what its region has left, at least
	// tinyPiece matrices, so that the workers finish within a grain of
	// each other even when their CPUs run at different speeds or one
	// wakes late (measured here: 0.1-0.3 ms after the hand-off when its
	// CPU was idle, as long as half of a 10000-matrix batch of order 8).
	// The kernels compute each matrix alone, so the results do not
	// depend on the cut.
	workers := min(chunksFor(total, n*n*n), max(1, total*n*n*n/tinyChunkWork))
	groups := (total + tinyGroup - 1) / tinyGroup
	grain := groups // not split: one chunk
	if workers > 1 {
		grain = tinyPiece / tinyGroup
	}
	span := total // matrices staged and then worked on at once
	if st != nil && !direct {
		span = min(total, max(tinyGroup, tinyStageBytes/(n*n*size)/tinyGroup*tinyGroup))
	}
	cut := split.New(groups, workers, grain)
	share(workers, func() {
		w := cut.Worker()
		var flagged []int
		var check *tk.Check
		var lus [][]T // with scratch, the factors of check.Ill's matrices
		if tc != nil {
			check = &tk.Check{Inf: tc.inf, Thresh: condMargin * scalar.Eps[F]() / 2}
		}
		var buf *pool.Buf[T]
		if scratch {
			buf = pool.Get[T](innerLD(span) * n * n) // room for either scratch
			defer pool.Put(buf)
		}
		for glo, ghi, ok := w.Next(); ok; glo, ghi, ok = w.Next() {
			lo, hi := glo*tinyGroup, min(total, ghi*tinyGroup)
			for s := lo; s < hi; s += span {
				e := min(hi, s+span)
				if st != nil && !direct {
					var sb []T
					if scratch {
						sb = buf.Data[:innerLD(e-s)*n*n]
					}
					st.fill(s, e, sb)
				}
				for t := s; t < e; {
					cnt := runLen(mshape, t, e)
					var am, bm tk.Mat
					var out tk.Out // direct: where the results go
					for i := range mst {
						off := flatOffset(t, mshape, mst[i]) * size
						bs := 0
						if len(mshape) > 0 {
							bs = mst[i][0]
						}
						if i == 0 && !scratch {
							am = tk.Mat{P: unsafe.Add(ra, off), RS: a.rs, CS: a.cs, BS: bs}
							if !st.keepsA() {
								out.A = unsafe.Add(pa, off)
							}
						} else {
							bm = tk.Mat{P: unsafe.Add(rb, off), RS: b.rs, CS: b.cs, BS: bs}
							out.B = unsafe.Add(pb, off)
						}
					}
					if scratch {
						rs, cs, bs := st.strides(n, e-s)
						am = tk.Mat{P: unsafe.Pointer(&buf.Data[(t-s)*bs]), RS: rs, CS: cs, BS: bs}
					}
					var d []F
					if dets != nil {
						d = dets[t : t+cnt]
					}
					from, ifrom := len(flagged), 0
					if check != nil {
						ifrom = len(check.Ill)
					}
					if direct {
						out.Zero = st.zero
						flagged = tk.To(k, n, cnt, am, bm, out, nrhs, d, check, flagged)
					} else {
						flagged = tk.Run(k, n, cnt, am, bm, nrhs, d, check, flagged)
					}
					for i := from; i < len(flagged); i++ {
						flagged[i] += t
					}
					if check != nil {
						for i := ifrom; i < len(check.Ill); i++ {
							switch m := check.Ill[i].T; {
							case scratch: // the scratch is refilled: keep the factors
								lus = append(lus, st.factors(buf.Data, n, e-s, t-s+m))
							case st.keepsA(): // never written: the kernels' factors again
								lus = append(lus, tinyFactors[T, F](n, am, bm, m, nrhs, size))
							}
							check.Ill[i].T += t
						}
					}
					t += cnt
				}
			}
		}
		mu.Lock()
		for _, t := range flagged {
			redos = append(redos, redo[T]{t: t})
		}
		if check != nil {
			for i, c := range check.Ill {
				r := redo[T]{t: c.T, anorm: c.ANorm, ill: true}
				if lus != nil {
					r.lu = lus[i]
				}
				redos = append(redos, r)
			}
		}
		mu.Unlock()
	})
	// The matrices the kernels flagged go to slow and exact, which call
	// LAPACK: on the caller's goroutine, or when there are many of them
	// on the locked workers (run), never on the tiny workers.
	var fs failures
	chunks := min(workers, max(1, len(redos)/tinyPiece))
	run(chunks, func(c int) {
		for _, r := range redos[c*len(redos)/chunks : (c+1)*len(redos)/chunks] {
			switch {
			case r.ill:
				fs.record(r.t, tc.exact(r.t, r.anorm, r.lu))
			case direct:
				st.fill(r.t, r.t+1, nil) // the destination as a staged one
				fallthrough
			default:
				fs.record(r.t, slow(r.t))
			}
		}
	})
	return fs.err(op, shape)
}

// tinyDirectRuns counts the tiny passes that ran direct (no staging
// copy): the tests' proof of the path.
var tinyDirectRuns atomic.Int64

// keepsA reports whether st (possibly nil) keeps a unwritten.
func (st *tinyStage[T]) keepsA() bool { return st != nil && st.keepA }

// tinyFactors returns the factors the kernels computed for matrix m of
// the run am (right-hand sides bm) and did not keep: computed again
// (tk.Factors, the same bits), as the check's exact test takes
// them.
func tinyFactors[T Scalar, F float32 | float64](n int, am, bm tk.Mat, m, nrhs, size int) []T {
	am.P, bm.P = unsafe.Add(am.P, m*am.BS*size), unsafe.Add(bm.P, m*bm.BS*size)
	lu, _ := tk.Factors[F](n, am, bm, nrhs) // not flagged the first time: not now
	return any(lu).([]T)
}

// redo is a matrix the kernels flagged (slow redoes it) or, ill, found
// near the conditioning check's threshold (tc.exact decides, with the
// kernel's norm anorm, and with a staged scratch the factors lu, n x n
// column-major, that the kernels left in it).
type redo[T Scalar] struct {
	t     int
	anorm float64
	ill   bool
	lu    []T
}

// logDetOf turns a determinant into LogDet's (log |d|, sign).
func logDetOf[T Scalar](d T) (float64, T) {
	x := real(scalar.Complex128(d))
	if x < 0 {
		return math.Log(-x), -1
	}
	return math.Log(x), 1
}
