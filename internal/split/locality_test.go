package split

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkLocality: two goroutines that keep spinning copy a 5 MB
// buffer (10000 float64 matrices of order 8) in 16 pieces of 320 KB, the
// pieces handed out by a Split as batch hands out its tiny pieces, with
// three rules for a worker's home: home=cpu (New's: the region of the CPU
// it runs on, each CPU so copies the same bytes every call), home=arrival
// (the order the workers arrive: a piece lands on either CPU, as batch's
// pieces did before package split) and home=swap (the CPU's region one
// call, the other's the next: every line crosses between the cores each
// call). workers=1 is one goroutine copying it all, the time to halve.
//
//	go test -run '^$' -bench Locality -count 5 ./internal/split
func BenchmarkLocality(b *testing.B) {
	const size = 10000 * 64
	src, dst := make([]float64, size), make([]float64, size)
	for i := range src {
		src[i] = float64(i)
	}
	for _, c := range []struct {
		home    string
		workers int
	}{{"cpu", 1}, {"cpu", 2}, {"arrival", 2}, {"swap", 2}} {
		b.Run(fmt.Sprintf("home=%s/workers=%d", c.home, c.workers), func(b *testing.B) {
			if _, ok := CPU(); !ok && c.home != "arrival" {
				b.Skip("CPU unknown here")
			}
			const pieces = 16
			team := newSpinners(c.workers)
			defer team.stop()
			b.SetBytes(2 * 8 * size)
			var call atomic.Int64
			for b.Loop() {
				s := New(pieces, c.workers)
				k := int(call.Add(1))
				team.run(func() {
					w := s.Worker()
					switch c.home {
					case "arrival":
						w.home = int(s.arrived.Add(1)-1) % c.workers
					case "swap":
						w.home = (w.home + k) % c.workers
					}
					w.from = w.home
					for p, ok := w.Next(); ok; p, ok = w.Next() {
						lo, hi := size*p/pieces, size*(p+1)/pieces
						for o := lo; o < hi; o += 1 << 15 { // below 1 MB: ordinary stores
							copy(dst[o:min(hi, o+1<<15)], src[o:])
						}
					}
				})
			}
		})
	}
}

// spinners runs a function on the caller and n-1 goroutines that spin
// between calls (yielding their P), so that a call costs no wake-up.
type spinners struct {
	gen   atomic.Int64 // calls so far; -1: stop
	f     func()
	left  atomic.Int64
	n     int
	ended sync.WaitGroup
}

func newSpinners(n int) *spinners {
	s := &spinners{n: n}
	for range n - 1 {
		s.ended.Go(func() {
			for seen := int64(0); ; {
				switch g := s.gen.Load(); {
				case g < 0:
					return
				case g == seen:
					runtime.Gosched()
				default:
					seen = g
					s.f()
					s.left.Add(-1)
				}
			}
		})
	}
	return s
}

func (s *spinners) run(f func()) {
	s.f = f
	s.left.Store(int64(s.n - 1))
	s.gen.Add(1)
	f()
	for s.left.Load() > 0 {
		runtime.Gosched()
	}
}

func (s *spinners) stop() {
	s.gen.Store(-1)
	s.ended.Wait()
}
