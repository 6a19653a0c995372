package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	tk "github.com/lapis-go/lapis/internal/kernel/tiny"
	"github.com/lapis-go/lapis/internal/rt/split"
	"github.com/lapis-go/lapis/internal/test/spin"
	"github.com/lapis-go/lapis/views"
)

// BenchmarkBatchTiny: 10000 SPD matrices of order 3, 4 and 8, float64
// and float32, in compact column-major batches [n, n, 10000]
// (layout=compact) and with the batch axis innermost (layout=inner: a
// view [n, n, 10000] of (n, n, 10000)-shaped storage, batch stride 1),
// one goroutine, timed as a user runs them: an in-place operation (solve
// with one right-hand side, cholesky, cholsolve, inv) includes the copy
// that keeps its input, since numpy's functions are out of place; det
// writes nothing. impl=lapis is batch with one worker (the tiny kernels,
// Solve's and Inv's conditioning check on, as by default), lapis-w2 two
// workers, lapis-nocheck (solve, inv) one worker with
// lapis.NoConditionCheck(), lapis-old the per-matrix path that
// lapis.ForceC() keeps (LAPACK through cgo, Solve's C loop, the check in
// Go), lapis-old-nocheck (solve, inv) that path without the check (Solve
// then one C loop) and lapis-to-nocheck (solve, inv) the out-of-place form
// without it, lapis-avx2 (where the AVX-512 kernels run) lapis
// on the AVX2 kernels (tk.SetAVX512(false)); lapis-to and
// lapis-to-w2 (solve, cholesky, cholsolve, inv) the out-of-place forms
// (batch.SolveTo, CholeskyTo, CholeskySolveTo, InvTo: how a user keeps
// the input, so no copy of the user's is timed) on one and two workers,
// into a destination in the input's layout; memory and memory-w2 are
// the floor the To forms stand on (det: Det): their memory traffic alone
// (memoryFloor), on one and two goroutines. OpenBLAS runs one thread. numpy's np.linalg.solve /
// cholesky / det / inv on (10000, n, n) stacks of the same type are timed
// by scripts/bench-batch.sh in the same run (under both layouts' names:
// numpy's own stack is its fast layout).
//
//	go test -run '^$' -bench BatchTiny -count 4 ./bench | go run ./bench/report -ref lapis
func BenchmarkBatchTiny(b *testing.B) {
	prev := setBLASThreads(1)
	defer setBLASThreads(prev)
	for _, typ := range []string{"float64", "float32"} {
		for _, layout := range []string{"compact", "inner"} {
			for _, n := range []int{3, 4, 8} {
				if typ == "float64" {
					benchTiny[float64](b, typ, layout, n)
				} else {
					benchTiny[float32](b, typ, layout, n)
				}
			}
		}
	}
}

