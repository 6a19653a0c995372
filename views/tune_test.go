package views

import (
	"fmt"
	"testing"

	"github.com/lapis-go/lapis/internal/loop"
)

// BenchmarkTune measures the float64 transpose over blockings; it is how
// the shape of the blocking in engine.go was chosen:
//
//	go test -run '^$' -bench Tune -benchtime 10x ./views
func BenchmarkTune(b *testing.B) {
	saved := loop.Blocks[1]
	defer func() { loop.Blocks[1] = saved }()
	prev := SetCopyThreads(1)
	defer SetCopyThreads(prev)
	b.Logf("derived from this CPU: %+v", saved)
	for _, n := range []int{1024, 4096} {
		a := must(Zeros[float64](n, n))
		at := a.View().T()
		out := must(Zeros[float64](n, n))
		for _, bk := range []loop.Blocking{saved, {Rows: 32, Cols: 32, Super: 1 << 30}, {Rows: 16, Cols: 16, Super: 1 << 30}, {Rows: 256, Cols: 8, Super: 256}, {Rows: 128, Cols: 8, Super: 256}, {Rows: 256, Cols: 16, Super: 512}, {Rows: 512, Cols: 8, Super: 512}} {
			loop.Blocks[1] = bk
			b.Run(fmt.Sprintf("n=%d/rows=%d/cols=%d/super=%d", n, bk.Rows, bk.Cols, bk.Super), func(b *testing.B) {
				b.SetBytes(int64(16 * n * n))
				for b.Loop() {
					_ = Copy(out.View(), at)
				}
			})
		}
	}
}

// BenchmarkTunePermute measures the [64 64 64 8] -> (3 1 0 2) permutation
// with and without non-temporal stores.
func BenchmarkTunePermute(b *testing.B) {
	prevNT := ntMinBytes
	defer func() { ntMinBytes = prevNT }()
	prev := SetCopyThreads(1)
	defer SetCopyThreads(prev)
	src := must(Zeros[float64](64, 64, 64, 8))
	pv := must(src.View().Permute(3, 1, 0, 2))
	dst := must(Zeros[float64](pv.Shape()...))
	for _, nt := range []int{prevNT, 1 << 62} {
		ntMinBytes = nt
		b.Run(fmt.Sprintf("nt=%v", nt == prevNT), func(b *testing.B) {
			b.SetBytes(int64(16 * src.Len()))
			for b.Loop() {
				_ = Copy(dst.View(), pv)
			}
		})
	}
}

// BenchmarkTunePanels times the 8-byte SIMD transpose of an n x n float64
// matrix in panels (the engine's choice from simdWide columns) against the
// 64 x 32 strips it replaced, with the destination in cache (warm) and
// evicted before each copy by writing 32 MiB elsewhere (cold, what a copy
// into a pooled buffer or a caller's matrix after a LAPACK call meets);
// the eviction is not timed:
//
//	go test -run '^$' -bench TunePanels -count 4 ./views
func BenchmarkTunePanels(b *testing.B) {
	if !hasAVX2 {
		b.Skip("no AVX2 kernels")
	}
	prev := SetCopyThreads(1)
	defer SetCopyThreads(prev)
	wide := simdWide
	defer func() { simdWide = wide }()
	junk := make([]float64, 4<<20)
	for _, n := range []int{300, 500, 1000, 2048} {
		a := must(Zeros[float64](n, n))
		at := a.View().T()
		out := must(Zeros[float64](n, n))
		for _, cold := range []bool{false, true} {
			for _, kind := range []string{"strips", "panels"} {
				b.Run(fmt.Sprintf("n=%d/cold=%v/%s", n, cold, kind), func(b *testing.B) {
					simdWide = wide
					if kind == "strips" {
						simdWide = 1 << 62
					}
					b.SetBytes(int64(16 * n * n))
					for b.Loop() {
						if cold {
							b.StopTimer()
							for i := 0; i < len(junk); i += 8 {
								junk[i]++
							}
							b.StartTimer()
						}
						_ = Copy(out.View(), at)
					}
				})
			}
		}
	}
}