func benchTiny[T float32 | float64](b *testing.B, typ, layout string, n int) {
	const count = 10000
	rng := rand.New(rand.NewPCG(uint64(n), 14))
	spd, rhs := spdStack(rng, n, count), random(rng, n*count)
	a0, b0 := make([]T, len(spd)), make([]T, len(rhs))
	for t := range count { // matrix t's (i, j) at t + count*(i + n*j) when inner
		for e := range n * n {
			if layout == "inner" {
				a0[t+count*e] = T(spd[e+t*n*n])
			} else {
				a0[e+t*n*n] = T(spd[e+t*n*n])
			}
		}
		for i := range n {
			if layout == "inner" {
				b0[t+count*i] = T(rhs[i+t*n])
			} else {
				b0[i+t*n] = T(rhs[i+t*n])
			}
		}
	}
	a, bb, x := make([]T, len(a0)), make([]T, len(b0)), make([]T, len(b0))
	view := func(s []T, cols int) views.View[T] {
		if layout == "inner" {
			return must(must(views.FromColMajor(s, count, n, cols)).View().Permute(1, 2, 0))
		}
		return must(views.FromColMajor(s, n, cols, count)).View()
	}
	xd := make([]T, len(a0)) // the destination of cholesky and inv
	av, bv, a0v, b0v, xv, xa := view(a, n), view(bb, 1), view(a0, n), view(b0, 1), view(x, 1), view(xd, n)
	for _, op := range []string{"solve", "cholesky", "cholsolve", "det", "inv"} {
		for _, impl := range []string{"lapis", "lapis-avx2", "lapis-w2", "lapis-nocheck", "lapis-old", "lapis-old-nocheck", "lapis-to", "lapis-to-nocheck", "lapis-to-w2", "memory", "memory-w2"} {
			// The name says it all: -to the out-of-place form, -old the
			// path before the kernels, -nocheck without Solve's and Inv's
			// conditioning check, -w2 two workers.
			to := strings.HasPrefix(impl, "lapis-to")
			if impl == "lapis-avx2" && !tk.Wide || to && op == "det" {
				continue
			}
			var opts []lapis.Option
			if strings.HasSuffix(impl, "-nocheck") {
				if op != "solve" && op != "inv" {
					continue
				}
				opts = append(opts, lapis.NoConditionCheck())
			}
			if strings.HasPrefix(impl, "lapis-old") {
				opts = append(opts, lapis.ForceC())
			}
			w := 1
			if strings.HasSuffix(impl, "-w2") {
				w = 2
			}
			floorImpl := strings.HasPrefix(impl, "memory")
			// cholsolve solves with a factor made once, outside the timing.
			copy(a, a0)
			if op == "cholsolve" {
				if err := batch.Potrf(batch.Lower, av); err != nil {
					b.Fatal(err)
				}
			}
			b.Run(fmt.Sprintf("t=%s/layout=%s/op=%s/n=%d/count=%d/impl=%s", typ, layout, op, n, count, impl), func(b *testing.B) {
				prevW, _ := lapis.SetWorkers(w)
				defer lapis.SetWorkers(prevW)
				prevWide := tk.SetAVX512(impl != "lapis-avx2")
				defer tk.SetAVX512(prevWide)
				var err error
				var floor *spin.Team // only for the floor: its goroutines spin
				if floorImpl {
					floor = spin.New(w)
					defer floor.Stop()
				}
				for b.Loop() {
					switch {
					case floorImpl:
						switch op {
						case "solve":
							memoryFloor(floor, x, b0, a0)
						case "cholesky", "inv":
							memoryFloor(floor, xd, a0, nil)
						case "cholsolve":
							memoryFloor(floor, x, b0, a)
						case "det":
							memoryFloor(floor, nil, nil, a0)
						}
					case to && op == "solve":
						err = batch.SolveTo(xv, a0v, b0v, opts...)
					case to && op == "cholesky":
						err = batch.CholeskyTo(batch.Lower, xa, a0v, opts...)
					case to && op == "cholsolve":
						err = batch.CholeskySolveTo(batch.Lower, xv, av, b0v, opts...)
					case to && op == "inv":
						err = batch.InvTo(xa, a0v, opts...)
					case op == "solve":
						copy(a, a0)
						copy(bb, b0)
						err = batch.Gesv(av, bv, opts...)
					case op == "cholesky":
						copy(a, a0)
						err = batch.Potrf(batch.Lower, av, opts...)
					case op == "cholsolve":
						copy(bb, b0)
						err = batch.Potrs(batch.Lower, av, bv, opts...)
					case op == "det":
						_, err = batch.Det(a0v, opts...)
					case op == "inv":
						copy(a, a0)
						err = batch.InvTo(av, av, opts...)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(count)*float64(b.N)/b.Elapsed().Seconds(), "matrices/s")
			})
		}
	}
}

// memoryFloor moves what an out-of-place tiny operation must: it copies
// src to dst (with ordinary stores) and reads every cache line of also,
// on the goroutines of team, which are already running (no hand-off
// cost), in chunks handed out as batch hands out its own (package split:
// each CPU starts with the same bytes every call; chunks halve down to
// 1/128 of the whole, about the 64 matrices of batch's grain in a batch
// of 10000). The same bytes as the operation's own split, though not the
// same matrices for an innermost batch.
func memoryFloor[T float32 | float64](team *spin.Team, dst, src, also []T) {
	line := 64 / int(unsafe.Sizeof(T(0)))
	const units = 1024
	w := team.N()
	cut := split.New(units, w, units/128)
	part := func(s []T, lo, hi int) []T { return s[len(s)*lo/units : len(s)*hi/units] }
	sums := make([]float64, 8*w) // a cache line of float64 each
	team.Run(func(g int) {
		sw := cut.Worker()
		var s0, s1, s2, s3 T // four chains, so that the loads, not the adds, set the pace
		for lo, hi, ok := sw.Next(); ok; lo, hi, ok = sw.Next() {
			// In pieces below 1 MB, which Go's copy moves with
			// ordinary stores, as the kernels store (from 1 MB on it
			// streams them past the caches, which no kernel does).
			d, c := part(dst, lo, hi), part(src, lo, hi)
			for len(d) > 0 {
				m := copy(d[:min(len(d), 1<<18/int(unsafe.Sizeof(T(0))))], c)
				d, c = d[m:], c[m:]
			}
			s := part(also, lo, hi)
			i := 0
			for ; i+4*line <= len(s); i += 4 * line {
				s0 += s[i]
				s1 += s[i+line]
				s2 += s[i+2*line]
				s3 += s[i+3*line]
			}
			for ; i < len(s); i += line {
				s0 += s[i]
			}
		}
		sums[g*8] = float64(s0 + s1 + s2 + s3)
	})
	tinySink = sums[0]
}

var tinySink float64

// spdStack returns count symmetric positive definite n x n matrices, one
// after another: m m^T + n I for m with entries in [-1, 1).
func spdStack(rng *rand.Rand, n, count int) []float64 {
	s := make([]float64, n*n*count)
	for t := range count {
		m := random(rng, n*n)
		for j := range n {
			for i := range n {
				var v float64
				for k := range n {
					v += m[i+k*n] * m[j+k*n]
				}
				if i == j {
					v += float64(n)
				}
				s[t*n*n+i+j*n] = v
			}
		}
	}
	return s
}
